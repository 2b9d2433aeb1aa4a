// STREAM-style copy/add loops (OpenMP, first touch by the threads that use the pages) and
// GEMM at a large square size: OpenBLAS sgemm/dgemm and the optimized set's mm.
#include "perf/probes.h"

#include <cblas.h>
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "touchstone/dispatch.h"
#include "touchstone/ops.h"

namespace ts::perf {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Best of `trials` timings of f(): the bound the machine can reach, as STREAM reports.
template <typename F>
double best_seconds(int trials, const F& f) {
  double best = 1e30;
  for (int i = 0; i < trials; ++i) {
    const double t0 = now_s();
    f();
    best = std::min(best, now_s() - t0);
  }
  return best;
}

volatile float sink;  // keeps the read loops' sums alive

// s += a[i] over a's n elements, split over the threads.
float read_pass(const float* a, int64_t n, int threads) {
  float total = 0;
  // simd: lets the sum be reassociated into vector lanes, or one add chain bounds the loop.
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : total)
  for (int64_t i = 0; i < n; ++i) total += a[i];
  return total;
}

// Note [Streamed probes]
// The copy and add probes also run with non-temporal stores, and the faster loop sets the roof:
// the optimized kernels stream outputs beyond the LLC (Note [Streaming stores] in
// optimized/cpu/elementwise.h), which moved a copy 1.4x faster than the plain loop on the EPYC
// VM; a roof below what a kernel reaches would report it above 100 %.
// c = a (b null) or a + b with 16-byte streaming stores, each thread a contiguous slice.
void streamed(float* c, const float* a, const float* b, int64_t n, int threads) {
#pragma omp parallel num_threads(threads)
  {
    const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    const int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
    int64_t i = lo;
    for (; i < hi && reinterpret_cast<uintptr_t>(c + i) % 16 != 0; ++i) {
      c[i] = b ? a[i] + b[i] : a[i];
    }
    if (b != nullptr) {
      for (; i + 4 <= hi; i += 4) {
        _mm_stream_ps(c + i, _mm_add_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i)));
      }
    } else {
      for (; i + 4 <= hi; i += 4) _mm_stream_ps(c + i, _mm_loadu_ps(a + i));
    }
    for (; i < hi; ++i) c[i] = b ? a[i] + b[i] : a[i];
    _mm_sfence();
  }
}

void stream_probe(Roofline& r, int trials) {
  const int64_t n = r.stream_elements;
  const int threads = r.threads;
  std::unique_ptr<float[]> a(new float[n]), b(new float[n]), c(new float[n]);
  float* pa = a.get();
  float* pb = b.get();
  float* pc = c.get();
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    pa[i] = 1.0f;
    pb[i] = 2.0f;
    pc[i] = 0.0f;
  }
  const auto copy = [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) pc[i] = pa[i];
  };
  const auto add = [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  };
  // Note [Streamed probes]: the faster of the plain and the streamed loop.
  const double copy_s =
      std::min(best_seconds(trials, copy),
               best_seconds(trials, [&] { streamed(pc, pa, nullptr, n, threads); }));
  const double add_s = std::min(best_seconds(trials, add),
                                best_seconds(trials, [&] { streamed(pc, pa, pb, n, threads); }));
  const double read_s = best_seconds(trials, [&] { sink = read_pass(pa, n, threads); });
  r.copy_gbs = 8.0 * static_cast<double>(n) / copy_s / 1e9;
  r.add_gbs = 12.0 * static_cast<double>(n) / add_s / 1e9;
  r.read_gbs = 4.0 * static_cast<double>(n) / read_s / 1e9;
}

// The best of copy, add and read over arrays whose footprint is `bytes`, each thread sweeping
// its own slice `passes` times inside one parallel region (no fork-join per pass).
double cache_probe(double bytes, int threads, int trials) {
  const int64_t n = std::max<int64_t>(int64_t{1024}, static_cast<int64_t>(bytes / 12));
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.0f);
  float* pa = a.data();
  float* pb = b.data();
  float* pc = c.data();
  const int passes = static_cast<int>(std::clamp<double>(1e9 / bytes, 1, 8192));  // ~1 GB a trial
  const auto timed = [&](double bytes_per_element, auto body) {
    const double s = best_seconds(trials, [&] {
#pragma omp parallel num_threads(threads)
      {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int64_t b0 = n * t / nt, b1 = n * (t + 1) / nt;
        for (int p = 0; p < passes; ++p) {
          body(b0, b1);
          asm volatile("" ::: "memory");  // each pass is real work
        }
      }
    });
    return bytes_per_element * static_cast<double>(n) * passes / s / 1e9;
  };
  const double copy = timed(8, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0; i < b1; ++i) pc[i] = pa[i];
  });
  const double add = timed(12, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0; i < b1; ++i) pc[i] = pa[i] + pb[i];
  });
  const double read = timed(4, [&](int64_t b0, int64_t b1) {
    float s = 0;
#pragma omp simd reduction(+ : s)
    for (int64_t i = b0; i < b1; ++i) s += pa[i];
    sink = s;
  });
  return std::max({copy, add, read});
}

