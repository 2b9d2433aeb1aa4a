#pragma once
// Shared pieces of the CUDA kernel set: device storage types for float16/bfloat16, conversions
// that round once, the dtype dispatch, the current stream and launch sizes.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "touchstone/cuda.h"
#include "touchstone/cuda_check.h"
#include "touchstone/dispatch.h"
#include "touchstone/dispatch_macros.h"

namespace ts::cuda {

using half = __half;
using bf16 = __nv_bfloat16;

template <typename T>
inline constexpr bool is_reduced_v = std::is_same_v<T, half> || std::is_same_v<T, bf16>;
template <typename T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || is_reduced_v<T>;
// Note [CUDA float32 in double]
// float32, float16 and bfloat16 compute and accumulate in double, then round once, as the
// reference and the optimized CPU set. The first GPU run (H200, 2026-11-30) found float's own
// functions up to 2-16 ULP off (expf, powf(x, 2), lgammaf), overflow in intermediate steps
// (sigmoid's exp(-x), std's squares), a layer_norm of equal values off by x - mean != 0, and
// float32 scans whose error grows with the length. Hopper's double rate is half float's, and
// these kernels are bound by memory bandwidth (perf/README.md has the figures).
template <typename T>
using compute_t = std::conditional_t<is_reduced_v<T> || std::is_same_v<T, float>, double, T>;

// Note [CUDA conversions]
// One rounding from the source value to the destination dtype, as the reference's Note
// [Conversions round once]: float16/bfloat16 widen exactly to float; to a floating dtype the
// hardware's round-to-nearest-even conversion (__double2half, __ll2half_rn, ...); to an integer
// truncation toward zero through int64 then wrapping (NaN and out of range: INT64_MIN); to bool
// v != 0.
template <typename To, typename From>
__host__ __device__ inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_reduced_v<From>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (is_reduced_v<To>) {
    // The constructors round to nearest even from double, float, int64 (long) and int (what the
    // narrower integers and bool promote to): __double2half, __ll2bfloat16_rn, ...
    return To(v);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    // NaN and values beyond int64 give INT64_MIN, as x86 and the reference (the GPU saturates).
    const bool in_range = v > From(-9223372036854775808.0) && v < From(9223372036854775808.0);
    return static_cast<To>(in_range ? static_cast<int64_t>(v) : INT64_MIN);
  } else {
    return static_cast<To>(v);
  }
}

// Sums and other accumulations of every floating dtype: double (Note [CUDA float32 in double]).
template <typename T>
using acc_float_t = double;

// Loads and stores of storage type T through its compute type.
template <typename T>
__host__ __device__ inline compute_t<T> load_as_compute(const char* p) {
  return convert<compute_t<T>>(*reinterpret_cast<const T*>(p));
}

// The current stream of this thread (see touchstone/cuda.h).
inline cudaStream_t stream() {
  return static_cast<cudaStream_t>(current_stream());
}

inline constexpr int kThreads = 256;
// Blocks for `n` work items of `per_thread` each; the grid-stride loops cover any remainder.
inline unsigned grid_size(int64_t n, int per_thread = 1) {
  const int64_t per_block = int64_t{kThreads} * per_thread;
  const int64_t blocks = (n + per_block - 1) / per_block;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > (1 << 20) ? (1 << 20) : blocks));
}

// A Scalar argument in compute type C.
template <typename C>
C scalar_as(const Scalar& s) {
  if constexpr (std::is_same_v<C, bool>) {
    return s.to_bool();
  } else if constexpr (std::is_floating_point_v<C>) {
    return static_cast<C>(s.to_double());
  } else {
    return static_cast<C>(s.to_long());
  }
}

}  // namespace ts::cuda

// TS_CUDA_DISPATCH_*: as TS_DISPATCH_*, with float16/bfloat16 bound to the CUDA types.
#define TS_CUDA_CASES_REDUCED(...)                     \
  TS_PRIVATE_CASE(Half, ::ts::cuda::half, __VA_ARGS__) \
  TS_PRIVATE_CASE(BFloat16, ::ts::cuda::bf16, __VA_ARGS__)
#define TS_CUDA_DISPATCH_FLOATING(TYPE, NAME, ...) \
  TS_PRIVATE_DISPATCH_FLOATING(TS_CUDA_CASES_REDUCED, TYPE, NAME, __VA_ARGS__)
#define TS_CUDA_DISPATCH_REAL(TYPE, NAME, ...) \
  TS_PRIVATE_DISPATCH_REAL(TS_CUDA_CASES_REDUCED, TYPE, NAME, __VA_ARGS__)
#define TS_CUDA_DISPATCH_ALL(TYPE, NAME, ...) \
  TS_PRIVATE_DISPATCH_ALL(TS_CUDA_CASES_REDUCED, TYPE, NAME, __VA_ARGS__)
#define TS_CUDA_DISPATCH_INTEGRAL_AND_BOOL TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL  // no reduced types
