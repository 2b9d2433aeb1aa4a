#pragma once
// Roofline probes: the machine's STREAM-style copy/add bandwidth and its peak GEMM rate, measured
// at the start of a run with the run's thread count and stored in the report.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "touchstone/dtype.h"

namespace ts::perf {

struct Roofline {
  std::string probe;  // "quick" (32 M-element arrays, GEMM 1024) or "full" (128 M, 2048)
  int threads = 1;
  int64_t stream_elements = 0;  // float32 elements per STREAM array
  double copy_gbs = 0;          // b[i] = a[i]: 8 bytes per element
  double add_gbs = 0;           // c[i] = a[i] + b[i]: 12 bytes per element
  double read_gbs = 0;          // s += a[i]: 4 bytes per element
  int64_t gemm_n = 0;           // square side of the GEMM probes
  double sgemm_gflops = 0;      // the faster of OpenBLAS and the optimized set's mm, 2·n³ a call
  double dgemm_gflops = 0;

  // Note [Cache roofs]
  // A case whose data fit in a cache is not bound by DRAM: the same loops (copy, add, read) run
  // over footprints of 256 KiB to 256 MiB give a roof per footprint, ascending, each the best of
  // the three. A case moving B bytes is held to the bandwidth probed at the largest footprint
  // <= B (a smaller footprint sits at least as high in the hierarchy; below the smallest, that
  // one's), and to DRAM's beyond the largest.
  std::vector<std::pair<double, double>> cache_gbs;  // {footprint bytes, GB/s}

  // The DRAM roof: the best of copy, add and read (no write-allocate counted, as STREAM).
  double bandwidth_gbs() const;
  // The roof for a case that moves `bytes` (Note [Cache roofs]).
  double bandwidth_gbs(double bytes) const;
  // The compute roof: dgemm's rate for float64, sgemm's for every other dtype.
  double peak_gflops(ScalarType t) const { return t == kDouble ? dgemm_gflops : sgemm_gflops; }
};

// Runs the probes (best of several trials each); takes ~1 s quick, ~5 s full on 2 cores.
Roofline measure_roofline(bool quick, int threads);

// Note [Roofline percentage]
// The roofline time of a case is max(bytes / bandwidth, flops / peak): the least time the
// machine needs for its compulsory traffic and its arithmetic. The percentage is that time over
// the measured median: 100 % means the case runs at a roof. The memory roof follows the case's
// footprint down the caches (Note [Cache roofs]).
double roofline_pct(const Roofline& r, ScalarType dtype, double bytes, double flops,
                    double seconds);

}  // namespace ts::perf
