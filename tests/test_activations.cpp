// The activations of issue 16 (leaky_relu, elu, selu, celu, softplus, softsign, hardtanh,
// threshold): values worked by hand from their closed forms, ATen's defaults and constants, the
// switches and kinks, NaN and signed zeros, integers, the errors naming op and argument, and the
// gradients of derivatives.yaml by hand, in the reference and the optimized sets alike.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

// ATen's SELU_ALPHA and SELU_SCALE.
constexpr double kSeluAlpha = 1.6732632423543772;
constexpr double kSeluScale = 1.0507009873554805;

TEST(Activations, LeakyRelu) {
  each_set([] {
    // x for x > 0, else 0.01 x; -0 stays -0 (-0 * 0.01), NaN stays.
    EXPECT_TENSOR(ts::leaky_relu(make(kDouble, {-2, 0, 3, kNaN, -kInf})), kDouble, {5},
                  {-0.02, 0, 3, kNaN, -kInf}, kF64);
    EXPECT_TRUE(signbit_at(ts::leaky_relu(make(kFloat, {-0.0})), 0));
    // float32 multiplies by float(0.01) = 0.00999999977648258: -2 * that, rounded once.
    EXPECT_TENSOR(ts::leaky_relu(make(kFloat, {-2})), kFloat, {1}, {-0.019999999552965164}, 0);
    // A negative slope flips the negative side.
    EXPECT_TENSOR(ts::leaky_relu(make(kFloat, {-2, 2}), -0.25), kFloat, {2}, {0.5, 2}, 0);
    const Tensor y = make(kFloat, {-4, 1});
    EXPECT_TRUE(ts::leaky_relu_(y, 0.5).is_same(y));
    EXPECT_TENSOR(y, kFloat, {2}, {-2, 1}, 0);
    const Tensor out = ts::empty({0}, ts::kBFloat16);
    ts::leaky_relu_out(out, make(kBFloat16, {-8}), 0.5);
    EXPECT_TENSOR(out, kBFloat16, {1}, {-4}, 0);
  });
}

TEST(Activations, EluSeluCelu) {
  each_set([] {
    // elu(-1) = e^-1 - 1; elu(x) = x for x > 0.
    EXPECT_TENSOR(ts::elu(make(kDouble, {-1, 2, 0, -kInf, kNaN})), kDouble, {5},
                  {-0.6321205588285577, 2, 0, -1, kNaN}, kF64);
    EXPECT_TENSOR(ts::elu(make(kFloat, {-1, 2})), kFloat, {2}, {-0.6321205588285577, 2}, kF32);
    // alpha 0.5, scale 2, input_scale 1.5: 0.5 * 2 * (e^-1.5 - 1) at -1, 2 * 1 at 1.
    EXPECT_TENSOR(ts::elu(make(kDouble, {-1, 1}), 0.5, 2, 1.5), kDouble, {2},
                  {-0.7768698398515702, 2}, kF64);
    // selu(-1) = scale * alpha * (e^-1 - 1), selu(1) = scale, with ATen's constants.
    EXPECT_TENSOR(ts::selu(make(kDouble, {-1, 1})), kDouble, {2},
                  {kSeluScale * kSeluAlpha * -0.6321205588285577, kSeluScale}, kF64);
    EXPECT_TENSOR(ts::selu(make(kDouble, {-1})), kDouble, {1}, {-1.1113307378125625}, kF64);
    // celu(x, alpha) = alpha * (exp(x / alpha) - 1) below 0: 2 (e^-0.5 - 1) at -1, alpha 2.
    EXPECT_TENSOR(ts::celu(make(kDouble, {-1, 3}), 2.0), kDouble, {2}, {-0.7869386805747332, 3},
                  kF64);
    EXPECT_TENSOR(ts::celu(make(kFloat, {-1})), kFloat, {1}, {-0.6321205588285577}, kF32);
    // A negative alpha grows exponentially below 0: -1.5 expm1(x q) with q = float(1 / -1.5) =
    // -0.6666666865348816 (libm in double). x q rounded to float32 alone put -100 3.2e-6 off
    // (Note [elu's exponent in two floats]).
    EXPECT_TENSOR(ts::celu(make(kFloat, {-100, -60, -7}), -1.5), kFloat, {3},
                  {-1.3460388105130584e+29, -3.530783211574373e+17, -158.01403528206066}, 5e-7);
    // The in-place forms return self.
    const Tensor y = make(kFloat, {-1, 1});
    EXPECT_TRUE(ts::selu_(y).is_same(y));
    EXPECT_TENSOR(y, kFloat, {2}, {kSeluScale * kSeluAlpha * -0.6321205588285577, kSeluScale},
                  kF32);
    const Tensor z = make(kDouble, {-1});
    EXPECT_TRUE(ts::celu_(z, 2.0).is_same(z));
    EXPECT_TENSOR(z, kDouble, {1}, {-0.7869386805747332}, kF64);
    const Tensor w = make(kDouble, {-1});
    EXPECT_TRUE(ts::elu_(w).is_same(w));
    EXPECT_TENSOR(w, kDouble, {1}, {-0.6321205588285577}, kF64);
  });
}

