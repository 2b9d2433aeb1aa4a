// compare: read and validate perf reports, match cases by name and kernel set, ratio of
// medians, geomeans, regressions first.
#include "reports/compare.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "reports/files.h"
#include "reports/json_schema.h"
#include "reports/text.h"
#include "touchstone/error.h"

namespace ts::reports {
namespace {

using nlohmann::json;

struct Measured {
  std::string family, status;
  double median_s = 0;
  bool noisy = false;  // Note [Noisy cases] in perf/runner.h (schema 2; version 1 has none)
};

// "case|set" -> its result, for every result of the report.
std::map<std::string, Measured> results(const json& report) {
  std::map<std::string, Measured> out;
  for (const json& c : report.at("cases")) {
    for (const auto& [set, r] : c.at("results").items()) {
      Measured m{c.at("family").get<std::string>(), r.at("status").get<std::string>(), 0};
      if (m.status == "ok") m.median_s = r.at("median_s").get<double>();
      m.noisy = r.value("noisy", false);
      out[c.at("name").get<std::string>() + "|" + set] = std::move(m);
    }
  }
  return out;
}

std::string pair_label(const std::string& key) {
  const size_t bar = key.rfind('|');
  return key.substr(0, bar) + "/" + key.substr(bar + 1);
}

// The ops and kernel sets with an ok result, and their count: what a report can be matched on.
struct Measures {
  std::set<std::string> ops, sets;
  int64_t ok = 0;
  bool quick = false;
};

Measures measures(const json& report) {
  Measures m;
  m.quick = report.at("run").at("quick").get<bool>();
  for (const json& c : report.at("cases")) {
    for (const auto& [set, r] : c.at("results").items()) {
      if (r.at("status") != "ok") continue;
      m.ops.insert(c.at("op").get<std::string>());
      m.sets.insert(set);
      ++m.ok;
    }
  }
  return m;
}

std::string first_few(const std::set<std::string>& names) {
  std::string s;
  size_t n = 0;
  for (const std::string& x : names) {
    if (n++ == 8) return s + ", ... (" + std::to_string(names.size()) + " in all)";
    s += (s.empty() ? "" : ", ") + x;
  }
  return s.empty() ? "none" : s;
}

bool disjoint(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::none_of(a.begin(), a.end(), [&](const std::string& x) { return b.count(x) > 0; });
}

// Note [Nothing matched]
// A comparison without a single (case, set) pair in common has no ratio to judge, and a CI
// gate that passes on it passes on anything (two different --ops selections, an aten report
// against an optimized one, a quick run against a full one). It is an error that says why.
[[noreturn]] void nothing_matched(const json& base, const json& neu, const CompareOptions& o) {
  const Measures b = measures(base), n = measures(neu);
  std::string why;
  if (b.ok == 0 || n.ok == 0) {
    why = (b.ok == 0 ? o.base_name : o.new_name) + " has no ok result";
  } else if (disjoint(b.ops, n.ops)) {
    why = "no op in common";
  } else if (disjoint(b.sets, n.sets)) {
    why = "no kernel set in common";
  } else {
    why = "the ops and kernel sets overlap but no case does (other shapes, dtypes or layouts";
    why += b.quick != n.quick ? ": a --quick run against a full one)" : ")";
  }
  TS_ERROR("compare: nothing to compare, no case/set pair is measured in both reports: ", why, ". ",
           o.base_name, ": ", b.ok, " ok results, ops ", first_few(b.ops), "; kernel sets ",
           first_few(b.sets), ". ", o.new_name, ": ", n.ok, " ok results, ops ", first_few(n.ops),
           "; kernel sets ", first_few(n.sets), ".");
}

// A threshold as a percentage: 0.05 -> "5 %", 0.125 -> "12.5 %".
std::string percent(double fraction) {
  std::ostringstream o;
  o << std::defaultfloat << std::setprecision(6) << fraction * 100 << " %";
  return o.str();
}

void note_difference(Comparison& cmp, const std::string& what, const json& a, const json& b) {
  if (a != b) cmp.notes.push_back(what + " differ: " + a.dump() + " vs " + b.dump());
}

// compare_reports without its safety net: a missing member throws nlohmann's exception.
Comparison compare_json(const json& base, const json& neu, const CompareOptions& options) {
  Comparison cmp;
  const double threshold = options.threshold;
  cmp.threshold = threshold;
  cmp.allow_missing = options.allow_missing;
  const auto b = results(base), n = results(neu);
  for (const auto& [key, m] : n) {
    if (m.status != "ok") continue;
    const auto it = b.find(key);
    if (it == b.end() || it->second.status != "ok") {
      cmp.only_in_new.push_back(pair_label(key));
      continue;
    }
    if (!options.include_noisy && (m.noisy || it->second.noisy)) {
      const char* which = m.noisy && it->second.noisy ? "both" : m.noisy ? "NEW" : "BASE";
      cmp.noisy.push_back(pair_label(key) + " (" + which + ")");
      continue;
    }
    const size_t bar = key.rfind('|');
    CompareRow r{key.substr(0, bar),  m.family,   key.substr(bar + 1),
                 it->second.median_s, m.median_s, m.median_s / it->second.median_s};
    cmp.regressions += r.ratio > 1 + threshold;
    cmp.improvements += r.ratio < 1 / (1 + threshold);
    cmp.rows.push_back(std::move(r));
  }
  // Pairs left out as noisy were measured in both: that is not "nothing in common".
  if (cmp.rows.empty() && cmp.noisy.empty()) nothing_matched(base, neu, options);
  for (const auto& [key, m] : b) {
    if (m.status != "ok") continue;
    const auto it = n.find(key);
    if (it == n.end()) {
      cmp.missing.push_back({pair_label(key), "absent"});
    } else if (it->second.status != "ok") {
      cmp.missing.push_back({pair_label(key), it->second.status});
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

int Comparison::exit_status() const {
  return regressions > 0 || (!allow_missing && !missing.empty()) ? 1 : 0;
}

nlohmann::json load_perf_report(const std::string& path, std::string_view what) {
  const std::string text = read_file(path, what);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    TS_ERROR(what, ": '", path, "' is not JSON (", e.what(), ")");
  }
  TS_CHECK(j.is_object(), what, ": '", path, "' holds a JSON ", j.type_name(),
           ", not a perf report (touchstone bench --report)");
  const bool conformance = !j.contains("kind") && j.contains("kernel_set") && j.contains("summary");
  if (conformance || (j.contains("kind") && j["kind"] != "touchstone-perf")) {
    TS_ERROR(what, ": '", path, "' is ",
             conformance ? "a conformance report (touchstone conform)"
                         : "a report of kind " + j["kind"].dump(),
             ", not a perf report (touchstone bench --report)");
  }
  const std::vector<std::string> errors = validate_json(perf_schema(), j);
  std::string first;
  for (size_t i = 0; i < errors.size() && i < 5; ++i) first += "\n  " + errors[i];
  TS_CHECK(errors.empty(), what, ": '", path, "' does not match perf.schema.json (", errors.size(),
           " errors):", first);
  return j;
}

Comparison compare_reports(const json& base, const json& neu, const CompareOptions& options) {
  try {
    return compare_json(base, neu, options);
  } catch (const json::exception& e) {
    // The schema admits every report compare reads; this is the safety net.
    TS_ERROR("compare: cannot read the reports' cases: ", e.what());
  }
}

void print_comparison(const Comparison& c, std::ostream& out) {
  for (const std::string& n : c.notes) out << "note: " << n << "\n";
  if (!c.missing.empty()) {
    out << "-- " << c.missing.size() << " case/set pairs measured in base are missing from new ("
        << (c.allow_missing ? "allowed by --allow-missing" : "a failure; --allow-missing accepts")
        << ") --\n";
    for (const MissingPair& m : c.missing) {
      out << "  " << m.pair << (m.in_new == "absent" ? "" : "  (" + m.in_new + " in new)") << "\n";
    }
  }
  const double limit = 1 + c.threshold;
  out << std::left << std::setw(52) << "case" << std::setw(12) << "set" << std::right
      << std::setw(12) << "base" << std::setw(12) << "new" << std::setw(9) << "ratio"
      << "\n";
  bool in_regressions = true;
  if (!c.rows.empty() && c.rows.front().ratio > limit) {
    out << "-- regressions beyond " << percent(c.threshold) << " --\n";
  }
  for (const CompareRow& r : c.rows) {
    if (in_regressions && r.ratio <= limit) {
      in_regressions = false;
      out << "-- within " << percent(c.threshold) << " or faster --\n";
    }
    out << std::left << std::setw(52) << r.case_name << std::setw(12) << r.set << std::right
        << std::setw(12) << format_time(r.base_s) << std::setw(12) << format_time(r.new_s)
        << std::setw(9) << std::fixed << std::setprecision(3) << r.ratio
        << (r.ratio > limit       ? "  REGRESSION"
            : r.ratio < 1 / limit ? "  faster"
                                  : "")
        << "\n";
  }
  if (!c.only_in_new.empty()) {
    out << "-- " << c.only_in_new.size() << " case/set pairs only in new (not compared) --\n";
    for (const std::string& p : c.only_in_new) out << "  " << p << "\n";
  }
  if (!c.noisy.empty()) {
    out << "-- " << c.noisy.size() << " case/set pairs noisy in base or new, not compared "
        << "(--include-noisy compares them) --\n";
    for (const std::string& p : c.noisy) out << "  " << p << "\n";
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
      << " faster beyond " << percent(c.threshold) << "; " << c.missing.size()
      << " missing from new, " << c.only_in_new.size() << " only in new, " << c.noisy.size()
      << " noisy\n";
  if (c.exit_status() == 0) {
    out << "result: pass\n";
    return;
  }
  out << "result: FAIL (";
  if (c.regressions > 0) out << c.regressions << " regressions beyond " << percent(c.threshold);
  if (c.regressions > 0 && !c.missing.empty() && !c.allow_missing) out << ", ";
  if (!c.missing.empty() && !c.allow_missing) out << c.missing.size() << " pairs missing from new";
  out << ")\n";
}

}  // namespace ts::reports
