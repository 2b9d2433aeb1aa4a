// Factories: values, dtypes and shapes (hand-computed or from PyTorch's documentation) and every
// error path.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

using V = std::vector<double>;

TEST(Zeros, ShapesDtypesAndValues) {
  const Tensor a = ts::zeros({2, 3});
  EXPECT_EQ(a.dtype(), ts::kFloat);
  EXPECT_EQ(a.sizes(), ts::IntArrayRef({2, 3}));
  EXPECT_EQ(values(a), V(6, 0.0));
  const Tensor b = ts::zeros({4}, ts::kInt);
  EXPECT_EQ(b.dtype(), ts::kInt);
  EXPECT_EQ(values(b), V(4, 0.0));
  const Tensor s = ts::zeros({});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(values(s), V{0.0});
  const Tensor e = ts::zeros({0, 3}, ts::kBFloat16);
  EXPECT_EQ(e.numel(), 0);
  EXPECT_EQ(e.sizes(), ts::IntArrayRef({0, 3}));
}

TEST(Ones, ShapesDtypesAndValues) {
  EXPECT_EQ(values(ts::ones({2, 2}, ts::kHalf)), V(4, 1.0));
  EXPECT_EQ(ts::ones({2}, ts::kHalf).dtype(), ts::kHalf);
  EXPECT_EQ(values(ts::ones({3}, ts::kBool)), V(3, 1.0));
  EXPECT_EQ(values(ts::ones({1, 1, 1}, ts::kByte)), V{1.0});
  EXPECT_EQ(ts::ones({5}).dtype(), ts::kFloat);
}

TEST(Full, DtypeIsInferredFromTheValue) {
  const Tensor b = ts::full({2}, true);
  EXPECT_EQ(b.dtype(), ts::kBool);
  EXPECT_EQ(values(b), (V{1, 1}));
  const Tensor i = ts::full({2, 3}, 7);
  EXPECT_EQ(i.dtype(), ts::kLong);
  EXPECT_EQ(values(i), V(6, 7.0));
  const Tensor f = ts::full({2, 3}, 3.141592);  // PyTorch doc: torch.full((2, 3), 3.141592)
  EXPECT_EQ(f.dtype(), ts::kFloat);
  EXPECT_EQ(values(f), V(6, static_cast<double>(3.141592f)));
  const Tensor big = ts::full({1}, int64_t{1} << 40);
  EXPECT_EQ(values(big), V{1099511627776.0});
}

TEST(Full, ExplicitDtypeWins) {
  EXPECT_EQ(ts::full({2}, 7, ts::kDouble).dtype(), ts::kDouble);
  EXPECT_EQ(values(ts::full({2}, 7, ts::kDouble)), (V{7, 7}));
  EXPECT_EQ(values(ts::full({2}, 0.5, ts::kHalf)), (V{0.5, 0.5}));
  EXPECT_EQ(values(ts::full({2}, true, ts::kInt)), (V{1, 1}));
  EXPECT_EQ(ts::full({}, 2, ts::kShort).dim(), 0);
}

TEST(ScalarTensor, IsZeroDimWithTheDefaultFloatDtype) {
  const Tensor a = ts::scalar_tensor(1);
  EXPECT_EQ(a.dim(), 0);
  EXPECT_EQ(a.dtype(), ts::kFloat);  // as torch.scalar_tensor(1) -> tensor(1.)
  EXPECT_EQ(values(a), V{1.0});
  const Tensor b = ts::scalar_tensor(-3, ts::kLong);
  EXPECT_EQ(b.dtype(), ts::kLong);
  EXPECT_EQ(values(b), V{-3.0});
  EXPECT_EQ(values(ts::scalar_tensor(true, ts::kBool)), V{1.0});
}

