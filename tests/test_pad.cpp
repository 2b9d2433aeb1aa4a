// repeat_interleave, the padding ops, meshgrid, einsum, tensordot (issue 16), kl_div's
// "batchmean" and embedding_bag's scale_grad_by_freq. Values are PyTorch's documentation examples
// or worked by hand, in the reference and the optimized sets alike; errors name op and argument;
// gradients by hand and by gradcheck.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

Tensor arange_double(int64_t n, ts::IntArrayRef shape) {
  return ts::arange(0, n, 1, ts::kDouble).view(shape);
}

// ---- repeat_interleave ----

TEST(RepeatInterleave, AsDocumented) {
  each_set([] {
    // torch.repeat_interleave's examples: x = [1, 2, 3], y = [[1, 2], [3, 4]].
    const Tensor x = make_long({1, 2, 3});
    EXPECT_TENSOR(x.repeat_interleave(2), ts::kLong, {6}, {1, 1, 2, 2, 3, 3});
    const Tensor y = make_long({1, 2, 3, 4}, {2, 2});
    EXPECT_TENSOR(ts::repeat_interleave(y, 2), ts::kLong, {8}, {1, 1, 2, 2, 3, 3, 4, 4});
    EXPECT_TENSOR(ts::repeat_interleave(y, 3, 1), ts::kLong, {2, 6},
                  {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4});
    EXPECT_TENSOR(ts::repeat_interleave(y, make_long({1, 2}), 0), ts::kLong, {3, 2},
                  {1, 2, 3, 4, 3, 4});
    EXPECT_TENSOR(ts::repeat_interleave(y, make_long({1, 2}), 0, 3), ts::kLong, {3, 2},
                  {1, 2, 3, 4, 3, 4});
    // The Tensor overload: index i repeated repeats[i] times, in repeats' dtype.
    EXPECT_TENSOR(ts::repeat_interleave(make(ts::kInt, {2, 0, 1, 3})), ts::kInt, {6},
                  {0, 0, 2, 3, 3, 3});
    EXPECT_TENSOR(ts::repeat_interleave(ts::empty({0}, ts::kLong)), ts::kLong, {0}, {});
    // A 0-dim repeats repeats every slice; zero repeats give an empty dim.
    EXPECT_TENSOR(y.repeat_interleave(make_long({2}).view({}), 1), ts::kLong, {2, 4},
                  {1, 1, 2, 2, 3, 3, 4, 4});
    EXPECT_TENSOR(y.repeat_interleave(0, 0), ts::kLong, {0, 2}, {});
    // A 0-dim self without dim is flattened first.
    EXPECT_TENSOR(make(ts::kFloat, {5}).view({}).repeat_interleave(3), ts::kFloat, {3}, {5, 5, 5});
  });
}

TEST(RepeatInterleave, Errors) {
  EXPECT_ERROR(ts::repeat_interleave(make(ts::kFloat, {1, 2})), "repeat_interleave: repeats");
  EXPECT_ERROR(ts::repeat_interleave(make_long({1, -1})), "repeat_interleave: repeats can not be");
  EXPECT_ERROR(ts::repeat_interleave(make_long({1, 2}, {1, 2})), "only accept 1D");
  EXPECT_ERROR(ts::repeat_interleave(make_long({1, 2}), std::optional<int64_t>(4)), "output_size");
  const Tensor y = ts::zeros({2, 3});
  EXPECT_ERROR(y.repeat_interleave(make_long({1, 2}), 1), "repeat_interleave_self: repeats must");
  EXPECT_ERROR(y.repeat_interleave(-1), "repeat_interleave_self: Repeats must be non-negative");
  EXPECT_ERROR(y.repeat_interleave(2, 0, 5), "output_size");
  EXPECT_ERROR(y.repeat_interleave(2, 2), "repeat_interleave_self:");
}

// The gradient sums the repeated slices: repeats [1, 2] along dim 1 of a 2x2 x, weighted by w.
TEST(RepeatInterleave, GradientSumsTheRepeatedSlices) {
  each_set([] {
    const Tensor w = make(ts::kDouble, {1, 10, 100, 1000, 1e4, 1e5}, {2, 3});
    Tensor x = ts::zeros({2, 2}, ts::kDouble).requires_grad_();
    (x.repeat_interleave(make_long({1, 2}), 1) * w).sum().backward();
    EXPECT_TENSOR(x.grad(), ts::kDouble, {2, 2}, {1, 110, 1000, 110000});
    Tensor z = ts::zeros({2}, ts::kDouble).requires_grad_();
    (z.repeat_interleave(3) * make(ts::kDouble, {1, 2, 3, 4, 5, 6})).sum().backward();
    EXPECT_TENSOR(z.grad(), ts::kDouble, {2}, {6, 15});
  });
  const Tensor x = ts::autograd_test::randn_input({3, 2}, 3);
  ts::autograd_test::expect_gradchecks(
      [](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{in[0].repeat_interleave(make_long({2, 0, 1}), 0),
                                   in[0].repeat_interleave(2, 1)};
      },
      {x});
}

