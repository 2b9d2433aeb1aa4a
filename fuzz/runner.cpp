// The differential runner (Note [Lockstep runs] in runner.h).
#include "fuzz/runner.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <typeinfo>

#include "fuzz/compare.h"
#include "fuzz/values.h"
#include "touchstone/autograd.h"

namespace ts::fuzz {
namespace {

thread_local const Program* g_current = nullptr;

constexpr int64_t kMaxCompared = int64_t{1} << 16;

// The error's op: its message up to the first ':'.
std::string error_op(const std::string& msg) {
  return msg.substr(0, msg.find(':'));
}

bool same_storage(const Tensor& a, const Tensor& b) {
  return a.defined() && b.defined() && a.storage().get() == b.storage().get();
}

bool same_geometry(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() && a.strides() == b.strides() &&
         a.storage_offset() == b.storage_offset() && a.storage()->nbytes() == b.storage()->nbytes();
}

std::string geometry(const Tensor& t) {
  std::ostringstream os;
  os << dtype_name(t.dtype()) << t.sizes() << " strides " << t.strides() << " offset "
     << t.storage_offset() << " storage " << t.storage()->nbytes() << " bytes";
  return os.str();
}

// The tensor arguments of a call on one side (slots and lists), in order.
std::vector<Tensor> tensor_args(const Stmt& s, const std::vector<Tensor>& slots) {
  std::vector<Tensor> out;
  const Call c(s.args, slots);
  for (size_t k = 0; k < s.args.size(); ++k) {
    if (s.args[k].kind == Value::Kind::Slot) out.push_back(c.t(k));
    if (s.args[k].kind == Value::Kind::Slots) {
      for (const Tensor& t : c.tensors(k)) out.push_back(t);
    }
  }
  return out;
}

// How many leading tensor arguments a call writes.
size_t num_written(const Stmt& s) {
  if (s.spec->flags & kInPlace) return 1;
  return static_cast<size_t>(s.spec->num_outs);
}

// Whether a required tensor argument names a slot that holds no tensor (an earlier statement
// threw): the statement is then skipped on both sets.
bool missing_tensor(const Stmt& s, const std::vector<Tensor>& slots) {
  const auto undefined = [&](int64_t k) {
    return k < 0 || k >= static_cast<int64_t>(slots.size()) || !slots[k].defined();
  };
  for (size_t k = 0; k < s.args.size(); ++k) {
    const ArgKind kind = s.spec->params[k].kind;
    const Value& v = s.args[k];
    if ((kind == ArgKind::Tensor || kind == ArgKind::OptTensor ||
         kind == ArgKind::TensorOrScalar) &&
        v.kind == Value::Kind::Slot && undefined(v.i)) {
      return true;
    }
    if (kind == ArgKind::Tensor && v.kind != Value::Kind::Slot) return true;
    if (kind == ArgKind::Tensors) {
      for (int64_t x : v.v) {
        if (undefined(x)) return true;
      }
    }
  }
  return false;
}

struct Snapshot {
  Tensor t;
  DimVector sizes, strides;
  int64_t offset;
  const void* storage;
  std::vector<char> bytes;
};

Snapshot snapshot(const Tensor& t) {
  Snapshot s{t, DimVector(t.sizes()), DimVector(t.strides()), t.storage_offset(), t.storage().get(),
             {}};
  const char* p = static_cast<const char*>(t.storage()->data());
  s.bytes.assign(p, p + t.storage()->nbytes());
  return s;
}

// What a failed call changed in a tensor it would have written, or "".
std::string changed(const Snapshot& s) {
  const Tensor& t = s.t;
  if (t.sizes() != IntArrayRef(s.sizes) || t.strides() != IntArrayRef(s.strides) ||
      t.storage_offset() != s.offset || t.storage().get() != s.storage) {
    return "its geometry changed to " + geometry(t);
  }
  // An empty storage may have no data pointer: memcmp's arguments must not be null.
  if (t.storage()->nbytes() != s.bytes.size() ||
      (!s.bytes.empty() && std::memcmp(t.storage()->data(), s.bytes.data(), s.bytes.size()) != 0)) {
    return "its values changed";
  }
  return "";
}

}  // namespace

const Program* current_program() {
  return g_current;
}

RunStats& run_stats() {
  thread_local RunStats stats;
  return stats;
}

Runner::Runner(RunOptions options) : options_(std::move(options)) {
  cand_.set = options_.candidate;
  oracle_.set = options_.oracle;
}

Runner::~Runner() {
  if (g_current == &program_) g_current = nullptr;
}

Finding Runner::finding(std::string kind, std::string message) const {
  Finding f;
  f.stmt = static_cast<int>(program_.stmts.size()) - 1;
  f.kind = std::move(kind);
  f.message = std::move(message);
  f.line = to_string(program_);
  return f;
}

Runner::Outcome Runner::execute(Side& side, const Stmt& stmt) {
  Outcome o;
  const std::vector<Tensor> args = tensor_args(stmt, side.slots);
  std::vector<Snapshot> written;
  for (size_t k = 0; k < num_written(stmt) && k < args.size(); ++k) {
    written.push_back(snapshot(args[k]));
  }
  KernelSetGuard guard(side.set);
  try {
    o.results = stmt.spec->exec(Call(stmt.args, side.slots));
  } catch (const ts::Error& e) {
    o.threw = true;
    o.error = e.what();
  } catch (const std::exception& e) {
    o.threw = o.foreign = true;
    o.error = std::string(typeid(e).name()) + ": " + e.what();
  }
  if (o.threw && !o.foreign) {
    for (size_t k = 0; k < written.size(); ++k) {
      const std::string what = changed(written[k]);
      if (!what.empty()) {
        o.foreign = true;
        o.error = "'" + o.error + "' was thrown, but written argument " + std::to_string(k) +
                  " is not untouched: " + what;
      }
    }
  }
  return o;
}

std::optional<Finding> Runner::step(const Stmt& stmt) {
  program_.stmts.push_back(stmt);
  g_current = &program_;
  if (options_.trace) {
    int first = 0;
    for (size_t k = 0; k + 1 < program_.stmts.size(); ++k) first += program_.stmts[k].num_defs();
    std::fprintf(stderr, "fuzz: %s\n", to_string(stmt, first).c_str());
  }
  const int defs = stmt.num_defs();
  last_threw_ = false;
  if (missing_tensor(stmt, oracle_.slots)) {
    ++run_stats().skipped;
    last_threw_ = true;
    for (int k = 0; k < defs; ++k) {
      cand_.slots.emplace_back();
      oracle_.slots.emplace_back();
    }
    return std::nullopt;
  }
  // The oracle's tensor arguments before the call (copies of those it writes): the tolerance
  // reads their magnitudes (Note [Fuzz tolerances]).
  std::vector<Tensor> before = tensor_args(stmt, oracle_.slots);
  if (num_written(stmt) > 0) {
    KernelSetGuard guard(options_.oracle);
    NoGradGuard no_grad;
    const std::vector<Tensor> args = before;  // cloning changes `before`'s storages
    for (Tensor& t : before) {
      bool written = false;
      for (size_t k = 0; k < num_written(stmt) && k < args.size(); ++k) {
        written = written || same_storage(t, args[k]);
      }
      if (written && t.numel() <= kMaxCompared) t = t.clone();
    }
  }
  const Outcome c = execute(cand_, stmt);
  const Outcome o = execute(oracle_, stmt);
  if (c.foreign || o.foreign) {
    const bool cf = c.foreign;
    return finding("exception",
                   (cf ? options_.candidate : options_.oracle) + ": " + (cf ? c.error : o.error));
  }
  if (c.threw != o.threw) {
    return finding(
        "error",
        c.threw ? options_.candidate + " threw '" + c.error + "', " + options_.oracle + " did not"
                : options_.oracle + " threw '" + o.error + "', " + options_.candidate + " did not");
  }
  if (c.threw) {
    ++run_stats().threw;
    last_threw_ = true;
    if (error_op(c.error) != error_op(o.error)) {
      return finding("error", options_.candidate + " threw '" + c.error + "', " + options_.oracle +
                                  " threw '" + o.error + "'");
    }
    for (int k = 0; k < defs; ++k) {
      cand_.slots.emplace_back();
      oracle_.slots.emplace_back();
    }
    return std::nullopt;
  }
  if (defs > 0) {
    TS_INTERNAL_ASSERT(
        o.results.size() == static_cast<size_t>(defs) && c.results.size() == o.results.size(),
        "fuzz: ", stmt.spec->name, " returned ", o.results.size(), " tensors");
  }
  ++run_stats().returned;
  if (auto f = check_results(stmt, c, o)) return f;
  if (auto f = check_values(stmt, c, o, before)) return f;
  for (int k = 0; k < defs; ++k) {
    cand_.slots.push_back(c.results[k]);
    oracle_.slots.push_back(o.results[k]);
  }
  if (stmt.spec->name == "backward") return check_grads();
  return std::nullopt;
}

std::optional<Finding> Runner::check_results(const Stmt& stmt, const Outcome& c, const Outcome& o) {
  const std::vector<Tensor> cargs = tensor_args(stmt, cand_.slots);
  const std::vector<Tensor> oargs = tensor_args(stmt, oracle_.slots);
  // In-place and out= calls return their outputs.
  const size_t nw = num_written(stmt);
  for (size_t k = 0; k < nw && k < o.results.size(); ++k) {
    if (!c.results[k].is_same(cargs[k]) || !o.results[k].is_same(oargs[k])) {
      return finding("contract", stmt.spec->name + " did not return written argument " +
                                     std::to_string(k) + " itself");
    }
  }
  for (size_t k = 0; k < o.results.size(); ++k) {
    const Tensor &a = c.results[k], &r = o.results[k];
    if (a.defined() != r.defined()) return finding("geometry", "result defined in one set only");
    if (!r.defined()) continue;
    if (!same_geometry(a, r)) {
      return finding("geometry", "result " + std::to_string(k) + " is " + geometry(a) + ", " +
                                     options_.oracle + " gives " + geometry(r));
    }
    if (a.requires_grad() != r.requires_grad()) {
      return finding("grad", "result " + std::to_string(k) + " requires_grad differs");
    }
    // Aliasing: which slots (and earlier results) share its storage.
    for (size_t j = 0; j < oracle_.slots.size(); ++j) {
      if (same_storage(a, cand_.slots[j]) != same_storage(r, oracle_.slots[j])) {
        return finding("alias", "result " + std::to_string(k) + " shares storage with t" +
                                    std::to_string(j) + " in one set only");
      }
    }
    for (size_t j = 0; j < k; ++j) {
      if (same_storage(a, c.results[j]) != same_storage(r, o.results[j])) {
        return finding("alias", "results " + std::to_string(j) + " and " + std::to_string(k) +
                                    " share storage in one set only");
      }
    }
  }
  for (size_t k = 0; k < nw && k < oargs.size(); ++k) {
    if (!same_geometry(cargs[k], oargs[k])) {
      return finding("geometry", "written argument " + std::to_string(k) + " is " +
                                     geometry(cargs[k]) + ", " + options_.oracle + " gives " +
                                     geometry(oargs[k]));
    }
  }
  return std::nullopt;
}

std::optional<Finding> Runner::check_values(const Stmt& stmt, const Outcome& c, const Outcome& o,
                                            const std::vector<Tensor>& before) {
  // Every tensor of both sets, paired: slots, then this statement's results.
  std::vector<Tensor> cts = cand_.slots, ots = oracle_.slots;
  cts.insert(cts.end(), c.results.begin(), c.results.end());
  ots.insert(ots.end(), o.results.begin(), o.results.end());
  const std::vector<Tensor> oargs = tensor_args(stmt, oracle_.slots);
  // Storages whose values are unspecified: written where an output overlaps what it reads.
  std::set<const void*> unspecified;
  const size_t nw = num_written(stmt);
  const bool elementwise = stmt.spec->family == "unary" || stmt.spec->family == "binary" ||
                           stmt.spec->family == "ternary" || stmt.spec->family == "copy";
  bool overlap = false;
  for (size_t k = 0; k < nw && k < oargs.size(); ++k) {
    const Tensor& w = oargs[k];
    overlap |= has_internal_overlap(w);
    for (size_t j = nw; j < oargs.size(); ++j) {
      const Tensor& in = oargs[j];
      if (!same_storage(w, in) || in.numel() == 0 || w.numel() == 0) continue;
      const bool identical = in.data_ptr() == w.data_ptr() && in.sizes() == w.sizes() &&
                             in.strides() == w.strides() && in.dtype() == w.dtype();
      overlap |= !(identical && elementwise);
    }
  }
  // Every output is computed from what was read (max_out's indices too).
  for (size_t k = 0; overlap && k < nw && k < oargs.size(); ++k) {
    unspecified.insert(oargs[k].storage().get());
  }
  std::set<const void*> seen;
  std::optional<Tolerance> tol;
  for (size_t i = 0; i < ots.size(); ++i) {
    const Tensor &a = cts[i], &r = ots[i];
    if (!r.defined() || !a.defined() || !seen.insert(r.storage().get()).second) continue;
    const size_t n = r.storage()->nbytes();
    if (a.storage()->nbytes() != n) {
      return finding("geometry", "t" + std::to_string(i) + "'s storage has " +
                                     std::to_string(a.storage()->nbytes()) + " bytes, " +
                                     options_.oracle + " has " + std::to_string(n));
    }
    void* dst = a.storage()->data();
    const void* src = r.storage()->data();
    if (n == 0 || std::memcmp(dst, src, n) == 0) continue;
    if (!unspecified.count(r.storage().get()) && !(stmt.spec->flags & kNoValues)) {
      // Every tensor on this storage.
      for (size_t j = i; j < ots.size(); ++j) {
        // A huge view (expanded to 2^40) repeats elements the smaller tensors on the storage
        // hold (the input it was expanded from): it is not walked.
        if (!same_storage(ots[j], r) || ots[j].numel() == 0 || ots[j].numel() > kMaxCompared) {
          continue;
        }
        if (!tol) tol = statement_tolerance(stmt, before, ots[j].dtype());
        Tolerance t = *tol;
        if (ots[j].dtype() != r.dtype()) t = statement_tolerance(stmt, before, ots[j].dtype());
        if (auto m = compare_values(cts[j], ots[j], t)) {
          const std::string name = j < cand_.slots.size()
                                       ? "t" + std::to_string(j)
                                       : "result " + std::to_string(j - cand_.slots.size());
          return finding("values",
                         name + " (" + std::string(dtype_name(ots[j].dtype())) + "): " + *m);
        }
      }
    }
    std::memcpy(dst, src, n);
  }
  return std::nullopt;
}

std::optional<Finding> Runner::check_grads() {
  // Extreme values anywhere in the program make a gradient's overflow order-dependent.
  bool extreme = false;
  double largest = 0;  // the largest finite magnitude in the program
  for (const Tensor& t : oracle_.slots) {
    extreme = extreme || has_extreme_values(t);
    largest = std::max(largest, magnitude(t).max_abs);
  }
  const GradientGain gain = gradient_gain(program_);
  for (size_t j = 0; j < oracle_.slots.size(); ++j) {
    const Tensor &a = cand_.slots[j], &r = oracle_.slots[j];
    if (!r.defined() || !a.defined() || !r.requires_grad()) continue;
    // Both sets are asked the same questions: is_leaf() regenerates a stale view's grad_fn.
    const bool leaf = r.is_leaf(), retains = r.retains_grad();
    if (a.is_leaf() != leaf || a.retains_grad() != retains) {
      return finding("grad",
                     "t" + std::to_string(j) + " is a leaf or retains its grad in one set only");
    }
    if (!leaf && !retains) continue;
    const Tensor &ga = a.grad(), &gr = r.grad();
    const std::string name = "grad of t" + std::to_string(j);
    if (ga.defined() != gr.defined()) return finding("grad", name + " is defined in one set only");
    if (!gr.defined()) continue;
    if (!same_geometry(ga, gr)) {
      return finding(
          "grad", name + " is " + geometry(ga) + ", " + options_.oracle + " gives " + geometry(gr));
    }
    const Tolerance tol = gradient_tolerance(gr, extreme, largest, gain);
    if (auto msg = compare_values(ga, gr, tol)) return finding("grad", name + ": " + *msg);
    if (gr.storage()->nbytes() > 0) {
      std::memcpy(ga.storage()->data(), gr.storage()->data(), gr.storage()->nbytes());
    }
  }
  return std::nullopt;
}

std::optional<Finding> run_program(const Program& program, const RunOptions& options) {
  Runner r(options);
  for (const Stmt& s : program.stmts) {
    if (auto f = r.step(s)) return f;
  }
  return std::nullopt;
}

}  // namespace ts::fuzz