TEST(LikeFactories, TakeShapeAndDtypeFromSelfUnlessGiven) {
  const Tensor self = ts::empty({2, 3}, ts::kInt);
  const Tensor z = ts::zeros_like(self);
  EXPECT_EQ(z.dtype(), ts::kInt);
  EXPECT_EQ(z.sizes(), ts::IntArrayRef({2, 3}));
  EXPECT_EQ(values(z), V(6, 0.0));
  const Tensor o = ts::ones_like(self, ts::kDouble);
  EXPECT_EQ(o.dtype(), ts::kDouble);
  EXPECT_EQ(values(o), V(6, 1.0));
  // full_like keeps self's dtype (not the value's): 2.7 truncates to 2 in an int32 tensor.
  const Tensor f = ts::full_like(self, 2.7);
  EXPECT_EQ(f.dtype(), ts::kInt);
  EXPECT_EQ(values(f), V(6, 2.0));
  EXPECT_EQ(values(ts::full_like(self, 2.5, ts::kHalf)), V(6, 2.5));
  const Tensor zs = ts::zeros_like(ts::empty({}, ts::kBool));
  EXPECT_EQ(zs.dim(), 0);
  EXPECT_EQ(values(zs), V{0.0});
}

TEST(LikeFactories, NonContiguousSelf) {
  // A transposed (dense, non-contiguous) self: same shape; every element is set.
  const Tensor self = ts::empty_strided({2, 3}, {1, 2}, ts::kFloat);
  const Tensor o = ts::ones_like(self);
  EXPECT_EQ(o.sizes(), ts::IntArrayRef({2, 3}));
  EXPECT_EQ(values(o), V(6, 1.0));
  // An expanded (stride 0) self gives a fresh tensor of its shape.
  const Tensor expanded = ts::empty_strided({4, 3}, {0, 1}, ts::kLong);
  const Tensor f = ts::full_like(expanded, 9);
  EXPECT_EQ(f.sizes(), ts::IntArrayRef({4, 3}));
  EXPECT_EQ(values(f), V(12, 9.0));
}

TEST(Arange, PyTorchDocExamples) {
  const Tensor a = ts::arange(5);  // tensor([0, 1, 2, 3, 4])
  EXPECT_EQ(a.dtype(), ts::kLong);
  EXPECT_EQ(values(a), (V{0, 1, 2, 3, 4}));
  const Tensor b = ts::arange(1, 4);  // tensor([1, 2, 3])
  EXPECT_EQ(b.dtype(), ts::kLong);
  EXPECT_EQ(values(b), (V{1, 2, 3}));
  const Tensor c = ts::arange(1, 2.5, 0.5);  // tensor([1.0000, 1.5000, 2.0000])
  EXPECT_EQ(c.dtype(), ts::kFloat);
  EXPECT_EQ(values(c), (V{1.0, 1.5, 2.0}));
}

TEST(Arange, NegativeStepsAndDtypes) {
  EXPECT_EQ(values(ts::arange(10, 0, -3)), (V{10, 7, 4, 1}));
  EXPECT_EQ(values(ts::arange(5, 5)), V{});
  EXPECT_EQ(ts::arange(5, 5).sizes(), ts::IntArrayRef({0}));
  const Tensor d = ts::arange(4, ts::kDouble);
  EXPECT_EQ(d.dtype(), ts::kDouble);
  EXPECT_EQ(values(d), (V{0, 1, 2, 3}));
  EXPECT_EQ(values(ts::arange(0, 5, 2, ts::kHalf)), (V{0, 2, 4}));
  EXPECT_EQ(values(ts::arange(-1, 1, 0.5, ts::kBFloat16)), (V{-1, -0.5, 0, 0.5}));
  EXPECT_EQ(values(ts::arange(250, 260, 3, ts::kByte)), (V{250, 253, 256 - 256, 259 - 256}));
  EXPECT_EQ(values(ts::arange(-3, 0, 1, ts::kChar)), (V{-3, -2, -1}));
  // Integral dtypes truncate the bounds for the values, not for the size: ceil(6 / 2.9) = 3
  // elements 0 + i * 2.
  EXPECT_EQ(values(ts::arange(0, 6, 2.9, ts::kInt)), (V{0, 2, 4}));
  // A float start without a dtype gives the default float dtype.
  EXPECT_EQ(ts::arange(0.0, 3.0).dtype(), ts::kFloat);
  EXPECT_EQ(ts::arange(0, 3, true).dtype(), ts::kLong);
}