// ---- padding ----

TEST(Pad, ConstantPadsAndCrops) {
  each_set([] {
    const Tensor x = make_long({1, 2, 3, 4, 5, 6}, {2, 3});
    // (1, 0) on the last dim, (0, 1) on the first, with 7.
    EXPECT_TENSOR(ts::constant_pad_nd(x, {1, 0, 0, 1}, 7), ts::kLong, {3, 4},
                  {7, 1, 2, 3, 7, 4, 5, 6, 7, 7, 7, 7});
    EXPECT_TENSOR(ts::constant_pad_nd(x, {-1, -1}), ts::kLong, {2, 1}, {2, 5});
    EXPECT_TENSOR(ts::constant_pad_nd(x, {2, -2}, 9), ts::kLong, {2, 3}, {9, 9, 1, 9, 9, 4});
    // Current PyTorch allows an empty result dim (ATen 1.13 refused it).
    EXPECT_TENSOR(ts::constant_pad_nd(x, {-3, 0}), ts::kLong, {2, 0}, {});
    // torch.nn.functional.pad's constant mode, value 0 by default, cast to self's dtype.
    EXPECT_TENSOR(ts::pad(x, {1, 1}), ts::kLong, {2, 5}, {0, 1, 2, 3, 0, 0, 4, 5, 6, 0});
    EXPECT_TENSOR(ts::pad(make(ts::kFloat, {1, 2}), {1, 0}, "constant", 2.5), ts::kFloat, {3},
                  {2.5, 1, 2});
  });
  EXPECT_ERROR(ts::constant_pad_nd(ts::zeros({2}), {1}), "constant_pad_nd: Length of pad");
  EXPECT_ERROR(ts::constant_pad_nd(ts::zeros({2}), {1, 1, 1, 1}), "no more than twice");
  EXPECT_ERROR(ts::constant_pad_nd(ts::zeros({2}), {-2, -1}), "negative output size");
}

TEST(Pad, ReflectAndReplicate) {
  each_set([] {
    const Tensor x = arange_double(4, {1, 4});  // [[0, 1, 2, 3]]
    EXPECT_TENSOR(ts::reflection_pad1d(x, {2, 1}), ts::kDouble, {1, 7}, {2, 1, 0, 1, 2, 3, 2});
    EXPECT_TENSOR(ts::replication_pad1d(x, {2, 1}), ts::kDouble, {1, 7}, {0, 0, 0, 1, 2, 3, 3});
    // Negative pads crop (ATen's PaddingKernel index + offset).
    EXPECT_TENSOR(ts::reflection_pad1d(x, {-1, 2}), ts::kDouble, {1, 5}, {1, 2, 3, 2, 1});
    EXPECT_TENSOR(ts::replication_pad1d(x, {-1, 2}), ts::kDouble, {1, 5}, {1, 2, 3, 3, 3});
    EXPECT_TENSOR(ts::replication_pad1d(x, {5, 0}), ts::kDouble, {1, 9},
                  {0, 0, 0, 0, 0, 0, 1, 2, 3});
    // 2-D: [[0, 1, 2], [3, 4, 5]] padded (1, 1) on columns, (1, 0) on rows.
    const Tensor y = arange_double(6, {1, 2, 3});
    EXPECT_TENSOR(ts::reflection_pad2d(y, {1, 1, 1, 0}), ts::kDouble, {1, 3, 5},
                  {4, 3, 4, 5, 4, 1, 0, 1, 2, 1, 4, 3, 4, 5, 4});
    EXPECT_TENSOR(ts::replication_pad2d(y, {1, 1, 1, 0}), ts::kDouble, {1, 3, 5},
                  {0, 0, 1, 2, 2, 0, 0, 1, 2, 2, 3, 3, 4, 5, 5});
    // 3-D, depth only: the planes of [[[0]], [[1]]] replicated (2, 1).
    const Tensor z = arange_double(2, {1, 2, 1, 1});
    EXPECT_TENSOR(ts::replication_pad3d(z, {0, 0, 0, 0, 2, 1}), ts::kDouble, {1, 5, 1, 1},
                  {0, 0, 0, 1, 1});
    // A transposed input: [[0, 2], [1, 3]] reflected (1, 1) along its rows' last dim.
    EXPECT_TENSOR(ts::pad(arange_double(4, {2, 2}).t(), {1, 1}, "reflect"), ts::kDouble, {2, 4},
                  {2, 0, 2, 0, 3, 1, 3, 1});
  });
  EXPECT_ERROR(ts::reflection_pad1d(ts::zeros({1, 4}), {4, 0}), "reflection_pad1d: Argument #4");
  EXPECT_ERROR(ts::reflection_pad1d(ts::zeros({4}), {1, 1}), "Expected 2D or 3D");
  EXPECT_ERROR(ts::replication_pad1d(ts::zeros({1, 4}), {-4, 0}), "too small");
  EXPECT_ERROR(ts::replication_pad2d(ts::zeros({1, 2, 4}), {1, 1}), "expected to be 4");
  EXPECT_ERROR(ts::reflection_pad(ts::zeros({1, 4}, ts::kLong), {1, 1}), "reflection_pad:");
  EXPECT_ERROR(ts::pad(ts::zeros({1, 4}), {1, 1}, "reflect", 1.0), "doesn't take in value");
  EXPECT_ERROR(ts::pad(ts::zeros({1, 4}), {1, 1}, "wrap"), "pad: Unrecognised padding mode");
  EXPECT_ERROR(ts::pad(ts::zeros({4}), {1, 1}, "replicate"), "Only 2D, 3D, 4D, 5D");
}

