// Catalog entries of the normalization, embedding, attention and gated-activation ops (issue
// 16): batch_norm, group_norm, rms_norm, instance_norm, local_response_norm, embedding, one_hot,
// scaled_dot_product_attention, glu, prelu. Conformance: every optional argument appears in some
// sample; ops that update running statistics return the updated copies as further outputs.
// Benchmark: a convolutional activation [N, C, H, W], a transformer's tokens.
#include <cmath>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), "norm", std::move(samples), std::move(run));
}

// Input i of the sample when the flag says it is present (then it is in[next++]).
Tensor optional_input(const In& in, size_t& next, int64_t present) {
  return present ? in[next++] : Tensor();
}

// ---- batch_norm, instance_norm ----

// Note [Running statistics samples]
// inputs {input, running_mean, running_var, [weight], [bias]} (running statistics first, so
// that nograd_inputs names them); args.ints = {has_weight, has_bias, training}; args.reals =
// {momentum, eps}. The run returns the result and the updated copies of the running
// statistics. The `.no_running_stats` variants pass none (training only): inputs {input,
// [weight], [bias]}.
struct StatsCase {
  std::string name;
  Shape shape;
  bool training;
  double momentum = 0.1, eps = 1e-5;
};

std::vector<Sample> stats_samples(const SampleContext& ctx, bool running, bool instance) {
  std::vector<StatsCase> cases = {
      {"mat", {4, 3}, true},
      {"cube", {4, 3, 5}, true},
      {"image", {2, 3, 4, 3}, true},
      {"big", {8, 16, 33}, true},
      {"momentum_0.5", {3, 4, 6}, true, 0.5},
      {"eps_0.5", {3, 4, 6}, true, 0.1, 0.5},
      {"empty_batch", {0, 3, 4}, true},
  };
  if (running) {
    for (const StatsCase& c : std::vector<StatsCase>(cases)) {
      if (c.name == "momentum_0.5") continue;
      cases.push_back({c.name + "_eval", c.shape, false, c.momentum, c.eps});
    }
  }
  std::vector<Sample> out;
  for (const StatsCase& c : cases) {
    if (instance && c.shape.size() < 3) continue;  // instance_norm needs a spatial dim
    for (int affine = 0; affine < 4; ++affine) {
      const bool w = affine & 1, b = affine & 2;
      if (affine == 1 || affine == 2) {
        if (c.name != "cube" && c.name != "cube_eval") continue;
      }
      Sample s;
      s.name = c.name + (w ? "_w" : "") + (b ? "_b" : "");
      const int64_t channels = c.shape[1];
      s.inputs = {ctx.input(s.name, 0, c.shape)};
      if (running) {
        s.inputs.push_back(ctx.input(s.name, 1, {channels}));
        s.inputs.push_back(ctx.input(s.name, 2, {channels}, Range{0.5, 2}));
      }
      if (w) s.inputs.push_back(ctx.input(s.name, 3, {channels}, Range{0.5, 2}));
      if (b) s.inputs.push_back(ctx.input(s.name, 4, {channels}));
      s.args.ints = {w, b, c.training};
      s.args.reals = {c.momentum, c.eps};
      const int64_t per_channel = channels == 0 ? 0 : numel_of(c.shape) / channels;
      s.summands =
          std::max<int64_t>(1, instance && c.shape[0] > 0 ? per_channel / c.shape[0] : per_channel);
      out.push_back(std::move(s));
    }
  }
  {
    // Mean 100, spread 1 (Note [Shifted layer_norm] in catalog/nn.cpp).
    Sample s;
    s.name = "shifted";
    s.inputs = {ctx.input(s.name, 0, {4, 3, 50}, Range{100, 101})};
    if (running) {
      s.inputs.push_back(ctx.input(s.name, 1, {3}, Range{100, 101}));
      s.inputs.push_back(ctx.input(s.name, 2, {3}, Range{0.5, 2}));
    }
    s.args.ints = {0, 0, 1};
    s.args.reals = {0.1, 1e-5};
    s.summands = instance ? 50 : 200;
    out.push_back(std::move(s));
  }
  return out;
}

