// Reference kernels for unary elementwise ops. See Note [Reference kernels] in common.h.
// Each op is one formula in double (floating compute dtypes) and, where the op takes integers,
// one in int64; integer negation wraps through uint64 so that it never overflows.
#include <cmath>
#include <limits>
#include <numbers>

#include "common.h"

namespace ts::reference {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// fd(x) for a floating compute dtype, fi(x) for an integral (or bool) one.
template <typename FD, typename FI>
void unary(const KernelCall& c, FD fd, FI fi) {
  elementwise<1>(
      c, [&](const double* v) { return fd(v[0]); }, [&](const int64_t* v) { return fi(v[0]); });
}

// Ops whose meta computes integer inputs in float: the integral path can never run.
template <typename FD>
void unary_float(const KernelCall& c, FD fd) {
  unary(c, fd, [&](int64_t) -> int64_t {
    TS_ERROR(op_info(c.op).name, ": reference kernel called with an integral compute dtype");
  });
}

int64_t wrapping_neg(int64_t x) {
  return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
}

void neg_kernel(const KernelCall& c) {
  unary(
      c, [](double x) { return -x; }, wrapping_neg);
}

void abs_kernel(const KernelCall& c) {
  // abs(int8 -128) wraps to -128, as in PyTorch.
  unary(
      c, [](double x) { return std::fabs(x); },
      [](int64_t x) { return x < 0 ? wrapping_neg(x) : x; });
}

void sign_kernel(const KernelCall& c) {
  // sign(NaN) is 0 and sign(-0.0) is +0.0 in PyTorch: (0 < x) - (x < 0).
  unary(
      c, [](double x) { return static_cast<double>((0 < x) - (x < 0)); },
      [](int64_t x) -> int64_t { return (0 < x) - (x < 0); });
}

void exp_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return std::exp(x); });
}
void expm1_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return std::expm1(x); });
}
void log_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return std::log(x); });
}
void log1p_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return std::log1p(x); });
}
void sqrt_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return std::sqrt(x); });
}
void rsqrt_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return 1.0 / std::sqrt(x); });
}
void reciprocal_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return 1.0 / x; });
}
void sin_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return std::sin(x); });
}
void cos_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return std::cos(x); });
}
void tanh_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return std::tanh(x); });
}
void sigmoid_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
}
void erf_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return std::erf(x); });
}

void relu_kernel(const KernelCall& c) {
  // max(x, 0) keeps NaN and -0.0, as PyTorch's clamp_min(x, 0).
  unary(
      c, [](double x) { return x < 0 ? 0.0 : x; }, [](int64_t x) { return x < 0 ? 0 : x; });
}

void gelu_kernel(const KernelCall& c) {
  // mode 0: the exact form with erf; mode 1: the tanh approximation.
  if (c.p.mode == 0) {
    unary_float(c, [](double x) { return x * 0.5 * (1.0 + std::erf(x / std::sqrt(2.0))); });
  } else {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    unary_float(
        c, [k](double x) { return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x))); });
  }
}

void silu_kernel(const KernelCall& c) {
  unary_float(c, [](double x) { return x / (1.0 + std::exp(-x)); });
}

// Rounding ops are the identity on integers (PyTorch copies them).
void floor_kernel(const KernelCall& c) {
  unary(
      c, [](double x) { return std::floor(x); }, [](int64_t x) { return x; });
}
void ceil_kernel(const KernelCall& c) {
  unary(
      c, [](double x) { return std::ceil(x); }, [](int64_t x) { return x; });
}
void round_kernel(const KernelCall& c) {
  // nearbyint in the default rounding mode rounds half to even, as torch.round.
  unary(
      c, [](double x) { return std::nearbyint(x); }, [](int64_t x) { return x; });
}
void trunc_kernel(const KernelCall& c) {
  unary(
      c, [](double x) { return std::trunc(x); }, [](int64_t x) { return x; });
}

void isnan_kernel(const KernelCall& c) {
  unary(
      c, [](double x) { return std::isnan(x); }, [](int64_t) { return false; });
}

void logical_not_kernel(const KernelCall& c) {
  // NaN is nonzero, hence true: logical_not(NaN) is false.
  unary(
      c, [](double x) { return x == 0; }, [](int64_t x) { return x == 0; });
}

