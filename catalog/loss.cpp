// Catalog entries of the losses of issue 16: binary_cross_entropy,
// binary_cross_entropy_with_logits, l1_loss, smooth_l1_loss, huber_loss, kl_div, cosine_similarity,
// pairwise_distance, cosine_embedding_loss, margin_ranking_loss, triplet_margin_loss, ctc_loss.
// Conformance: every reduction and optional argument, edge values, empty and 0-dim inputs, known
// answers worked by hand. Benchmark: a batch of 8192 x 1000 predictions, rows of 1000 features, the
// ctc_loss of a small speech batch (T 50, N 16, C 20, S 30).
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

constexpr Reduction kReductions[] = {Reduction::None, Reduction::Mean, Reduction::Sum};

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), "loss", std::move(samples), std::move(run));
}

Reduction reduction_of(const SampleArgs& a) {
  return static_cast<Reduction>(a.ints.at(0));
}

// A tensor of `values` in the context's dtype (targets of +-1, known answers).
Tensor values_of(const SampleContext& ctx, std::vector<double> values) {
  return tensor(ArrayRef<double>(values), TensorOptions(kDouble)).to(ctx.dtype());
}

// ---- the pointwise losses: (self, target), args.ints = {reduction}, reals per op ----

struct PairCase {
  std::string name;
  Shape a, b;
};

const std::vector<PairCase> kPairCases = {
    {"same", {3, 4}, {3, 4}},     {"cube", {2, 3, 5}, {2, 3, 5}},
    {"bcast", {3, 4}, {4}},       {"zero_dim", {}, {}},
    {"empty", {0}, {0}},          {"big", {37, 53}, {37, 53}},
    {"row_2053", {2053}, {2053}},
};

// One sample per case and reduction, self from `ra`, target from `rb` (same shapes when
// `same_shape`), then the edge values against zeros (not smooth); `reals` are the op's floats.
std::vector<Sample> pair_samples(const SampleContext& ctx, Range ra, Range rb, bool same_shape,
                                 std::vector<double> reals, bool edges = true) {
  std::vector<Sample> out;
  for (const Reduction r : kReductions) {
    for (const PairCase& c : kPairCases) {
      if (same_shape && c.a != c.b) continue;
      Sample s;
      s.name = c.name + "_" + reduction_name(r);
      s.inputs = {ctx.input(s.name, 0, c.a, ra), ctx.input(s.name, 1, c.b, rb)};
      s.args.ints = {static_cast<int64_t>(r)};
      s.args.reals = reals;
      s.summands = r == Reduction::None ? 1 : std::max<int64_t>(1, numel_of(c.a));
      out.push_back(std::move(s));
    }
    if (edges && is_floating_type(ctx.dtype())) {
      const Tensor e = edge_values(ctx.dtype());
      Sample s;
      s.name = std::string("edge_values_") + reduction_name(r);
      s.inputs = {e, zeros(e.sizes(), TensorOptions(ctx.dtype()))};
      s.args.ints = {static_cast<int64_t>(r)};
      s.args.reals = reals;
      s.smooth = false;
      s.summands = r == Reduction::None ? 1 : e.numel();
      out.push_back(std::move(s));
    }
  }
  return out;
}

OpEntry pair_entry(std::string name, SamplesFn samples, RunFn run) {
  OpEntry e = entry(std::move(name), std::move(samples), std::move(run));
  e.accumulates = true;
  e.grad_elementwise = true;
  return e;
}

// args.reals = {beta}: 1 (the default), 0.5, and 0 (l1_loss).
OpEntry smooth_l1_entry() {
  return pair_entry(
      "smooth_l1_loss",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const double beta : {1.0, 0.5, 0.0}) {
          for (Sample& s : pair_samples(ctx, {-3, 3}, {-3, 3}, false, {beta}, beta == 1.0)) {
            s.name += beta == 1.0 ? "" : beta == 0.5 ? "_beta05" : "_beta0";
            out.push_back(std::move(s));
          }
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::smooth_l1_loss(in[0], in[1], reduction_of(a), a.reals[0])};
      });
}

