// The parity test (issue 14): the same API-level calls through touchstone (ts::) and libtorch
// (at::), compared per call: outcome (value or throw), result dtype, shape, strides, values, and
// for floating inputs the gradients of a sum of the output and the grad_fn name.
//
// Note [Parity allow-list]
// A difference fails the test unless a row of allowed.txt (beside this file) matches it: each
// row names the class, op, form, dtypes, layout, kernel set and a glob over the two outcomes,
// with its reason. Rows are narrow on purpose; a fix in lib/src makes its rows stale, and the
// summary lists stale rows so that the list only shrinks.
#include <ATen/ATen.h>
#include <fnmatch.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/function.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/autograd.h"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/promotion.h"

namespace {

using ts::ScalarType;
using ts::aten::to_aten;
using ts::aten::wrap;

constexpr ScalarType kDtypes[] = {ts::kBool, ts::kByte, ts::kChar,     ts::kShort, ts::kInt,
                                  ts::kLong, ts::kHalf, ts::kBFloat16, ts::kFloat, ts::kDouble};

// The dtypes' names in the call keys, in kDtypes' order.
const char* const kDtypeNames[] = {"b",   "u8",  "i8",   "i16", "i32",
                                   "i64", "f16", "bf16", "f32", "f64"};

std::string short_name(ScalarType d) {
  return kDtypeNames[std::find(std::begin(kDtypes), std::end(kDtypes), d) - std::begin(kDtypes)];
}

// ---- inputs: the same values seen through the same view calls in both libraries ----

enum class Layout { Contiguous, Transposed, Strided, Expanded, ZeroDim, Empty };
constexpr Layout kLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Strided,
                               Layout::Expanded,   Layout::ZeroDim,    Layout::Empty};

const char* layout_name(Layout l) {
  static const char* const kNames[] = {"contiguous", "transposed", "step2",
                                       "expand",     "0-dim",      "empty"};
  return kNames[static_cast<int>(l)];
}

// A 2x3 view (or 0-dim, or 0x3) of a 12-element base; ts::Tensor and at::Tensor share the calls.
template <class T>
T with_layout(const T& base, Layout l) {
  switch (l) {
    case Layout::Contiguous:
      return base.slice(0, 0, 6).view({2, 3});
    case Layout::Transposed:
      return base.slice(0, 0, 6).view({3, 2}).t();
    case Layout::Strided:
      return base.view({2, 6}).slice(1, 0, 6, 2);
    case Layout::Expanded:
      return base.slice(0, 0, 3).view({1, 3}).expand({2, 3});
    case Layout::ZeroDim:
      return base.select(0, 1);
    default:
      return base.slice(0, 0, 0).view({0, 3});
  }
}

struct Input {
  ScalarType dtype;
  Layout layout;
  int which;  // 0: self's values, 1: other's (with a zero, for division and remainder)
};

struct Inputs {
  std::vector<ts::Tensor> ts;
  std::vector<at::Tensor> at;
};

Inputs make_inputs(const std::vector<Input>& specs, bool requires_grad) {
  static const double kValues[2][12] = {{-2.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3, -3, 0.25, 4},
                                        {1, 2, -1, 3, 0, -2, 0.5, 4, -3, 2.5, 1, -0.5}};
  Inputs in;
  for (const Input& s : specs) {
    std::vector<double> v(std::begin(kValues[s.which]), std::end(kValues[s.which]));
    if (s.dtype == ts::kByte) {
      for (double& x : v) x = std::abs(x);
    }
    const ts::Tensor base = ts::tensor(ts::ArrayRef<double>(v), ts::kDouble).to(s.dtype);
    in.ts.push_back(with_layout(base, s.layout));
    in.at.push_back(with_layout(wrap(base).clone(), s.layout));
    if (requires_grad && ts::is_floating_type(s.dtype)) {
      in.ts.back().requires_grad_();
      in.at.back().requires_grad_();
    }
  }
  return in;
}

// ---- one call on one side ----

template <class T>
struct Side {
  std::string error;  // empty when the call returned
  T result;
  std::string grad_fn;
  std::string grad_error;
  std::vector<T> grads;
};

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > 160 ? line.substr(0, 160) + "..." : line;
}

