// Report assembly: the run's identity, machine description, summary, one object per case; the
// merge of shards; the cases as JUnit sees them.
#include "conformance/report.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "reports/json_schema.h"
#include "reports/junit.h"
#include "reports/machine.h"
#include "reports/text.h"
#include "touchstone/cpu_capability.h"
#include "touchstone/version.h"

namespace ts::conformance {
namespace {

std::string device_string(const Device& d) {
  std::ostringstream os;
  os << d;
  return os.str();
}

nlohmann::json summary_json(const Summary& s) {
  return {{"cases", s.cases},           {"passed", s.passed},
          {"failed", s.failed},         {"flaky", s.flaky},
          {"errors", s.errors},         {"crashed", s.crashed},
          {"timeout", s.timeout},       {"overrun", s.overrun},
          {"documented", s.documented}, {"mistrusted", s.mistrusted},
          {"warnings", s.warnings},     {"delegated", s.delegated},
          {"nonempty", s.nonempty},     {"nonempty_mistrusted", s.nonempty_mistrusted}};
}

// "a, b,a" -> ["a", "b"]: a filter list as a sorted set (the order selects nothing).
nlohmann::json sorted_list(const std::string& list) {
  std::set<std::string> parts;
  std::stringstream ss(list);
  for (std::string p; std::getline(ss, p, ',');) {
    const size_t b = p.find_first_not_of(" \t");
    if (b != std::string::npos) parts.insert(p.substr(b, p.find_last_not_of(" \t") - b + 1));
  }
  return nlohmann::json(std::vector<std::string>(parts.begin(), parts.end()));
}

// The --case filter with its parts trimmed and empty trailing parts dropped ("big/" -> "big").
std::string normalized_case(const std::string& filter) {
  std::vector<std::string> parts = case_filter_parts(filter);
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out;
}

}  // namespace

// Everything of a report but its results: who ran what where, and the run's identity (Note
// [Merging shards]): every option that changes the set of cases or their statuses.
nlohmann::json report_header(const RunOptions& o) {
  std::vector<ScalarType> dts = o.dtypes;
  std::sort(dts.begin(), dts.end());
  dts.erase(std::unique(dts.begin(), dts.end()), dts.end());
  nlohmann::json dtypes = nlohmann::json::array();
  for (ScalarType dt : dts) dtypes.push_back(std::string(dtype_name(dt)));
  return {{"schema_version", reports::kConformanceSchemaVersion},
          {"tool_version", kVersion},
          {"git_commit", reports::git_commit()},
          {"timestamp", reports::utc_timestamp()},
          {"machine",
           {{"cpu_model", reports::cpu_model("unknown")},
            {"cores", std::thread::hardware_concurrency()},
            {"simd_target", cpu::capability()},
            {"gpu", o.device.type() == kCPU ? nlohmann::json(nullptr)
                                            : nlohmann::json(device_string(o.device))}}},
          {"kernel_set", o.kernel_set},
          {"device", std::string(device_type_name(o.device.type()))},
          {"options",
           {{"ops", sorted_list(o.ops)},
            {"families", sorted_list(o.families)},
            {"dtypes", dtypes},
            {"case", normalized_case(o.case_filter)},
            {"grad", o.grad},
            {"isolate", o.isolate},
            {"timeout_s", o.isolate ? nlohmann::json(o.case_timeout_s) : nlohmann::json(nullptr)},
            {"guard", o.guard},
            {"repeat", o.repeat},
            {"plugins", o.plugins}}},
          {"shard", {{"index", o.shard_index}, {"count", o.shard_count}}}};
}

nlohmann::json case_to_json(const CaseResult& c) {
  nlohmann::json j = {{"op", c.op},
                      {"dtype", c.dtype},
                      {"sample", c.sample},
                      {"layout", c.layout},
                      {"variant", c.variant},
                      {"check", c.check},
                      {"status", c.status},
                      {"max_abs_err", c.max_abs_err},
                      {"max_rel_err", c.max_rel_err},
                      {"max_ulp", c.max_ulp},
                      {"mistrusted", c.mistrusted},
                      {"warning", c.warning},
                      {"numel", c.numel},
                      {"empty_inputs", c.empty_inputs},
                      {"seconds", c.seconds}};
  if (!c.warning_message.empty()) j["warning_message"] = c.warning_message;
  if (!c.message.empty()) j["message"] = c.message;
  if (!c.repro.empty()) j["repro"] = c.repro;
  if (!c.delegated_to.empty()) j["delegated_to"] = c.delegated_to;
  if (c.runs > 1) {
    j["runs"] = c.runs;
    j["failed_runs"] = c.failed_runs;
  }
  if (!c.kernels.empty()) j["kernels"] = c.kernels;
  if (!c.fails_alone.empty()) j["fails_alone"] = c.fails_alone;
  return j;
}

CaseResult case_from_json(const nlohmann::json& j) {
  CaseResult c;
  c.op = j.at("op");
  c.dtype = j.at("dtype");
  c.sample = j.at("sample");
  c.layout = j.at("layout");
  c.variant = j.at("variant");
  c.check = j.at("check");
  c.status = j.at("status");
  // JSON has no NaN or infinity: nlohmann writes them as null.
  auto number = [&](const char* key) {
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
  };
  c.max_abs_err = number("max_abs_err");
  c.max_rel_err = number("max_rel_err");
  c.max_ulp = number("max_ulp");
  c.seconds = number("seconds");
  c.mistrusted = j.value("mistrusted", false);
  c.numel = j.value("numel", int64_t{0});
  c.empty_inputs = j.value("empty_inputs", false);
  c.warning = j.value("warning", false);
  c.warning_message = j.value("warning_message", "");
  c.message = j.value("message", "");
  c.repro = j.value("repro", "");
  c.delegated_to = j.value("delegated_to", "");
  c.runs = j.value("runs", 1);
  c.failed_runs = j.value("failed_runs", 0);
  c.kernels = j.value("kernels", std::vector<std::string>{});
  c.fails_alone = j.value("fails_alone", std::vector<std::string>{});
  return c;
}

nlohmann::json report_json(const RunResult& result, const RunOptions& options) {
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseResult& c : result.cases) cases.push_back(case_to_json(c));
  nlohmann::json j = report_header(options);
  j["seconds"] = result.seconds;
  j["skipped_samples"] = result.skipped_samples;
  j["summary"] = summary_json(result.summary());
  j["cases"] = std::move(cases);
  return j;
}

