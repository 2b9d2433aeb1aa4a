// CUDA benchmarks: the CUDA kernel set against the device-to-device copy bandwidth (the bound
// for memory-bound elementwise ops) and, when libtorch was built with CUDA, against PyTorch's
// CUDA ops on the same shapes. Times are CUDA-event times per call (manual time). Compiled in
// every CUDA build; run it on a GPU machine (optimized/cuda/README.md).
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "touchstone/cuda.h"
#include "touchstone/touchstone.h"

#ifdef TS_HAVE_TORCH_CUDA
#include <ATen/ATen.h>
#endif

namespace {

using ts::Tensor;

constexpr int64_t kN = int64_t{1} << 26;  // 64M elements: 256 MB in float32

const ts::Device kDev("cuda:0");

Tensor device_input(std::vector<int64_t> sizes, ts::ScalarType t = ts::kFloat) {
  return ts::rand(sizes, ts::TensorOptions(t).device(kDev));
}

// Times `f` with CUDA events around each iteration; reports bytes moved per second.
void run(benchmark::State& state, double bytes, const std::function<void()>& f) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  f();  // warm-up (allocator cache, module load)
  for (auto _ : state) {
    cudaEventRecord(start, static_cast<cudaStream_t>(ts::cuda::current_stream()));
    f();
    cudaEventRecord(stop, static_cast<cudaStream_t>(ts::cuda::current_stream()));
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    state.SetIterationTime(ms / 1e3);
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes * static_cast<double>(state.iterations())));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

struct Case {
  std::string name;
  double bytes;
  std::function<void()> touchstone;
#ifdef TS_HAVE_TORCH_CUDA
  std::function<void()> aten;
#endif
};

#ifdef TS_HAVE_TORCH_CUDA
const at::Tensor& torch_matrix() {
  static const at::Tensor x = at::rand({kN / 1024, 1024}, at::kCUDA);
  return x;
}
#endif

std::vector<Case> cases() {
  static const Tensor a = device_input({kN});
  static const Tensor b = device_input({kN});
  static const Tensor row = device_input({1024});
  static const Tensor m = device_input({kN / 1024, 1024});
  static const Tensor ah = device_input({kN}, ts::kHalf);
  static Tensor out = ts::empty({kN}, ts::TensorOptions(ts::kFloat).device(kDev));
  const double f4 = 4.0 * kN;
  std::vector<Case> c;
  c.push_back({"d2d_memcpy",
               2 * f4,
               [] {
                 cudaMemcpyAsync(out.data_ptr(), a.data_ptr(), a.nbytes(), cudaMemcpyDeviceToDevice,
                                 static_cast<cudaStream_t>(ts::cuda::current_stream()));
               }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               {}
#endif
  });
  c.push_back({"add_contiguous", 3 * f4, [] { (void)ts::add(a, b); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] {
                 static at::Tensor x = at::rand({kN}, at::kCUDA), y = at::rand({kN}, at::kCUDA);
                 (void)at::add(x, y);
               }
#endif
  });
  c.push_back({"add_broadcast_row", 2 * f4, [] { (void)ts::add(m, row); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] {
                 static at::Tensor x = at::rand({kN / 1024, 1024}, at::kCUDA),
                                   y = at::rand({1024}, at::kCUDA);
                 (void)at::add(x, y);
               }
#endif
  });
  c.push_back({"add_transposed", 2 * f4, [] { (void)ts::add(m.t(), 1.0); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] {
                 static at::Tensor x = at::rand({kN / 1024, 1024}, at::kCUDA);
                 (void)at::add(x.t(), 1.0);
               }
#endif
  });
  c.push_back({"mul_half", 3 * 2.0 * kN, [] { (void)ts::mul(ah, ah); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] {
                 static at::Tensor x =
                     at::rand({kN}, at::TensorOptions(at::kCUDA).dtype(at::kHalf));
                 (void)at::mul(x, x);
               }
#endif
  });
  c.push_back({"cast_float_to_half", 6.0 * kN, [] { (void)a.to(ts::kHalf); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] {
                 static at::Tensor x = at::rand({kN}, at::kCUDA);
                 (void)x.to(at::kHalf);
               }
#endif
  });
  c.push_back({"rand_float", f4,
               [] { (void)ts::rand({kN}, ts::TensorOptions(ts::kFloat).device(kDev)); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] { (void)at::rand({kN}, at::kCUDA); }
#endif
  });
  // Reductions and row kernels: bytes are the input read once plus the output written.
  c.push_back({"sum_all", f4, [] { (void)ts::sum(a); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] { (void)torch_matrix().sum(); }
#endif
  });
  c.push_back({"sum_rows", f4 * (1 + 1.0 / 1024), [] { (void)ts::sum(m, {1}); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] { (void)torch_matrix().sum(1); }
#endif
  });
  c.push_back({"sum_cols", f4 + 4.0 * 1024, [] { (void)ts::sum(m, {0}); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] { (void)torch_matrix().sum(0); }
#endif
  });
  c.push_back({"argmax_rows", f4 * (1 + 2.0 / 1024), [] { (void)ts::argmax(m, 1); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] { (void)torch_matrix().argmax(1); }
#endif
  });
  c.push_back({"softmax_rows", 2 * f4, [] { (void)ts::softmax(m, 1); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] { (void)at::softmax(torch_matrix(), 1); }
#endif
  });
  c.push_back({"layer_norm_rows", 2 * f4, [] { (void)ts::layer_norm(m, {1024}); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] { (void)at::layer_norm(torch_matrix(), {1024}); }
#endif
  });
  c.push_back({"cumsum_rows", 2 * f4, [] { (void)ts::cumsum(m, 1); }
#ifdef TS_HAVE_TORCH_CUDA
               ,
               [] { (void)torch_matrix().cumsum(1); }
#endif
  });
  return c;
}

// Registered case by case, touchstone and PyTorch next to each other, plus the forced 64-bit
// path of the same kernels (Note [Forced 64-bit indexing]).
void register_all() {
  bool elementwise = true;  // the cases from sum_all on do not use the elementwise launcher
  for (const Case& c : cases()) {
    elementwise = elementwise && c.name != "sum_all";
    benchmark::RegisterBenchmark(("touchstone/" + c.name).c_str(),
                                 [c](benchmark::State& s) { run(s, c.bytes, c.touchstone); })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    if (elementwise) {
      benchmark::RegisterBenchmark(("touchstone_64bit/" + c.name).c_str(),
                                   [c](benchmark::State& s) {
                                     ts::cuda::set_force_64bit_indexing(true);
                                     run(s, c.bytes, c.touchstone);
                                     ts::cuda::set_force_64bit_indexing(false);
                                   })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
#ifdef TS_HAVE_TORCH_CUDA
    if (c.aten) {
      benchmark::RegisterBenchmark(("pytorch/" + c.name).c_str(),
                                   [c](benchmark::State& s) { run(s, c.bytes, c.aten); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
#endif
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (ts::cuda::device_count() == 0) {
    std::fprintf(stderr, "bench_cuda: no CUDA device visible\n");
    return 1;
  }
  ts::set_default_kernel_set("optimized");
  benchmark::Initialize(&argc, argv);
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
