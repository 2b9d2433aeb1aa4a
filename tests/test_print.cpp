// Printing: the expected strings are PyTorch's repr for the same values (default print
// options), with touchstone's "dtype=..., shape=[...]" suffixes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using ts::testing::iota;
using Shape = std::vector<int64_t>;

// A tensor of `shape` and dtype T holding `v` in row-major order (factories land later).
template <typename T>
ts::Tensor make(const Shape& shape, const std::vector<T>& v) {
  ts::Tensor t = ts::empty(shape, ts::scalar_type_of<T>);
  EXPECT_EQ(t.numel(), static_cast<int64_t>(v.size()));
  T* p = t.data_ptr<T>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = v[i];
  return t;
}

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(Print, TwoByTwoFloatMatchesPyTorchLayout) {
  EXPECT_EQ(ts::to_string(make<float>({2, 2}, {1, 2, 3, 4})),
            "tensor([[1., 2.],\n        [3., 4.]], dtype=float32, shape=[2, 2])");
}

TEST(Print, StreamOperatorEqualsToString) {
  ts::Tensor t = make<float>({2}, {1.5f, -2.25f});
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), ts::to_string(t));
  EXPECT_EQ(os.str(), "tensor([ 1.5000, -2.2500], dtype=float32, shape=[2])");
}

TEST(Print, UndefinedTensor) {
  EXPECT_EQ(ts::to_string(ts::Tensor()), "[ Tensor (undefined) ]");
}

TEST(Print, IntegerValuedFloatsUseIntegerMode) {
  EXPECT_EQ(ts::to_string(make<float>({2}, {-1, 10})),
            "tensor([-1., 10.], dtype=float32, shape=[2])");
  EXPECT_EQ(ts::to_string(make<float>({2}, {-0.0f, 1})),
            "tensor([-0., 1.], dtype=float32, shape=[2])");
  EXPECT_EQ(ts::to_string(make<float>({2}, {0, 0})), "tensor([0., 0.], dtype=float32, shape=[2])");
  EXPECT_EQ(ts::to_string(make<float>({}, {3})), "tensor(3., dtype=float32, shape=[])");
}

TEST(Print, FixedFourDecimals) {
  EXPECT_EQ(ts::to_string(make<double>({3}, {0.1, 0.25, 1.0 / 3})),
            "tensor([0.1000, 0.2500, 0.3333], dtype=float64, shape=[3])");
  EXPECT_EQ(ts::to_string(make<float>({}, {2.71828f})), "tensor(2.7183, dtype=float32, shape=[])");
  EXPECT_EQ(ts::to_string(make<float>({2}, {-12.5f, 3.0f})),
            "tensor([-12.5000,   3.0000], dtype=float32, shape=[2])");
}

TEST(Print, ScientificForWideOrTinyOrHugeValues) {
  EXPECT_EQ(ts::to_string(make<float>({2}, {1e-5f, 1.0f})),
            "tensor([1.0000e-05, 1.0000e+00], dtype=float32, shape=[2])");
  EXPECT_EQ(ts::to_string(make<float>({2}, {1.0f, 1e9f})),
            "tensor([1.0000e+00, 1.0000e+09], dtype=float32, shape=[2])");
  EXPECT_EQ(ts::to_string(make<double>({}, {1e10})), "tensor(1.0000e+10, dtype=float64, shape=[])");
  EXPECT_EQ(ts::to_string(make<float>({2}, {0.5f, 600.0f})),
            "tensor([5.0000e-01, 6.0000e+02], dtype=float32, shape=[2])");  // ratio 1200 > 1000
  EXPECT_EQ(ts::to_string(make<float>({2}, {0.5f, 500.0f})),
            "tensor([  0.5000, 500.0000], dtype=float32, shape=[2])");  // ratio exactly 1000
  EXPECT_EQ(ts::to_string(make<float>({2}, {-2e-5f, 0.0f})),
            "tensor([-2.0000e-05,  0.0000e+00], dtype=float32, shape=[2])");
}

TEST(Print, NanAndInf) {
  EXPECT_EQ(ts::to_string(make<float>({4}, {1, kNan, kInf, -kInf})),
            "tensor([1., nan, inf, -inf], dtype=float32, shape=[4])");
  EXPECT_EQ(ts::to_string(make<float>({2}, {1.5f, -kNan})),
            "tensor([1.5000,    nan], dtype=float32, shape=[2])");
  EXPECT_EQ(ts::to_string(make<float>({1}, {kNan})), "tensor([nan], dtype=float32, shape=[1])");
  EXPECT_EQ(ts::to_string(make<double>({2}, {-INFINITY, 1e-5})),
            "tensor([      -inf, 1.0000e-05], dtype=float64, shape=[2])");
}

TEST(Print, IntegersAndBools) {
  EXPECT_EQ(ts::to_string(make<int32_t>({3}, {1, -20, 300})),
            "tensor([  1, -20, 300], dtype=int32, shape=[3])");
  EXPECT_EQ(
      ts::to_string(make<int64_t>({2}, {std::numeric_limits<int64_t>::min(), 0})),
      "tensor([-9223372036854775808, " + std::string(19, ' ') + "0], dtype=int64, shape=[2])");
  EXPECT_EQ(ts::to_string(make<uint8_t>({2}, {255, 7})),
            "tensor([255,   7], dtype=uint8, shape=[2])");
  EXPECT_EQ(ts::to_string(make<int8_t>({1}, {-128})), "tensor([-128], dtype=int8, shape=[1])");
  EXPECT_EQ(ts::to_string(make<int16_t>({}, {7})), "tensor(7, dtype=int16, shape=[])");
  EXPECT_EQ(ts::to_string(make<bool>({2}, {true, false})),
            "tensor([ True, False], dtype=bool, shape=[2])");
  EXPECT_EQ(ts::to_string(make<bool>({2}, {true, true})),
            "tensor([True, True], dtype=bool, shape=[2])");
  EXPECT_EQ(ts::to_string(make<bool>({}, {true})), "tensor(True, dtype=bool, shape=[])");
}

