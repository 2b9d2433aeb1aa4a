// The benchmark side's shared parts: sizes, dtype selection, op filters, deterministic inputs,
// the cases of every entry.
#include "catalog/bench.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "reports/text.h"

namespace ts::catalog {
namespace {

// `t` (made on the CPU) copied to `device`; call under the optimized set.
Tensor on_device(const Tensor& t, Device device) {
  if (device.type() == kCPU) return t;
  Tensor d = empty(t.sizes(), TensorOptions(t.dtype()).device(device));
  d.copy_(t);
  return d;
}

// A pattern without * or ? names an op or a family exactly when one has that name, else it is a
// substring of the op's name (as `touchstone conform --ops`).
bool matches_one(const BenchCase& c, const std::string& p) {
  if (p.find_first_of("*?") != std::string::npos) {
    return reports::glob_match(p, c.op) || reports::glob_match(p, c.family);
  }
  if (find_op(p) || p == c.family) return p == c.op || p == c.family;
  return c.op.find(p) != std::string::npos;
}

bool matches(const BenchCase& c, const std::string& patterns) {
  if (patterns.empty()) return true;
  for (const std::string& p : op_patterns(patterns)) {
    if (matches_one(c, p)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> op_patterns(const std::string& ops) {
  std::vector<std::string> out;
  std::stringstream ss(ops);
  for (std::string p; std::getline(ss, p, ',');) {
    const size_t first = p.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    out.push_back(p.substr(first, p.find_last_not_of(" \t") - first + 1));
  }
  return out;
}

std::vector<std::string> unmatched_patterns(const BenchOptions& options) {
  BenchOptions every;  // each case once, in its default dtype
  every.quick = options.quick;
  const std::vector<BenchCase> cases = bench_cases(every);
  std::vector<std::string> out;
  for (const std::string& p : op_patterns(options.ops)) {
    const bool hit = std::any_of(cases.begin(), cases.end(),
                                 [&](const BenchCase& c) { return matches_one(c, p); });
    if (!hit) out.push_back(p);
  }
  return out;
}

std::string BenchCase::name() const {
  return op + "/" + std::string(dtype_name(dtype)) + "/" + shape + "/" + layout;
}

int64_t CaseList::numel() const {
  return options_.quick ? int64_t{1} << 20 : int64_t{1} << 24;
}
int64_t CaseList::side() const {
  return options_.quick ? 1024 : 4096;
}
int64_t CaseList::stream_numel() const {
  return options_.quick ? 0 : int64_t{1} << 27;
}

std::vector<ScalarType> CaseList::dtypes(DTypeSet allowed, ScalarType fallback) const {
  if (options_.dtypes.empty()) return {fallback};
  std::vector<ScalarType> out;
  for (ScalarType t : options_.dtypes) {
    if (allowed.has(t)) out.push_back(t);
  }
  return out;
}

void CaseList::add(BenchCase c) {
  if (matches(c, options_.ops)) cases_.push_back(std::move(c));
}

std::vector<BenchCase> bench_cases(const BenchOptions& options) {
  CaseList list(options);
  for (const OpEntry& e : entries()) {
    if (e.bench) e.bench(e, list);
  }
  add_model_cases(list);
  add_block_cases(list);
  return std::move(list.cases());
}

std::vector<ScalarType> plain_dtypes(const OpEntry& e, const CaseList& list) {
  const DTypeSet allowed = entry_dtypes(e);
  ScalarType fallback = e.bench_dtype;
  for (ScalarType t : {kFloat, kInt, kBool}) {
    if (fallback == ScalarType::Undefined && allowed.has(t)) fallback = t;
  }
  return list.dtypes(allowed, fallback);
}

BenchFn each_dtype(DTypeSet allowed, std::function<void(CaseList& list, ScalarType t)> add) {
  return [allowed, add = std::move(add)](const OpEntry&, CaseList& list) {
    for (ScalarType t : list.dtypes(allowed)) add(list, t);
  };
}

ScalarType result_dtype(const OpEntry& e, const std::vector<ScalarType>& dtypes) {
  KernelSetGuard guard("reference");
  std::vector<Tensor> in;
  for (ScalarType t : dtypes) in.push_back(empty({0}, t));
  return e.run(in, {}).at(0).dtype();
}

Tensor make_input(IntArrayRef sizes, ScalarType dtype, Fill fill, Device device) {
  KernelSetGuard guard("optimized");
  Tensor t;
  switch (fill) {
    case Fill::Normal:
      t = randn(sizes);
      break;
    case Fill::Positive:
      t = add(rand(sizes), 0.5);
      break;
    case Fill::Unit:
      t = rand(sizes);
      break;
    case Fill::SmallInt:
      t = randint(-100, 100, sizes);
      break;
    case Fill::Mask:
      t = lt(rand(sizes), 0.5);
      break;
  }
  return on_device(t.to(dtype), device);
}

Tensor make_input(IntArrayRef sizes, ScalarType dtype, Range range, Device device) {
  KernelSetGuard guard("optimized");
  return on_device(draw(sizes, dtype, range, kFloat), device);
}

Tensor make_index(IntArrayRef sizes, int64_t bound, Device device) {
  KernelSetGuard guard("optimized");
  return on_device(randint(0, bound, sizes), device);
}

double nbytes(int64_t numel, ScalarType dtype) {
  return static_cast<double>(numel) * static_cast<double>(element_size(dtype));
}

BenchCase make_case(std::string family, std::string op, ScalarType dtype, std::string shape,
                    std::string layout, double bytes, double flops, std::vector<OpId> ops) {
  BenchCase c;
  c.family = std::move(family);
  c.op = std::move(op);
  c.shape = std::move(shape);
  c.layout = std::move(layout);
  c.dtype = dtype;
  c.bytes = bytes;
  c.flops = flops;
  c.ops = std::move(ops);
  return c;
}

std::string shape_str(IntArrayRef sizes) {
  std::string s;
  for (int64_t d : sizes) s += (s.empty() ? "" : "x") + std::to_string(d);
  return s.empty() ? "scalar" : s;
}

}  // namespace ts::catalog
