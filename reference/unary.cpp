// Reference kernels for unary elementwise ops. See Note [Reference kernels] in common.h.
// Each plain op is one row of kFormulas: a formula in double (floating compute dtypes) and,
// where the op takes integers, one in int64; integer negation wraps through uint64 so that it
// never overflows. gelu and clamp, which have parameters, have kernels of their own.
#include <cmath>
#include <limits>
#include <numbers>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int64_t wrapping_neg(int64_t x) {
  return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
}

// A plain unary op's formulas; UnaryFloat ops have no fi, integer-only ops no fd.
struct UnaryFormula {
  OpId op;
  double (*fd)(double);
  int64_t (*fi)(int64_t) = nullptr;
};

// Every plain unary op of op_list.def (a missing row fails to compile: unary_kernel); see
// Note [Formula tables] in common.h.
constexpr UnaryFormula kFormulas[] = {
    {OpId::neg, [](double x) { return -x; }, wrapping_neg},
    // abs(int8 -128) wraps to -128, as in PyTorch.
    {OpId::abs, [](double x) { return std::fabs(x); },
     [](int64_t x) { return x < 0 ? wrapping_neg(x) : x; }},
    // sign(NaN) is 0 and sign(-0.0) is +0.0 in PyTorch: (0 < x) - (x < 0).
    {OpId::sign, [](double x) -> double { return (0 < x) - (x < 0); },
     [](int64_t x) -> int64_t { return (0 < x) - (x < 0); }},
    {OpId::exp, [](double x) { return std::exp(x); }},
    {OpId::expm1, [](double x) { return std::expm1(x); }},
    {OpId::log, [](double x) { return std::log(x); }},
    {OpId::log1p, [](double x) { return std::log1p(x); }},
    {OpId::sqrt, [](double x) { return std::sqrt(x); }},
    {OpId::rsqrt, [](double x) { return 1.0 / std::sqrt(x); }},
    {OpId::reciprocal, [](double x) { return 1.0 / x; }},
    {OpId::sin, [](double x) { return std::sin(x); }},
    {OpId::tan, [](double x) { return std::tan(x); }},
    {OpId::cos, [](double x) { return std::cos(x); }},
    {OpId::tanh, [](double x) { return std::tanh(x); }},
    {OpId::sigmoid, [](double x) { return 1.0 / (1.0 + std::exp(-x)); }},
    // max(x, 0) keeps NaN and -0.0, as PyTorch's clamp_min(x, 0).
    {OpId::relu, [](double x) { return x < 0 ? 0.0 : x; },
     [](int64_t x) { return x < 0 ? int64_t{0} : x; }},
    {OpId::silu, [](double x) { return x / (1.0 + std::exp(-x)); }},
    {OpId::erf, [](double x) { return std::erf(x); }},
    // The rounding ops are the identity on integers (PyTorch copies them); round is half to
    // even (nearbyint in the default rounding mode), as torch.round.
    {OpId::floor, [](double x) { return std::floor(x); }, [](int64_t x) { return x; }},
    {OpId::ceil, [](double x) { return std::ceil(x); }, [](int64_t x) { return x; }},
    {OpId::round, [](double x) { return std::nearbyint(x); }, [](int64_t x) { return x; }},
    {OpId::trunc, [](double x) { return std::trunc(x); }, [](int64_t x) { return x; }},
    {OpId::isnan, [](double x) -> double { return std::isnan(x); },
     [](int64_t) -> int64_t { return 0; }},
    // NaN is nonzero, hence true: logical_not(NaN) is false.
    {OpId::logical_not, [](double x) -> double { return x == 0; },
     [](int64_t x) -> int64_t { return x == 0; }},
    {OpId::bitwise_not, nullptr, [](int64_t x) { return ~x; }},
};

template <OpId kOp>
void unary_kernel(const KernelCall& c) {
  static constexpr const UnaryFormula* f = find_formula(kFormulas, kOp);
  static_assert(f != nullptr, "a plain unary op of op_list.def has no row in kFormulas");
  formula_kernel<1>(c, f->fd, f->fi);
}

// gelu: the exact form with erf, or the tanh approximation.
void gelu_kernel(const KernelCall& c) {
  const auto integral = [](const int64_t*) -> int64_t {
    TS_ERROR("gelu: reference kernel called with an integral compute dtype");
  };
  if (c.params<GeluParams>().approximate == GeluApproximation::None) {
    elementwise<1>(
        c, [](const double* v) { return v[0] * 0.5 * (1.0 + std::erf(v[0] / std::sqrt(2.0))); },
        integral);
  } else {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    elementwise<1>(
        c,
        [k](const double* v) {
          const double x = v[0];
          return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
        },
        integral);
  }
}

// Note [clamp with NaN]
// clamp is min(max(x, lo), hi): with lo > hi every element becomes hi, as in PyTorch. A NaN
// element or a NaN bound gives NaN, as current PyTorch. ATen 1.13's clamp(x, min=NaN) ignores the
// NaN min ([1, nan, 3] stays so); touchstone follows current PyTorch (issue 14).
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
  // Inputs: self, then the bounds present (min first); see lib/src/ops/unary.cpp.
  const bool has_min = c.params<ClampParams>().has_min;
  const bool has_max = c.params<ClampParams>().has_max;
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
  for_each_plain_op<PlainOp::Unary>([&](auto op) { m.impl(op, kCPU, unary_kernel<op>); });
  m.impl(OpId::gelu, kCPU, gelu_kernel);
  m.impl(OpId::clamp, kCPU, clamp_kernel);
}

}  // namespace ts::reference
