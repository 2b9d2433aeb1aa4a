#pragma once
// The op catalog: per op, deterministic contiguous sample inputs, the dtypes, how to call the op
// (functional and out=) and tolerance overrides. One file per op family: catalog_<family>.cpp.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "touchstone/touchstone.h"

namespace ts::conformance {

// Non-tensor arguments a sample passes to its op.
struct SampleArgs {
  std::optional<Scalar> scalar;  // the Scalar of a Tensor-Scalar call
  std::vector<int64_t> dims;     // reduced dims, as written (may be negative; empty: all)
  bool keepdim = false;
};

struct Sample {
  std::string name;
  std::vector<Tensor> inputs;  // contiguous; the harness derives the other layouts
  SampleArgs args;
  int64_t summands = 1;  // terms per output element (Note [Reduction tolerance] in compare.h)
  bool has_out = true;   // whether the out= form applies (not for Tensor-Scalar calls)
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

// NaN, +-Inf, +-0, denormals, the dtype's limits and values near them, 1-D, in `dtype` (a
// floating dtype): the values every elementwise op must get right at the edges.
Tensor edge_values(ScalarType dtype);

using SamplesFn = std::function<std::vector<Sample>(const SampleContext& ctx)>;
using RunFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&, const SampleArgs&)>;
// Writes the results into `outs` through the op's out= form.
using RunOutFn = std::function<void(const std::vector<Tensor>& outs, const std::vector<Tensor>&,
                                    const SampleArgs&)>;

struct OpEntry {
  std::string name;    // the case name: the op's name, or "op.variant" (e.g. "gelu.tanh")
  std::string op;      // the op in op_list.def (empty: name); gives the default dtypes
  std::string family;  // unary, binary, reduce
  DTypeSet dtypes;     // empty: every dtype the reference set runs `op` in
  SamplesFn samples;
  RunFn run;
  RunOutFn run_out;                  // null when the op has no out= form
  std::optional<double> rtol, atol;  // overrides of the per-dtype defaults
  // Documented disagreements: "dtype/sample" -> why the case is not run (see catalog_<family>).
  std::map<std::string, std::string> skips;
  bool accumulates = false;  // tolerances scale with Sample::summands (Note [Reduction tolerance])
  const std::string& op_name() const { return op.empty() ? name : op; }
};

// FNV-1a, 64 bits.
uint64_t hash_name(const std::string& s);

std::vector<OpEntry> unary_entries();
std::vector<OpEntry> binary_entries();
std::vector<OpEntry> reduce_entries();
const std::vector<OpEntry>& catalog();
// The dtypes a case runs in: the entry's, else the reference set's for its op.
DTypeSet entry_dtypes(const OpEntry& e);

}  // namespace ts::conformance
