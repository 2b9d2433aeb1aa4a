#pragma once
// The float32 sweep's per-input passes, run in AVX-512 or AVX2 lanes where the CPU has them
// (Note [The engine's passes in lanes] in lanes.cpp); each gives the bits its scalar form gives.
#include <cstddef>
#include <cstdint>

namespace ts::sweep::lanes {

// in[i] = the float32 bits of key `key_lo + i` (Note [Input order] in engine.cpp) and
// bins[i] = that key's top 8 bits, i < n; the keys do not wrap.
void fill_keys(uint32_t key_lo, size_t n, uint32_t* in, uint8_t* bins);

// out[i] = the float32 with bits[i], widened to double.
void widen_floats(const uint32_t* bits, size_t n, double* out);

// want[i] = the float32 bits of approx[i] rounded to nearest, and undecided[i] = 1 where that
// rounding is not the decision: approx[i] lies within 2^14 of its double's ULPs from a float32
// midpoint (Note [The cheap boundary test] in oracle.cpp), or rounds to a float32 subnormal, or
// to the largest binade's top where it may overflow, or has the bits `keep` (oracle_vec.h's
// undecided()). NaN, infinities, |y| >= 2^128 and |y| < 2^-900 are decided as special_result
// and the interval test decide them. Returns whether any input is undecided.
bool round_far_from_midpoints(const double* approx, size_t n, uint32_t* want, uint8_t* undecided,
                              uint64_t keep);

// Bit i set where a[i] != b[i], i < m <= 64.
uint64_t differing_lanes(const uint32_t* a, const uint32_t* b, size_t m);

// Tests: run the baseline (0), AVX2 (1) or AVX-512 (2) variants from now on, at most what the CPU
// has (-1: the best it has); returns the level that runs.
int force_level(int level);

}  // namespace ts::sweep::lanes
