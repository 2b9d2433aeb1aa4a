#pragma once
// TS_CUDA_CHECK: a failed CUDA runtime call becomes a ts::Error naming the call and carrying
// CUDA's error name and string. For sources built with CUDA only (includes the runtime API).
#include <cuda_runtime_api.h>

#include "touchstone/error.h"

namespace ts::cuda::detail {
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);
}  // namespace ts::cuda::detail

#define TS_CUDA_CHECK(call)                                                         \
  do {                                                                              \
    const cudaError_t ts_cuda_err = (call);                                         \
    if (ts_cuda_err != cudaSuccess) [[unlikely]] {                                  \
      ::ts::cuda::detail::throw_cuda_error(ts_cuda_err, #call, __FILE__, __LINE__); \
    }                                                                               \
  } while (0)

// After a kernel launch: reports a bad launch configuration (asynchronous faults surface at the
// next synchronizing call).
#define TS_CUDA_KERNEL_LAUNCH_CHECK() TS_CUDA_CHECK(cudaGetLastError())
