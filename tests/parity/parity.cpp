// The parity test (issue 14): the same API-level calls through touchstone (ts::) and libtorch
// (at::), compared per call: outcome (value or throw), result dtype, shape, strides, values, and
// for floating inputs the gradients of a sum of the output and the grad_fn name. This file is
// the shared core and the tests; the calls are in parity_<family>.cpp.
//
// Note [Parity allow-list]
// A difference fails the test unless a row of allowed.txt (beside this file) matches it: each
// row names the class, op, form, dtypes, layout, kernel set and a glob over the two outcomes,
// with its reason. Rows are narrow on purpose; a fix in lib/src makes its rows stale, and the
// summary lists stale rows so that the list only shrinks.
#include "parity.h"

#include <c10/util/Logging.h>
#include <fnmatch.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/function.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>

#include "touchstone/autograd.h"
#include "touchstone/dispatch.h"
#include "touchstone/kernel_family.h"
#include "touchstone/promotion.h"

namespace ts::parity {

using ts::aten::wrap;

// Note [Cheap ATen throws]
// libtorch 1.13 symbolizes a backtrace for every c10::Error it constructs, which made most of
// this test's time; the messages are all we compare, so the fetcher returns nothing.
const bool kNoAtenBacktraces = [] {
  c10::SetStackTraceFetcher([] { return std::string(); });
  return true;
}();

std::string short_name(ScalarType d) {
  static const char* const kNames[] = {"b",   "u8",  "i8",   "i16", "i32",
                                       "i64", "f16", "bf16", "f32", "f64"};
  return kNames[std::find(std::begin(kDtypes), std::end(kDtypes), d) - std::begin(kDtypes)];
}

const char* layout_name(Layout l) {
  static const char* const kNames[] = {"contiguous", "transposed", "step2",
                                       "expand",     "0-dim",      "empty"};
  return kNames[static_cast<int>(l)];
}

namespace {

// A 2x3 view (or 0-dim, or 0x3) of a 12-element base; ts::Tensor and at::Tensor share the calls.
// With a shape: that shape, contiguous or transposed in its last two dims.
template <class T>
T with_layout(const T& base, Layout l, const std::vector<int64_t>& shape) {
  if (!shape.empty()) {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    if (l != Layout::Transposed || shape.size() < 2) return base.slice(0, 0, n).view(shape);
    std::vector<int64_t> swapped = shape;
    std::swap(swapped[swapped.size() - 1], swapped[swapped.size() - 2]);
    return base.slice(0, 0, n).view(swapped).transpose(-2, -1);
  }
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

}  // namespace

Inputs make_inputs(const std::vector<Input>& specs, bool requires_grad) {
  static const double kValues[2][12] = {{-2.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3, -3, 0.25, 4},
                                        {1, 2, -1, 3, 0, -2, 0.5, 4, -3, 2.5, 1, -0.5}};
  Inputs in;
  for (const Input& s : specs) {
    std::vector<double> v = s.values;
    if (v.empty()) {
      // 12 values, repeated (each round shifted by 0.125) for a larger shape.
      int64_t n = 12;
      for (int64_t d : s.shape) n = std::max<int64_t>(n, d * (n == 12 ? 1 : n));
      int64_t numel = 1;
      for (int64_t d : s.shape) numel *= d;
      n = std::max<int64_t>(12, numel);
      for (int64_t i = 0; i < n; ++i) v.push_back(kValues[s.which][i % 12] + 0.125 * (i / 12));
    }
    if (s.dtype == kByte) {
      for (double& x : v) x = std::abs(x);
    }
    const TsT base = ts::tensor(ts::ArrayRef<double>(v), kDouble).to(s.dtype);
    in.ts.push_back(with_layout(base, s.layout, s.shape));
    in.at.push_back(with_layout(wrap(base).clone(), s.layout, s.shape));
    if (requires_grad && is_floating_type(s.dtype)) {
      in.ts.back().requires_grad_();
      in.at.back().requires_grad_();
    }
  }
  return in;
}

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > 160 ? line.substr(0, 160) + "..." : line;
}

// One side of a call (T is Tensor or at::Tensor): its result or error, then, when the result
// requires grad, its grad_fn name and the gradients of its sum for every input.
namespace {

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

// Note [Parity messages]
// Every touchstone error names the op the user called (issue 14): the message starts with
// "<op>:", or the method or function the form called: "<op>_:" (in place), "<op>_out:"; a
// mismatch is a "message" difference.
bool names_op(const std::string& error, const std::string& op) {
  for (const std::string& name : {op, op + "_", op + "_out"}) {
    if (error.compare(0, name.size() + 1, name + ":") == 0) return true;
  }
  return false;
}

// "float32[2, 3] strides [3, 1]" (ATen's dtype names on the aten side: "Float[2, 3] ...").
template <class T>
std::string describe(const T& t) {
  std::ostringstream os;
  if constexpr (std::is_same_v<T, Tensor>) {
    os << dtype_name(t.dtype());
  } else {
    os << c10::toString(t.scalar_type());
  }
  os << t.sizes() << " strides " << t.strides();
  return os.str();
}

// Strides of dims of size 0 or 1 carry no layout (ATen's own contiguity rule).
bool same_strides(const Tensor& t, const at::Tensor& a) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] > 1 && t.strides()[d] != a.strides()[d]) return false;
  }
  return true;
}

