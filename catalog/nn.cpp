// Catalog entries of the nn ops: softmax, log_softmax, layer_norm, nll_loss, cross_entropy,
// mse_loss, linear, dropout. Conformance: every optional argument appears in some sample; losses
// run with every reduction. Benchmark: rows of a square matrix, a batch of logits, a linear
// layer.
#include <limits>
#include <tuple>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), "nn", std::move(samples), std::move(run));
}

// ---- softmax, log_softmax ----

struct DimCase {
  std::string name;
  Shape shape;
  int64_t dim;
  Range range{-4, 4};
};

// Note [softmax samples]
// The wide range reaches exp's overflow point in float32 (88.7): kernels must subtract the max.
std::vector<Sample> softmax_samples(const SampleContext& ctx) {
  const std::vector<DimCase> cases = {
      {"scalar", {}, 0},
      {"scalar_neg", {}, -1},
      {"vec", {7}, 0},
      {"mat_d1", {3, 4}, 1},
      {"mat_neg", {3, 4}, -2},
      {"cube_d1", {2, 3, 5}, 1},
      {"cube_neg", {2, 3, 5}, -1},
      {"big_d0", {37, 53}, 0},
      {"big_d1", {37, 53}, 1},
      {"row_2053", {2, 2053}, -1},
      {"empty_dim", {2, 0, 3}, 1},
      {"empty_other", {2, 0, 3}, 2},
      {"size1", {5, 1, 4}, 1},
      {"wide", {4, 33}, 1, Range{-100, 100}},
  };
  std::vector<Sample> out;
  for (const DimCase& c : cases) {
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.shape, c.range)};
    s.args.dims = {c.dim};
    out.push_back(std::move(s));
  }
  // dtype=: the input is cast first, then computed in (and returned as) that dtype.
  for (const ScalarType dt : {kFloat, kDouble}) {
    Sample s;
    s.name = std::string("dtype_") + std::string(dtype_name(dt));
    s.inputs = {ctx.input(s.name, 0, {3, 17})};
    s.args.dims = {-1};
    s.args.dtype = dt;
    // In float64 the float32 sample's output is rounded: finite differences would be noise.
    s.smooth = dt == kDouble;
    out.push_back(std::move(s));
  }
  {
    // Attention masks: -inf at random positions and in all of row 0, whose result is NaN (the
    // max is -inf); the other rows give exactly 0 where masked.
    KernelSetGuard g("reference");
    Sample s;
    s.name = "masked_rows";
    s.smooth = false;
    Tensor masked = SampleContext("softmax/mask", kBool).input(s.name, 1, {4, 33});
    masked.select(0, 0).fill_(true);
    s.inputs = {ctx.input(s.name, 0, {4, 33})
                    .masked_fill(masked, -std::numeric_limits<double>::infinity())};
    s.args.dims = {1};
    out.push_back(std::move(s));
  }
  {
    KernelSetGuard g("reference");
    const Tensor e = edge_values(ctx.dtype());
    Sample s;
    s.name = "edge_values";
    s.smooth = false;
    s.inputs = {cat({e.narrow(0, 3, 16), e.narrow(0, 0, 16)}).view({2, 16})};
    s.args.dims = {1};
    out.push_back(std::move(s));
  }
  return out;
}

// Integer inputs with dtype= (the only way softmax takes them): cast, then computed.
std::vector<Sample> softmax_int_samples(const SampleContext& ctx) {
  std::vector<Sample> out;
  for (const ScalarType dt : {kFloat, kDouble}) {
    for (const auto& [name, shape, dim] : std::vector<std::tuple<std::string, Shape, int64_t>>{
             {"mat", {3, 4}, -1}, {"big", {37, 53}, 0}, {"scalar", {}, 0}}) {
      Sample s;
      s.name = name + "_to_" + std::string(dtype_name(dt));
      s.inputs = {ctx.input(s.name, 0, shape)};
      s.args.dims = {dim};
      s.args.dtype = dt;
      out.push_back(std::move(s));
    }
  }
  return out;
}