// Each input element's gradient sums those of the output elements read from it.
TEST(Pad, KernelGradientsAddIntoTheSources) {
  each_set([] {
    Tensor x = ts::zeros({1, 4}, ts::kDouble).requires_grad_();
    ts::reflection_pad1d(x, {2, 1}).sum().backward();  // sources [2, 1, 0, 1, 2, 3, 2]
    EXPECT_TENSOR(x.grad(), ts::kDouble, {1, 4}, {1, 2, 3, 1});
    Tensor r = ts::zeros({1, 4}, ts::kDouble).requires_grad_();
    ts::replication_pad1d(r, {2, 1}).sum().backward();  // sources [0, 0, 0, 1, 2, 3, 3]
    EXPECT_TENSOR(r.grad(), ts::kDouble, {1, 4}, {3, 1, 1, 2});
    Tensor c = ts::zeros({1, 4}, ts::kDouble).requires_grad_();
    (ts::constant_pad_nd(c, {1, -1}) * make(ts::kDouble, {1, 2, 3, 4}, {1, 4})).sum().backward();
    EXPECT_TENSOR(c.grad(), ts::kDouble, {1, 4}, {2, 3, 4, 0});
  });
  const Tensor x = ts::autograd_test::randn_input({2, 3, 4}, 5);
  ts::autograd_test::expect_gradchecks(
      [](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{
            ts::reflection_pad2d(in[0], {2, 1, -1, 2}), ts::replication_pad2d(in[0], {3, -1, 1, 2}),
            ts::pad(in[0], {1, 2}, "circular"), ts::constant_pad_nd(in[0], {1, -2, 0, 1}, 0.5)};
      },
      {x});
}

TEST(Pad, Circular) {
  each_set([] {
    const Tensor x = make_long({0, 1, 2, 3}, {1, 1, 4});
    EXPECT_TENSOR(ts::_pad_circular(x, {2, 1}), ts::kLong, {1, 1, 7}, {2, 3, 0, 1, 2, 3, 0});
    EXPECT_TENSOR(ts::pad(x, {4, 4}, "circular"), ts::kLong, {1, 1, 12},
                  {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3});
    // Negative pads crop first; the rest wraps around what is left (current PyTorch).
    EXPECT_TENSOR(ts::_pad_circular(x, {-1, 2}), ts::kLong, {1, 1, 5}, {1, 2, 3, 1, 2});
    // Unbatched 2-D padding of [[0, 1], [2, 3]]: rows and columns wrap.
    EXPECT_TENSOR(ts::_pad_circular(make_long({0, 1, 2, 3}, {1, 2, 2}), {1, 0, 0, 1}), ts::kLong,
                  {1, 3, 3}, {1, 0, 1, 3, 2, 3, 1, 0, 1});
  });
  EXPECT_ERROR(ts::_pad_circular(ts::zeros({1, 1, 2}), {3, 0}), "wrapping around more than once");
  EXPECT_ERROR(ts::_pad_circular(ts::zeros({2}), {1, 1}), "expected 1 or 2 non-padded");
}