TEST(Arange, SizeIsCeilOfTheRangeOverTheStep) {
  // 0.3 / 0.1 = 3.0000000000000004 in double, so (as PyTorch warns) 1.3 is included.
  EXPECT_EQ(ts::arange(1, 1.3, 0.1).numel(), 4);
  EXPECT_EQ(ts::arange(0, 1, 0.1).numel(), 10);
  const std::vector<double> v = values(ts::arange(0, 1, 0.1, ts::kDouble));
  EXPECT_EQ(v[3], 3 * 0.1);  // start + i * step, not a running sum
  EXPECT_EQ(v[9], 9 * 0.1);
  // See Note [arange size]: the size comes from the bounds as given, whatever the dtype.
  EXPECT_EQ(values(ts::arange(0, 2.5, 1, ts::kLong)), (V{0, 1, 2}));
  EXPECT_EQ(values(ts::arange(0.5, 2.5, 1, ts::kInt)), (V{0, 1}));
  // All-integral bounds count exactly, beyond double's 2^53.
  const int64_t big = (int64_t{1} << 60) + 1;
  EXPECT_EQ(ts::arange(0, big, int64_t{1} << 56).numel(), 17);  // double says 16
}

TEST(Arange, Int64ExtremesDoNotOverflow) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  const Tensor a = ts::arange(kMax - 2, kMax);
  ASSERT_EQ(a.numel(), 2);
  EXPECT_EQ(a.data_ptr<int64_t>()[0], kMax - 2);
  EXPECT_EQ(a.data_ptr<int64_t>()[1], kMax - 1);
  // (2^64 - 1) / (2^63 - 1) = 2 remainder 1: three elements.
  const Tensor b = ts::arange(kMin, kMax, kMax);
  ASSERT_EQ(b.numel(), 3);
  EXPECT_EQ(b.data_ptr<int64_t>()[0], kMin);
  EXPECT_EQ(b.data_ptr<int64_t>()[1], -1);
  EXPECT_EQ(b.data_ptr<int64_t>()[2], kMax - 1);
  const Tensor c = ts::arange(kMax, kMin, kMin);
  ASSERT_EQ(c.numel(), 2);
  EXPECT_EQ(c.data_ptr<int64_t>()[1], -1);
}

TEST(Arange, Errors) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_ERROR(ts::arange(0, 5, 0), "arange: step must be nonzero");
  EXPECT_ERROR(ts::arange(0.0, 5.0, 0.0), "arange: step must be nonzero");
  EXPECT_ERROR(ts::arange(0, 5, 0.5, ts::kInt), "arange: step must be nonzero");
  EXPECT_ERROR(ts::arange(0, 5, nan), "arange: step must be nonzero");
  EXPECT_ERROR(ts::arange(0, 5, -1),
               "arange: upper bound and larger bound inconsistent with step sign");
  EXPECT_ERROR(ts::arange(5.0, 0.0, 0.5),
               "arange: upper bound and larger bound inconsistent with step sign");
  EXPECT_ERROR(ts::arange(-1), "arange: upper bound and larger bound inconsistent with step sign");
  EXPECT_ERROR(ts::arange(0, inf), "arange: unsupported range: 0 -> inf");
  EXPECT_ERROR(ts::arange(nan, 1.0), "arange: unsupported range: nan -> 1");
  EXPECT_ERROR(ts::arange(0, inf, 1, ts::kInt), "arange: unsupported range: 0 -> inf");
  EXPECT_ERROR(ts::arange(0, 1e30, 1e28, ts::kLong), "arange: unsupported range: 0 -> 1e+30");
  EXPECT_ERROR(ts::arange(0, 1e300, 1e-300), "arange: invalid size, possible overflow?");
  EXPECT_ERROR(ts::arange(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()),
               "arange: invalid size, possible overflow?");
  EXPECT_ERROR(ts::arange(3, ts::kBool), "arange: not implemented for dtype bool");
}

