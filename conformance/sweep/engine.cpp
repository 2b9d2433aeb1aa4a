// The exhaustive sweep engine (engine.h).
#include "conformance/sweep/engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

#include "conformance/sweep/oracle.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace ts::sweep {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

using UnaryFn = Tensor (*)(const Tensor&);

// The public function of each swept op: the sweep runs the normal dispatch.
UnaryFn op_function(std::string_view name) {
  static const std::pair<std::string_view, UnaryFn> kFns[] = {
      {"exp", [](const Tensor& t) { return ts::exp(t); }},
      {"expm1", [](const Tensor& t) { return ts::expm1(t); }},
      {"log", [](const Tensor& t) { return ts::log(t); }},
      {"log1p", [](const Tensor& t) { return ts::log1p(t); }},
      {"sqrt", [](const Tensor& t) { return ts::sqrt(t); }},
      {"rsqrt", [](const Tensor& t) { return ts::rsqrt(t); }},
      {"reciprocal", [](const Tensor& t) { return ts::reciprocal(t); }},
      {"sin", [](const Tensor& t) { return ts::sin(t); }},
      {"cos", [](const Tensor& t) { return ts::cos(t); }},
      {"tan", [](const Tensor& t) { return ts::tan(t); }},
      {"tanh", [](const Tensor& t) { return ts::tanh(t); }},
      {"sigmoid", [](const Tensor& t) { return ts::sigmoid(t); }},
      {"gelu", [](const Tensor& t) { return ts::gelu(t); }},
      {"silu", [](const Tensor& t) { return ts::silu(t); }},
      {"erf", [](const Tensor& t) { return ts::erf(t); }},
      {"erfc", [](const Tensor& t) { return ts::erfc(t); }},
      {"exp2", [](const Tensor& t) { return ts::exp2(t); }},
      {"log2", [](const Tensor& t) { return ts::log2(t); }},
      {"log10", [](const Tensor& t) { return ts::log10(t); }},
      {"asin", [](const Tensor& t) { return ts::asin(t); }},
      {"acos", [](const Tensor& t) { return ts::acos(t); }},
      {"atan", [](const Tensor& t) { return ts::atan(t); }},
      {"sinh", [](const Tensor& t) { return ts::sinh(t); }},
      {"cosh", [](const Tensor& t) { return ts::cosh(t); }},
      {"asinh", [](const Tensor& t) { return ts::asinh(t); }},
      {"acosh", [](const Tensor& t) { return ts::acosh(t); }},
      {"atanh", [](const Tensor& t) { return ts::atanh(t); }},
  };
  for (const auto& [n, fn] : kFns) {
    if (n == name) return fn;
  }
  return nullptr;
}

int format_width(const Format& fmt) {
  return fmt.dtype == kFloat ? 32 : 16;
}

// Note [Input order]
// Full sweeps run the bit patterns 0 .. 2^w-1. A --range runs the values LO..HI in increasing
// order: the key below maps the bits monotonically (-NaN < -inf < ... < -0 < +0 < ... < +NaN),
// so a range is a run of consecutive keys. --quick takes every 256th of those inputs (float32
// only: 2^16 inputs sweep in milliseconds) and appends the special values it missed. Every
// 256th key is a positive bit pattern ending in 0x00 or a negative one ending in 0xFF.
uint32_t to_key(uint32_t b, int w) {
  const uint32_t sign = 1u << (w - 1), mask = w == 32 ? ~0u : (1u << w) - 1;
  return (b & sign) ? (~b & mask) : (b | sign);
}
uint32_t from_key(uint32_t k, int w) {
  const uint32_t sign = 1u << (w - 1), mask = w == 32 ? ~0u : (1u << w) - 1;
  return (k & sign) ? (k & ~sign) : (~k & mask);
}
// Signed magnitude: consecutive values of the format differ by 1 (+0 and -0 are both 0).
int64_t signed_magnitude(uint32_t b, int w) {
  const uint32_t sign = 1u << (w - 1);
  return (b & sign) ? -static_cast<int64_t>(b & (sign - 1)) : static_cast<int64_t>(b);
}

struct InputSpace {
  const Format* fmt = nullptr;
  int w = 32;
  uint64_t key_lo = 0, base_count = 0, stride = 1;
  std::vector<uint32_t> specials;
  uint64_t count() const { return base_count + specials.size(); }
  uint32_t bits(uint64_t i) const {
    if (i >= base_count) return specials[i - base_count];
    return from_key(static_cast<uint32_t>(key_lo + i * stride), w);
  }
};