bool same_sizes(const Tensor& t, const at::Tensor& a) {
  return std::equal(t.sizes().begin(), t.sizes().end(), a.sizes().begin(), a.sizes().end());
}

ScalarType from_aten(c10::ScalarType d) {
  for (ScalarType t : kDtypes) {
    if (to_aten(t) == d) return t;
  }
  return kDouble;
}

// rtol and atol for a floating dtype; integers and bool compare exactly.
std::pair<double, double> tolerance(ScalarType d) {
  switch (d) {
    case kHalf:
      return {2e-3, 1e-3};
    case kBFloat16:
      return {1.6e-2, 1e-2};
    case kFloat:
      return {1e-5, 1e-6};
    case kDouble:
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
  ScalarType loosest = kDouble;
  for (const Input& in : inputs) {
    const ScalarType d = is_floating_type(in.dtype) ? in.dtype : kFloat;
    if (tolerance(d).first > tolerance(loosest).first) loosest = d;
  }
  return loosest;
}

// Empty when the values agree, else the first element that differs.
std::string value_difference(const Tensor& t, const at::Tensor& a, ScalarType compute) {
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

// Every class of difference between two results (no value check across shapes). A gradient's
// differences are all of class grad, the detail saying which property differs.
void compare_tensors(const Tensor& t, const at::Tensor& a, const std::string& grad_of,
                     ScalarType compute, bool values, std::vector<Difference>& out) {
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
  const std::string v = values ? value_difference(t, a, compute) : std::string();
  if (!v.empty()) add("value", v + " (" + both + ")");
}

}  // namespace

std::vector<Difference> compare(const Side<TsT>& t, const Side<AtT>& a, ScalarType compute,
                                bool values) {
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
  compare_tensors(t.result, a.result, "", compute, values, out);
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
      compare_tensors(t.grads[i], a.grads[i], what, compute, values, out);
    }
  }
  return out;
}

// ---- the allow-list (Note [Parity allow-list]) ----

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