TEST(Activations, SoftplusSwitchesToXAboveTheThreshold) {
  each_set([] {
    // ln 2 at 0, ln(1 + e) at 1; at 20 beta x = 20 is not above the threshold: ln(1 + e^20).
    EXPECT_TENSOR(ts::softplus(make(kDouble, {0, 1, 20, 21, -50, kNaN})), kDouble, {6},
                  {std::numbers::ln2, 1.3132616875182228, 20.000000002061153, 21,
                   1.9287498479639178e-22, kNaN},
                  kF64);
    EXPECT_TENSOR(ts::softplus(make(kFloat, {0, 1})), kFloat, {2},
                  {std::numbers::ln2, 1.3132616875182228}, kF32);
    // beta 2, threshold 3: ln(1 + e^2) / 2 at 1; 2 * 2 > 3 at 2, so x itself.
    EXPECT_TENSOR(ts::softplus(make(kDouble, {1, 2}), 2, 3), kDouble, {2}, {1.0634640055214863, 2},
                  kF64);
    const Tensor out = ts::empty({0}, ts::kFloat);
    ts::softplus_out(out, make(kFloat, {100}));
    EXPECT_TENSOR(out, kFloat, {1}, {100}, 0);
  });
}

TEST(Activations, Softsign) {
  each_set([] {
    // x / (1 + |x|); integers divide into the default float dtype.
    EXPECT_TENSOR(ts::softsign(make(kDouble, {3, -1, 0})), kDouble, {3}, {0.75, -0.5, 0}, 0);
    EXPECT_TENSOR(ts::softsign(make(kLong, {2})), kFloat, {1}, {2.0 / 3}, kF32);
  });
}

TEST(Activations, HardtanhIsAClampOfItsBounds) {
  each_set([] {
    EXPECT_TENSOR(ts::hardtanh(make(kFloat, {-2, -1, 0.5, 1, 3, kNaN})), kFloat, {6},
                  {-1, -1, 0.5, 1, 1, kNaN}, 0);
    EXPECT_TENSOR(ts::hardtanh(make(kDouble, {-2, 5}), -0.5, 2), kDouble, {2}, {-0.5, 2}, 0);
    // Integers keep their dtype, the bounds truncated (ATen's hardtanh_out).
    EXPECT_TENSOR(ts::hardtanh(make(kLong, {-5, 0, 5})), kLong, {3}, {-1, 0, 1}, 0);
    EXPECT_TENSOR(ts::hardtanh(make(kByte, {0, 9}), 0.5, 2.5), kByte, {2}, {0, 2}, 0);
    // -0.5 truncates to 0 before uint8's check for negative limits, as in ATen.
    EXPECT_TENSOR(ts::hardtanh(make(kByte, {0, 9}), -0.5, 2), kByte, {2}, {0, 2}, 0);
    const Tensor y = make(kFloat, {4});
    EXPECT_TRUE(ts::hardtanh_(y).is_same(y));
    EXPECT_TENSOR(y, kFloat, {1}, {1}, 0);
  });
}