std::vector<double> special_values(const Format& fmt) {
  const double inf = HUGE_VAL, nan = std::numeric_limits<double>::quiet_NaN();
  const double tiny = std::ldexp(1.0, fmt.emin - fmt.precision + 1);
  const double min_normal = std::ldexp(1.0, fmt.emin);
  const double ulp1 = std::ldexp(1.0, 1 - fmt.precision);
  const double max = std::ldexp(2.0 - ulp1, fmt.emax);
  std::vector<double> v = {0.0,        inf, nan, tiny,           min_normal - tiny,
                           min_normal, max, 1.0, 1.0 - ulp1 / 2, 1.0 + ulp1,
                           0.5,        2.0};
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  return v;
}

InputSpace input_space(const Format& fmt, const SweepOptions& o) {
  InputSpace s;
  s.fmt = &fmt;
  s.w = format_width(fmt);
  uint64_t key_hi = (uint64_t{1} << s.w) - 1;
  if (o.range) {
    s.key_lo = to_key(format_bits(round_to_format(o.range->first, fmt), fmt), s.w);
    key_hi = to_key(format_bits(round_to_format(o.range->second, fmt), fmt), s.w);
  }
  const uint64_t n = key_hi - s.key_lo + 1;
  if (o.quick && fmt.dtype == kFloat) {
    s.stride = 256;
  }
  s.base_count = (n + s.stride - 1) / s.stride;
  if (s.stride == 1) return s;
  for (double v : special_values(fmt)) {
    const uint32_t b = format_bits(v, fmt);
    const uint64_t k = to_key(b, s.w);
    const bool in_range = k >= s.key_lo && k <= key_hi;
    if (in_range && (k - s.key_lo) % s.stride != 0) s.specials.push_back(b);  // not sampled yet
  }
  return s;
}

// A worker's (or the total's) row with the indices of its worst and first special input, so
// that both are the same whatever the thread count (ties go to the earlier input).
struct Partial {
  SweepRow row;
  uint64_t worst = 0;
  bool has_worst = false;
  uint64_t special = std::numeric_limits<uint64_t>::max();
};

// Puts one result against the correctly rounded value into `p`.
void tally(Partial& p, uint64_t index, uint32_t in, uint32_t got, uint32_t want, double approx,
           const Format& fmt, int w) {
  SweepRow& row = p.row;
  ++row.inputs;
  if (got == want) {  // the common case: no decoding (a NaN of other bits takes the path below)
    ++row.correctly_rounded;
    ++row.histogram[0];
    return;
  }
  const double r = format_value(got, fmt), e = format_value(want, fmt);
  const auto correct = [&] {
    ++row.correctly_rounded;
    ++row.histogram[0];
  };
  const auto special = [&](uint64_t& counter) {
    ++counter;
    if (index < p.special) {
      p.special = index;
      row.first_special = in;
    }
  };
  if (std::isnan(r) || std::isnan(e)) {
    std::isnan(r) && std::isnan(e) ? correct() : special(row.nan_mismatches);
    return;
  }
  if (std::isinf(r) || std::isinf(e)) {
    r == e ? correct() : special(row.inf_mismatches);
    return;
  }
  if (r == 0 && e == 0 && std::signbit(r) != std::signbit(e)) {
    special(row.zero_sign_mismatches);
    return;
  }
  const auto steps =
      static_cast<uint64_t>(std::llabs(signed_magnitude(got, w) - signed_magnitude(want, w)));
  if (steps == 0) ++row.correctly_rounded;
  constexpr uint64_t kBucketEnds[] = {0, 1, 2, 4, 16, 256};
  size_t b = 0;
  while (b < std::size(kBucketEnds) && steps > kBucketEnds[b]) ++b;
  ++row.histogram[b];
  const int ex = e == 0 ? fmt.emin : std::max(std::ilogb(e), fmt.emin);
  const double ulp = std::fabs(r - approx) / std::ldexp(1.0, ex - fmt.precision + 1);
  if (!p.has_worst || std::make_pair(steps, ulp) > std::make_pair(row.max_steps, row.max_ulp)) {
    row.max_steps = steps;
    row.max_ulp = ulp;
    row.worst_input = in;
    row.worst_result = got;
    row.worst_expected = want;
    p.worst = index;
    p.has_worst = true;
  }
}