template <typename T, typename Gemm>
double gemm_probe(int64_t n, int trials, Gemm gemm) {
  std::vector<T> a(n * n, T(0.5)), b(n * n, T(0.25)), c(n * n, T(0));
  const blasint bn = static_cast<blasint>(n);
  auto call = [&] {
    gemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, bn, bn, bn, T(1), a.data(), bn, b.data(), bn,
         T(0), c.data(), bn);
  };
  call();  // warm-up: OpenBLAS starts its threads and packs buffers
  const double s = best_seconds(trials, call);
  return 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / s / 1e9;
}

// The optimized set's mm_out of two n x n matrices, GFLOP/s: the best over n, n / 2 and n / 4
// (our GEMM peaks on operands that stay in cache: 512^3 ran 25 % above 2048^3 at 2 threads),
// each the best of 3 after a warm-up.
double mm_probe(ScalarType t, int64_t n) {
  KernelSetGuard guard("optimized");
  const TensorOptions o(t);
  double best = 0;
  for (const int64_t m : {n, n / 2, n / 4}) {
    const Tensor a = full({m, m}, 0.5, o), b = full({m, m}, 0.25, o), c = empty({m, m}, o);
    mm_out(c, a, b);
    const double s = best_seconds(3, [&] { mm_out(c, a, b); });
    best = std::max(best, 2.0 * static_cast<double>(m) * static_cast<double>(m) *
                              static_cast<double>(m) / s / 1e9);
  }
  return best;
}

}  // namespace

Roofline measure_roofline(bool quick, int threads) {
  Roofline r;
  r.probe = quick ? "quick" : "full";
  r.threads = threads;
  r.stream_elements = quick ? int64_t{32} << 20 : int64_t{128} << 20;
  r.gemm_n = quick ? 1024 : 2048;
  stream_probe(r, quick ? 3 : 5);
  for (double kib : {256.0, 1024.0, 4096.0, 16384.0, 65536.0, 131072.0, 262144.0}) {
    r.cache_gbs.emplace_back(kib * 1024, cache_probe(kib * 1024, threads, quick ? 3 : 5));
  }
  // The optimized set sets OpenBLAS's thread count before each call (Note in linalg.cpp); the
  // probe uses the run's count, which is what those calls set too.
  openblas_set_num_threads(threads);
  // Note [GEMM roof]
  // The compute roof is the faster of OpenBLAS and the optimized set's own mm (float32: our
  // sgemm, which outruns OpenBLAS 0.3.21 where it takes an AVX-512 core for Haswell), so no
  // case reports more than 100 % of it.
  r.sgemm_gflops =
      std::max(gemm_probe<float>(r.gemm_n, 3, cblas_sgemm), mm_probe(kFloat, r.gemm_n));
  r.dgemm_gflops =
      std::max(gemm_probe<double>(r.gemm_n, 3, cblas_dgemm), mm_probe(kDouble, r.gemm_n));
  return r;
}

double Roofline::bandwidth_gbs() const {
  return std::max({copy_gbs, add_gbs, read_gbs});
}

double Roofline::bandwidth_gbs(double bytes) const {
  const double dram = bandwidth_gbs();
  if (cache_gbs.empty() || bytes > cache_gbs.back().first) return dram;
  double roof = cache_gbs.front().second;  // below the smallest footprint: its roof
  for (const auto& [footprint, gbs] : cache_gbs) {
    if (footprint <= bytes) roof = gbs;
  }
  return std::max(roof, dram);
}

double roofline_pct(const Roofline& r, ScalarType dtype, double bytes, double flops,
                    double seconds) {
  if (seconds <= 0) return 0;
  double roof_s = 0;
  const double gbs = r.bandwidth_gbs(bytes);
  if (gbs > 0) roof_s = std::max(roof_s, bytes / (gbs * 1e9));
  if (r.peak_gflops(dtype) > 0) roof_s = std::max(roof_s, flops / (r.peak_gflops(dtype) * 1e9));
  return 100.0 * roof_s / seconds;
}

}  // namespace ts::perf