// ---- meshgrid, einsum, tensordot ----

TEST(Meshgrid, IjAndXy) {
  const Tensor a = make_long({1, 2}), b = make_long({3, 4, 5});
  const std::vector<Tensor> ij = ts::meshgrid({a, b}, "ij");
  EXPECT_TENSOR(ij[0], ts::kLong, {2, 3}, {1, 1, 1, 2, 2, 2});
  EXPECT_TENSOR(ij[1], ts::kLong, {2, 3}, {3, 4, 5, 3, 4, 5});
  EXPECT_EQ(ij[0].data_ptr(), a.data_ptr());  // views
  const std::vector<Tensor> xy = ts::meshgrid({a, b}, "xy");
  EXPECT_TENSOR(xy[0], ts::kLong, {3, 2}, {1, 2, 1, 2, 1, 2});
  EXPECT_TENSOR(xy[1], ts::kLong, {3, 2}, {3, 3, 4, 4, 5, 5});
  const std::vector<Tensor> one = ts::meshgrid({make_long({7}).view({})}, "xy");
  EXPECT_TENSOR(one[0], ts::kLong, {1}, {7});
  EXPECT_ERROR(ts::meshgrid({a, make(ts::kFloat, {1})}), "meshgrid: expects all tensors");
  EXPECT_ERROR(ts::meshgrid({a}, "ji"), "meshgrid: indexing");
  EXPECT_ERROR(ts::meshgrid({}), "meshgrid: expects a non-empty");
}

TEST(Einsum, Equations) {
  each_set([] {
    const Tensor a = make_long({1, 2, 3, 4}, {2, 2}), b = make_long({5, 6, 7, 8}, {2, 2});
    EXPECT_TENSOR(ts::einsum("ij,jk->ik", {a, b}), ts::kLong, {2, 2}, {19, 22, 43, 50});
    EXPECT_TENSOR(ts::einsum("ij,jk", {a, b}), ts::kLong, {2, 2}, {19, 22, 43, 50});
    EXPECT_TENSOR(ts::einsum("ii", {a}), ts::kLong, {}, {5});
    EXPECT_TENSOR(ts::einsum("ii->i", {a}), ts::kLong, {2}, {1, 4});
    // The implicit output is alphabetical: "ji" is the transpose.
    EXPECT_TENSOR(ts::einsum("ji", {a}), ts::kLong, {2, 2}, {1, 3, 2, 4});
    EXPECT_TENSOR(ts::einsum("j,i", {make_long({1, 2}), make_long({3, 4, 5})}), ts::kLong, {3, 2},
                  {3, 6, 4, 8, 5, 10});
    // Upper case before lower case in the implicit output.
    EXPECT_TENSOR(ts::einsum("bA", {a}), ts::kLong, {2, 2}, {1, 3, 2, 4});
    EXPECT_TENSOR(ts::einsum("ij->", {a}), ts::kLong, {}, {10});
    // Broadcast ellipsis dims and three operands left to right: [[1, 2]] @ [[1], [1]] @ [[3]].
    EXPECT_TENSOR(ts::einsum("...ij,...jk->...ik", {make_long({1, 2, 3, 4}, {2, 1, 2}), b}),
                  ts::kLong, {2, 1, 2}, {19, 22, 43, 50});
    EXPECT_TENSOR(ts::einsum("ij,jk,kl->il", {make_long({1, 2}, {1, 2}), make_long({1, 1}, {2, 1}),
                                              make_long({3}, {1, 1})}),
                  ts::kLong, {1, 1}, {9});
    EXPECT_TENSOR(ts::einsum(" i j , j k -> i k ", {a, b}), ts::kLong, {2, 2}, {19, 22, 43, 50});
    // A label of size 1 broadcasts: [[1], [2]] . [[1, 2], [3, 4]] summed over j.
    EXPECT_TENSOR(ts::einsum("ij,ij->i", {make_long({1, 2}, {2, 1}), a}), ts::kLong, {2}, {3, 14});
  });
  // d/dA of sum(A @ B) is B's row sums, along each row of A.
  Tensor x = ts::zeros({2, 2}, ts::kDouble).requires_grad_();
  ts::einsum("ij,jk->ik", {x, make(ts::kDouble, {5, 6, 7, 8}, {2, 2})}).sum().backward();
  EXPECT_TENSOR(x.grad(), ts::kDouble, {2, 2}, {11, 15, 11, 15});
  const Tensor p = ts::autograd_test::randn_input({2, 3}, 7);
  const Tensor q = ts::autograd_test::randn_input({4, 3, 5}, 8);
  const Tensor r = ts::autograd_test::randn_input({2, 5}, 9);
  ts::autograd_test::expect_gradchecks(
      [](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{ts::einsum("bn,anm,bm->ba", {in[0], in[1], in[2]}),
                                   ts::einsum("...n,anm", {in[0], in[1]})};
      },
      {p, q, r});
  const Tensor m = ts::zeros({2, 3});
  EXPECT_ERROR(ts::einsum("ij,jk", {m}), "einsum: fewer operands");
  EXPECT_ERROR(ts::einsum("ij", {m, m}), "einsum: more operands");
  EXPECT_ERROR(ts::einsum("i", {m}), "does not match the number of dimensions (2) for operand 0");
  EXPECT_ERROR(ts::einsum("ij->k", {m}), "output subscript k does not appear");
  EXPECT_ERROR(ts::einsum("ij->ii", {m}), "appears more than once");
  EXPECT_ERROR(ts::einsum("ii", {m}), "is repeated for operand 0 but the sizes don't match");
  EXPECT_ERROR(ts::einsum("ij,ij", {m, ts::zeros({2, 4})}), "does not broadcast");
  EXPECT_ERROR(ts::einsum("i.j", {m}), "not part of any ellipsis");
  EXPECT_ERROR(ts::einsum("i2", {m}), "invalid subscript");
}