// args.reals = {delta}: 1 (the default) and 2.5.
OpEntry huber_entry() {
  return pair_entry(
      "huber_loss",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const double delta : {1.0, 2.5}) {
          for (Sample& s : pair_samples(ctx, {-4, 4}, {-4, 4}, false, {delta}, delta == 1.0)) {
            s.name += delta == 1.0 ? "" : "_delta25";
            out.push_back(std::move(s));
          }
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::huber_loss(in[0], in[1], reduction_of(a), a.reals[0])};
      });
}

// Note [kl_div samples]
// self is a log-probability, target a probability (log_target false, with exact zeros in the
// `zeros` samples: xlogy(0, 0) = 0; target's gradient there is 0/0 = NaN, as PyTorch's, so not
// smooth) or a log-probability (args.flag, log_target true).
OpEntry kl_div_entry() {
  return pair_entry(
      "kl_div",
      [](const SampleContext& ctx) {
        std::vector<Sample> out = pair_samples(ctx, {-4, 0}, {0.01, 1}, false, {}, false);
        for (Sample& s : pair_samples(ctx, {-4, 0}, {-4, 0}, false, {}, false)) {
          s.name += "_log_target";
          s.args.flag = true;
          out.push_back(std::move(s));
        }
        for (const Reduction r : kReductions) {
          Sample s;
          s.name = std::string("zeros_") + reduction_name(r);
          const Tensor t = ctx.input(s.name, 1, {4, 5}, {0, 1});
          s.inputs = {ctx.input(s.name, 0, {4, 5}, {-4, 0}), where(lt(t, 0.3), 0.0, t)};
          s.args.ints = {static_cast<int64_t>(r)};
          s.smooth = false;
          s.summands = r == Reduction::None ? 1 : 20;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::kl_div(in[0], in[1], reduction_of(a), a.flag)};
      });
}

// torch.nn.functional.kl_div's reduction "batchmean" (Note [kl_div batchmean] in
// lib/src/ops/loss.cpp): the sum over size(0); a 0-dim self's sum as is. args.flag: log_target.
OpEntry kl_div_batchmean_entry() {
  OpEntry e = pair_entry(
      "kl_div.batchmean",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        const std::vector<std::pair<std::string, std::vector<int64_t>>> shapes = {
            {"batch", {4, 5}},   {"vec", {3}},        {"scalar", {}},
            {"cube", {2, 3, 4}}, {"one_row", {1, 7}}, {"empty", {0, 3}}};
        for (const bool log_target : {false, true}) {
          for (const auto& [name, shape] : shapes) {
            Sample s;
            s.name = name + (log_target ? "_log_target" : "");
            s.inputs = {ctx.input(s.name, 0, shape, {-4, 0}),
                        ctx.input(s.name, 1, shape, log_target ? Range{-4, 0} : Range{0.01, 1})};
            s.args.flag = log_target;
            s.summands = std::max<int64_t>(1, numel_of(shape));
            out.push_back(std::move(s));
          }
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::kl_div(in[0], in[1], "batchmean", a.flag)};
      });
  e.op = "kl_div";
  // self 0 (log-probabilities), target [[1, 1], [0.5, 0.5]]: the sum 2 * 0.5 * log(0.5) = -log 2
  // over a batch of 2, -log(2) / 2, by hand.
  e.known = {{kDouble, [] {
                return known_answer(
                    "known",
                    {zeros({2, 2}, kDouble), tensor({1., 1., .5, .5}, kDouble).view({2, 2})},
                    {full({}, -0.34657359027997264, kDouble)});
              }}};
  return e;
}