void Tally::run(const std::string& set, const Call& c) {
  ops_.insert(c.op);
  if (dry_) return;
  Inputs in = make_inputs(c.inputs, c.grad);
  const Side<TsT> t = run_side(c.ts_fn, in.ts);
  const Side<AtT> a = run_side(c.at_fn, in.at);
  ++calls_;
  std::vector<Difference> diffs = compare(t, a, compute_dtype(c.inputs), c.values);
  if (!t.error.empty() && !names_op(t.error, c.op)) {
    diffs.push_back({"message", "touchstone throws '" + t.error + "'"});
  }
  if (diffs.empty()) ++agreements_;
  for (const Difference& d : diffs) {
    const std::string key[] = {d.cls, c.op, c.form, c.dtypes, c.layout, set, d.detail};
    AllowRow* row = nullptr;
    for (AllowRow& r : *rows_) {
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

void Tally::print_summary(const std::string& family) const {
  const auto get = [](const std::map<std::string, int64_t>& m, const char* key) {
    const auto it = m.find(key);
    return it == m.end() ? int64_t{0} : it->second;
  };
  std::cout << "parity " << family << ": " << calls_ << " calls, " << agreements_ << " agree\n";
  for (const char* cls :
       {"value", "accept", "dtype", "shape", "layout", "grad", "grad_fn", "message"}) {
    std::cout << "  " << cls << ": " << get(allowed_, cls) << " allowed, " << get(unexplained_, cls)
              << " unexplained\n";
  }
  // Each family's test reads the whole list; Parity.AllowListHasNoStaleRows adds the counts up.
  for (const AllowRow& r : *rows_) {
    if (r.hits > 0) std::cout << "  allowed.txt:" << r.line << ": " << r.hits << " differences\n";
  }
}

void run_forms(Tally& tally, const std::string& set, Call c, ScalarType same,
               const std::function<TsT(const TsVec&)>& ts_f,
               const std::function<AtT(const AtVec&)>& at_f,
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
  if (same != kDouble) out_dtypes.push_back(kDouble);
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

void run_call(Tally& tally, const std::string& set, Call c, std::function<TsT(const TsVec&)> ts_f,
              std::function<AtT(const AtVec&)> at_f) {
  c.ts_fn = std::move(ts_f);
  c.at_fn = std::move(at_f);
  tally.run(set, c);
}

ScalarType aten_result_dtype(const Tally& tally, const std::vector<Input>& inputs,
                             const std::function<AtT(const AtVec&)>& at_f, ScalarType fallback) {
  if (tally.dry()) return fallback;
  try {
    Inputs in = make_inputs(inputs, false);
    return from_aten(at_f(in.at).scalar_type());
  } catch (const std::exception&) {
    return fallback;
  }
}

void run_bad(Tally& tally, const std::string& set, const std::string& op, const std::string& what,
             std::vector<Input> inputs, std::function<TsT(const TsVec&)> ts_f,
             std::function<AtT(const AtVec&)> at_f) {
  Call c{op, "bad", what, "-", std::move(inputs)};
  c.ts_fn = std::move(ts_f);
  c.at_fn = std::move(at_f);
  tally.run(set, c);
}

namespace {

using Family = void (*)(Tally&, const std::string&);

const std::pair<const char*, Family> kFamilies[] = {
    {"pointwise", run_pointwise},
    {"ternary", run_ternary},
    {"reduce", run_reduce},
    {"nn", run_nn},
    {"linalg", run_linalg},
    {"index", run_index},
    {"factory", run_factory},
    {"conv", run_conv},  // convolution (issue 16)
    {"shape", run_shape},
    {"sort", run_sort},
    {"loss", run_loss},                      // losses (issue 16)
    {"pool", run_pool},                      // pooling (issue 16)
    {"advanced_index", run_advanced_index},  // advanced indexing (issue 16)
    {"interpolate", run_interpolate},        // interpolation (issue 16)
};

// Note [Stale allow rows]
// Each family's test reads the whole list and counts its own hits; the process adds them up per
// row (by line) and records which families ran. Parity.AllowListHasNoStaleRows, defined after the
// families so gtest runs it last, fails on a row no call of any family matched; a run that left
// a family out (--gtest_filter, a family that threw) cannot tell, so the test skips.
struct WholeRun {
  std::set<std::string> families;
  std::map<int, int> hits;  // allowed.txt line -> differences matched over every family
  int64_t calls = 0, agreements = 0;
};
WholeRun& whole_run() {
  static WholeRun run;
  return run;
}

void run_family(const char* name, Family family) {
  ts::aten::install_warning_handler();
  std::vector<AllowRow> rows = read_allow_list();
  Tally tally(&rows, false);
  for (const char* set : {"reference", "optimized"}) {
    ts::KernelSetGuard guard(set);
    family(tally, set);
  }
  tally.print_summary(name);
  for (const AllowRow& r : rows) whole_run().hits[r.line] += r.hits;
  whole_run().families.insert(name);
  whole_run().calls += tally.calls();
  whole_run().agreements += tally.agreements();
}

// The comparison itself: equal results give no difference, and each class is found.
TEST(Parity, CompareFindsEachClassOfDifference) {
  Side<TsT> t;
  Side<AtT> a;
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

// Adding an op to op_list.def without a parity call fails, so the test grows with the list
// (a dry tally records the ops the families call without running them).
TEST(Parity, CoversEveryOp) {
  Tally tally(nullptr, true);
  for (const auto& [name, f] : kFamilies) f(tally, "reference");
  for (const OpInfo& op : all_ops()) {
    EXPECT_TRUE(tally.ops().count(std::string(op.name)))
        << "parity: no call of " << op.name << " (add it to its family's parity_*.cpp)";
  }
}

TEST(Parity, PointwiseAgreesWithATen) {
  run_family("pointwise", run_pointwise);
}
TEST(Parity, TernaryAgreesWithATen) {
  run_family("ternary", run_ternary);
}
TEST(Parity, ReduceAgreesWithATen) {
  run_family("reduce", run_reduce);
}
TEST(Parity, NnAgreesWithATen) {
  run_family("nn", run_nn);
}
TEST(Parity, LinalgAgreesWithATen) {
  run_family("linalg", run_linalg);
}
TEST(Parity, IndexAgreesWithATen) {
  run_family("index", run_index);
}
TEST(Parity, FactoryAgreesWithATen) {
  run_family("factory", run_factory);
}
TEST(Parity, ConvAgreesWithATen) {
  run_family("conv", run_conv);
}
TEST(Parity, ShapeAgreesWithATen) {
  run_family("shape", run_shape);
}
TEST(Parity, SortAgreesWithATen) {  // sorting and selection (issue 16)
  run_family("sort", run_sort);
}
TEST(Parity, LossAgreesWithATen) {  // losses (issue 16)
  run_family("loss", run_loss);
}

TEST(Parity, PoolAgreesWithATen) {  // pooling (issue 16)
  run_family("pool", run_pool);
}

TEST(Parity, AdvancedIndexAgreesWithATen) {  // advanced indexing (issue 16)
  run_family("advanced_index", run_advanced_index);
}

TEST(Parity, InterpolateAgreesWithATen) {  // interpolation (issue 16)
  run_family("interpolate", run_interpolate);
}

// Last in this file, so after the families (Note [Stale allow rows]).
TEST(Parity, AllowListHasNoStaleRows) {
  const WholeRun& run = whole_run();
  for (const auto& [name, f] : kFamilies) {
    if (!run.families.count(name)) {
      GTEST_SKIP() << "parity: the " << name << " family did not run in this process; stale "
                   << "rows are checked on a whole run";
    }
  }
  int rows = 0;
  for (const AllowRow& r : read_allow_list()) {
    ++rows;
    EXPECT_GT(run.hits.at(r.line), 0)
        << "allowed.txt:" << r.line << ": stale row, no difference of any family matched it "
        << "(remove it): " << r.fields[0] << " ; " << r.fields[1] << " ; " << r.reason;
  }
  std::cout << "parity, every family: " << run.calls << " calls, " << run.agreements << " agree; "
            << rows << " allow rows, each matched\n";
}

}  // namespace
}  // namespace ts::parity
