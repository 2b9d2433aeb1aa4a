// float32 add over 128 M elements in launch shapes the CUDA set's vectorized path could take:
// 16-byte vectors, 1, 2 or 4 of them per thread (unrolled, coalesced), 128/256/512 threads a block,
// against cudaMemcpy device-to-device on the same arrays. Prints GB/s (bytes read + written over
// the median of 20 timed calls, CUDA events) and checks every result. Issue 20; perf/README.md.
//   nvcc -O3 -arch=sm_90 perf/cuda_add_variants.cu -o cuda_add_variants && ./cuda_add_variants
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                \
  do {                                                                                          \
    cudaError_t err_ = (x);                                                                     \
    if (err_ != cudaSuccess) {                                                                  \
      std::printf("%s failed: %s (%s:%d)\n", #x, cudaGetErrorString(err_), __FILE__, __LINE__); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

template <int kUnroll>
__global__ void add_kernel(const float4* a, const float4* b, float4* c, unsigned nvec) {
  const unsigned base = blockIdx.x * blockDim.x * kUnroll + threadIdx.x;
  const unsigned step = gridDim.x * blockDim.x * kUnroll;
  for (unsigned i = base; i < nvec; i += step) {
    float4 x[kUnroll], y[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const unsigned j = i + u * blockDim.x;
      if (j < nvec) {
        x[u] = a[j];
        y[u] = b[j];
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const unsigned j = i + u * blockDim.x;
      if (j < nvec)
        c[j] = make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
    }
  }
}

template <class F>
float median_ms(F f) {
  cudaEvent_t s, e;
  CHECK(cudaEventCreate(&s));
  CHECK(cudaEventCreate(&e));
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < 20; ++i) {
    CHECK(cudaEventRecord(s));
    f();
    CHECK(cudaEventRecord(e));
    CHECK(cudaEventSynchronize(e));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, s, e));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const size_t n = size_t{1} << 27;
  const unsigned nvec = static_cast<unsigned>(n / 4);
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, n * 4));
  CHECK(cudaMalloc(&b, n * 4));
  CHECK(cudaMalloc(&c, n * 4));
  std::vector<float> ha(n), hb(n);
  for (size_t i = 0; i < n; ++i) {
    ha[i] = static_cast<float>(i % 1000) * 0.5f;
    hb[i] = static_cast<float>(i % 777) * 0.25f;
  }
  CHECK(cudaMemcpy(a, ha.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), n * 4, cudaMemcpyHostToDevice));
  const float copy =
      median_ms([&] { CHECK(cudaMemcpyAsync(c, a, n * 4, cudaMemcpyDeviceToDevice)); });
  std::printf("memcpy d2d        %8.4f ms %7.0f GB/s\n", copy, 2.0 * n * 4 / copy / 1e6);
  std::vector<float> hc(n);
  auto run = [&](auto unroll_tag, int threads) {
    constexpr int kUnroll = decltype(unroll_tag)::value;
    const unsigned per_block = static_cast<unsigned>(threads) * kUnroll;
    const unsigned blocks = (nvec + per_block - 1) / per_block;
    CHECK(cudaMemset(c, 0xff, n * 4));
    const float ms = median_ms([&] {
      add_kernel<kUnroll><<<blocks, threads>>>(reinterpret_cast<const float4*>(a),
                                               reinterpret_cast<const float4*>(b),
                                               reinterpret_cast<float4*>(c), nvec);
    });
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc.data(), c, n * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += hc[i] != ha[i] + hb[i];
    std::printf("add unroll %d x %3d %8.4f ms %7.0f GB/s  %5.1f %% of copy  %s\n", kUnroll, threads,
                ms, 3.0 * n * 4 / ms / 1e6, 100.0 * (3.0 * n * 4 / ms) / (2.0 * n * 4 / copy),
                bad ? "WRONG" : "ok");
  };
  for (int threads : {128, 256, 512}) {
    run(std::integral_constant<int, 1>{}, threads);
    run(std::integral_constant<int, 2>{}, threads);
    run(std::integral_constant<int, 4>{}, threads);
  }
  return 0;
}