OpEntry softmax_entry(bool log) {
  OpEntry e = entry(log ? "log_softmax" : "softmax", softmax_samples,
                    [log](const In& in, const SampleArgs& a) {
                      return In{log ? ts::log_softmax(in[0], a.dims[0], a.dtype)
                                    : ts::softmax(in[0], a.dims[0], a.dtype)};
                    });
  e.run_out = [log](const In& outs, const In& in, const SampleArgs& a) {
    log ? ts::log_softmax_out(outs[0], in[0], a.dims[0], a.dtype)
        : ts::softmax_out(outs[0], in[0], a.dims[0], a.dtype);
  };
  return e;
}

// ---- layer_norm ----

// inputs {input, [weight], [bias]}; args.shape = normalized_shape; args.ints = {has_weight,
// has_bias}; args.reals = {eps} when not the default.
OpEntry layer_norm_entry() {
  OpEntry e = entry(
      "layer_norm",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape shape, normalized;
        };
        const std::vector<Case> cases = {
            {"vec", {7}, {7}},
            {"mat", {3, 4}, {4}},
            {"cube_rank1", {2, 3, 5}, {5}},
            {"cube_rank2", {2, 3, 5}, {3, 5}},
            {"cube_rank3", {2, 3, 5}, {2, 3, 5}},
            {"big", {37, 53}, {53}},
            {"row_2053", {2, 2053}, {2053}},
            {"empty_batch", {0, 4}, {4}},
            {"size1", {5, 1}, {1}},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          for (int affine = 0; affine < 4; ++affine) {
            const bool w = affine & 1, b = affine & 2;
            Sample s;
            s.name = c.name + (w ? "_w" : "") + (b ? "_b" : "");
            s.inputs = {ctx.input(s.name, 0, c.shape)};
            if (w) s.inputs.push_back(ctx.input(s.name, 1, c.normalized, Range{0.5, 2}));
            if (b) s.inputs.push_back(ctx.input(s.name, 2, c.normalized));
            s.args.shape = c.normalized;
            s.args.ints = {w, b};
            s.summands = numel_of(c.normalized);
            out.push_back(std::move(s));
          }
        }
        {
          // Note [Shifted layer_norm]
          // Mean 100, spread 1: a one-pass variance (E[x^2] - E[x]^2) is off by ~6% in
          // float32. Not further: (x - mean) / std has condition |mean| / std, and a float32
          // kernel must round the mean (ATen's too), so mean 1000 alone costs 2e-4 absolute.
          Sample s;
          s.name = "shifted";
          s.inputs = {ctx.input(s.name, 0, {8, 300}, Range{100, 101})};
          s.args.shape = {300};
          s.args.ints = {0, 0};
          s.summands = 300;
          out.push_back(std::move(s));
        }
        {
          // A large eps changes the result visibly: it must reach the kernel.
          Sample s;
          s.name = "eps_0.5";
          s.inputs = {ctx.input(s.name, 0, {6, 8}, Range{-0.5, 0.5})};
          s.args.shape = {8};
          s.args.ints = {0, 0};
          s.args.reals = {0.5};
          s.summands = 8;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        const Tensor w = a.ints[0] ? in[1] : Tensor();
        const Tensor b = a.ints[1] ? in[1 + a.ints[0]] : Tensor();
        return In{a.reals.empty() ? ts::layer_norm(in[0], a.shape, w, b)
                                  : ts::layer_norm(in[0], a.shape, w, b, a.reals[0])};
      });
  e.accumulates = true;
  return e;
}

// ---- nll_loss, cross_entropy ----