// `stats`: the `.running_stats` variant, which returns the updated running statistics too
// (not differentiable: no gradient checks); the main entry returns the result alone.
OpEntry stats_entry(bool instance, bool running, bool stats = false) {
  const std::string op = instance ? "instance_norm" : "batch_norm";
  OpEntry e = entry(
      stats     ? op + ".running_stats"
      : running ? op
                : op + ".no_running_stats",
      [running, instance](const SampleContext& ctx) {
        return stats_samples(ctx, running, instance);
      },
      [running, instance, stats](const In& in, const SampleArgs& a) {
        size_t next = 1;
        Tensor rm, rv;
        if (running) {
          rm = in[next++].clone();
          rv = in[next++].clone();
        }
        const Tensor w = optional_input(in, next, a.ints[0]);
        const Tensor b = optional_input(in, next, a.ints[1]);
        const Tensor y =
            instance
                ? ts::instance_norm(in[0], w, b, rm, rv, a.ints[2] != 0, a.reals[0], a.reals[1])
                : ts::batch_norm(in[0], w, b, rm, rv, a.ints[2] != 0, a.reals[0], a.reals[1]);
        return stats ? In{y, rm, rv} : In{y};
      });
  if (!running || stats) e.op = op;
  if (running) e.nograd_inputs = {1, 2};
  e.grad = !stats;
  e.accumulates = true;
  return e;
}

// ---- group_norm ----

// inputs {input, [weight], [bias]}; args.ints = {num_groups, has_weight, has_bias}; args.reals
// = {eps}.
OpEntry group_norm_entry() {
  return [] {
    OpEntry e = entry(
        "group_norm",
        [](const SampleContext& ctx) {
          struct Case {
            std::string name;
            Shape shape;
            int64_t groups;
            double eps = 1e-5;
          };
          const std::vector<Case> cases = {
              {"mat_g2", {3, 4}, 2},          {"cube_g1", {2, 6, 5}, 1},
              {"cube_g3", {2, 6, 5}, 3},      {"cube_g6", {2, 6, 5}, 6},
              {"image_g2", {2, 4, 3, 3}, 2},  {"big_g4", {4, 16, 65}, 4},
              {"eps_0.5", {2, 4, 7}, 2, 0.5}, {"empty_batch", {0, 4, 3}, 2},
              {"shifted", {2, 4, 100}, 2},
          };
          std::vector<Sample> out;
          for (const Case& c : cases) {
            for (int affine = 0; affine < 4; ++affine) {
              const bool w = affine & 1, b = affine & 2;
              if ((affine == 1 || affine == 2) && c.name != "cube_g3") continue;
              Sample s;
              s.name = c.name + (w ? "_w" : "") + (b ? "_b" : "");
              const Range r = c.name == "shifted" ? Range{100, 101} : Range{};
              s.inputs = {ctx.input(s.name, 0, c.shape, r)};
              if (w) s.inputs.push_back(ctx.input(s.name, 1, {c.shape[1]}, Range{0.5, 2}));
              if (b) s.inputs.push_back(ctx.input(s.name, 2, {c.shape[1]}));
              s.args.ints = {c.groups, w, b};
              s.args.reals = {c.eps};
              s.summands = std::max<int64_t>(
                  1, c.shape[0] == 0 ? 1 : numel_of(c.shape) / (c.shape[0] * c.groups));
              out.push_back(std::move(s));
            }
          }
          return out;
        },
        [](const In& in, const SampleArgs& a) {
          size_t next = 1;
          const Tensor w = optional_input(in, next, a.ints[1]);
          const Tensor b = optional_input(in, next, a.ints[2]);
          return In{ts::group_norm(in[0], a.ints[0], w, b, a.reals[0])};
        });
    e.accumulates = true;
    return e;
  }();
}

// ---- rms_norm ----

// inputs {input, [weight]}; args.shape = normalized_shape; args.ints = {has_weight}; args.reals
// = {eps} when given (else the dtype's epsilon).
OpEntry rms_norm_entry() {
  OpEntry e = entry(
      "rms_norm",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape shape, normalized;
        };
        const std::vector<Case> cases = {
            {"vec", {7}, {7}},
            {"mat", {3, 4}, {4}},
            {"cube_rank2", {2, 3, 5}, {3, 5}},
            {"big", {37, 53}, {53}},
            {"empty_batch", {0, 4}, {4}},
            {"size1", {5, 1}, {1}},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          for (const bool w : {false, true}) {
            Sample s;
            s.name = c.name + (w ? "_w" : "");
            s.inputs = {ctx.input(s.name, 0, c.shape)};
            if (w) s.inputs.push_back(ctx.input(s.name, 1, c.normalized, Range{0.5, 2}));
            s.args.shape = c.normalized;
            s.args.ints = {w};
            s.summands = numel_of(c.normalized);
            out.push_back(std::move(s));
          }
        }
        Sample s;
        s.name = "eps_0.5";
        s.inputs = {ctx.input(s.name, 0, {6, 8}, Range{-0.5, 0.5})};
        s.args.shape = {8};
        s.args.ints = {0};
        s.args.reals = {0.5};
        s.summands = 8;
        out.push_back(std::move(s));
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        const Tensor w = a.ints[0] ? in[1] : Tensor();
        return In{a.reals.empty() ? ts::rms_norm(in[0], a.shape, w)
                                  : ts::rms_norm(in[0], a.shape, w, a.reals[0])};
      });
  e.accumulates = true;
  return e;
}