std::vector<std::string> schema_violations(const nlohmann::json& j) {
  return reports::validate_json(reports::conformance_schema(), j);
}

void check_schema(const nlohmann::json& j, const std::string& what) {
  const std::vector<std::string> v = schema_violations(j);
  if (v.empty()) return;
  std::string first;
  for (size_t i = 0; i < v.size() && i < 3; ++i) first += (i ? "; " : "") + v[i];
  TS_CHECK(false, what, " does not validate against conformance.schema.json (", v.size(),
           " violations): ", first);
}

namespace {

// The identity fields of a report (Note [Merging shards]) as (name, value) pairs.
std::vector<std::pair<std::string, nlohmann::json>> identity(const nlohmann::json& r) {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  for (const char* key : {"schema_version", "tool_version", "git_commit", "kernel_set", "device"}) {
    out.emplace_back(key, r.value(key, nlohmann::json()));
  }
  for (const auto& [key, value] : r.at("options").items())
    out.emplace_back("options." + key, value);
  out.emplace_back("shard.count", r.at("shard").at("count"));
  return out;
}

std::string shard_text(int64_t index, int64_t count) {
  return std::to_string(index) + "/" + std::to_string(count);
}

}  // namespace

nlohmann::json merge_reports(const std::vector<nlohmann::json>& reports,
                             const std::vector<std::string>& names) {
  TS_CHECK(!reports.empty(), "merge: no reports given");
  auto name = [&](size_t i) {
    return i < names.size() ? "'" + names[i] + "'" : "report " + std::to_string(i + 1);
  };
  for (size_t i = 0; i < reports.size(); ++i) {
    const nlohmann::json v = reports[i].is_object()
                                 ? reports[i].value("schema_version", nlohmann::json())
                                 : nlohmann::json();
    TS_CHECK(v == reports::kConformanceSchemaVersion, "merge: ", name(i), " has schema_version ",
             v.is_null() ? "none" : v.dump(), "; this touchstone merges version ",
             reports::kConformanceSchemaVersion, " (rerun that shard with it)");
    check_schema(reports[i], "merge: " + name(i));
  }
  const auto first = identity(reports.front());
  for (size_t i = 1; i < reports.size(); ++i) {
    const auto mine = identity(reports[i]);
    for (size_t k = 0; k < first.size(); ++k) {
      TS_CHECK(mine.size() == first.size() && mine[k] == first[k], "merge: ", name(i), " and ",
               name(0), " are not shards of one run: ", first[k].first, " is ",
               k < mine.size() ? mine[k].second.dump() : "missing", " in ", name(i), " and ",
               first[k].second.dump(), " in ", name(0));
    }
  }
  // Each shard 1..N exactly once.
  const int64_t count = reports.front()["shard"]["count"].get<int64_t>();
  std::map<int64_t, size_t> seen;
  for (size_t i = 0; i < reports.size(); ++i) {
    const int64_t index = reports[i]["shard"]["index"].get<int64_t>();
    TS_CHECK(index <= count, "merge: ", name(i), " claims shard ", shard_text(index, count));
    const auto [it, fresh] = seen.emplace(index, i);
    TS_CHECK(fresh, "merge: shard ", shard_text(index, count), " is given twice (",
             name(it->second), " and ", name(i), ")");
  }
  std::string missing, given;
  for (int64_t k = 1; k <= count; ++k) {
    std::string& to = seen.count(k) ? given : missing;
    to += (to.empty() ? "" : ", ") + shard_text(k, count);
  }
  TS_CHECK(missing.empty(), "merge: shard", missing.find(',') == std::string::npos ? " " : "s ",
           missing, " missing (given: ", given, ")");
  // Cases in the order of an unsharded run: groups in catalog order, dtypes in enum order.
  std::map<std::string, size_t> position;
  for (size_t k = 0; k < catalog().size(); ++k) position.emplace(catalog()[k].name, k);
  auto group_key = [&](const CaseResult& c) {
    const auto it = position.find(c.op);
    return std::make_pair(it == position.end() ? catalog().size() : it->second,
                          static_cast<int>(parse_dtype(c.dtype)));
  };
  RunResult all;
  double seconds = 0;
  int64_t skipped = 0;
  std::string timestamp;
  for (const nlohmann::json& r : reports) {
    for (const nlohmann::json& c : r.at("cases")) all.cases.push_back(case_from_json(c));
    seconds += r.value("seconds", 0.0);
    skipped += r.value("skipped_samples", int64_t{0});
    timestamp = std::max(timestamp, r.value("timestamp", std::string()));
  }
  std::stable_sort(
      all.cases.begin(), all.cases.end(),
      [&](const CaseResult& a, const CaseResult& b) { return group_key(a) < group_key(b); });
  nlohmann::json out = reports.front();
  out["cases"] = nlohmann::json::array();
  for (const CaseResult& c : all.cases) out["cases"].push_back(case_to_json(c));
  out["summary"] = summary_json(all.summary());
  out["seconds"] = seconds;
  out["skipped_samples"] = skipped;
  out["timestamp"] = timestamp;
  out["shard"] = {{"index", 1}, {"count", 1}};
  return out;
}

