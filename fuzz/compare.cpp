// Value comparison with per-dtype and per-statement tolerances (Note [Fuzz tolerances]).
#include "fuzz/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "fuzz/values.h"

namespace ts::fuzz {

Tolerance dtype_tolerance(ScalarType dtype) {
  switch (dtype) {
    case kHalf:
      return {1e-3, 1e-5};
    case kBFloat16:
      return {1.6e-2, 1e-5};
    case kFloat:
      return {1.3e-6, 1e-5};
    case kDouble:
      return {1e-7, 1e-7};
    default:
      return {0, 0};
  }
}

Magnitude magnitude(const Tensor& t) {
  Magnitude m;
  // A huge (expanded) view is not walked; its magnitude counts as 0.
  if (!t.defined() || t.numel() > (int64_t{1} << 16)) return m;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double v = load_double(t, i);
    if (std::isfinite(v)) {
      m.max_abs = std::max(m.max_abs, std::fabs(v));
    } else {
      m.nonfinite = true;
    }
  }
  return m;
}

namespace {

double floating_max(ScalarType t) {
  switch (t) {
    case kHalf:
      return 65504.0;
    case kBFloat16:
    case kFloat:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::max();
  }
}

}  // namespace

namespace {

double layer_norm_eps(const Stmt& stmt) {
  for (size_t k = 0; k < stmt.args.size(); ++k) {
    if (stmt.spec->params[k].name == "eps" && stmt.args[k].kind == Value::Kind::Real) {
      return stmt.args[k].d;
    }
  }
  return 1e-5;
}

// The product of the statement's scalar factors (alpha, beta, value, a scalar weight), at least
// 1 each; `nonfinite` is set when one is not finite.
double scalar_scale(const Stmt& stmt, bool& nonfinite) {
  double scale = 1;
  for (size_t k = 0; k < stmt.args.size(); ++k) {
    const ArgKind kind = stmt.spec->params[k].kind;
    const bool scalar =
        kind == ArgKind::Scalar || kind == ArgKind::OptScalar || kind == ArgKind::TensorOrScalar;
    if (!scalar || !stmt.args[k].is_number()) continue;
    const double v = std::fabs(stmt.args[k].to_scalar().to_double());
    if (std::isfinite(v)) {
      scale *= std::max(1.0, v);
    } else {
      nonfinite = true;
    }
  }
  return scale;
}

// a + alpha * b, lerp, addcmul: terms that cancel leave their rounding errors behind. A binary
// op may differ by rtol times the sum of its inputs' magnitudes, a ternary one by rtol times
// that sum plus their product, each times the scalar factors.
Tolerance cancellation_tolerance(const Stmt& stmt, const std::vector<Tensor>& inputs,
                                 Tolerance tol) {
  const std::string& family = stmt.spec->family;
  if (family != "binary" && family != "ternary") return tol;
  double sum = 0, product = 1;
  for (const Tensor& t : inputs) {
    if (t.dtype() == kBool) continue;
    const double m = magnitude(t).max_abs;
    sum += m;
    product *= std::max(1.0, m);
  }
  bool nonfinite = false;  // a non-finite factor: the non-finite check covers it
  const double scale = scalar_scale(stmt, nonfinite);
  const double terms = family == "binary" ? sum : sum + product;
  tol.atol = std::max(tol.atol, tol.rtol * terms * scale);
  return tol;
}

}  // namespace

Tolerance statement_tolerance(const Stmt& stmt, const std::vector<Tensor>& args,
                              ScalarType result_dtype) {
  Tolerance tol = dtype_tolerance(result_dtype);
  if (!is_floating_type(result_dtype)) return tol;
  // The inputs: the tensor arguments after the out= ones (in-place: self is an input).
  const size_t outs = static_cast<size_t>(stmt.spec->num_outs);
  std::vector<Tensor> inputs;
  for (size_t k = std::min(outs, args.size()); k < args.size(); ++k) {
    if (args[k].defined()) inputs.push_back(args[k]);
  }
  if ((stmt.spec->flags & (kInPlace | kOut)) && !inputs.empty()) {
    // A result computed in a narrower dtype than the tensor it is written to (float32 into a
    // float64 out=) carries the narrower dtype's rounding; integers compute in float32.
    ScalarType compute = result_type(inputs);
    if (!is_floating_type(compute)) compute = kDefaultDtype;
    for (size_t k = 0; k < stmt.args.size(); ++k) {  // an explicit dtype= computes in it
      if (stmt.spec->params[k].name == "dtype" && stmt.args[k].kind == Value::Kind::Dtype &&
          is_floating_type(stmt.args[k].dtype)) {
        compute = stmt.args[k].dtype;
      }
    }
    const Tolerance c = dtype_tolerance(compute);
    if (c.rtol > tol.rtol) tol = c;
  }
  for (const Tensor& t : inputs) {
    if (t.defined() && is_floating_type(t.dtype()) &&
        magnitude(t).max_abs > floating_max(t.dtype()) / 16) {
      tol.nonfinite_ok = true;  // near overflow: one rounding (FMA) or two decide inf or finite
    }
  }
  if (!(stmt.spec->flags & kAccumulates)) return cancellation_tolerance(stmt, inputs, tol);
  const std::string& op = stmt.spec->name;
  double n = 1, term = 1, largest = 1;
  bool nonfinite = false;
  for (const Tensor& t : inputs) {
    if (!t.defined()) continue;
    n = std::max(n, static_cast<double>(t.numel()));
    const Magnitude m = magnitude(t);
    nonfinite |= m.nonfinite;
    term *= std::max(1.0, m.max_abs);  // integers too: a sum(dtype=float32) converts them
    largest = std::max(largest, m.max_abs);
  }
  term *= scalar_scale(stmt, nonfinite);  // addmm's alpha and beta, addcmul's value
  const bool squared =
      op.rfind("var", 0) == 0 || op.rfind("std", 0) == 0 || op == "mse_loss" || op == "layer_norm";
  if (squared) term *= term;
  const double root_n = std::sqrt(n);
  double atol = root_n * (tol.atol + tol.rtol * term);
  if (op.rfind("std", 0) == 0) atol = std::max(atol, std::sqrt(atol));
  if (op == "layer_norm") {
    const double eps = layer_norm_eps(stmt);
    atol *= 1 / std::sqrt(std::max(eps, 1e-5));
    // With eps near 0 a constant row divides rounding noise by itself: NaN (0 / 0), or any
    // value of a standardized row (|x| <= sqrt(n)).
    if (eps < 1e-5) {
      atol = std::max(atol, 2 * root_n);
      nonfinite = true;
    }
  }
  tol.atol = atol;
  tol.rtol *= root_n;
  tol.nonfinite_ok |= nonfinite || term * n * 64 > floating_max(result_dtype);
  // A product of n terms overflows when max^n does: then inf * 0 is NaN in one order, 0 in
  // another.
  if (op.rfind("prod", 0) == 0 || op.rfind("cumprod", 0) == 0) {
    tol.nonfinite_ok |= n * std::log(largest) >= std::log(floating_max(result_dtype) / 64);
  }
  return tol;
}