// ---- local_response_norm ----

// inputs {input}; args.ints = {size}; args.reals = {alpha, beta, k}.
OpEntry local_response_norm_entry() {
  OpEntry e = entry(
      "local_response_norm",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape shape;
          int64_t size;
          double alpha = 1e-4, beta = 0.75, k = 1.0;
        };
        const std::vector<Case> cases = {
            {"cube_s2", {2, 5, 4}, 2},
            {"cube_s3", {2, 5, 4}, 3},
            {"image_s5", {1, 7, 3, 3}, 5, 0.5, 0.75, 1.0},
            {"wide_window", {2, 3, 4}, 9, 1.0, 0.5, 2.0},
            {"empty", {0, 3, 4}, 2},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(s.name, 0, c.shape)};
          s.args.ints = {c.size};
          s.args.reals = {c.alpha, c.beta, c.k};
          s.summands = c.size;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::local_response_norm(in[0], a.ints[0], a.reals[0], a.reals[1], a.reals[2])};
      });
  e.accumulates = true;
  return e;
}

// ---- embedding, one_hot ----

// inputs {weight, indices}; args.ints = {padding_idx, scale_grad_by_freq}. Indices repeat, so
// the gradient sums rows; padding_idx's row gets none.
OpEntry embedding_entry(ScalarType index_dtype) {
  OpEntry e = entry(
      index_dtype == kLong ? "embedding" : "embedding.int32_indices",
      [index_dtype](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape weight, indices;
          int64_t padding_idx = -1;
          bool scale = false;
        };
        const std::vector<Case> cases = {
            {"vec", {10, 3}, {6}},
            {"mat", {10, 4}, {3, 5}},
            {"scalar_index", {5, 3}, {}},
            {"padding", {6, 4}, {4, 6}, 2},
            {"scale_grad", {6, 4}, {4, 6}, -1, true},
            {"padding_scale", {6, 4}, {4, 6}, 0, true},
            {"big", {1000, 65}, {8, 33}},
            {"empty_indices", {10, 3}, {0}},
            {"zero_dim_embedding", {10, 0}, {4}},
        };
        const SampleContext indices("embedding/indices", kLong);
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {
              ctx.input(s.name, 0, c.weight),
              indices.input(s.name, 1, c.indices, Range{0, static_cast<double>(c.weight[0])})
                  .to(index_dtype)};
          s.args.ints = {c.padding_idx, c.scale};
          // padding_idx and scale_grad_by_freq change the gradient, not the function: no
          // gradcheck (the kernel sets' gradients are still compared).
          s.smooth = c.padding_idx < 0 && !c.scale;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::embedding(in[0], in[1], a.ints[0], a.ints[1] != 0)};
      });
  if (index_dtype != kLong) e.op = "embedding";
  e.grad_elementwise = true;
  return e;
}

// inputs {self} (int64 classes); args.ints = {num_classes}.
OpEntry one_hot_entry() {
  OpEntry e = entry(
      "one_hot",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape shape;
          int64_t num_classes;
        };
        const std::vector<Case> cases = {
            {"vec_inferred", {6}, -1}, {"mat_5", {3, 4}, 5},     {"scalar_3", {}, 3},
            {"empty_4", {0}, 4},       {"big_10", {37, 53}, 10},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(s.name, 0, c.shape, Range{0, 3})};
          s.args.ints = {c.num_classes};
          s.has_out = false;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) { return In{ts::one_hot(in[0], a.ints[0])}; });
  e.dtypes = DTypeSet{kLong};
  e.grad = false;
  return e;
}

// ---- scaled_dot_product_attention ----

