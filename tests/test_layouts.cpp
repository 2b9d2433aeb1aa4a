// Layouts as ATen's (issue 14): an empty out= tensor the op resizes, the elementwise losses with
// reduction none and the gradients for a transposed input. Every expected stride was printed by
// libtorch 1.13 for the same call (x = arange(1, 7).reshape(2, 3) / 7, xt = x.t(): [3, 2] with
// strides [1, 3]); values are hand-computed.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "autograd_util.h"
#include "touchstone/touchstone.h"

namespace {

using ts::IntArrayRef;
using ts::Tensor;
using ts::autograd_test::values;
using Strides = std::vector<int64_t>;

// arange(1, n + 1) / 7 in float32, shaped `shape`.
Tensor mk(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return ts::arange(1, n + 1, 1, ts::kFloat).reshape(shape).div(7);
}

Strides strides(const Tensor& t) {
  return Strides(t.strides().begin(), t.strides().end());
}

// The strides an empty float32 out= tensor gets from `f`.
Strides out_strides(const std::function<void(const Tensor&)>& f) {
  const Tensor out = ts::empty({0}, ts::kFloat);
  f(out);
  EXPECT_EQ(out.sizes(), IntArrayRef({3, 2}));
  return strides(out);
}

// t's values (row-major) within float32's rounding of `expected`.
void expect_values(const Tensor& t, const std::vector<double>& expected) {
  const std::vector<double> v = values(t);
  ASSERT_EQ(v.size(), expected.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], expected[i], 1e-6) << "element " << i;
}

const Strides kTransposed = {1, 3};  // xt's layout
const Strides kContiguous = {2, 1};

TEST(Layouts, ResizedOutTakesTheInputsLayoutForTensorIteratorOps) {
  const Tensor xt = mk({2, 3}).t(), yt = mk({2, 3}).t(), c = mk({3, 2});
  // libtorch 1.13: each gives out strides [1, 3].
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::neg_out(o, xt); }), kTransposed);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::exp_out(o, xt); }), kTransposed);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::gelu_out(o, xt); }), kTransposed);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::clamp_out(o, xt, -1, 1); }), kTransposed);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::add_out(o, xt, c); }), kTransposed);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::add_out(o, xt, mk({2})); }), kTransposed);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::pow_out(o, xt, yt); }), kTransposed);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::where_out(o, xt.gt(0.5), xt, yt); }),
            kTransposed);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::lerp_out(o, xt, yt, yt); }), kTransposed);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::addcmul_out(o, xt, yt, yt); }), kTransposed);
  // The first operand with an opinion decides (libtorch 1.13: add_out(c, xt) gives [2, 1]).
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::add_out(o, c, xt); }), kContiguous);
  const Tensor b = ts::empty({0}, ts::kBool);
  ts::eq_out(b, xt, yt);
  EXPECT_EQ(strides(b), kTransposed);
  // Values are unchanged: out[i][j] = -x[j][i] = -(3j + i + 1) / 7.
  const Tensor n = ts::empty({0}, ts::kFloat);
  ts::neg_out(n, xt);
  EXPECT_FLOAT_EQ(n[2][1].item<float>(), -6.0f / 7);
  EXPECT_FLOAT_EQ(n[0][1].item<float>(), -4.0f / 7);
}

TEST(Layouts, OutOfTheRightShapeAndPlainResizeOpsStayAsTheyAre) {
  const Tensor xt = mk({2, 3}).t();
  // libtorch 1.13: an out= of the result's shape keeps its strides [2, 1].
  const Tensor sized = ts::empty({3, 2}, ts::kFloat);
  ts::neg_out(sized, xt);
  EXPECT_EQ(strides(sized), kContiguous);
  // Ops ATen resizes with resize_output: contiguous [2, 1] in libtorch 1.13.
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::cumsum_out(o, xt, 0); }), kContiguous);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::softmax_out(o, xt, 0); }), kContiguous);
  EXPECT_EQ(out_strides([&](const Tensor& o) { ts::mm_out(o, xt, mk({2, 2})); }), kContiguous);
  EXPECT_EQ(out_strides(
                [&](const Tensor& o) { ts::index_select_out(o, xt, 0, ts::arange(3, ts::kLong)); }),
            kContiguous);
  // sum over dim 1 of a [4, 3, 2] tensor transposed from [2, 3, 4]: [4, 2] strides [2, 1].
  const Tensor s = ts::empty({0}, ts::kFloat);
  ts::sum_out(s, mk({2, 3, 4}).transpose(0, 2), {1});
  EXPECT_EQ(strides(s), kContiguous);
}

TEST(Layouts, MseLossWithReductionNoneKeepsTheInputsLayout) {
  const Tensor xt = mk({2, 3}).t();
  // libtorch 1.13: mse_loss(xt, yt or c, none) has strides [1, 3].
  const Tensor r = ts::mse_loss(xt, mk({2, 3}).t() * 2, ts::Reduction::None);
  EXPECT_EQ(strides(r), kTransposed);
  EXPECT_EQ(strides(ts::mse_loss(xt, mk({3, 2}), ts::Reduction::None)), kTransposed);
  // (x - 2x)^2 = x^2; r[2][1] = (6/7)^2.
  EXPECT_FLOAT_EQ(r[2][1].item<float>(), 36.0f / 49);
  EXPECT_EQ(ts::mse_loss(xt, mk({3, 2})).dim(), 0);
}

