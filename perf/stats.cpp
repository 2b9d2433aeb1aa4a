// The Mann-Whitney U test behind a ratio's p-value (bench's report and summary).
#include "perf/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace ts::perf {
namespace {

// Note [Significance of a ratio]
// A ratio of two medians of 5 repetitions says nothing about whether the difference is larger
// than the noise: on a shared machine a memory-bound case moves by 5-10 % from run to run. U
// counts the pairs (a_i, b_j) with a_i > b_j (ties count 1/2); under the hypothesis that both
// sets' times come from one distribution, every way of ranking the n + m samples is equally
// likely, which gives U's distribution exactly for small samples. Repetitions are interleaved at
// random across sets (Note [Interleaved repetitions] in runner.cpp), so a drift of the machine
// touches both. With 5 repetitions each the smallest p is 2/252 = 0.008: a significant
// difference needs nearly every repetition of one set faster than every one of the other.

// counts[u]: in how many of the C(n + m, n) orders of n a's and m b's exactly u pairs have the a
// after the b; by the last element: an a (after all m b's) or a b (after no a).
std::vector<double> u_counts(int n, int m) {
  // table[i][j] holds the counts for i a's and j b's.
  std::vector<std::vector<std::vector<double>>> table(
      static_cast<size_t>(n) + 1, std::vector<std::vector<double>>(static_cast<size_t>(m) + 1));
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= m; ++j) {
      std::vector<double>& c = table[static_cast<size_t>(i)][static_cast<size_t>(j)];
      c.assign(static_cast<size_t>(i * j) + 1, 0.0);
      if (i == 0 || j == 0) {
        c[0] = 1;
        continue;
      }
      const auto& last_a = table[static_cast<size_t>(i) - 1][static_cast<size_t>(j)];
      const auto& last_b = table[static_cast<size_t>(i)][static_cast<size_t>(j) - 1];
      for (size_t u = 0; u < last_a.size(); ++u) c[u + static_cast<size_t>(j)] += last_a[u];
      for (size_t u = 0; u < last_b.size(); ++u) c[u] += last_b[u];
    }
  }
  return table[static_cast<size_t>(n)][static_cast<size_t>(m)];
}

}  // namespace

double smallest_p(int n, int m) {
  const std::vector<double> c = u_counts(n, m);
  return std::min(1.0, 2.0 / std::accumulate(c.begin(), c.end(), 0.0));
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  if (n < 2 || m < 2) return std::numeric_limits<double>::quiet_NaN();
  // Midranks (1-based) of the pooled samples; `ties` sums t^3 - t over groups of t equal ones.
  std::vector<std::pair<double, bool>> pooled;  // (time, from a)
  for (double x : a) pooled.emplace_back(x, true);
  for (double x : b) pooled.emplace_back(x, false);
  std::sort(pooled.begin(), pooled.end());
  double rank_sum_a = 0, ties = 0;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j + 1 < pooled.size() && pooled[j + 1].first == pooled[i].first) ++j;
    const double midrank = static_cast<double>(i + j) / 2 + 1;
    for (size_t k = i; k <= j; ++k) rank_sum_a += pooled[k].second ? midrank : 0.0;
    const double t = static_cast<double>(j - i + 1);
    ties += t * t * t - t;
    i = j + 1;
  }
  const double u = rank_sum_a - n * (n + 1) / 2.0;
  if (ties == 0 && n <= 20 && m <= 20) {
    const std::vector<double> c = u_counts(n, m);
    const double total = std::accumulate(c.begin(), c.end(), 0.0);
    double below = 0, above = 0;  // P(U <= u), P(U >= u)
    for (size_t k = 0; k < c.size(); ++k) {
      below += static_cast<double>(k) <= u ? c[k] : 0.0;
      above += static_cast<double>(k) >= u ? c[k] : 0.0;
    }
    return std::min(1.0, 2 * std::min(below, above) / total);
  }
  const double nm = static_cast<double>(n) * m, total = n + m;
  const double variance = nm / 12 * ((total + 1) - ties / (total * (total - 1)));
  if (variance <= 0) return 1.0;  // every sample equal
  const double z = std::max(0.0, std::abs(u - nm / 2) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace ts::perf