// inputs {self, target, [weight]}, self in (0, 1); the `clamp` samples reach log(0), which
// ATen clamps at -100.
OpEntry bce_entry() {
  OpEntry e = pair_entry(
      "binary_cross_entropy",
      [](const SampleContext& ctx) {
        std::vector<Sample> out = pair_samples(ctx, {0.02, 0.98}, {0, 1}, true, {}, false);
        for (const Reduction r : kReductions) {
          for (const bool full : {false, true}) {
            Sample s;
            s.name = std::string(full ? "weight_" : "weight_row_") + reduction_name(r);
            s.inputs = {ctx.input(s.name, 0, {6, 5}, {0.02, 0.98}),
                        ctx.input(s.name, 1, {6, 5}, {0, 1}),
                        ctx.input(s.name, 2, full ? Shape{6, 5} : Shape{5}, {0.25, 2})};
            s.args.ints = {static_cast<int64_t>(r)};
            s.summands = r == Reduction::None ? 1 : 30;
            out.push_back(std::move(s));
          }
          Sample s;
          s.name = std::string("clamp_") + reduction_name(r);
          s.inputs = {values_of(ctx, {0, 1, 0, 1, 0.5, 1e-30}),
                      values_of(ctx, {1, 0, 0, 1, 0.5, 1})};
          s.args.ints = {static_cast<int64_t>(r)};
          s.smooth = false;
          s.summands = r == Reduction::None ? 1 : 6;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::binary_cross_entropy(in[0], in[1], in.size() > 2 ? in[2] : Tensor(),
                                           reduction_of(a))};
      });
  e.nograd_inputs = {2};  // the weight (ATen has no derivative for it)
  // By hand: x 0, y 1 and x 1, y 0 give 100 (log clamped at -100); x = y in {0, 1} gives 0;
  // x = y = 0.5 gives log(2); x 1e-30, y 1 gives 100 (log(1e-30) = -69.08 is kept).
  e.known = {
      {kDouble, [] {
         SampleArgs a;
         a.ints = {static_cast<int64_t>(Reduction::None)};
         const TensorOptions f64(kDouble);
         Sample s = known_answer(
             "known_clamp",
             {tensor({0., 1., 0., 1., 0.5, 1e-30}, f64), tensor({1., 0., 0., 1., 0.5, 1.}, f64)},
             {tensor({100., 100., 0., 0., 0.6931471805599453, 69.07755278982137}, f64)}, a);
         s.smooth = false;  // the gradient at x = 0 or 1 is (x - y) / 1e-12
         return s;
       }}};
  return e;
}

// inputs {self, target, [weight], [pos_weight]}; args.ints = {reduction, has_weight,
// has_pos_weight}: which of the optional inputs follow.
OpEntry bce_logits_entry() {
  OpEntry e = pair_entry(
      "binary_cross_entropy_with_logits",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (Sample& s : pair_samples(ctx, {-4, 4}, {0, 1}, true, {}, false)) {
          s.args.ints = {s.args.ints[0], 0, 0};
          out.push_back(std::move(s));
        }
        for (const Reduction r : kReductions) {
          for (const int which : {1, 2, 3}) {
            const bool w = (which & 1) != 0, pw = (which & 2) != 0;
            Sample s;
            s.name =
                std::string(w ? "weight_" : "") + (pw ? "pos_weight_" : "") + reduction_name(r);
            s.inputs = {ctx.input(s.name, 0, {6, 5}, {-4, 4}),
                        ctx.input(s.name, 1, {6, 5}, {0, 1})};
            if (w) s.inputs.push_back(ctx.input(s.name, 2, {6, 5}, {0.25, 2}));
            if (pw) s.inputs.push_back(ctx.input(s.name, 3, {5}, {0.25, 4}));
            s.args.ints = {static_cast<int64_t>(r), w ? 1 : 0, pw ? 1 : 0};
            s.summands = r == Reduction::None ? 1 : 30;
            out.push_back(std::move(s));
          }
          // Logits up to +-100: the stable form never overflows exp.
          Sample s;
          s.name = std::string("wide_") + reduction_name(r);
          s.inputs = {ctx.input(s.name, 0, {9, 7}, {-100, 100}),
                      ctx.input(s.name, 1, {9, 7}, {0, 1})};
          s.args.ints = {static_cast<int64_t>(r), 0, 0};
          s.summands = r == Reduction::None ? 1 : 63;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        size_t k = 2;
        const Tensor w = a.ints[1] != 0 ? in[k++] : Tensor();
        const Tensor pw = a.ints[2] != 0 ? in[k++] : Tensor();
        return In{ts::binary_cross_entropy_with_logits(in[0], in[1], w, pw, reduction_of(a))};
      });
  e.nograd_inputs = {2, 3};  // weight and pos_weight (ATen has no derivative for them)
  return e;
}

