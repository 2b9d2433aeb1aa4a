// The parity test's shared core (issue 14): inputs seen through the same view calls in touchstone
// (ts::) and libtorch (at::), one call run on both sides, the comparison, the allow-list and the
// tally. Each op family's calls live in their own parity_<family>.cpp.
#pragma once
#include <ATen/ATen.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/ops.h"

namespace ts::parity {

using TsT = ts::Tensor;
using AtT = at::Tensor;
using TsVec = std::vector<TsT>;
using AtVec = std::vector<AtT>;
using ts::aten::to_aten;

inline constexpr ScalarType kDtypes[] = {kBool, kByte, kChar,     kShort, kInt,
                                         kLong, kHalf, kBFloat16, kFloat, kDouble};
inline constexpr ScalarType kFloatDtypes[] = {kHalf, kBFloat16, kFloat, kDouble};

// "b", "u8", ..., "f64": a dtype's name in the call keys.
std::string short_name(ScalarType d);

enum class Layout { Contiguous, Transposed, Strided, Expanded, ZeroDim, Empty };
inline constexpr Layout kLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Strided,
                                      Layout::Expanded,   Layout::ZeroDim,    Layout::Empty};
const char* layout_name(Layout l);

// One input: by default a 2x3 view (layout) of 12 values; `shape` gives another shape (contiguous,
// or transposed in its last two dims), `values` other values (indices, targets, masks).
struct Input {
  ScalarType dtype;
  Layout layout = Layout::Contiguous;
  int which = 0;  // 0: self's values, 1: other's (with a zero, for division and remainder)
  std::vector<int64_t> shape = {};
  std::vector<double> values = {};
};

struct Inputs {
  TsVec ts;
  AtVec at;
};

// The inputs on both sides; floating ones require grad when `requires_grad`.
Inputs make_inputs(const std::vector<Input>& specs, bool requires_grad);

// ---- one call on one side, and the comparison ----

template <class T>
struct Side {
  std::string error;  // empty when the call returned
  T result;
  std::string grad_fn;
  std::string grad_error;
  std::vector<T> grads;
};

struct Difference {
  std::string cls;     // value, accept, dtype, shape, layout, grad, grad_fn
  std::string detail;  // both outcomes
};

// Every difference between the two sides; `values` false compares everything but the values
// (random and uninitialised results).
std::vector<Difference> compare(const Side<TsT>& t, const Side<AtT>& a, ScalarType compute,
                                bool values = true);

// ---- the allow-list (Note [Parity allow-list] in parity.cpp) ----

struct AllowRow {
  std::vector<std::string> fields;  // class, op, form, dtypes, layout, set, detail
  std::string reason;
  int line = 0;
  int hits = 0;
};

std::vector<AllowRow> read_allow_list();

// ---- the calls and their tally ----

struct Call {
  std::string op;  // op_list.def's name: Parity.CoversEveryOp checks each has a call
  std::string form, dtypes, layout;
  std::vector<Input> inputs;
  bool grad = false;   // a sum of the output is differentiated (floating inputs)
  bool values = true;  // false: random or uninitialised values, not compared
  std::function<TsT(const TsVec&)> ts_fn;
  std::function<AtT(const AtVec&)> at_fn;
};

// Runs calls on both sides and counts agreements and differences (a dry tally only records the
// ops called, for Parity.CoversEveryOp).
class Tally {
 public:
  Tally(std::vector<AllowRow>* rows, bool dry) : rows_(rows), dry_(dry) {}
  void run(const std::string& set, const Call& c);
  void print_summary(const std::string& family) const;
  const std::set<std::string>& ops() const { return ops_; }
  bool dry() const { return dry_; }
  int64_t calls() const { return calls_; }
  int64_t agreements() const { return agreements_; }

 private:
  std::vector<AllowRow>* rows_;
  bool dry_;
  std::set<std::string> ops_;
  int64_t calls_ = 0;
  int64_t agreements_ = 0;
  std::map<std::string, int64_t> allowed_;
  std::map<std::string, int64_t> unexplained_;
};

// The functional form (differentiated for floating inputs), in-place and out= into an empty
// tensor of `same` and of float64; a null in-place or out= function skips that form.
void run_forms(Tally& tally, const std::string& set, Call c, ScalarType same,
               const std::function<TsT(const TsVec&)>& ts_f,
               const std::function<AtT(const AtVec&)>& at_f,
               const std::function<void(const TsVec&)>& ts_i,
               const std::function<void(AtVec&)>& at_i,
               const std::function<void(const TsT&, const TsVec&)>& ts_o,
               const std::function<void(AtT&, const AtVec&)>& at_o);

// One call of one form (no in-place or out= variants).
void run_call(Tally& tally, const std::string& set, Call c, std::function<TsT(const TsVec&)> ts_f,
              std::function<AtT(const AtVec&)> at_f);

// The dtype ATen's functional call gives for these inputs (`fallback` when it throws or the tally
// is dry): out= forms' "same" dtype.
ScalarType aten_result_dtype(const Tally& tally, const std::vector<Input>& inputs,
                             const std::function<AtT(const AtVec&)>& at_f, ScalarType fallback);

// A bad call both libraries must refuse (an accept difference otherwise).
void run_bad(Tally& tally, const std::string& set, const std::string& op, const std::string& what,
             std::vector<Input> inputs, std::function<TsT(const TsVec&)> ts_f,
             std::function<AtT(const AtVec&)> at_f);

// ---- the families: each runs its ops' calls on one kernel set ----

void run_pointwise(Tally& tally, const std::string& set);
void run_ternary(Tally& tally, const std::string& set);
void run_reduce(Tally& tally, const std::string& set);
void run_nn(Tally& tally, const std::string& set);
void run_linalg(Tally& tally, const std::string& set);
void run_index(Tally& tally, const std::string& set);
void run_factory(Tally& tally, const std::string& set);
void run_conv(Tally& tally, const std::string& set);         // convolution (issue 16)
void run_shape(Tally& tally, const std::string& set);        // shape (issue 16)
void run_sort(Tally& tally, const std::string& set);         // sorting and selection (issue 16)
void run_loss(Tally& tally, const std::string& set);         // losses (issue 16)
void run_pool(Tally& tally, const std::string& set);         // pooling (issue 16)
void run_interpolate(Tally& tally, const std::string& set);  // interpolation (issue 16)
// advanced indexing (issue 16)
void run_advanced_index(Tally& tally, const std::string& set);

}  // namespace ts::parity