// inputs {query, key, value, [attn_mask]}; args.ints = {mask: 0 none, 1 bool, 2 float,
// is_causal}; args.reals = {dropout_p, scale (0: None)}; args.seed for dropout.
OpEntry sdpa_entry() {
  OpEntry e = entry(
      "scaled_dot_product_attention",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape q, k, v, mask;
          int64_t mask_kind = 0;
          bool causal = false;
          double dropout = 0, scale = 0;
        };
        const std::vector<Case> cases = {
            {"mat", {5, 4}, {6, 4}, {6, 3}, {}},
            {"batch", {2, 5, 8}, {2, 7, 8}, {2, 7, 8}, {}},
            {"heads", {2, 3, 4, 8}, {2, 3, 4, 8}, {2, 3, 4, 8}, {}},
            {"causal", {2, 6, 4}, {2, 6, 4}, {2, 6, 4}, {}, 0, true},
            {"causal_rect", {2, 3, 4}, {2, 5, 4}, {2, 5, 4}, {}, 0, true},
            {"bool_mask", {2, 5, 4}, {2, 6, 4}, {2, 6, 4}, {5, 6}, 1},
            {"float_mask", {2, 5, 4}, {2, 6, 4}, {2, 6, 4}, {2, 5, 6}, 2},
            {"scale_0.5", {3, 4}, {5, 4}, {5, 2}, {}, 0, false, 0, 0.5},
            {"negative_scale", {3, 4}, {5, 4}, {5, 2}, {}, 0, false, 0, -0.25},
            {"dropout_0.3", {2, 5, 4}, {2, 6, 4}, {2, 6, 4}, {}, 0, false, 0.3},
            {"empty_batch", {0, 3, 4}, {0, 5, 4}, {0, 5, 4}, {}},
            {"gpt2", {1, 4, 16, 16}, {1, 4, 16, 16}, {1, 4, 16, 16}, {}, 0, true},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(s.name, 0, c.q), ctx.input(s.name, 1, c.k),
                      ctx.input(s.name, 2, c.v)};
          if (c.mask_kind == 1) {
            KernelSetGuard g("reference");
            Tensor m = SampleContext("sdpa/mask", kBool).input(s.name, 3, c.mask);
            m.select(1, 0).fill_(true);   // every row keeps a position
            m.select(0, 0).fill_(false);  // but row 0 none: _safe_softmax's zeros
            s.inputs.push_back(m);
            s.smooth = false;
          } else if (c.mask_kind == 2) {
            s.inputs.push_back(ctx.input(s.name, 3, c.mask));
          }
          s.args.ints = {c.mask_kind, c.causal};
          s.args.reals = {c.dropout, c.scale};
          if (c.dropout > 0) {
            s.args.seed = hash_name("sdpa/" + std::string(dtype_name(ctx.dtype())) + "/" + c.name);
          }
          s.summands = c.k.back() + c.k[c.k.size() - 2];
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        SeedScope seed(a);
        const Tensor mask = a.ints[0] != 0 ? in[3] : Tensor();
        const std::optional<double> scale =
            a.reals[1] == 0 ? std::nullopt : std::optional<double>(a.reals[1]);
        return In{ts::scaled_dot_product_attention(in[0], in[1], in[2], mask, a.reals[0],
                                                   a.ints[1] != 0, scale)};
      });
  e.accumulates = true;
  return e;
}

// ---- glu, prelu ----

