// Linear algebra: mm, bmm, addmm, dot, mv, outer and matmul against hand-computed products,
// PyTorch's documented matmul shape rules, and every argument error with its message.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::IntArrayRef;
using ts::ScalarType;
using ts::Tensor;

// A naive product of row-major matrices, written out here so the tests do not trust any kernel.
std::vector<double> naive_mm(const std::vector<double>& a, const std::vector<double>& b, int64_t n,
                             int64_t m, int64_t p) {
  std::vector<double> r(static_cast<size_t>(n * p), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < p; ++j) {
      for (int64_t k = 0; k < m; ++k) r[i * p + j] += a[i * m + k] * b[k * p + j];
    }
  }
  return r;
}

constexpr ScalarType kNonBool[] = {ts::kByte, ts::kChar,     ts::kShort, ts::kInt,   ts::kLong,
                                   ts::kHalf, ts::kBFloat16, ts::kFloat, ts::kDouble};

// ---- mm ----

TEST(Mm, MultipliesTwoByThreeByThreeByTwo) {
  const Tensor a = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = make(ts::kFloat, {7, 8, 9, 10, 11, 12}, {3, 2});
  const Tensor c = ts::mm(a, b);
  EXPECT_EQ(c.dtype(), ts::kFloat);
  EXPECT_EQ(shape_of(c), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(c), (std::vector<double>{58, 64, 139, 154}));
  EXPECT_EQ(values(a.mm(b)), values(c));
}

TEST(Mm, EveryNonBoolDtypeKeepsItsDtype) {
  for (ScalarType t : kNonBool) {
    const Tensor c = ts::mm(make(t, {1, 2, 3, 4}, {2, 2}), make(t, {5, 6, 7, 8}, {2, 2}));
    EXPECT_EQ(c.dtype(), t);
    EXPECT_EQ(values(c), (std::vector<double>{19, 22, 43, 50})) << t;
  }
}

TEST(Mm, Int64IsExactBeyondDoublePrecision) {
  // 2^53 + 1 is not a double; an int64 product must not pass through one.
  const int64_t big = (int64_t{1} << 53) + 1;
  const Tensor a = ts::tensor({big, int64_t{1}}).reshape({1, 2});
  const Tensor b = ts::tensor({int64_t{1}, int64_t{0}}).reshape({2, 1});
  EXPECT_EQ(ts::mm(a, b).item<int64_t>(), big);
}

TEST(Mm, Int8WrapsLikeTwosComplement) {
  // 100 * 2 + 100 * 1 = 300 = 44 (mod 256).
  const Tensor c = ts::mm(make(ts::kChar, {100, 100}, {1, 2}), make(ts::kChar, {2, 1}, {2, 1}));
  EXPECT_EQ(c.item<int64_t>(), 44);
}

TEST(Mm, Float16HandComputed) {
  const Tensor a = make(ts::kHalf, {0.5, 1.5, 2, -1}, {2, 2});
  const Tensor b = make(ts::kHalf, {2, 4, 1, 0.25}, {2, 2});
  const Tensor c = ts::mm(a, b);
  EXPECT_EQ(c.dtype(), ts::kHalf);
  EXPECT_EQ(values(c), (std::vector<double>{2.5, 2.375, 3, 7.75}));
}

TEST(Mm, ReducedFloatsAccumulateInWiderPrecision) {
  // In float16, 2048 + 1 rounds back to 2048; summed wide, 2048 + 1 + 1 = 2050 is exact.
  const Tensor a = make(ts::kHalf, {2048, 1, 1}, {1, 3});
  EXPECT_EQ(ts::mm(a, make(ts::kHalf, {1, 1, 1}, {3, 1})).item<double>(), 2050);
  // bfloat16 keeps 8 significant bits: at 256 the spacing is 2, so 258 is exact.
  const Tensor b = make(ts::kBFloat16, {256, 1, 1}, {1, 3});
  EXPECT_EQ(ts::mm(b, make(ts::kBFloat16, {1, 1, 1}, {3, 1})).item<double>(), 258);
}

