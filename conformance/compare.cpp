// Element-by-element comparison with assert_close tolerances and ULP distances.
#include "conformance/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

#include "touchstone/dispatch.h"
#include "touchstone/ops.h"

namespace ts::conformance {
namespace {

// Every element in row-major order, read by the reference set (no trust in the candidate's copy).
std::vector<double> doubles(const Tensor& t) {
  KernelSetGuard g("reference");
  const Tensor c = t.to(kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}
std::vector<int64_t> longs(const Tensor& t) {
  KernelSetGuard g("reference");
  const Tensor c = t.to(kLong).contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

std::string shape_string(IntArrayRef s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << "]";
  return os.str();
}

Comparison compare_integral(const Tensor& candidate, const Tensor& reference) {
  Comparison c;
  const std::vector<int64_t> a = longs(candidate), r = longs(reference);
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == r[i]) continue;
    const double err = std::fabs(static_cast<double>(a[i]) - static_cast<double>(r[i]));
    c.max_abs_err = std::max(c.max_abs_err, err);
    if (r[i] != 0) c.max_rel_err = std::max(c.max_rel_err, err / std::fabs(double(r[i])));
    if (c.mismatches++ == 0) {
      c.message = "element " + std::to_string(i) + " is " + std::to_string(a[i]) + ", reference " +
                  std::to_string(r[i]);
    }
  }
  c.ok = c.mismatches == 0;
  return c;
}

}  // namespace

Tolerance default_tolerance(ScalarType dtype) {
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

Tolerance scaled_for_summands(Tolerance t, int64_t summands) {
  const double f = std::sqrt(static_cast<double>(std::max<int64_t>(summands, 1)));
  t.rtol *= f;
  t.atol *= f;
  return t;
}

namespace {

// Significand bits and the exponent of the least normal of a float dtype.
std::pair<int, int> format_of(ScalarType dtype) {
  if (dtype == kFloat) return {24, -126};
  if (dtype == kHalf) return {11, -14};
  if (dtype == kBFloat16) return {8, -126};
  return {53, -1022};
}

double allowed(const Bound& b, double r, double scale, ScalarType dt) {
  return b.atol + b.rtol * std::fabs(r) + (b.ulp > 0 ? b.ulp * ulp_of(r, dt) : 0) +
         b.scale_k * scale;
}

std::string zero_string(double z) {
  return std::signbit(z) ? "-0" : "+0";
}

}  // namespace

double ulp_of(double r, ScalarType dtype) {
  const auto [digits, min_exp] = format_of(dtype);
  const int e = r == 0 || !std::isfinite(r) ? min_exp : std::max(std::ilogb(r), min_exp);
  return std::ldexp(1.0, e - (digits - 1));
}

double unit_roundoff(ScalarType dtype) {
  return std::ldexp(1.0, -format_of(dtype).first);
}

double ulp_distance(double a, double r, ScalarType dtype) {
  if (a == r || (std::isnan(a) && std::isnan(r))) return 0;
  if (!std::isfinite(a) || !std::isfinite(r)) return std::numeric_limits<double>::infinity();
  return std::fabs(a - r) / ulp_of(r, dtype);
}

// Note [The reference is correctly rounded]
// The reference computes in double and rounds once to the output's dtype. For the exactly
// rounded ops (+ - * / sqrt, casts, neg, abs, floor, ...) the double result is exact or
// correctly rounded with 53 >= 2p + 2 bits (p = 24, 11, 8), and rounding it again to p bits is
// then innocuous (Figueroa, "When is double rounding innocuous?", 1995): the reference's float
// value is the correctly rounded one, and a budget of 0 ULP is exact equality. For libm's
// transcendental functions the double is within about an ULP of 2^-53, so the rounded value
// differs from the correctly rounded one only when the exact value lies within 2^-29 ULP of a
// midpoint (double-rounding corner cases, about 1 input in 2^28 for float32; `touchstone sweep`
// finds them with MPFR): their budgets are >= 1 ULP, which covers them. In float64 the
// reference is libm itself, not correctly rounded: budgets there add one ULP.
Comparison compare(const Tensor& candidate, const Tensor& reference, const Tolerance& tol) {
  Comparison c;
  c.mistrusted = is_mistrusted(reference);
  if (candidate.sizes() != reference.sizes()) {
    c.ok = false;
    c.message = "shape " + shape_string(candidate.sizes()) + ", reference " +
                shape_string(reference.sizes());
    return c;
  }
  if (candidate.dtype() != reference.dtype()) {
    c.ok = false;
    c.message = "dtype " + std::string(dtype_name(candidate.dtype())) + ", reference " +
                std::string(dtype_name(reference.dtype()));
    return c;
  }
  const ScalarType dt = reference.dtype();
  if (!is_floating_type(dt)) {
    Comparison ci = compare_integral(candidate, reference);
    ci.mistrusted = c.mistrusted;
    return ci;
  }
  const std::vector<double> a = doubles(candidate), r = doubles(reference);
  TS_CHECK(tol.scale.empty() || tol.scale.size() == r.size(), "compare: ", tol.scale.size(),
           " scales for ", r.size(), " elements");
  const Bound fail = tol.bound();
  int64_t nan_mismatches = 0;  // NaN where the reference has a number, or the reverse
  std::string first_nan;
  for (size_t i = 0; i < a.size(); ++i) {
    const bool nan_a = std::isnan(a[i]), nan_r = std::isnan(r[i]);
    const double scale = tol.scale.empty() ? 0 : tol.scale[i];
    bool ok = nan_a == nan_r;
    bool zero_sign = false;
    if (ok && tol.signed_zeros && a[i] == 0 && r[i] == 0 &&
        std::signbit(a[i]) != std::signbit(r[i])) {
      ok = false;
      zero_sign = true;
    } else if (ok && !nan_a && a[i] != r[i]) {
      const double err = std::fabs(a[i] - r[i]);
      c.max_abs_err = std::max(c.max_abs_err, err);
      if (r[i] != 0) c.max_rel_err = std::max(c.max_rel_err, err / std::fabs(r[i]));
      c.max_ulp = std::max(c.max_ulp, ulp_distance(a[i], r[i], dt));
      // Infinities must be equal: the tolerance of an infinite reference is infinite too.
      ok = std::isfinite(a[i]) && std::isfinite(r[i]) && err <= allowed(fail, r[i], scale, dt);
      if (ok && tol.has_budget && !c.warning && c.mismatches == 0 &&
          err > allowed(tol.budget, r[i], scale, dt)) {
        c.warning = true;
        std::ostringstream os;
        os.precision(9);
        os << "element " << i << " is " << a[i] << ", reference " << r[i] << " ("
           << ulp_distance(a[i], r[i], dt) << " ULP; budget " << tol.budget.ulp << " ULP)";
        c.message = os.str();
      }
    }
    if (nan_a != nan_r && nan_mismatches++ == 0) {
      std::ostringstream os;
      os.precision(9);
      os << "NaN mismatch at index " << i << ": expected " << r[i] << ", got " << a[i];
      first_nan = os.str();
    }
    if (!ok && c.mismatches++ == 0) {
      std::ostringstream os;
      os.precision(9);
      if (zero_sign) {
        os << "element " << i << " is " << zero_string(a[i]) << ", reference " << zero_string(r[i])
           << " (the sign of zero)";
      } else {
        os << "element " << i << " is " << a[i] << ", reference " << r[i] << " (";
        if (fail.scale_k > 0) {
          os << "error " << std::fabs(a[i] - r[i]) << ", bound " << allowed(fail, r[i], scale, dt);
        } else if (fail.ulp > 0 || fail.rtol == 0) {
          os << ulp_distance(a[i], r[i], dt) << " ULP, tolerance " << fail.ulp << " ULP";
          if (fail.atol > 0) os << " + " << fail.atol;
        } else {
          os << "rtol " << fail.rtol << ", atol " << fail.atol;
        }
        os << ")";
      }
      c.message = os.str();
    }
  }
  if (c.mismatches > 0 && c.mismatches == nan_mismatches) {
    // A NaN-only mismatch leaves max abs/rel/ULP 0: the message says what differs.
    c.ok = false;
    c.message = first_nan + (nan_mismatches > 1
                                 ? " (" + std::to_string(nan_mismatches) + " of " +
                                       std::to_string(a.size()) + " elements differ in NaN only)"
                                 : "");
  } else if (c.mismatches > 0) {
    c.ok = false;
    c.warning = false;
    c.message = std::to_string(c.mismatches) + " of " + std::to_string(a.size()) +
                " elements differ; first: " + c.message;
  }
  return c;
}

bool is_constant(const Tensor& t) {
  if (t.numel() <= 1) return true;
  const std::vector<double> v = doubles(t);
  return std::all_of(v.begin(), v.end(),
                     [&](double x) { return x == v[0] || (std::isnan(x) && std::isnan(v[0])); });
}

bool is_mistrusted(const Tensor& reference) {
  if (reference.numel() == 0) return true;
  const std::vector<double> r = doubles(reference);
  const bool all_nan = std::all_of(r.begin(), r.end(), [](double x) { return std::isnan(x); });
  const bool constant =
      std::all_of(r.begin(), r.end(), [&](double x) { return x == r[0]; });  // incl. all zeros
  return all_nan || (constant && (r.size() > 1 || r[0] == 0));
}

}  // namespace ts::conformance
