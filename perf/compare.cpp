// compare: match cases by name and kernel set, ratio of medians, geomeans, regressions first.
#include "perf/compare.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "perf/runner.h"
#include "touchstone/error.h"

namespace ts::perf {
namespace {

using nlohmann::json;

// "case/set" -> (family, median seconds) for every ok result.
std::map<std::string, std::pair<std::string, double>> medians(const json& report) {
  std::map<std::string, std::pair<std::string, double>> out;
  for (const json& c : report.at("cases")) {
    for (const auto& [set, r] : c.at("results").items()) {
      if (r.at("status") != "ok") continue;
      out[c.at("name").get<std::string>() + "|" + set] = {c.at("family").get<std::string>(),
                                                          r.at("median_s").get<double>()};
    }
  }
  return out;
}

void note_difference(Comparison& cmp, const std::string& what, const json& a, const json& b) {
  if (a != b) cmp.notes.push_back(what + " differ: " + a.dump() + " vs " + b.dump());
}

}  // namespace

double parse_threshold(const std::string& s) {
  std::string t = s;
  const bool percent = !t.empty() && t.back() == '%';
  if (percent) t.pop_back();
  double v = -1;
  size_t used = 0;
  try {
    v = std::stod(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  TS_CHECK(used == t.size() && !t.empty() && v > 0,
           "compare: --threshold expects a positive percentage such as 5% or 0.05, got '", s, "'");
  return percent || v >= 1 ? v / 100 : v;
}

Comparison compare_reports(const json& base, const json& neu, double threshold) {
  Comparison cmp;
  cmp.threshold = threshold;
  const auto b = medians(base), n = medians(neu);
  for (const auto& [key, fam_t] : n) {
    const auto it = b.find(key);
    const size_t bar = key.rfind('|');
    const std::string label = key.substr(0, bar) + "/" + key.substr(bar + 1);
    if (it == b.end()) {
      cmp.only_in_new.push_back(label);
      continue;
    }
    CompareRow r{key.substr(0, bar), fam_t.first,  key.substr(bar + 1),
                 it->second.second,  fam_t.second, fam_t.second / it->second.second};
    cmp.regressions += r.ratio > 1 + threshold;
    cmp.improvements += r.ratio < 1 / (1 + threshold);
    cmp.rows.push_back(std::move(r));
  }
  for (const auto& [key, v] : b) {
    if (!n.count(key)) {
      const size_t bar = key.rfind('|');
      cmp.only_in_base.push_back(key.substr(0, bar) + "/" + key.substr(bar + 1));
    }
  }
  const double limit = 1 + threshold;
  std::stable_sort(cmp.rows.begin(), cmp.rows.end(), [&](const CompareRow& x, const CompareRow& y) {
    const bool rx = x.ratio > limit, ry = y.ratio > limit;
    if (rx != ry) return rx;
    return x.ratio > y.ratio;
  });
  // Geomeans: per (family, set) in catalog order of first appearance, then per set, then all.
  std::map<std::pair<std::string, std::string>, std::pair<double, int64_t>> acc;
  std::vector<std::pair<std::string, std::string>> order;
  double all_log = 0;
  for (const CompareRow& r : cmp.rows) {
    for (const std::string& fam : {r.family, std::string("all")}) {
      auto key = std::make_pair(fam, r.set);
      if (!acc.count(key)) order.push_back(key);
      acc[key].first += std::log(r.ratio);
      acc[key].second += 1;
    }
    all_log += std::log(r.ratio);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
    return (x.first == "all") < (y.first == "all");
  });
  for (const auto& key : order) {
    const auto& [sum, count] = acc[key];
    cmp.geomeans.push_back({key.first, key.second, count, std::exp(sum / count)});
  }
  if (!cmp.rows.empty()) cmp.overall_geomean = std::exp(all_log / cmp.rows.size());
  const json& bm = base.at("machine");
  const json& nm = neu.at("machine");
  note_difference(cmp, "threads", bm.at("threads"), nm.at("threads"));
  note_difference(cmp, "CPU models", bm.at("cpu_model"), nm.at("cpu_model"));
  note_difference(cmp, "SIMD targets", bm.at("simd_target"), nm.at("simd_target"));
  note_difference(cmp, "commits", bm.at("git_commit"), nm.at("git_commit"));
  note_difference(cmp, "quick flags", base.at("run").at("quick"), neu.at("run").at("quick"));
  return cmp;
}

void print_comparison(const Comparison& c, std::ostream& out) {
  for (const std::string& n : c.notes) out << "note: " << n << "\n";
  const double limit = 1 + c.threshold;
  out << std::left << std::setw(52) << "case" << std::setw(12) << "set" << std::right
      << std::setw(12) << "base" << std::setw(12) << "new" << std::setw(9) << "ratio"
      << "\n";
  bool in_regressions = true;
  if (!c.rows.empty() && c.rows.front().ratio > limit) {
    out << "-- regressions beyond " << c.threshold * 100 << " % --\n";
  }
  for (const CompareRow& r : c.rows) {
    if (in_regressions && r.ratio <= limit) {
      in_regressions = false;
      out << "-- within " << c.threshold * 100 << " % or faster --\n";
    }
    out << std::left << std::setw(52) << r.case_name << std::setw(12) << r.set << std::right
        << std::setw(12) << format_time(r.base_s) << std::setw(12) << format_time(r.new_s)
        << std::setw(9) << std::fixed << std::setprecision(3) << r.ratio
        << (r.ratio > limit       ? "  REGRESSION"
            : r.ratio < 1 / limit ? "  faster"
                                  : "")
        << "\n";
  }
  out << "\ngeomean of new / base per op family\n";
  out << std::left << std::setw(12) << "family" << std::setw(12) << "set" << std::right
      << std::setw(8) << "cases" << std::setw(10) << "geomean"
      << "\n";
  for (const GeomeanRow& g : c.geomeans) {
    out << std::left << std::setw(12) << g.family << std::setw(12) << g.set << std::right
        << std::setw(8) << g.cases << std::setw(10) << std::fixed << std::setprecision(3)
        << g.geomean << "\n";
  }
  out << "overall geomean " << std::setprecision(3) << c.overall_geomean << " over "
      << c.rows.size() << " case/set pairs; " << c.regressions << " regressions, " << c.improvements
      << " faster beyond " << c.threshold * 100 << " %";
  if (!c.only_in_base.empty() || !c.only_in_new.empty()) {
    out << "; unmatched: " << c.only_in_base.size() << " only in base, " << c.only_in_new.size()
        << " only in new";
  }
  out << "\n";
}

}  // namespace ts::perf