TEST(Mm, TransposedAndSteppedOperands) {
  const Tensor at = make(ts::kFloat, {1, 4, 2, 5, 3, 6}, {3, 2}).t();  // [[1, 2, 3], [4, 5, 6]]
  ASSERT_FALSE(at.is_contiguous());
  // Rows 0, 2, 4 of a 6x2 tensor: [[7, 8], [9, 10], [11, 12]].
  const Tensor b =
      make(ts::kFloat, {7, 8, 0, 0, 9, 10, 0, 0, 11, 12, 0, 0}, {6, 2}).slice(0, 0, 6, 2);
  ASSERT_FALSE(b.is_contiguous());
  EXPECT_EQ(values(ts::mm(at, b)), (std::vector<double>{58, 64, 139, 154}));
}

TEST(Mm, EmptyInnerDimensionGivesZeros) {
  const Tensor c = ts::mm(ts::empty({2, 0}), ts::empty({0, 3}));
  EXPECT_EQ(shape_of(c), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(c), std::vector<double>(6, 0.0));
  EXPECT_EQ(shape_of(ts::mm(ts::empty({0, 3}), ts::empty({3, 2}))), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(shape_of(ts::mm(ts::empty({2, 3}), ts::empty({3, 0}))), (std::vector<int64_t>{2, 0}));
}

// Note [Nothing to compute]: libtorch 1.13 (and current PyTorch) return these bool products
// without reaching their kernel: mm (2, 0) @ (0, 2) -> [[False, False], [False, False]], mm (0, 3)
// @ (3, 2) -> bool [0, 2], bmm (2, 2, 0) @ (2, 0, 3) -> False [2, 2, 3], mv (2, 0) @ (0) -> [False,
// False]; mm_out into ones(2, 2) gives False; a non-empty product and dot of empty bools throw.
TEST(Mm, BoolWithNothingToComputeAsATen) {
  const ScalarType b = ts::kBool;
  const Tensor z = ts::mm(ts::empty({2, 0}, b), ts::empty({0, 2}, b));
  EXPECT_EQ(z.dtype(), b);
  EXPECT_EQ(values(z), std::vector<double>(4, 0.0));
  const Tensor e = ts::mm(ts::empty({0, 3}, b), ts::empty({3, 2}, b));
  EXPECT_EQ(e.dtype(), b);
  EXPECT_EQ(shape_of(e), (std::vector<int64_t>{0, 2}));
  Tensor out = ts::ones({2, 2}, b);
  ts::mm_out(out, ts::empty({2, 0}, b), ts::empty({0, 2}, b));
  EXPECT_EQ(values(out), std::vector<double>(4, 0.0));
  const Tensor bz = ts::bmm(ts::empty({2, 2, 0}, b), ts::empty({2, 0, 3}, b));
  EXPECT_EQ(shape_of(bz), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(values(bz), std::vector<double>(12, 0.0));
  EXPECT_EQ(values(ts::mv(ts::empty({2, 0}, b), ts::empty({0}, b))), (std::vector<double>{0, 0}));
  EXPECT_EQ(shape_of(ts::matmul(ts::empty({2, 0, 4}, b), ts::empty({2, 4, 3}, b))),
            (std::vector<int64_t>{2, 0, 3}));
  EXPECT_ERROR(ts::bmm(ts::ones({1, 2, 2}, b), ts::ones({1, 2, 2}, b)),
               "bmm: not implemented for dtype bool (argument 'self')");
  EXPECT_ERROR(ts::mv(ts::ones({2, 2}, b), ts::ones({2}, b)),
               "mv: not implemented for dtype bool (argument 'self')");
  EXPECT_ERROR(ts::dot(ts::empty({0}, b), ts::empty({0}, b)),
               "dot: not implemented for dtype bool");
  EXPECT_ERROR(ts::matmul(ts::empty({0}, b), ts::empty({0}, b)),
               "dot: not implemented for dtype bool");
}

TEST(Mm, Errors) {
  const Tensor m = ts::ones({2, 3});
  EXPECT_ERROR(ts::mm(ts::ones({3}), m), "self must be a matrix");
  EXPECT_ERROR(ts::mm(m, ts::ones({3})), "mat2 must be a matrix");
  EXPECT_ERROR(ts::mm(m, ts::ones({4, 5})),
               "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_ERROR(ts::mm(m, ts::ones({3, 2}, ts::kDouble)),
               "mm: expected self and mat2 to have the same dtype, but got: float32 != float64");
  EXPECT_ERROR(ts::mm(ts::ones({2, 2}, ts::kBool), ts::ones({2, 2}, ts::kBool)),
               "mm: not implemented for dtype bool (argument 'self')");
  EXPECT_ERROR(ts::mm(Tensor(), m), "mm: expected a defined tensor for argument 'self'");
}

TEST(Mm, OutWritesResizesAndChecks) {
  const Tensor a = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = make(ts::kFloat, {7, 8, 9, 10, 11, 12}, {3, 2});
  Tensor out = ts::empty({2, 2});
  Tensor& r = ts::mm_out(out, a, b);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{58, 64, 139, 154}));

  Tensor resized = ts::empty({0});
  ts::mm_out(resized, a, b);
  EXPECT_EQ(shape_of(resized), (std::vector<int64_t>{2, 2}));

  // ATen's mm out= must have the operands' dtype, even a wider one (1.13: "Expected out tensor
  // to have dtype float, but got double instead").
  Tensor wider = ts::full({2, 2}, 7.0, ts::kDouble);
  EXPECT_ERROR(ts::mm_out(wider, a, b),
               "mm: Expected out tensor to have dtype float32, but got float64 instead (argument "
               "'out')");
  EXPECT_EQ(values(wider), std::vector<double>(4, 7.0));  // untouched

  // A transposed out receives the values at its own strides.
  Tensor outt = ts::zeros({2, 2}).t();
  ts::mm_out(outt, a, b);
  EXPECT_EQ(values(outt), (std::vector<double>{58, 64, 139, 154}));

  Tensor wrong = ts::full({3, 3}, 7.0);
  EXPECT_ERROR(ts::mm_out(wrong, a, b), "output with shape [3, 3] doesn't match the result shape");
  EXPECT_EQ(values(wrong), std::vector<double>(9, 7.0));  // untouched
  Tensor ints = ts::full({2, 2}, 7, ts::kLong);
  EXPECT_ERROR(ts::mm_out(ints, a, b),
               "mm: Expected out tensor to have dtype float32, but got int64");
  EXPECT_EQ(values(ints), std::vector<double>(4, 7.0));
}