void merge(Partial& total, const Partial& part) {
  SweepRow& t = total.row;
  const SweepRow& r = part.row;
  const auto key = [](const SweepRow& x) { return std::make_pair(x.max_steps, x.max_ulp); };
  if (part.has_worst &&
      (!total.has_worst || key(r) > key(t) || (key(r) == key(t) && part.worst < total.worst))) {
    t.max_steps = r.max_steps;
    t.max_ulp = r.max_ulp;
    t.worst_input = r.worst_input;
    t.worst_result = r.worst_result;
    t.worst_expected = r.worst_expected;
    total.worst = part.worst;
    total.has_worst = true;
  }
  if (part.special < total.special) {
    total.special = part.special;
    t.first_special = r.first_special;
  }
  t.inputs += r.inputs;
  t.correctly_rounded += r.correctly_rounded;
  for (size_t i = 0; i < t.histogram.size(); ++i) t.histogram[i] += r.histogram[i];
  t.nan_mismatches += r.nan_mismatches;
  t.inf_mismatches += r.inf_mismatches;
  t.zero_sign_mismatches += r.zero_sign_mismatches;
  t.kernel_seconds += r.kernel_seconds;
}

void read_bits(const Tensor& t, int w, std::vector<uint32_t>& out) {
  const int64_t n = t.numel();
  out.resize(static_cast<size_t>(n));
  if (w == 32) {
    std::memcpy(out.data(), t.data_ptr(), static_cast<size_t>(n) * 4);
    return;
  }
  const auto* p = static_cast<const uint16_t*>(t.data_ptr());
  for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] = p[i];
}

// One op in one dtype over every kernel set: rows appended to `rows`.
void sweep_op(const SweepOptions& o, std::string_view op, const Format& fmt,
              std::vector<SweepRow>& rows) {
  const auto t0 = Clock::now();
  const UnaryOracle& oracle = *find_oracle(op);
  const UnaryFn fn = op_function(op);
  const InputSpace space = input_space(fmt, o);
  const int w = space.w;
  const OpId id = *find_op(op);
  std::vector<std::string> sets;  // the sets with a kernel for the dtype
  for (const std::string& k : o.kernels) {
    if (supported_dtypes(id, kCPU, *find_kernel_set(k)).has(fmt.dtype)) sets.push_back(k);
  }
  std::vector<Partial> total(sets.size());
  uint64_t mpfr_calls = 0;
  std::mutex mu;
  const uint64_t count = space.count();
  const auto batch = static_cast<uint64_t>(o.batch);
  const auto nbatches = static_cast<int64_t>((count + batch - 1) / batch);
  parallel_for(0, nbatches, 1, [&](int64_t b0, int64_t b1) {
    std::vector<Partial> part(sets.size());
    uint64_t part_mpfr = 0;
    std::vector<uint32_t> in_bits, want, got;
    std::vector<double> approx;
    for (int64_t b = b0; b < b1; ++b) {
      const uint64_t begin = static_cast<uint64_t>(b) * batch;
      const uint64_t n = std::min(count, begin + batch) - begin;
      in_bits.resize(n);
      want.resize(n);
      approx.resize(n);
      for (uint64_t i = 0; i < n; ++i) {
        in_bits[i] = space.bits(begin + i);
        const Rounded r = correctly_rounded(oracle, format_value(in_bits[i], fmt), fmt);
        want[i] = format_bits(r.value, fmt);
        approx[i] = r.approx;
        part_mpfr += r.used_mpfr ? 1 : 0;
      }
      Tensor in = empty({static_cast<int64_t>(n)}, fmt.dtype);
      if (w == 32) {
        std::memcpy(in.data_ptr(), in_bits.data(), n * 4);
      } else {
        auto* p = static_cast<uint16_t*>(in.data_ptr());
        for (uint64_t i = 0; i < n; ++i) p[i] = static_cast<uint16_t>(in_bits[i]);
      }
      for (size_t s = 0; s < sets.size(); ++s) {
        const KernelSetGuard guard(sets[s]);
        const auto k0 = Clock::now();
        const Tensor out = fn(in);
        part[s].row.kernel_seconds += seconds_since(k0);
        read_bits(out, w, got);
        for (uint64_t i = 0; i < n; ++i) {
          tally(part[s], begin + i, in_bits[i], got[i], want[i], approx[i], fmt, w);
        }
      }
    }
    const std::lock_guard<std::mutex> lock(mu);
    for (size_t s = 0; s < sets.size(); ++s) merge(total[s], part[s]);
    mpfr_calls += part_mpfr;
  });
  const double wall = seconds_since(t0);
  size_t s = 0;
  for (const std::string& k : o.kernels) {
    const bool ran = s < sets.size() && sets[s] == k;
    SweepRow r = ran ? total[s++].row : SweepRow{};  // no kernel: a row with no inputs
    r.op = op;
    r.kernels = k;
    r.dtype = dtype_name(fmt.dtype);
    r.wall_seconds = ran ? wall : 0;
    r.mpfr_calls = mpfr_calls;
    rows.push_back(r);
  }
}

}  // namespace