RunResult result_from_report(const nlohmann::json& report) {
  RunResult r;
  r.kernel_set = report.at("kernel_set").get<std::string>();
  for (const nlohmann::json& c : report.at("cases")) r.cases.push_back(case_from_json(c));
  r.skipped_samples = report.value("skipped_samples", int64_t{0});
  r.seconds = report.value("seconds", 0.0);
  return r;
}

std::string junit_xml(const RunResult& result) {
  using Outcome = reports::JUnitCase::Outcome;
  std::vector<reports::JUnitCase> cases;
  for (const CaseResult& c : result.cases) {
    reports::JUnitCase j;
    j.suite = c.op;
    j.classname = result.kernel_set + "." + c.op;
    j.name = c.dtype + " " + c.sample + "/" + c.layout + "/" + c.variant + "/" + c.check;
    j.seconds = c.seconds;
    j.outcome = c.status == "passed"                          ? Outcome::passed
                : c.status == "documented"                    ? Outcome::skipped
                : c.status == "failed" || c.status == "flaky" ? Outcome::failure
                                                              : Outcome::error;
    j.type = c.status;
    j.message = c.message;
    j.text = "repro: " + c.repro;
    for (size_t k = 0; k < c.kernels.size(); ++k) {
      j.text += (k == 0 ? "\nkernels: " : ", ") + c.kernels[k];
    }
    for (const std::string& f : c.fails_alone) j.text += "\n" + f;
    cases.push_back(std::move(j));
  }
  return reports::junit_xml("touchstone conform " + result.kernel_set, cases, result.seconds);
}

}  // namespace ts::conformance
