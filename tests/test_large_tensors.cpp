// Tensors of more than 2^31 elements: every index, offset and count on the optimized CPU paths
// is 64-bit. N = 2^31 + 7 elements of uint8 (2 GiB a tensor, at most two alive at a time).
// Not built under the sanitizers; the reference set (double loops over every element, minutes
// at this size) is left out: see the closing note of issue 12.
#include <gtest/gtest.h>

#include "touchstone/touchstone.h"

namespace {

using ts::Tensor;
constexpr int64_t kN = (int64_t{1} << 31) + 7;  // = 5 * 429496731
constexpr int64_t kCols = kN / 5;
constexpr int64_t kPeak = (int64_t{1} << 31) + 3;  // an index past INT32_MAX

int64_t at(const Tensor& t, int64_t i) {
  return t[i].item().to_long();
}

class LargeTensors : public ::testing::Test {
 protected:
  ts::KernelSetGuard guard_{"optimized"};
};

TEST_F(LargeTensors, ReductionsElementwiseAndCopiesIndexPast2To31) {
  Tensor a = ts::ones({kN}, ts::kByte);
  a[kPeak].fill_(9);
  a[0].fill_(3);
  // uint8 sums to int64: (N - 2) ones, a 9 and a 3.
  EXPECT_EQ(ts::sum(a).item().to_long(), kN - 2 + 9 + 3);
  EXPECT_EQ(ts::argmax(a).item().to_long(), kPeak);
  EXPECT_EQ(ts::amax(a).item().to_long(), 9);
  // Along a dim: the rows of [5, N / 5] hold N / 5 elements each; the peak is in row 4.
  Tensor rows = ts::sum(a.view({5, kCols}), {1});
  EXPECT_EQ(at(rows, 0), kCols - 1 + 3);
  EXPECT_EQ(at(rows, 4), kCols - 1 + 9);

  // In place, self as both inputs: x + 2 * x, so 1 -> 3, 9 -> 27, 3 -> 9.
  a.add_(a, /*alpha=*/2);
  EXPECT_EQ(at(a, kPeak), 27);
  EXPECT_EQ(at(a, kN - 1), 3);
  EXPECT_EQ(ts::sum(a).item().to_long(), 3 * (kN - 2) + 27 + 9);

  // A transposed copy: input strides (1, 5) over a [N / 5, 5] view, output contiguous.
  // a[kPeak] is row kPeak / 5, column kPeak % 5 of the view.
  Tensor t = a.view({kCols, 5}).t().contiguous();
  ASSERT_EQ(t.sizes(), ts::IntArrayRef({5, kCols}));
  EXPECT_EQ(t[kPeak % 5][kPeak / 5].item().to_long(), 27);
  EXPECT_EQ(t[4][kCols - 1].item().to_long(), 3);
  EXPECT_EQ(t[0][0].item().to_long(), 9);
}

TEST_F(LargeTensors, AnExpandedInputOfMoreThan2To31Elements) {
  // One real element seen N times: a stride-0 input to a casting reduction and a binary kernel.
  Tensor x = ts::full({1}, 0.5, ts::kFloat).expand({kN});
  EXPECT_EQ(ts::sum(x, ts::kDouble).item().to_double(), 0.5 * static_cast<double>(kN));
  Tensor x8 = ts::full({1}, 3, ts::kByte).expand({kN});
  Tensor y = ts::mul(x8.view({5, kCols}), ts::arange(5, ts::kByte).view({5, 1}));
  ASSERT_EQ(y.numel(), kN);
  EXPECT_EQ(y[4][kCols - 1].item().to_long(), 12);
  EXPECT_EQ(y[1][kCols - 1].item().to_long(), 3);
  EXPECT_EQ(ts::sum(y).item().to_long(), 3 * (0 + 1 + 2 + 3 + 4) * kCols);
}

}  // namespace
