#pragma once
// Counter-based random numbers: Philox4x32-10, the default generator's (seed, offset) state, and
// the maps from raw bits to uniform, normal and integer values shared by every kernel set.
#include <array>
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define TS_HOST_DEVICE __host__ __device__
#else
#define TS_HOST_DEVICE
#endif

namespace ts {

// Note [Philox streams]
// Random ops draw from Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC'11), a pure function of a 128-bit counter and a 64-bit key. A random op reserves one
// counter per output element from the default generator (reserve_philox_counters(numel)), which
// returns the generator's seed and the first counter `offset`; the meta function passes both in
// RandomParams{seed, offset} (touchstone/op_params.h). Element i, with i the row-major index
// over the output's shape (the output is contiguous, so i is also its memory position), uses
//   key     = {lo32(seed), hi32(seed)}
//   counter = {lo32(offset + i), hi32(offset + i), 0, 0}   (offset + i wraps modulo 2^64)
//   w       = philox4x32_10(counter, key)                  (four 32-bit words w[0..3])
// and maps w to its value as follows (the helpers below implement each line):
//   rand float32:  (w[0] >> 8) * 2^-24            top 24 bits of w[0]
//   rand float16:  (w[0] >> 21) * 2^-11           top 11 bits (float16 has 11 significant bits)
//   rand bfloat16: (w[0] >> 24) * 2^-8            top 8 bits
//   rand float64:  (bits64(w[0], w[1]) >> 11) * 2^-53, bits64(lo, hi) = hi * 2^32 + lo
//   Each of these is exact in its dtype and lies in [0, 1).
//   randn (any floating dtype), Box-Muller in double, rounded once to the output dtype:
//     u1 = 1 - uniform64(w[0], w[1])   in (0, 1], so log(u1) is finite
//     u2 = uniform64(w[2], w[3])       in [0, 1)
//     z  = sqrt(-2 * log(u1)) * cos(2 * pi * u2)
//     (bitwise equal across kernel sets when their double log/cos/sqrt are the correctly rounded
//     or identical libm ones; a float32 or narrower result almost always agrees regardless.)
//   randint [low, high): range = uint64(high) - uint64(low) (1 <= range <= 2^64 - 1);
//     r = w[0] % range when range <= 2^32, else bits64(w[0], w[1]) % range;
//     value = low + r (in uint64, wrapping), then stored exactly in the output dtype.
//     The modulo bias (at most range / 2^32 or range / 2^64) is accepted, as in PyTorch.
// Nothing depends on how a kernel splits the elements among threads or blocks, so any kernel
// set on any device reproduces the same values for the same (seed, offset).

// One Philox4x32-10 block: 10 rounds with multipliers M0/M1 and Weyl key increments W0/W1.
TS_HOST_DEVICE constexpr std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter,
                                                               std::array<uint32_t, 2> key) {
  constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += kW0;
      key[1] += kW1;
    }
    const uint64_t p0 = static_cast<uint64_t>(kM0) * counter[0];
    const uint64_t p1 = static_cast<uint64_t>(kM1) * counter[2];
    counter = {static_cast<uint32_t>(p1 >> 32) ^ counter[1] ^ key[0], static_cast<uint32_t>(p1),
               static_cast<uint32_t>(p0 >> 32) ^ counter[3] ^ key[1], static_cast<uint32_t>(p0)};
  }
  return counter;
}

// The four words for element `i` of an op that reserved counters from `offset` (see the Note).
TS_HOST_DEVICE constexpr std::array<uint32_t, 4> philox_words(uint64_t seed, uint64_t offset,
                                                              uint64_t i) {
  const uint64_t c = offset + i;
  return philox4x32_10({static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), 0u, 0u},
                       {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)});
}

// A uniform value in [0, 1) from the top `digits` (1..32) bits of `w`; exact in a dtype whose
// significand has at least `digits` bits (float32: 24, float16: 11, bfloat16: 8).
TS_HOST_DEVICE constexpr double uniform_from_bits(uint32_t w, int digits) {
  return static_cast<double>(w >> (32 - digits)) / static_cast<double>(uint64_t{1} << digits);
}
TS_HOST_DEVICE constexpr float uniform_float(uint32_t w0) {
  return static_cast<float>(w0 >> 8) * (1.0f / 16777216.0f);
}
// The 53 top bits of hi * 2^32 + lo, as a double in [0, 1).
TS_HOST_DEVICE constexpr double uniform_double(uint32_t lo, uint32_t hi) {
  const uint64_t bits = (static_cast<uint64_t>(hi) << 32) | lo;
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}
// A standard normal value from all four words (Box-Muller in double; see the Note).
TS_HOST_DEVICE inline double normal_double(const std::array<uint32_t, 4>& w) {
  const double u1 = 1.0 - uniform_double(w[0], w[1]);
  const double u2 = uniform_double(w[2], w[3]);
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}
// An integer in [low, high) for 1 <= range = uint64(high) - uint64(low) (see the Note).
TS_HOST_DEVICE constexpr int64_t uniform_int_from_to(const std::array<uint32_t, 4>& w,
                                                     uint64_t range, int64_t low) {
  const uint64_t r = range <= (uint64_t{1} << 32)
                         ? w[0] % range
                         : ((static_cast<uint64_t>(w[1]) << 32) | w[0]) % range;
  return static_cast<int64_t>(static_cast<uint64_t>(low) + r);
}

// The default generator: a seed (the Philox key) and the next unused counter.
struct PhiloxState {
  uint64_t seed = 0;
  uint64_t offset = 0;
};
// PyTorch's default_rng_seed_val, used until manual_seed is called.
inline constexpr uint64_t kDefaultSeed = 67280421310721ull;

// The default generator's current state.
PhiloxState philox_state();
// Restores a state saved with philox_state() (manual_seed(s) is set_philox_state({s, 0})).
void set_philox_state(PhiloxState state);
// Reserves `n` counters: returns the state to use (seed and first counter) and advances the
// offset by n. Thread-safe: concurrent callers get disjoint counter ranges.
PhiloxState reserve_philox_counters(uint64_t n);

}  // namespace ts