// ---- distances: args.dims, reals and flag per op ----

// inputs {x1, x2}; args.dims = {dim}, args.reals = {eps}.
OpEntry cosine_similarity_entry() {
  OpEntry e = entry(
      "cosine_similarity",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape a, b;
          int64_t dim;
          double eps;
        };
        const std::vector<Case> cases = {
            {"mat_d1", {4, 5}, {4, 5}, 1, 1e-8},
            {"mat_d0", {4, 5}, {4, 5}, 0, 1e-8},
            {"cube_neg", {2, 3, 5}, {2, 3, 5}, -1, 1e-8},
            {"bcast", {3, 4}, {4}, 1, 1e-8},
            {"vec", {5}, {5}, 0, 1e-8},
            {"eps", {4, 5}, {4, 5}, 1, 0.5},
            {"empty_batch", {0, 5}, {0, 5}, 1, 1e-8},
            {"big", {37, 130}, {37, 130}, 1, 1e-8},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.a), ctx.input(c.name, 1, c.b)};
          s.args.dims = {c.dim};
          s.args.reals = {c.eps};
          s.summands =
              c.a.empty() ? 1 : c.a[static_cast<size_t>((c.dim + c.a.size()) % c.a.size())];
          out.push_back(std::move(s));
        }
        // A zero row: its norm is clamped to eps and its similarity is 0.
        Sample s;
        s.name = "zero_row";
        const Tensor x = ctx.input(s.name, 0, {3, 4});
        s.inputs = {x * tensor({1., 0., 1.}, TensorOptions(kDouble)).to(x.dtype()).view({3, 1}),
                    ctx.input(s.name, 1, {3, 4})};
        s.args.dims = {1};
        s.args.reals = {1e-8};
        s.smooth = false;
        s.summands = 4;
        out.push_back(std::move(s));
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::cosine_similarity(in[0], in[1], a.dims[0], a.reals[0])};
      });
  e.accumulates = true;
  return e;
}

// inputs {x1, x2}; args.reals = {p, eps}, args.flag = keepdim.
OpEntry pairwise_distance_entry() {
  OpEntry e = entry(
      "pairwise_distance",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape a, b;
          double p;
          bool keepdim;
        };
        const double inf = std::numeric_limits<double>::infinity();
        const std::vector<Case> cases = {
            {"p2", {4, 5}, {4, 5}, 2, false},        {"p1", {4, 5}, {4, 5}, 1, false},
            {"p3", {4, 5}, {4, 5}, 3, false},        {"pinf", {4, 5}, {4, 5}, inf, false},
            {"keepdim", {4, 5}, {4, 5}, 2, true},    {"vec", {5}, {5}, 2, false},
            {"bcast", {3, 5}, {5}, 2, false},        {"cube", {2, 3, 5}, {2, 3, 5}, 2, false},
            {"big", {37, 130}, {37, 130}, 2, false},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.a), ctx.input(c.name, 1, c.b)};
          s.args.reals = {c.p, 1e-6};
          s.args.flag = c.keepdim;
          s.summands = c.a.back();
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::pairwise_distance(in[0], in[1], a.reals[0], a.reals[1], a.flag)};
      });
  e.accumulates = true;
  return e;
}

