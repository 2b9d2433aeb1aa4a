// Catalog entries of the linear algebra ops: mm, bmm, matmul, addmm, dot, mv, outer. Every output
// element sums K products, so the entries accumulate with Sample::summands = K. Benchmark: mm in
// three layouts, bmm, matmul (batched, folded onto mm), addmm, dot, mv, outer; FLOPs are 2 per
// multiply-add.
#include <limits>
#include <string_view>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

// Note [Integer products]
// Integer operands stay in [-2, 3) so that products of K terms fit every integer dtype's range
// in most samples; where they do not (int8, large K), both sets must wrap the same way.
constexpr Range kRange{-2, 3};

struct Pair {
  std::string name;
  Shape a, b;
  int64_t k;  // summands per output element
};

std::vector<Sample> pair_samples(const SampleContext& ctx, const std::vector<Pair>& pairs) {
  std::vector<Sample> out;
  for (const Pair& p : pairs) {
    Sample s;
    s.name = p.name;
    s.inputs = {ctx.input(p.name, 0, p.a, kRange), ctx.input(p.name, 1, p.b, kRange)};
    s.summands = std::max<int64_t>(1, p.k);
    out.push_back(std::move(s));
  }
  return out;
}

template <typename Fn, typename OutFn>
OpEntry product(std::string name, std::vector<Pair> pairs, Fn fn, OutFn out_fn) {
  OpEntry e;
  e.name = std::move(name);
  e.family = "linalg";
  e.samples = [pairs](const SampleContext& ctx) { return pair_samples(ctx, pairs); };
  e.run = [fn](const In& in, const SampleArgs&) { return In{fn(in[0], in[1])}; };
  e.run_out = [out_fn](const In& outs, const In& in, const SampleArgs&) {
    out_fn(outs[0], in[0], in[1]);
  };
  e.accumulates = true;
  return e;
}

// A column of edge values times a random row: K = 1, so specials (0 * inf, NaN) meet products
// but no sum, whose result with infinities or overflow would depend on the order.
Sample edge_column(const SampleContext& ctx) {
  KernelSetGuard g("reference");
  Sample s;
  s.name = "edge_values";
  s.smooth = false;
  s.inputs = {edge_values(ctx.dtype()).unsqueeze(1).contiguous(),
              ctx.input("edge_values", 1, {1, 5})};
  return s;
}

OpEntry mm_entry() {
  OpEntry e = product(
      "mm",
      {{"small", {3, 4}, {4, 5}, 4},
       {"one", {1, 1}, {1, 1}, 1},
       {"rank1", {33, 1}, {1, 17}, 1},
       {"inner", {1, 257}, {257, 1}, 257},
       {"empty_rows", {0, 4}, {4, 5}, 4},
       {"empty_cols", {3, 4}, {4, 0}, 4},
       {"zero_k", {3, 0}, {0, 5}, 0},
       {"big", {65, 130}, {130, 67}, 130},
       {"long_k", {8, 2049}, {2049, 9}, 2049}},
      [](const Tensor& a, const Tensor& b) { return ts::mm(a, b); },
      [](const Tensor& out, const Tensor& a, const Tensor& b) { ts::mm_out(out, a, b); });
  const SamplesFn base = e.samples;
  e.samples = [base](const SampleContext& ctx) {
    std::vector<Sample> v = base(ctx);
    if (is_floating_type(ctx.dtype())) v.push_back(edge_column(ctx));
    return v;
  };
  return e;
}

OpEntry bmm_entry() {
  return product(
      "bmm",
      {{"small", {2, 3, 4}, {2, 4, 5}, 4},
       {"batch1", {1, 3, 4}, {1, 4, 5}, 4},
       {"empty_batch", {0, 3, 4}, {0, 4, 5}, 4},
       {"empty_rows", {2, 0, 4}, {2, 4, 5}, 4},
       {"zero_k", {2, 3, 0}, {2, 0, 5}, 0},
       {"big", {4, 33, 65}, {4, 65, 17}, 65}},
      [](const Tensor& a, const Tensor& b) { return ts::bmm(a, b); },
      [](const Tensor& out, const Tensor& a, const Tensor& b) { ts::bmm_out(out, a, b); });
}