void bitwise_not_kernel(const KernelCall& c) {
  // On bool, bitwise_not is logical not (~true would be -2, which is also "true").
  const bool is_bool = c.p.compute_dtype == kBool;
  unary(
      c,
      [&](double) -> double {
        TS_ERROR("bitwise_not: reference kernel called with a floating compute dtype");
      },
      [is_bool](int64_t x) { return is_bool ? static_cast<int64_t>(x == 0) : ~x; });
}

// Note [clamp with NaN]
// clamp is min(max(x, lo), hi): with lo > hi every element becomes hi, as in PyTorch. A NaN
// element or a NaN bound gives NaN (PyTorch's vectorized clamp propagates NaN).
double clamp_min(double x, double lo) {
  return std::isnan(lo) ? kNaN : (x < lo ? lo : x);
}
double clamp_max(double x, double hi) {
  return std::isnan(hi) ? kNaN : (x > hi ? hi : x);
}
int64_t clamp_min(int64_t x, int64_t lo) {
  return x < lo ? lo : x;
}
int64_t clamp_max(int64_t x, int64_t hi) {
  return x > hi ? hi : x;
}

void clamp_kernel(const KernelCall& c) {
  // Inputs: self, then min (mode bit 0), then max (mode bit 1); see lib/src/ops/unary.cpp.
  const bool has_min = (c.p.mode & 1) != 0;
  const bool has_max = (c.p.mode & 2) != 0;
  const auto f = [&](const auto* v) {
    auto r = v[0];
    if (has_min) r = clamp_min(r, v[1]);
    if (has_max) r = clamp_max(r, v[has_min ? 2 : 1]);
    return r;
  };
  if (has_min && has_max) {
    elementwise<3>(c, f, f);
  } else {
    elementwise<2>(c, f, f);
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, unary) {
  // The dtypes are the compute dtypes each op's meta allows (lib/src/ops/unary.cpp), which are
  // PyTorch's CPU dtypes; ops that promote integers to float only ever compute in floating.
  const DTypeSet all = DTypeSet::all();
  const DTypeSet no_bool = all - DTypeSet{kBool};
  const DTypeSet floating = DTypeSet::floating();
  const DTypeSet real = DTypeSet::integral(false) | floating;
  m.impl(OpId::neg, kCPU, no_bool, neg_kernel);
  m.impl(OpId::abs, kCPU, no_bool, abs_kernel);
  m.impl(OpId::sign, kCPU, all, sign_kernel);
  m.impl(OpId::exp, kCPU, floating, exp_kernel);
  m.impl(OpId::expm1, kCPU, floating, expm1_kernel);
  m.impl(OpId::log, kCPU, floating, log_kernel);
  m.impl(OpId::log1p, kCPU, floating, log1p_kernel);
  m.impl(OpId::sqrt, kCPU, floating, sqrt_kernel);
  m.impl(OpId::rsqrt, kCPU, floating, rsqrt_kernel);
  m.impl(OpId::reciprocal, kCPU, floating, reciprocal_kernel);
  m.impl(OpId::sin, kCPU, floating, sin_kernel);
  m.impl(OpId::cos, kCPU, floating, cos_kernel);
  m.impl(OpId::tanh, kCPU, floating, tanh_kernel);
  m.impl(OpId::sigmoid, kCPU, floating, sigmoid_kernel);
  m.impl(OpId::relu, kCPU, no_bool, relu_kernel);
  m.impl(OpId::gelu, kCPU, floating, gelu_kernel);
  m.impl(OpId::silu, kCPU, floating, silu_kernel);
  m.impl(OpId::erf, kCPU, floating, erf_kernel);
  m.impl(OpId::floor, kCPU, real, floor_kernel);
  m.impl(OpId::ceil, kCPU, real, ceil_kernel);
  m.impl(OpId::round, kCPU, real, round_kernel);
  m.impl(OpId::trunc, kCPU, real, trunc_kernel);
  m.impl(OpId::isnan, kCPU, all, isnan_kernel);
  m.impl(OpId::logical_not, kCPU, all, logical_not_kernel);
  m.impl(OpId::bitwise_not, kCPU, DTypeSet::integral(true), bitwise_not_kernel);
  m.impl(OpId::clamp, kCPU, no_bool, clamp_kernel);
}

}  // namespace ts::reference
