// CUDA elementwise kernels against the CPU reference set on the same inputs, through each of
// the launcher's paths (vectorized, strided 32-bit, forced 64-bit, split above 2^31 elements).
// Skipped when no device is visible.
#include <cmath>
#include <functional>

#include "test_cuda_util.h"
#include "test_util.h"

using namespace ts::testing;  // NOLINT
using ts::Tensor;

namespace {

using Fn = std::function<Tensor(const Tensor&, const Tensor&)>;

// |got - want| <= atol + rtol |want|, NaNs equal; float16/bfloat16 get their own tolerance.
void expect_close(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  // About two ulps of the dtype, relative, plus an absolute floor for results near zero.
  const double rtol = got.dtype() == ts::kHalf       ? 2e-3
                      : got.dtype() == ts::kBFloat16 ? 1.6e-2
                      : got.dtype() == ts::kFloat    ? 2e-6
                                                     : 1e-13;
  const double atol = ts::is_floating_type(got.dtype()) ? rtol : 0.0;
  const Values g = values(got), w = values(want);
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(w[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << what << " at " << i;
    } else {
      EXPECT_NEAR(g[i], w[i], atol + rtol * std::fabs(w[i])) << what << " at " << i;
    }
  }
}

// Runs f on the reference set (CPU) and on the device, then compares.
void check(const std::string& name, const Fn& f, const Tensor& a, const Tensor& b) {
  Tensor want;
  {
    ts::KernelSetGuard ref("reference");
    want = f(a, b);
  }
  const Tensor got = to_cpu(f(to_cuda(a), to_cuda(b)));
  expect_close(got, want, name + " " + std::string(ts::dtype_name(a.dtype())));
}

// Inputs spanning signs and magnitudes, drawn on the CPU.
Tensor input(ts::IntArrayRef shape, ts::ScalarType t, double scale, double shift = 0) {
  ts::KernelSetGuard ref("reference");
  ts::manual_seed(7);
  return ts::add(ts::mul(ts::randn(shape, ts::kDouble), scale), shift).to(t);
}

using CudaOps = CudaTest;

TEST_F(CudaOps, UnaryMatchesReference) {
  const std::vector<std::pair<std::string, std::function<Tensor(const Tensor&)>>> ops = {
      {"neg", [](const Tensor& x) { return ts::neg(x); }},
      {"abs", [](const Tensor& x) { return ts::abs(x); }},
      {"exp", [](const Tensor& x) { return ts::exp(x); }},
      {"log1p", [](const Tensor& x) { return ts::log1p(ts::abs(x)); }},
      {"tanh", [](const Tensor& x) { return ts::tanh(x); }},
      {"sigmoid", [](const Tensor& x) { return ts::sigmoid(x); }},
      {"gelu", [](const Tensor& x) { return ts::gelu(x); }},
      {"round", [](const Tensor& x) { return ts::round(x); }},
      {"clamp", [](const Tensor& x) { return ts::clamp(x, -0.5, 0.75); }}};
  for (ts::ScalarType t : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kBFloat16}) {
    const Tensor x = input({33, 65}, t, 2.0);
    for (const auto& [name, f] : ops) {
      check(
          name, [&f](const Tensor& a, const Tensor&) { return f(a); }, x, x);
    }
  }
}

TEST_F(CudaOps, BinaryMatchesReferenceWithBroadcastAndStrides) {
  const std::vector<std::pair<std::string, Fn>> ops = {
      {"add", [](const Tensor& a, const Tensor& b) { return ts::add(a, b, 2); }},
      {"mul", [](const Tensor& a, const Tensor& b) { return ts::mul(a, b); }},
      {"div", [](const Tensor& a, const Tensor& b) { return ts::div(a, b); }},
      {"floor_div", [](const Tensor& a, const Tensor& b) { return ts::div(a, b, "floor"); }},
      {"remainder", [](const Tensor& a, const Tensor& b) { return ts::remainder(a, b); }},
      {"maximum", [](const Tensor& a, const Tensor& b) { return ts::maximum(a, b); }},
      {"lt", [](const Tensor& a, const Tensor& b) { return ts::lt(a, b); }}};
  for (ts::ScalarType t : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kInt, ts::kChar}) {
    const bool integral = !ts::is_floating_type(t);
    const Tensor a = input({64, 48}, t, integral ? 50 : 3);
    // Broadcast row (stride 0), a transposed operand (strided path), nonzero divisors.
    const Tensor row = input({48}, t, integral ? 9 : 2, integral ? 20 : 3);
    const Tensor at = input({48, 64}, t, integral ? 50 : 3).t();
    for (const auto& [name, f] : ops) {
      check(name + " row", f, a, row);
      check(name + " transposed", f, at, row);
    }
  }
}

// uint8's 255 is no -1: the signed types' wrapping rule for a divisor of -1 must not catch it.
TEST_F(CudaOps, Uint8DivisorOf255) {
  const Tensor a = to_cuda(make(ts::kByte, {100, 255, 0, 254}));
  const Tensor b = to_cuda(make(ts::kByte, {255, 255, 255, 7}));
  EXPECT_TENSOR(to_cpu(ts::div(a, b, "trunc")), ts::kByte, {4}, {0, 1, 0, 36});
  EXPECT_TENSOR(to_cpu(ts::remainder(a, b)), ts::kByte, {4}, {100, 0, 0, 2});
}

