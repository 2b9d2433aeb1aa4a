#pragma once
// Optimized CPU kernels of the scans of issue 16 (optimized/cpu/scan.cpp): cumprod and
// logcumsumexp, registered by reduce.cpp's Scan table, and cummax/cummin, registered by
// sort.cpp's Sort table.
#include "touchstone/dispatch.h"

namespace ts::cpu {

void cumprod_kernel(const KernelCall& c);
void logcumsumexp_kernel(const KernelCall& c);
void cum_extreme_kernel(const KernelCall& c, bool is_max);

}  // namespace ts::cpu
