#pragma once
// Whether two kernel sets' times differ by more than the noise: the Mann-Whitney U test over
// their repetitions (Note [Significance of a ratio] in stats.cpp).
#include <vector>

namespace ts::perf {

// Below this p-value a ratio is called significant (Google Benchmark's compare.py uses 0.05 too).
inline constexpr double kSignificance = 0.05;

// The two-sided p-value of the Mann-Whitney U test that a's and b's samples come from the same
// distribution: exact when neither has more than 20 samples and no two samples are equal, else
// the normal approximation with the tie correction and a continuity correction. NaN when
// either has fewer than 2 samples.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

// The smallest p-value two-sided that mann_whitney_p can give n and m samples without ties
// (every sample of one below every sample of the other): 2 / C(n + m, n).
double smallest_p(int n, int m);

}  // namespace ts::perf