// Note [Loss samples]
// inputs {self, target, [weight]}; args.ints = {reduction, ignore_index}. Targets are drawn in
// [lo, hi) (hi = 0: C): with lo = -1 and ignore_index = -1 some targets are ignored;
// ignore_index = 1 is an ordinary class that is ignored wherever it appears. `all_ignored`
// ignores every target (Mean is then 0 / 0 = NaN, as PyTorch).
struct LossCase {
  std::string name;
  Shape self;
  int64_t lo = 0;
  int64_t ignore_index = -100;
  bool weight = false;
  int64_t hi = 0;
};

Shape target_shape(const Shape& self) {
  Shape t;
  for (size_t d = 0; d < self.size(); ++d) {
    if (d != 1 && self.size() > 1) t.push_back(self[d]);
  }
  return t;
}

std::vector<Sample> loss_samples(const SampleContext& ctx, const std::string& op, Range self_range,
                                 bool probability_targets) {
  const std::vector<LossCase> cases = {
      {"vec", {5}},
      {"batch", {8, 5}},
      {"batch_weight", {8, 5}, 0, -100, true},
      {"ignore_neg", {16, 5}, -1, -1},
      {"ignore_class", {16, 5}, 0, 1, true},
      {"all_ignored", {3, 4}, 2, 2, true, 3},
      {"spatial", {2, 4, 3}, -1, -1, true},
      {"spatial2", {2, 3, 2, 3}},
      {"empty_batch", {0, 5}},
      {"big", {257, 10}, -1, -1, true},
      {"many_classes", {6, 1000}, 0, -100, true},
  };
  const SampleContext targets(op + "/target", kLong);
  std::vector<Sample> out;
  for (const Reduction r : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
    for (const LossCase& c : cases) {
      Sample s;
      s.name = c.name + "_" + reduction_name(r);
      const int64_t classes = c.self[c.self.size() == 1 ? 0 : 1];
      s.inputs = {ctx.input(s.name, 0, c.self, self_range),
                  targets.input(s.name, 1, target_shape(c.self),
                                Range{static_cast<double>(c.lo),
                                      static_cast<double>(c.hi > 0 ? c.hi : classes)})};
      if (c.weight) s.inputs.push_back(ctx.input(s.name, 2, {classes}, Range{0.25, 2}));
      s.args.ints = {static_cast<int64_t>(r), c.ignore_index};
      s.summands = r == Reduction::None ? 1 : std::max<int64_t>(1, s.inputs[1].numel());
      out.push_back(std::move(s));
    }
    {
      // A uint8 target, which nll_loss accepts as well.
      Sample s;
      s.name = std::string("uint8_target_") + reduction_name(r);
      s.inputs = {ctx.input(s.name, 0, {6, 4}, self_range),
                  targets.input(s.name, 1, {6}, Range{0, 4}).to(kByte)};
      s.args.ints = {static_cast<int64_t>(r), -100};
      s.summands = r == Reduction::None ? 1 : 6;
      out.push_back(std::move(s));
    }
    if (probability_targets) {
      // Logits up to +-100: log_softmax must shift by the max (exp(100) overflows float32).
      Sample s;
      s.name = std::string("wide_logits_") + reduction_name(r);
      s.inputs = {ctx.input(s.name, 0, {9, 7}, Range{-100, 100}),
                  targets.input(s.name, 1, {9}, Range{0, 7})};
      s.args.ints = {static_cast<int64_t>(r), -100};
      s.summands = r == Reduction::None ? 7 : 63;
      out.push_back(std::move(s));
      // Class probabilities (the target has the input's shape), with and without weights.
      for (const bool weight : {false, true}) {
        Sample s;
        s.name = std::string("probs") + (weight ? "_weight_" : "_") + reduction_name(r);
        s.inputs = {ctx.input(s.name, 0, {6, 5}, self_range),
                    ctx.input(s.name, 1, {6, 5}, Range{0, 1})};
        if (weight) s.inputs.push_back(ctx.input(s.name, 2, {5}, Range{0.25, 2}));
        s.args.ints = {static_cast<int64_t>(r), -100};
        s.summands = r == Reduction::None ? 5 : 30;
        out.push_back(std::move(s));
      }
    }
  }
  return out;
}