TEST(Linspace, PyTorchDocExamples) {
  const Tensor a = ts::linspace(3, 10, 5);  // tensor([ 3.0000,  4.7500,  6.5000,  8.2500, 10.0000])
  EXPECT_EQ(a.dtype(), ts::kFloat);
  EXPECT_EQ(values(a), (V{3.0, 4.75, 6.5, 8.25, 10.0}));
  EXPECT_EQ(values(ts::linspace(-10, 10, 5)), (V{-10, -5, 0, 5, 10}));
  EXPECT_EQ(values(ts::linspace(-10, 10, 1)), V{-10});
  EXPECT_EQ(ts::linspace(0, 1, 0).sizes(), ts::IntArrayRef({0}));
}

TEST(Linspace, SecondHalfCountsBackFromEnd) {
  // steps = 4: step = 1/3; element 2 is end - step (0.66...67), not 2 * step (0.66...66).
  const std::vector<double> v = values(ts::linspace(0, 1, 4, ts::kDouble));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0], 0.0);
  EXPECT_EQ(v[1], 1.0 / 3.0);
  EXPECT_EQ(v[2], 1.0 - 1.0 / 3.0);
  EXPECT_NE(v[2], 2 * (1.0 / 3.0));
  EXPECT_EQ(v[3], 1.0);
  // Odd steps: the middle element belongs to the second half.
  const std::vector<double> w = values(ts::linspace(0.0, 0.7, 3, ts::kDouble));
  EXPECT_EQ(w[1], 0.7 - 0.35);
}

// Long enough for whole vectors: each element as the formula gives it, rounded once (the
// first half start + step * i, the second end - step * (steps - 1 - i)), on both CPU sets.
TEST(Linspace, EveryElementAsTheFormula) {
  for (const char* set : {"reference", "optimized"}) {
    SCOPED_TRACE(set);
    const ts::KernelSetGuard guard(set);
    const int64_t steps = 1001;
    const double start = -1.25, end = 3.1, step = (end - start) / static_cast<double>(steps - 1);
    const std::vector<double> d = values(ts::linspace(start, end, steps, ts::kDouble));
    const std::vector<double> f = values(ts::linspace(start, end, steps, ts::kFloat));
    const double fs = static_cast<float>(start), fe = static_cast<float>(end);
    const double fstep = (fe - fs) / static_cast<double>(steps - 1);
    for (int64_t i = 0; i < steps; ++i) {
      const auto di = static_cast<double>(i), back = static_cast<double>(steps - 1 - i);
      const double want = i < steps / 2 ? start + step * di : end - step * back;
      const float want_f = static_cast<float>(i < steps / 2 ? fs + fstep * di : fe - fstep * back);
      ASSERT_EQ(d[static_cast<size_t>(i)], want) << "element " << i;
      ASSERT_EQ(f[static_cast<size_t>(i)], want_f) << "element " << i;
    }
    // arange: start + i * step in double, rounded once to float32.
    const std::vector<double> a = values(ts::arange(-3, 97, 0.1, ts::kFloat));
    ASSERT_EQ(a.size(), 1000u);
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i], static_cast<float>(-3 + static_cast<double>(i) * 0.1)) << "element " << i;
    }
  }
}

