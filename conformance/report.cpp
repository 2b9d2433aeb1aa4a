// Report assembly: machine description, summary, one object per case; atomic writes.
#include "conformance/report.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "reports/json_schema.h"
#include "touchstone/cpu_capability.h"
#include "touchstone/version.h"

#ifndef TS_GIT_COMMIT
#define TS_GIT_COMMIT "unknown"
#endif

namespace ts::conformance {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

std::string device_string(const Device& d) {
  std::ostringstream os;
  os << d;
  return os.str();
}

std::string utc_timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

nlohmann::json summary_json(const Summary& s) {
  return {{"cases", s.cases},     {"passed", s.passed},         {"failed", s.failed},
          {"errors", s.errors},   {"crashed", s.crashed},       {"timeout", s.timeout},
          {"overrun", s.overrun}, {"documented", s.documented}, {"mistrusted", s.mistrusted}};
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters.
        out += (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t') ? '?' : ch;
    }
  }
  return out;
}

}  // namespace

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
                      {"seconds", c.seconds}};
  if (!c.message.empty()) j["message"] = c.message;
  if (!c.repro.empty()) j["repro"] = c.repro;
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
  c.message = j.value("message", "");
  c.repro = j.value("repro", "");
  return c;
}

nlohmann::json report_json(const RunResult& result, const RunOptions& options) {
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseResult& c : result.cases) cases.push_back(case_to_json(c));
  return {
      {"schema_version", kReportSchemaVersion},
      {"tool_version", kVersion},
      {"git_commit", TS_GIT_COMMIT},
      {"timestamp", utc_timestamp()},
      {"machine",
       {{"cpu_model", cpu_model()},
        {"cores", std::thread::hardware_concurrency()},
        {"simd_target", cpu::capability()},
        {"gpu", options.device.type() == kCPU ? nlohmann::json(nullptr)
                                              : nlohmann::json(device_string(options.device))}}},
      {"kernel_set", result.kernel_set},
      {"device", std::string(device_type_name(options.device.type()))},
      {"options",
       {{"ops", options.ops},
        {"families", options.families},
        {"grad", options.grad},
        {"isolate", options.isolate},
        {"shard",
         std::to_string(options.shard_index) + "/" + std::to_string(options.shard_count)}}},
      {"seconds", result.seconds},
      {"skipped_samples", result.skipped_samples},
      {"summary", summary_json(result.summary())},
      {"cases", cases}};
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

nlohmann::json merge_reports(const std::vector<nlohmann::json>& reports) {
  TS_CHECK(!reports.empty(), "merge: no reports given");
  for (size_t i = 0; i < reports.size(); ++i) {
    check_schema(reports[i], "merge: report " + std::to_string(i + 1));
  }
  nlohmann::json out = reports.front();
  RunResult all;
  double seconds = 0;
  int64_t skipped = 0;
  for (const nlohmann::json& r : reports) {
    for (const char* key : {"schema_version", "kernel_set", "device"}) {
      TS_CHECK(r.at(key) == out.at(key), "merge: the reports disagree on ", key, " (",
               r.at(key).dump(), " vs ", out.at(key).dump(), ")");
    }
    for (const nlohmann::json& c : r.at("cases")) all.cases.push_back(case_from_json(c));
    seconds += r.value("seconds", 0.0);
    skipped += r.value("skipped_samples", int64_t{0});
  }
  out["cases"] = nlohmann::json::array();
  for (const CaseResult& c : all.cases) out["cases"].push_back(case_to_json(c));
  out["summary"] = summary_json(all.summary());
  out["seconds"] = seconds;
  out["skipped_samples"] = skipped;
  out["options"]["shard"] = "merged from " + std::to_string(reports.size()) + " reports";
  return out;
}

std::string junit_xml(const RunResult& result) {
  std::map<std::string, std::vector<const CaseResult*>> per_op;
  for (const CaseResult& c : result.cases) per_op[c.op].push_back(&c);
  const Summary total = result.summary();
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"touchstone conform "
    << xml_escape(result.kernel_set) << "\" tests=\"" << total.cases << "\" failures=\""
    << total.cases - total.passed - total.documented << "\" time=\"" << result.seconds << "\">\n";
  for (const auto& [op, cases] : per_op) {
    int64_t failures = 0;
    for (const CaseResult* c : cases)
      failures += c->status != "passed" && c->status != "documented";
    x << " <testsuite name=\"" << xml_escape(op) << "\" tests=\"" << cases.size()
      << "\" failures=\"" << failures << "\">\n";
    for (const CaseResult* c : cases) {
      x << "  <testcase classname=\"" << xml_escape(result.kernel_set + "." + op) << "\" name=\""
        << xml_escape(c->dtype + " " + c->sample + "/" + c->layout + "/" + c->variant + "/" +
                      c->check)
        << "\" time=\"" << c->seconds << "\"";
      if (c->status == "passed") {
        x << "/>\n";
      } else if (c->status == "documented") {
        x << "><skipped message=\"" << xml_escape(c->message) << "\"/></testcase>\n";
      } else {
        x << "><failure type=\"" << c->status << "\" message=\"" << xml_escape(c->message) << "\">"
          << xml_escape("repro: " + c->repro) << "</failure></testcase>\n";
      }
    }
    x << " </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

void write_report(const std::string& path, const nlohmann::json& j) {
  write_file_atomically(path, j.dump(1) + "\n");
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    TS_CHECK(out.good(), "conform: cannot write ", tmp);
    out << text;
    out.flush();
    TS_CHECK(out.good(), "conform: writing ", tmp, " failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    TS_CHECK(false, "conform: cannot rename ", tmp, " to ", path);
  }
}

}  // namespace ts::conformance