OpEntry nll_loss_entry() {
  OpEntry e = entry(
      "nll_loss",
      [](const SampleContext& ctx) {
        return loss_samples(ctx, "nll_loss", {-4, 0}, false);
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::nll_loss(in[0], in[1], in.size() > 2 ? in[2] : Tensor(),
                               static_cast<Reduction>(a.ints[0]), a.ints[1])};
      });
  e.nograd_inputs = {2};  // the class weights (PyTorch does not differentiate them)
  e.accumulates = true;
  return e;
}

// args.reals = {label_smoothing} when given.
OpEntry cross_entropy_entry() {
  OpEntry e = entry(
      "cross_entropy",
      [](const SampleContext& ctx) {
        std::vector<Sample> out = loss_samples(ctx, "cross_entropy", {-4, 4}, true);
        std::vector<Sample> smoothed;
        for (const Sample& s : out) {
          if (s.name.rfind("batch_weight", 0) != 0 && s.name.rfind("ignore_neg", 0) != 0 &&
              s.name.rfind("probs", 0) != 0) {
            continue;
          }
          Sample ls = s;
          ls.name = "smooth_" + s.name;
          ls.args.reals = {0.2};
          smoothed.push_back(std::move(ls));
        }
        for (Sample& s : smoothed) out.push_back(std::move(s));
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::cross_entropy(in[0], in[1], in.size() > 2 ? in[2] : Tensor(),
                                    static_cast<Reduction>(a.ints[0]), a.ints[1],
                                    a.reals.empty() ? 0.0 : a.reals[0])};
      });
  e.nograd_inputs = {2};  // the class weights
  e.accumulates = true;
  return e;
}

// ---- mse_loss ----

OpEntry mse_loss_entry() {
  OpEntry e = entry(
      "mse_loss",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape a, b;
        };
        const std::vector<Case> cases = {
            {"same", {3, 4}, {3, 4}},     {"cube", {2, 3, 5}, {2, 3, 5}},
            {"bcast", {3, 4}, {4}},       {"zero_dim", {}, {}},
            {"empty", {0}, {0}},          {"big", {37, 53}, {37, 53}},
            {"row_2053", {2053}, {2053}},
        };
        std::vector<Sample> out;
        for (const Reduction r : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
          for (const Case& c : cases) {
            Sample s;
            s.name = c.name + "_" + reduction_name(r);
            s.inputs = {ctx.input(s.name, 0, c.a), ctx.input(s.name, 1, c.b)};
            s.args.ints = {static_cast<int64_t>(r)};
            s.summands = r == Reduction::None ? 1 : std::max<int64_t>(1, numel_of(c.a));
            out.push_back(std::move(s));
          }
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::mse_loss(in[0], in[1], static_cast<Reduction>(a.ints[0]))};
      });
  e.accumulates = true;
  e.grad_elementwise = true;  // 2 (x - y) g / n
  return e;
}

// ---- linear ----

// inputs {input, weight, [bias]}: y = input @ weight^T + bias; summands = in_features.
OpEntry linear_entry() {
  OpEntry e = entry(
      "linear",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape input, weight, bias;  // bias empty: none
          bool has_bias;
        };
        const std::vector<Case> cases = {
            {"vec", {5}, {3, 5}, {}, false},
            {"vec_bias", {5}, {3, 5}, {3}, true},
            {"mat", {4, 5}, {3, 5}, {}, false},
            {"mat_bias", {4, 5}, {3, 5}, {3}, true},
            {"batch_bias", {2, 4, 5}, {3, 5}, {3}, true},
            {"vec_weight", {4, 5}, {5}, {}, false},
            {"vec_weight_bias", {4, 5}, {5}, {}, true},  // a 0-dim bias
            {"empty_batch", {0, 5}, {3, 5}, {3}, true},
            {"zero_features", {4, 0}, {3, 0}, {3}, true},
            {"big", {33, 130}, {65, 130}, {65}, true},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.input), ctx.input(c.name, 1, c.weight)};
          if (c.has_bias) s.inputs.push_back(ctx.input(c.name, 2, c.bias));
          s.summands = std::max<int64_t>(1, c.input.back());
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs&) {
        return In{ts::linear(in[0], in[1], in.size() > 2 ? in[2] : Tensor())};
      });
  e.accumulates = true;
  return e;
}