TEST(Activations, Threshold) {
  each_set([] {
    // value where x <= threshold (the threshold itself included), else x; NaN stays.
    EXPECT_TENSOR(ts::threshold(make(kFloat, {0.5, 0.75, -1, kNaN}), 0.5, -2), kFloat, {4},
                  {-2, 0.75, -2, kNaN}, 0);
    EXPECT_TENSOR(ts::threshold(make(kInt, {0, 1, 2}), 1, 9), kInt, {3}, {9, 9, 2}, 0);
    // out= may have another dtype the result casts to safely (ATen's TensorIterator op).
    const Tensor wide = ts::empty({0}, ts::kDouble);
    ts::threshold_out(wide, make(kInt, {0, 1, 2}), 1, 9);
    EXPECT_TENSOR(wide, kDouble, {3}, {9, 9, 2}, 0);
    const Tensor y = make(kDouble, {1, 3});
    EXPECT_TRUE(ts::threshold_(y, 2, 0).is_same(y));
    EXPECT_TENSOR(y, kDouble, {2}, {0, 3}, 0);
    const Tensor out = ts::empty({0}, ts::kHalf);
    ts::threshold_out(out, make(kHalf, {1, 3}), 2, 0.5);
    EXPECT_TENSOR(out, kHalf, {2}, {0.5, 3}, 0);
  });
}

TEST(Activations, ErrorsNameTheOpAndTheArgument) {
  EXPECT_ERROR(ts::leaky_relu(make(kLong, {1})), "leaky_relu: not implemented for dtype int64");
  EXPECT_ERROR(ts::elu_(make(kInt, {1})), "elu_: not implemented for dtype int32");
  EXPECT_ERROR(ts::selu(make(kLong, {1})), "not implemented for dtype int64");
  EXPECT_ERROR(ts::softplus(make(kBool, {1})), "softplus: not implemented for dtype bool");
  EXPECT_ERROR(ts::hardtanh(make(kBool, {1})), "hardtanh: not implemented for dtype bool");
  EXPECT_ERROR(ts::celu(make(kFloat, {1}), 0), "celu: alpha cannot be 0 (argument 'alpha')");
  EXPECT_ERROR(ts::celu_(make(kFloat, {1}), 0.0), "celu_: alpha cannot be 0 (argument 'alpha')");
  EXPECT_ERROR(ts::hardtanh(make(kByte, {1})),
               "hardtanh: cannot do hardtanh on an unsigned type with negative limits");
  EXPECT_ERROR(ts::threshold(make(kChar, {1}), 1000, 0),
               "threshold: value cannot be converted to type int8 without overflow (argument "
               "'threshold')");
  EXPECT_ERROR(ts::elu(make(kFloat, {1}), 1e300),
               "elu: value cannot be converted to type float32 without overflow (argument "
               "'alpha')");
  EXPECT_ERROR(ts::leaky_relu_out(ts::empty({0}, ts::kDouble), make(kFloat, {1})),
               "leaky_relu: Found dtype float64 but expected float32 (argument 'out')");
}

TEST(Activations, GradientsByHand) {
  each_set([] {
    // leaky_relu: 1 above 0, the slope below and at 0 (nondiff_points.def).
    const auto lrelu = [](const Tensor& x) { return ts::leaky_relu(x, 0.25); };
    EXPECT_EQ(grad_at(lrelu, 3), 1);
    EXPECT_EQ(grad_at(lrelu, -2), 0.25);
    EXPECT_EQ(grad_at(lrelu, 0), 0.25);
    // elu: alpha * scale * input_scale * exp(input_scale x) at and below 0, scale above.
    const auto elu = [](const Tensor& x) { return ts::elu(x, 0.5, 2, 1.5); };
    EXPECT_NEAR(grad_at(elu, -1), 0.33469524022264474, 1e-15);
    EXPECT_EQ(grad_at(elu, 0), 1.5);
    EXPECT_EQ(grad_at(elu, 1), 2);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::elu(x); }, -1), 0.36787944117144233,
                1e-15);
    // selu: scale * alpha * e^x below 0; celu (alpha 2): e^(x / 2).
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::selu(x); }, -1), 0.646768603034814, 1e-14);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::selu(x); }, 1), kSeluScale, 1e-15);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::celu(x, 2.0); }, -1), 0.6065306597126334,
                1e-15);
    // softplus: sigmoid(beta x) below the switch, 1 above it.
    const auto sp = [](const Tensor& x) { return ts::softplus(x); };
    EXPECT_EQ(grad_at(sp, 0), 0.5);
    EXPECT_NEAR(grad_at(sp, 1), 0.7310585786300049, 1e-15);
    EXPECT_EQ(grad_at(sp, 21), 1);
    // softsign: 1 / (1 + |x|)^2.
    const auto ss = [](const Tensor& x) { return ts::softsign(x); };
    EXPECT_NEAR(grad_at(ss, 1), 0.25, 1e-15);
    EXPECT_NEAR(grad_at(ss, -3), 1.0 / 16, 1e-15);
    // hardtanh: 1 strictly inside the bounds, 0 at and beyond them.
    const auto ht = [](const Tensor& x) { return ts::hardtanh(x); };
    EXPECT_EQ(grad_at(ht, 0.5), 1);
    EXPECT_EQ(grad_at(ht, 1), 0);
    EXPECT_EQ(grad_at(ht, -1), 0);
    EXPECT_EQ(grad_at(ht, 2), 0);
    // threshold: 0 at and below the threshold, 1 above.
    const auto th = [](const Tensor& x) { return ts::threshold(x, 0.5, -2); };
    EXPECT_EQ(grad_at(th, 0.5), 0);
    EXPECT_EQ(grad_at(th, 0.75), 1);
  });
}

