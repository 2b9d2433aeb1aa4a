// The sweep's shared parts (internal.h).
#include "conformance/sweep/internal.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "conformance/sweep/lanes.h"

namespace ts::sweep::detail {

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

const SweptOp* find_swept_op(std::string_view name) {
  using T = const Tensor&;
  static const SweptOp kOps[] = {
      {"exp", 1, [](T t) { return ts::exp(t); }},
      {"expm1", 1, [](T t) { return ts::expm1(t); }},
      {"log", 1, [](T t) { return ts::log(t); }},
      {"log1p", 1, [](T t) { return ts::log1p(t); }},
      {"sqrt", 1, [](T t) { return ts::sqrt(t); }},
      {"rsqrt", 1, [](T t) { return ts::rsqrt(t); }},
      {"reciprocal", 1, [](T t) { return ts::reciprocal(t); }},
      {"sin", 1, [](T t) { return ts::sin(t); }},
      {"cos", 1, [](T t) { return ts::cos(t); }},
      {"tan", 1, [](T t) { return ts::tan(t); }},
      {"tanh", 1, [](T t) { return ts::tanh(t); }},
      {"sigmoid", 1, [](T t) { return ts::sigmoid(t); }},
      {"gelu", 1, [](T t) { return ts::gelu(t); }},
      {"silu", 1, [](T t) { return ts::silu(t); }},
      {"erf", 1, [](T t) { return ts::erf(t); }},
      {"erfc", 1, [](T t) { return ts::erfc(t); }},
      {"exp2", 1, [](T t) { return ts::exp2(t); }},
      {"log2", 1, [](T t) { return ts::log2(t); }},
      {"log10", 1, [](T t) { return ts::log10(t); }},
      {"asin", 1, [](T t) { return ts::asin(t); }},
      {"acos", 1, [](T t) { return ts::acos(t); }},
      {"atan", 1, [](T t) { return ts::atan(t); }},
      {"sinh", 1, [](T t) { return ts::sinh(t); }},
      {"cosh", 1, [](T t) { return ts::cosh(t); }},
      {"asinh", 1, [](T t) { return ts::asinh(t); }},
      {"acosh", 1, [](T t) { return ts::acosh(t); }},
      {"atanh", 1, [](T t) { return ts::atanh(t); }},
      {"erfinv", 1, [](T t) { return ts::erfinv(t); }},
      {"sinc", 1, [](T t) { return ts::sinc(t); }},
      {"frac", 1, [](T t) { return ts::frac(t); }},
      {"hardsigmoid", 1, [](T t) { return ts::hardsigmoid(t); }},
      {"hardswish", 1, [](T t) { return ts::hardswish(t); }},
      {"mish", 1, [](T t) { return ts::mish(t); }},
      {"log_sigmoid", 1, [](T t) { return ts::log_sigmoid(t); }},
      {"square", 1, [](T t) { return ts::square(t); }},
      {"lgamma", 1, [](T t) { return ts::lgamma(t); }},
      {"digamma", 1, [](T t) { return ts::digamma(t); }},
      {"leaky_relu", 1, [](T t) { return ts::leaky_relu(t); }},
      {"elu", 1, [](T t) { return ts::elu(t); }},
      {"selu", 1, [](T t) { return ts::selu(t); }},
      {"celu", 1, [](T t) { return ts::celu(t); }},
      {"softplus", 1, [](T t) { return ts::softplus(t); }},
      {"softsign", 1, [](T t) { return ts::softsign(t); }},
      {"hardtanh", 1, [](T t) { return ts::hardtanh(t); }},
      {"add", 2, nullptr, [](T a, T b) { return ts::add(a, b); }},
      {"sub", 2, nullptr, [](T a, T b) { return ts::sub(a, b); }},
      {"mul", 2, nullptr, [](T a, T b) { return ts::mul(a, b); }},
      {"div", 2, nullptr, [](T a, T b) { return ts::div(a, b); }},
      {"pow", 2, nullptr, [](T a, T b) { return ts::pow(a, b); }},
      {"atan2", 2, nullptr, [](T a, T b) { return ts::atan2(a, b); }},
      {"hypot", 2, nullptr, [](T a, T b) { return ts::hypot(a, b); }},
  };
  for (const SweptOp& op : kOps) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

std::vector<std::string> sets_with_kernel(const std::vector<std::string>& kernels,
                                          std::string_view op, ScalarType dtype) {
  const OpId id = *find_op(op);
  std::vector<std::string> sets;
  for (const std::string& k : kernels) {
    if (supported_dtypes(id, kCPU, *find_kernel_set(k)).has(dtype)) sets.push_back(k);
  }
  return sets;
}

int64_t signed_magnitude(uint32_t b, int w) {
  const uint32_t sign = 1u << (w - 1);
  return (b & sign) ? -static_cast<int64_t>(b & (sign - 1)) : static_cast<int64_t>(b);
}

namespace {

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

}  // namespace

InputSpace input_space(const Format& fmt, int arity, const SweepOptions& o) {
  InputSpace s;
  s.fmt = &fmt;
  s.w = format_width(fmt);
  s.arity = arity;
  uint64_t key_hi = (uint64_t{1} << s.w) - 1;
  if (o.range) {
    s.key_lo = to_key(format_bits(round_to_format(o.range->first, fmt), fmt), s.w);
    key_hi = to_key(format_bits(round_to_format(o.range->second, fmt), fmt), s.w);
  }
  s.keys = key_hi - s.key_lo + 1;
  const uint64_t n = arity == 1 ? s.keys : s.keys * s.keys;
  if (o.quick && arity == 2) s.stride = 257;  // Note [Binary inputs] in engine.cpp
  if (o.quick && arity == 1 && fmt.dtype == kFloat) s.stride = 256;
  s.base_count = (n + s.stride - 1) / s.stride;
  if (s.stride == 1) return s;
  std::vector<uint64_t> keys;  // the special values' keys in the range
  for (double v : special_values(fmt)) {
    const uint64_t k = to_key(format_bits(v, fmt), s.w);
    if (k >= s.key_lo && k <= key_hi) keys.push_back(k);
  }
  for (uint64_t ka : keys) {
    if (arity == 1) {
      if ((ka - s.key_lo) % s.stride != 0) s.specials.push_back(from_key(ka, s.w));
      continue;
    }
    for (uint64_t kb : keys) {
      if (((ka - s.key_lo) * s.keys + (kb - s.key_lo)) % s.stride == 0) continue;
      s.specials.push_back((from_key(ka, s.w) << 16) | from_key(kb, s.w));
    }
  }
  return s;
}

void InputSpace::fill(uint64_t begin, uint64_t n, uint32_t* in, uint8_t* bins) const {
  const uint64_t end = begin + n, base_end = std::min(end, base_count);
  const int width = w;
  uint64_t i = begin;
  if (arity == 1 && stride == 1 && width == 32 &&
      i < base_end) {  // Note [The engine's passes in lanes]
    lanes::fill_keys(static_cast<uint32_t>(key_lo + i), base_end - i, in, bins);
    i = base_end;
  }
  if (arity == 1 && stride == 1) {  // a full sweep or a range: consecutive keys
    for (; i < base_end; ++i) {
      const auto key = static_cast<uint32_t>(key_lo + i);
      in[i - begin] = from_key(key, width);
      bins[i - begin] = static_cast<uint8_t>(key >> (width - 8));
    }
  }
  for (; i < end; ++i) {
    in[i - begin] = bits(i);
    bins[i - begin] = static_cast<uint8_t>(bin(in[i - begin]));
  }
}

BinCounts count_bins(const InputSpace& s, uint64_t begin, uint64_t n, const uint8_t* bins) {
  BinCounts c{};
  uint64_t i = 0;
  if (s.arity == 1 && s.stride == 1) {  // consecutive keys: each bin a run of 2^(w - 8) keys
    const uint64_t k0 = s.key_lo + begin, k1 = s.key_lo + std::min(begin + n, s.base_count);
    const int shift = s.w - 8;
    for (uint64_t k = k0; k < k1;) {
      const uint64_t next = std::min(k1, ((k >> shift) + 1) << shift);
      c[k >> shift] += next - k;
      k = next;
    }
    i = k1 > k0 ? k1 - k0 : 0;
  }
  for (uint64_t j = i; i < n; i = j) {  // by runs: neighbours mostly share a bin
    while (j < n && bins[j] == bins[i]) ++j;
    c[bins[i]] += j - i;
  }
  return c;
}

void make_inputs(const InputSpace& s, const uint32_t* in, uint64_t n, Tensor& a, Tensor& b) {
  a = empty({static_cast<int64_t>(n)}, s.fmt->dtype);
  if (s.w == 32) {
    std::memcpy(a.data_ptr(), in, n * 4);
    return;
  }
  auto* pa = static_cast<uint16_t*>(a.data_ptr());
  if (s.arity == 1) {
    for (uint64_t i = 0; i < n; ++i) pa[i] = static_cast<uint16_t>(in[i]);
    return;
  }
  b = empty({static_cast<int64_t>(n)}, s.fmt->dtype);
  auto* pb = static_cast<uint16_t*>(b.data_ptr());
  for (uint64_t i = 0; i < n; ++i) {
    pa[i] = static_cast<uint16_t>(in[i] >> 16);
    pb[i] = static_cast<uint16_t>(in[i]);
  }
}

Tensor run_op(const SweptOp& op, const Tensor& a, const Tensor& b) {
  return op.arity == 1 ? op.unary(a) : op.binary(a, b);
}

void read_bits(const Tensor& t, int w, std::vector<uint32_t>& out) {
  const uint32_t* p = result_bits(t, w, out);
  if (p != out.data()) out.assign(p, p + t.numel());
}

const uint32_t* result_bits(const Tensor& t, int w, std::vector<uint32_t>& buf) {
  if (w == 32) return static_cast<const uint32_t*>(t.data_ptr());
  const int64_t n = t.numel();
  buf.resize(static_cast<size_t>(n));
  const auto* p = static_cast<const uint16_t*>(t.data_ptr());
  for (int64_t i = 0; i < n; ++i) buf[static_cast<size_t>(i)] = p[i];
  return buf.data();
}

namespace {

// Note [Tallying a miss]
// Full sweeps meet some 3e10 results that are not correctly rounded (libm's tanhf misses 1 in 6),
// so a miss is classified from its bits: NaN, infinity and zero by the format's exponent field,
// the distance in steps as the difference of signed magnitudes. The ULP error, which needs the
// values, is computed only when the miss may become the row's worst (steps >= the worst's
// steps): the rows are the same as from decoding every miss, at about a tenth of the cost.
void tally_differing(Partial& p, uint64_t index, uint32_t in, size_t bin, uint32_t got,
                     uint32_t want, double approx, const Format& fmt, int w) {
  SweepRow& row = p.row;
  const uint32_t abs_mask = (1u << (w - 1)) - 1;
  const uint32_t inf = abs_mask & ~((1u << (fmt.precision - 1)) - 1);  // the exponent field
  const uint32_t ag = got & abs_mask, aw = want & abs_mask;
  const auto special = [&](uint64_t& counter) {
    ++counter;
    ++row.bin_specials[bin];
    if (index < p.special) {
      p.special = index;
      row.first_special = in;
    }
  };
  if (ag > inf || aw > inf) {  // a NaN: two NaNs of other bits agree
    if (ag > inf && aw > inf) {
      ++row.correctly_rounded;
      ++row.histogram[0];
    } else {
      special(row.nan_mismatches);
    }
    return;
  }
  if (ag == inf || aw == inf) {  // the bits differ: an infinity against anything else
    special(row.inf_mismatches);
    return;
  }
  if (ag == 0 && aw == 0) {  // +0 against -0
    special(row.zero_sign_mismatches);
    return;
  }
  const auto steps =
      static_cast<uint64_t>(std::llabs(signed_magnitude(got, w) - signed_magnitude(want, w)));
  if (row.first_misses.size() < kMaxListed) {  // in input order within a worker
    row.first_misses.push_back({in, got, want});
    p.miss_index.push_back(index);
  }
  // kUlpBuckets' index without a branch: 1 step -> 1, 2 -> 2, 3-4 -> 3, 5-16 -> 4, ...
  const size_t b = size_t{steps > 0} + size_t{steps > 1} + size_t{steps > 2} + size_t{steps > 4} +
                   size_t{steps > 16} + size_t{steps > 256};
  ++row.histogram[b];
  row.bin_max_steps[bin] = std::max(row.bin_max_steps[bin], steps);
  if (p.has_worst && steps < row.max_steps) return;  // cannot be the worst, whatever its ULPs
  // An ULP of the expected value (finite here) is 2^(ex - p + 1), ex its exponent field less the
  // bias (which is emax), emin for subnormals and zero: scaled by the power of two's inverse.
  const auto field = static_cast<int>(aw >> (fmt.precision - 1));
  const int ex = field == 0 ? fmt.emin : field - fmt.emax;
  const double inverse_ulp =
      std::bit_cast<double>(static_cast<uint64_t>(1023 - (ex - fmt.precision + 1)) << 52);
  const double ulp = std::fabs(format_value(got, fmt) - approx) * inverse_ulp;
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

}  // namespace

void tally(Partial& p, const Batch& batch, const uint32_t* got, const Format& fmt, int w) {
  SweepRow& row = p.row;
  row.inputs += batch.n;
  for (size_t b = 0; b < kInputBins; ++b) row.bin_inputs[b] += (*batch.bin_counts)[b];
  uint64_t equal = batch.n;  // less each differing result; blocks of 64 as a bit mask each
  constexpr uint64_t kBlock = 64;
  for (uint64_t i0 = 0; i0 < batch.n; i0 += kBlock) {
    const uint64_t m = std::min(batch.n - i0, kBlock);
    uint64_t differ = lanes::differing_lanes(got + i0, batch.want + i0, m);
    for (; differ != 0; differ &= differ - 1) {  // the set bits, in input order
      const uint64_t i = i0 + static_cast<uint64_t>(__builtin_ctzll(differ));
      --equal;
      tally_differing(p, batch.begin + i, batch.in[i], batch.bins[i], got[i], batch.want[i],
                      batch.approx[i], fmt, w);
    }
  }
  row.correctly_rounded += equal;
  row.histogram[0] += equal;
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
  // The first kMaxListed misses of both, by input index.
  std::vector<std::pair<uint64_t, SweepRow::Miss>> misses;
  for (size_t i = 0; i < t.first_misses.size(); ++i)
    misses.emplace_back(total.miss_index[i], t.first_misses[i]);
  for (size_t i = 0; i < r.first_misses.size(); ++i)
    misses.emplace_back(part.miss_index[i], r.first_misses[i]);
  std::sort(misses.begin(), misses.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  if (misses.size() > kMaxListed) misses.resize(kMaxListed);
  t.first_misses.clear();
  total.miss_index.clear();
  for (const auto& [index, miss] : misses) {
    total.miss_index.push_back(index);
    t.first_misses.push_back(miss);
  }
  t.inputs += r.inputs;
  t.correctly_rounded += r.correctly_rounded;
  for (size_t i = 0; i < t.histogram.size(); ++i) t.histogram[i] += r.histogram[i];
  t.nan_mismatches += r.nan_mismatches;
  t.inf_mismatches += r.inf_mismatches;
  t.zero_sign_mismatches += r.zero_sign_mismatches;
  t.kernel_seconds += r.kernel_seconds;
  for (size_t i = 0; i < kInputBins; ++i) {
    t.bin_inputs[i] += r.bin_inputs[i];
    t.bin_max_steps[i] = std::max(t.bin_max_steps[i], r.bin_max_steps[i]);
    t.bin_specials[i] += r.bin_specials[i];
  }
}

}  // namespace ts::sweep::detail