// One side of a call (T is ts::Tensor or at::Tensor): its result or error, then, when the result
// requires grad, its grad_fn name and the gradients of its sum for every input.
template <class T>
Side<T> run_side(const std::function<T(const std::vector<T>&)>& f, std::vector<T>& in) {
  Side<T> s;
  try {
    s.result = f(in);
  } catch (const std::exception& e) {
    s.error = first_line(e.what());
    return s;
  }
  if (!s.result.requires_grad()) return s;
  if (s.result.grad_fn()) s.grad_fn = s.result.grad_fn()->name();
  try {
    s.result.sum().backward();
    for (const T& t : in) s.grads.push_back(t.grad());
  } catch (const std::exception& e) {
    s.grad_error = first_line(e.what());
  }
  return s;
}

// ---- comparison ----

// "float32[2, 3] strides [3, 1]" (ATen's dtype names on the aten side: "Float[2, 3] ...").
template <class T>
std::string describe(const T& t) {
  std::ostringstream os;
  if constexpr (std::is_same_v<T, ts::Tensor>) {
    os << ts::dtype_name(t.dtype());
  } else {
    os << c10::toString(t.scalar_type());
  }
  os << t.sizes() << " strides " << t.strides();
  return os.str();
}

// Strides of dims of size 0 or 1 carry no layout (ATen's own contiguity rule).
bool same_strides(const ts::Tensor& t, const at::Tensor& a) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] > 1 && t.strides()[d] != a.strides()[d]) return false;
  }
  return true;
}

bool same_sizes(const ts::Tensor& t, const at::Tensor& a) {
  return std::equal(t.sizes().begin(), t.sizes().end(), a.sizes().begin(), a.sizes().end());
}

ScalarType from_aten(c10::ScalarType d) {
  for (ScalarType t : kDtypes) {
    if (to_aten(t) == d) return t;
  }
  return ts::kDouble;
}

// rtol and atol for a floating dtype; integers and bool compare exactly.
std::pair<double, double> tolerance(ScalarType d) {
  switch (d) {
    case ts::kHalf:
      return {2e-3, 1e-3};
    case ts::kBFloat16:
      return {1.6e-2, 1e-2};
    case ts::kFloat:
      return {1e-5, 1e-6};
    case ts::kDouble:
      return {1e-10, 1e-12};
    default:
      return {0, 0};
  }
}

// Note [Parity tolerance]
// Integer and bool results compare exactly. A floating result may have been computed in a
// narrower dtype than its own (exp of an int16 tensor into a float64 out= is computed in
// float32 by both libraries), so its tolerance is the loosest of the two result dtypes and the
// inputs' dtypes, an integral input counting as float32 (the default dtype it computes in).
ScalarType compute_dtype(const std::vector<Input>& inputs) {
  ScalarType loosest = ts::kDouble;
  for (const Input& in : inputs) {
    const ScalarType d = ts::is_floating_type(in.dtype) ? in.dtype : ts::kFloat;
    if (tolerance(d).first > tolerance(loosest).first) loosest = d;
  }
  return loosest;
}

// Empty when the values agree, else the first element that differs.
std::string value_difference(const ts::Tensor& t, const at::Tensor& a, ScalarType compute) {
  const at::Tensor x = wrap(t).to(at::kDouble).contiguous().view(-1);
  const at::Tensor y = a.detach().to(at::kDouble).contiguous().view(-1);
  const bool exact = !t.is_floating_point() && !at::isFloatingType(a.scalar_type());
  double rtol = 0, atol = 0;
  for (ScalarType d : {t.dtype(), from_aten(a.scalar_type()), compute}) {
    if (exact) break;
    rtol = std::max(rtol, tolerance(d).first);
    atol = std::max(atol, tolerance(d).second);
  }
  const double* px = x.data_ptr<double>();
  const double* py = y.data_ptr<double>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double u = px[i], v = py[i];
    if ((std::isnan(u) && std::isnan(v)) || u == v || std::abs(u - v) <= atol + rtol * std::abs(v))
      continue;
    std::ostringstream os;
    os.precision(17);
    os << "element " << i << ": touchstone " << u << ", aten " << v;
    return os.str();
  }
  return {};
}

