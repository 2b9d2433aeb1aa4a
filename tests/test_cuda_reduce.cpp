// CUDA reductions and cumsum against the CPU reference set on the same inputs (inner and outer
// geometries, permuted layouts, grid reductions), plus hand-computed values for the tie, NaN
// and wrapping rules. Skipped when no device is visible.
#include "test_cuda_util.h"

using namespace ts::testing;  // NOLINT
using ts::Tensor;

namespace {

using CudaReduce = CudaTest;

// Reductions of a [37, 129, 5] input over dims that make inner, outer and mixed geometries,
// on the input as is and permuted (so no dim is contiguous in the reduced order).
TEST_F(CudaReduce, FloatingReductionsMatchReference) {
  struct Op {
    std::string name;
    std::function<Tensor(const Tensor&, ts::IntArrayRef)> f;
  };
  const std::vector<Op> ops = {
      {"sum", [](const Tensor& x, ts::IntArrayRef d) { return ts::sum(x, d); }},
      {"mean", [](const Tensor& x, ts::IntArrayRef d) { return ts::mean(x, d, true); }},
      {"var", [](const Tensor& x, ts::IntArrayRef d) { return ts::var(x, d); }},
      {"var0", [](const Tensor& x, ts::IntArrayRef d) { return ts::var(x, d, 0); }},
      {"std", [](const Tensor& x, ts::IntArrayRef d) { return ts::std(x, d, 1, true); }},
      {"norm1", [](const Tensor& x, ts::IntArrayRef d) { return ts::norm(x, 1, d); }},
      {"norm2", [](const Tensor& x, ts::IntArrayRef d) { return ts::norm(x, 2, d); }},
      {"norminf", [](const Tensor& x, ts::IntArrayRef d) { return ts::norm(x, kInf, d); }},
      {"logsumexp", [](const Tensor& x, ts::IntArrayRef d) { return ts::logsumexp(x, d); }},
      {"amax", [](const Tensor& x, ts::IntArrayRef d) { return ts::amax(x, d); }},
      {"amin", [](const Tensor& x, ts::IntArrayRef d) { return ts::amin(x, d, true); }},
  };
  const std::vector<std::vector<int64_t>> dim_sets = {{2}, {1}, {0}, {0, 2}, {}};
  for (ts::ScalarType t : kFloating) {
    const Tensor x = random_input({37, 129, 5}, t, 2.0, 0.5);
    for (const Op& op : ops) {
      for (const auto& dims : dim_sets) {
        for (bool permute : {false, true}) {
          const std::string what = op.name + " " + std::string(ts::dtype_name(t)) + " dims " +
                                   std::to_string(dims.size()) + (permute ? " permuted" : "");
          expect_matches_reference(
              what,
              [&](const Ts& in) {
                return op.f(permute ? in[0].permute({2, 0, 1}) : in[0], dims);
              },
              {x}, tolerance_for(t, x.numel()));
        }
      }
    }
  }
}

TEST_F(CudaReduce, ProdMatchesReference) {
  for (ts::ScalarType t : kFloating) {
    // Factors near 1, so the products stay in range.
    const Tensor x = random_input({16, 40}, t, 0.05, 1.0);
    for (int64_t d : {0, 1}) {
      expect_matches_reference(
          "prod " + std::string(ts::dtype_name(t)),
          [d](const Ts& in) { return ts::prod(in[0], d); }, {x}, tolerance_for(t, 40));
    }
  }
}

// 2^22 elements reduce through the grid reduction (partials combined by a second kernel).
TEST_F(CudaReduce, GridReductionsMatchReference) {
  const Tensor x = random_input({int64_t{1} << 22}, kFloat);
  for (const auto& [name, f] :
       std::vector<std::pair<std::string, std::function<Tensor(const Tensor&)>>>{
           {"sum", [](const Tensor& a) { return ts::sum(a); }},
           {"mean", [](const Tensor& a) { return ts::mean(a); }},
           {"var", [](const Tensor& a) { return ts::var(a); }},
           {"logsumexp", [](const Tensor& a) { return ts::logsumexp(a, {0}); }},
           {"amax", [](const Tensor& a) { return ts::amax(a); }},
           {"argmin", [](const Tensor& a) { return ts::argmin(a); }}}) {
    expect_matches_reference(
        name, [&f = f](const Ts& in) { return f(in[0]); }, {x}, tolerance_for(kFloat, x.numel()));
  }
  // Few outputs, long columns: the outer geometry split along the reduced dim.
  const Tensor y = random_input({1 << 16, 3}, kFloat);
  expect_matches_reference(
      "outer sum", [](const Ts& in) { return ts::sum(in[0], {0}); }, {y},
      tolerance_for(kFloat, y.size(0)));
}

TEST_F(CudaReduce, IntegerSumsAndProductsWrap) {
  // int8 sums wrap as the int64 sum wrapped to int8: 100 + 100 + 100 = 300 -> 44.
  const Tensor a = to_cuda(make(kChar, {100, 100, 100}));
  EXPECT_EQ(values(to_cpu(ts::sum(a, {0}, false, kChar))), (Values{44}));
  EXPECT_EQ(values(to_cpu(ts::sum(a))), (Values{300}));  // int64 result by default
  // int32 product: 65536 * 65536 wraps to 0.
  const Tensor b = to_cuda(make(kInt, {65536, 65536, 3}, {3}));
  EXPECT_EQ(values(to_cpu(ts::prod(b, 0, false, kInt))), (Values{0}));
  // Integer and bool reductions of every dtype against the reference.
  for (ts::ScalarType t : {kBool, kByte, kChar, kShort, kInt, kLong}) {
    const Tensor x = random_input({23, 300}, t, 40.0);
    for (const auto& [name, f] :
         std::vector<std::pair<std::string, std::function<Tensor(const Tensor&)>>>{
             {"sum", [](const Tensor& v) { return ts::sum(v, {1}); }},
             {"sum0", [](const Tensor& v) { return ts::sum(v, {0}); }},
             {"prod", [](const Tensor& v) { return ts::prod(v, 1); }},
             {"amax", [](const Tensor& v) { return ts::amax(v, {1}); }},
             {"amin", [](const Tensor& v) { return ts::amin(v, {0}); }},
             {"all", [](const Tensor& v) { return ts::all(v, 1); }},
             {"any", [](const Tensor& v) { return ts::any(v, 0); }}}) {
      expect_matches_reference(
          name + " " + std::string(ts::dtype_name(t)), [&f = f](const Ts& in) { return f(in[0]); },
          {x}, Tolerance{});
    }
  }
}

// PyTorch's rules: the first NaN wins (value and index), ties keep the first index.
TEST_F(CudaReduce, ArgExtremesTieAndNaNRules) {
  const Tensor x = to_cuda(make(kFloat, {1, 3, 3, 2, -1, -1}, {6}));
  EXPECT_EQ(long_values(to_cpu(ts::argmax(x))), (std::vector<int64_t>{1}));
  EXPECT_EQ(long_values(to_cpu(ts::argmin(x))), (std::vector<int64_t>{4}));
  const Tensor n = to_cuda(make(kFloat, {1, kNaN, 5, kNaN}, {4}));
  EXPECT_EQ(long_values(to_cpu(ts::argmax(n))), (std::vector<int64_t>{1}));
  EXPECT_EQ(long_values(to_cpu(ts::argmin(n))), (std::vector<int64_t>{1}));
  EXPECT_TRUE(std::isnan(get(to_cpu(ts::amax(n)))));
  EXPECT_TRUE(std::isnan(get(to_cpu(ts::max(n)))));
  // max/min with a dim, inner (dim 1) and outer (dim 0): values and indices.
  const Tensor m = to_cuda(make(kFloat, {4, 7, 7, 0, 9, 0}, {2, 3}));
  const auto [v1, i1] = ts::max(m, 1);
  EXPECT_EQ(values(to_cpu(v1)), (Values{7, 9}));
  EXPECT_EQ(long_values(to_cpu(i1)), (std::vector<int64_t>{1, 1}));
  const auto [v0, i0] = ts::min(m, 0, true);
  EXPECT_EQ(shape_of(v0), (Shape{1, 3}));
  EXPECT_EQ(values(to_cpu(v0)), (Values{0, 7, 0}));
  EXPECT_EQ(long_values(to_cpu(i0)), (std::vector<int64_t>{1, 0, 1}));
  // Equal maxima far apart in a grid reduction: the first index, from the first block's partial.
  Tensor big = ts::zeros({int64_t{1} << 21}, kFloat);
  store_as<float>(element_ptr(big, 5), 7.0f);
  store_as<float>(element_ptr(big, (int64_t{1} << 21) - 3), 7.0f);
  EXPECT_EQ(long_values(to_cpu(ts::argmax(to_cuda(big)))), (std::vector<int64_t>{5}));
  EXPECT_EQ(long_values(to_cpu(ts::argmin(to_cuda(big)))), (std::vector<int64_t>{0}));
  // Index-returning reductions over several dims count in row-major order of the input, also
  // when the input is transposed.
  const Tensor t = random_input({33, 47}, kFloat);
  expect_matches_reference(
      "argmax transposed", [](const Ts& in) { return ts::argmax(in[0].transpose(0, 1)); }, {t},
      Tolerance{});
  expect_matches_reference(
      "max dim 0 transposed",
      [](const Ts& in) { return std::get<1>(ts::max(in[0].transpose(0, 1), 0)); }, {t},
      Tolerance{});
}

TEST_F(CudaReduce, AllAnyReadNonzero) {
  // NaN is true, -0.0 is false.
  const Tensor a = to_cuda(make(kFloat, {1, kNaN, -0.0, 0.0}, {2, 2}));
  EXPECT_EQ(values(to_cpu(ts::all(a, 1))), (Values{1, 0}));
  EXPECT_EQ(values(to_cpu(ts::any(a, 1))), (Values{1, 0}));
  EXPECT_EQ(values(to_cpu(ts::all(a))), (Values{0}));
  EXPECT_EQ(values(to_cpu(ts::any(a))), (Values{1}));
}

TEST_F(CudaReduce, EmptyAndOutDtypes) {
  // Empty reductions: sum 0, prod 1, mean NaN, logsumexp -inf.
  const Tensor e = to_cuda(ts::empty({0, 3}, kFloat));
  EXPECT_EQ(values(to_cpu(ts::sum(e, {0}))), (Values{0, 0, 0}));
  EXPECT_EQ(values(to_cpu(ts::prod(e, 0))), (Values{1, 1, 1}));
  EXPECT_TRUE(std::isnan(get(to_cpu(ts::mean(e, {0})), 2)));
  EXPECT_EQ(get(to_cpu(ts::logsumexp(e, {0})), 1), -kInf);
  // logsumexp's infinities: all -inf gives -inf, any +inf gives +inf.
  const Tensor inf = to_cuda(make(kFloat, {-kInf, -kInf, 1, kInf}, {2, 2}));
  EXPECT_EQ(values(to_cpu(ts::logsumexp(inf, {1}))), (Values{-kInf, kInf}));
  // sum into an out= tensor of another dtype computes in the out dtype.
  const Tensor x = random_input({10, 20}, kFloat);
  expect_matches_reference(
      "sum_out double",
      [](const Ts& in) {
        Tensor out = ts::empty({10}, ts::TensorOptions(kDouble).device(in[0].device()));
        ts::sum_out(out, in[0], {1});
        return out;
      },
      {x}, tolerance_for(kDouble, 20));
  // half input, float sum (dtype=).
  const Tensor h = random_input({300}, kHalf);
  expect_matches_reference(
      "sum half as float", [](const Ts& in) { return ts::sum(in[0], kFloat); }, {h},
      tolerance_for(kFloat, 300));
}

TEST_F(CudaReduce, CumsumMatchesReference) {
  for (ts::ScalarType t : {kFloat, kDouble, kHalf, kBFloat16, kInt, kLong, kChar, kBool}) {
    // Rows longer than a tile (carry between tiles) and a column scan.
    const Tensor x = random_input({7, 700}, t, ts::is_floating_type(t) ? 1.0 : 30.0);
    for (int64_t d : {1, 0}) {
      expect_matches_reference(
          "cumsum " + std::string(ts::dtype_name(t)) + " dim " + std::to_string(d),
          [d](const Ts& in) { return ts::cumsum(in[0], d); }, {x}, tolerance_for(t, 700));
    }
  }
  // In place, on a transposed view, and with an integer input cast to float.
  const Tensor y = random_input({50, 60}, kFloat);
  expect_matches_reference(
      "cumsum_ transposed",
      [](const Ts& in) {
        Tensor v = in[0].clone();
        v.transpose(0, 1).cumsum_(1);
        return v;
      },
      {y}, tolerance_for(kFloat, 60));
  // Hand values: int8 wraps (100 + 100 = -56), bool stores sum != 0.
  EXPECT_EQ(values(to_cpu(ts::cumsum(to_cuda(make(kChar, {100, 100, 1})), 0, kChar))),
            (Values{100, -56, -55}));
  EXPECT_EQ(values(to_cpu(ts::cumsum(to_cuda(make(kFloat, {1, 2, 3, 4}, {2, 2})), 1))),
            (Values{1, 3, 3, 7}));
}

}  // namespace
