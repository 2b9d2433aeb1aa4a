// View ops: geometry (sizes, strides, storage offset) checked against hand-computed values,
// storage sharing in both directions, view-or-copy for reshape, and every error message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using ts::testing::iota;
using Shape = std::vector<int64_t>;

// The elements of an int32 tensor in row-major order of its own shape, read through strides.
std::vector<int32_t> values(const ts::Tensor& t) {
  std::vector<int32_t> out;
  const int32_t* base = t.data_ptr<int32_t>();
  std::function<void(int64_t, int64_t)> rec = [&](int64_t d, int64_t off) {
    if (d == t.dim()) {
      out.push_back(base[off]);
      return;
    }
    for (int64_t i = 0; i < t.sizes()[d]; ++i) rec(d + 1, off + i * t.strides()[d]);
  };
  if (t.numel() > 0) rec(0, 0);
  return out;
}

Shape vec(ts::IntArrayRef a) {
  return a.vec();
}

bool shares_storage(const ts::Tensor& a, const ts::Tensor& b) {
  return a.storage().get() == b.storage().get();
}

#define EXPECT_GEOMETRY(t, sz, st, off)      \
  do {                                       \
    EXPECT_EQ(vec((t).sizes()), Shape sz);   \
    EXPECT_EQ(vec((t).strides()), Shape st); \
    EXPECT_EQ((t).storage_offset(), off);    \
  } while (0)

// ---- the 2x2 int32 example ----

TEST(Views, TwoByTwoInt32ElementRowAndColumnShareStorage) {
  ts::Tensor a = ts::empty({2, 2}, ts::kInt);
  int32_t* p = a.data_ptr<int32_t>();
  p[0] = 1, p[1] = 2, p[2] = 3, p[3] = 4;
  EXPECT_GEOMETRY(a, ({2, 2}), ({2, 1}), 0);

  ts::Tensor e01 = a[0][1];  // element [0, 1]: a 0-dim view at offset 1
  EXPECT_EQ(e01.dim(), 0);
  EXPECT_EQ(e01.storage_offset(), 1);
  EXPECT_EQ(e01.item<int32_t>(), 2);

  ts::Tensor row1 = a[1];
  EXPECT_GEOMETRY(row1, ({2}), ({1}), 2);
  EXPECT_EQ(values(row1), (std::vector<int32_t>{3, 4}));
  EXPECT_TRUE(row1.is_contiguous());

  ts::Tensor col0 = a.select(1, 0);
  EXPECT_GEOMETRY(col0, ({2}), ({2}), 0);
  EXPECT_EQ(values(col0), (std::vector<int32_t>{1, 3}));
  EXPECT_FALSE(col0.is_contiguous());

  EXPECT_TRUE(shares_storage(a, e01));
  EXPECT_TRUE(shares_storage(a, row1));
  EXPECT_TRUE(shares_storage(a, col0));

  // Writes through a view show in the base...
  row1.data_ptr<int32_t>()[0] = 30;
  EXPECT_EQ(p[2], 30);
  col0.data_ptr<int32_t>()[col0.stride(0)] = 31;  // col0[1] is a[1][0]
  EXPECT_EQ(p[2], 31);
  // ...and writes to the base show in every view.
  p[1] = 20;
  EXPECT_EQ(e01.item<int32_t>(), 20);
  p[3] = 40;
  EXPECT_EQ(values(row1), (std::vector<int32_t>{31, 40}));
  EXPECT_EQ(values(a.t()), (std::vector<int32_t>{1, 31, 20, 40}));
}

// ---- view / reshape ----

TEST(Views, ViewInfersMinusOneAndKeepsStorage) {
  ts::Tensor x = iota({24});
  ts::Tensor v = x.view({2, 3, 4});
  EXPECT_GEOMETRY(v, ({2, 3, 4}), ({12, 4, 1}), 0);
  EXPECT_TRUE(shares_storage(x, v));
  EXPECT_GEOMETRY(v.view({-1, 4}), ({6, 4}), ({4, 1}), 0);
  EXPECT_GEOMETRY(v.view({4, -1}), ({4, 6}), ({6, 1}), 0);
  EXPECT_GEOMETRY(x.slice(0, 4).view({5, -1}), ({5, 4}), ({4, 1}), 4);
}

TEST(Views, ViewOverNonContiguousStridesWhenChunksAllow) {
  // Every other column of a 3x4: strides [4, 2] form one evenly strided block of 6.
  ts::Tensor s = iota({3, 4}).slice(1, 0, 4, 2);
  EXPECT_GEOMETRY(s, ({3, 2}), ({4, 2}), 0);
  ts::Tensor f = s.view({6});
  EXPECT_GEOMETRY(f, ({6}), ({2}), 0);
  EXPECT_EQ(values(f), (std::vector<int32_t>{0, 2, 4, 6, 8, 10}));

  // A transposed 2x3 keeps its shape under view, and size-1 dims may be added.
  ts::Tensor t = iota({2, 3}).t();
  EXPECT_GEOMETRY(t.view({3, 2}), ({3, 2}), ({1, 3}), 0);
  // The new size-1 dim joins the inner chunk: stride 2 * 3 (as ATen's computeStride).
  EXPECT_GEOMETRY(t.view({3, 1, 2}), ({3, 1, 2}), ({1, 6, 3}), 0);

  // An expanded row: the broadcast dim keeps stride 0.
  ts::Tensor e = iota({3}).expand({2, 3});
  EXPECT_GEOMETRY(e.view({2, 3, 1}), ({2, 3, 1}), ({0, 1, 1}), 0);
}