std::vector<SweepRow> run_sweep(const SweepOptions& o) {
  std::vector<std::string> ops = o.ops;
  if (ops.empty()) ops.assign(oracle_op_names().begin(), oracle_op_names().end());
  for (const std::string& op : ops) {
    TS_CHECK(find_oracle(op) != nullptr, "sweep: --ops: '", op,
             "' is not a swept op (the unary float ops: exp, log, sin, ..., gelu, silu)");
  }
  for (const std::string& k : o.kernels) {
    if (k == "libm") register_libm_kernel_set();
    TS_CHECK(find_kernel_set(k).has_value(), "sweep: --kernels: no kernel set named '", k, "'");
  }
  if (o.range) {
    TS_CHECK(o.range->first <= o.range->second, "sweep: --range: expected LO <= HI, got ",
             o.range->first, ":", o.range->second);
  }
  TS_CHECK(o.batch > 0, "sweep: batch size must be positive, got ", o.batch);
  std::vector<SweepRow> rows;
  for (const std::string& op : ops) {
    for (ScalarType dt : o.dtypes) sweep_op(o, op, format_of(dt, "sweep: --dtypes"), rows);
  }
  return rows;
}

nlohmann::json sweep_to_json(const SweepOptions& o, const std::vector<SweepRow>& rows) {
  nlohmann::json opts = {{"ops", o.ops}, {"kernels", o.kernels}, {"quick", o.quick}};
  std::vector<std::string> dts;
  for (ScalarType dt : o.dtypes) dts.emplace_back(dtype_name(dt));
  opts["dtypes"] = dts;
  opts["range"] =
      o.range ? nlohmann::json::array({o.range->first, o.range->second}) : nlohmann::json(nullptr);
  opts["threads"] = get_num_threads();
  nlohmann::json arr = nlohmann::json::array();
  for (const SweepRow& r : rows) {
    const Format& fmt = format_of(parse_dtype(r.dtype), "sweep");
    auto value = [&](uint32_t bits) {
      const double v = format_value(bits, fmt);
      return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(std::to_string(v));
    };
    nlohmann::json hist = nlohmann::json::array();  // in bucket order: an object would sort
    for (size_t i = 0; i < kUlpBuckets.size(); ++i) {
      hist.push_back({{"steps", kUlpBuckets[i]}, {"count", r.histogram[i]}});
    }
    nlohmann::json j = {{"op", r.op},
                        {"kernels", r.kernels},
                        {"dtype", r.dtype},
                        {"inputs", r.inputs},
                        {"supported", r.inputs > 0},
                        {"correctly_rounded", r.correctly_rounded},
                        {"not_correctly_rounded", r.inputs - r.correctly_rounded},
                        {"fraction_not_correctly_rounded",
                         r.inputs == 0 ? 0.0
                                       : static_cast<double>(r.inputs - r.correctly_rounded) /
                                             static_cast<double>(r.inputs)},
                        {"max_steps", r.max_steps},
                        {"max_ulp", r.max_ulp},
                        {"worst_input_bits", r.worst_input},
                        {"worst_input", value(r.worst_input)},
                        {"worst_result", value(r.worst_result)},
                        {"worst_expected", value(r.worst_expected)},
                        {"histogram", hist},
                        {"nan_mismatches", r.nan_mismatches},
                        {"inf_mismatches", r.inf_mismatches},
                        {"zero_sign_mismatches", r.zero_sign_mismatches},
                        {"kernel_seconds", r.kernel_seconds},
                        {"wall_seconds", r.wall_seconds},
                        {"oracle_mpfr_calls", r.mpfr_calls}};
    j["first_special_input"] = r.first_special ? value(*r.first_special) : nullptr;
    arr.push_back(j);
  }
  return {{"schema", "touchstone-sweep/1"}, {"options", opts}, {"rows", arr}};
}

}  // namespace ts::sweep