// gradcheck and gradgradcheck (float64) away from the kinks and switches, functional and in
// place on a non-leaf.
TEST(Activations, Gradchecks) {
  using Op = std::function<Tensor(const Tensor&)>;
  using InPlace = std::function<void(const Tensor&)>;
  struct Case {
    const char* name;
    Op op;
    InPlace in_place;
  };
  const std::vector<Case> cases = {
      {"leaky_relu", [](const Tensor& x) { return ts::leaky_relu(x, 0.2); },
       [](const Tensor& y) { ts::leaky_relu_(y, 0.2); }},
      {"elu", [](const Tensor& x) { return ts::elu(x, 0.5, 2, 1.5); },
       [](const Tensor& y) { ts::elu_(y, 0.5, 2, 1.5); }},
      {"selu", [](const Tensor& x) { return ts::selu(x); }, [](const Tensor& y) { ts::selu_(y); }},
      {"celu", [](const Tensor& x) { return ts::celu(x, 2.0); },
       [](const Tensor& y) { ts::celu_(y, 2.0); }},
      {"softplus", [](const Tensor& x) { return ts::softplus(x, 2, 3); }, nullptr},
      {"softsign", [](const Tensor& x) { return ts::softsign(x); }, nullptr},
      {"hardtanh", [](const Tensor& x) { return ts::hardtanh(x); },
       [](const Tensor& y) { ts::hardtanh_(y); }},
      {"threshold", [](const Tensor& x) { return ts::threshold(x, 0.5, -2); },
       [](const Tensor& y) { ts::threshold_(y, 0.5, -2); }},
  };
  each_set([&] {
    for (const Case& c : cases) {
      SCOPED_TRACE(c.name);
      const Tensor x = ts::tensor({-2.3, -0.7, -0.2, 0.3, 0.8, 1.9}, kDouble).view({2, 3});
      // x's values through a transposed layout: a leaf of x's shape with swapped strides.
      const Tensor strided = x.t().contiguous().t();
      for (const Tensor& base : {x, strided}) {
        const Tensor in = base.detach().requires_grad_();
        ts::autograd_test::expect_gradchecks(
            [&](const std::vector<Tensor>& v) -> std::vector<Tensor> { return {c.op(v[0])}; },
            {in});
      }
      if (!c.in_place) continue;
      ts::autograd_test::expect_gradchecks(
          [&](const std::vector<Tensor>& v) -> std::vector<Tensor> {
            Tensor y = v[0] * 1;
            c.in_place(y);
            return {y};
          },
          {x.detach().requires_grad_()});
    }
  });
}

// In-place forms on a non-leaf: the saved input is cloned before the kernel overwrites it.
TEST(Activations, InPlaceGradients) {
  each_set([] {
    const Tensor x = make(kDouble, {-1, 2}).requires_grad_();
    Tensor y = x * 1;
    ts::elu_(y);
    y.sum().backward();
    EXPECT_TENSOR(x.grad(), kDouble, {2}, {0.36787944117144233, 1}, 1e-15);
    const Tensor u = make(kDouble, {-2, 0.5}).requires_grad_();
    Tensor v = u * 1;
    ts::hardtanh_(v);
    v.sum().backward();
    EXPECT_TENSOR(u.grad(), kDouble, {2}, {0, 1}, 0);
  });
}

}  // namespace