// inputs {input1, input2, target}: target of +-1 (and 0, which gives 0) for each row;
// args.ints = {reduction}, args.reals = {margin}.
OpEntry cosine_embedding_entry() {
  OpEntry e = entry(
      "cosine_embedding_loss",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const Reduction r : kReductions) {
          for (const double margin : {0.0, 0.5}) {
            Sample s;
            s.name = std::string("rows_") + reduction_name(r) + (margin > 0 ? "_margin" : "");
            s.inputs = {ctx.input(s.name, 0, {6, 4}), ctx.input(s.name, 1, {6, 4}),
                        values_of(ctx, {1, -1, -1, 1, 0, -1})};
            s.args.ints = {static_cast<int64_t>(r)};
            s.args.reals = {margin};
            s.summands = r == Reduction::None ? 4 : 24;
            out.push_back(std::move(s));
          }
          Sample s;
          s.name = std::string("vec_") + reduction_name(r);
          s.inputs = {ctx.input(s.name, 0, {5}), ctx.input(s.name, 1, {5}),
                      values_of(ctx, {-1}).view({})};
          s.args.ints = {static_cast<int64_t>(r)};
          s.args.reals = {0.0};
          s.summands = 5;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::cosine_embedding_loss(in[0], in[1], in[2], a.reals[0], reduction_of(a))};
      });
  e.nograd_inputs = {2};  // the target (compared, never differentiated)
  e.accumulates = true;
  e.grad_elementwise = true;
  return e;
}

// inputs {input1, input2, target}; args.ints = {reduction}, args.reals = {margin}.
OpEntry margin_ranking_entry() {
  OpEntry e = entry(
      "margin_ranking_loss",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const Reduction r : kReductions) {
          for (const double margin : {0.0, 0.5}) {
            Sample s;
            s.name = std::string("vec_") + reduction_name(r) + (margin > 0 ? "_margin" : "");
            s.inputs = {ctx.input(s.name, 0, {8}), ctx.input(s.name, 1, {8}),
                        values_of(ctx, {1, -1, -1, 1, 1, -1, 1, -1})};
            s.args.ints = {static_cast<int64_t>(r)};
            s.args.reals = {margin};
            s.summands = r == Reduction::None ? 1 : 8;
            out.push_back(std::move(s));
          }
          Sample s;
          s.name = std::string("big_") + reduction_name(r);
          s.inputs = {ctx.input(s.name, 0, {2053}), ctx.input(s.name, 1, {2053}),
                      ctx.input(s.name, 2, {2053})};
          s.args.ints = {static_cast<int64_t>(r)};
          s.args.reals = {0.25};
          s.summands = r == Reduction::None ? 1 : 2053;
          out.push_back(std::move(s));
          Sample z;
          z.name = std::string("empty_") + reduction_name(r);
          z.inputs = {ctx.input(z.name, 0, {0}), ctx.input(z.name, 1, {0}),
                      ctx.input(z.name, 2, {0})};
          z.args.ints = {static_cast<int64_t>(r)};
          z.args.reals = {0.0};
          out.push_back(std::move(z));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::margin_ranking_loss(in[0], in[1], in[2], a.reals[0], reduction_of(a))};
      });
  e.accumulates = true;
  e.grad_elementwise = true;
  return e;
}

// inputs {anchor, positive, negative}; args.ints = {reduction}, args.reals = {margin, p, eps},
// args.flag = swap.
OpEntry triplet_entry() {
  OpEntry e = entry(
      "triplet_margin_loss",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape shape;
          double margin, p;
          bool swap;
        };
        const std::vector<Case> cases = {
            {"rows", {6, 4}, 1.0, 2, false}, {"swap", {6, 4}, 1.0, 2, true},
            {"p1", {6, 4}, 1.0, 1, false},   {"margin", {6, 4}, 0.5, 2, false},
            {"vec", {4}, 1.0, 2, false},     {"big", {37, 130}, 1.0, 2, true},
        };
        std::vector<Sample> out;
        for (const Reduction r : kReductions) {
          for (const Case& c : cases) {
            Sample s;
            s.name = c.name + "_" + reduction_name(r);
            s.inputs = {ctx.input(s.name, 0, c.shape), ctx.input(s.name, 1, c.shape),
                        ctx.input(s.name, 2, c.shape)};
            s.args.ints = {static_cast<int64_t>(r)};
            s.args.reals = {c.margin, c.p, 1e-6};
            s.args.flag = c.swap;
            s.summands = numel_of(c.shape);
            out.push_back(std::move(s));
          }
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::triplet_margin_loss(in[0], in[1], in[2], a.reals[0], a.reals[1], a.reals[2],
                                          a.flag, reduction_of(a))};
      });
  e.accumulates = true;
  return e;
}

