// Element-by-element comparison with assert_close tolerances and ULP distances.
#include "conformance/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
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
  return {t.rtol * f, t.atol * f};
}

double ulp_distance(double a, double r, ScalarType dtype) {
  if (a == r || (std::isnan(a) && std::isnan(r))) return 0;
  if (!std::isfinite(a) || !std::isfinite(r)) return std::numeric_limits<double>::infinity();
  int digits = 53, min_exp = -1022;  // significand bits; exponent of the smallest normal
  if (dtype == kFloat) digits = 24, min_exp = -126;
  if (dtype == kHalf) digits = 11, min_exp = -14;
  if (dtype == kBFloat16) digits = 8, min_exp = -126;
  const int e = r == 0 ? min_exp : std::max(std::ilogb(r), min_exp);
  return std::fabs(a - r) / std::ldexp(1.0, e - (digits - 1));
}

Comparison compare(const Tensor& candidate, const Tensor& reference, Tolerance tol) {
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
  int64_t nan_mismatches = 0;  // NaN where the reference has a number, or the reverse
  std::string first_nan;
  for (size_t i = 0; i < a.size(); ++i) {
    const bool nan_a = std::isnan(a[i]), nan_r = std::isnan(r[i]);
    bool ok = nan_a == nan_r;
    if (ok && !nan_a && a[i] != r[i]) {
      const double err = std::fabs(a[i] - r[i]);
      c.max_abs_err = std::max(c.max_abs_err, err);
      if (r[i] != 0) c.max_rel_err = std::max(c.max_rel_err, err / std::fabs(r[i]));
      c.max_ulp = std::max(c.max_ulp, ulp_distance(a[i], r[i], dt));
      // Infinities must be equal: the tolerance of an infinite reference is infinite too.
      ok = std::isfinite(a[i]) && std::isfinite(r[i]) &&
           err <= tol.atol + tol.rtol * std::fabs(r[i]);
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
      os << "element " << i << " is " << a[i] << ", reference " << r[i] << " (rtol " << tol.rtol
         << ", atol " << tol.atol << ")";
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
    c.message = std::to_string(c.mismatches) + " of " + std::to_string(a.size()) +
                " elements differ; first: " + c.message;
  }
  return c;
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