TEST(Tensordot, Dims) {
  each_set([] {
    const Tensor a = arange_double(6, {2, 3}), b = arange_double(6, {3, 2});
    EXPECT_TENSOR(ts::tensordot(a, b, 1), ts::kDouble, {2, 2}, {10, 13, 28, 40});
    EXPECT_TENSOR(ts::tensordot(a, b, {1}, {0}), ts::kDouble, {2, 2}, {10, 13, 28, 40});
    EXPECT_TENSOR(ts::tensordot(a, a, {0, 1}, {0, 1}), ts::kDouble, {}, {55});
    EXPECT_TENSOR(ts::tensordot(a, a, {-1, 0}, {1, 0}), ts::kDouble, {}, {55});
    EXPECT_EQ(shape_of(ts::tensordot(a, b, 0)), (Shape{2, 3, 3, 2}));
    // A contracted dim of size 1 on one side sums the other's: [[0, 1, 2], [3, 4, 5]] . [[2]].
    EXPECT_TENSOR(ts::tensordot(a, make(ts::kDouble, {2}, {1, 1}), {1}, {0}), ts::kDouble, {2, 1},
                  {6, 24});
    const Tensor out = ts::empty({0}, ts::kDouble);
    ts::tensordot_out(out, a, b, {1}, {0});
    EXPECT_TENSOR(out, ts::kDouble, {2, 2}, {10, 13, 28, 40});
  });
  const Tensor a = ts::zeros({2, 3});
  EXPECT_ERROR(ts::tensordot(a, a, {0}, {1}), "tensordot: contracted dimensions need to match");
  EXPECT_ERROR(ts::tensordot(a, a, {0}, {}), "same length");
  EXPECT_ERROR(ts::tensordot(a, a.to(ts::kDouble), 1), "same dtype");
  EXPECT_ERROR(ts::tensordot(a, a, -1), "dims >= 0");
  EXPECT_ERROR(ts::tensordot(a, a, {0, 0}, {0, 1}), "appears multiple times");
  const Tensor wrong = ts::zeros({2, 2}, ts::kLong);
  EXPECT_ERROR(ts::tensordot_out(wrong, a, a.t(), {1}, {0}), "tensordot: Expected the output");
  EXPECT_TENSOR(wrong, ts::kLong, {2, 2}, {0, 0, 0, 0});  // left untouched
  const Tensor x = ts::autograd_test::randn_input({2, 3, 4}, 11);
  const Tensor y = ts::autograd_test::randn_input({4, 3, 2}, 12);
  ts::autograd_test::expect_gradchecks(
      [](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{ts::tensordot(in[0], in[1], {1, 2}, {1, 0})};
      },
      {x, y});
}

// ---- kl_div batchmean, embedding_bag scale_grad_by_freq ----