// An output of another dtype than the computation's gets a temporary on the output's device.
TEST_F(CudaOps, PromotingInPlaceAndOutOfOtherDtype) {
  Tensor h = to_cuda(make(ts::kHalf, {1, 2, 3}));
  h.add_(to_cuda(make(ts::kFloat, {0.5, 0.25, -1})));
  EXPECT_TENSOR(to_cpu(h), ts::kHalf, {3}, {1.5, 2.25, 2});
  const Tensor out = to_cuda(make(ts::kDouble, {0, 0, 0}));
  ts::mul_out(out, to_cuda(make(ts::kFloat, {1.5, 2, 3})), to_cuda(make(ts::kFloat, {2, 2, 2})));
  EXPECT_TENSOR(to_cpu(out), ts::kDouble, {3}, {3, 4, 6});
}

// The three launcher paths give the same bits (the arithmetic per element is the same).
TEST_F(CudaOps, Forced64BitPathMatches32BitPath) {
  const Tensor a = to_cuda(input({257, 129}, ts::kFloat, 3));
  const Tensor b = to_cuda(input({129}, ts::kFloat, 3));
  const Tensor contiguous32 = to_cpu(ts::mul(a, a));
  const Tensor strided32 = to_cpu(ts::add(a.t().contiguous().t(), b));
  ts::cuda::set_force_64bit_indexing(true);
  const Tensor contiguous64 = to_cpu(ts::mul(a, a));
  const Tensor strided64 = to_cpu(ts::add(a.t().contiguous().t(), b));
  ts::cuda::set_force_64bit_indexing(false);
  EXPECT_EQ(std::memcmp(contiguous32.data_ptr(), contiguous64.data_ptr(), contiguous32.nbytes()),
            0);
  EXPECT_EQ(std::memcmp(strided32.data_ptr(), strided64.data_ptr(), strided32.nbytes()), 0);
  Tensor want;
  {
    ts::KernelSetGuard ref("reference");
    want = ts::add(to_cpu(a), to_cpu(b));
  }
  expect_close(strided64, want, "add forced 64-bit");
}

TEST_F(CudaOps, TernaryMatchesReference) {
  const Tensor a = input({40, 30}, ts::kFloat, 2);
  const Tensor b = input({30}, ts::kFloat, 2, 1);
  check(
      "where", [](const Tensor& x, const Tensor& y) { return ts::where(ts::gt(x, 0), x, y); }, a,
      b);
  check(
      "addcmul", [](const Tensor& x, const Tensor& y) { return ts::addcmul(x, x, y, 0.5); }, a, b);
  check(
      "lerp", [](const Tensor& x, const Tensor& y) { return ts::lerp(x, y, 0.25); }, a, b);
}

// cuBLAS with TF32 off: float32 products agree with the reference to float32 rounding.
TEST_F(CudaOps, MatmulsMatchReference) {
  for (ts::ScalarType t : {ts::kFloat, ts::kDouble, ts::kHalf}) {
    const Tensor a = input({33, 17}, t, 1);
    const Tensor b = input({17, 9}, t, 1, 0.5);
    const Tensor bt = input({9, 17}, t, 1).t();  // column-major operand
    const Tensor v = input({17}, t, 1);
    check(
        "mm", [](const Tensor& x, const Tensor& y) { return ts::mm(x, y); }, a, b);
    check(
        "mm colmajor", [](const Tensor& x, const Tensor& y) { return ts::mm(x, y); }, a, bt);
    check(
        "mv", [](const Tensor& x, const Tensor& y) { return ts::mv(x, y); }, a, v);
    check(
        "dot", [](const Tensor& x, const Tensor& y) { return ts::dot(x, y); }, v, v);
    check(
        "addmm",
        [](const Tensor& x, const Tensor& y) { return ts::addmm(ts::mm(x, y), x, y, 0.5, 2); }, a,
        b);
    const Tensor ba = input({4, 8, 5}, t, 1);
    const Tensor bb = input({4, 5, 6}, t, 1);
    check(
        "bmm", [](const Tensor& x, const Tensor& y) { return ts::bmm(x, y); }, ba, bb);
  }
}

// Note [More than 2^31 elements]
// 2^31 + 2^20 int8 elements (2.1 GB per tensor): can_use_32bit_indexing() fails, the launcher
// splits the iterator, and every piece must land in the right place. Values are i mod 128,
// checked at the ends and around the split points.
TEST_F(CudaOps, MoreThan2To31ElementsSplit) {
  const int64_t n = (int64_t{1} << 31) + (int64_t{1} << 20);
  Tensor x;
  try {
    x = ts::remainder(ts::arange(0, n, 1, ts::TensorOptions(ts::kLong).device(kCuda)), 128)
            .to(ts::kChar);
  } catch (const ts::Error& e) {
    GTEST_SKIP() << "not enough device memory: " << e.what();
  }
  const Tensor y = ts::add(x, 1);
  for (int64_t i :
       {int64_t{0}, int64_t{1} << 30, (int64_t{1} << 31) - 1, int64_t{1} << 31, n - 2, n - 1}) {
    const Tensor v = to_cpu(y.slice(0, i, i + 1));
    EXPECT_EQ(get(v), static_cast<double>(static_cast<int8_t>(i % 128 + 1))) << i;
  }
}

}  // namespace