struct Difference {
  std::string cls;     // value, accept, dtype, shape, layout, grad, grad_fn
  std::string detail;  // both outcomes
};

// Every class of difference between two results (no value check across shapes). A gradient's
// differences are all of class grad, the detail saying which property differs.
void compare_tensors(const ts::Tensor& t, const at::Tensor& a, const std::string& grad_of,
                     ScalarType compute, std::vector<Difference>& out) {
  const bool is_grad = !grad_of.empty();
  const auto add = [&](const char* cls, const std::string& detail) {
    out.push_back({is_grad ? "grad" : cls, is_grad ? grad_of + " " + cls + ": " + detail : detail});
  };
  const std::string both = "touchstone " + describe(t) + " | aten " + describe(a);
  if (to_aten(t.dtype()) != a.scalar_type()) add("dtype", both);
  if (!same_sizes(t, a)) {
    add("shape", both);
    return;
  }
  if (!same_strides(t, a)) add("layout", both);
  const std::string v = value_difference(t, a, compute);
  if (!v.empty()) add("value", v + " (" + both + ")");
}

std::vector<Difference> compare(const Side<ts::Tensor>& t, const Side<at::Tensor>& a,
                                ScalarType compute) {
  std::vector<Difference> out;
  if (!t.error.empty() || !a.error.empty()) {
    if (t.error.empty() != a.error.empty()) {
      out.push_back(
          {"accept",
           "touchstone " +
               (t.error.empty() ? "returns " + describe(t.result) : "throws '" + t.error + "'") +
               " | aten " +
               (a.error.empty() ? "returns " + describe(a.result) : "throws '" + a.error + "'")});
    }
    return out;
  }
  compare_tensors(t.result, a.result, "", compute, out);
  if (t.grad_fn != a.grad_fn) {
    out.push_back({"grad_fn", "touchstone '" + t.grad_fn + "' | aten '" + a.grad_fn + "'"});
  }
  if (t.grad_error != a.grad_error && (t.grad_error.empty() || a.grad_error.empty())) {
    out.push_back(
        {"grad", "backward: touchstone '" + t.grad_error + "' | aten '" + a.grad_error + "'"});
  }
  for (size_t i = 0; i < std::min(t.grads.size(), a.grads.size()); ++i) {
    const std::string what = "grad of input " + std::to_string(i);
    if (t.grads[i].defined() != a.grads[i].defined()) {
      out.push_back({"grad", what + " defined on one side only"});
    } else if (t.grads[i].defined()) {
      compare_tensors(t.grads[i], a.grads[i], what, compute, out);
    }
  }
  return out;
}

// ---- the allow-list (Note [Parity allow-list]) ----

struct AllowRow {
  std::vector<std::string> fields;  // class, op, form, dtypes, layout, set, detail
  std::string reason;
  int line = 0;
  int hits = 0;
};

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::vector<AllowRow> read_allow_list() {
  // TS_PARITY_ALLOWED in the environment names another list (to try a change to the list).
  const char* env = std::getenv("TS_PARITY_ALLOWED");
  const std::string path = env ? env : TS_PARITY_ALLOWED;
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << "parity: cannot read the allow-list " << path;
  std::vector<AllowRow> rows;
  std::string line;
  for (int n = 1; std::getline(f, line); ++n) {
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    AllowRow r;
    r.line = n;
    size_t begin = 0;
    for (int i = 0; i < 7 && begin != std::string::npos; ++i) {
      const size_t end = line.find(';', begin);
      r.fields.push_back(trim(line.substr(begin, end - begin)));
      begin = end == std::string::npos ? end : end + 1;
    }
    if (begin != std::string::npos) r.reason = trim(line.substr(begin));
    EXPECT_EQ(r.fields.size(), 7u) << "allowed.txt:" << n << ": expected 8 ';'-separated fields";
    EXPECT_FALSE(r.reason.empty()) << "allowed.txt:" << n << ": a row needs its reason";
    rows.push_back(r);
  }
  return rows;
}

// ---- the calls and their tally ----

