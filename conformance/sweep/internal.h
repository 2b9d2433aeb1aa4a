#pragma once
// The sweep's shared parts (engine.cpp, compare.cpp): the swept ops, the input spaces, the tally
// of results against the oracle and its merge across workers.
#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "conformance/sweep/engine.h"
#include "conformance/sweep/oracle.h"
#include "touchstone/touchstone.h"

namespace ts::sweep::detail {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0);

// A swept op's public function (the normal dispatch): `unary` for arity 1, `binary` for 2.
struct SweptOp {
  std::string_view name;
  int arity = 1;
  Tensor (*unary)(const Tensor&) = nullptr;
  Tensor (*binary)(const Tensor&, const Tensor&) = nullptr;
};
const SweptOp* find_swept_op(std::string_view name);
// The options' ops (every unary op when empty), checked with the sets, range and batch; throws
// a ts::Error naming the bad flag. Registers the libm set when asked for.
std::vector<std::string> checked_ops(const SweepOptions& o);
// The sets of `kernels` with a kernel of `op` for `dtype`, in order.
std::vector<std::string> sets_with_kernel(const std::vector<std::string>& kernels,
                                          std::string_view op, ScalarType dtype);

inline int format_width(const Format& fmt) {
  return fmt.dtype == kFloat ? 32 : 16;
}
// Note [Input order] in engine.cpp; inline: the sweep maps every input through them.
inline uint32_t to_key(uint32_t b, int w) {
  const uint32_t sign = 1u << (w - 1), mask = w == 32 ? ~0u : (1u << w) - 1;
  return (b & sign) ? (~b & mask) : (b | sign);
}
inline uint32_t from_key(uint32_t k, int w) {  // to_key's inverse
  const uint32_t sign = 1u << (w - 1), mask = w == 32 ? ~0u : (1u << w) - 1;
  return (k & sign) ? (k & ~sign) : (~k & mask);
}
int64_t signed_magnitude(uint32_t b, int w);

// The inputs of one op and dtype: bit patterns of one operand, or pairs packed as (a << 16) | b
// (Note [Binary inputs] in engine.cpp).
struct InputSpace {
  const Format* fmt = nullptr;
  int w = 32;
  int arity = 1;
  uint64_t key_lo = 0, keys = 0;        // each operand's keys: key_lo .. key_lo + keys - 1
  uint64_t base_count = 0, stride = 1;  // every stride-th input (or pair) of those
  std::vector<uint32_t> specials;       // the special values (or pairs) the stride missed
  uint64_t count() const { return base_count + specials.size(); }
  uint32_t bits(uint64_t i) const {
    if (i >= base_count) return specials[i - base_count];
    const uint64_t j = i * stride;
    if (arity == 1) return from_key(static_cast<uint32_t>(key_lo + j), w);
    const auto a = from_key(static_cast<uint32_t>(key_lo + j / keys), w);
    return (a << 16) | from_key(static_cast<uint32_t>(key_lo + j % keys), w);
  }
  // Inputs begin .. begin + n - 1: their bits and plot bins (bin below).
  void fill(uint64_t begin, uint64_t n, uint32_t* in, uint8_t* bins) const;
  // The plot bin (engine.h's kInputBins) of an input: the top bits of its (first operand's) key.
  size_t bin(uint32_t in) const {
    return arity == 1 ? to_key(in, w) >> (w - 8) : to_key(in >> 16, 16) >> 8;
  }
};
InputSpace input_space(const Format& fmt, int arity, const SweepOptions& o);

// The operand tensors of `n` packed inputs (b is undefined for unary ops).
void make_inputs(const InputSpace& s, const uint32_t* in, uint64_t n, Tensor& a, Tensor& b);
Tensor run_op(const SweptOp& op, const Tensor& a, const Tensor& b);
void read_bits(const Tensor& t, int w, std::vector<uint32_t>& out);
// The result bits of `t`: its own data for float32, else widened into `buf`.
const uint32_t* result_bits(const Tensor& t, int w, std::vector<uint32_t>& buf);

// A worker's (or the total's) row with the indices of its worst and first special input, so
// that both are the same whatever the thread count (ties go to the earlier input).
struct Partial {
  SweepRow row;
  uint64_t worst = 0;
  bool has_worst = false;
  uint64_t special = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> miss_index;  // the indices of row.first_misses
};
// One batch of inputs with their plot bins and correctly rounded results.
using BinCounts = std::array<uint64_t, kInputBins>;
// How many of inputs begin .. begin + n - 1 (their bins from InputSpace::fill) fall in each bin.
BinCounts count_bins(const InputSpace& s, uint64_t begin, uint64_t n, const uint8_t* bins);
struct Batch {
  uint64_t begin = 0, n = 0;      // the inputs' indices: begin .. begin + n - 1
  const uint32_t* in = nullptr;   // their bits
  const uint8_t* bins = nullptr;  // InputSpace::bin of each
  const BinCounts* bin_counts = nullptr;
  const uint32_t* want = nullptr;  // the correctly rounded results' bits
  const double* approx = nullptr;  // the oracle's double evaluations
};
// Puts a set's results `got` of one batch against the correctly rounded ones into `p`.
void tally(Partial& p, const Batch& batch, const uint32_t* got, const Format& fmt, int w);
void merge(Partial& total, const Partial& part);

}  // namespace ts::sweep::detail
