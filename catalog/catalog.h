#pragma once
// The case catalog: one entry per op of op_list.def (plus `op.variant` entries for optional
// arguments), keyed by OpId. An entry says how to call the op (functional, out=, in-place), the
// value ranges of its inputs and where it is not differentiable (through its samples); the
// conformance harness adds samples, tolerances and documented differences, the benchmark adds
// shapes (bench.h), the fuzzer takes the calls of the plain ones. One file per op family:
// catalog/<family>.cpp. See catalog/README.md.
//
// Note [One case catalog]
// The catalog lives in its own library (touchstone_catalog, this directory) that conformance/,
// perf/ and fuzz/ read, rather than in one of them: each of the three needs the same facts about
// an op (its calls, ranges, dtypes), none of them should depend on another harness (perf would
// pull in the conformance runner, the fuzzer the benchmark runner), and a plain op is one line of
// one family file for all three (catalog/unary.cpp's TS_UNARY_ENTRY, catalog/binary.cpp's
// TS_BINARY_ENTRY). Ops with unusual signatures keep hand-written entries, in the same files.
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "touchstone/touchstone.h"

namespace ts::catalog {

// Non-tensor arguments a sample passes to its op.
struct SampleArgs {
  std::optional<Scalar> scalar;  // the Scalar of a Tensor-Scalar call
  // dim arguments as written (may be negative): reduced dims (empty: all), or the one dim of
  // softmax, cumsum, index_select, gather, cat, ...
  std::vector<int64_t> dims;
  bool keepdim = false;
  // Further arguments, each list in the order of the op's schema; the entry's run function says
  // which it reads (see catalog/<family>.cpp).
  std::vector<Scalar> scalars;  // Scalar arguments: start/end/step, fill value, beta/alpha
  // int arguments: steps, n/m, reduction/ignore_index, low/high; int[] strides or values
  std::vector<int64_t> ints;
  std::vector<double> reals;        // float arguments: p, eps, label_smoothing; double values
  std::vector<int64_t> shape;       // an int[] size: a factory's size, normalized_shape
  std::optional<ScalarType> dtype;  // the dtype= argument (the target dtype of `to`)
  // The device= argument of factories: cpu for the reference, the run's device for the
  // candidate (conformance's --device).
  Device device = Device(kCPU);
  bool flag = false;  // a bool argument: dropout's train, to's copy
  // Random ops: the run function sets the Philox state to {seed, 0} before the call, so every
  // kernel set draws from the same stream (Note [Random samples] in catalog/factory.cpp).
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
  // Note [Known answers]
  // Outputs computed by hand (or taken from PyTorch's documentation), one per output: the
  // forward cases of the sample compare every kernel set's result, the reference's included
  // (`touchstone selfcheck`), with these instead of with the reference's, on the layouts that
  // keep the sample's values. An independent check of the oracle itself.
  std::vector<Tensor> expected;
  // Note [Large samples]: only the contiguous functional forward case runs (the `large` and
  // `rows_2053` samples: sizes that cross every block, vector and thread boundary, cheaply).
  bool contiguous_only = false;
};

// Value ranges that fit an op: [lo, hi), integer-valued for integer dtypes.
struct Range {
  double lo = -4;
  double hi = 4;
};

// Values in `range` from the current Philox state on the active kernel set: integer-valued for
// integer dtypes (from 0 for uint8), about half true for bool, floating values drawn in `real`.
Tensor draw(IntArrayRef shape, ScalarType dtype, Range range, ScalarType real);

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
// floating dtype): the values every elementwise op must get right at the edges. For an integer
// dtype: min, min + 1, -2, -1, 0, 1, 2, max - 1, max (uint8: 0, 1, 2, 127, 128, 254, 255), where
// ATen wraps (int8 127 + 1 = -128, abs(-128) = -128).
Tensor edge_values(ScalarType dtype);
// Note [Large samples]
// 2^16 + 7 elements: past every blocking (4 x 16 lanes, 256-column blocks, 16384-element
// chunks), vector-width tail and thread split (OpenMP grains of 32768) of the CPU kernels; the
// catalog's other samples stop near 2000. One per unary, binary and reduce entry, run only
// contiguous, functional and forward (Sample::contiguous_only), to keep the suite fast.
inline constexpr int64_t kLargeNumel = (int64_t{1} << 16) + 7;

// A known-answer sample (Note [Known answers]) named `name`, made on the reference set.
Sample known_answer(std::string name, std::vector<Tensor> inputs, std::vector<Tensor> expected,
                    SampleArgs args = {});

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
// reason are globs; empty matches everything. conformance/known_differences.json holds the
// kernel sets' list.
struct KnownDifference {
  std::string kernel_set;
  std::string op, dtype, sample, layout, variant, check;
  std::string reason;
  std::string message = {};  // a glob over the failure's message (a missing kernel's, say)
  // Note [Narrow documented differences]: the largest errors the row explains; a case beyond
  // either is a failure (the row names what was measured, not any difference in these cases).
  double max_abs_err = std::numeric_limits<double>::infinity();
  double max_ulp = std::numeric_limits<double>::infinity();
  std::string evidence = {};  // how the difference was established (a repro, a finding)
  std::string device = {};    // a glob over the run's device type ("cuda"); empty: any
};

struct OpEntry;
class CaseList;
// Adds the entry's benchmark cases to the list (bench.h).
using BenchFn = std::function<void(const OpEntry& e, CaseList& list)>;

// A known-answer sample that joins the samples of its entry in `dtype`.
struct KnownAnswer {
  ScalarType dtype;
  std::function<Sample()> make;
};

struct OpEntry {
  std::string name;    // the case name: the op's name, or "op.variant" (e.g. "gelu.tanh")
  std::string op;      // the op in op_list.def (empty: name); gives the default dtypes
  std::string family;  // factory, copy, unary, binary, ternary, reduce, nn, linalg, index
  OpId id{};           // the op's id, set by entries()
  DTypeSet dtypes;     // empty: every dtype the reference set runs `op` in
  // How to call it.
  RunFn run;
  RunOutFn run_out;          // null when the op has no out= form
  RunInplaceFn run_inplace;  // null when the op has no in-place form
  // The value ranges of the inputs, in order, where one range per input describes them (the
  // plain unary and binary entries): their samples and benchmark inputs are drawn from them.
  std::vector<Range> ranges;