// ---- ctc_loss ----

// Note [ctc_loss samples]
// inputs {logits (T, N, C) or (T, C), targets (int64 or int32)}; args.ints = {blank, reduction,
// input_lengths..., target_lengths...}, args.flag = zero_infinity. The run function passes
// log_softmax(logits) as log_probs: ATen's gradient (Note [ctc_loss gradient] in
// lib/src/ops/loss.cpp) is the derivative of nll with respect to log_probs plus exp(log_probs),
// which log_softmax's backward removes, so gradcheck holds for the composition only (as in
// PyTorch's own tests).
struct CtcCase {
  std::string name;
  int64_t T, N, C;
  std::vector<int64_t> il, tl;
  int form;  // 0 padded (N, S), 1 concatenated, 2 unbatched (T, C) with (S) targets
  int64_t blank;
  std::vector<int64_t> fixed = {};  // explicit targets (padded rows or concatenated)
  bool zero_infinity = false;
  ScalarType target_dtype = kLong;
};

std::vector<Sample> ctc_samples(const SampleContext& ctx) {
  const std::vector<CtcCase> cases = {
      {"padded", 6, 3, 5, {6, 5, 4}, {3, 2, 0}, 0, 0},
      {"concat", 6, 3, 5, {6, 6, 3}, {2, 3, 1}, 1, 0},
      {"unbatched", 7, 1, 4, {7}, {3}, 2, 0},
      {"blank_last", 5, 2, 4, {5, 4}, {2, 2}, 0, 3},
      {"repeats", 6, 2, 4, {6, 5}, {3, 2}, 0, 0, {1, 1, 2, 3, 3, 0}},
      {"int32", 6, 2, 5, {6, 6}, {2, 3}, 0, 0, {}, false, kInt},
      // Too few frames (3 labels with a repeat need 4): infinite loss, 0 with zero_infinity.
      {"impossible", 3, 2, 4, {3, 3}, {3, 1}, 0, 0, {2, 2, 1, 3, 0, 0}},
      {"impossible_zero_inf", 3, 2, 4, {3, 3}, {3, 1}, 0, 0, {2, 2, 1, 3, 0, 0}, true},
      {"big", 50, 4, 20, {50, 41, 30, 50}, {30, 12, 20, 1}, 0, 0},
  };
  std::vector<Sample> out;
  const SampleContext classes(std::string("ctc_loss/index"), kLong);
  for (const Reduction r : kReductions) {
    for (const CtcCase& c : cases) {
      Sample s;
      s.name = c.name + "_" + reduction_name(r);
      const Shape shape = c.form == 2 ? Shape{c.T, c.C} : Shape{c.T, c.N, c.C};
      const int64_t max_tl = *std::max_element(c.tl.begin(), c.tl.end());
      int64_t total = 0;
      for (int64_t t : c.tl) total += t;
      const Shape tshape = c.form == 0 ? Shape{c.N, max_tl} : Shape{c.form == 1 ? total : max_tl};
      Tensor targets;
      if (!c.fixed.empty()) {
        targets = tensor(ArrayRef<int64_t>(c.fixed)).view(tshape);
      } else {
        // Classes other than the blank: drawn from [0, C - 1), shifted past it.
        const Tensor raw = classes.input(s.name, 1, tshape, Range{0, static_cast<double>(c.C - 1)});
        targets = raw + ge(raw, c.blank).to(kLong);
      }
      s.inputs = {ctx.input(s.name, 0, shape, Range{-3, 3}), targets.to(c.target_dtype)};
      s.args.ints = {c.blank, static_cast<int64_t>(r)};
      for (int64_t v : c.il) s.args.ints.push_back(v);
      for (int64_t v : c.tl) s.args.ints.push_back(v);
      s.args.flag = c.zero_infinity;
      s.smooth = c.name.rfind("impossible", 0) != 0;
      s.summands = c.T * 3;
      s.has_out = false;
      out.push_back(std::move(s));
    }
  }
  return out;
}

