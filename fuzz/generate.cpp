// The generator: bytes -> statements, run as they are made (Note [Program bounds] in generate.h).
#include "fuzz/generate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ts::fuzz {
namespace {

class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  uint32_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // A choice in [0, k).
  uint32_t below(uint32_t k) {
    if (k <= 1) return 0;
    if (k <= 256) return byte() % k;
    return (byte() | byte() << 8) % k;
  }
  bool chance(uint32_t num, uint32_t den) { return below(den) < num; }
  int64_t range(int64_t lo, int64_t hi) {  // inclusive
    return lo + static_cast<int64_t>(below(static_cast<uint32_t>(hi - lo + 1)));
  }
  template <typename T, size_t N>
  T pick(const T (&items)[N]) {
    return items[below(N)];
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

struct Stop {
  Finding finding;
};

using Shape = std::vector<int64_t>;

// A tensor ops may compute with: few elements, no huge dim.
bool computable(const Tensor& t) {
  if (!t.defined() || t.numel() > kMaxNumel) return false;
  for (int64_t s : t.sizes()) {
    if (s > kMaxNumel) return false;
  }
  return true;
}
// No element but a huge dim ([2^40, 0]): elementwise ops, reductions and copies must handle it
// (their results are empty, or too large to allocate: an error in both sets).
bool huge_empty(const Tensor& t) {
  return t.defined() && t.numel() == 0 && !computable(t);
}

// A statement under construction: the spec's defaults, then arguments set by name.
struct Draft {
  const OpSpec* spec;
  std::vector<Value> args;
  Draft& set(std::string_view name, Value v) {
    for (size_t k = 0; k < spec->params.size(); ++k) {
      if (spec->params[k].name == name) {
        args[k] = std::move(v);
        return *this;
      }
    }
    TS_ERROR("fuzz: ", spec->name, " has no argument ", name);
  }
};

class Gen {
 public:
  Gen(Bytes& b, Runner& r) : b_(b), r_(r) {}

  void run() {
    grad_ = b_.chance(1, 4);
    while (!b_.empty() && ops_ < kMaxOps && stmts() < kMaxStmts - 4) {
      const uint32_t what = b_.below(100);
      if (what < 8 || live() == 0) {
        fresh_input();
      } else if (what < 30) {
        view_op();
      } else {
        library_op();
      }
    }
    if (grad_) finish_grad();
  }

 private:
  // ---- statements ----
  int stmts() const { return static_cast<int>(r_.program().stmts.size()); }
  const std::vector<Tensor>& slots() const { return r_.slots(); }
  int live() const {
    int n = 0;
    for (const Tensor& t : slots()) n += computable(t);
    return n;
  }
  Draft draft(std::string_view op) {
    const OpSpec* spec = find_spec(op);
    TS_INTERNAL_ASSERT(spec != nullptr, "fuzz: no op ", op);
    return draft(spec);
  }
  Draft draft(const OpSpec* spec) {
    Draft d{spec, {}};
    for (const Param& p : spec->params) d.args.push_back(p.default_value.value_or(Value()));
    return d;
  }
  // Runs the statement; the index of its first result slot (-1 when it threw or defines none).
  int emit(const Draft& d) {
    Stmt s{d.spec, d.args};
    const int first = static_cast<int>(slots().size());
    if (auto f = r_.step(s)) throw Stop{*f};
    if (!(d.spec->flags & kMeta) && d.spec->family != "input") ++ops_;
    if (r_.last_threw() || s.num_defs() == 0) return -1;
    return first;
  }
  const Tensor& slot(int k) const { return slots()[k]; }

  // ---- choices ----
  ScalarType dtype() {
    static const ScalarType w[] = {kFloat, kFloat,    kFloat,    kFloat, kDouble, kDouble, kHalf,
                                   kHalf,  kBFloat16, kBFloat16, kLong,  kLong,   kInt,    kShort,
                                   kChar,  kByte,     kByte,     kBool,  kBool};
    return b_.pick(w);
  }
  ScalarType float_dtype() {
    static const ScalarType w[] = {kFloat, kFloat, kDouble, kHalf, kBFloat16};
    return b_.pick(w);
  }
  Shape shape() {
    static const int64_t ndims[] = {0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4};
    static const int64_t sizes[] = {1, 2, 3, 4, 5, 1, 2, 3, 6, 7, 8, 0, 1, 3, 13, 17};
    Shape s(static_cast<size_t>(b_.pick(ndims)));
    for (int64_t& x : s) x = b_.pick(sizes);
    while (std::accumulate(s.begin(), s.end(), int64_t{1}, std::multiplies<>()) > kMaxNumel) {
      *std::max_element(s.begin(), s.end()) /= 2;
    }
    return s;
  }
  // A shape that broadcasts with `s`: dims kept or 1, leading dims dropped or added.
  Shape broadcastable(IntArrayRef s) {
    if (b_.chance(1, 20)) return shape();
    Shape out;
    const size_t drop = s.empty() ? 0 : b_.below(static_cast<uint32_t>(s.size()) + 1) / 2;
    if (b_.chance(1, 8)) out.push_back(b_.chance(1, 2) ? 1 : 2);
    for (size_t d = drop; d < s.size(); ++d) out.push_back(b_.chance(1, 4) ? 1 : s[d]);
    return out;
  }
  Value scalar(ScalarType like) {
    static const double reals[] = {0.5,
                                   -1.5,
                                   2.0,
                                   0.0,
                                   -0.0,
                                   1e-3,
                                   3.25,
                                   -2.5,
                                   1e10,
                                   std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::infinity(),
                                   -7.0};
    static const int64_t ints[] = {0, 1, 2, -1, 3, -3, 5, 7, 100, 65536, int64_t{1} << 31};
    uint32_t kind = b_.below(8);  // mostly the dtype's own kind
    if (kind < 5) kind = like == kBool ? 0 : is_floating_type(like) ? 2 : 1;
    if (kind == 0 || kind == 5) return Value::boolean(b_.chance(1, 2));
    if (kind == 1 || kind == 6) return Value::integer(b_.pick(ints));
    return Value::real(b_.pick(reals));
  }
  // A dim of a tensor with `ndim` dims, sometimes negative, rarely out of range.
  int64_t dim(int64_t ndim) {
    const int64_t n = std::max<int64_t>(ndim, 1);
    if (b_.chance(1, 32)) return n;
    return b_.range(-n, n - 1);
  }
  std::vector<int64_t> dims(int64_t ndim) {
    std::vector<int64_t> out;
    for (int64_t d = 0; d < ndim; ++d) {
      if (b_.chance(1, 2)) out.push_back(b_.chance(1, 4) ? d - ndim : d);
    }
    if (b_.chance(1, 32) && ndim > 0) out.push_back(dim(ndim));  // maybe a repeat
    return out;
  }
  Value opt_dtype(bool floating) {
    if (b_.chance(3, 4)) return Value::none();
    return Value::of_dtype(floating ? float_dtype() : dtype());
  }

  // ---- tensors ----
  int fresh_input(Shape s, ScalarType dt) {
    static const char* fills[] = {"normal", "normal", "normal", "normal",
                                  "edge",   "edge",   "pos",    "small"};
    Draft d = draft("input");
    d.set("shape", Value::ints(std::move(s)))
        .set("dtype", Value::of_dtype(dt))
        .set("seed", Value::integer(b_.below(1000)))
        .set("fill", Value::str(b_.pick(fills)));
    if (inputs_ >= 2 * kMaxInputs) return -1;
    ++inputs_;
    const int k = emit(d);
    if (k >= 0 && grad_ && is_floating_type(dt) && b_.chance(1, 2)) {
      Draft g = draft("requires_grad_");
      g.set("self", Value::slot(k));
      emit(g);
    }
    return k;
  }
  int fresh_input() { return fresh_input(shape(), dtype()); }
  // An existing computable slot, or a fresh input; `want` filters the existing ones.
  template <typename Pred>
  int existing_or_new(Pred want, Shape s, ScalarType dt, uint32_t reuse_percent = 70) {
    std::vector<int> c;
    for (size_t k = 0; k < slots().size(); ++k) {
      if (computable(slot(k)) && want(slot(k))) c.push_back(static_cast<int>(k));
    }
    if (!c.empty() && (inputs_ >= kMaxInputs || b_.below(100) < reuse_percent)) {
      return c[b_.below(static_cast<uint32_t>(c.size()))];
    }
    return fresh_input(std::move(s), dt);
  }
  int self() {
    std::vector<int> huge;
    for (size_t k = 0; k < slots().size(); ++k) {
      if (huge_empty(slot(k))) huge.push_back(static_cast<int>(k));
    }
    if (!huge.empty() && b_.chance(1, 4)) return huge[b_.below(static_cast<uint32_t>(huge.size()))];
    return existing_or_new([](const Tensor&) { return true; }, shape(), dtype(), 85);
  }
  int float_self() {
    return existing_or_new([](const Tensor& t) { return is_floating_type(t.dtype()); }, shape(),
                           float_dtype(), 85);
  }
  // A tensor that broadcasts with slot `k`, of its dtype or another.
  int partner(int k, std::optional<ScalarType> dt = std::nullopt) {
    const Tensor t = slot(k);
    const ScalarType want = dt ? *dt : (b_.chance(2, 3) ? t.dtype() : dtype());
    const Shape sizes = t.sizes().vec();
    return existing_or_new(
        [&](const Tensor& o) {
          return o.dtype() == want && o.dim() <= t.dim() &&
                 std::equal(o.sizes().begin(), o.sizes().end(), sizes.end() - o.dim(),
                            [](int64_t a, int64_t b) { return a == b || a == 1; });
        },
        broadcastable(t.sizes()), want, 40);
  }
  Value slot_value(int k) { return k < 0 ? Value::none() : Value::slot(k); }
  // An out= tensor: empty (resized), or one of the right shape, or any slot.
  int out_for(IntArrayRef like, ScalarType dt) {
    const uint32_t w = b_.below(10);
    Draft d = draft("empty");
    if (w < 5) {
      d.set("size", Value::ints({0}));
    } else if (w < 8) {
      d.set("size", Value::ints(like.vec()));
    } else {
      const int k = self();
      if (k >= 0) return k;
      d.set("size", Value::ints({0}));
    }
    d.set("dtype", Value::of_dtype(b_.chance(3, 4) ? dt : dtype()));
    return emit(d);
  }

  // ---- families ----
  // The shape family (issue 16) is not drawn yet: drawing it shifts seed 1's programs onto
  // where(t9, t8, 100) with t8 a [2^40, 12, 0] cat of huge empty tensors, and the reference's
  // where walks all 2^40 * 12 outer indices of the empty result (a stall, not a shape op's).
  void library_op() {
    static const char* families[] = {"unary",   "unary",   "binary", "binary",  "binary",
                                     "ternary", "reduce",  "reduce", "nn",      "linalg",
                                     "index",   "factory", "copy",   "autograd"};
    const std::string family = b_.pick(families);
    std::vector<const OpSpec*> c;
    for (const OpSpec& s : op_table()) {
      if (s.family == family) c.push_back(&s);
    }
    if (family == "autograd") return autograd_op();
    const OpSpec* spec = c[b_.below(static_cast<uint32_t>(c.size()))];
    if (family == "unary") return unary(spec);
    if (family == "binary") return binary(spec);
    if (family == "ternary") return ternary(spec);
    if (family == "reduce") return reduce(spec);
    if (family == "nn") return nn(spec);
    if (family == "linalg") return linalg(spec);
    if (family == "index") return indexing(spec);
    if (family == "factory") return factory(spec);
    if (family == "shape") return shape_op(spec);
    return copy(spec);
  }

  // Fills the leading out (or self) arguments of an out= or in-place form.
  void set_out(Draft& d, int self_slot, const char* name = "out") {
    const Tensor t = slot(self_slot);
    d.set(name, Value::slot(out_for(t.sizes(), t.dtype())));
  }

  // shape (issue 16): flip's dims, roll's shifts and dims, a diagonal, small repeats.
  void shape_op(const OpSpec* spec) {
    const std::string& n = spec->name;
    const int k = self();
    if (k < 0) return;
    const Tensor t = slot(k);
    Draft d = draft(spec);
    d.set("self", Value::slot(k));
    if (n.rfind("flip", 0) == 0) {
      d.set("dims", Value::ints(dims(t.dim())));
    } else if (n.rfind("roll", 0) == 0) {
      const std::vector<int64_t> ds = b_.chance(1, 4) ? std::vector<int64_t>{} : dims(t.dim());
      std::vector<int64_t> sh(std::max<size_t>(ds.size(), 1));
      for (int64_t& x : sh) x = b_.range(-7, 7);
      d.set("shifts", Value::ints(sh)).set("dims", Value::ints(ds));
    } else if (n.rfind("repeat", 0) == 0 || n.rfind("tile", 0) == 0) {
      // 1s but one repeat of 0 to 2: a result at most twice as large, so programs stay small.
      std::vector<int64_t> r(static_cast<size_t>(t.dim()) + b_.below(2), 1);
      if (!r.empty()) r[b_.below(static_cast<uint32_t>(r.size()))] = b_.range(0, 2);
      d.set(n[0] == 'r' ? "repeats" : "dims", Value::ints(r));
    } else if (n == "diff") {
      d.set("n", Value::integer(b_.range(0, 3))).set("dim", Value::integer(dim(t.dim())));
      if (b_.chance(1, 4)) d.set("prepend", Value::slot(k));  // self matches itself
      if (b_.chance(1, 4)) d.set("append", Value::slot(k));
    } else if (n == "kron") {  // small operands: the result's size is the product of theirs
      Shape s(static_cast<size_t>(b_.range(0, 3)));
      for (int64_t& x : s) x = b_.range(0, 3);
      const int j = fresh_input(s, b_.chance(4, 5) ? t.dtype() : dtype());
      if (j < 0) return;
      d.set("self", Value::slot(j)).set("other", slot_value(fresh_input(s, t.dtype())));
    } else if (n == "baddbmm" || n == "addbmm" || n == "addmv") {
      const int64_t b = b_.range(0, 3), rows = b_.range(0, 4), k = b_.range(0, 4),
                    cols = b_.range(1, 4);
      const ScalarType dt = b_.chance(7, 8) ? float_dtype() : dtype();
      const bool mv = n == "addmv";
      const Shape a = mv ? Shape{rows, k} : Shape{b, rows, k};
      const Shape bb = mv ? Shape{k} : Shape{b, k, cols};
      const Shape self_shape = mv ? Shape{rows} : n == "addbmm" ? Shape{rows, cols} : Shape{cols};
      d.set("self", slot_value(fresh_input(self_shape, dt)));
      d.set(mv ? "mat" : "batch1", slot_value(fresh_input(a, dt)));
      d.set(mv ? "vec" : "batch2", slot_value(fresh_input(bb, dt)));
      if (b_.chance(1, 2)) d.set("beta", scalar(dt)).set("alpha", scalar(dt));
    } else if (n != "trace") {  // tril, triu, diag
      d.set("diagonal", Value::integer(b_.range(-4, 4)));
    }
    if (spec->flags & kOut) set_out(d, k);
    emit(d);
  }

  void unary(const OpSpec* spec) {
    const int k = self();
    if (k < 0) return;
    Draft d = draft(spec);
    d.set("self", Value::slot(k));
    if (spec->flags & kOut) set_out(d, k);
    if (spec->name.rfind("gelu", 0) == 0) {
      static const char* modes[] = {"none", "tanh", "none", "bogus"};
      d.set("approximate", Value::str(b_.pick(modes)));
    }
    if (spec->name.rfind("clamp", 0) == 0) {
      const ScalarType dt = slot(k).dtype();
      if (b_.chance(3, 4)) d.set("min", scalar(dt));
      if (b_.chance(3, 4)) d.set("max", scalar(dt));
    }
    // A Scalar the op requires (threshold's threshold and value), or one with a default, drawn
    // now and then (leaky_relu's slope, elu's alpha, ...).
    for (const Param& p : spec->params) {
      if (p.kind != ArgKind::Scalar || spec->name.rfind("clamp", 0) == 0) continue;
      if (!p.default_value || b_.chance(1, 3)) d.set(p.name, scalar(slot(k).dtype()));
    }
    emit(d);
  }

  void binary(const OpSpec* spec) {
    const bool pow_scalar_base = spec->name == "pow" && b_.chance(1, 10);
    const int k = self();
    if (k < 0) return;
    Draft d = draft(spec);
    const Param& p1 = spec->params[(spec->flags & kOut) ? 2 : 1];
    const bool scalar_other =
        p1.kind == ArgKind::TensorOrScalar && b_.chance(1, 4) && !pow_scalar_base;
    const int other = scalar_other ? -1 : partner(k);
    if (pow_scalar_base) {
      d.set("self", scalar(slot(k).dtype())).set("exponent", Value::slot(k));
      emit(d);
      return;
    }
    d.set("self", Value::slot(k));
    d.set(p1.name, scalar_other ? scalar(slot(k).dtype()) : slot_value(other));
    if (spec->flags & kOut) set_out(d, k);
    if (spec->name.rfind("add", 0) == 0 || spec->name.rfind("sub", 0) == 0) {
      if (b_.chance(1, 3)) d.set("alpha", scalar(slot(k).dtype()));
    }
    if (spec->name.rfind("div", 0) == 0) {
      static const char* modes[] = {"trunc", "floor", "trunc", "floor", "round"};
      if (b_.chance(1, 2)) d.set("rounding_mode", Value::str(b_.pick(modes)));
    }
    emit(d);
  }

  void ternary(const OpSpec* spec) {
    const std::string& n = spec->name;
    const bool out = spec->flags & kOut;
    Draft d = draft(spec);
    if (n.rfind("where", 0) == 0) {
      const int k = self();
      if (k < 0) return;
      const int cond = partner(k, b_.chance(7, 8) ? kBool : dtype());
      const bool s1 = !out && b_.chance(1, 5), s2 = !out && !s1 && b_.chance(1, 5);
      d.set("condition", slot_value(cond));
      d.set("self", s1 ? scalar(slot(k).dtype()) : Value::slot(k));
      d.set("other", s2 ? scalar(slot(k).dtype()) : slot_value(partner(k)));
      if (out) set_out(d, k);
    } else if (n.rfind("lerp", 0) == 0) {
      const int k = float_self();
      if (k < 0) return;
      d.set("self", Value::slot(k)).set("end", slot_value(partner(k, slot(k).dtype())));
      const bool sw = !out && b_.chance(1, 3);
      d.set("weight", sw ? scalar(kFloat) : slot_value(partner(k, slot(k).dtype())));
      if (out) set_out(d, k);
    } else if (n.rfind("addcmul", 0) == 0) {
      const int k = self();
      if (k < 0) return;
      d.set("self", Value::slot(k)).set("tensor1", slot_value(partner(k)));
      d.set("tensor2", slot_value(partner(k)));
      if (b_.chance(1, 3)) d.set("value", scalar(slot(k).dtype()));
      if (out) set_out(d, k);
    } else {  // masked_fill
      const int k = self();
      if (k < 0) return;
      d.set("self", Value::slot(k)).set("mask", slot_value(partner(k, kBool)));
      d.set("value", scalar(slot(k).dtype()));
    }
    emit(d);
  }

  void reduce(const OpSpec* spec) {
    const std::string& n = spec->name;
    const bool out = spec->flags & kOut;
    const bool floating = n.rfind("mean", 0) == 0 || n.rfind("var", 0) == 0 ||
                          n.rfind("std", 0) == 0 || n.rfind("norm", 0) == 0 ||
                          n.rfind("logsumexp", 0) == 0;
    const int k = floating && b_.chance(7, 8) ? float_self() : self();
    if (k < 0) return;
    const Tensor t = slot(k);
    Draft d = draft(spec);
    d.set("self", Value::slot(k));
    for (const Param& p : spec->params) {
      if (p.name == "dim") {
        if (p.kind == ArgKind::Ints || p.kind == ArgKind::OptInts) {
          d.set("dim", p.kind == ArgKind::OptInts && b_.chance(1, 3) ? Value::none()
                                                                     : Value::ints(dims(t.dim())));
        } else {
          d.set("dim", p.kind == ArgKind::OptInt && b_.chance(1, 3) ? Value::none()
                                                                    : Value::integer(dim(t.dim())));
        }
      } else if (p.name == "keepdim") {
        d.set("keepdim", Value::boolean(b_.chance(1, 2)));
      } else if (p.name == "dtype") {
        d.set("dtype", opt_dtype(floating || b_.chance(1, 2)));
      } else if (p.name == "correction") {
        static const double c[] = {1.0, 0.0, 2.0, 0.5};
        d.set("correction", Value::real(b_.pick(c)));
      } else if (p.name == "p") {
        const Value ps[] = {Value::integer(2), Value::integer(1),      Value::real(INFINITY),
                            Value::real(2.0),  Value::integer(3),      Value::integer(0),
                            Value::real(0.5),  Value::real(-INFINITY), Value::real(-1.5)};
        d.set("p", b_.pick(ps));
      }
    }
    if (n.rfind("max_out", 0) == 0 || n.rfind("min_out", 0) == 0) {
      d.set("values", Value::slot(out_for({0}, t.dtype())));
      d.set("indices", Value::slot(out_for({0}, kLong)));
    } else if (out) {
      const bool index_result = n.rfind("arg", 0) == 0;
      const bool bool_result = n.rfind("all", 0) == 0 || n.rfind("any", 0) == 0;
      d.set("out", Value::slot(out_for({0}, index_result  ? kLong
                                            : bool_result ? kBool
                                                          : t.dtype())));
    }
    emit(d);
  }

  void nn(const OpSpec* spec) {
    const std::string& n = spec->name;
    Draft d = draft(spec);
    if (n.rfind("softmax", 0) == 0 || n.rfind("log_softmax", 0) == 0) {
      const int k = float_self();
      if (k < 0) return;
      d.set("self", Value::slot(k)).set("dim", Value::integer(dim(slot(k).dim())));
      d.set("dtype", opt_dtype(true));
      if (spec->flags & kOut) set_out(d, k);
    } else if (n == "layer_norm") {
      const int k = float_self();
      if (k < 0) return;
      const Tensor t = slot(k);
      const int64_t nd = std::min<int64_t>(t.dim(), b_.range(1, 2));
      const Shape norm(t.sizes().end() - nd, t.sizes().end());
      d.set("input", Value::slot(k))
          .set("normalized_shape", Value::ints(norm.empty() ? Shape{1} : norm));
      if (b_.chance(1, 2)) d.set("weight", slot_value(fresh_input(norm, t.dtype())));
      if (b_.chance(1, 2)) d.set("bias", slot_value(fresh_input(norm, t.dtype())));
      if (b_.chance(1, 4)) d.set("eps", Value::real(b_.chance(1, 2) ? 0.0 : 1e-3));
    } else if (n == "nll_loss" || n == "cross_entropy") {
      const int64_t batch = b_.range(0, 5), classes = b_.range(1, 6);
      const bool one_d = b_.chance(1, 5);
      const Shape in = one_d ? Shape{classes} : Shape{batch, classes};
      const int k = fresh_input(in, float_dtype());
      if (k < 0) return;
      Draft idx = draft("index");
      idx.set("shape", Value::ints(one_d ? Shape{} : Shape{batch}))
          .set("high", Value::integer(classes + (b_.chance(1, 16) ? 1 : 0)))
          .set("seed", Value::integer(b_.below(1000)));
      const int target = emit(idx);
      d.set("self", Value::slot(k)).set("target", slot_value(target));
      if (b_.chance(1, 3)) {
        d.set("weight", slot_value(fresh_input({classes}, slot(k).dtype())));
      }
      d.set("reduction", Value::integer(b_.below(3)));
      if (b_.chance(1, 4)) d.set("ignore_index", Value::integer(b_.below(3)));
      if (n == "cross_entropy" && b_.chance(1, 3)) d.set("label_smoothing", Value::real(0.25));
    } else if (n == "mse_loss") {
      const int k = float_self();
      if (k < 0) return;
      d.set("self", Value::slot(k)).set("target", slot_value(partner(k, slot(k).dtype())));
      d.set("reduction", Value::integer(b_.below(3)));
    } else if (n == "linear") {
      const int64_t in_f = b_.range(0, 6), out_f = b_.range(1, 6);
      const ScalarType dt = float_dtype();
      Shape xs = shape();
      if (xs.empty()) xs.push_back(1);
      xs.back() = in_f;
      const int x = fresh_input(xs, dt);
      d.set("input", slot_value(x)).set("weight", slot_value(fresh_input({out_f, in_f}, dt)));
      if (b_.chance(1, 2)) d.set("bias", slot_value(fresh_input({out_f}, dt)));
    } else {  // dropout
      const int k = float_self();
      if (k < 0) return;
      static const double ps[] = {0.0, 0.5, 1.0, 0.25, 1.5};
      d.set("input", Value::slot(k)).set("p", Value::real(b_.pick(ps)));
      d.set("train", Value::boolean(b_.chance(3, 4))).set("seed", Value::integer(b_.below(1000)));
    }
    emit(d);
  }

  // A matrix operand: an existing slot of that shape (any layout), or a fresh one.
  int matrix(Shape s, ScalarType dt) {
    return existing_or_new(
        [&](const Tensor& t) { return t.sizes() == IntArrayRef(s) && t.dtype() == dt; }, s, dt, 60);
  }

  void linalg(const OpSpec* spec) {
    const std::string n = spec->name.substr(0, spec->name.find('_'));
    const ScalarType dt = b_.chance(7, 8) ? float_dtype() : dtype();
    const int64_t bs = b_.range(0, 3), rows = b_.range(0, 5), inner = b_.range(0, 6),
                  cols = b_.range(0, 5);
    Draft d = draft(spec);
    Shape a, c, out;
    if (n == "mm" || n == "addmm") {
      a = {rows, inner}, c = {inner, cols}, out = {rows, cols};
    } else if (n == "bmm") {
      a = {bs, rows, inner}, c = {bs, inner, cols}, out = {bs, rows, cols};
    } else if (n == "dot") {
      a = {inner}, c = {inner}, out = {};
    } else if (n == "mv") {
      a = {rows, inner}, c = {inner}, out = {rows};
    } else if (n == "outer") {
      a = {rows}, c = {cols}, out = {rows, cols};
    } else {  // matmul: 1-D to 3-D operands
      static const int ranks[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2},
                                     {3, 2}, {2, 3}, {3, 3}, {3, 1}};
      const auto& r = ranks[b_.below(8)];
      a = r[0] == 1 ? Shape{inner} : r[0] == 2 ? Shape{rows, inner} : Shape{bs, rows, inner};
      c = r[1] == 1   ? Shape{inner}
          : r[1] == 2 ? Shape{inner, cols}
                      : Shape{b_.chance(1, 2) ? 1 : bs, inner, cols};
    }
    if (b_.chance(1, 16)) c = shape();  // a mismatch, now and then
    const int x = matrix(a, dt), y = matrix(c, b_.chance(15, 16) ? dt : dtype());
    if (n == "addmm") {
      const int s = existing_or_new(
          [&](const Tensor& t) { return t.dtype() == dt && t.sizes() == IntArrayRef(out); },
          b_.chance(1, 3) ? Shape{cols} : out, dt, 50);
      d.set("self", slot_value(s)).set("mat1", slot_value(x)).set("mat2", slot_value(y));
      if (b_.chance(1, 3)) d.set("beta", scalar(dt));
      if (b_.chance(1, 3)) d.set("alpha", scalar(dt));
      if (spec->flags & kOut) d.set("out", slot_value(out_for(out, dt)));
    } else {
      d.set("self", slot_value(x)).set("other", slot_value(y));
      if (spec->flags & kOut) d.set("out", slot_value(out_for(out, dt)));
    }
    emit(d);
  }

  void indexing(const OpSpec* spec) {
    const std::string& n = spec->name;
    const bool out = spec->flags & kOut;
    Draft d = draft(spec);
    if (n.rfind("cat", 0) == 0 || n.rfind("stack", 0) == 0) {
      const int k = self();
      if (k < 0) return;
      const Tensor t = slot(k);
      const int64_t cd = dim(n[0] == 'c' ? t.dim() : t.dim() + 1);
      std::vector<int64_t> list{k};
      const int more = static_cast<int>(b_.below(3));
      for (int i = 0; i < more; ++i) {
        Shape s = t.sizes().vec();
        if (n[0] == 'c' && !s.empty() && b_.chance(2, 3)) {
          s[static_cast<size_t>(cd < 0 ? cd + static_cast<int64_t>(s.size()) : cd) % s.size()] =
              b_.range(0, 3);
        }
        const int j = fresh_input(s, b_.chance(4, 5) ? t.dtype() : dtype());
        if (j >= 0) list.push_back(j);
      }
      d.set("tensors", Value::slots(list)).set("dim", Value::integer(cd));
      if (out) d.set("out", slot_value(out_for({0}, t.dtype())));
      emit(d);
      return;
    }
    const int k = self();
    if (k < 0) return;
    const Tensor t = slot(k);
    const int64_t dd = dim(t.dim());
    const int64_t wd = dd < 0 ? dd + std::max<int64_t>(t.dim(), 1) : dd;
    const int64_t size = t.dim() == 0 ? 1 : (wd < t.dim() ? t.size(wd) : 1);
    const int64_t high = std::max<int64_t>(size, 1) + (b_.chance(1, 16) ? 1 : 0);
    const bool low_neg = b_.chance(1, 32);
    Shape is;
    if (n.rfind("index_select", 0) == 0) {
      is = {b_.range(0, 5)};
      if (t.dim() == 0 && b_.chance(1, 2)) is = {};
    } else {  // gather, scatter_add: the index has self's rank, each size at most self's
      is = t.sizes().vec();
      for (size_t i = 0; i < is.size(); ++i) {
        if (static_cast<int64_t>(i) != wd)
          is[i] = b_.range(0, is[i]);
        else
          is[i] = b_.range(0, 4);
      }
    }
    Draft idx = draft("index");
    idx.set("shape", Value::ints(is)).set("high", Value::integer(size == 0 ? 1 : high));
    idx.set("low", Value::integer(low_neg ? -1 : 0)).set("seed", Value::integer(b_.below(1000)));
    const int ix = emit(idx);
    d.set("self", Value::slot(k)).set("index", slot_value(ix)).set("dim", Value::integer(dd));
    if (n.rfind("scatter_add", 0) == 0) {
      Shape ss = is;
      for (int64_t& x : ss) x += b_.chance(1, 4) ? 1 : 0;
      d.set("src", slot_value(fresh_input(ss, b_.chance(7, 8) ? t.dtype() : dtype())));
    }
    if (out) d.set("out", slot_value(out_for({0}, t.dtype())));
    emit(d);
  }

  void factory(const OpSpec* spec) {
    const std::string& n = spec->name;
    Draft d = draft(spec);
    const bool floating = n == "rand" || n == "randn" || n == "rand_like" || n == "randn_like";
    for (const Param& p : spec->params) {
      if (p.name == "size") d.set("size", Value::ints(shape()));
      if (p.name == "dtype") {
        d.set("dtype", p.kind == ArgKind::Dtype ? Value::of_dtype(dtype()) : opt_dtype(floating));
      }
      if (p.name == "seed") d.set("seed", Value::integer(b_.below(1000)));
      if (p.name == "self") {
        const int k = self();
        if (k < 0) return;
        d.set("self", Value::slot(k));
      }
      if (p.name == "fill_value") d.set("fill_value", scalar(dtype()));
    }
    if (n == "empty_strided") {
      const Value size = d.args[0];
      std::vector<int64_t> st;
      for (size_t i = 0; i < size.v.size(); ++i) st.push_back(b_.range(0, 6));
      d.set("stride", Value::ints(st));
    } else if (n == "arange") {
      const int64_t start = b_.range(-5, 5);
      static const double steps[] = {1, 2, -1, 0.5, -0.5, 3, 0, 1};
      const double step = b_.pick(steps);
      const double end =
          start + step * static_cast<double>(b_.range(0, 20)) + (b_.chance(1, 4) ? 0.25 : 0);
      const bool real = step != std::floor(step) || end != std::floor(end) || b_.chance(1, 4);
      d.set("start", real ? Value::real(start) : Value::integer(start));
      d.set("end", real ? Value::real(end) : Value::integer(static_cast<int64_t>(end)));
      d.set("step", real ? Value::real(step) : Value::integer(static_cast<int64_t>(step)));
    } else if (n == "linspace") {
      d.set("start", scalar(kFloat)).set("end", scalar(kFloat));
      d.set("steps", Value::integer(b_.range(-1, 12)));
    } else if (n == "eye") {
      d.set("n", Value::integer(b_.range(0, 6)));
      if (b_.chance(1, 2)) d.set("m", Value::integer(b_.range(0, 6)));
    } else if (n == "tensor") {
      std::vector<int64_t> v(b_.below(6));
      for (int64_t& x : v) x = b_.range(-3, 9);
      d.set("values", Value::ints(v));
    } else if (n == "randint") {
      const int64_t low = b_.range(-5, 5);
      d.set("low", Value::integer(low)).set("high", Value::integer(low + b_.range(0, 20)));
    }
    emit(d);
  }

  void copy(const OpSpec* spec) {
    const std::string& n = spec->name;
    const int k = self();
    if (k < 0) return;
    Draft d = draft(spec);
    d.set("self", Value::slot(k));
    if (n == "copy_") d.set("src", slot_value(partner(k, dtype())));
    if (n == "to")
      d.set("dtype", Value::of_dtype(dtype())).set("copy", Value::boolean(b_.chance(1, 4)));
    if (n == "fill_") d.set("value", scalar(slot(k).dtype()));
    emit(d);
  }

  void autograd_op() {
    std::vector<int> wants;
    for (size_t k = 0; k < slots().size(); ++k) {
      if (slot(k).defined() && slot(k).requires_grad()) wants.push_back(static_cast<int>(k));
    }
    if (wants.empty()) {
      const int k = float_self();
      if (k < 0) return;
      Draft g = draft("requires_grad_");
      g.set("self", Value::slot(k));
      emit(g);
      return;
    }
    const int k = wants[b_.below(static_cast<uint32_t>(wants.size()))];
    Draft d = draft(b_.chance(1, 3) ? "retain_grad" : "backward");
    d.set("self", Value::slot(k));
    if (d.spec->name == "backward") d.set("seed", Value::integer(b_.below(1000)));
    emit(d);
  }

  // The last tensor that requires grad gets a backward pass.
  void finish_grad() {
    for (int k = static_cast<int>(slots().size()) - 1; k >= 0; --k) {
      if (slot(k).defined() && slot(k).requires_grad()) {
        Draft d = draft("backward");
        d.set("self", Value::slot(k)).set("seed", Value::integer(b_.below(1000)));
        emit(d);
        return;
      }
    }
  }

  // ---- views ----
  void view_op() {
    static const char* ops[] = {"view",    "reshape",   "as_strided", "narrow",   "slice",
                                "slice",   "select",    "transpose",  "t",        "permute",
                                "expand",  "expand",    "expand_as",  "squeeze",  "unsqueeze",
                                "flatten", "unflatten", "movedim",    "diagonal", "unfold",
                                "split",   "chunk",     "detach"};
    const std::string n = b_.pick(ops);
    // Any defined slot, huge ones included (Note [Program bounds]).
    std::vector<int> c;
    for (size_t k = 0; k < slots().size(); ++k) {
      if (slot(k).defined()) c.push_back(static_cast<int>(k));
    }
    if (c.empty()) return;
    const int k = c[b_.below(static_cast<uint32_t>(c.size()))];
    const Tensor t = slot(k);
    const bool huge = !computable(t);
    if (huge && (n == "reshape" || n == "flatten")) return;  // would copy
    const int64_t nd = t.dim();
    Draft d = draft(n);
    d.set("self", Value::slot(k));
    const auto size_at = [&](int64_t dd) {
      const int64_t w = dd < 0 ? dd + nd : dd;
      return w >= 0 && w < nd ? t.size(w) : 1;
    };
    if (n == "view" || n == "reshape") {
      d.set("size", Value::ints(factor(t.numel())));
    } else if (n == "as_strided") {
      Shape s = huge ? Shape{2, 2} : shape();
      std::vector<int64_t> st;
      for (size_t i = 0; i < s.size(); ++i) st.push_back(b_.range(0, 4));
      d.set("size", Value::ints(s)).set("stride", Value::ints(st));
      if (b_.chance(1, 2)) d.set("storage_offset", Value::integer(b_.range(0, 3)));
    } else if (n == "narrow" || n == "select" || n == "split" || n == "chunk" || n == "slice" ||
               n == "unfold") {
      const int64_t dd = dim(nd), s = size_at(dd);
      const int64_t start =
          s > 8 && b_.chance(1, 2) ? s - b_.range(1, 6) : b_.range(-1, std::min<int64_t>(s, 8));
      if (n == "narrow") {
        d.set("dim", Value::integer(dd)).set("start", Value::integer(start));
        d.set("length",
              Value::integer(b_.range(0, std::max<int64_t>(0, std::min<int64_t>(s - start, 6)))));
      } else if (n == "select") {
        d.set("dim", Value::integer(dd)).set("index", Value::integer(s > 0 ? start % s : start));
      } else if (n == "slice") {
        d.set("dim", Value::integer(dd));
        if (b_.chance(2, 3)) d.set("start", Value::integer(start));
        if (b_.chance(1, 2)) d.set("end", Value::integer(start + b_.range(-1, 7)));
        static const int64_t steps[] = {1, 2, 3, 1, 2, 0};
        d.set("step", Value::integer(b_.pick(steps)));
      } else if (n == "unfold") {
        d.set("dimension", Value::integer(dd)).set("size", Value::integer(b_.range(0, 4)));
        d.set("step", Value::integer(b_.range(0, 3)));
      } else {
        // A huge dim splits into few pieces: 2^39 views would not fit in memory (std::bad_alloc
        // from Tensor::split, noted in fuzz/README.md).
        const int64_t piece =
            n == "split" && s > kMaxNumel ? s / 2 + b_.range(0, 4) : b_.range(0, 4);
        d.set(n == "split" ? "split_size" : "chunks", Value::integer(piece));
        d.set("dim", Value::integer(dd)).set("index", Value::integer(b_.range(0, 2)));
      }
    } else if (n == "transpose") {
      d.set("dim0", Value::integer(dim(nd))).set("dim1", Value::integer(dim(nd)));
    } else if (n == "permute") {
      std::vector<int64_t> p(static_cast<size_t>(nd));
      std::iota(p.begin(), p.end(), 0);
      for (size_t i = p.size(); i > 1; --i)
        std::swap(p[i - 1], p[b_.below(static_cast<uint32_t>(i))]);
      if (b_.chance(1, 16) && !p.empty()) p.pop_back();
      d.set("dims", Value::ints(p));
    } else if (n == "expand") {
      d.set("size", Value::ints(expanded(t)));
    } else if (n == "expand_as") {
      if (huge) return;
      Draft e = draft("empty");  // a target shape to expand to, through a tensor of that shape
      e.set("size", Value::ints(expanded_small(t)));
      d.set("other", slot_value(emit(e)));
    } else if (n == "squeeze") {
      if (b_.chance(1, 2)) d.set("dim", Value::integer(dim(nd)));
    } else if (n == "unsqueeze") {
      d.set("dim", Value::integer(b_.range(-nd - 1, nd)));
    } else if (n == "flatten") {
      d.set("start_dim", Value::integer(dim(nd))).set("end_dim", Value::integer(dim(nd)));
    } else if (n == "unflatten") {
      const int64_t dd = dim(nd);
      d.set("dim", Value::integer(dd)).set("sizes", Value::ints(factor(size_at(dd))));
    } else if (n == "movedim") {
      const int64_t a = dim(nd), b = dim(nd);
      d.set("source", Value::ints({a})).set("destination", Value::ints({b}));
    } else if (n == "diagonal") {
      d.set("offset", Value::integer(b_.range(-2, 2)));
      d.set("dim1", Value::integer(dim(nd))).set("dim2", Value::integer(dim(nd)));
    }
    emit(d);
  }
  // A shape with `numel` elements (sometimes with -1, rarely wrong).
  Shape factor(int64_t numel) {
    Shape s;
    int64_t left = numel;
    const int parts = static_cast<int>(b_.below(4));
    for (int i = 0; i < parts && left > 1; ++i) {
      static const int64_t ps[] = {2, 3, 5, 7, 1, 2};
      const int64_t p = b_.pick(ps);
      if (left % p == 0) {
        s.push_back(p);
        left /= p;
      }
    }
    s.push_back(left);
    if (numel == 0 && b_.chance(1, 2)) s = {0, b_.range(1, 3)};
    std::reverse(s.begin(), s.end());
    if (b_.chance(1, 4)) s[b_.below(static_cast<uint32_t>(s.size()))] = -1;
    if (b_.chance(1, 32)) s.push_back(2);
    return s;
  }
  // Sizes to expand `t` to: size-1 dims grow (rarely to 2^40), -1 keeps a dim, new leading dims.
  Shape expanded(const Tensor& t) {
    Shape s;
    if (b_.chance(1, 3)) s.push_back(b_.range(1, 3));
    // One huge dim at most: two would overflow int64 (Note [Program bounds]).
    bool huge_done = !computable(t) && t.numel() != 0;
    for (int64_t x : t.sizes()) huge_done = huge_done || x > kMaxNumel;
    for (int64_t x : t.sizes()) {
      if (x == 1 && !huge_done && b_.chance(1, 6)) {
        s.push_back(kHugeSize);
        huge_done = true;
      } else if (x == 1) {
        s.push_back(b_.range(0, 4));
      } else {
        s.push_back(b_.chance(1, 4) ? -1 : x);
      }
    }
    if (b_.chance(1, 32)) s.push_back(3);
    return s;
  }
  Shape expanded_small(const Tensor& t) {
    Shape s;
    for (int64_t x : t.sizes()) s.push_back(x == 1 ? b_.range(1, 4) : x);
    if (b_.chance(1, 3)) s.insert(s.begin(), 2);
    return s;
  }

  Bytes& b_;
  Runner& r_;
  bool grad_ = false;
  int ops_ = 0;
  int inputs_ = 0;
};

}  // namespace

std::optional<Finding> generate_and_run(const uint8_t* data, size_t size, const RunOptions& options,
                                        Program* program) {
  Bytes bytes(data, size);
  Runner runner(options);
  Gen gen(bytes, runner);
  std::optional<Finding> result;
  try {
    gen.run();
  } catch (const Stop& s) {
    result = s.finding;
  }
  if (program != nullptr) *program = runner.program();
  return result;
}

}  // namespace ts::fuzz