  // ---- conformance ----
  SamplesFn samples;
  std::vector<KnownAnswer> known;    // Note [Known answers]
  std::optional<double> rtol, atol;  // overrides of the per-dtype defaults
  // Documented disagreements: "dtype/sample" -> why the case is not run (see catalog/<family>).
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
  // nn entries: each input gradient element is a few operations on the forward's results (a
  // mean-reduced loss), not a sum (Note [Gradient bounds] in conformance/checks.cpp).
  bool grad_elementwise = false;
  // Note [Constant by definition]
  // Outputs that every input of the sample's shape gives alike (zeros_like's zeros, fill_'s
  // value, floor's zero gradient): no sample can vary them, so their cases are not mistrusted
  // (Note [Mistrusted cases]); fresh outputs are poisoned, so they still prove every element
  // was written (Note [Guard bytes]).
  DTypeSet constant_output;    // the dtypes whose forward outputs are
  DTypeSet constant_gradient;  // the dtypes whose input gradients are

  // ---- benchmark (bench.h) ----
  BenchFn bench;     // null: the op is benchmarked by another entry (its main one, a composite's)
  double flops = 1;  // per output element, for the plain benchmark cases (Note [Bytes and FLOPs])
  // The dtype a plain benchmark case runs in without --dtypes (Undefined: float32, else the
  // first of int32 and bool the op runs in).
  ScalarType bench_dtype = ScalarType::Undefined;

