// The cases of one group (an entry in one dtype): forward on every layout, out=, in-place,
// backward on every layout, and gradcheck of the reference.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <optional>

#include "conformance/compare.h"
#include "conformance/guard.h"
#include "conformance/layouts.h"
#include "conformance/runner.h"
#include "touchstone/autograd.h"
#include "touchstone/kernel_recorder.h"

namespace ts::conformance {
namespace {

// "sample/layout/variant/check": each part of the filter that is given must be equal.
bool case_selected(const std::vector<std::string>& filter, const CaseResult& c) {
  const std::string* parts[4] = {&c.sample, &c.layout, &c.variant, &c.check};
  for (size_t i = 0; i < filter.size() && i < 4; ++i) {
    if (!filter[i].empty() && filter[i] != *parts[i]) return false;
  }
  return true;
}

// The result of one call: outputs, or the message of the exception it threw.
struct Outcome {
  std::vector<Tensor> outs;
  std::optional<std::string> error;
  std::string overrun;  // guard damage seen after the call
};

template <typename Fn>
Outcome attempt(const std::string& kernel_set, bool guard, Fn fn) {
  Outcome o;
  try {
    KernelSetGuard g(kernel_set);
    o.outs = fn();
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  if (guard) o.overrun = check_guards();
  return o;
}

// The sets of a take_delegations() mask, joined with '+' (CaseResult::delegated_to).
std::string delegation_names(uint32_t mask) {
  std::string names;
  for (KernelSetId s = 0; s < kMaxKernelSets; ++s) {
    if ((mask >> s & 1u) != 0)
      names += (names.empty() ? "" : "+") + std::string(kernel_set_name(s));
  }
  return names;
}

// The op a ts::Error names: its message starts with "op: ".
std::string error_op(const std::string& message) {
  return message.substr(0, message.find(':'));
}

bool differentiable(const OpEntry& e, ScalarType dt) {
  const std::optional<OpId> op = find_op(e.op_name());
  return e.grad && is_floating_type(dt) && op && op_info(*op).differentiable;
}

bool grad_input(const OpEntry& e, const std::vector<Tensor>& in, size_t i) {
  if (!in[i].defined() || !is_floating_type(in[i].dtype())) return false;
  for (int k : e.nograd_inputs) {
    if (static_cast<size_t>(k) == i) return false;
  }
  return true;
}

bool any_grad_input(const OpEntry& e, const std::vector<Tensor>& in) {
  for (size_t i = 0; i < in.size(); ++i) {
    if (grad_input(e, in, i)) return true;
  }
  return false;
}

class GroupRunner {
 public:
  GroupRunner(const RunOptions& o, const Group& g, const CaseGate& gate, const CaseSink& emit)
      : o_(o),
        e_(*g.entry),
        dt_(g.dtype),
        gate_(gate),
        emit_(emit),
        filter_(case_filter_parts(o.case_filter)),
        candidate_set_(*find_kernel_set(o.kernel_set)) {}

  // A known-answer sample (Note [Known answers] in catalog/catalog.h) is judged against its
  // expected outputs on the layouts that keep its values and in the out= form; in place and
  // backward, against the reference as any sample.
  void run_sample(const Sample& s) {
    const Outcome ref = s.expected.empty()
                            ? attempt("reference", false, [&] { return e_.run(s.inputs, s.args); })
                            : Outcome{s.expected, std::nullopt, ""};
    // Note [Large samples] in catalog/catalog.h: contiguous only.
    const std::vector<LayoutVariant> layouts =
        s.contiguous_only ? std::vector<LayoutVariant>{{"contiguous", s.inputs, true}}
                          : input_layouts(s.inputs, reduced_dims(s));
    for (const LayoutVariant& v : layouts) {
      run_case(s, v.name, "functional", "forward", [&](CaseResult& r) {
        const Outcome vref = v.same_values ? ref : attempt("reference", false, [&] {
          return e_.run(contiguous(v.inputs), s.args);
        });
        const Outcome cand = attempt(o_.kernel_set, o_.guard, [&] {
          return to_host(e_.run(to_candidate(v.inputs), to_candidate(s.args)));
        });
        judge(r, s, cand, vref, v.inputs);
      });
    }
    if (s.contiguous_only) return;
    if (e_.run_out && s.has_out && !ref.error) {
      for (const OutLayout& ol : out_layouts(ref.outs)) {
        run_case(s, ol.name, "out", "forward", [&](CaseResult& r) {
          const Outcome cand = attempt(o_.kernel_set, o_.guard, [&] {
            const std::vector<Tensor> outs = to_candidate(ol.outs);
            e_.run_out(outs, to_candidate(s.inputs), to_candidate(s.args));
            return to_host(outs);
          });
          judge(r, s, cand, ref, s.inputs);
        });
      }
    }
    if (e_.run_inplace && !s.inputs.empty()) {
      for (const LayoutVariant& v : layouts) {
        run_case(s, v.name, "inplace", "forward", [&](CaseResult& r) { check_inplace(r, s, v); });
      }
    }
    if (o_.grad && differentiable(e_, dt_) && !ref.error && any_grad_input(e_, s.inputs)) {
      for (const LayoutVariant& v : layouts) {
        run_case(s, v.name, "functional", "backward",
                 [&](CaseResult& r) { check_backward(r, s, v); });
      }
      // Where the function itself is not finite (var of one element) there is nothing to check.
      if (dt_ == kDouble && s.smooth && numel_of(s.inputs) > 0 && numel_of(s.inputs) <= 256 &&
          all_finite(ref.outs)) {
        run_case(s, "contiguous", "functional", "gradcheck",
                 [&](CaseResult& r) { check_gradcheck(r, s); });
      }
    }
  }

 private:
  // A reduction's dims, for its expanded layout (Note [Layout variants]).
  std::vector<int64_t> reduced_dims(const Sample& s) const {
    return e_.family == "reduce" ? s.args.dims : std::vector<int64_t>{};
  }

  static std::vector<Tensor> contiguous(const std::vector<Tensor>& in) {
    std::vector<Tensor> out;
    for (const Tensor& t : in) out.push_back(t.defined() ? t.contiguous() : t);
    return out;
  }

  static bool all_finite(const std::vector<Tensor>& outs) {
    KernelSetGuard g("reference");
    for (const Tensor& t : outs) {
      if (!t.defined() || !is_floating_type(t.dtype())) continue;
      const Tensor d = t.to(kDouble).contiguous();
      const double* p = d.data_ptr<double>();
      for (int64_t i = 0; i < d.numel(); ++i) {
        if (!std::isfinite(p[i])) return false;
      }
    }
    return true;
  }

  // Note [Device runs]
  // On --device cuda the candidate gets copies of its tensors on the device with the same
  // storage layout (sizes, strides, offset, stride-0 dims: the whole storage is copied), and its
  // results come back to the CPU, where the comparison runs. Call in the candidate's set.
  Tensor to_candidate(const Tensor& t) const {
    if (!t.defined() || o_.device.type() == kCPU) return t;
    const auto n = static_cast<int64_t>(t.storage()->nbytes() / t.element_size());
    const Tensor base = empty({n}, TensorOptions(t.dtype()).device(o_.device));
    base.copy_(t.as_strided({n}, {1}, 0));
    return base.as_strided(t.sizes(), t.strides(), t.storage_offset());
  }
  std::vector<Tensor> to_candidate(const std::vector<Tensor>& in) const {
    std::vector<Tensor> out;
    for (const Tensor& t : in) out.push_back(to_candidate(t));
    return out;
  }
  // The candidate's arguments: a factory's device= is the run's device.
  catalog::SampleArgs to_candidate(const catalog::SampleArgs& a) const {
    catalog::SampleArgs c = a;
    c.device = o_.device;
    return c;
  }
  // The candidate's results on the CPU; each must have been on the run's device.
  std::vector<Tensor> to_host(const std::vector<Tensor>& outs) const {
    if (o_.device.type() == kCPU) return outs;
    std::vector<Tensor> host;
    for (size_t i = 0; i < outs.size(); ++i) {
      const Tensor& t = outs[i];
      if (!t.defined()) {
        host.push_back(t);
        continue;
      }
      TS_CHECK(t.device().type() == o_.device.type(), "result ", i, " is on ", t.device(),
               ", not on ", o_.device);
      host.push_back(empty(t.sizes(), TensorOptions(t.dtype())));
      host.back().copy_(t);
    }
    return host;
  }

  static int64_t numel_of(const std::vector<Tensor>& in) {
    int64_t n = 0;
    for (const Tensor& t : in) n += t.defined() ? t.numel() : 0;
    return n;
  }

  template <typename Body>
  void run_case(const Sample& s, const std::string& layout, const std::string& variant,
                const std::string& check, Body body) {
    CaseResult r;
    r.op = e_.name;
    r.dtype = std::string(dtype_name(dt_));
    r.sample = s.name;
    r.layout = layout;
    r.variant = variant;
    r.check = check;
    if (!case_selected(filter_, r)) return;
    if (!gate_(index_++, r)) return;
    const auto start = std::chrono::steady_clock::now();
    // Note [Repeated cases]
    // With --repeat N a case runs N times (a data race or an uninitialized read fails some runs
    // only). It keeps the first failing run's result, else the first passing one's; one failing
    // in some runs but not all is `flaky` with the count, "failed in k of N runs; first: ...".
    std::optional<CaseResult> passing, failing;
    int failed_runs = 0;
    for (int k = 0; k < o_.repeat; ++k) {
      CaseResult run = r;
      run_once(run, body);
      std::optional<CaseResult>& slot = run.status == "passed" ? passing : failing;
      failed_runs += run.status != "passed";
      if (!slot) slot = std::move(run);
    }
    CaseResult out = std::move(failing ? *failing : *passing);
    out.runs = o_.repeat;
    out.failed_runs = failed_runs;
    if (failing && passing) {
      out.message = "failed in " + std::to_string(failed_runs) + " of " +
                    std::to_string(o_.repeat) + " runs; first: " + out.status + ": " + out.message;
      out.status = "flaky";
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    emit_(std::move(out));
  }

  // One run of a case's body, recording the candidate's kernels (Note [Attribution]).
  template <typename Body>
  void run_once(CaseResult& r, Body& body) const {
    KernelRecorder recorder;
    (void)take_delegations();
    try {
      std::optional<NoGradGuard> no_grad;
      if (o_.no_grad_mode && r.check == "forward") no_grad.emplace();
      body(r);
    } catch (const std::exception& ex) {  // the harness itself (reference-side) failed
      r.status = "error";
      r.message = std::string("harness: ") + ex.what();
    }
    r.delegated_to = delegation_names(take_delegations());
    if (!o_.record_kernels && r.status == "passed") return;
    for (const KernelRecord& k : recorder.records()) {
      if (k.set != candidate_set_) continue;
      r.kernels.push_back(std::string(op_info(k.op).name) + " " + std::string(dtype_name(k.dtype)) +
                          " " + o_.kernel_set);
    }
  }

  // Note [Tolerance model] in compare.h: which bound judges output `ref` of a case.
  Tolerance tolerance(const Tensor& ref, const Sample& s, const std::string& check,
                      const std::vector<Tensor>& inputs) const {
    const ScalarType dt = ref.dtype();
    if (check == "forward" && is_floating_type(dt)) {
      if (const std::optional<catalog::UlpBudget> b = catalog::ulp_budget(e_, dt)) {
        Tolerance t;
        t.ulp = b->tolerance;
        t.atol = b->abs_u * unit_roundoff(dt);
        t.has_budget = b->budget < b->tolerance;
        t.budget.ulp = b->budget;
        t.budget.atol = t.atol;
        t.signed_zeros = b->signed_zeros;
        return t;
      }
      if (is_sum(e_) && !inputs.empty()) return summation_tolerance(ref, s, inputs[0]);
    }
    Tolerance tol = default_tolerance(dt);
    if (e_.rtol) tol.rtol = *e_.rtol;
    if (e_.atol) tol.atol = *e_.atol;
    if (check == "backward") return scaled_for_summands(tol, gradient_terms(s, inputs));
    if (e_.accumulates) tol = scaled_for_summands(tol, s.summands);
    return tol;
  }

  static bool is_sum(const OpEntry& e) { return e.op_name() == "sum" || e.op_name() == "mean"; }

  // Note [Summation bound]
  // A sum of n float terms accumulated in precision u (float32 for float32 and 16-bit outputs,
  // as ATen's accumulate types; double for float64) has error <= D u sum|x| in the worst case,
  // D the longest chain of sequential additions (n - 1 for a running sum, log2 n pairwise), and
  // on random data an error that grows like sqrt(D) (Higham and Mary, SIAM J. Sci. Comput. 2019).
  // Partial sums of positive terms grow linearly, which makes a running sum's error largest:
  // about 0.17 sqrt(n) u sum|x| (rms); pairwise summation stays near 0.8 u sum|x| at any n; L
  // lanes each running over n / L terms and then combined: 0.17 sqrt(n) / L + 0.8. The bound
  // is 1 ULP of the result (the final rounding) plus 4 u sum|x|, per output element (a mean's
  // sum|x| divided by n): it admits pairwise, blocked and vectorized sums (e.g. 32 accumulators
  // up to n = 2^16 + 7) and rejects a running float32 sum over the positive samples
  // (`rows_2053`: 8 rows of 2053 terms, 7.6 rms each; `large`: 65543 terms, 43 rms). The budget
  // is 1 ULP plus 1 u sum|x|. In float64 the reference itself is a running double sum: its own
  // worst-case error, (n - 1) u sum|x| (reached on the expanded layout's constant rows), is added.
  Tolerance summation_tolerance(const Tensor& ref, const Sample& s, const Tensor& input) const {
    const ScalarType acc = ref.dtype() == kDouble ? kDouble : kFloat;
    const double u = unit_roundoff(acc);
    const double ref_err = acc == kDouble ? static_cast<double>(s.summands) : 0;
    Tolerance t;
    t.ulp = 1;
    t.scale_k = (4 + ref_err) * u;
    t.has_budget = true;
    t.budget.ulp = 1;
    t.budget.scale_k = (1 + ref_err) * u;
    KernelSetGuard g("reference");
    Tensor mag = ts::abs(input.to(kDouble));
    if (!s.args.dims.empty() || mag.dim() > 0) {
      mag = e_.op_name() == "mean" ? ts::mean(mag, s.args.dims, s.args.keepdim)
                                   : ts::sum(mag, s.args.dims, s.args.keepdim);
    }
    if (mag.numel() != ref.numel()) {
      return scaled_for_summands(default_tolerance(ref.dtype()), s.summands);
    }
    const Tensor c = mag.contiguous();
    const double* p = c.data_ptr<double>();
    t.scale.assign(p, p + c.numel());
    return t;
  }

  // Note [Gradient bounds]
  // Gradients have their own bounds, not the forward sum's: assert_close's tolerance of the
  // dtype, scaled by sqrt(terms), `terms` being what one gradient element's error grows with:
  // the broadcast factor of an elementwise op's operand (out.numel / in.numel: its gradient
  // sums that many products); 1 for sum, mean and the extremes (a broadcast of g / n, a
  // selection) and for mse_loss (2 (x - y) g / n); n where the gradient reads the forward's
  // result, a sum of n terms with its error (prod / x, x / norm, (x - mean) / std,
  // exp(x - logsumexp)) or is itself a sum (cumsum's reversed cumsum); K for the matrix
  // products and the other nn and index ops (as their forward sums).
  int64_t gradient_terms(const Sample& s, const std::vector<Tensor>& inputs) const {
    if (e_.family == "linalg" || e_.family == "index") return s.summands;
    if (e_.family == "nn") return e_.grad_elementwise ? 1 : s.summands;
    if (e_.family == "reduce") return grad_reads_forward(e_) ? s.summands : 1;
    return broadcast_factor(inputs);
  }

  static bool grad_reads_forward(const OpEntry& e) {
    const std::string& op = e.op_name();
    return op != "sum" && op != "mean" && op != "amax" && op != "amin" && op != "max" &&
           op != "min";
  }

  // How many output elements the smallest floating input's elements feed, at most: the
  // broadcast shape's size over that input's (1 without broadcasting).
  static int64_t broadcast_factor(const std::vector<Tensor>& inputs) {
    std::vector<int64_t> shape;
    int64_t smallest = 0;
    for (const Tensor& t : inputs) {
      if (!t.defined()) continue;
      const auto rank = static_cast<size_t>(t.dim());
      if (rank > shape.size()) shape.insert(shape.begin(), rank - shape.size(), 1);
      for (size_t d = 0; d < rank; ++d) {
        int64_t& o = shape[shape.size() - rank + d];
        o = std::max(o, t.size(static_cast<int64_t>(d)));
      }
      if (is_floating_type(t.dtype())) {
        const int64_t n = std::max<int64_t>(1, t.numel());
        smallest = smallest == 0 ? n : std::min(smallest, n);
      }
    }
    int64_t out = 1;
    for (int64_t d : shape) out *= std::max<int64_t>(d, 1);
    return smallest == 0 ? 1 : std::max<int64_t>(1, out / smallest);
  }

  // Note [Constant by layout]
  // The expanded layout of a 1-D input is one element repeated (stride 0): when every input of
  // the case is constant so, the case checks the layout's strides, and its constant output is
  // by construction; the contiguous layout of the same sample checks the values.
  static bool constant_by_layout(const std::string& layout, const std::vector<Tensor>& inputs) {
    if (layout != "expanded") return false;
    bool repeated = false;
    for (const Tensor& t : inputs) {
      if (!t.defined() || t.numel() <= 1) continue;
      if (!is_constant(t)) return false;
      repeated = true;
    }
    return repeated;
  }

  // Fills the status and errors of `r` from the candidate's and the reference's outcomes.
  // `inputs`: the case's inputs, for bounds that follow them (Note [Summation bound]).
  void judge(CaseResult& r, const Sample& s, const Outcome& cand, const Outcome& ref,
             const std::vector<Tensor>& inputs) const {
    if (!cand.overrun.empty()) {
      r.status = "overrun";
      r.message = cand.overrun;
      return;
    }
    // A kernel the set lacks (on this device, say) is an error whoever else raised: it says
    // nothing about the refusal the reference made.
    if (cand.error && cand.error->find("has no kernel for dtype") != std::string::npos) {
      r.status = "error";
      r.message = *cand.error;
      return;
    }
    if (ref.error) {
      // An input the reference refuses (amax over an empty dim) the candidate must refuse too,
      // with an error from the same op (not, say, a failed device allocation).
      const bool same_op = cand.error && error_op(*cand.error) == error_op(*ref.error);
      r.status = same_op ? "passed" : "failed";
      r.message = same_op      ? "both raised: " + *ref.error
                  : cand.error ? "the reference raised (" + *ref.error +
                                     "); the candidate raised (" + *cand.error + ")"
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
    bool proves_something = false;  // Note [Mistrusted cases]
    r.empty_inputs = std::any_of(inputs.begin(), inputs.end(),
                                 [](const Tensor& t) { return t.defined() && t.numel() == 0; });
    for (size_t i = 0; i < ref.outs.size(); ++i) {
      if (!ref.outs[i].defined() || !cand.outs[i].defined()) {
        if (ref.outs[i].defined() != cand.outs[i].defined() && r.status == "passed") {
          r.status = "failed";
          r.message = "output " + std::to_string(i) + " is " +
                      (ref.outs[i].defined() ? "missing" : "unexpected");
        }
        continue;
      }
      r.numel += ref.outs[i].numel();
      const Comparison c =
          compare(cand.outs[i], ref.outs[i], tolerance(ref.outs[i], s, r.check, inputs));
      r.max_abs_err = std::max(r.max_abs_err, c.max_abs_err);
      r.max_rel_err = std::max(r.max_rel_err, c.max_rel_err);
      r.max_ulp = std::max(r.max_ulp, c.max_ulp);
      proves_something = proves_something || !c.mistrusted;
      if (c.ok && c.warning && !r.warning) {
        r.warning = true;
        r.warning_message =
            (ref.outs.size() > 1 ? "output " + std::to_string(i) + ": " : "") + c.message;
      }
      if (!c.ok && r.status == "passed") {
        r.status = "failed";
        r.message = (ref.outs.size() > 1 ? "output " + std::to_string(i) + ": " : "") + c.message;
      }
    }
    // Note [Constant by definition]; a zero gradient may also come as none at all (norm.p0's,
    // a cast to an integer dtype's): then nothing was compared, on non-empty inputs.
    const bool backward = r.check == "backward";
    const bool nonempty =
        r.numel > 0 || (backward && std::any_of(inputs.begin(), inputs.end(), [](const Tensor& t) {
                          return t.defined() && t.numel() > 0;
                        }));
    const bool by_definition = (backward ? e_.constant_gradient : e_.constant_output).has(dt_);
    r.mistrusted = r.mistrusted || (!proves_something && !(by_definition && nonempty) &&
                                    !constant_by_layout(r.layout, inputs));
  }

  // Both sets write into a fresh copy of the first input in layout v; the other inputs are v's.
  void check_inplace(CaseResult& r, const Sample& s, const LayoutVariant& v) const {
    auto run = [&](const std::string& set, bool guard) {
      const bool cand = set != "reference";
      const Tensor host_self = relayout(v.name, s.inputs[0], reduced_dims(s));
      const std::vector<int64_t> strides(host_self.strides().begin(), host_self.strides().end());
      return attempt(set, guard, [&] {
        const Tensor self = cand ? to_candidate(host_self) : host_self;
        const Tensor ret = e_.run_inplace(self, cand ? to_candidate(v.inputs) : v.inputs,
                                          cand ? to_candidate(s.args) : s.args);
        TS_CHECK(ret.is_same(self), "the in-place form returned a tensor other than self");
        TS_CHECK(std::equal(strides.begin(), strides.end(), self.strides().begin(),
                            self.strides().end()),
                 "the in-place form changed self's strides");
        return cand ? to_host({self}) : std::vector<Tensor>{self};
      });
    };
    judge(r, s, run(o_.kernel_set, o_.guard), run("reference", false), v.inputs);
  }

  // Gradients of the floating outputs, seeded from the sample's name, w.r.t. the grad inputs.
  Outcome gradients(const std::string& set, bool guard, const Sample& s,
                    const std::vector<Tensor>& host_inputs, bool candidate = false) const {
    return attempt(set, guard, [&] {
      const std::vector<Tensor> inputs = candidate ? to_candidate(host_inputs) : host_inputs;
      std::vector<Tensor> leaves, wrt;
      for (size_t i = 0; i < inputs.size(); ++i) {
        leaves.push_back(inputs[i]);
        if (grad_input(e_, inputs, i)) {
          leaves.back() = inputs[i].detach();
          leaves.back().requires_grad_();
          wrt.push_back(leaves.back());
        }
      }
      std::vector<Tensor> outs, seeds;
      int k = 0;
      for (const Tensor& out : e_.run(leaves, candidate ? to_candidate(s.args) : s.args)) {
        ++k;
        if (!out.defined() || !out.requires_grad()) continue;
        outs.push_back(out);
        const Tensor seed = grad_seed(s, k - 1, out);
        seeds.push_back(candidate ? to_candidate(seed) : seed);
      }
      std::vector<Tensor> grads;
      if (!outs.empty() && !wrt.empty()) {
        grads = autograd::grad(outs, wrt, seeds, std::nullopt, false, /*allow_unused=*/true);
      }
      return candidate ? to_host(grads) : grads;
    });
  }

  Tensor grad_seed(const Sample& s, int k, const Tensor& out) const {
    SampleContext ctx(e_.name, dt_);
    KernelSetGuard g("reference");  // the same seed whatever the candidate's casts do
    return ctx.input(s.name + "/grad", k, out.sizes(), Range{-1, 1}).to(out.dtype());
  }

  void check_backward(CaseResult& r, const Sample& s, const LayoutVariant& v) const {
    const Outcome ref =
        gradients("reference", false, s, v.same_values ? s.inputs : contiguous(v.inputs));
    const Outcome cand = gradients(o_.kernel_set, o_.guard, s, v.inputs, /*candidate=*/true);
    judge(r, s, cand, ref, v.inputs);
  }

  void check_gradcheck(CaseResult& r, const Sample& s) const {
    KernelSetGuard g("reference");
    std::vector<Tensor> inputs;
    for (size_t i = 0; i < s.inputs.size(); ++i) {
      inputs.push_back(s.inputs[i].defined() ? s.inputs[i].clone() : s.inputs[i]);
      if (grad_input(e_, s.inputs, i)) inputs.back().requires_grad_();
    }
    autograd::GradcheckOptions opt;
    opt.raise_exception = false;
    opt.fast_mode = numel_of(s.inputs) > 64;
    opt.seed = hash_name(e_.name + "/" + s.name);
    const autograd::GradcheckResult res = autograd::gradcheck(
        [&](const std::vector<Tensor>& in) { return e_.run(in, s.args); }, inputs, opt);
    r.max_abs_err = res.max_error;
    if (!res.ok) {
      r.status = "failed";
      r.message = "gradcheck: " + res.message;
    }
  }

  const RunOptions& o_;
  const OpEntry& e_;
  ScalarType dt_;
  const CaseGate& gate_;
  const CaseSink& emit_;
  const std::vector<std::string> filter_;
  const KernelSetId candidate_set_;
  int64_t index_ = 0;
};

}  // namespace

void run_group(const RunOptions& options, const Group& g, const CaseGate& gate,
               const CaseSink& emit, GroupStats& stats) {
  std::vector<Sample> samples;
  {
    KernelSetGuard guard("reference");  // whatever the process default set is
    samples = g.entry->samples(SampleContext(g.entry->name, g.dtype));
    for (const catalog::KnownAnswer& k : g.entry->known) {
      if (k.dtype == g.dtype) samples.push_back(k.make());
    }
  }
  GroupRunner runner(options, g, gate, emit);
  for (const Sample& s : samples) {
    stats.samples.insert(s.name);
    if (g.entry->skips.count(std::string(dtype_name(g.dtype)) + "/" + s.name)) {
      ++stats.skipped_samples;
      continue;
    }
    runner.run_sample(s);
  }
}

}  // namespace ts::conformance