struct Call {
  Call(std::string op_, std::string form_, std::string dtypes_, std::string layout_,
       std::vector<Input> inputs_)
      : op(std::move(op_)),
        form(std::move(form_)),
        dtypes(std::move(dtypes_)),
        layout(std::move(layout_)),
        inputs(std::move(inputs_)) {}
  std::string op, form, dtypes, layout;
  std::vector<Input> inputs;
  bool grad = false;  // a sum of the output is differentiated (functional form, floating inputs)
  std::function<ts::Tensor(const std::vector<ts::Tensor>&)> ts_fn;
  std::function<at::Tensor(const std::vector<at::Tensor>&)> at_fn;
};

class Tally {
 public:
  explicit Tally(std::vector<AllowRow>& rows) : rows_(rows) {}

  void run(const std::string& set, const Call& c) {
    Inputs in = make_inputs(c.inputs, c.grad);
    const Side<ts::Tensor> t = run_side(c.ts_fn, in.ts);
    const Side<at::Tensor> a = run_side(c.at_fn, in.at);
    ++calls_;
    const std::vector<Difference> diffs = compare(t, a, compute_dtype(c.inputs));
    if (diffs.empty()) ++agreements_;
    for (const Difference& d : diffs) {
      const std::string key[] = {d.cls, c.op, c.form, c.dtypes, c.layout, set, d.detail};
      AllowRow* row = nullptr;
      for (AllowRow& r : rows_) {
        bool match = r.fields.size() == 7;
        for (size_t i = 0; match && i < 7; ++i) {
          match = fnmatch(r.fields[i].c_str(), key[i].c_str(), FNM_EXTMATCH) == 0;
        }
        if (match) {
          row = &r;
          break;
        }
      }
      if (row) {
        ++row->hits;
        ++allowed_[d.cls];
      } else {
        ++unexplained_[d.cls];
        ADD_FAILURE() << "parity: " << d.cls << " difference: " << c.op << " form " << c.form
                      << " dtypes " << c.dtypes << " layout " << c.layout << " kernels " << set
                      << ": " << d.detail;
      }
    }
  }

  void print_summary() const {
    std::cout << "parity: " << calls_ << " calls, " << agreements_ << " agree\n";
    for (const char* cls : {"value", "accept", "dtype", "shape", "layout", "grad", "grad_fn"}) {
      std::cout << "  " << cls << ": " << get(allowed_, cls) << " allowed, "
                << get(unexplained_, cls) << " unexplained\n";
    }
    for (const AllowRow& r : rows_) {
      std::cout << "  allowed.txt:" << r.line << ": " << r.hits << " differences"
                << (r.hits == 0 ? " (stale row: remove it)" : "") << "\n";
    }
  }

 private:
  static int64_t get(const std::map<std::string, int64_t>& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? 0 : it->second;
  }

  std::vector<AllowRow>& rows_;
  int64_t calls_ = 0;
  int64_t agreements_ = 0;
  std::map<std::string, int64_t> allowed_;
  std::map<std::string, int64_t> unexplained_;
};

// ---- the op table: each op's ts:: and at:: forms (null where a library has none) ----

using TsT = ts::Tensor;
using AtT = at::Tensor;
using TsVec = std::vector<TsT>;
using AtVec = std::vector<AtT>;

struct UnaryRow {
  ts::OpId op;
  const char* name;
  TsT (*ts_f)(const TsT&);
  void (*ts_i)(const TsT&);
  void (*ts_o)(const TsT&, const TsT&);
  AtT (*at_f)(const AtT&);
  void (*at_i)(AtT&);
  void (*at_o)(AtT&, const AtT&);
};