OpEntry glu_entry() {
  OpEntry e = entry(
      "glu",
      [](const SampleContext& ctx) {
        const std::vector<std::pair<std::string, std::pair<Shape, int64_t>>> cases = {
            {"vec", {{8}, 0}},           {"mat_last", {{3, 4}, -1}}, {"mat_d0", {{6, 5}, 0}},
            {"cube_d1", {{2, 4, 3}, 1}}, {"big", {{37, 106}, -1}},   {"empty", {{0, 4}, 1}},
        };
        std::vector<Sample> out;
        for (const auto& [name, c] : cases) {
          Sample s;
          s.name = name;
          s.inputs = {ctx.input(s.name, 0, c.first)};
          s.args.dims = {c.second};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) { return In{ts::glu(in[0], a.dims[0])}; });
  e.grad_elementwise = true;
  return e;
}

// inputs {self, weight}: one weight, or one per channel (dim 1).
OpEntry prelu_entry() {
  OpEntry e = entry(
      "prelu",
      [](const SampleContext& ctx) {
        const std::vector<std::pair<std::string, std::pair<Shape, Shape>>> cases = {
            {"scalar_w1", {{}, {1}}},
            {"vec_w1", {{7}, {1}}},
            {"mat_w1", {{3, 4}, {1}}},
            {"mat_channels", {{3, 4}, {4}}},
            {"image_channels", {{2, 3, 4, 5}, {3}}},
            {"big", {{37, 53}, {53}}},
            {"empty", {{0, 3}, {3}}},
            {"zero_dim_weight", {{3, 4}, {}}},
        };
        std::vector<Sample> out;
        for (const auto& [name, c] : cases) {
          Sample s;
          s.name = name;
          s.inputs = {ctx.input(s.name, 0, c.first), ctx.input(s.name, 1, c.second, Range{0, 1})};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs&) { return In{ts::prelu(in[0], in[1])}; });
  e.grad_elementwise = true;
  return e;
}

// ---- benchmark ----

BenchCase norm_case(const char* op, ScalarType t, std::vector<int64_t> sizes, std::string layout,
                    double bytes, double flops, std::vector<OpId> ops) {
  return make_case("norm", op, t, shape_str(sizes), std::move(layout), bytes, flops,
                   std::move(ops));
}

// A convolutional activation: quick [8, 64, 32, 32], full [32, 64, 64, 64].
Shape image(const CaseList& list) {
  return list.quick() ? Shape{8, 64, 32, 32} : Shape{32, 64, 64, 64};
}

void add_bench(std::vector<OpEntry>& v) {
  // mean (1), variance (3), normalize and affine (2) per element.
  for (const char* name : {"batch_norm", "group_norm", "instance_norm"}) {
    const std::string op = name;
    entry_named(v, op).bench = each_dtype(DTypeSet::floating(), [op](CaseList& list, ScalarType t) {
      const Shape s = image(list);
      const int64_t n = numel_of(s), c = s[1];
      std::vector<OpId> ops = {op == "group_norm" ? OpId::group_norm : OpId::batch_norm};
      BenchCase bc = norm_case(op.c_str(), t, s, op == "group_norm" ? "groups32" : "train",
                               2 * nbytes(n, t) + 4 * nbytes(c, t), 6.0 * n, ops);
      bc.setup = [=](Device d) -> std::function<void()> {
        Tensor x = make_input(s, t, d), w = make_input({c}, t, d), b = make_input({c}, t, d);
        Tensor rm = make_input({op == "instance_norm" ? c : c}, t, d);
        Tensor rv = make_input({c}, t, Fill::Positive, d);
        if (op == "batch_norm") return [=] { (void)batch_norm(x, w, b, rm, rv, true); };
        if (op == "instance_norm") return [=] { (void)instance_norm(x, w, b, {}, {}, true); };
        return [=] { (void)group_norm(x, 32, w, b); };
      };
      list.add(std::move(bc));
    });
  }
  // Transformer rows: x * rsqrt(mean(x^2) + eps) * w, 4 per element.
  entry_named(v, "rms_norm").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t s = list.side();
        const Shape sq{s, s};
        BenchCase c = norm_case("rms_norm", t, sq, "last_dim", 2 * nbytes(s * s, t), 4.0 * s * s,
                                {OpId::mul, OpId::mean, OpId::add, OpId::rsqrt});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(sq, t, d), w = make_input({s}, t, d);
          return [=] { (void)rms_norm(x, {s}, w); };
        };
        list.add(std::move(c));
      });
  entry_named(v, "local_response_norm").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const Shape s = list.quick() ? Shape{4, 32, 16, 16} : Shape{16, 64, 32, 32};
        const int64_t n = numel_of(s);
        BenchCase c = norm_case("local_response_norm", t, s, "size5", 2 * nbytes(n, t), 10.0 * n,
                                {OpId::mul, OpId::cat, OpId::add, OpId::pow, OpId::div});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(s, t, d);
          return [=] { (void)local_response_norm(x, 5); };
        };
        list.add(std::move(c));
      });
  // GPT-2's token embedding: 50257 x 768 rows gathered for 4 x 256 (quick 1 x 256) tokens.
  entry_named(v, "embedding").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t vocab = list.quick() ? 8192 : 50257, dim = 768,
                      tokens = list.quick() ? 256 : 1024;
        BenchCase c = norm_case("embedding", t, {vocab, dim, tokens}, "gather",
                                2 * nbytes(tokens * dim, t) + 8.0 * tokens, 0, {OpId::embedding});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor w = make_input({vocab, dim}, t, d), idx = make_index({tokens}, vocab, d);
          return [=] { (void)embedding(w, idx); };
        };
        list.add(std::move(c));
      });
  entry_named(v, "one_hot").bench = [](const OpEntry&, CaseList& list) {
    const int64_t n = list.quick() ? 4096 : 65536, classes = 1000;
    BenchCase c = make_case("norm", "one_hot", kLong, shape_str({n, classes}), "classes1000",
                            8.0 * n + 8.0 * n * classes, 0,
                            {OpId::amin, OpId::amax, OpId::arange, OpId::eq, OpId::copy_});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor idx = make_index({n}, classes, d);
      return [=] { (void)one_hot(idx, classes); };
    };
    list.add(std::move(c));
  };
  // GPT-2 small's attention: 12 heads of 64, causal, 256 (quick 128) tokens.
  entry_named(v, "scaled_dot_product_attention").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t tokens = list.quick() ? 128 : 256, heads = 12, dim = 64;
        const Shape s{1, heads, tokens, dim};
        const double flops = 4.0 * heads * tokens * tokens * dim + 5.0 * heads * tokens * tokens;
        BenchCase c = norm_case("scaled_dot_product_attention", t, s, "causal",
                                4 * nbytes(numel_of(s), t), flops,
                                {OpId::mul, OpId::bmm, OpId::masked_fill, OpId::softmax, OpId::amax,
                                 OpId::eq, OpId::ge});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor q = make_input(s, t, d), k = make_input(s, t, d), val = make_input(s, t, d);
          return [=] { (void)scaled_dot_product_attention(q, k, val, {}, 0.0, true); };
        };
        list.add(std::move(c));
      });
  entry_named(v, "glu").bench = each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    BenchCase c = norm_case("glu", t, {s, 2 * s}, "last_dim", 1.5 * nbytes(2 * s * s, t),
                            5.0 * s * s, {OpId::sigmoid, OpId::mul});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({s, 2 * s}, t, d);
      return [=] { (void)glu(x); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "prelu").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const Shape s = image(list);
        const int64_t n = numel_of(s);
        BenchCase c = norm_case("prelu", t, s, "channels", 2 * nbytes(n, t), 2.0 * n,
                                {OpId::gt, OpId::mul, OpId::where});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(s, t, d), w = make_input({s[1]}, t, d);
          return [=] { (void)prelu(x, w); };
        };
        list.add(std::move(c));
      });
}

}  // namespace