// ---- dropout ----

// args.reals = {p}, args.flag = train, args.seed: the mask is drawn from Philox with the sample's
// seed, so every kernel set must keep exactly the reference's elements.
OpEntry dropout_entry() {
  OpEntry e = entry(
      "dropout",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape shape;
          double p;
          bool train;
        };
        const std::vector<Case> cases = {
            {"eval", {37, 53}, 0.5, false},     {"train_p0", {3, 4}, 0.0, true},
            {"train_p02", {37, 53}, 0.2, true}, {"train_p05", {2, 3, 5}, 0.5, true},
            {"train_p1", {3, 4}, 1.0, true},    {"train_scalar", {}, 0.5, true},
            {"train_empty", {0, 3}, 0.5, true},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.shape)};
          s.args.reals = {c.p};
          s.args.flag = c.train;
          s.args.seed = hash_name("dropout/" + std::string(dtype_name(ctx.dtype())) + "/" + c.name);
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        SeedScope seed(a);
        return In{ts::dropout(in[0], a.reals[0], a.flag)};
      });
  return e;
}

// ---- benchmark ----

BenchCase nn_case(const char* op, ScalarType t, std::vector<int64_t> sizes, std::string layout,
                  double bytes, double flops, std::vector<OpId> ops) {
  return make_case("nn", op, t, shape_str(sizes), std::move(layout), bytes, flops, std::move(ops));
}

// Classification losses: `batch` rows of 1000 logits.
int64_t loss_batch(const CaseList& list) {
  return list.quick() ? 256 : 4096;
}
constexpr int64_t kClasses = 1000;