// Note [matmul samples]: every rank pair of torch.matmul's rules (1-D operands get a dim that is
// removed again, batch dims broadcast); matmul has no out= form here.
OpEntry matmul_entry() {
  OpEntry e = product(
      "matmul",
      {{"1d_1d", {7}, {7}, 7},
       {"2d_1d", {3, 4}, {4}, 4},
       {"1d_2d", {4}, {4, 5}, 4},
       {"2d_2d", {3, 4}, {4, 5}, 4},
       {"3d_3d", {2, 3, 4}, {2, 4, 5}, 4},
       {"3d_2d", {2, 3, 4}, {4, 5}, 4},
       {"2d_3d", {3, 4}, {2, 4, 5}, 4},
       {"1d_3d", {4}, {2, 4, 5}, 4},
       {"3d_1d", {2, 3, 4}, {4}, 4},
       {"bcast_batch", {2, 1, 3, 4}, {5, 4, 2}, 4},
       {"bcast_batch4d", {2, 1, 3, 4}, {1, 3, 4, 2}, 4},
       {"empty_batch", {0, 3, 4}, {4, 5}, 4},
       {"zero_k", {2, 3, 0}, {0, 5}, 0},
       {"big", {3, 33, 65}, {65, 17}, 65}},
      [](const Tensor& a, const Tensor& b) { return ts::matmul(a, b); },
      [](const Tensor&, const Tensor&, const Tensor&) {});
  e.run_out = nullptr;
  return e;
}

// addmm(self, mat1, mat2, beta=args.scalars[0], alpha=args.scalars[1]); self broadcasts to
// (n, p) except in the in-place form. With beta = 0 self is not read: its NaNs must not appear.
OpEntry addmm_entry() {
  OpEntry e;
  e.name = "addmm";
  e.family = "linalg";
  e.samples = [](const SampleContext& ctx) {
    struct Case {
      std::string name;
      Shape self, a, b;
      int beta_alpha;  // 0: defaults, 1: beta and alpha given, 2: beta = 0
    };
    const std::vector<Case> cases = {
        {"full", {3, 5}, {3, 4}, {4, 5}, 0},        {"full_beta_alpha", {3, 5}, {3, 4}, {4, 5}, 1},
        {"bias_row", {5}, {3, 4}, {4, 5}, 1},       {"bias_col", {3, 1}, {3, 4}, {4, 5}, 0},
        {"bias_0dim", {}, {3, 4}, {4, 5}, 1},       {"beta0", {3, 5}, {3, 4}, {4, 5}, 2},
        {"zero_k", {3, 5}, {3, 0}, {0, 5}, 1},      {"empty", {0, 5}, {0, 4}, {4, 5}, 0},
        {"big", {65, 67}, {65, 130}, {130, 67}, 1},
    };
    const bool floating = is_floating_type(ctx.dtype());
    std::vector<Sample> out;
    for (const Case& c : cases) {
      Sample s;
      s.name = c.name;
      s.inputs = {ctx.input(c.name, 0, c.self, kRange), ctx.input(c.name, 1, c.a, kRange),
                  ctx.input(c.name, 2, c.b, kRange)};
      if (c.beta_alpha == 1) {
        s.args.scalars = floating ? std::vector<Scalar>{0.5, -1.25}
                                  : std::vector<Scalar>{int64_t{2}, int64_t{-1}};
      } else if (c.beta_alpha == 2) {
        s.args.scalars = {int64_t{0}, int64_t{1}};
        if (floating) {
          KernelSetGuard g("reference");
          s.inputs[0] = full(c.self, std::numeric_limits<double>::quiet_NaN(), ctx.dtype());
          s.smooth = false;
        }
      }
      s.summands = std::max<int64_t>(1, c.a.back());
      out.push_back(std::move(s));
    }
    return out;
  };
  e.run = [](const In& in, const SampleArgs& a) {
    return In{a.scalars.empty() ? ts::addmm(in[0], in[1], in[2])
                                : ts::addmm(in[0], in[1], in[2], a.scalars[0], a.scalars[1])};
  };
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    a.scalars.empty() ? ts::addmm_out(outs[0], in[0], in[1], in[2])
                      : ts::addmm_out(outs[0], in[0], in[1], in[2], a.scalars[0], a.scalars[1]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return a.scalars.empty() ? self.addmm_(in[1], in[2])
                             : self.addmm_(in[1], in[2], a.scalars[0], a.scalars[1]);
  };
  e.accumulates = true;
  return e;
}

