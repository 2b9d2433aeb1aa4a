// The conformance loop: the reference on contiguous inputs, the candidate on every layout.
#include "conformance/runner.h"

#include <chrono>
#include <exception>
#include <optional>
#include <sstream>

#include "conformance/compare.h"
#include "conformance/layouts.h"

namespace ts::conformance {
namespace {

bool glob(const char* p, const char* s) {
  if (*p == '\0') return *s == '\0';
  if (*p == '*') return glob(p + 1, s) || (*s != '\0' && glob(p, s + 1));
  return *s != '\0' && (*p == '?' || *p == *s) && glob(p + 1, s + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, sep);) {
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

bool case_selected(const std::string& filter, const std::string& sample,
                   const std::string& layout) {
  if (filter.empty()) return true;
  const size_t slash = filter.find('/');
  const std::string want_sample = filter.substr(0, slash);
  const std::string want_layout = slash == std::string::npos ? "" : filter.substr(slash + 1);
  return (want_sample.empty() || want_sample == sample) &&
         (want_layout.empty() || want_layout == layout);
}

// The result of one call: outputs, or the message of the ts::Error it threw.
struct Outcome {
  std::vector<Tensor> outs;
  std::optional<std::string> error;
};

template <typename Fn>
Outcome attempt(const std::string& kernel_set, Fn fn) {
  Outcome o;
  try {
    KernelSetGuard g(kernel_set);
    o.outs = fn();
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  return o;
}

// Fills the status and errors of `r` from the candidate's and the reference's outcomes.
void judge(CaseResult& r, const OpEntry& e, const Sample& s, const Outcome& cand,
           const Outcome& ref) {
  if (ref.error) {
    // An input the reference refuses (amax over an empty dim) the candidate must refuse too.
    r.status = cand.error ? "passed" : "failed";
    r.message = cand.error ? "both raised: " + *ref.error
                           : "the reference raised (" + *ref.error + "); the candidate did not";
    return;
  }
  if (cand.error) {
    r.status = "error";
    r.message = *cand.error;
    return;
  }
  if (cand.outs.size() != ref.outs.size()) {
    r.status = "failed";
    r.message = "wrong number of outputs";
    return;
  }
  for (size_t i = 0; i < ref.outs.size(); ++i) {
    r.numel += ref.outs[i].numel();
    Tolerance tol = default_tolerance(ref.outs[i].dtype());
    if (e.rtol) tol.rtol = *e.rtol;
    if (e.atol) tol.atol = *e.atol;
    if (e.accumulates) tol = scaled_for_summands(tol, s.summands);
    const Comparison c = compare(cand.outs[i], ref.outs[i], tol);
    r.max_abs_err = std::max(r.max_abs_err, c.max_abs_err);
    r.max_rel_err = std::max(r.max_rel_err, c.max_rel_err);
    r.max_ulp = std::max(r.max_ulp, c.max_ulp);
    r.mistrusted = r.mistrusted || c.mistrusted;
    if (!c.ok && r.status == "passed") {
      r.status = "failed";
      r.message = (ref.outs.size() > 1 ? "output " + std::to_string(i) + ": " : "") + c.message;
    }
  }
}

class Runner {
 public:
  Runner(const RunOptions& o, RunResult& result) : o_(o), result_(result) {}

  void run_entry(const OpEntry& e) {
    const DTypeSet dtypes = entry_dtypes(e);
    for (int i = 0; i < kNumScalarTypes; ++i) {
      const auto dt = static_cast<ScalarType>(i);
      if (!dtypes.has(dt)) continue;
      if (!o_.dtypes.empty() &&
          std::find(o_.dtypes.begin(), o_.dtypes.end(), dt) == o_.dtypes.end())
        continue;
      std::vector<Sample> samples;
      {
        KernelSetGuard g("reference");  // whatever the process default set is
        samples = e.samples(SampleContext(e.name, dt));
      }
      for (const Sample& s : samples) {
        if (e.skips.count(std::string(dtype_name(dt)) + "/" + s.name)) {
          ++result_.skipped_samples;
          continue;
        }
        run_sample(e, dt, s);
      }
    }
  }

 private:
  void run_sample(const OpEntry& e, ScalarType dt, const Sample& s) {
    const Outcome ref = attempt("reference", [&] { return e.run(s.inputs, s.args); });
    for (const LayoutVariant& v : input_layouts(s.inputs)) {
      if (!case_selected(o_.case_filter, s.name, v.name)) continue;
      const Outcome vref =
          v.same_values ? ref
                        : attempt("reference", [&] { return e.run(contiguous(v.inputs), s.args); });
      const Outcome cand = attempt(o_.kernel_set, [&] { return e.run(v.inputs, s.args); });
      record(e, dt, s, v.name, "functional", cand, vref);
    }
    if (!e.run_out || !s.has_out || ref.error) return;
    for (const OutLayout& ol : out_layouts(ref.outs)) {
      if (!case_selected(o_.case_filter, s.name, ol.name)) continue;
      const Outcome cand = attempt(o_.kernel_set, [&] {
        e.run_out(ol.outs, s.inputs, s.args);
        return ol.outs;
      });
      record(e, dt, s, ol.name, "out", cand, ref);
    }
  }

  static std::vector<Tensor> contiguous(const std::vector<Tensor>& in) {
    std::vector<Tensor> out;
    for (const Tensor& t : in) out.push_back(t.contiguous());
    return out;
  }

  void record(const OpEntry& e, ScalarType dt, const Sample& s, const std::string& layout,
              const std::string& variant, const Outcome& cand, const Outcome& ref) {
    CaseResult r;
    r.op = e.name;
    r.dtype = std::string(dtype_name(dt));
    r.sample = s.name;
    r.layout = layout;
    r.variant = variant;
    judge(r, e, s, cand, ref);
    if (r.status != "passed") {
      r.repro = "touchstone conform --kernels " + o_.kernel_set + " --ops " + e.name +
                " --dtypes " + r.dtype + " --case \"" + s.name + "/" + layout + "\"";
    }
    result_.cases.push_back(std::move(r));
  }

  const RunOptions& o_;
  RunResult& result_;
};

}  // namespace

bool matches_pattern(const std::string& name, const std::string& patterns) {
  if (patterns.empty()) return true;
  for (const std::string& p : split(patterns, ',')) {
    if (p.find_first_of("*?") != std::string::npos) {
      if (glob(p.c_str(), name.c_str())) return true;
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
    if (c.status == "passed") ++s.passed;
    if (c.status == "failed") ++s.failed;
    if (c.status == "error") ++s.errors;
    if (c.mistrusted) ++s.mistrusted;
  }
  return s;
}

RunResult run_conformance(const RunOptions& options, const std::vector<OpEntry>& entries) {
  TS_CHECK(find_kernel_set(options.kernel_set).has_value(), "conform: no kernel set named ",
           options.kernel_set);
  const auto start = std::chrono::steady_clock::now();
  RunResult result;
  result.kernel_set = options.kernel_set;
  Runner runner(options, result);
  for (const OpEntry& e : entries) {
    if (matches_pattern(e.name, options.ops)) runner.run_entry(e);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace ts::conformance
