// The conformance loop: checks the options, selects the groups (entry x dtype) of this shard,
// runs them in process or isolated, and marks documented differences.
#include "conformance/runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include "conformance/crash.h"
#include "conformance/guard.h"
#include "conformance/layouts.h"
#include "reports/text.h"

namespace ts::conformance {
namespace {

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// "a, b,,c" -> {"a", "b", "c"}: parts trimmed, empty ones dropped.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, sep);) {
    part = trimmed(part);
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

std::string joined(const std::vector<std::string>& v, size_t at_most = 1000) {
  std::string out;
  for (size_t i = 0; i < v.size() && i < at_most; ++i) out += (i ? ", " : "") + v[i];
  if (v.size() > at_most) out += ", ... (" + std::to_string(v.size()) + " in all)";
  return out;
}

// Whether `name` matches one pattern (see matches_pattern).
bool matches_one(const std::string& name, const std::string& p) {
  if (p.find_first_of("*?") != std::string::npos) return reports::glob_match(p, name);
  bool exact_exists = false;
  for (const OpEntry& e : catalog::entries()) exact_exists = exact_exists || e.name == p;
  return exact_exists ? name == p : name.find(p) != std::string::npos;
}

// The filters that are set, as flags: for messages.
std::string filters_text(const RunOptions& o) {
  std::string s;
  if (!o.ops.empty()) s += " --ops '" + o.ops + "'";
  if (!o.families.empty()) s += " --families '" + o.families + "'";
  if (!o.dtypes.empty()) {
    std::vector<std::string> names;
    for (ScalarType dt : o.dtypes) names.emplace_back(dtype_name(dt));
    s += " --dtypes " + joined(names);
  }
  if (!o.case_filter.empty()) s += " --case '" + o.case_filter + "'";
  return s.empty() ? "" : s.substr(1);
}

// The note the crash handler prints (Note [Crash handler]): where the run was, how to go on.
std::string crash_note(const std::string& where, const std::string& repro) {
  return where + "\n" + (repro.empty() ? "" : "  repro: " + repro + "\n") +
         "  rerun with --isolate to run each op x dtype in a child process: a crash then becomes "
         "a `crashed` case and the run goes on\n";
}

bool glob_or_empty(const std::string& pattern, const std::string& s) {
  return pattern.empty() || reports::glob_match(pattern, s);
}

std::string quoted(const std::string& s) {
  return s.find_first_of(" *?\"'") == std::string::npos ? s : "'" + s + "'";
}

// "touchstone conform --kernels SET [--plugin LIB]...": how repro lines start.
std::string command_prefix(const RunOptions& o) {
  std::string line = "touchstone conform --kernels " + o.kernel_set;
  for (const std::string& p : o.plugins) line += " --plugin " + quoted(p);
  if (o.device.type() != kCPU) {
    std::ostringstream d;
    d << o.device;
    line += " --device " + d.str();
  }
  return line;
}

// Note [Attribution]
// A failing (or flaky) case whose candidate ran kernels of other ops -- a composite, or a
// backward pass -- names them (CaseResult::kernels, from the dispatcher's KernelRecorder), and
// the runner checks each such (op, dtype) on its own forward cases, with grad mode on and then
// off (backward passes run their kernels with it off, and a kernel may be wrong only there): the
// ones that fail alone are the case's `fails_alone`, the likely culprits. That every such kernel
// has own cases is a test (CatalogCoversRecordedKernels). It runs once per kernel, when needed.
using GroupsRunner =
    std::function<void(const RunOptions&, const std::vector<Group>&, const CaseSink&)>;

bool attributable(const CaseResult& c, const std::map<std::string, const OpEntry*>& by_name) {
  if ((c.status != "failed" && c.status != "flaky") || c.kernels.empty()) return false;
  const auto it = by_name.find(c.op);
  const std::string own = it == by_name.end() ? c.op : it->second->op_name();
  return c.check == "backward" || std::any_of(c.kernels.begin(), c.kernels.end(), [&](auto& k) {
           return k.substr(0, k.find(' ')) != own;
         });
}

// The verdict on one kernel "op dtype set" run alone; empty when its own cases pass.
std::string kernel_alone(const RunOptions& options, const std::vector<OpEntry>& entries,
                         const std::string& kernel, const GroupsRunner& run_groups) {
  const std::vector<std::string> parts = split(kernel, ' ');
  std::vector<Group> groups;
  const ScalarType dt = parse_dtype(parts.at(1));
  for (const OpEntry& e : entries) {
    if (e.op_name() == parts[0] && entry_dtypes(e).has(dt)) groups.push_back({&e, dt});
  }
  if (groups.empty()) return "";  // nothing to run it alone on (tests/test_conformance.cpp)
  RunOptions alone = options;
  alone.case_filter = "///forward";
  alone.grad = false;
  alone.repeat = 1;
  alone.record_kernels = false;
  alone.progress = nullptr;
  alone.on_case = nullptr;
  std::string verdict;
  for (const bool off : {false, true}) {
    alone.no_grad_mode = off;
    int64_t cases = 0, failing = 0;
    run_groups(alone, groups, [&](CaseResult c) {
      apply_known_differences(options.kernel_set, nullptr, c,
                              std::string(device_type_name(options.device.type())));
      ++cases;
      failing += c.status != "passed" && c.status != "documented";
    });
    if (failing > 0) {
      verdict += std::string(verdict.empty() ? "" : ", ") + std::to_string(failing) + " of " +
                 std::to_string(cases) + " with grad mode " + (off ? "off" : "on");
    }
  }
  return verdict.empty() ? "" : kernel + " fails alone: its own forward cases, " + verdict;
}

void attribute(const RunOptions& options, const std::vector<OpEntry>& entries, RunResult& result,
               const GroupsRunner& run_groups) {
  std::map<std::string, const OpEntry*> by_name;
  for (const OpEntry& e : entries) by_name[e.name] = &e;
  std::map<std::string, std::string> verdicts;  // kernel -> verdict (empty: passes alone)
  for (CaseResult& c : result.cases) {
    if (!attributable(c, by_name)) continue;
    for (const std::string& k : c.kernels) {
      auto it = verdicts.find(k);
      if (it == verdicts.end()) {
        it = verdicts.emplace(k, kernel_alone(options, entries, k, run_groups)).first;
      }
      if (!it->second.empty()) c.fails_alone.push_back(it->second);
    }
  }
}

}  // namespace

// A failed or erroring case that a row of the entry's `documented` or of known_differences()
// covers becomes "documented"; crashes, hangs and overruns are never explained away.
//
// Note [Narrow documented differences]
// A row explains the errors it was written for: a case its globs match whose max_abs_err or
// max_ulp exceeds the row's bound stays failed, and says which row it outgrew (a row that
// excused any error once turned 3.3e304 into "documented").
void apply_known_differences(const std::string& kernel_set, const OpEntry* entry, CaseResult& c,
                             const std::string& device) {
  if (c.status != "failed" && c.status != "error") return;
  auto matches = [&](const KnownDifference& k) {
    return (k.kernel_set.empty() || k.kernel_set == kernel_set) &&
           glob_or_empty(k.device, device) && glob_or_empty(k.op, c.op) &&
           glob_or_empty(k.dtype, c.dtype) && glob_or_empty(k.sample, c.sample) &&
           glob_or_empty(k.layout, c.layout) && glob_or_empty(k.variant, c.variant) &&
           glob_or_empty(k.check, c.check) && glob_or_empty(k.message, c.message);
  };
  auto within = [&](const KnownDifference& k) {
    return c.max_abs_err <= k.max_abs_err && c.max_ulp <= k.max_ulp;
  };
  const KnownDifference* outgrown = nullptr;
  auto first_match = [&](const std::vector<KnownDifference>& rows) -> const KnownDifference* {
    for (const KnownDifference& k : rows) {
      if (!matches(k)) continue;
      if (within(k)) return &k;
      if (outgrown == nullptr) outgrown = &k;
    }
    return nullptr;
  };
  const KnownDifference* row = entry != nullptr ? first_match(entry->documented) : nullptr;
  if (row == nullptr) row = first_match(known_differences());
  if (row != nullptr) {
    c.message = row->reason + " [" + c.status + ": " + c.message + "]";
    c.status = "documented";
  } else if (outgrown != nullptr) {
    std::ostringstream os;
    os << c.message << " (beyond the documented difference's bound: max_abs_err "
       << outgrown->max_abs_err << ", max_ulp " << outgrown->max_ulp << "; " << outgrown->reason
       << ")";
    c.message = os.str();
  }
}

std::vector<std::string> case_filter_parts(const std::string& filter) {
  std::vector<std::string> out;
  if (filter.empty()) return out;
  size_t begin = 0;
  for (;;) {
    const size_t end = filter.find('/', begin);
    out.push_back(trimmed(filter.substr(begin, end == std::string::npos ? end : end - begin)));
    if (end == std::string::npos) return out;
    begin = end + 1;
  }
}

bool matches_pattern(const std::string& name, const std::string& patterns) {
  if (split(patterns, ',').empty()) return true;
  for (const std::string& p : split(patterns, ',')) {
    if (matches_one(name, p)) return true;
  }
  return false;
}

Summary RunResult::summary() const {
  Summary s;
  for (const CaseResult& c : cases) {
    ++s.cases;
    s.passed += c.status == "passed";
    s.failed += c.status == "failed";
    s.flaky += c.status == "flaky";
    s.errors += c.status == "error";
    s.crashed += c.status == "crashed";
    s.timeout += c.status == "timeout";
    s.overrun += c.status == "overrun";
    s.documented += c.status == "documented";
    s.delegated += !c.delegated_to.empty();
    s.mistrusted += c.mistrusted;
    const bool nonempty = c.numel > 0 && !c.empty_inputs;
    s.nonempty += nonempty;
    s.nonempty_mistrusted += nonempty && c.mistrusted;
    s.warnings += c.warning && (c.status == "passed" || c.status == "documented");
  }
  return s;
}

std::vector<Group> matching_groups(const RunOptions& o, const std::vector<OpEntry>& entries) {
  const std::vector<std::string> families = split(o.families, ',');
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
  return all;
}

std::vector<Group> selected_groups(const RunOptions& o, const std::vector<OpEntry>& entries) {
  // Note [Shards]: round-robin over the groups in catalog order, so each shard gets every family.
  const std::vector<Group> all = matching_groups(o, entries);
  std::vector<Group> mine;
  for (size_t g = 0; g < all.size(); ++g) {
    if (static_cast<int>(g % static_cast<size_t>(o.shard_count)) == o.shard_index - 1) {
      mine.push_back(all[g]);
    }
  }
  return mine;
}

void validate_options(const RunOptions& o, const std::vector<OpEntry>& entries) {
  TS_CHECK(find_kernel_set(o.kernel_set).has_value(), "conform: --kernels: no kernel set named '",
           o.kernel_set, "'");
  TS_CHECK(o.shard_count >= 1 && o.shard_index >= 1 && o.shard_index <= o.shard_count,
           "conform: --shard must be I/N with 1 <= I <= N, got ", o.shard_index, "/",
           o.shard_count);
  TS_CHECK(o.case_timeout_s > 0 && std::isfinite(o.case_timeout_s),
           "conform: --timeout must be a positive number of seconds, got ", o.case_timeout_s);
  TS_CHECK(o.repeat >= 1, "conform: --repeat must be a number of runs >= 1, got ", o.repeat);
  for (const std::string& p : split(o.ops, ',')) {
    const bool any = std::any_of(entries.begin(), entries.end(),
                                 [&](const OpEntry& e) { return matches_one(e.name, p); });
    TS_CHECK(any, "conform: --ops: '", p,
             "' matches no op of the catalog (`touchstone ops` lists the ops; a pattern is a "
             "name, a substring or a glob)");
  }
  std::vector<std::string> known;
  for (const OpEntry& e : entries) {
    if (std::find(known.begin(), known.end(), e.family) == known.end()) known.push_back(e.family);
  }
  for (const std::string& f : split(o.families, ',')) {
    TS_CHECK(std::find(known.begin(), known.end(), f) != known.end(),
             "conform: --families: no op family named '", f, "' (families: ", joined(known), ")");
  }
  const std::vector<std::string> parts = case_filter_parts(o.case_filter);
  TS_CHECK(parts.size() <= 4, "conform: --case expects SAMPLE/LAYOUT/VARIANT/CHECK (parts may be ",
           "empty or left off), got '", o.case_filter, "'");
  const std::vector<std::string> variants = {"functional", "inplace", "out"};
  const std::vector<std::string> checks = {"forward", "backward", "gradcheck"};
  const std::pair<const char*, const std::vector<std::string>*> names[] = {
      {"layout", &layout_names()}, {"variant", &variants}, {"check", &checks}};
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto& [what, list] = names[i - 1];
    TS_CHECK(parts[i].empty() || std::find(list->begin(), list->end(), parts[i]) != list->end(),
             "conform: --case '", o.case_filter, "': no ", what, " named '", parts[i], "' (", what,
             "s: ", joined(*list), ")");
  }
  if (!o.allow_empty) {
    TS_CHECK(!matching_groups(o, entries).empty(), "conform: no case selected: no op x dtype ",
             "matches ", filters_text(o), " (--allow-empty accepts an empty run)");
  }
}