TEST(Views, ViewErrors) {
  ts::Tensor x = iota({6});
  EXPECT_ERROR(x.view({4, -1}), "view: shape '[4, -1]' is invalid for input of size 6");
  EXPECT_ERROR(x.view({7}), "view: shape '[7]' is invalid for input of size 6");
  EXPECT_ERROR(x.view({-1, -1}), "view: only one dimension can be inferred");
  EXPECT_ERROR(x.view({-2, -3}), "view: invalid shape dimension -2");
  EXPECT_ERROR(x.view({int64_t{1} << 62, 8}), "is invalid for input of size 6");
  ts::Tensor t = iota({2, 3}).t();
  EXPECT_ERROR(t.view({6}),
               "view: view size is not compatible with input tensor's size and stride "
               "(at least one dimension spans across two contiguous subspaces). Use "
               ".reshape(...) instead.");
  EXPECT_ERROR(iota({3}).expand({2, 3}).view({6}), "view size is not compatible");
  EXPECT_ERROR(iota({3, 4}).slice(1, 0, 3).view({9}), "view size is not compatible");
}

TEST(Views, ReshapeViewsWhenPossibleElseCopies) {
  ts::Tensor x = iota({2, 3});
  ts::Tensor r = x.reshape({3, 2});
  EXPECT_GEOMETRY(r, ({3, 2}), ({2, 1}), 0);
  EXPECT_TRUE(shares_storage(x, r));

  ts::Tensor t = x.t();  // [3, 2] strides [1, 3]
  ts::Tensor same = t.reshape({3, 1, 2});
  EXPECT_TRUE(shares_storage(x, same));

  ts::Tensor c = t.reshape({-1});
  EXPECT_GEOMETRY(c, ({6}), ({1}), 0);
  EXPECT_FALSE(shares_storage(x, c));
  EXPECT_EQ(values(c), (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_TRUE(c.is_contiguous());

  ts::Tensor sliced = iota({3, 4}).slice(1, 1, 3);  // [3, 2] strides [4, 1] offset 1
  ts::Tensor sc = sliced.reshape({6});
  EXPECT_FALSE(shares_storage(sliced, sc));
  EXPECT_EQ(values(sc), (std::vector<int32_t>{1, 2, 5, 6, 9, 10}));

  EXPECT_ERROR(x.reshape({4, -1}), "reshape: shape '[4, -1]' is invalid for input of size 6");
  EXPECT_ERROR(x.reshape({-1, -1}), "reshape: only one dimension can be inferred");
}

TEST(Views, ZeroDimAndEmptyViews) {
  ts::Tensor s = iota({1}).view({});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_GEOMETRY(s.view({1, 1}), ({1, 1}), ({1, 1}), 0);
  EXPECT_GEOMETRY(s.view({-1}), ({1}), ({1}), 0);
  EXPECT_EQ(s.reshape({}).dim(), 0);
  EXPECT_ERROR(s.view({2}), "shape '[2]' is invalid for input of size 1");

  ts::Tensor e = ts::empty({0, 3}, ts::kInt);
  EXPECT_GEOMETRY(e.view({-1}), ({0}), ({1}), 0);
  EXPECT_GEOMETRY(e.view({0, 3}), ({0, 3}), ({3, 1}), 0);  // same shape keeps the strides
  EXPECT_GEOMETRY(e.view({3, 0, 2}), ({3, 0, 2}), ({2, 2, 1}), 0);
  EXPECT_GEOMETRY(e.t().view({3, 0}), ({3, 0}), ({1, 3}), 0);
  EXPECT_ERROR(e.view({-1, 0}),
               "view: cannot reshape tensor of 0 elements into shape [-1, 0] because "
               "the unspecified dimension size -1 can be any value and is ambiguous");
  EXPECT_ERROR(iota({6}).view({-1, 0}), "shape '[-1, 0]' is invalid for input of size 6");
  EXPECT_TRUE(e.is_contiguous());
  EXPECT_TRUE(e.t().is_contiguous());  // empty tensors count as contiguous
}

// ---- as_strided ----

TEST(Views, AsStrided) {
  ts::Tensor x = iota({6});
  ts::Tensor a = x.as_strided({2, 2}, {1, 2});
  EXPECT_GEOMETRY(a, ({2, 2}), ({1, 2}), 0);
  EXPECT_EQ(values(a), (std::vector<int32_t>{0, 2, 1, 3}));
  EXPECT_TRUE(shares_storage(x, a));
  // The default offset is the tensor's own.
  ts::Tensor b = x.slice(0, 2).as_strided({2}, {1});
  EXPECT_GEOMETRY(b, ({2}), ({1}), 2);
  EXPECT_EQ(values(b), (std::vector<int32_t>{2, 3}));
  ts::Tensor c = x.slice(0, 2).as_strided({3}, {2}, 1);
  EXPECT_GEOMETRY(c, ({3}), ({2}), 1);
  EXPECT_EQ(values(c), (std::vector<int32_t>{1, 3, 5}));
  // Overlapping (stride 0) and the last byte exactly.
  EXPECT_EQ(values(x.as_strided({2, 3}, {0, 1}, 3)), (std::vector<int32_t>{3, 4, 5, 3, 4, 5}));
  // An empty result fits any storage.
  EXPECT_EQ(x.as_strided({0, 5}, {100, 100}, 1000).numel(), 0);
}

TEST(Views, AsStridedErrors) {
  ts::Tensor x = iota({6});
  EXPECT_ERROR(x.as_strided({3, 3}, {3, 1}),
               "as_strided: sizes [3, 3], strides [3, 1], storage offset 0, and itemsize "
               "4 requiring a storage size of 36 are out of bounds for storage of size "
               "24");
  EXPECT_ERROR(x.as_strided({2}, {1}, 5),
               "requiring a storage size of 28 are out of bounds for storage of size 24");
  EXPECT_ERROR(x.as_strided({2}, {int64_t{1} << 62}), "out of bounds for storage of size 24");
  EXPECT_ERROR(x.as_strided({2, 2}, {1}), "as_strided: mismatch in length of strides and shape");
  EXPECT_ERROR(x.as_strided({2}, {-1}),
               "as_strided: Negative strides are not supported at the moment, got "
               "strides: [-1]");
  EXPECT_ERROR(x.as_strided({2}, {1}, -1), "as_strided: Tensor: invalid storage offset -1");
  EXPECT_ERROR(x.as_strided({-2}, {1}),
               "as_strided: Trying to create tensor with negative dimension -2");
}

// ---- narrow / slice / select ----

TEST(Views, Narrow) {
  ts::Tensor x = iota({3, 4});
  ts::Tensor n = x.narrow(1, 1, 2);
  EXPECT_GEOMETRY(n, ({3, 2}), ({4, 1}), 1);
  EXPECT_EQ(values(n), (std::vector<int32_t>{1, 2, 5, 6, 9, 10}));
  EXPECT_FALSE(n.is_contiguous());
  EXPECT_GEOMETRY(x.narrow(0, -1, 1), ({1, 4}), ({4, 1}), 8);
  EXPECT_TRUE(x.narrow(0, -1, 1).is_contiguous());
  EXPECT_GEOMETRY(x.narrow(-1, 4, 0), ({3, 0}), ({4, 1}), 4);  // start == size: empty
  EXPECT_ERROR(x.narrow(1, 3, 2), "narrow: start (3) + length (2) exceeds dimension size (4).");
  EXPECT_ERROR(x.narrow(1, 0, -1), "narrow: length must be non-negative.");
  EXPECT_ERROR(x.narrow(1, 5, 0),
               "narrow: Dimension out of range (expected to be in range of [-4, 3], but "
               "got 5)");
  EXPECT_ERROR(x.narrow(2, 0, 1),
               "narrow: Dimension out of range (expected to be in range of [-2, 1], but "
               "got 2)");
  EXPECT_ERROR(iota({1}).view({}).narrow(0, 0, 1),
               "narrow: cannot be applied to a 0-dim tensor (argument 'self').");
}

TEST(Views, SliceClampsLikePython) {
  ts::Tensor x = iota({10});
  ts::Tensor s = x.slice(0, 2, 8, 3);
  EXPECT_GEOMETRY(s, ({2}), ({3}), 2);
  EXPECT_EQ(values(s), (std::vector<int32_t>{2, 5}));
  EXPECT_GEOMETRY(x.slice(0, -3), ({3}), ({1}), 7);
  EXPECT_GEOMETRY(x.slice(0, std::nullopt, -2), ({8}), ({1}), 0);
  EXPECT_GEOMETRY(x.slice(0, -100, 100), ({10}), ({1}), 0);
  EXPECT_GEOMETRY(x.slice(0, 20, 30), ({0}), ({1}), 10);
  EXPECT_GEOMETRY(x.slice(0, 5, 2), ({0}), ({1}), 5);
  EXPECT_GEOMETRY(x.slice(0, 0, 10, 4), ({3}), ({4}), 0);  // 0, 4, 8
  EXPECT_GEOMETRY(x.slice(0, 1, 10, 100), ({1}), ({100}), 1);
  EXPECT_GEOMETRY(x.slice(), ({10}), ({1}), 0);

  ts::Tensor m = iota({3, 4});
  ts::Tensor cols = m.slice(1, 1, std::nullopt, 2);
  EXPECT_GEOMETRY(cols, ({3, 2}), ({4, 2}), 1);
  EXPECT_EQ(values(cols), (std::vector<int32_t>{1, 3, 5, 7, 9, 11}));
  EXPECT_FALSE(cols.is_contiguous());
  // A slice of a slice composes offsets and strides.
  EXPECT_GEOMETRY(cols.slice(0, 1, 3, 2), ({1, 2}), ({8, 2}), 5);

  EXPECT_ERROR(x.slice(0, 0, 5, 0), "slice step must be positive");
  EXPECT_ERROR(x.slice(0, 0, 5, -1), "slice step must be positive");
  EXPECT_ERROR(x.slice(1),
               "slice: Dimension out of range (expected to be in range of [-1, 0], but "
               "got 1)");
  EXPECT_ERROR(x[0].slice(0), "slice: cannot be applied to a 0-dim tensor (argument 'self').");
}

TEST(Views, SelectWrapsNegativeIndex) {
  ts::Tensor x = iota({3, 4});
  EXPECT_GEOMETRY(x.select(1, -1), ({3}), ({4}), 3);
  EXPECT_EQ(values(x.select(1, -1)), (std::vector<int32_t>{3, 7, 11}));
  EXPECT_GEOMETRY(x.select(0, 2), ({4}), ({1}), 8);
  EXPECT_GEOMETRY(x.select(-2, -3), ({4}), ({1}), 0);
  EXPECT_GEOMETRY(x[1][2], ({}), ({}), 6);
  EXPECT_EQ(x[1][2].item<int32_t>(), 6);

  ts::Tensor v = iota({3});
  EXPECT_ERROR(v.select(0, 5),
               "select: index 5 out of range for tensor of size [3] at dimension 0");
  EXPECT_ERROR(v.select(0, -4),
               "select: index -4 out of range for tensor of size [3] at dimension 0");
  EXPECT_ERROR(v[3], "select: index 3 out of range");
  EXPECT_ERROR(x.select(-1, 4),
               "select: index 4 out of range for tensor of size [3, 4] at dimension 1");
  EXPECT_ERROR(x.select(2, 0),
               "select: Dimension out of range (expected to be in range of [-2, 1], but "
               "got 2)");
  EXPECT_ERROR(v[0].select(0, 0), "select: cannot be applied to a 0-dim tensor (argument 'self').");
  EXPECT_ERROR(ts::empty({0}, ts::kInt).select(0, 0),
               "select: index 0 out of range for tensor of size [0] at dimension 0");
}

// ---- transpose / t / permute / movedim ----

TEST(Views, TransposeAndT) {
  ts::Tensor x = iota({2, 3, 4});
  ts::Tensor t = x.transpose(0, 2);
  EXPECT_GEOMETRY(t, ({4, 3, 2}), ({1, 4, 12}), 0);
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_GEOMETRY(x.transpose(-1, 1), ({2, 4, 3}), ({12, 1, 4}), 0);
  ts::Tensor same = x.transpose(1, -2);
  EXPECT_GEOMETRY(same, ({2, 3, 4}), ({12, 4, 1}), 0);
  EXPECT_FALSE(same.is_same(x));
  EXPECT_TRUE(shares_storage(same, x));

  ts::Tensor m = iota({2, 3});
  EXPECT_GEOMETRY(m.t(), ({3, 2}), ({1, 3}), 0);
  EXPECT_EQ(values(m.t()), (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_TRUE(m.t().t().is_contiguous());
  EXPECT_GEOMETRY(iota({5}).t(), ({5}), ({1}), 0);
  EXPECT_EQ(iota({1}).view({}).t().dim(), 0);
  EXPECT_EQ(iota({1}).view({}).transpose(0, -1).dim(), 0);

  EXPECT_ERROR(x.t(), "t: expects a tensor with <= 2 dimensions, but self is 3D");
  EXPECT_ERROR(x.transpose(0, 3),
               "transpose: Dimension out of range (expected to be in range of [-3, 2], "
               "but got 3)");
  EXPECT_ERROR(x.transpose(-4, 0), "but got -4)");
}

TEST(Views, Permute) {
  ts::Tensor x = iota({2, 3, 4});
  ts::Tensor p = x.permute({2, 0, 1});
  EXPECT_GEOMETRY(p, ({4, 2, 3}), ({1, 12, 4}), 0);
  EXPECT_FALSE(p.is_contiguous());
  // p[1][1][2] is x[1][2][1] = 12 + 8 + 1.
  EXPECT_EQ(p[1][1][2].item<int32_t>(), 21);
  EXPECT_GEOMETRY(x.permute({-1, 0, 1}), ({4, 2, 3}), ({1, 12, 4}), 0);
  EXPECT_TRUE(x.permute({0, 1, 2}).is_contiguous());
  EXPECT_EQ(iota({1}).view({}).permute({}).dim(), 0);

  EXPECT_ERROR(x.permute({0, 1}),
               "permute: number of dimensions in the tensor input does not match the "
               "length of the desired ordering of dimensions i.e. input.dim() = 3 is not "
               "equal to len(dims) = 2");
  EXPECT_ERROR(x.permute({0, 1, -3}), "permute: duplicate dims are not allowed.");
  EXPECT_ERROR(x.permute({0, 1, 3}),
               "permute: Dimension out of range (expected to be in range of [-3, 2], "
               "but got 3)");
}

TEST(Views, Movedim) {
  ts::Tensor x = iota({2, 3, 4});
  EXPECT_GEOMETRY(x.movedim(std::vector<int64_t>{0}, std::vector<int64_t>{2}), ({3, 4, 2}),
                  ({4, 1, 12}), 0);
  EXPECT_GEOMETRY(x.movedim(std::vector<int64_t>{-1}, std::vector<int64_t>{0}), ({4, 2, 3}),
                  ({1, 12, 4}), 0);
  // order[1] = 0, order[0] = 2; the free slot 2 takes the unmoved dim 1.
  EXPECT_GEOMETRY(x.movedim({0, 2}, {1, 0}), ({4, 2, 3}), ({1, 12, 4}), 0);
  EXPECT_GEOMETRY(x.movedim(std::vector<int64_t>{}, std::vector<int64_t>{}), ({2, 3, 4}),
                  ({12, 4, 1}), 0);
  EXPECT_EQ(iota({1}).view({}).movedim(std::vector<int64_t>{0}, std::vector<int64_t>{-1}).dim(), 0);

  EXPECT_ERROR(x.movedim({0, 1}, {0}),
               "movedim: Invalid source or destination dims: source ([0, 1] dims) "
               "should contain the same number of dims as destination ([0] dims)");
  EXPECT_ERROR(x.movedim({0, -3}, {0, 1}), "movedim: repeated dim in `source` ([0, -3])");
  EXPECT_ERROR(x.movedim({0, 1}, {2, 2}), "movedim: repeated dim in `destination` ([2, 2])");
  EXPECT_ERROR(x.movedim(std::vector<int64_t>{3}, std::vector<int64_t>{0}),
               "movedim: Dimension out of range (expected to be in range of [-3, 2], "
               "but got 3)");
}

// ---- expand ----

TEST(Views, ExpandAndExpandAs) {
  ts::Tensor x = iota({3, 1});
  ts::Tensor e = x.expand({2, 3, 4});
  EXPECT_GEOMETRY(e, ({2, 3, 4}), ({0, 1, 0}), 0);
  EXPECT_FALSE(e.is_contiguous());
  EXPECT_EQ(e[1][2][3].item<int32_t>(), 2);
  EXPECT_GEOMETRY(x.expand({-1, 5}), ({3, 5}), ({1, 0}), 0);
  EXPECT_GEOMETRY(x.expand({3, 1}), ({3, 1}), ({1, 1}), 0);
  EXPECT_GEOMETRY(x.expand_as(iota({2, 3, 4})), ({2, 3, 4}), ({0, 1, 0}), 0);
  EXPECT_GEOMETRY(iota({1}).view({}).expand({2, 2}), ({2, 2}), ({0, 0}), 0);
  EXPECT_GEOMETRY(x.expand({3, 0}), ({3, 0}), ({1, 0}), 0);

  EXPECT_ERROR(x.expand({4}),
               "expand: the number of sizes provided (1) must be greater or equal to "
               "the number of dimensions in the tensor (2)");
  EXPECT_ERROR(x.expand({4, 4}),
               "expand: The expanded size of the tensor (4) must match the existing "
               "size (3) at non-singleton dimension 0.  Target sizes: [4, 4].  Tensor "
               "sizes: [3, 1]");
  EXPECT_ERROR(x.expand({-1, 3, 1}),
               "expand: The expanded size of the tensor (-1) isn't allowed in a leading, "
               "non-existing dimension 0");
  EXPECT_ERROR(x.expand({3, -2}), "expand: The expanded size of the tensor (-2) isn't allowed");
}

// ---- squeeze / unsqueeze / flatten / unflatten ----

TEST(Views, SqueezeAndUnsqueeze) {
  ts::Tensor x = iota({6}).view({1, 3, 1, 2});
  EXPECT_GEOMETRY(x, ({1, 3, 1, 2}), ({6, 2, 2, 1}), 0);
  EXPECT_GEOMETRY(x.squeeze(), ({3, 2}), ({2, 1}), 0);
  EXPECT_GEOMETRY(x.squeeze(2), ({1, 3, 2}), ({6, 2, 1}), 0);
  EXPECT_GEOMETRY(x.squeeze(-4), ({3, 1, 2}), ({2, 2, 1}), 0);
  EXPECT_GEOMETRY(x.squeeze(1), ({1, 3, 1, 2}), ({6, 2, 2, 1}), 0);  // not size 1: unchanged
  EXPECT_EQ(iota({1}).view({}).squeeze().dim(), 0);
  EXPECT_EQ(iota({1}).view({}).squeeze(0).dim(), 0);
  EXPECT_EQ(iota({1}).view({1, 1}).squeeze().dim(), 0);
  EXPECT_ERROR(x.squeeze(4),
               "squeeze: Dimension out of range (expected to be in range of [-4, 3], "
               "but got 4)");

  ts::Tensor m = iota({2, 3});
  EXPECT_GEOMETRY(m.unsqueeze(0), ({1, 2, 3}), ({6, 3, 1}), 0);
  EXPECT_GEOMETRY(m.unsqueeze(1), ({2, 1, 3}), ({3, 3, 1}), 0);
  EXPECT_GEOMETRY(m.unsqueeze(2), ({2, 3, 1}), ({3, 1, 1}), 0);
  EXPECT_GEOMETRY(m.unsqueeze(-1), ({2, 3, 1}), ({3, 1, 1}), 0);
  EXPECT_GEOMETRY(m.unsqueeze(-3), ({1, 2, 3}), ({6, 3, 1}), 0);
  EXPECT_GEOMETRY(m.t().unsqueeze(1), ({3, 1, 2}), ({1, 6, 3}), 0);
  EXPECT_TRUE(m.unsqueeze(1).is_contiguous());
  EXPECT_GEOMETRY(iota({1}).view({}).unsqueeze(0), ({1}), ({1}), 0);
  EXPECT_GEOMETRY(iota({1}).view({}).unsqueeze(-1), ({1}), ({1}), 0);
  EXPECT_ERROR(m.unsqueeze(3),
               "unsqueeze: Dimension out of range (expected to be in range of [-3, 2], "
               "but got 3)");
}

TEST(Views, Flatten) {
  ts::Tensor x = iota({2, 3, 4});
  ts::Tensor f = x.flatten();
  EXPECT_GEOMETRY(f, ({24}), ({1}), 0);
  EXPECT_TRUE(shares_storage(f, x));
  EXPECT_GEOMETRY(x.flatten(1), ({2, 12}), ({12, 1}), 0);
  EXPECT_GEOMETRY(x.flatten(0, 1), ({6, 4}), ({4, 1}), 0);
  EXPECT_GEOMETRY(x.flatten(-2, -1), ({2, 12}), ({12, 1}), 0);
  EXPECT_TRUE(x.flatten(1, 1).is_same(x));
  EXPECT_GEOMETRY(iota({1}).view({}).flatten(), ({1}), ({1}), 0);
  EXPECT_GEOMETRY(ts::empty({2, 0, 3}, ts::kInt).flatten(1), ({2, 0}), ({1, 1}), 0);

  // Not expressible as a view: flatten copies (reshape semantics).
  ts::Tensor t = iota({2, 3}).t();
  ts::Tensor tf = t.flatten();
  EXPECT_FALSE(shares_storage(tf, t));
  EXPECT_EQ(values(tf), (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));

  EXPECT_ERROR(x.flatten(2, 1), "flatten: invalid args: start_dim cannot come after end_dim");
  EXPECT_ERROR(x.flatten(0, 3), "flatten: Dimension out of range");
}

TEST(Views, Unflatten) {
  ts::Tensor x = iota({2, 12});
  EXPECT_GEOMETRY(x.unflatten(1, {3, -1}), ({2, 3, 4}), ({12, 4, 1}), 0);
  EXPECT_GEOMETRY(x.unflatten(-1, {12}), ({2, 12}), ({12, 1}), 0);
  EXPECT_GEOMETRY(x.unflatten(0, {1, 2, 1}), ({1, 2, 1, 12}), ({24, 12, 12, 1}), 0);
  // Splitting a dim of a transposed tensor is still a view.
  ts::Tensor t = iota({4, 3}).t();  // [3, 4] strides [1, 3]
  ts::Tensor u = t.unflatten(1, {2, 2});
  EXPECT_GEOMETRY(u, ({3, 2, 2}), ({1, 6, 3}), 0);
  EXPECT_TRUE(shares_storage(u, t));

  EXPECT_ERROR(x.unflatten(1, {5, -1}),
               "unflatten: Provided sizes [5, -1] don't multiply up to the size of dim "
               "1 (12) in the input tensor");
  EXPECT_ERROR(x.unflatten(1, {2, 2}),
               "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 "
               "(12)");
  EXPECT_ERROR(x.unflatten(1, {-1, -1}), "unflatten: only one dimension can be inferred");
  EXPECT_ERROR(x.unflatten(1, {}), "unflatten: sizes must be non-empty");
  EXPECT_ERROR(x.unflatten(2, {1}), "unflatten: Dimension out of range");
}

// ---- diagonal / unfold ----

TEST(Views, Diagonal) {
  ts::Tensor x = iota({3, 4});
  ts::Tensor d = x.diagonal();
  EXPECT_GEOMETRY(d, ({3}), ({5}), 0);
  EXPECT_EQ(values(d), (std::vector<int32_t>{0, 5, 10}));
  EXPECT_GEOMETRY(x.diagonal(1), ({3}), ({5}), 1);
  EXPECT_EQ(values(x.diagonal(1)), (std::vector<int32_t>{1, 6, 11}));
  EXPECT_GEOMETRY(x.diagonal(-1), ({2}), ({5}), 4);
  EXPECT_EQ(values(x.diagonal(-1)), (std::vector<int32_t>{4, 9}));
  EXPECT_GEOMETRY(x.diagonal(3), ({1}), ({5}), 3);
  EXPECT_GEOMETRY(x.diagonal(5), ({0}), ({5}), 0);
  EXPECT_GEOMETRY(x.diagonal(-7), ({0}), ({5}), 0);
  EXPECT_EQ(values(x.diagonal(0, 1, 0)), (std::vector<int32_t>{0, 5, 10}));

  ts::Tensor y = iota({2, 3, 4});
  // dims 0 and 2 go away, the diagonal is appended last: [3, 2], strides [4, 12 + 1].
  EXPECT_GEOMETRY(y.diagonal(0, 0, 2), ({3, 2}), ({4, 13}), 0);
  EXPECT_EQ(values(y.diagonal(0, 0, 2)), (std::vector<int32_t>{0, 13, 4, 17, 8, 21}));
  EXPECT_GEOMETRY(y.diagonal(1, -1, 1), ({2, 2}), ({12, 5}), 4);
  EXPECT_GEOMETRY(y.diagonal(0, 1, 0), ({4, 2}), ({1, 16}), 0);

  EXPECT_ERROR(y.diagonal(0, 1, -2), "diagonal: diagonal dimensions cannot be identical 1, -2");
  EXPECT_ERROR(iota({3}).diagonal(),
               "diagonal: Dimension out of range (expected to be in range of [-1, 0], "
               "but got 1)");
}

TEST(Views, Unfold) {
  ts::Tensor x = iota({7});
  ts::Tensor u = x.unfold(0, 2, 2);
  EXPECT_GEOMETRY(u, ({3, 2}), ({2, 1}), 0);
  EXPECT_EQ(values(u), (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_GEOMETRY(x.unfold(0, 3, 1), ({5, 3}), ({1, 1}), 0);
  EXPECT_EQ(values(x.unfold(0, 3, 3)), (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_GEOMETRY(x.unfold(0, 7, 5), ({1, 7}), ({5, 1}), 0);
  EXPECT_GEOMETRY(x.unfold(0, 0, 1), ({8, 0}), ({1, 1}), 0);
  ts::Tensor m = iota({3, 4});
  EXPECT_GEOMETRY(m.unfold(1, 2, 1), ({3, 3, 2}), ({4, 1, 1}), 0);
  EXPECT_GEOMETRY(m.unfold(-2, 2, 1), ({2, 4, 2}), ({4, 1, 4}), 0);
  EXPECT_GEOMETRY(iota({1}).view({}).unfold(0, 1, 1), ({1}), ({1}), 0);

  EXPECT_ERROR(x.unfold(0, 8, 1),
               "unfold: maximum size for tensor at dimension 0 is 7 but size is 8");
  EXPECT_ERROR(x.unfold(0, -1, 1), "unfold: size is -1 but must be >= 0");
  EXPECT_ERROR(x.unfold(0, 2, 0), "unfold: step is 0 but must be > 0");
  EXPECT_ERROR(x.unfold(1, 2, 1), "unfold: Dimension out of range");
}

// ---- split / split_with_sizes / chunk ----

std::vector<Shape> sizes_of(const std::vector<ts::Tensor>& ts) {
  std::vector<Shape> out;
  for (const ts::Tensor& t : ts) out.push_back(vec(t.sizes()));
  return out;
}
std::vector<int64_t> offsets_of(const std::vector<ts::Tensor>& ts) {
  std::vector<int64_t> out;
  for (const ts::Tensor& t : ts) out.push_back(t.storage_offset());
  return out;
}

TEST(Views, Split) {
  ts::Tensor x = iota({10});
  auto s = x.split(3);
  EXPECT_EQ(sizes_of(s), (std::vector<Shape>{{3}, {3}, {3}, {1}}));
  EXPECT_EQ(offsets_of(s), (std::vector<int64_t>{0, 3, 6, 9}));
  EXPECT_TRUE(shares_storage(s[3], x));
  EXPECT_EQ(sizes_of(x.split(5)), (std::vector<Shape>{{5}, {5}}));
  EXPECT_EQ(sizes_of(x.split(20)), (std::vector<Shape>{{10}}));
  ts::Tensor m = iota({2, 5});
  auto c = m.split(2, -1);
  EXPECT_EQ(sizes_of(c), (std::vector<Shape>{{2, 2}, {2, 2}, {2, 1}}));
  EXPECT_EQ(offsets_of(c), (std::vector<int64_t>{0, 2, 4}));
  EXPECT_EQ(vec(c[1].strides()), (Shape{5, 1}));
  EXPECT_EQ(sizes_of(ts::empty({0, 2}, ts::kInt).split(0)), (std::vector<Shape>{{0, 2}}));
  EXPECT_EQ(sizes_of(ts::empty({0, 2}, ts::kInt).split(3)), (std::vector<Shape>{{0, 2}}));

  EXPECT_ERROR(x[0].split(1), "split: expects at least a 1-dimensional tensor");
  EXPECT_ERROR(x.split(-1), "split: expects split_size be non-negative, but got split_size=-1");
  EXPECT_ERROR(x.split(0),
               "split_size can only be 0 if dimension size is 0, but got dimension size "
               "of 10");
  EXPECT_ERROR(x.split(1, 1), "split: Dimension out of range");
}

TEST(Views, SplitWithSizes) {
  ts::Tensor x = iota({10});
  auto s = x.split_with_sizes({2, 0, 8});
  EXPECT_EQ(sizes_of(s), (std::vector<Shape>{{2}, {0}, {8}}));
  EXPECT_EQ(offsets_of(s), (std::vector<int64_t>{0, 2, 2}));
  EXPECT_EQ(values(s[2]), (std::vector<int32_t>{2, 3, 4, 5, 6, 7, 8, 9}));
  auto m = iota({3, 4}).split_with_sizes({1, 3}, 1);
  EXPECT_EQ(sizes_of(m), (std::vector<Shape>{{3, 1}, {3, 3}}));
  EXPECT_EQ(offsets_of(m), (std::vector<int64_t>{0, 1}));

  EXPECT_ERROR(x.split_with_sizes({2, -1, 9}),
               "split_with_sizes: expects split_sizes have only non-negative entries, but "
               "got split_sizes=[2, -1, 9]");
  EXPECT_ERROR(x.split_with_sizes({2, 3}),
               "split_with_sizes: expects split_sizes to sum exactly to 10 (input "
               "tensor's size at dimension 0), but got split_sizes=[2, 3]");
  EXPECT_ERROR(x.split_with_sizes({8, 8}),
               "split_with_sizes: expects split_sizes to sum exactly to 10");
  EXPECT_ERROR(x.split_with_sizes({INT64_MAX, INT64_MAX}),
               "split_with_sizes: expects split_sizes to sum exactly to 10");
  EXPECT_ERROR(x[0].split_with_sizes({1}), "expects at least a 1-dimensional tensor");
}

TEST(Views, ChunkUsesCeilDivisionAndMayReturnFewer) {
  EXPECT_EQ(sizes_of(iota({5}).chunk(3)), (std::vector<Shape>{{2}, {2}, {1}}));
  EXPECT_EQ(sizes_of(iota({6}).chunk(3)), (std::vector<Shape>{{2}, {2}, {2}}));
  EXPECT_EQ(sizes_of(iota({6}).chunk(4)), (std::vector<Shape>{{2}, {2}, {2}}));  // only 3
  EXPECT_EQ(sizes_of(iota({2}).chunk(5)), (std::vector<Shape>{{1}, {1}}));
  auto c = iota({2, 5}).chunk(2, 1);
  EXPECT_EQ(sizes_of(c), (std::vector<Shape>{{2, 3}, {2, 2}}));
  EXPECT_EQ(offsets_of(c), (std::vector<int64_t>{0, 3}));
  // An empty dim still gives `chunks` (empty) pieces.
  EXPECT_EQ(sizes_of(ts::empty({0}, ts::kInt).chunk(3)), (std::vector<Shape>{{0}, {0}, {0}}));

  EXPECT_ERROR(iota({5}).chunk(0), "chunk: expects `chunks` to be greater than 0, got: 0");
  EXPECT_ERROR(iota({1}).view({}).chunk(1), "chunk: expects at least a 1-dimensional tensor");
  EXPECT_ERROR(iota({5}).chunk(2, 1), "chunk: Dimension out of range");
}

// ---- contiguity, many dims, other dtypes ----

TEST(Views, ContiguityFlagsIgnoreSizeOneDims) {
  ts::Tensor x = iota({3, 4});
  EXPECT_TRUE(x.is_contiguous());
  EXPECT_TRUE(x.slice(0, 1, 2).is_contiguous());       // [1, 4]
  EXPECT_FALSE(x.slice(1, 1, 2).t().is_contiguous());  // [1, 3] strides [1, 4]
  EXPECT_FALSE(x.slice(1, 1, 3).is_contiguous());
  EXPECT_TRUE(x.select(1, 2).unsqueeze(1).slice(0, 0, 1).is_contiguous());  // [1, 1]
  EXPECT_FALSE(x.t().is_contiguous());
  EXPECT_FALSE(x.expand({2, 3, 4}).is_contiguous());
  EXPECT_TRUE(x.unsqueeze(0).expand({1, 3, 4}).is_contiguous());
  EXPECT_TRUE(x.t().t().is_contiguous());
  EXPECT_TRUE(x.t().is_non_overlapping_and_dense());
  EXPECT_FALSE(x.slice(1, 0, 4, 2).is_non_overlapping_and_dense());
}

TEST(Views, MoreThanSixDimsSpillToTheHeap) {
  ts::Tensor x = iota({128});
  ts::Tensor v = x.view({2, 2, 2, 2, 2, 2, 2});
  EXPECT_GEOMETRY(v, ({2, 2, 2, 2, 2, 2, 2}), ({64, 32, 16, 8, 4, 2, 1}), 0);
  ts::Tensor p = v.permute({6, 5, 4, 3, 2, 1, 0});
  EXPECT_GEOMETRY(p, ({2, 2, 2, 2, 2, 2, 2}), ({1, 2, 4, 8, 16, 32, 64}), 0);
  EXPECT_FALSE(p.is_contiguous());
  ts::Tensor u = v.unsqueeze(3);
  EXPECT_EQ(u.dim(), 8);
  EXPECT_EQ(vec(u.strides()), (Shape{64, 32, 16, 16, 8, 4, 2, 1}));
  EXPECT_EQ(u.squeeze().dim(), 7);
  ts::Tensor s = v.select(6, 1).slice(0, 1);  // back to six dims
  EXPECT_GEOMETRY(s, ({1, 2, 2, 2, 2, 2}), ({64, 32, 16, 8, 4, 2}), 65);
  EXPECT_GEOMETRY(v.flatten(2, 5), ({2, 2, 16, 2}), ({64, 32, 2, 1}), 0);
  EXPECT_GEOMETRY(v.diagonal(0, 0, 6), ({2, 2, 2, 2, 2, 2}), ({32, 16, 8, 4, 2, 65}), 0);
  // Element [1,0,1,0,1,0,1] of v and its write-through.
  ts::Tensor e = p[1][0][1][0][1][0][1];
  EXPECT_EQ(e.storage_offset(), 1 + 4 + 16 + 64);
  e.data_ptr<int32_t>()[0] = -7;
  EXPECT_EQ(x.data_ptr<int32_t>()[85], -7);
  EXPECT_EQ(v.reshape({16, -1}).size(1), 8);
  EXPECT_EQ(v.movedim({0, 1}, {6, 5}).stride(6), 64);
}

TEST(Views, OtherDtypesKeepDtypeAndItemsize) {
  ts::Tensor d = ts::empty({2, 3}, ts::kDouble);
  for (int i = 0; i < 6; ++i) d.data_ptr<double>()[i] = i + 0.5;
  EXPECT_EQ(d.t().dtype(), ts::kDouble);
  EXPECT_DOUBLE_EQ(d.t()[2][1].item<double>(), 5.5);
  ts::Tensor b = ts::empty({4}, ts::kBool);
  for (int i = 0; i < 4; ++i) b.data_ptr<bool>()[i] = i % 2 == 1;
  EXPECT_EQ(b.slice(0, 1, 4, 2).dtype(), ts::kBool);
  EXPECT_TRUE(b.slice(0, 1, 4, 2)[1].item<bool>());
  ts::Tensor h = ts::empty({4}, ts::kHalf);
  for (int i = 0; i < 4; ++i) h.data_ptr<ts::Half>()[i] = ts::Half(static_cast<float>(i));
  EXPECT_ERROR(h.as_strided({5}, {1}),
               "itemsize 2 requiring a storage size of 10 are out of bounds for storage "
               "of size 8");
  EXPECT_FLOAT_EQ(h.view({2, 2}).t()[1][0].item<float>(), 1.0f);
}

// accessor and packed_accessor32 index through the strides: t = iota({2, 3}).t() has
// t[i][j] = x[j][i] = 3j + i, and writes land in x.
TEST(Accessor, IndexesAViewThroughItsStrides) {
  const ts::Tensor x = iota({2, 3});
  const ts::Tensor t = x.t();
  const auto a = ts::accessor<int32_t, 2>(t);
  EXPECT_EQ(a.size(0), 3);
  EXPECT_EQ(a.size(1), 2);
  EXPECT_EQ(a.stride(0), 1);
  EXPECT_EQ(a.stride(1), 3);
  EXPECT_EQ(a.data(), x.data_ptr<int32_t>());
  EXPECT_EQ(a[1][0], 1);
  EXPECT_EQ(a[2][1], 5);
  EXPECT_EQ(a[2].size(0), 2);
  EXPECT_EQ(a[2].stride(0), 3);
  a[0][1] = 30;
  EXPECT_EQ(values(x), (std::vector<int32_t>{0, 1, 2, 30, 4, 5}));
  const auto p = ts::packed_accessor32<int32_t, 2>(t);
  EXPECT_EQ(p.size(0), 3);
  EXPECT_EQ(p.stride(1), 3);
  EXPECT_EQ(p[2][1], 5);
  EXPECT_EQ(p[0][1], 30);
  EXPECT_ERROR((void)(ts::accessor<int32_t, 3>(t)), "accessor: expected 3 dims but tensor has 2");
}

}  // namespace