  const std::string& op_name() const { return op.empty() ? name : op; }
};

// Note [ULP budgets] (budgets.cpp): an elementwise op's error in ULPs of the correctly rounded
// value; beyond `tolerance` a case fails, beyond `budget` it passes with a warning.
struct UlpBudget {
  double budget = 0;
  double tolerance = 0;
  // Plus this many units of roundoff of the dtype, absolute, in both bounds: ops whose formula
  // cancels (lerp, gelu's tanh form) err by ulps of their terms, not of their result.
  double abs_u = 0;
  // Zeros must carry the reference's sign (where ATen defines it: not for maximum/minimum).
  bool signed_zeros = true;
};
// Whether `e`'s forward results are judged in ULPs (the elementwise families).
bool judged_in_ulp(const OpEntry& e);
// The budget of `e` for an output of `out_dtype` (a floating dtype); nullopt when the entry is
// not judged in ULPs or has no row (it keeps assert_close's tolerances).
std::optional<UlpBudget> ulp_budget(const OpEntry& e, ScalarType out_dtype);

// An entry of `family` with its samples and functional form; the caller adds the rest.
OpEntry make_entry(std::string name, std::string family, SamplesFn samples, RunFn run);

// FNV-1a, 64 bits.
uint64_t hash_name(const std::string& s);

std::vector<OpEntry> unary_entries();
std::vector<OpEntry> binary_entries();
std::vector<OpEntry> reduce_entries();
std::vector<OpEntry> ternary_entries();
std::vector<OpEntry> nn_entries();
std::vector<OpEntry> norm_entries();  // normalization, embedding, attention (issue 16)
std::vector<OpEntry> linalg_entries();
std::vector<OpEntry> index_entries();
std::vector<OpEntry> conv_entries();   // convolution (issue 16)
std::vector<OpEntry> block_entries();  // whole model blocks (issue 16, catalog/blocks.cpp)
std::vector<OpEntry> factory_entries();
std::vector<OpEntry> copy_entries();
std::vector<OpEntry> shape_entries();  // shape (issue 16)
std::vector<OpEntry> sort_entries();   // sorting and selection (issue 16)
// searchsorted, bucketize, unique (issue 16; family "sort", catalog/sorted.cpp)
std::vector<OpEntry> sorted_entries();
std::vector<OpEntry> scan_entries();           // scans (issue 16)
std::vector<OpEntry> pool_entries();           // pooling (issue 16)
std::vector<OpEntry> embedding_bag_entries();  // embedding_bag (issue 16)
std::vector<OpEntry> loss_entries();           // losses (issue 16)
// advanced indexing (issue 16)
std::vector<OpEntry> advanced_index_entries();
// take, put, index_copy, index_fill, masked_scatter (catalog/advanced_index_copy.cpp)
std::vector<OpEntry> advanced_index_copy_entries();
std::vector<OpEntry> interpolate_entries();  // interpolation (issue 16)
// repeat_interleave, padding, meshgrid, einsum, tensordot (issue 16, catalog/pad.cpp), joined to
// shape_entries()
std::vector<OpEntry> pad_entries();
// Every entry, family by family in op_list.def's order; each entry's id is set.
const std::vector<OpEntry>& entries();
// The entries of one op: its main entry (named as the op) first, then its variants.
std::vector<const OpEntry*> entries_of(OpId op);
// The dtypes a case runs in: the entry's, else the reference set's for its op.
DTypeSet entry_dtypes(const OpEntry& e);

// The entry named `name` in `v` (a family's list while it is built); throws when absent.
OpEntry& entry_named(std::vector<OpEntry>& v, const std::string& name);

// Helpers the families' sample makers share: a shape's element count, a reduction's sample name.
int64_t numel_of(IntArrayRef shape);
const char* reduction_name(Reduction r);

}  // namespace ts::catalog
