#pragma once
// The op catalog: per op, deterministic contiguous sample inputs, the dtypes, how to call the op
// (functional and out=) and tolerance overrides. One file per op family: catalog_<family>.cpp.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "touchstone/touchstone.h"

namespace ts::conformance {

// Non-tensor arguments a sample passes to its op.
struct SampleArgs {
  std::optional<Scalar> scalar;  // the Scalar of a Tensor-Scalar call
  // dim arguments as written (may be negative): reduced dims (empty: all), or the one dim of
  // softmax, cumsum, index_select, gather, cat, ...
  std::vector<int64_t> dims;
  bool keepdim = false;
  // Further arguments, each list in the order of the op's schema; the entry's run function says
  // which it reads (see catalog_<family>.cpp).
  std::vector<Scalar> scalars;  // Scalar arguments: start/end/step, fill value, beta/alpha
  // int arguments: steps, n/m, reduction/ignore_index, low/high; int[] strides or values
  std::vector<int64_t> ints;
  std::vector<double> reals;        // float arguments: p, eps, label_smoothing; double values
  std::vector<int64_t> shape;       // an int[] size: a factory's size, normalized_shape
  std::optional<ScalarType> dtype;  // the dtype= argument (the target dtype of `to`)
  bool flag = false;                // a bool argument: dropout's train, to's copy
  // Random ops: the run function sets the Philox state to {seed, 0} before the call, so every
  // kernel set draws from the same stream (Note [Random samples] in catalog_factory.cpp).
  std::optional<uint64_t> seed;
};

// Sets the Philox state to {args.seed, 0}, when the sample has a seed, until the scope ends
// (then restores it): random ops' run functions open one around the call.
class SeedScope {
 public:
  explicit SeedScope(const SampleArgs& args);
  ~SeedScope();
  SeedScope(const SeedScope&) = delete;
  SeedScope& operator=(const SeedScope&) = delete;

 private:
  uint64_t saved_seed_, saved_offset_;
};

struct Sample {
  std::string name;
  std::vector<Tensor> inputs;  // contiguous; the harness derives the other layouts
  SampleArgs args;
  int64_t summands = 1;  // terms per output element (Note [Reduction tolerance] in compare.h)
  bool has_out = true;   // whether the out= form applies (not for Tensor-Scalar calls)
  // False where the op's derivative is undefined at some input (edge values, ties): gradcheck
  // skips the sample; the backward comparison between kernel sets still runs.
  bool smooth = true;
};

// Value ranges that fit an op: [lo, hi), integer-valued for integer dtypes.
struct Range {
  double lo = -4;
  double hi = 4;
};

// Note [Deterministic samples]
// Input `index` of sample `sample` of op `op` in dtype `dtype` is drawn by the reference set from
// Philox seeded with the FNV-1a hash of "op/dtype/sample/index": the same on every run, thread
// count and kernel set, and independent of which other cases run.
class SampleContext {
 public:
  SampleContext(std::string op, ScalarType dtype) : op_(std::move(op)), dtype_(dtype) {}
  ScalarType dtype() const { return dtype_; }
  Tensor input(const std::string& sample, int index, IntArrayRef shape, Range range = {}) const;
  // A Scalar argument of the sample's dtype kind: true, 2 or 1.5.
  Scalar scalar() const;

 private:
  std::string op_;
  ScalarType dtype_;
};

using NamedShapes = std::vector<std::pair<std::string, std::vector<int64_t>>>;
// One-input samples: one per named shape with values in `r`, then, for floating dtypes, the
// edge values (not smooth).
std::vector<Sample> one_input_samples(const SampleContext& ctx, const NamedShapes& shapes,
                                      Range r = {});

// NaN, +-Inf, +-0, denormals, the dtype's limits and values near them, 1-D, in `dtype` (a
// floating dtype): the values every elementwise op must get right at the edges.
Tensor edge_values(ScalarType dtype);

using SamplesFn = std::function<std::vector<Sample>(const SampleContext& ctx)>;
using RunFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&, const SampleArgs&)>;
// Writes the results into `outs` through the op's out= form.
using RunOutFn = std::function<void(const std::vector<Tensor>& outs, const std::vector<Tensor>&,
                                    const SampleArgs&)>;
// Runs the op's in-place form on `self` (a copy of inputs[0] in the case's layout) with the other
// inputs; returns what the call returned, which must be `self`.
using RunInplaceFn =
    std::function<Tensor(const Tensor& self, const std::vector<Tensor>&, const SampleArgs&)>;

// A disagreement between a kernel set and the reference that is understood and written down (a
// documented PyTorch behaviour in the aten set, say): a failing case it matches is reported as
// "documented" with the reason, and does not fail the run. Fields other than kernel_set and
// reason are globs; empty matches everything. conformance/known_differences.cpp holds the list.
struct KnownDifference {
  std::string kernel_set;
  std::string op, dtype, sample, layout, variant, check;
  std::string reason;
};

struct OpEntry {
  std::string name;    // the case name: the op's name, or "op.variant" (e.g. "gelu.tanh")
  std::string op;      // the op in op_list.def (empty: name); gives the default dtypes
  std::string family;  // factory, copy, unary, binary, ternary, reduce, nn, linalg, index
  DTypeSet dtypes;     // empty: every dtype the reference set runs `op` in
  SamplesFn samples;
  RunFn run;
  RunOutFn run_out;                  // null when the op has no out= form
  RunInplaceFn run_inplace;          // null when the op has no in-place form
  std::optional<double> rtol, atol;  // overrides of the per-dtype defaults
  // Documented disagreements: "dtype/sample" -> why the case is not run (see catalog_<family>).
  std::map<std::string, std::string> skips;
  // Cases that run but whose failure is understood (ill-conditioned points, say): a failing case
  // a row matches is "documented" (KnownDifference above; an empty kernel_set matches any set).
  std::vector<KnownDifference> documented;
  bool accumulates = false;  // tolerances scale with Sample::summands (Note [Reduction tolerance])
  // Note [Gradient checks]
  // When the op is differentiable (op_list.def) and the dtype floating, every floating input
  // except those listed here gets requires_grad; the outputs' gradients are seeded from the
  // sample's name; the kernel set's input gradients must match the reference's on every layout,
  // and in float64 the reference's must pass gradcheck on smooth samples of <= 256 elements.
  std::vector<int> nograd_inputs;  // floating inputs PyTorch does not differentiate
  bool grad = true;                // false: no gradient checks for this entry
  const std::string& op_name() const { return op.empty() ? name : op; }
};

const std::vector<KnownDifference>& known_differences();

// An entry of `family` with its samples and functional form; the caller adds the rest.
OpEntry make_entry(std::string name, std::string family, SamplesFn samples, RunFn run);

// FNV-1a, 64 bits.
uint64_t hash_name(const std::string& s);

std::vector<OpEntry> unary_entries();
std::vector<OpEntry> binary_entries();
std::vector<OpEntry> reduce_entries();
std::vector<OpEntry> ternary_entries();
std::vector<OpEntry> nn_entries();
std::vector<OpEntry> linalg_entries();
std::vector<OpEntry> index_entries();
std::vector<OpEntry> factory_entries();
std::vector<OpEntry> copy_entries();
const std::vector<OpEntry>& catalog();
// The dtypes a case runs in: the entry's, else the reference set's for its op.
DTypeSet entry_dtypes(const OpEntry& e);

}  // namespace ts::conformance