std::vector<OpEntry> norm_entries() {
  std::vector<OpEntry> v;
  v.push_back(stats_entry(false, true));
  v.push_back(stats_entry(false, true, true));
  v.push_back(stats_entry(false, false));
  v.push_back(group_norm_entry());
  v.push_back(rms_norm_entry());
  v.push_back(stats_entry(true, true));
  v.push_back(stats_entry(true, true, true));
  v.push_back(stats_entry(true, false));
  v.push_back(local_response_norm_entry());
  v.push_back(embedding_entry(kLong));
  v.push_back(embedding_entry(kInt));
  v.push_back(one_hot_entry());
  v.push_back(sdpa_entry());
  v.push_back(glu_entry());
  v.push_back(prelu_entry());
  add_bench(v);
  // Note [Known answers] in catalog.h: batch_norm in training over a channel [1, 2, 3, 4]
  // (mean 2.5, biased variance 1.25, eps 0): (x - 2.5) / sqrt(1.25); running statistics from
  // [0] and [1] with momentum 0.1: mean 0.25, variance 0.9 + 0.1 * 5 / 3.
  entry_named(v, "batch_norm.running_stats").known = {
      {kFloat, [] {
         SampleArgs a;
         a.ints = {0, 0, 1};
         a.reals = {0.1, 0.0};
         const double r = 1 / std::sqrt(1.25);
         return known_answer("known",
                             {tensor({1., 2., 3., 4.}).view({4, 1}), tensor({0.}), tensor({1.})},
                             {tensor({-1.5 * r, -0.5 * r, 0.5 * r, 1.5 * r}).view({4, 1}),
                              tensor({0.25}), tensor({0.9 + 0.5 / 3})},
                             a);
       }}};
  return v;
}

}  // namespace ts::catalog