// Note [One operand transposed]
// The layout variants transform every input alike, so both operands are transposed together.
// These entries transpose one operand inside the call (the sample holds it as [K, M]), so the
// kernel also meets one transposed and one contiguous operand, and the reverse on the
// transposed layout: the mixed cases of a BLAS call (transa != transb).
std::vector<OpEntry> transposed_operand_entries() {
  std::vector<OpEntry> v;
  for (const bool lhs : {true, false}) {
    const std::string side = lhs ? ".t_lhs" : ".t_rhs";
    auto t = [](const Tensor& x) { return x.transpose(-2, -1); };
    // Shapes as stored: the transposed operand is [K, M] (or [B, K, M]).
    std::vector<Pair> mats = {{"small", {4, 3}, {4, 5}, 4}, {"big", {65, 33}, {65, 17}, 65}};
    std::vector<Pair> batches = {{"small", {2, 4, 3}, {2, 4, 5}, 4},
                                 {"big", {4, 65, 33}, {4, 65, 17}, 65}};
    if (!lhs) {
      mats = {{"small", {3, 4}, {5, 4}, 4}, {"big", {33, 65}, {17, 65}, 65}};
      batches = {{"small", {2, 3, 4}, {2, 5, 4}, 4}, {"big", {4, 33, 65}, {4, 17, 65}, 65}};
    }
    OpEntry mm = product(
        "mm" + side, mats,
        [lhs, t](const Tensor& a, const Tensor& b) {
          return ts::mm(lhs ? t(a) : a, lhs ? b : t(b));
        },
        [lhs, t](const Tensor& out, const Tensor& a, const Tensor& b) {
          ts::mm_out(out, lhs ? t(a) : a, lhs ? b : t(b));
        });
    mm.op = "mm";
    v.push_back(std::move(mm));
    OpEntry bmm = product(
        "bmm" + side, batches,
        [lhs, t](const Tensor& a, const Tensor& b) {
          return ts::bmm(lhs ? t(a) : a, lhs ? b : t(b));
        },
        [lhs, t](const Tensor& out, const Tensor& a, const Tensor& b) {
          ts::bmm_out(out, lhs ? t(a) : a, lhs ? b : t(b));
        });
    bmm.op = "bmm";
    v.push_back(std::move(bmm));
  }
  return v;
}

// ---- benchmark ----

BenchCase linalg_case(const char* op, ScalarType t, std::string shape, std::string layout,
                      double bytes, double flops, std::vector<OpId> ops) {
  return make_case("linalg", op, t, std::move(shape), std::move(layout), bytes, flops,
                   std::move(ops));
}

// Square GEMM side: the reference set's naive loops take ~3 s at 512 (Note [Slow calls]).
int64_t gemm_side(const CaseList& list) {
  return list.quick() ? 128 : 512;
}
// bmm and matmul: `batch` products of bm x bm matrices.
int64_t batch_of(const CaseList& list) {
  return list.quick() ? 16 : 64;
}
int64_t batch_side(const CaseList& list) {
  return list.quick() ? 64 : 128;
}
std::string batch_shape(const CaseList& list) {
  const int64_t bm = batch_side(list);
  return std::to_string(batch_of(list)) + "x(" + shape_str({bm, bm, bm}) + ")";
}
// Matrix-vector side.
int64_t mv_side(const CaseList& list) {
  return list.quick() ? 1024 : 4096;
}