TEST(Print, ReducedFloats) {
  EXPECT_EQ(ts::to_string(make<ts::Half>({2}, {ts::Half(0.5f), ts::Half(2.0f)})),
            "tensor([0.5000, 2.0000], dtype=float16, shape=[2])");
  EXPECT_EQ(ts::to_string(make<ts::BFloat16>({2}, {ts::BFloat16(1.0f), ts::BFloat16(3.0f)})),
            "tensor([1., 3.], dtype=bfloat16, shape=[2])");
  // 0.1 rounds to 0.0999755859375 in float16.
  EXPECT_EQ(ts::to_string(make<ts::Half>({1}, {ts::Half(0.1f)})),
            "tensor([0.1000], dtype=float16, shape=[1])");
}

TEST(Print, EmptyTensors) {
  EXPECT_EQ(ts::to_string(ts::empty({0}, ts::kFloat)), "tensor([], dtype=float32, shape=[0])");
  EXPECT_EQ(ts::to_string(ts::empty({2, 0}, ts::kInt)), "tensor([], dtype=int32, shape=[2, 0])");
}

TEST(Print, ThreeDimsSeparateBlocksWithBlankLines) {
  EXPECT_EQ(ts::to_string(iota({2, 2, 2})),
            "tensor([[[0, 1],\n"
            "         [2, 3]],\n"
            "\n"
            "        [[4, 5],\n"
            "         [6, 7]]], dtype=int32, shape=[2, 2, 2])");
}

TEST(Print, ReadsViewsThroughStrides) {
  ts::Tensor x = iota({2, 3});
  EXPECT_EQ(ts::to_string(x.t()),
            "tensor([[0, 3],\n        [1, 4],\n        [2, 5]], dtype=int32, shape=[3, 2])");
  EXPECT_EQ(ts::to_string(x.select(1, 2)), "tensor([2, 5], dtype=int32, shape=[2])");
  EXPECT_EQ(ts::to_string(x[1][1]), "tensor(4, dtype=int32, shape=[])");
  EXPECT_EQ(ts::to_string(iota({10}).slice(0, 1, 10, 4)),
            "tensor([1, 5, 9], dtype=int32, shape=[3])");
  EXPECT_EQ(ts::to_string(iota({3}).expand({2, 3})),
            "tensor([[0, 1, 2],\n        [0, 1, 2]], dtype=int32, shape=[2, 3])");
}

TEST(Print, LongRowsWrapAtEightyColumns) {
  std::vector<float> v(20);
  for (int i = 0; i < 20; ++i) v[i] = static_cast<float>(i);
  EXPECT_EQ(ts::to_string(make<float>({20}, v)),
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
            "        14., 15., 16., 17., 18., 19.], dtype=float32, shape=[20])");
}

TEST(Print, LargeTensorsAreSummarized) {
  // 1000 elements print in full; 1001 are summarized with 3 edge items.
  EXPECT_EQ(ts::to_string(iota({1000})).find("..."), std::string::npos);
  EXPECT_EQ(ts::to_string(iota({1001})),
            "tensor([   0,    1,    2,  ...,  998,  999, 1000], dtype=int32, shape=[1001])");
  EXPECT_EQ(ts::to_string(iota({1000, 2})),
            "tensor([[   0,    1],\n"
            "        [   2,    3],\n"
            "        [   4,    5],\n"
            "        ...,\n"
            "        [1994, 1995],\n"
            "        [1996, 1997],\n"
            "        [1998, 1999]], dtype=int32, shape=[1000, 2])");
  // The suffixes move to a new line when the last line would pass 80 columns.
  EXPECT_EQ(ts::to_string(iota({100, 100})),
            "tensor([[   0,    1,    2,  ...,   97,   98,   99],\n"
            "        [ 100,  101,  102,  ...,  197,  198,  199],\n"
            "        [ 200,  201,  202,  ...,  297,  298,  299],\n"
            "        ...,\n"
            "        [9700, 9701, 9702,  ..., 9797, 9798, 9799],\n"
            "        [9800, 9801, 9802,  ..., 9897, 9898, 9899],\n"
            "        [9900, 9901, 9902,  ..., 9997, 9998, 9999]], dtype=int32,\n"
            "       shape=[100, 100])");
  std::vector<float> v(1001);
  for (int i = 0; i < 1001; ++i) v[i] = 0.5f * static_cast<float>(i);
  EXPECT_EQ(ts::to_string(make<float>({1001}, v)),
            "tensor([  0.0000,   0.5000,   1.0000,  ..., 499.0000, 499.5000, 500.0000],\n"
            "       dtype=float32, shape=[1001])");
}

TEST(Print, FormatterSeesOnlyPrintedElements) {
  // The hidden middle value 1e9 does not switch the summarized tensor to scientific mode.
  std::vector<float> v(1001, 1.0f);
  v[500] = 1e9f;
  EXPECT_EQ(ts::to_string(make<float>({1001}, v)),
            "tensor([1., 1., 1.,  ..., 1., 1., 1.], dtype=float32, shape=[1001])");
}

}  // namespace