TEST(Mm, OutMayBeAnOperandItself) {
  // Full overlap is allowed: every product is computed before the first is stored.
  Tensor a = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  const Tensor b = make(ts::kFloat, {5, 6, 7, 8}, {2, 2});
  ts::mm_out(a, a, b);
  EXPECT_EQ(values(a), (std::vector<double>{19, 22, 43, 50}));
}

TEST(Mm, OutPartiallyOverlappingAnInputIsRejected) {
  Tensor buf = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {6});
  const Tensor a = buf.slice(0, 0, 4).view({2, 2});
  Tensor out = buf.slice(0, 2, 6).view({2, 2});
  EXPECT_ERROR(ts::mm_out(out, a, ts::ones({2, 2})), "refer to a single memory location");
  EXPECT_EQ(values(buf), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

// ---- bmm ----

TEST(Bmm, MultipliesEachBatch) {
  const Tensor a =
      make(ts::kFloat, {1, 2, 3, 4, 1, 0, 0, 1}, {2, 2, 2});  // [[1,2],[3,4]], identity
  const Tensor b = make(ts::kFloat, {5, 6, 7, 8, 1, 2, 3, 4}, {2, 2, 2});
  const Tensor c = ts::bmm(a, b);
  EXPECT_EQ(shape_of(c), (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(values(c), (std::vector<double>{19, 22, 43, 50, 1, 2, 3, 4}));
  EXPECT_EQ(values(a.bmm(b)), values(c));
}

TEST(Bmm, IntegerAndTransposedBatches) {
  const Tensor a = make(ts::kInt, {1, 2, 3, 4, 5, 6}, {1, 2, 3});
  const Tensor b = make(ts::kInt, {7, 9, 11, 8, 10, 12}, {1, 2, 3}).transpose(1, 2);  // 1x3x2
  const Tensor c = ts::bmm(a, b);
  EXPECT_EQ(c.dtype(), ts::kInt);
  EXPECT_EQ(values(c), (std::vector<double>{58, 64, 139, 154}));
}

TEST(Bmm, EmptyBatchAndInnerDims) {
  EXPECT_EQ(shape_of(ts::bmm(ts::empty({0, 2, 3}), ts::empty({0, 3, 4}))),
            (std::vector<int64_t>{0, 2, 4}));
  EXPECT_EQ(values(ts::bmm(ts::empty({2, 1, 0}), ts::empty({2, 0, 2}))),
            std::vector<double>(4, 0.0));
}

TEST(Bmm, ErrorsAndOut) {
  EXPECT_ERROR(ts::bmm(ts::ones({2, 2}), ts::ones({1, 2, 2})), "batch1 must be a 3D tensor");
  EXPECT_ERROR(ts::bmm(ts::ones({1, 2, 2}), ts::ones({2, 2})), "batch2 must be a 3D tensor");
  EXPECT_ERROR(ts::bmm(ts::ones({2, 2, 3}), ts::ones({3, 3, 4})),
               "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: "
               "[3, 3].");
  EXPECT_ERROR(ts::bmm(ts::ones({2, 2, 3}), ts::ones({2, 4, 4})),
               "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: "
               "[2, 4].");
  EXPECT_ERROR(ts::bmm(ts::ones({1, 2, 2}), ts::ones({1, 2, 2}, ts::kHalf)),
               "expected batch1 and batch2 to have the same dtype, but got: float32 != float16");
  Tensor out = ts::empty({0});
  ts::bmm_out(out, make(ts::kFloat, {1, 2, 3, 4}, {1, 2, 2}),
              make(ts::kFloat, {5, 6, 7, 8}, {1, 2, 2}));
  EXPECT_EQ(shape_of(out), (std::vector<int64_t>{1, 2, 2}));
  EXPECT_EQ(values(out), (std::vector<double>{19, 22, 43, 50}));
}

// ---- addmm ----

TEST(Addmm, BetaSelfPlusAlphaProduct) {
  const Tensor self = make(ts::kFloat, {1, 1, 1, 1}, {2, 2});
  const Tensor m1 = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  const Tensor m2 = make(ts::kFloat, {5, 6, 7, 8}, {2, 2});
  EXPECT_EQ(values(ts::addmm(self, m1, m2)), (std::vector<double>{20, 23, 44, 51}));
  // 0.5 * 1 + 2 * [[19, 22], [43, 50]]
  EXPECT_EQ(values(ts::addmm(self, m1, m2, 0.5, 2)),
            (std::vector<double>{38.5, 44.5, 86.5, 100.5}));
  EXPECT_EQ(values(self.addmm(m1, m2, 0.5, 2)), (std::vector<double>{38.5, 44.5, 86.5, 100.5}));
}

TEST(Addmm, SelfBroadcastsToTheResult) {
  const Tensor m1 = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  const Tensor m2 = make(ts::kFloat, {5, 6, 7, 8}, {2, 2});
  EXPECT_EQ(values(ts::addmm(make(ts::kFloat, {10, 100}, {2}), m1, m2)),
            (std::vector<double>{29, 122, 53, 150}));
  EXPECT_EQ(values(ts::addmm(make(ts::kFloat, {10, 100}, {2, 1}), m1, m2)),
            (std::vector<double>{29, 32, 143, 150}));
  EXPECT_EQ(values(ts::addmm(ts::scalar_tensor(1.0), m1, m2)),
            (std::vector<double>{20, 23, 44, 51}));
  EXPECT_ERROR(ts::addmm(ts::ones({3}), m1, m2),
               "addmm: self of shape [3] can't be broadcast to the result shape [2, 2]");
  EXPECT_ERROR(ts::addmm(ts::ones({1, 2, 2}), m1, m2), "can't be broadcast");
}

TEST(Addmm, BetaZeroIgnoresSelfEvenNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor self = make(ts::kFloat, {nan, nan, nan, nan}, {2, 2});
  const Tensor m1 = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  const Tensor m2 = make(ts::kFloat, {5, 6, 7, 8}, {2, 2});
  EXPECT_EQ(values(ts::addmm(self, m1, m2, 0)), (std::vector<double>{19, 22, 43, 50}));
  // With a nonzero beta the NaN does spread.
  for (double v : values(ts::addmm(self, m1, m2, 1))) EXPECT_TRUE(std::isnan(v));
}

TEST(Addmm, EmptyInnerDimensionLeavesBetaSelf) {
  const Tensor r =
      ts::addmm(make(ts::kFloat, {1, 2, 3, 4}, {2, 2}), ts::empty({2, 0}), ts::empty({0, 2}), 3);
  EXPECT_EQ(values(r), (std::vector<double>{3, 6, 9, 12}));
}

TEST(Addmm, IntegersAndFloat16) {
  const Tensor r = ts::addmm(make(ts::kLong, {1, 2}, {2}), make(ts::kLong, {1, 2, 3, 4}, {2, 2}),
                             make(ts::kLong, {5, 6, 7, 8}, {2, 2}), 2, 3);
  EXPECT_EQ(r.dtype(), ts::kLong);
  EXPECT_EQ(values(r), (std::vector<double>{59, 70, 131, 154}));
  const Tensor h = ts::addmm(make(ts::kHalf, {0.5}, {1}), make(ts::kHalf, {1, 2}, {1, 2}),
                             make(ts::kHalf, {0.25, 0.125}, {2, 1}));
  EXPECT_EQ(h.dtype(), ts::kHalf);
  EXPECT_EQ(h.item<double>(), 1.0);
}

TEST(Addmm, InPlaceWritesSelf) {
  Tensor self = make(ts::kFloat, {1, 1, 1, 1}, {2, 2});
  Tensor& r =
      self.addmm_(make(ts::kFloat, {1, 2, 3, 4}, {2, 2}), make(ts::kFloat, {5, 6, 7, 8}, {2, 2}));
  EXPECT_TRUE(r.is_same(self));
  EXPECT_EQ(values(self), (std::vector<double>{20, 23, 44, 51}));
  // self may also be one of the matrices.
  Tensor m = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  m.addmm_(m, make(ts::kFloat, {1, 0, 0, 1}, {2, 2}), 1, 1);
  EXPECT_EQ(values(m), (std::vector<double>{2, 4, 6, 8}));
}

TEST(Addmm, InPlaceNeedsTheFullShape) {
  Tensor self = make(ts::kFloat, {1, 2}, {2});
  EXPECT_ERROR(self.addmm_(ts::ones({2, 2}), ts::ones({2, 2})),
               "addmm_: Bad in-place call: input tensor size [2] and output tensor size [2, 2] "
               "should match");
  EXPECT_EQ(values(self), (std::vector<double>{1, 2}));
}

TEST(Addmm, ErrorsAndOut) {
  const Tensor s = ts::ones({2, 2});
  EXPECT_ERROR(ts::addmm(s, ts::ones({2}), s), "mat1 must be a matrix, got 1-D tensor");
  EXPECT_ERROR(ts::addmm(s, s, ts::ones({2, 2, 2})), "mat2 must be a matrix, got 3-D tensor");
  EXPECT_ERROR(ts::addmm(s, ts::ones({2, 3}), ts::ones({2, 2})),
               "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)");
  EXPECT_ERROR(ts::addmm(s, s, ts::ones({2, 2}, ts::kDouble)),
               "addmm: expected mat1 and mat2 to have the same dtype, but got: float32 != float64");
  EXPECT_ERROR(ts::addmm(ts::ones({2, 2}, ts::kLong), s, s),
               "addmm: expected mat2 and self to have the same dtype, but got: float32 != int64");
  const Tensor i8 = ts::ones({2, 2}, ts::kChar);
  EXPECT_ERROR(ts::addmm(i8, i8, i8, 1000), "value cannot be converted to type int8");

  Tensor out = ts::empty({0});
  ts::addmm_out(out, s, make(ts::kFloat, {1, 2, 3, 4}, {2, 2}),
                make(ts::kFloat, {5, 6, 7, 8}, {2, 2}), 1, 1);
  EXPECT_EQ(values(out), (std::vector<double>{20, 23, 44, 51}));
  Tensor bad = ts::zeros({2, 3});
  EXPECT_ERROR(ts::addmm_out(bad, s, s, s), "doesn't match the result shape [2, 2]");
}

// ---- dot, mv, outer ----

TEST(Dot, DocumentationExample) {
  // torch.dot(torch.tensor([2, 3]), torch.tensor([2, 1])) -> tensor(7)
  const Tensor r = ts::dot(ts::tensor({2, 3}), ts::tensor({2, 1}));
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(r.dtype(), ts::kLong);
  EXPECT_EQ(r.item<int64_t>(), 7);
  EXPECT_EQ(ts::tensor({2.0, 3.0}).dot(ts::tensor({2.0, 1.0})).item<double>(), 7);
}

TEST(Dot, StridedEmptyAndHalf) {
  const Tensor x = make(ts::kFloat, {1, 9, 2, 9, 3, 9}, {6}).slice(0, 0, 6, 2);  // [1, 2, 3]
  EXPECT_EQ(ts::dot(x, make(ts::kFloat, {4, 5, 6}, {3})).item<double>(), 32);
  EXPECT_EQ(ts::dot(ts::empty({0}), ts::empty({0})).item<double>(), 0);
  EXPECT_EQ(
      ts::dot(make(ts::kHalf, {2048, 1, 1}, {3}), make(ts::kHalf, {1, 1, 1}, {3})).item<double>(),
      2050);
}

TEST(Dot, ErrorsAndOut) {
  EXPECT_ERROR(ts::dot(ts::ones({2, 3}), ts::ones({3})),
               "dot: 1D tensors expected, but got a 2D self and a 1D tensor");
  EXPECT_ERROR(ts::dot(ts::ones({3}), ts::ones({4})),
               "inconsistent tensor size, expected tensor [3] and src [4] to have the same number "
               "of elements, but got 3 and 4 elements respectively");
  EXPECT_ERROR(ts::dot(ts::ones({3}), ts::ones({3}, ts::kInt)),
               "dot: expected self and tensor to have the same dtype, but found float32 and int32");
  EXPECT_ERROR(ts::dot(ts::ones({3}, ts::kBool), ts::ones({3}, ts::kBool)),
               "dot: not implemented for dtype bool");
  Tensor out = ts::empty({});
  ts::dot_out(out, make(ts::kFloat, {1, 2}, {2}), make(ts::kFloat, {3, 4}, {2}));
  EXPECT_EQ(out.item<double>(), 11);
  Tensor bad = ts::zeros({2});
  EXPECT_ERROR(ts::dot_out(bad, make(ts::kFloat, {1, 2}, {2}), make(ts::kFloat, {3, 4}, {2})),
               "output with shape [2] doesn't match the result shape []");
}

TEST(Mv, HandComputedAndTransposed) {
  const Tensor m = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(values(ts::mv(m, make(ts::kFloat, {1, 1}, {2}))), (std::vector<double>{3, 7}));
  EXPECT_EQ(values(m.t().mv(make(ts::kFloat, {1, 10}, {2}))), (std::vector<double>{31, 42}));
  EXPECT_EQ(values(ts::mv(ts::empty({2, 0}), ts::empty({0}))), (std::vector<double>{0, 0}));
  EXPECT_EQ(values(ts::mv(make(ts::kShort, {1, 2, 3, 4}, {2, 2}), make(ts::kShort, {1, 1}, {2}))),
            (std::vector<double>{3, 7}));
}

TEST(Mv, ErrorsAndOut) {
  EXPECT_ERROR(ts::mv(ts::ones({2}), ts::ones({2})),
               "mv: matrix @ vector expected, but got a 1-D self and a 1-D vec");
  EXPECT_ERROR(ts::mv(ts::ones({2, 3}), ts::ones({4})),
               "mv: size mismatch, got mat (2x3), vec (4)");
  EXPECT_ERROR(ts::mv(ts::ones({2, 3}), ts::ones({3}, ts::kDouble)),
               "mv: expected self and vec to have the same dtype, but got: float32 != float64");
  Tensor out = ts::empty({0});
  ts::mv_out(out, make(ts::kFloat, {1, 2, 3, 4}, {2, 2}), make(ts::kFloat, {1, 1}, {2}));
  EXPECT_EQ(values(out), (std::vector<double>{3, 7}));
}

TEST(Outer, HandComputedWithPromotion) {
  const Tensor r = ts::outer(ts::tensor({1, 2, 3}), make(ts::kFloat, {1, 0.5}, {2}));
  EXPECT_EQ(r.dtype(), ts::kFloat);  // int64 x float32 -> float32
  EXPECT_EQ(shape_of(r), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values(r), (std::vector<double>{1, 0.5, 2, 1, 3, 1.5}));
  const Tensor i = ts::tensor({1, 2}, ts::kInt).outer(ts::tensor({3, 4}, ts::kChar));
  EXPECT_EQ(i.dtype(), ts::kInt);
  EXPECT_EQ(values(i), (std::vector<double>{3, 4, 6, 8}));
}

TEST(Outer, BoolAndStrided) {
  const Tensor b = ts::outer(ts::tensor({true, false}), ts::tensor({true, true}));
  EXPECT_EQ(b.dtype(), ts::kBool);
  EXPECT_EQ(values(b), (std::vector<double>{1, 1, 0, 0}));
  const Tensor x = make(ts::kFloat, {1, 0, 2, 0}, {4}).slice(0, 0, 4, 2);  // [1, 2]
  EXPECT_EQ(values(ts::outer(x, x)), (std::vector<double>{1, 2, 2, 4}));
  EXPECT_EQ(shape_of(ts::outer(ts::empty({0}), ts::ones({3}))), (std::vector<int64_t>{0, 3}));
}

TEST(Outer, ErrorsAndOut) {
  EXPECT_ERROR(ts::outer(ts::ones({2, 2}), ts::ones({2})),
               "outer: Expected 1-D argument self, but got 2-D");
  EXPECT_ERROR(ts::outer(ts::ones({2}), ts::scalar_tensor(1.0)),
               "outer: Expected 1-D argument vec2, but got 0-D");
  Tensor out = ts::empty({2, 2}, ts::kDouble);
  ts::outer_out(out, make(ts::kFloat, {1, 2}, {2}), make(ts::kFloat, {3, 4}, {2}));
  EXPECT_EQ(values(out), (std::vector<double>{3, 4, 6, 8}));
  Tensor ints = ts::empty({2, 2}, ts::kInt);
  EXPECT_ERROR(ts::outer_out(ints, make(ts::kFloat, {1, 2}, {2}), make(ts::kFloat, {3, 4}, {2})),
               "result type float32 can't be cast to the desired output type int32");
}

// ---- matmul ----

// matmul of iota operands, checked against naive_mm over the broadcast batch.
struct MatmulCase {
  std::vector<int64_t> a, b, result;
};

TEST(Matmul, ShapeRulesForEveryRankCombination) {
  const MatmulCase cases[] = {
      {{3}, {3}, {}},                           // dot
      {{2, 3}, {3}, {2}},                       // mv
      {{3}, {3, 4}, {4}},                       // 1-D @ 2-D: prepend, multiply, remove
      {{2, 3}, {3, 4}, {2, 4}},                 // mm
      {{5, 2, 3}, {3}, {5, 2}},                 // batched @ vector
      {{5, 2, 3}, {3, 4}, {5, 2, 4}},           // batched @ matrix
      {{3}, {5, 3, 4}, {5, 4}},                 // vector @ batched
      {{2, 3}, {5, 3, 4}, {5, 2, 4}},           // matrix @ batched
      {{5, 2, 3}, {5, 3, 4}, {5, 2, 4}},        // bmm
      {{6, 1, 2, 3}, {5, 3, 4}, {6, 5, 2, 4}},  // (j, 1, n, m) @ (k, m, p) -> (j, k, n, p)
      {{1, 5, 2, 3}, {6, 1, 3, 4}, {6, 5, 2, 4}},
      {{2, 1, 1, 3}, {3}, {2, 1, 1}},
  };
  for (const MatmulCase& c : cases) {
    const Tensor a = iota(c.a, ts::kFloat), b = iota(c.b, ts::kFloat);
    const Tensor r = ts::matmul(a, b);
    EXPECT_EQ(shape_of(r), c.result) << "a " << IntArrayRef(c.a) << " b " << IntArrayRef(c.b);
    EXPECT_EQ(shape_of(a.matmul(b)), c.result);

    // Expected values: treat 1-D operands as a row / column, then index batches with broadcast.
    const int64_t n = c.a.size() > 1 ? c.a[c.a.size() - 2] : 1, m = c.a.back();
    const int64_t p = c.b.size() > 1 ? c.b.back() : 1;
    const std::vector<int64_t> ba(c.a.begin(), c.a.end() - std::min<size_t>(c.a.size(), 2));
    const std::vector<int64_t> bb(c.b.begin(), c.b.end() - std::min<size_t>(c.b.size(), 2));
    const size_t nb = std::max(ba.size(), bb.size());
    std::vector<int64_t> batch(nb, 1);
    for (size_t i = 0; i < nb; ++i) {
      const int64_t sa = i + ba.size() >= nb ? ba[i + ba.size() - nb] : 1;
      const int64_t sb = i + bb.size() >= nb ? bb[i + bb.size() - nb] : 1;
      batch[i] = std::max(sa, sb);
    }
    int64_t count = 1;
    for (int64_t s : batch) count *= s;
    std::vector<double> expected;
    for (int64_t flat = 0; flat < count; ++flat) {
      // Offsets (in matrices) of this batch element in a and b, with size-1 dims broadcast.
      int64_t rem = flat, oa = 0, ob = 0, sa_stride = 1, sb_stride = 1;
      for (int64_t i = static_cast<int64_t>(nb) - 1; i >= 0; --i) {
        const int64_t idx = rem % batch[i];
        rem /= batch[i];
        const int64_t ia = i - static_cast<int64_t>(nb - ba.size());
        const int64_t ib = i - static_cast<int64_t>(nb - bb.size());
        if (ia >= 0) {
          oa += (ba[ia] == 1 ? 0 : idx) * sa_stride;
          sa_stride *= ba[ia];
        }
        if (ib >= 0) {
          ob += (bb[ib] == 1 ? 0 : idx) * sb_stride;
          sb_stride *= bb[ib];
        }
      }
      std::vector<double> ma(n * m), mb(m * p);
      for (int64_t i = 0; i < n * m; ++i) ma[i] = static_cast<double>(oa * n * m + i);
      for (int64_t i = 0; i < m * p; ++i) mb[i] = static_cast<double>(ob * m * p + i);
      for (double v : naive_mm(ma, mb, n, m, p)) expected.push_back(v);
    }
    EXPECT_EQ(values(r), expected) << "a " << IntArrayRef(c.a) << " b " << IntArrayRef(c.b);
  }
}

TEST(Matmul, HandComputedVectorCases) {
  const Tensor v = make(ts::kFloat, {1, 2}, {2});
  const Tensor m = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(ts::matmul(v, v).item<double>(), 5);
  EXPECT_EQ(values(ts::matmul(m, v)), (std::vector<double>{5, 11}));
  EXPECT_EQ(values(ts::matmul(v, m)), (std::vector<double>{7, 10}));
}

TEST(Matmul, NonContiguousAndEmpty) {
  const Tensor a = iota({3, 2}, ts::kFloat).t();                 // [[0, 2, 4], [1, 3, 5]]
  const Tensor b = iota({2, 2, 3}, ts::kFloat).transpose(1, 2);  // 2 x 3 x 2
  const Tensor r = ts::matmul(a, b);
  EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 2, 2}));
  // b[0] = [[0, 3], [1, 4], [2, 5]], b[1] = [[6, 9], [7, 10], [8, 11]]
  EXPECT_EQ(values(r), (std::vector<double>{10, 28, 13, 40, 46, 64, 67, 94}));
  EXPECT_EQ(values(ts::matmul(ts::empty({2, 3, 0}), ts::empty({0, 2}))),
            std::vector<double>(12, 0.0));
  EXPECT_EQ(shape_of(ts::matmul(ts::empty({0, 2, 3}), ts::empty({4, 1, 3, 2}))),
            (std::vector<int64_t>{4, 0, 2, 2}));
}