void mm_cases(CaseList& list, ScalarType t, int64_t m, std::vector<const char*> layouts) {
  const double dm = static_cast<double>(m);
  for (const char* layout : layouts) {
    const std::string_view l(layout);
    BenchCase c = linalg_case("mm", t, shape_str({m, m, m}), layout, 3 * nbytes(m * m, t),
                              2 * dm * dm * dm, {OpId::mm});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor a = make_input({m, m}, t, d), b = make_input({m, m}, t, d);
      Tensor o = empty({m, m}, TensorOptions(t).device(d));
      if (l[0] == 't') a = a.t();
      if (l[1] == 't') b = b.t();
      return [=] { mm_out(o, a, b); };
    };
    list.add(std::move(c));
  }
}

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet fl = DTypeSet::floating();
  // In full runs also a 1024^3 product, where OpenBLAS nears its peak (the reference set's naive
  // loops take about 20 s there: one timed call, Note [Slow calls]).
  entry_named(v, "mm").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    mm_cases(list, t, gemm_side(list), {"nn", "tn", "nt"});
    if (!list.quick()) mm_cases(list, t, 1024, {"nn"});
  });
  entry_named(v, "bmm").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t batch = batch_of(list), bm = batch_side(list);
    BenchCase c =
        linalg_case("bmm", t, batch_shape(list), "contiguous", 3 * nbytes(batch * bm * bm, t),
                    2.0 * batch * bm * bm * bm, {OpId::bmm});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({batch, bm, bm}, t, d), y = make_input({batch, bm, bm}, t, d);
      Tensor o = empty({batch, bm, bm}, TensorOptions(t).device(d));
      return [=] { bmm_out(o, x, y); };
    };
    list.add(std::move(c));
  });
  // A batch against one matrix folds the batch into the rows of one mm.
  entry_named(v, "matmul").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t batch = batch_of(list), bm = batch_side(list);
    BenchCase c = linalg_case("matmul", t, batch_shape(list), "broadcast_rhs",
                              2 * nbytes(batch * bm * bm, t) + nbytes(bm * bm, t),
                              2.0 * batch * bm * bm * bm, {OpId::mm});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({batch, bm, bm}, t, d), y = make_input({bm, bm}, t, d);
      return [=] { (void)matmul(x, y); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "addmm").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t m = gemm_side(list);
    const double dm = static_cast<double>(m);
    BenchCase c = linalg_case("addmm", t, shape_str({m, m, m}), "beta1_alpha1",
                              4 * nbytes(m * m, t), 2 * dm * dm * dm + 2 * dm * dm, {OpId::addmm});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor c0 = make_input({m, m}, t, d), a = make_input({m, m}, t, d);
      Tensor b = make_input({m, m}, t, d), o = empty({m, m}, TensorOptions(t).device(d));
      return [=] { addmm_out(o, c0, a, b); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "mv").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t n = mv_side(list);
    const double dn = static_cast<double>(n);
    BenchCase c = linalg_case("mv", t, shape_str({n, n}), "contiguous", nbytes(n * n + 2 * n, t),
                              2 * dn * dn, {OpId::mv});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor a = make_input({n, n}, t, d), x = make_input({n}, t, d);
      Tensor o = empty({n}, TensorOptions(t).device(d));
      return [=] { mv_out(o, a, x); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "outer").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t n = mv_side(list);
    const double dn = static_cast<double>(n);
    BenchCase c = linalg_case("outer", t, shape_str({n, n}), "contiguous", nbytes(n * n + 2 * n, t),
                              dn * dn, {OpId::outer});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor a = make_input({n}, t, d), x = make_input({n}, t, d);
      Tensor o = empty({n, n}, TensorOptions(t).device(d));
      return [=] { outer_out(o, a, x); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "dot").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t n = list.numel();
    BenchCase c = linalg_case("dot", t, std::to_string(n), "contiguous", nbytes(2 * n + 1, t),
                              2.0 * n, {OpId::dot});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor a = make_input({n}, t, d), x = make_input({n}, t, d);
      return [=] { (void)dot(a, x); };
    };
    list.add(std::move(c));
  });
}

}  // namespace

std::vector<OpEntry> linalg_entries() {
  std::vector<OpEntry> v;
  v.push_back(mm_entry());
  v.push_back(bmm_entry());
  v.push_back(matmul_entry());
  v.push_back(addmm_entry());
  v.push_back(product(
      "dot",
      {{"vec", {7}, {7}, 7},
       {"one", {1}, {1}, 1},
       {"empty", {0}, {0}, 0},
       {"big", {2053}, {2053}, 2053}},
      [](const Tensor& a, const Tensor& b) { return ts::dot(a, b); },
      [](const Tensor& out, const Tensor& a, const Tensor& b) { ts::dot_out(out, a, b); }));
  v.push_back(product(
      "mv",
      {{"small", {3, 4}, {4}, 4},
       {"empty_rows", {0, 4}, {4}, 4},
       {"zero_k", {3, 0}, {0}, 0},
       {"big", {65, 130}, {130}, 130},
       {"long_k", {5, 4099}, {4099}, 4099}},
      [](const Tensor& a, const Tensor& b) { return ts::mv(a, b); },
      [](const Tensor& out, const Tensor& a, const Tensor& b) { ts::mv_out(out, a, b); }));
  OpEntry outer = product(
      "outer",
      {{"small", {3}, {4}, 1},
       {"one", {1}, {1}, 1},
       {"empty", {0}, {4}, 1},
       {"big", {37}, {53}, 1}},
      [](const Tensor& a, const Tensor& b) { return ts::outer(a, b); },
      [](const Tensor& out, const Tensor& a, const Tensor& b) { ts::outer_out(out, a, b); });
  outer.accumulates = false;  // one product per element
  v.push_back(std::move(outer));
  for (OpEntry& e : transposed_operand_entries()) v.push_back(std::move(e));
  add_bench(v);
  // Note [Known answers] in catalog.h: a 2x2 product, and matmul of a matrix (the harness's
  // transposed layout reads it through its transpose) with a vector.
  entry_named(v, "mm").known = {{kFloat, [] {
                                   return known_answer("known",
                                                       {tensor({1., 2., 3., 4.}).view({2, 2}),
                                                        tensor({5., 6., 7., 8.}).view({2, 2})},
                                                       {tensor({19., 22., 43., 50.}).view({2, 2})});
                                 }}};
  entry_named(v, "matmul").known = {
      {kFloat, [] {
         return known_answer("known", {tensor({1., 3., 2., 4.}).view({2, 2}), tensor({1., 1.})},
                             {tensor({4., 6.})});
       }}};
  return v;
}

}  // namespace ts::catalog