std::string repro_line(const RunOptions& o, const CaseResult& c) {
  std::string line = command_prefix(o);
  line += " --ops " + quoted(c.op) + " --dtypes " + c.dtype;
  // A group that died outside any case (sample "*") reruns whole.
  if (c.sample != "*") {
    line += " --case " + quoted(c.sample + "/" + c.layout + "/" + c.variant + "/" + c.check);
  }
  if (o.repeat > 1) line += " --repeat " + std::to_string(o.repeat);
  if (o.isolate) {
    std::ostringstream t;
    t << o.case_timeout_s;
    line += " --isolate --timeout " + t.str();
  }
  return line;
}

RunResult run_conformance(const RunOptions& options, const std::vector<OpEntry>& entries) {
  validate_options(options, entries);
  if (options.device.type() != kCPU) {
    const auto probe = [&] {
      KernelSetGuard g(options.kernel_set);
      empty({1}, TensorOptions(kFloat).device(options.device));
    };
    std::string failure;
    if (options.isolate) {
      failure = run_in_child(probe);
    } else {
      try {
        probe();
      } catch (const Error& e) {
        failure = e.what();
      }
    }
    TS_CHECK(failure.empty(), "conform: --device: cannot allocate on ", options.device, ": ",
             failure);
  }
  const auto start = std::chrono::steady_clock::now();
  RunResult result;
  result.kernel_set = options.kernel_set;
  std::map<std::string, const OpEntry*> by_name;
  for (const OpEntry& e : entries) by_name[e.name] = &e;
  // Each case gets its final status and repro as it finishes, so on_case can stream it.
  const CaseSink record = [&](CaseResult c) {
    const auto it = by_name.find(c.op);
    apply_known_differences(options.kernel_set, it == by_name.end() ? nullptr : it->second, c,
                            std::string(device_type_name(options.device.type())));
    if (c.status != "passed" && c.repro.empty()) c.repro = repro_line(options, c);
    if (options.on_case) options.on_case(c);
    result.cases.push_back(std::move(c));
  };
  GroupStats stats;
  const std::vector<Group> groups = selected_groups(options, entries);
  std::optional<GuardScope> guard;
  std::optional<CrashReporter> crash_reporter;
  if (!options.isolate) {
    if (options.guard) guard.emplace();
    crash_reporter.emplace();
  }
  // Runs `gs` with options `o` (the run's, or the attribution's), isolated or in this process.
  const auto run_groups = [&](const RunOptions& o, const std::vector<Group>& gs,
                              const CaseSink& sink, GroupStats& st) {
    if (o.isolate) return run_groups_isolated(o, gs, sink, st);
    const CaseGate gate = [&](int64_t, const CaseResult& c) {
      set_crash_note(crash_note("in case " + c.op + " " + c.dtype + " " + c.sample + "/" +
                                    c.layout + "/" + c.variant + "/" + c.check,
                                repro_line(o, c)));
      return true;
    };
    for (size_t i = 0; i < gs.size(); ++i) {
      const Group& g = gs[i];
      if (o.progress) o.progress(i, gs.size(), g.entry->name, g.dtype);
      const std::string dt(dtype_name(g.dtype));
      set_crash_note(
          crash_note("while making the samples of " + g.entry->name + " " + dt,
                     command_prefix(o) + " --ops " + quoted(g.entry->name) + " --dtypes " + dt));
      run_group(o, g, gate, sink, st);
    }
  };
  run_groups(options, groups, record, stats);
  attribute(options, entries, result,
            [&](const RunOptions& o, const std::vector<Group>& gs, const CaseSink& sink) {
              GroupStats st;
              run_groups(o, gs, sink, st);
            });
  result.skipped_samples = stats.skipped_samples;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Sample names are known only once the samples are made; a shard sees only some of them.
  if (options.shard_count == 1 && result.cases.empty()) {
    const std::vector<std::string> parts = case_filter_parts(options.case_filter);
    if (!parts.empty() && !parts[0].empty() && stats.samples.count(parts[0]) == 0) {
      TS_CHECK(false, "conform: --case '", options.case_filter, "': no sample named '", parts[0],
               "' in the selected ops (their samples: ",
               joined(std::vector<std::string>(stats.samples.begin(), stats.samples.end()), 40),
               ")");
    }
    TS_CHECK(options.allow_empty, "conform: no case selected: the ", groups.size(),
             " op x dtype groups that match ", filters_text(options),
             " have no case to run (--allow-empty accepts an empty run)");
  }
  return result;
}

}  // namespace ts::conformance