// clang-format off
#define TS_F(name) [](const TsT& a) { return ts::name(a); }, \
                   [](const TsT& a) { ts::name##_(a); }, \
                   [](const TsT& o, const TsT& a) { ts::name##_out(o, a); }
#define AT_F(name) [](const AtT& a) { return at::name(a); }, \
                   [](AtT& a) { a.name##_(); }, \
                   [](AtT& o, const AtT& a) { at::name##_out(o, a); }
#define UNARY(name) {ts::OpId::name, #name, TS_F(name), AT_F(name)}
const UnaryRow kUnary[] = {
    UNARY(neg), UNARY(abs), UNARY(sign), UNARY(exp), UNARY(expm1), UNARY(log), UNARY(log1p),
    UNARY(sqrt), UNARY(rsqrt), UNARY(reciprocal), UNARY(sin), UNARY(cos), UNARY(tan),
    UNARY(tanh), UNARY(sigmoid), UNARY(erf), UNARY(floor), UNARY(ceil),
    UNARY(round), UNARY(trunc), UNARY(logical_not), UNARY(bitwise_not),
    // silu_ is not a method in ATen 1.13.
    {ts::OpId::silu, "silu", TS_F(silu), [](const AtT& a) { return at::silu(a); },
     [](AtT& a) { at::silu_(a); }, [](AtT& o, const AtT& a) { at::silu_out(o, a); }},
    // ATen 1.13 has no relu_out; isnan has only the functional form in both.
    {ts::OpId::relu, "relu", [](const TsT& a) { return ts::relu(a); },
     [](const TsT& a) { ts::relu_(a); }, nullptr,
     [](const AtT& a) { return at::relu(a); }, [](AtT& a) { a.relu_(); }, nullptr},
    {ts::OpId::isnan, "isnan", [](const TsT& a) { return ts::isnan(a); }, nullptr, nullptr,
     [](const AtT& a) { return at::isnan(a); }, nullptr, nullptr},
};
#undef UNARY
#undef AT_F
#undef TS_F
// clang-format on

struct BinaryRow {
  ts::OpId op;
  const char* name;
  TsT (*ts_f)(const TsT&, const TsT&);
  TsT (*ts_fs)(const TsT&, const ts::Scalar&);
  void (*ts_i)(const TsT&, const TsT&);
  void (*ts_is)(const TsT&, const ts::Scalar&);
  void (*ts_o)(const TsT&, const TsT&, const TsT&);
  AtT (*at_f)(const AtT&, const AtT&);
  AtT (*at_fs)(const AtT&, const at::Scalar&);
  void (*at_i)(AtT&, const AtT&);
  void (*at_is)(AtT&, const at::Scalar&);
  void (*at_o)(AtT&, const AtT&, const AtT&);
};

// clang-format off
#define TS_F(name) [](const TsT& a, const TsT& b) { return ts::name(a, b); }
#define TS_FS(name) [](const TsT& a, const ts::Scalar& b) { return ts::name(a, b); }
#define TS_I(name) [](const TsT& a, const TsT& b) { a.name##_(b); }, \
                   [](const TsT& a, const ts::Scalar& b) { a.name##_(b); }
#define TS_O(name) [](const TsT& o, const TsT& a, const TsT& b) { ts::name##_out(o, a, b); }
#define AT_F(name) [](const AtT& a, const AtT& b) { return at::name(a, b); }
#define AT_FS(name) [](const AtT& a, const at::Scalar& b) { return at::name(a, b); }
#define AT_I(name) [](AtT& a, const AtT& b) { a.name##_(b); }
#define AT_IS(name) [](AtT& a, const at::Scalar& b) { a.name##_(b); }
#define AT_O(name) [](AtT& o, const AtT& a, const AtT& b) { at::name##_out(o, a, b); }
#define BINARY(name) {ts::OpId::name, #name, TS_F(name), TS_FS(name), TS_I(name), TS_O(name), \
                      AT_F(name), AT_FS(name), AT_I(name), AT_IS(name), AT_O(name)}
// ATen 1.13 has no Scalar overload of these (torch.atan2(t, 2) is refused too).
#define BINARY_NO_AT_SCALAR(name) {ts::OpId::name, #name, TS_F(name), TS_FS(name), TS_I(name), \
                                   TS_O(name), AT_F(name), nullptr, AT_I(name), nullptr, AT_O(name)}
const BinaryRow kBinary[] = {
    BINARY(mul), BINARY(remainder), BINARY(pow), BINARY(eq), BINARY(ne), BINARY(lt),
    BINARY(le), BINARY(gt), BINARY(ge), BINARY(bitwise_and), BINARY(bitwise_or),
    BINARY(bitwise_xor), BINARY_NO_AT_SCALAR(atan2), BINARY_NO_AT_SCALAR(logical_and),
    BINARY_NO_AT_SCALAR(logical_or),
    // No in-place form in either library, no Scalar form in ATen.
    {ts::OpId::maximum, "maximum", TS_F(maximum), TS_FS(maximum), nullptr, nullptr,
     TS_O(maximum), AT_F(maximum), nullptr, nullptr, nullptr, AT_O(maximum)},
    {ts::OpId::minimum, "minimum", TS_F(minimum), TS_FS(minimum), nullptr, nullptr,
     TS_O(minimum), AT_F(minimum), nullptr, nullptr, nullptr, AT_O(minimum)},
    // Not plain (they take alpha or a rounding mode), called with the defaults.
    BINARY(add), BINARY(sub), BINARY(div),
};
#undef BINARY_NO_AT_SCALAR
#undef BINARY
#undef AT_O
#undef AT_IS
#undef AT_I
#undef AT_FS
#undef AT_F
#undef TS_O
#undef TS_I
#undef TS_FS
#undef TS_F
// clang-format on

template <class Row>
bool in_table(const Row* begin, const Row* end, ts::OpId op) {
  return std::any_of(begin, end, [&](const Row& r) { return r.op == op; });
}

// ---- the call generators ----

// The functional form (differentiated for floating inputs), in-place, and out= into an empty
// tensor of `same` and of float64.
void run_forms(Tally& tally, const std::string& set, Call c, ScalarType same,
               const std::function<ts::Tensor(const TsVec&)>& ts_f,
               const std::function<at::Tensor(const AtVec&)>& at_f,
               const std::function<void(const TsVec&)>& ts_i,
               const std::function<void(AtVec&)>& at_i,
               const std::function<void(const TsT&, const TsVec&)>& ts_o,
               const std::function<void(AtT&, const AtVec&)>& at_o) {
  c.form = "f";
  c.grad = true;
  c.ts_fn = ts_f;
  c.at_fn = at_f;
  tally.run(set, c);
  c.grad = false;
  if (ts_i && at_i) {
    c.form = "inplace";
    c.ts_fn = [&](const TsVec& in) {
      ts_i(in);
      return in[0];
    };
    c.at_fn = [&](const AtVec& in) {
      AtVec v = in;
      at_i(v);
      return v[0];
    };
    tally.run(set, c);
  }
  if (!ts_o || !at_o) return;
  std::vector<ScalarType> out_dtypes{same};
  if (same != ts::kDouble) out_dtypes.push_back(ts::kDouble);
  for (ScalarType out_dtype : out_dtypes) {
    c.form = out_dtype == same ? "out_same" : "out_f64";
    c.ts_fn = [&, out_dtype](const TsVec& in) {
      TsT out = ts::empty({0}, out_dtype);
      ts_o(out, in);
      return out;
    };
    c.at_fn = [&, out_dtype](const AtVec& in) {
      AtT out = at::empty({0}, to_aten(out_dtype));
      at_o(out, in);
      return out;
    };
    tally.run(set, c);
  }
}

void run_unary(Tally& tally, const std::string& set) {
  for (const UnaryRow& r : kUnary) {
    for (ScalarType d : kDtypes) {
      for (Layout l : kLayouts) {
        Call c{r.name, "", short_name(d), layout_name(l), {{d, l, 0}}};
        run_forms(
            tally, set, c, d, [&](const TsVec& in) { return r.ts_f(in[0]); },
            [&](const AtVec& in) { return r.at_f(in[0]); },
            r.ts_i ? std::function<void(const TsVec&)>([&](const TsVec& in) { r.ts_i(in[0]); })
                   : nullptr,
            r.at_i ? std::function<void(AtVec&)>([&](AtVec& in) { r.at_i(in[0]); }) : nullptr,
            r.ts_o ? std::function<void(const TsT&, const TsVec&)>(
                         [&](const TsT& o, const TsVec& in) { r.ts_o(o, in[0]); })
                   : nullptr,
            r.at_o ? std::function<void(AtT&, const AtVec&)>(
                         [&](AtT& o, const AtVec& in) { r.at_o(o, in[0]); })
                   : nullptr);
      }
    }
  }
}

// other gets self's shape, contiguous (0-dim and empty stay so): the output layout follows
// self's in ATen's TensorIterator when self is the one with a layout.
Layout other_layout(Layout l) {
  return l == Layout::ZeroDim || l == Layout::Empty ? l : Layout::Contiguous;
}

void run_binary(Tally& tally, const std::string& set) {
  for (const BinaryRow& r : kBinary) {
    for (ScalarType d1 : kDtypes) {
      for (ScalarType d2 : kDtypes) {
        for (Layout l : kLayouts) {
          // Mixed dtypes over the contiguous and transposed layouts only.
          if (d1 != d2 && l != Layout::Contiguous && l != Layout::Transposed) continue;
          Call c{r.name,
                 "",
                 short_name(d1) + "," + short_name(d2),
                 layout_name(l),
                 {{d1, l, 0}, {d2, other_layout(l), 1}}};
          run_forms(
              tally, set, c, ts::promote_types(d1, d2),
              [&](const TsVec& in) { return r.ts_f(in[0], in[1]); },
              [&](const AtVec& in) { return r.at_f(in[0], in[1]); },
              r.ts_i ? std::function<void(const TsVec&)>(
                           [&](const TsVec& in) { r.ts_i(in[0], in[1]); })
                     : nullptr,
              r.at_i ? std::function<void(AtVec&)>([&](AtVec& in) { r.at_i(in[0], in[1]); })
                     : nullptr,
              [&](const TsT& o, const TsVec& in) { r.ts_o(o, in[0], in[1]); },
              [&](AtT& o, const AtVec& in) { r.at_o(o, in[0], in[1]); });
        }
      }
    }
  }
}

// Tensor-Scalar forms: the Scalar is a wrapped number (int, float, bool; 300 and 1e10 overflow
// the narrow dtypes).
void run_binary_scalar(Tally& tally, const std::string& set) {
  const std::pair<ts::Scalar, std::string> kScalars[] = {{ts::Scalar(int64_t{2}), "int:2"},
                                                         {ts::Scalar(2.5), "float:2.5"},
                                                         {ts::Scalar(true), "bool:true"},
                                                         {ts::Scalar(int64_t{300}), "int:300"},
                                                         {ts::Scalar(1e10), "float:1e10"}};
  for (const BinaryRow& r : kBinary) {
    if (!r.at_fs) continue;
    for (ScalarType d : kDtypes) {
      for (const auto& scalar : kScalars) {
        const ts::Scalar s = scalar.first;
        const std::string& s_name = scalar.second;
        for (Layout l : {Layout::Contiguous, Layout::ZeroDim}) {
          const at::Scalar as = to_aten(s);
          Call c{r.name, "f_scalar", short_name(d) + "," + s_name, layout_name(l), {{d, l, 0}}};
          c.grad = true;
          c.ts_fn = [&](const TsVec& in) { return r.ts_fs(in[0], s); };
          c.at_fn = [&](const AtVec& in) { return r.at_fs(in[0], as); };
          tally.run(set, c);
          if (!r.ts_is || !r.at_is) continue;
          c.form = "inplace_scalar";
          c.grad = false;
          c.ts_fn = [&](const TsVec& in) {
            r.ts_is(in[0], s);
            return in[0];
          };
          c.at_fn = [&](const AtVec& in) {
            AtT self = in[0];
            r.at_is(self, as);
            return self;
          };
          tally.run(set, c);
        }
      }
    }
  }
}

// add and sub with an alpha (an int, a negative int, a float, a bool) on same-dtype operands.
void run_alpha(Tally& tally, const std::string& set) {
  const std::pair<ts::Scalar, std::string> kAlphas[] = {{ts::Scalar(int64_t{2}), "int:2"},
                                                        {ts::Scalar(int64_t{-1}), "int:-1"},
                                                        {ts::Scalar(0.5), "float:0.5"},
                                                        {ts::Scalar(true), "bool:true"}};
  for (const bool add : {true, false}) {
    for (ScalarType d : kDtypes) {
      for (const auto& alpha : kAlphas) {
        const ts::Scalar ts_a = alpha.first;
        const at::Scalar at_a = to_aten(ts_a);
        const std::string dtypes = short_name(d) + "," + short_name(d) + ",alpha=" + alpha.second;
        const Layout l = Layout::Contiguous;
        Call c{add ? "add" : "sub", "", dtypes, layout_name(l), {{d, l, 0}, {d, l, 1}}};
        run_forms(
            tally, set, c, d,
            [&](const TsVec& in) {
              return add ? ts::add(in[0], in[1], ts_a) : ts::sub(in[0], in[1], ts_a);
            },
            [&](const AtVec& in) {
              return add ? at::add(in[0], in[1], at_a) : at::sub(in[0], in[1], at_a);
            },
            [&](const TsVec& in) { add ? in[0].add_(in[1], ts_a) : in[0].sub_(in[1], ts_a); },
            [&](AtVec& in) { add ? in[0].add_(in[1], at_a) : in[0].sub_(in[1], at_a); },
            [&](const TsT& o, const TsVec& in) {
              add ? ts::add_out(o, in[0], in[1], ts_a) : ts::sub_out(o, in[0], in[1], ts_a);
            },
            [&](AtT& o, const AtVec& in) {
              add ? at::add_out(o, in[0], in[1], at_a) : at::sub_out(o, in[0], in[1], at_a);
            });
      }
    }
  }
}

// The comparison itself: equal results give no difference, and each class is found.
TEST(Parity, CompareFindsEachClassOfDifference) {
  Side<ts::Tensor> t;
  Side<at::Tensor> a;
  t.result = ts::tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, ts::kFloat).view({2, 3});
  a.result = at::tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, at::kFloat).view({2, 3});
  EXPECT_TRUE(compare(t, a, ts::kFloat).empty());
  // Within float32's tolerance, no difference.
  a.result = at::tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0 + 1e-6}, at::kFloat).view({2, 3});
  EXPECT_TRUE(compare(t, a, ts::kFloat).empty());
  // The same values transposed in float64, then one changed: dtype, layout, value.
  a.result = at::tensor({1.0, 4.0, 2.0, 5.0, 3.0, 7.0}, at::kDouble).view({3, 2}).t();
  std::vector<Difference> d = compare(t, a, ts::kFloat);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].cls, "dtype");
  EXPECT_EQ(d[1].cls, "layout");
  EXPECT_EQ(d[1].detail,
            "touchstone float32[2, 3] strides [3, 1] | aten Double[2, 3] strides [1, 2]");
  EXPECT_EQ(d[2].cls, "value");
  EXPECT_EQ(d[2].detail.substr(0, 32), "element 5: touchstone 6, aten 7 ");
  // Integers compare exactly: a relative tolerance would hide 1000001 vs 1000000.
  t.result = ts::tensor({int64_t{1000001}});
  a.result = at::tensor({int64_t{1000000}});
  d = compare(t, a, ts::kFloat);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].cls, "value");
  // One side throws: accept.
  a.error = "boom";
  d = compare(t, a, ts::kFloat);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].cls, "accept");
  EXPECT_EQ(d[0].detail, "touchstone returns int64[1] strides [1] | aten throws 'boom'");
}

// Adding a plain op to op_list.def without its row here fails, so the test grows with the list.
TEST(Parity, CoversEveryPlainOp) {
  ts::for_each_plain_op<ts::PlainOp::Unary>([](auto op) {
    EXPECT_TRUE(in_table(std::begin(kUnary), std::end(kUnary), op.value))
        << "parity: no kUnary row for " << ts::op_info(op.value).name;
  });
  ts::for_each_plain_op<ts::PlainOp::Binary>([](auto op) {
    EXPECT_TRUE(in_table(std::begin(kBinary), std::end(kBinary), op.value))
        << "parity: no kBinary row for " << ts::op_info(op.value).name;
  });
}

TEST(Parity, PlainOpsAgreeWithATen) {
  ts::aten::install_warning_handler();
  std::vector<AllowRow> rows = read_allow_list();
  Tally tally(rows);
  for (const char* set : {"reference", "optimized"}) {
    ts::KernelSetGuard guard(set);
    run_unary(tally, set);
    run_binary(tally, set);
    run_binary_scalar(tally, set);
    run_alpha(tally, set);
  }
  tally.print_summary();
}

}  // namespace
