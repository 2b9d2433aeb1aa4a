// The conformance loop: selects the groups (entry x dtype) of this shard, runs them in process
// or isolated, and marks documented differences.
#include "conformance/runner.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <sstream>

#include "conformance/guard.h"

namespace ts::conformance {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, sep);) {
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

bool glob_or_empty(const std::string& pattern, const std::string& s) {
  return pattern.empty() || glob_match(pattern, s);
}

// A failed or erroring case that a row of the entry's `documented` or of known_differences()
// covers becomes "documented"; crashes, hangs and overruns are never explained away.
void apply_known_differences(const std::string& kernel_set, const OpEntry* entry, CaseResult& c) {
  if (c.status != "failed" && c.status != "error") return;
  auto matches = [&](const KnownDifference& k) {
    return (k.kernel_set.empty() || k.kernel_set == kernel_set) && glob_or_empty(k.op, c.op) &&
           glob_or_empty(k.dtype, c.dtype) && glob_or_empty(k.sample, c.sample) &&
           glob_or_empty(k.layout, c.layout) && glob_or_empty(k.variant, c.variant) &&
           glob_or_empty(k.check, c.check);
  };
  auto first_match = [&](const std::vector<KnownDifference>& rows) -> const KnownDifference* {
    for (const KnownDifference& k : rows) {
      if (matches(k)) return &k;
    }
    return nullptr;
  };
  const KnownDifference* row = entry != nullptr ? first_match(entry->documented) : nullptr;
  if (row == nullptr) row = first_match(known_differences());
  if (row != nullptr) {
    c.message = row->reason + " [" + c.status + ": " + c.message + "]";
    c.status = "documented";
  }
}

std::string quoted(const std::string& s) {
  return s.find_first_of(" *?\"'") == std::string::npos ? s : "'" + s + "'";
}

}  // namespace

bool glob_match(const std::string& pattern, const std::string& s) {
  // Iterative glob with backtracking to the last '*'.
  size_t p = 0, i = 0, star = std::string::npos, mark = 0;
  while (i < s.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == s[i])) {
      ++p, ++i;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++, mark = i;
    } else if (star != std::string::npos) {
      p = star + 1, i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool matches_pattern(const std::string& name, const std::string& patterns) {
  if (patterns.empty()) return true;
  for (const std::string& p : split(patterns, ',')) {
    if (p.find_first_of("*?") != std::string::npos) {
      if (glob_match(p, name)) return true;
      continue;
    }
    bool exact_exists = false;
    for (const OpEntry& e : catalog()) exact_exists = exact_exists || e.name == p;
    if (exact_exists ? name == p : name.find(p) != std::string::npos) return true;
  }
  return false;
}

Summary RunResult::summary() const {
  Summary s;
  for (const CaseResult& c : cases) {
    ++s.cases;
    s.passed += c.status == "passed";
    s.failed += c.status == "failed";
    s.errors += c.status == "error";
    s.crashed += c.status == "crashed";
    s.timeout += c.status == "timeout";
    s.overrun += c.status == "overrun";
    s.documented += c.status == "documented";
    s.mistrusted += c.mistrusted;
  }
  return s;
}

std::vector<Group> selected_groups(const RunOptions& o, const std::vector<OpEntry>& entries) {
  const std::vector<std::string> families = split(o.families, ',');
  for (const std::string& f : families) {
    const bool known = std::any_of(entries.begin(), entries.end(),
                                   [&](const OpEntry& e) { return e.family == f; });
    TS_CHECK(known, "conform: --families: no op family named '", f, "'");
  }
  std::vector<Group> all;
  for (const OpEntry& e : entries) {
    if (!matches_pattern(e.name, o.ops)) continue;
    if (!families.empty() &&
        std::find(families.begin(), families.end(), e.family) == families.end())
      continue;
    const DTypeSet dtypes = entry_dtypes(e);
    for (int i = 0; i < kNumScalarTypes; ++i) {
      const auto dt = static_cast<ScalarType>(i);
      if (!dtypes.has(dt)) continue;
      if (!o.dtypes.empty() && std::find(o.dtypes.begin(), o.dtypes.end(), dt) == o.dtypes.end())
        continue;
      all.push_back({&e, dt});
    }
  }
  // Note [Shards]: round-robin over the groups in catalog order, so each shard gets every family.
  std::vector<Group> mine;
  for (size_t g = 0; g < all.size(); ++g) {
    if (static_cast<int>(g % static_cast<size_t>(o.shard_count)) == o.shard_index) {
      mine.push_back(all[g]);
    }
  }
  return mine;
}

std::string repro_line(const RunOptions& o, const CaseResult& c) {
  std::string line = "touchstone conform --kernels " + o.kernel_set;
  for (const std::string& p : o.plugins) line += " --plugin " + quoted(p);
  line += " --ops " + quoted(c.op) + " --dtypes " + c.dtype + " --case " +
          quoted(c.sample + "/" + c.layout + "/" + c.variant + "/" + c.check);
  if (o.isolate) line += " --isolate";
  return line;
}

RunResult run_conformance(const RunOptions& options, const std::vector<OpEntry>& entries) {
  TS_CHECK(find_kernel_set(options.kernel_set).has_value(), "conform: no kernel set named ",
           options.kernel_set);
  TS_CHECK(options.shard_count >= 1 && options.shard_index >= 0 &&
               options.shard_index < options.shard_count,
           "conform: --shard must be I/N with 0 <= I < N, got ", options.shard_index, "/",
           options.shard_count);
  if (options.device.type() != kCPU) {
    try {
      KernelSetGuard g(options.kernel_set);
      empty({1}, TensorOptions(kFloat).device(options.device));
    } catch (const Error& e) {
      TS_CHECK(false, "conform: --device: cannot allocate on ", options.device, ": ", e.what());
    }
  }
  const auto start = std::chrono::steady_clock::now();
  RunResult result;
  result.kernel_set = options.kernel_set;
  const std::vector<Group> groups = selected_groups(options, entries);
  if (options.isolate) {
    run_groups_isolated(options, groups, result);
  } else {
    std::optional<GuardScope> guard;
    if (options.guard) guard.emplace();
    const CaseGate all = [](int64_t, const CaseResult&) { return true; };
    for (size_t i = 0; i < groups.size(); ++i) {
      const Group& g = groups[i];
      if (options.progress) options.progress(i, groups.size(), g.entry->name, g.dtype);
      run_group(
          options, g, all, [&](CaseResult c) { result.cases.push_back(std::move(c)); },
          result.skipped_samples);
    }
  }
  std::map<std::string, const OpEntry*> by_name;
  for (const OpEntry& e : entries) by_name[e.name] = &e;
  for (CaseResult& c : result.cases) {
    const auto it = by_name.find(c.op);
    apply_known_differences(options.kernel_set, it == by_name.end() ? nullptr : it->second, c);
    if (c.status != "passed" && c.repro.empty()) c.repro = repro_line(options, c);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace ts::conformance
