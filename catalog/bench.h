#pragma once
// The benchmark side of the catalog: one case per op call with fixed inputs (op, shape, dtype,
// layout), the bytes it moves and the FLOPs it does by the op's formula. Each catalog entry adds
// its op's cases (OpEntry::bench, beside its conformance samples in catalog/<family>.cpp);
// catalog/models.cpp adds shapes taken from real models.
#include <functional>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace ts::catalog {

// Note [Bytes and FLOPs]
// Per call. bytes: compulsory traffic, every input element read once and every output element
// written once (no write-allocate, no re-reads); a case of several ops sums its ops' traffic.
// flops: the op's arithmetic by formula, one per add, multiply or transcendental per element
// (softmax 4, layer_norm 8, mm 2·m·n·k); compares, copies, fills and index moves count zero.
struct BenchCase {
  std::string family;  // the op family: unary, binary, ..., factories, model
  std::string op;      // the op timed (a model case names its pattern: mlp_layer, ...)
  std::string shape;   // "16777216", "4096x4096", "64x(512x512)"
  std::string layout;  // contiguous, transposed, broadcast, ...
  ScalarType dtype = kFloat;
  double bytes = 0;
  double flops = 0;
  std::vector<OpId> ops;  // the kernel ops the call runs; a set lacking one is skipped
  // Makes the inputs (once per case, shared by every kernel set) on `device` and returns the
  // call to time; the call runs under the active kernel set.
  std::function<std::function<void()>(Device device)> setup;

  // "op/dtype/shape/layout": the case's key in reports.
  std::string name() const;
};

struct BenchOptions {
  bool quick = false;              // smaller shapes (caches hold more of them)
  std::vector<ScalarType> dtypes;  // empty: each case's default dtype
  std::string ops;                 // comma-separated names, substrings or globs; empty: all
};

// Every case that passes the options' filters: the entries' cases in catalog order, then the
// model cases.
std::vector<BenchCase> bench_cases(const BenchOptions& options);

// The comma-separated patterns of an --ops list, trimmed of blanks ("add, mul" -> add, mul).
std::vector<std::string> op_patterns(const std::string& ops);
// The patterns of options.ops that select no case of the catalog in any dtype (a typo, or an op
// without a case): `bench` rejects them rather than running nothing.
std::vector<std::string> unmatched_patterns(const BenchOptions& options);

// Collects the cases and holds the sizes for the run.
class CaseList {
 public:
  explicit CaseList(const BenchOptions& options) : options_(options) {}
  bool quick() const { return options_.quick; }
  // Elementwise length (quick 1 M, full 16 M) and square side (quick 1024, full 4096).
  int64_t numel() const;
  int64_t side() const;
  // The STREAM probes' 128 M elements: the DRAM-bound size of full runs (0 in quick runs, which
  // add no such case).
  int64_t stream_numel() const;
  // The dtypes to run a case in: the requested ones it allows, or its default.
  std::vector<ScalarType> dtypes(DTypeSet allowed, ScalarType fallback = kFloat) const;
  void add(BenchCase c);
  std::vector<BenchCase>& cases() { return cases_; }

 private:
  const BenchOptions& options_;
  std::vector<BenchCase> cases_;
};

// Deterministic inputs (Philox, fixed seed), made by the optimized set on `device`.
enum class Fill { Normal, Positive, Unit, SmallInt, Mask };
Tensor make_input(IntArrayRef sizes, ScalarType dtype, Fill fill = Fill::Normal,
                  Device device = kCPU);
inline Tensor make_input(IntArrayRef sizes, ScalarType dtype, Device device) {
  return make_input(sizes, dtype, Fill::Normal, device);
}
// Values in `range` (integer-valued for integer dtypes, half true for bool): an entry's inputs.
Tensor make_input(IntArrayRef sizes, ScalarType dtype, Range range, Device device = kCPU);
// An int64 tensor of `n` indices in [0, bound).
Tensor make_index(IntArrayRef sizes, int64_t bound, Device device = kCPU);

// Bytes of `numel` elements of `dtype`.
double nbytes(int64_t numel, ScalarType dtype);
std::string shape_str(IntArrayRef sizes);
// A case's description (the caller adds its setup).
BenchCase make_case(std::string family, std::string op, ScalarType dtype, std::string shape,
                    std::string layout, double bytes, double flops, std::vector<OpId> ops);
// The dtypes a plain entry's cases run in: its default (OpEntry::bench_dtype) or the requested
// ones among those it runs in.
std::vector<ScalarType> plain_dtypes(const OpEntry& e, const CaseList& list);
// The dtype of the entry's first output on inputs of `dtypes` (run on empty tensors).
ScalarType result_dtype(const OpEntry& e, const std::vector<ScalarType>& dtypes);

// A BenchFn that calls `add(list, t)` for each dtype of the run in `allowed` (by default float32).
BenchFn each_dtype(DTypeSet allowed, std::function<void(CaseList& list, ScalarType t)> add);

void add_model_cases(CaseList& list);
// Whole model blocks, forward and backward (catalog/blocks.cpp).
void add_block_cases(CaseList& list);

}  // namespace ts::catalog