TEST(KlDiv, BatchmeanDividesTheSumByTheBatch) {
  each_set([] {
    // self 0 (log-probabilities), target [[1, 1], [0.5, 0.5]]: elementwise t log t, summed -ln 2.
    const double ln2 = std::log(2.0);
    const Tensor t = make(ts::kDouble, {1, 1, 0.5, 0.5}, {2, 2});
    Tensor s = ts::zeros({2, 2}, ts::kDouble).requires_grad_();
    const Tensor bm = ts::kl_div(s, t, "batchmean");
    EXPECT_TENSOR_NEAR(bm, ts::kDouble, {}, {-ln2 / 2}, 1e-12);
    EXPECT_TENSOR_NEAR(ts::kl_div(s, t, "sum"), ts::kDouble, {}, {-ln2}, 1e-12);
    EXPECT_TENSOR_NEAR(ts::kl_div(s, t, "mean"), ts::kDouble, {}, {-ln2 / 4}, 1e-12);
    EXPECT_TENSOR_NEAR(ts::kl_div(s, t, "none"), ts::kDouble, {2, 2},
                       {0, 0, -0.5 * ln2, -0.5 * ln2}, 1e-12);
    // log_target: target log 0.5 everywhere, 0.5 (log 0.5 - 0) each, over a batch of 2.
    EXPECT_TENSOR_NEAR(ts::kl_div(s, ts::full({2, 2}, -ln2, ts::kDouble), "batchmean", true),
                       ts::kDouble, {}, {-ln2}, 1e-12);
    // d batchmean / d self = -target / batch.
    bm.backward();
    EXPECT_TENSOR_NEAR(s.grad(), ts::kDouble, {2, 2}, {-0.5, -0.5, -0.25, -0.25}, 1e-12);
    // A 0-dim self: the sum as is.
    EXPECT_TENSOR_NEAR(
        ts::kl_div(make(ts::kDouble, {0}).view({}), make(ts::kDouble, {0.5}).view({}), "batchmean"),
        ts::kDouble, {}, {-0.5 * ln2}, 1e-12);
  });
  EXPECT_ERROR(ts::kl_div(ts::zeros({2}), ts::zeros({2}), "batch"), "kl_div: batch is not a valid");
}

// Note [embedding_bag gradients]: each entry's gradient divided by its index's count in
// `indices`. indices [1, 1, 2, 1, 3, 3, 4] in bags [0, 2), [2, 5), [5, 7) of ones(5, 2).
TEST(EmbeddingBag, ScaleGradByFreq) {
  each_set([] {
    const Tensor idx = make_long({1, 1, 2, 1, 3, 3, 4});
    const Tensor offsets = make_long({0, 2, 5});
    for (const bool scale : {false, true}) {
      Tensor w = ts::ones({5, 2}, ts::kDouble).requires_grad_();
      ts::embedding_bag(w, idx, offsets, scale, 0).sum().backward();
      // Counts 0, 3, 1, 2, 1: summed as is, or each row's count times 1 / count.
      if (scale) {
        EXPECT_TENSOR_NEAR(w.grad(), ts::kDouble, {5, 2}, {0, 0, 1, 1, 1, 1, 1, 1, 1, 1}, 1e-12);
      } else {
        EXPECT_TENSOR_NEAR(w.grad(), ts::kDouble, {5, 2}, {0, 0, 3, 3, 1, 1, 2, 2, 1, 1}, 1e-12);
      }
    }
    // Mean (bag sizes 2, 3, 2): row 1 (2 / 2 + 1 / 3) / 3 = 4 / 9, row 2 1 / 3, row 3
    // (1 / 3 + 1 / 2) / 2 = 5 / 12, row 4 1 / 2.
    Tensor w = ts::ones({5, 2}, ts::kDouble).requires_grad_();
    ts::embedding_bag(w, idx, offsets, true, 1).sum().backward();
    EXPECT_TENSOR_NEAR(w.grad(), ts::kDouble, {5, 2},
                       {0, 0, 4.0 / 9, 4.0 / 9, 1.0 / 3, 1.0 / 3, 5.0 / 12, 5.0 / 12, 0.5, 0.5},
                       1e-12);
    // The forward is unchanged.
    const Tensor plain = ts::embedding_bag(ts::ones({5, 2}), idx, offsets, false, 0);
    EXPECT_TENSOR(ts::embedding_bag(ts::ones({5, 2}), idx, offsets, true, 0), ts::kFloat, {3, 2},
                  values(plain));
  });
}

}  // namespace