OpEntry ctc_entry() {
  OpEntry e = entry("ctc_loss", ctc_samples, [](const In& in, const SampleArgs& a) {
    const int64_t n = in[0].dim() == 3 ? in[0].size(1) : 1;
    const std::vector<int64_t> il(a.ints.begin() + 2, a.ints.begin() + 2 + n);
    const std::vector<int64_t> tl(a.ints.begin() + 2 + n, a.ints.begin() + 2 + 2 * n);
    return In{ts::ctc_loss(log_softmax(in[0], -1), in[1], il, tl, a.ints[0],
                           static_cast<Reduction>(a.ints[1]), a.flag)};
  });
  e.accumulates = true;
  // By hand (Note [ctc_loss known answer] in tests/test_loss.cpp): T 2, C 2, target (1), uniform
  // log-probabilities: the alignments (1, 1), (0, 1), (1, 0) each have probability 1/4, so nll is
  // log(4 / 3); the run function applies log_softmax to the zero logits.
  e.known = {{kDouble, [] {
                SampleArgs a;
                a.ints = {0, static_cast<int64_t>(Reduction::None), 2, 1};
                return known_answer("known_uniform",
                                    {zeros({2, 1, 2}, TensorOptions(kDouble)),
                                     tensor(ArrayRef<int64_t>({1})).view({1, 1})},
                                    {tensor({0.28768207245178085}, TensorOptions(kDouble))}, a);
              }}};
  return e;
}

// ---- benchmark ----

BenchCase loss_case(const char* op, ScalarType t, std::vector<int64_t> sizes, std::string layout,
                    double bytes, double flops, std::vector<OpId> ops) {
  return make_case("loss", op, t, shape_str(sizes), std::move(layout), bytes, flops,
                   std::move(ops));
}

// A batch of predictions: 8192 x 1000 (quick: 1024 x 1000).
Shape prediction_shape(const CaseList& list) {
  return {list.quick() ? 1024 : 8192, 1000};
}