void add_bench(std::vector<OpEntry>& v) {
  for (const bool log : {false, true}) {
    // max, exp(x - max), sum, scale (or log-sum and subtract): 4 per element.
    entry_named(v, log ? "log_softmax" : "softmax").bench =
        each_dtype(DTypeSet::floating(), [log](CaseList& list, ScalarType t) {
          const int64_t s = list.side();
          const std::vector<int64_t> sq{s, s};
          const OpId id = log ? OpId::log_softmax : OpId::softmax;
          BenchCase c = nn_case(log ? "log_softmax" : "softmax", t, sq, "dim1",
                                2 * nbytes(s * s, t), 4.0 * s * s, {id});
          c.setup = [=](Device d) -> std::function<void()> {
            Tensor x = make_input(sq, t, d), o = empty(sq, TensorOptions(t).device(d));
            return [=] { log ? log_softmax_out(o, x, 1) : softmax_out(o, x, 1); };
          };
          list.add(std::move(c));
        });
  }
  // mean (1), variance (3), normalize (2), affine (2) per element; weight and bias read once.
  entry_named(v, "layer_norm").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t s = list.side();
        const std::vector<int64_t> sq{s, s};
        BenchCase c =
            nn_case("layer_norm", t, sq, "last_dim", 2 * nbytes(s * s, t) + 2 * nbytes(s, t),
                    8.0 * s * s, {OpId::layer_norm});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(sq, t, d), w = make_input({s}, t, d), bias = make_input({s}, t, d);
          return [=] { (void)layer_norm(x, {s}, w, bias); };
        };
        list.add(std::move(c));
      });
  entry_named(v, "nll_loss").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t batch = loss_batch(list);
        BenchCase c =
            nn_case("nll_loss", t, {batch, kClasses}, "mean", nbytes(batch, t) + 8.0 * batch,
                    static_cast<double>(batch), {OpId::nll_loss});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input({batch, kClasses}, t, d), target = make_index({batch}, kClasses, d);
          return [=] { (void)nll_loss(x, target); };
        };
        list.add(std::move(c));
      });
  // log_softmax over the logits, then nll_loss.
  entry_named(v, "cross_entropy").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t batch = loss_batch(list);
        const double lb = nbytes(batch * kClasses, t), nl = static_cast<double>(batch * kClasses);
        BenchCase c =
            nn_case("cross_entropy", t, {batch, kClasses}, "mean", 2 * lb + 8.0 * batch + lb,
                    4 * nl + static_cast<double>(batch), {OpId::log_softmax, OpId::nll_loss});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input({batch, kClasses}, t, d), target = make_index({batch}, kClasses, d);
          return [=] { (void)cross_entropy(x, target); };
        };
        list.add(std::move(c));
      });
  entry_named(v, "mse_loss").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t s = list.side();
        const std::vector<int64_t> sq{s, s};
        BenchCase c = nn_case("mse_loss", t, sq, "mean", 2 * nbytes(s * s, t) + nbytes(1, t),
                              3.0 * s * s, {OpId::mse_loss});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(sq, t, d), y = make_input(sq, t, d);
          return [=] { (void)mse_loss(x, y); };
        };
        list.add(std::move(c));
      });
  // [tokens, in] x [out, in]^T + bias.
  entry_named(v, "linear").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t tokens = list.quick() ? 64 : 256, in = list.quick() ? 256 : 768, out = in;
        const double flops = 2.0 * tokens * in * out + 1.0 * tokens * out;
        BenchCase c = nn_case("linear", t, {tokens, in, out}, "bias",
                              nbytes(tokens * in + out * in + out + tokens * out, t), flops,
                              {OpId::mm, OpId::add});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input({tokens, in}, t, d), w = make_input({out, in}, t, d);
          Tensor bias = make_input({out}, t, d);
          return [=] { (void)linear(x, w, bias); };
        };
        list.add(std::move(c));
      });
  // Training-mode dropout: a uniform draw, a mask, its scale, then the product; the traffic of
  // those four steps (the composite's temporaries) counts.
  entry_named(v, "dropout").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t s = list.side();
        const std::vector<int64_t> sq{s, s};
        BenchCase c = nn_case("dropout", t, sq, "train_p0.1", 9 * nbytes(s * s, t), 4.0 * s * s,
                              {OpId::rand, OpId::lt, OpId::copy_, OpId::div, OpId::mul});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(sq, t, d);
          return [=] { (void)dropout(x, 0.1, true); };
        };
        list.add(std::move(c));
      });
}

}  // namespace

std::vector<OpEntry> nn_entries() {
  std::vector<OpEntry> v;
  for (const bool log : {false, true}) {
    v.push_back(softmax_entry(log));
    OpEntry ints = softmax_entry(log);
    ints.op = ints.name;
    ints.name += ".int_input";
    ints.dtypes = DTypeSet::integral(/*include_bool=*/false);
    ints.samples = softmax_int_samples;
    v.push_back(std::move(ints));
  }
  v.push_back(layer_norm_entry());
  v.push_back(nll_loss_entry());
  v.push_back(cross_entropy_entry());
  v.push_back(mse_loss_entry());
  v.push_back(linear_entry());
  v.push_back(dropout_entry());
  add_bench(v);
  // Note [Known answers] in catalog.h: softmax([1, 2, 3]) = exp(x) / sum(exp(x)).
  entry_named(v, "softmax").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dims = {0};
         return known_answer(
             "known", {tensor({1., 2., 3.})},
             {tensor({0.09003057317038046, 0.24472847105479767, 0.6652409557748219})}, a);
       }}};
  return v;
}

}  // namespace ts::catalog
