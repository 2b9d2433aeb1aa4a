// Disagreements with the reference that are understood (KnownDifference in catalog/catalog.h):
// the table conformance/known_differences.json, embedded at configure time. Every row names the
// kernel set, the cases it covers, and why the difference is not a bug.
//
// Note [aten known differences]
// The aten set is libtorch 1.13.1's ATen (plugins/aten). Each row below was reproduced against
// libtorch directly (outside touchstone), so it describes PyTorch's behaviour, not the plug-in's;
// plugins/aten/README.md summarizes them. Three kinds:
// - no kernel: ATen 1.13 has no CPU kernel for the dtype, so the plug-in registers none and every
//   case that reaches it raises, naming the op: one row per dtype matches that message, so an
//   op added to the plug-in with ATen's dtypes needs no row;
// - reduced precision: ATen computes some float16/bfloat16 ops with intermediates rounded to the
//   dtype (or accumulates in it), where the reference rounds once from double;
// - edge values and conventions: Sleef, FMA and formula choices at overflow, NaN -> int casts,
//   PyTorch 1.13 bugs fixed later, and random streams (mt19937, not touchstone's Philox).
// The dnnl rows (oneDNN 2.6, plugins/dnnl) are its no-kernel gaps and the oneDNN findings
// reproduced outside touchstone in conformance/findings/dnnl.md (F4-F6).
//
// Note [Known differences as data]
// The rows are a JSON table, one row per reason with its ops listed, rather than C++ calls: as
// calls they were the tree's largest cluster of repeated code (one call shape, 41 times), and a
// row is data to read, review and grep. The table is parsed once, strictly: an unknown field, a
// missing kernel_set, ops or reason, or a non-string value is an error naming the row.
#include <limits>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "conformance/runner.h"

namespace ts::conformance {

extern const char* const kKnownDifferencesJson;  // generated from known_differences.json

namespace {

std::string field(const nlohmann::json& row, const char* key, size_t index, bool required) {
  const auto it = row.find(key);
  if (it == row.end()) {
    TS_CHECK(!required, "known differences: row ", index, " has no '", key, "'");
    return "";
  }
  TS_CHECK(it->is_string(), "known differences: row ", index, ": '", key, "' is not a string");
  return it->get<std::string>();
}

}  // namespace

std::vector<KnownDifference> parse_known_differences(const std::string& text) {
  nlohmann::json table;
  try {
    table = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    TS_ERROR("known differences: not JSON: ", e.what());
  }
  TS_CHECK(table.is_object() && table.contains("differences") && table["differences"].is_array(),
           "known differences: expected an object with a 'differences' array");
  for (const auto& [key, value] : table.items()) {
    TS_CHECK(key == "differences" || key == "$comment", "known differences: unknown field '", key,
             "'");
  }
  const std::set<std::string> keys = {"kernel_set", "device",      "ops",    "dtype",  "sample",
                                      "layout",     "variant",     "check",  "reason", "message",
                                      "evidence",   "max_abs_err", "max_ulp"};
  std::vector<KnownDifference> rows;
  size_t index = 0;
  for (const nlohmann::json& row : table["differences"]) {
    TS_CHECK(row.is_object(), "known differences: row ", index, " is not an object");
    for (const auto& [key, value] : row.items()) {
      TS_CHECK(keys.count(key), "known differences: row ", index, " has an unknown field '", key,
               "'");
    }
    const auto ops = row.find("ops");
    TS_CHECK(ops != row.end() && ops->is_array() && !ops->empty(), "known differences: row ", index,
             " needs a non-empty 'ops' list");
    KnownDifference k;
    k.kernel_set = field(row, "kernel_set", index, true);
    k.device = field(row, "device", index, false);
    k.dtype = field(row, "dtype", index, false);
    k.sample = field(row, "sample", index, false);
    k.layout = field(row, "layout", index, false);
    k.variant = field(row, "variant", index, false);
    k.check = field(row, "check", index, false);
    k.reason = field(row, "reason", index, true);
    k.message = field(row, "message", index, false);
    k.evidence = field(row, "evidence", index, false);
    for (const auto& [key, bound] :
         {std::pair{"max_abs_err", &k.max_abs_err}, std::pair{"max_ulp", &k.max_ulp}}) {
      const auto it = row.find(key);
      if (it == row.end()) continue;
      // "inf": the row explains infinities or NaN where the reference is finite (overflow).
      const bool infinite = it->is_string() && it->get<std::string>() == "inf";
      TS_CHECK(infinite || (it->is_number() && it->get<double>() >= 0), "known differences: row ",
               index, ": '", key, "' is neither a number >= 0 nor \"inf\"");
      *bound = infinite ? std::numeric_limits<double>::infinity() : it->get<double>();
    }
    // Note [Narrow documented differences] in runner.cpp: a row about values (not a missing
    // kernel's message) bounds the errors it explains and says how it was established.
    TS_CHECK(!k.message.empty() || row.contains("max_abs_err") || row.contains("max_ulp"),
             "known differences: row ", index, " (", k.reason.substr(0, 60),
             "...) needs a 'max_abs_err' or 'max_ulp' bound (or a 'message' glob)");
    TS_CHECK(!k.message.empty() || !k.evidence.empty(), "known differences: row ", index, " (",
             k.reason.substr(0, 60), "...) needs its 'evidence'");
    for (const nlohmann::json& op : *ops) {
      TS_CHECK(op.is_string(), "known differences: row ", index, ": an op is not a string");
      k.op = op.get<std::string>();
      rows.push_back(k);
    }
    ++index;
  }
  return rows;
}

const std::vector<KnownDifference>& known_differences() {
  static const std::vector<KnownDifference> rows = parse_known_differences(kKnownDifferencesJson);
  return rows;
}

}  // namespace ts::conformance
