// STREAM-style copy/add loops (OpenMP, first touch by the threads that use the pages) and
// OpenBLAS sgemm/dgemm at a large square size.
#include "perf/probes.h"

#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

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
  const double copy_s = best_seconds(trials, [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) pc[i] = pa[i];
  });
  const double add_s = best_seconds(trials, [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  });
  r.copy_gbs = 8.0 * static_cast<double>(n) / copy_s / 1e9;
  r.add_gbs = 12.0 * static_cast<double>(n) / add_s / 1e9;
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

}  // namespace

Roofline measure_roofline(bool quick, int threads) {
  Roofline r;
  r.probe = quick ? "quick" : "full";
  r.threads = threads;
  r.stream_elements = quick ? int64_t{32} << 20 : int64_t{128} << 20;
  r.gemm_n = quick ? 1024 : 2048;
  stream_probe(r, quick ? 3 : 5);
  // The optimized set sets OpenBLAS's thread count before each call (Note in linalg.cpp); the
  // probe uses the run's count, which is what those calls set too.
  openblas_set_num_threads(threads);
  r.sgemm_gflops = gemm_probe<float>(r.gemm_n, 3, cblas_sgemm);
  r.dgemm_gflops = gemm_probe<double>(r.gemm_n, 3, cblas_dgemm);
  return r;
}

double roofline_pct(const Roofline& r, ScalarType dtype, double bytes, double flops,
                    double seconds) {
  if (seconds <= 0) return 0;
  double roof_s = 0;
  if (r.bandwidth_gbs() > 0) roof_s = std::max(roof_s, bytes / (r.bandwidth_gbs() * 1e9));
  if (r.peak_gflops(dtype) > 0) roof_s = std::max(roof_s, flops / (r.peak_gflops(dtype) * 1e9));
  return 100.0 * roof_s / seconds;
}

}  // namespace ts::perf