void add_bench(std::vector<OpEntry>& v) {
  // Two reads, the logs (two per element), about 8 FLOPs per element; a 0-dim result.
  entry_named(v, "binary_cross_entropy").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const Shape s = prediction_shape(list);
        const int64_t n = numel_of(s);
        BenchCase c = loss_case("binary_cross_entropy", t, s, "mean", 2 * nbytes(n, t), 8.0 * n,
                                {OpId::binary_cross_entropy});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(s, t, Range{0.02, 0.98}, d), y = make_input(s, t, Range{0, 1}, d);
          return [=] { (void)binary_cross_entropy(x, y); };
        };
        list.add(std::move(c));
      });
  entry_named(v, "binary_cross_entropy_with_logits").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const Shape s = prediction_shape(list);
        const int64_t n = numel_of(s);
        BenchCase c = loss_case("binary_cross_entropy_with_logits", t, s, "mean", 2 * nbytes(n, t),
                                8.0 * n, {OpId::log_sigmoid, OpId::mul, OpId::sub, OpId::mean});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(s, t, d), y = make_input(s, t, Range{0, 1}, d);
          return [=] { (void)binary_cross_entropy_with_logits(x, y); };
        };
        list.add(std::move(c));
      });
  // The pointwise losses on a square: sub, abs, the op's branch, mean.
  for (const char* name : {"l1_loss", "smooth_l1_loss", "huber_loss", "kl_div"}) {
    const std::string op = name;
    entry_named(v, op).bench = each_dtype(DTypeSet::floating(), [op](CaseList& list, ScalarType t) {
      const int64_t side = list.side();
      const Shape s{side, side};
      const int64_t n = side * side;
      BenchCase c = loss_case(op.c_str(), t, s, "mean", 2 * nbytes(n, t), 4.0 * n,
                              {OpId::sub, OpId::abs, OpId::mean});
      c.setup = [=](Device d) -> std::function<void()> {
        const bool kl = op == "kl_div";
        Tensor x = make_input(s, t, kl ? Range{-4, 0} : Range{-4, 4}, d);
        Tensor y = make_input(s, t, kl ? Range{0, 1} : Range{-4, 4}, d);
        if (op == "l1_loss") return [=] { (void)l1_loss(x, y); };
        if (op == "smooth_l1_loss") return [=] { (void)smooth_l1_loss(x, y); };
        if (op == "huber_loss") return [=] { (void)huber_loss(x, y); };
        return [=] { (void)kl_div(x, y); };
      };
      list.add(std::move(c));
    });
  }
  // Rows of 1000 features (embeddings): 4096 rows (quick 512).
  for (const char* name : {"cosine_similarity", "pairwise_distance", "cosine_embedding_loss",
                           "margin_ranking_loss", "triplet_margin_loss"}) {
    const std::string op = name;
    entry_named(v, op).bench = each_dtype(DTypeSet::floating(), [op](CaseList& list, ScalarType t) {
      const int64_t rows = list.quick() ? 512 : 4096;
      const Shape s = op == "margin_ranking_loss" ? Shape{rows * 1000} : Shape{rows, 1000};
      const int64_t n = rows * 1000;
      const int inputs = op == "triplet_margin_loss" ? 3 : 2;
      BenchCase c = loss_case(op.c_str(), t, s, "rows", inputs * nbytes(n, t), 4.0 * n * inputs,
                              {OpId::mul, OpId::sum, OpId::norm});
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor a = make_input(s, t, d), b = make_input(s, t, d);
        if (op == "cosine_similarity") return [=] { (void)cosine_similarity(a, b); };
        if (op == "pairwise_distance") return [=] { (void)pairwise_distance(a, b); };
        if (op == "cosine_embedding_loss") {
          Tensor y = make_input({rows}, t, Range{0, 1}, d).gt(0.5).to(t) * 2 - 1;
          return [=] { (void)cosine_embedding_loss(a, b, y); };
        }
        if (op == "margin_ranking_loss") {
          Tensor y = make_input(s, t, Range{0, 1}, d).gt(0.5).to(t) * 2 - 1;
          return [=] { (void)margin_ranking_loss(a, b, y); };
        }
        Tensor neg = make_input(s, t, d);
        return [=] { (void)triplet_margin_loss(a, b, neg); };
      };
      list.add(std::move(c));
    });
  }
  // T 50, N 16, C 20, S 30: alpha over 2S + 1 states and T frames per sample.
  entry_named(v, "ctc_loss").bench =
      each_dtype(DTypeSet{kFloat, kDouble}, [](CaseList& list, ScalarType t) {
        const int64_t T = 50, N = 16, C = 20, S = 30;
        BenchCase c =
            loss_case("ctc_loss", t, {T, N, C}, "padded", nbytes(T * N * C, t) + 8.0 * N * S,
                      12.0 * T * N * (2 * S + 1), {OpId::ctc_loss});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor lp = log_softmax(make_input({T, N, C}, t, d), 2);
          Tensor targets = make_index({N, S}, C - 1, d) + 1;
          const std::vector<int64_t> il(static_cast<size_t>(N), T), tl(static_cast<size_t>(N), S);
          return [=] { (void)ctc_loss(lp, targets, il, tl); };
        };
        list.add(std::move(c));
      });
}

}  // namespace

std::vector<OpEntry> loss_entries() {
  std::vector<OpEntry> v;
  v.push_back(bce_entry());
  v.push_back(bce_logits_entry());
  v.push_back(pair_entry(
      "l1_loss",
      [](const SampleContext& ctx) {
        return pair_samples(ctx, {-4, 4}, {-4, 4}, false, {});
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::l1_loss(in[0], in[1], reduction_of(a))};
      }));
  v.push_back(smooth_l1_entry());
  v.push_back(huber_entry());
  v.push_back(kl_div_entry());
  v.push_back(kl_div_batchmean_entry());
  v.push_back(cosine_similarity_entry());
  v.push_back(pairwise_distance_entry());
  v.push_back(cosine_embedding_entry());
  v.push_back(margin_ranking_entry());
  v.push_back(triplet_entry());
  v.push_back(ctc_entry());
  add_bench(v);
  return v;
}

}  // namespace ts::catalog
