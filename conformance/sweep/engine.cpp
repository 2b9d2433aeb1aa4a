// The exhaustive sweep engine (engine.h).
#include "conformance/sweep/engine.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <iomanip>
#include <mutex>
#include <sstream>

#include "conformance/sweep/internal.h"
#include "conformance/sweep/oracle.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace ts::sweep {
namespace {

using detail::Clock;
using detail::seconds_since;

// Note [Input order]
// Full sweeps run the bit patterns 0 .. 2^w-1. A --range runs the values LO..HI in increasing
// order: the key below maps the bits monotonically (-NaN < -inf < ... < -0 < +0 < ... < +NaN),
// so a range is a run of consecutive keys. --quick takes every 256th of those inputs (float32
// only: 2^16 inputs sweep in milliseconds) and appends the special values it missed. Every
// 256th key is a positive bit pattern ending in 0x00 or a negative one ending in 0xFF.

// Note [Batches handed out in order]
// The workers take batches one at a time from a counter, so that none idles while another
// finishes a costly stretch (sqrt is cheap at negative inputs, digamma dear). A worker's
// batches come in increasing order, which tally() needs: its first misses and the first of
// equal worsts are then the worker's first by input index, and merge() picks among workers.
// Note [Binary inputs]
// A binary op's inputs are the pairs (a, b) of 16-bit values, a's key major: a pair's index is
// key(a) * n + key(b) over the n keys of the range, its bits (a << 16) | b in the reports.
// --quick takes every 257th pair (257 is prime to 2^16, so every a and every b appear, with
// 255 or 256 partners each) and appends the pairs of special values it missed.

nlohmann::json json_value(uint32_t bits, const Format& fmt) {
  const double v = format_value(bits, fmt);
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(std::to_string(v));
}

// The correctly rounded result of the packed input `in`.
Rounded oracle_at(const UnaryOracle* u, const BinaryOracle* b, uint32_t in, const Format& fmt) {
  if (u != nullptr) return correctly_rounded(*u, format_value(in, fmt), fmt);
  return correctly_rounded(*b, format_value(in >> 16, fmt), format_value(in & 0xFFFF, fmt), fmt);
}

// One op in one dtype over every kernel set: rows appended to `rows`.
void sweep_op(const SweepOptions& o, std::string_view op, const Format& fmt,
              std::vector<SweepRow>& rows) {
  const auto t0 = Clock::now();
  const detail::SweptOp& fn = *detail::find_swept_op(op);
  const UnaryOracle* unary = find_oracle(op);
  const BinaryOracle* binary = find_binary_oracle(op);
  const detail::InputSpace space = detail::input_space(fmt, fn.arity, o);
  const int w = space.w;
  const std::vector<std::string> sets = detail::sets_with_kernel(o.kernels, op, fmt.dtype);
  std::vector<detail::Partial> total(sets.size());
  uint64_t mpfr_calls = 0;
  std::mutex mu;
  const uint64_t count = space.count();
  const auto batch = static_cast<uint64_t>(o.batch);
  const auto nbatches = static_cast<int64_t>((count + batch - 1) / batch);
  std::atomic<int64_t> next_batch{0};  // Note [Batches handed out in order]
  const int64_t workers = std::min<int64_t>(get_num_threads(), nbatches);
  parallel_for(0, workers, 1, [&](int64_t, int64_t) {
    std::vector<detail::Partial> part(sets.size());
    uint64_t part_mpfr = 0;
    std::vector<uint32_t> in_bits, want, got;
    std::vector<double> x, approx;
    std::vector<uint8_t> bins;
    for (int64_t b = next_batch++; b < nbatches; b = next_batch++) {
      const uint64_t begin = static_cast<uint64_t>(b) * batch;
      const uint64_t n = std::min(count, begin + batch) - begin;
      want.resize(n);
      approx.resize(n);
      bins.resize(n);
      // float32 inputs are generated straight into the operand (nothing is copied)
      Tensor a, b2;
      uint32_t* in = nullptr;
      if (w == 32 && fn.arity == 1) {
        a = empty({static_cast<int64_t>(n)}, fmt.dtype);
        in = static_cast<uint32_t*>(a.data_ptr());
      } else {
        in_bits.resize(n);
        in = in_bits.data();
      }
      space.fill(begin, n, in, bins.data());
      const detail::BinCounts bin_counts = detail::count_bins(space, begin, n, bins.data());
      if (unary != nullptr) {
        x.resize(n);
        format_values(in, n, fmt, x.data());
        part_mpfr += correctly_rounded_bits(*unary, x.data(), n, fmt, want.data(), approx.data(),
                                            o.vector_oracle);
      } else {
        for (uint64_t i = 0; i < n; ++i) {
          const Rounded r = oracle_at(nullptr, binary, in[i], fmt);
          want[i] = format_bits(r.value, fmt);
          approx[i] = r.approx;
          part_mpfr += r.used_mpfr ? 1 : 0;
        }
      }
      if (!a.defined()) detail::make_inputs(space, in, n, a, b2);
      const detail::Batch results{begin,       n,           in,           bins.data(),
                                  &bin_counts, want.data(), approx.data()};
      for (size_t s = 0; s < sets.size(); ++s) {
        const KernelSetGuard guard(sets[s]);
        const auto k0 = Clock::now();
        const Tensor out = detail::run_op(fn, a, b2);
        part[s].row.kernel_seconds += seconds_since(k0);
        detail::tally(part[s], results, detail::result_bits(out, w, got), fmt, w);
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
    r.arity = fn.arity;
    r.wall_seconds = ran ? wall : 0;
    r.mpfr_calls = mpfr_calls;
    rows.push_back(r);
  }
}

}  // namespace

std::string input_text(uint32_t bits, std::string_view dtype, int arity) {
  const Format& fmt = format_of(parse_dtype(std::string(dtype)), "sweep");
  const auto text = [&](uint32_t b) {
    std::ostringstream os;
    os << std::setprecision(9) << format_value(b, fmt);
    return os.str();
  };
  if (arity == 1) return text(bits);
  return "(" + text(bits >> 16) + ", " + text(bits & 0xFFFF) + ")";
}

std::vector<std::string> detail::checked_ops(const SweepOptions& o) {
  std::vector<std::string> ops = o.ops;
  if (ops.empty()) ops.assign(oracle_op_names().begin(), oracle_op_names().end());
  for (const std::string& op : ops) {
    TS_CHECK(detail::find_swept_op(op) != nullptr, "sweep: --ops: '", op,
             "' is not a swept op (the unary float ops: exp, log, sin, ..., gelu, silu; the "
             "binary add, sub, mul, div, pow, atan2, hypot)");
  }
  for (const std::string& k : o.kernels) {
    if (k == "libm") register_libm_kernel_set();
    TS_CHECK(find_kernel_set(k).has_value(), "sweep: --kernels: no kernel set named '", k, "'");
  }
  if (o.range) {
    TS_CHECK(o.range->first <= o.range->second, "sweep: --range: expected LO <= HI, got ",
             o.range->first, ":", o.range->second);
  }
  TS_CHECK(o.batch > 0 && o.compare_batch > 0, "sweep: batch sizes must be positive, got ", o.batch,
           " and ", o.compare_batch);
  return ops;
}

std::vector<SweepRow> run_sweep(const SweepOptions& o) {
  const std::vector<std::string> ops = detail::checked_ops(o);
  std::vector<SweepRow> rows;
  for (const std::string& op : ops) {
    for (ScalarType dt : o.dtypes) {
      const Format& fmt = format_of(dt, "sweep: --dtypes");
      if (detail::find_swept_op(op)->arity == 2 && dt == kFloat) continue;  // 2^64 pairs
      sweep_op(o, op, fmt, rows);
    }
  }
  return rows;
}

nlohmann::json sweep_to_json(const SweepOptions& o, const std::vector<SweepRow>& rows,
                             const std::vector<CompareRow>& compare) {
  nlohmann::json opts = {{"ops", o.ops}, {"kernels", o.kernels}, {"quick", o.quick}};
  std::vector<std::string> dts;
  for (ScalarType dt : o.dtypes) dts.emplace_back(dtype_name(dt));
  opts["dtypes"] = dts;
  opts["range"] =
      o.range ? nlohmann::json::array({o.range->first, o.range->second}) : nlohmann::json(nullptr);
  opts["threads"] = get_num_threads();
  opts["compare_targets"] = o.targets;
  opts["compare_threads"] = o.threads;
  nlohmann::json arr = nlohmann::json::array();
  for (const SweepRow& r : rows) {
    const Format& fmt = format_of(parse_dtype(r.dtype), "sweep");
    auto value = [&](uint32_t bits) { return json_value(bits, fmt); };
    auto input = [&](uint32_t bits) {
      if (r.arity == 1) return value(bits);
      return nlohmann::json::array({value(bits >> 16), value(bits & 0xFFFF)});
    };
    nlohmann::json hist = nlohmann::json::array();  // in bucket order: an object would sort
    for (size_t i = 0; i < kUlpBuckets.size(); ++i) {
      hist.push_back({{"steps", kUlpBuckets[i]}, {"count", r.histogram[i]}});
    }
    nlohmann::json j = {{"op", r.op},
                        {"kernels", r.kernels},
                        {"dtype", r.dtype},
                        {"arity", r.arity},
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
                        {"worst_input", input(r.worst_input)},
                        {"worst_result", value(r.worst_result)},
                        {"worst_expected", value(r.worst_expected)},
                        {"histogram", hist},
                        {"nan_mismatches", r.nan_mismatches},
                        {"inf_mismatches", r.inf_mismatches},
                        {"zero_sign_mismatches", r.zero_sign_mismatches},
                        {"kernel_seconds", r.kernel_seconds},
                        {"wall_seconds", r.wall_seconds},
                        {"oracle_mpfr_calls", r.mpfr_calls}};
    j["first_special_input"] = r.first_special ? input(*r.first_special) : nullptr;
    nlohmann::json misses = nlohmann::json::array();
    for (const SweepRow::Miss& m : r.first_misses) {
      misses.push_back({{"input", input(m.input)},
                        {"input_bits", m.input},
                        {"result", value(m.result)},
                        {"expected", value(m.expected)}});
    }
    j["first_not_correctly_rounded"] = misses;
    j["input_bins"] = {{"inputs", r.bin_inputs},
                       {"max_steps", r.bin_max_steps},
                       {"special_mismatches", r.bin_specials}};
    arr.push_back(j);
  }
  nlohmann::json out = {{"schema", "touchstone-sweep/1"}, {"options", opts}, {"rows", arr}};
  if (compare.empty()) return out;
  nlohmann::json cmp = nlohmann::json::array();
  for (const CompareRow& c : compare) {
    const Format& fmt = format_of(parse_dtype(c.dtype), "sweep");
    nlohmann::json j = {{"op", c.op},
                        {"kernels", c.kernels},
                        {"dtype", c.dtype},
                        {"baseline", c.baseline},
                        {"config", c.config},
                        {"inputs", c.inputs},
                        {"differing", c.differing},
                        {"nan_only", c.nan_only}};
    j["first_input"] = nullptr;
    if (c.first_input) {
      j["first_input"] = input_text(*c.first_input, c.dtype, c.arity);
      j["first_input_bits"] = *c.first_input;
      j["baseline_result"] = json_value(c.first_baseline, fmt);
      j["config_result"] = json_value(c.first_config, fmt);
      j["baseline_result_bits"] = c.first_baseline;
      j["config_result_bits"] = c.first_config;
    }
    cmp.push_back(j);
  }
  out["comparisons"] = cmp;
  return out;
}

}  // namespace ts::sweep