TEST(Linspace, IntegralAndReducedDtypes) {
  // step 10/3 in double; 3.33 -> 3 and 10 - 3.33 -> 6, truncated toward zero.
  EXPECT_EQ(values(ts::linspace(0, 10, 4, ts::kLong)), (V{0, 3, 6, 10}));
  EXPECT_EQ(values(ts::linspace(0, -10, 3, ts::kInt)), (V{0, -5, -10}));
  // Bounds are converted to the dtype first: 2.9 -> 2 and 7.9 -> 7 for int16.
  EXPECT_EQ(values(ts::linspace(2.9, 7.9, 6, ts::kShort)), (V{2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(values(ts::linspace(0, 1, 5, ts::kHalf)), (V{0, 0.25, 0.5, 0.75, 1}));
  EXPECT_EQ(values(ts::linspace(1, 2, 3, ts::kBFloat16)), (V{1, 1.5, 2}));
  EXPECT_EQ(values(ts::linspace(0, 255, 2, ts::kByte)), (V{0, 255}));
}

TEST(Linspace, Errors) {
  EXPECT_ERROR(ts::linspace(0, 1, -1), "linspace: number of steps must be non-negative");
  EXPECT_ERROR(ts::linspace(0, 1, 3, ts::kBool), "linspace: not implemented for dtype bool");
}

// libtorch 1.13 (Note [Nothing to compute]): linspace(0, 4, 0, bool) -> bool [0]; with one step
// the result is start stored as bool: linspace(0, 4, 1) -> [False], 0.5 or 2 -> [True].
TEST(Linspace, BoolOfZeroOrOneStepsAsATen) {
  const Tensor e = ts::linspace(0, 4, 0, ts::kBool);
  EXPECT_EQ(e.dtype(), ts::kBool);
  EXPECT_EQ(e.sizes(), ts::IntArrayRef({0}));
  EXPECT_EQ(values(ts::linspace(0, 4, 1, ts::kBool)), (V{0}));
  EXPECT_EQ(values(ts::linspace(0.5, 4, 1, ts::kBool)), (V{1}));
  EXPECT_EQ(values(ts::linspace(2, 4, 1, ts::kBool)), (V{1}));
  EXPECT_EQ(ts::linspace(2, 4, 1, ts::kBool).dtype(), ts::kBool);
  EXPECT_ERROR(ts::linspace(0, 1, 2, ts::kBool), "linspace: not implemented for dtype bool");
}

TEST(Eye, SquareAndRectangular) {
  const Tensor a = ts::eye(3);
  EXPECT_EQ(a.dtype(), ts::kFloat);
  EXPECT_EQ(a.sizes(), ts::IntArrayRef({3, 3}));
  EXPECT_EQ(values(a), (V{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  const Tensor b = ts::eye(2, 3, ts::kInt);
  EXPECT_EQ(b.dtype(), ts::kInt);
  EXPECT_EQ(b.sizes(), ts::IntArrayRef({2, 3}));
  EXPECT_EQ(values(b), (V{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(values(ts::eye(3, 2, ts::kBool)), (V{1, 0, 0, 1, 0, 0}));
  EXPECT_EQ(values(ts::eye(2, ts::kHalf)), (V{1, 0, 0, 1}));
  EXPECT_EQ(ts::eye(0).sizes(), ts::IntArrayRef({0, 0}));
  EXPECT_EQ(ts::eye(2, 0).sizes(), ts::IntArrayRef({2, 0}));
}

TEST(Eye, Errors) {
  EXPECT_ERROR(ts::eye(-1), "eye: n must be greater or equal to 0, got -1");
  EXPECT_ERROR(ts::eye(2, -3), "eye: m must be greater or equal to 0, got -3");
}

TEST(TensorFromValues, DtypeFollowsTheValues) {
  const Tensor d = ts::tensor({1.5, -2.0});
  EXPECT_EQ(d.dtype(), ts::kFloat);
  EXPECT_EQ(d.sizes(), ts::IntArrayRef({2}));
  EXPECT_EQ(values(d), (V{1.5, -2.0}));
  EXPECT_EQ(ts::tensor({0.25f}).dtype(), ts::kFloat);
  const Tensor i = ts::tensor({1, 2, 3});
  EXPECT_EQ(i.dtype(), ts::kLong);
  EXPECT_EQ(values(i), (V{1, 2, 3}));
  const Tensor l = ts::tensor({int64_t{1} << 40, int64_t{-1}});
  EXPECT_EQ(l.dtype(), ts::kLong);
  EXPECT_EQ(l.data_ptr<int64_t>()[0], int64_t{1} << 40);
  const Tensor b = ts::tensor({true, false, true});
  EXPECT_EQ(b.dtype(), ts::kBool);
  EXPECT_EQ(values(b), (V{1, 0, 1}));
  const Tensor e = ts::tensor(ts::ArrayRef<double>());
  EXPECT_EQ(e.dtype(), ts::kFloat);
  EXPECT_EQ(e.sizes(), ts::IntArrayRef({0}));
}

TEST(TensorFromValues, ExplicitDtypeConverts) {
  EXPECT_EQ(values(ts::tensor({1.7, -1.7}, ts::kInt)), (V{1, -1}));  // truncation
  EXPECT_EQ(ts::tensor({1.7}, ts::kDouble).data_ptr<double>()[0], 1.7);
  EXPECT_EQ(values(ts::tensor({0.1}, ts::kHalf)), V{static_cast<float>(ts::Half(0.1f))});
  EXPECT_EQ(values(ts::tensor({2, 0, -1}, ts::kBool)), (V{1, 0, 1}));
  EXPECT_EQ(values(ts::tensor({255, 0}, ts::kByte)), (V{255, 0}));
  EXPECT_EQ(values(ts::tensor({true, false}, ts::kFloat)), (V{1, 0}));
  EXPECT_EQ(values(ts::tensor({-128.9}, ts::kChar)), V{-128});
  EXPECT_EQ(values(ts::tensor({3}, ts::kBFloat16)), V{3});
}

// Note [tensor() integer conversion]: ATen 1.13's tensor() casts a floating value modulo 2^bits:
// -2.0 -> 254 as uint8, -129.7 -> 127 as int8, 70000.5 -> 4464 as int16; 1e10 as int32 is
// 10^10 mod 2^32 = 1410065408 here (1.13's direct float cast gives INT_MIN).
TEST(TensorFromValues, FloatingValuesWrapIntoIntegerDtypes) {
  EXPECT_EQ(values(ts::tensor({-2.0}, ts::kByte)), V{254});
  EXPECT_EQ(values(ts::tensor({-129.7}, ts::kChar)), V{127});
  EXPECT_EQ(values(ts::tensor({70000.5}, ts::kShort)), V{4464});
  EXPECT_EQ(values(ts::tensor({1e10}, ts::kInt)), V{1410065408});
}

TEST(TensorFromValues, Errors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_ERROR(ts::tensor({300}, ts::kByte),
               "tensor: value cannot be converted to type uint8 without overflow");
  EXPECT_ERROR(ts::tensor({-1}, ts::kByte),
               "tensor: value cannot be converted to type uint8 without overflow");
  EXPECT_ERROR(ts::tensor({1e19}, ts::kLong),
               "tensor: value cannot be converted to type int64 without overflow");
  EXPECT_ERROR(ts::tensor({nan}, ts::kLong),
               "tensor: value cannot be converted to type int64 without overflow");
  EXPECT_ERROR(ts::tensor({9223372036854775808.0}, ts::kLong),
               "tensor: value cannot be converted to type int64 without overflow");
}

TEST(Factories, NegativeSizesNameTheOp) {
  EXPECT_ERROR(ts::zeros({2, -1}), "Trying to create tensor with negative dimension -1");
  EXPECT_ERROR(ts::full({-2}, 1), "Trying to create tensor with negative dimension -2");
  EXPECT_ERROR(ts::randn({-2}), "randn: Trying to create tensor with negative dimension -2");
  EXPECT_ERROR(ts::randint(3, {-2}), "randint: Trying to create tensor with negative dimension");
}

}  // namespace