// matmul checks its own arguments, so the messages name self and other rather than the
// arguments of the op it runs (mm's mat1/mat2, dot's tensor).
TEST(Matmul, Errors) {
  EXPECT_ERROR(ts::matmul(ts::scalar_tensor(1.0), ts::ones({2, 2})),
               "matmul: both arguments to matmul need to be at least 1D, but they are 0D (self) "
               "and 2D (other)");
  EXPECT_ERROR(ts::matmul(ts::ones({2, 2, 3}), ts::ones({3, 3, 4})),
               "matmul: The size of tensor a (2) must match the size of tensor b (3) at "
               "non-singleton dimension 0 (the batch dims of self [2] and other [3])");
  EXPECT_ERROR(ts::matmul(ts::ones({2, 3}), ts::ones({4, 5})),
               "matmul: self and other shapes cannot be multiplied ([2, 3] and [4, 5])");
  EXPECT_ERROR(ts::matmul(ts::ones({2, 2, 3}), ts::ones({4, 5})),
               "matmul: self and other shapes cannot be multiplied ([2, 2, 3] and [4, 5])");
  EXPECT_ERROR(ts::matmul(ts::ones({3}), ts::ones({4})),
               "matmul: self and other shapes cannot be multiplied ([3] and [4])");
  EXPECT_ERROR(ts::matmul(ts::ones({2, 3}), ts::ones({3}, ts::kDouble)),
               "matmul: expected self and other to have the same dtype, but got: float32 != "
               "float64");
}

}  // namespace
