#pragma once
// ctc_loss's log-sum rows in vector lanes (Note [ctc_loss's rows in lanes] in ctc_lanes.cpp).
#include <cstdint>

namespace ts::cpu {

// out[s] = log(exp(a[s]) + exp(b[s]) + exp(c[s])) + add[s] for s < n, the term c[s] only where
// keep_c[s] is 1.0; -inf where every term is -inf. The largest term counts exactly 1 and the
// others add about it (Note [ctc_loss's log sums] in loss.cpp). Every value is finite or -inf.
// Whole vectors only: the arrays are read, and out written, up to n rounded up to kCtcPad.
inline constexpr int64_t kCtcPad = 16;
void ctc_log_sum_row(const double* a, const double* b, const double* c, const double* keep_c,
                     const double* add, int64_t n, double* out);

}  // namespace ts::cpu