bool has_extreme_values(const Tensor& t) {
  if (!t.defined() || !is_floating_type(t.dtype()) || t.numel() > (int64_t{1} << 16)) return false;
  const double max = floating_max(t.dtype()) / 16;
  const double tiny = t.dtype() == kDouble ? std::numeric_limits<double>::min()
                      : t.dtype() == kHalf ? 6.103515625e-05
                                           : std::numeric_limits<float>::min();
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double v = std::fabs(load_double(t, i));
    if (!std::isfinite(v) || v > max || (v != 0 && v < tiny)) return true;
  }
  return false;
}

GradientGain gradient_gain(const Program& program) {
  GradientGain gain;
  for (const Stmt& s : program.stmts) {
    if (s.spec->name != "layer_norm") continue;
    double n = 1;
    for (size_t k = 0; k < s.args.size(); ++k) {
      if (s.spec->params[k].name == "normalized_shape") {
        for (const int64_t d : s.args[k].v) n *= static_cast<double>(std::max<int64_t>(d, 1));
      }
    }
    const double eps = layer_norm_eps(s);
    gain.factor = std::max(gain.factor, std::sqrt(n / std::max(eps, 1e-12)));
    gain.tiny_eps |= eps < 1e-5;
  }
  return gain;
}

Tolerance gradient_tolerance(const Tensor& oracle_grad, bool extreme_program, double largest,
                             const GradientGain& gain) {
  const ScalarType dt = oracle_grad.dtype();
  Tolerance tol = dtype_tolerance(dt);
  const double eps = dt == kDouble     ? 2.220446049250313e-16
                     : dt == kHalf     ? 9.765625e-04
                     : dt == kBFloat16 ? 7.8125e-03
                                       : 1.1920928955078125e-07;
  const Magnitude m = magnitude(oracle_grad);
  const double rtol = std::max(16 * tol.rtol, std::sqrt(eps));
  // Values far above the inputs' usual [-4, 4] make terms that large cancel in the formulas.
  tol.atol = 16 * tol.atol + rtol * m.max_abs * std::max(1.0, largest / 4) +
             rtol * gain.factor * std::max(1.0, largest);
  tol.rtol = rtol;
  tol.nonfinite_ok = m.nonfinite || extreme_program || gain.tiny_eps;
  return tol;
}

std::optional<std::string> compare_values(const Tensor& candidate, const Tensor& oracle,
                                          const Tolerance& tol) {
  const int64_t n = oracle.numel();
  const ScalarType dt = oracle.dtype();
  std::ostringstream os;
  os.precision(17);
  if (!is_floating_type(dt)) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t a = load_long(candidate, i), r = load_long(oracle, i);
      if (a != r) {
        os << "element " << i << " is " << a << ", oracle " << r;
        return os.str();
      }
    }
    return std::nullopt;
  }
  for (int64_t i = 0; i < n; ++i) {
    const double a = load_double(candidate, i), r = load_double(oracle, i);
    if (a == r || (std::isnan(a) && std::isnan(r))) continue;
    if (tol.nonfinite_ok && (!std::isfinite(a) || !std::isfinite(r))) continue;
    const bool ok = std::isfinite(a) && std::isfinite(r) &&
                    std::fabs(a - r) <= tol.atol + tol.rtol * std::fabs(r);
    if (!ok) {
      os << "element " << i << " is " << a << ", oracle " << r << " (rtol " << tol.rtol << ", atol "
         << tol.atol << ")";
      return os.str();
    }
  }
  return std::nullopt;
}

}  // namespace ts::fuzz