// The gradient autograd::grad gives t = l.t() (l a [2, 3] leaf) for sum(f(t)): the gradient as
// the formula makes it, before AccumulateGrad's layout contract.
Tensor grad_of_transposed(const std::function<Tensor(const Tensor&)>& f) {
  const Tensor l = mk({2, 3}).requires_grad_();
  const Tensor t = l.t();
  return ts::autograd::grad({f(t).sum()}, {t})[0];
}

TEST(Layouts, GradientsForATransposedInputAsATensFormulas) {
  // libtorch 1.13 strides of d sum(f(t)) / dt, per family.
  const Tensor m = mk({2, 4});
  const Tensor mm = grad_of_transposed([&](const Tensor& t) { return ts::mm(t, m); });
  EXPECT_EQ(strides(mm), kTransposed);  // mm_mat1_backward: column-major stays column-major
  // grad = ones(3, 4) @ m.t(): every row is m's row sums, 10/7 and 26/7.
  expect_values(mm, {10.0 / 7, 26.0 / 7, 10.0 / 7, 26.0 / 7, 10.0 / 7, 26.0 / 7});
  const Tensor mm2 = grad_of_transposed([](const Tensor& t) { return ts::mm(mk({4, 3}), t); });
  EXPECT_EQ(strides(mm2), kTransposed);  // mm_mat2_backward
  // grad = mk(4, 3).t() @ ones(4, 2): column sums 22/7, 26/7, 30/7 in both columns.
  expect_values(mm2, {22.0 / 7, 22.0 / 7, 26.0 / 7, 26.0 / 7, 30.0 / 7, 30.0 / 7});
  EXPECT_EQ(strides(grad_of_transposed([](const Tensor& t) {
              return ts::linear(t, mk({4, 2}));
            })),
            kTransposed);
  EXPECT_EQ(strides(grad_of_transposed([](const Tensor& t) {
              return ts::addmm(mk({3, 4}), t, mk({2, 4}));
            })),
            kTransposed);
  const Tensor pw = grad_of_transposed([](const Tensor& t) { return t.pow(2); });
  EXPECT_EQ(strides(pw), kTransposed);
  EXPECT_FLOAT_EQ(pw[2][1].item<float>(), 12.0f / 7);  // 2 * t[2][1] = 2 * 6/7
  const Tensor mx = grad_of_transposed([](const Tensor& t) { return ts::maximum(t, mk({3, 2})); });
  EXPECT_EQ(strides(mx), kTransposed);
  EXPECT_EQ(values(mx), (std::vector<double>{0.5, 1, 0, 1, 0, 0.5}));  // t vs (2i + j + 1) / 7
  EXPECT_EQ(strides(grad_of_transposed([](const Tensor& t) { return ts::amax(t, {0}); })),
            kTransposed);
  EXPECT_EQ(strides(grad_of_transposed([](const Tensor& t) { return ts::var(t, {0}); })),
            kTransposed);
  EXPECT_EQ(strides(grad_of_transposed([](const Tensor& t) { return t.sigmoid(); })), kTransposed);
  // Formulas that give a contiguous gradient in libtorch 1.13 (strides [2, 1]).
  const Tensor at2 = grad_of_transposed([](const Tensor& t) { return ts::atan2(t, mk({3, 2})); });
  EXPECT_EQ(strides(at2), kContiguous);  // grad * other * recip: grad * other is contiguous
  EXPECT_FLOAT_EQ(at2[0][0].item<float>(), 3.5f);  // other / (self^2 + other^2) at 1/7, 1/7
  EXPECT_EQ(strides(grad_of_transposed([](const Tensor& t) { return ts::max(t); })), kContiguous);
  const Tensor mse = grad_of_transposed([](const Tensor& t) {
    return ts::mse_loss(t, mk({3, 2}) * 0);
  });
  EXPECT_EQ(strides(mse), kContiguous);
  EXPECT_FLOAT_EQ(mse[2][1].item<float>(), 2 * (6.0f / 7) / 6);  // 2 * t / numel
  EXPECT_EQ(strides(grad_of_transposed([](const Tensor& t) { return ts::softmax(t, 0); })),
            kContiguous);
  EXPECT_EQ(strides(grad_of_transposed([](const Tensor& t) { return ts::layer_norm(t, {2}); })),
            kContiguous);
  EXPECT_EQ(strides(grad_of_transposed(
                [](const Tensor& t) { return ts::index_select(t, 0, ts::arange(2, ts::kLong)); })),
            kContiguous);
  EXPECT_EQ(strides(grad_of_transposed([](const Tensor& t) { return t.neg(); })), kContiguous);
}

}  // namespace
