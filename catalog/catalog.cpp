// The catalog's shared parts: deterministic inputs, known answers and the list of all entries.
#include "catalog/catalog.h"

#include <cmath>
#include <limits>

namespace ts::catalog {

uint64_t hash_name(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

Tensor draw(IntArrayRef shape, ScalarType dtype, Range range, ScalarType real) {
  if (dtype == kBool) return lt(rand(shape, real), 0.5);
  if (!is_floating_type(dtype)) {
    double lo = std::ceil(range.lo), hi = std::ceil(range.hi);
    if (dtype == kByte) lo = std::max(lo, 0.0);
    if (hi <= lo) hi = lo + 1;
    return randint(static_cast<int64_t>(lo), static_cast<int64_t>(hi), shape, dtype);
  }
  return add(mul(rand(shape, real), range.hi - range.lo), range.lo).to(dtype);
}

Tensor SampleContext::input(const std::string& sample, int index, IntArrayRef shape,
                            Range range) const {
  const std::string key =
      op_ + "/" + std::string(dtype_name(dtype_)) + "/" + sample + "/" + std::to_string(index);
  KernelSetGuard g("reference");
  const PhiloxState saved = philox_state();
  set_philox_state({hash_name(key), 0});
  const Tensor t = draw(shape, dtype_, range, kDouble);
  set_philox_state(saved);
  return t;
}

SeedScope::SeedScope(const SampleArgs& args) {
  const PhiloxState saved = philox_state();
  saved_seed_ = saved.seed;
  saved_offset_ = saved.offset;
  if (args.seed) set_philox_state({*args.seed, 0});
}

SeedScope::~SeedScope() {
  set_philox_state({saved_seed_, saved_offset_});
}

Scalar SampleContext::scalar() const {
  if (dtype_ == kBool) return Scalar(true);
  if (!is_floating_type(dtype_)) return Scalar(int64_t{2});
  return Scalar(1.5);
}

Tensor edge_values(ScalarType dtype) {
  if (!is_floating_type(dtype)) {
    TS_CHECK(dtype != kBool, "edge_values: no edge values for bool");
    std::vector<int64_t> v;
    if (dtype == kByte) {
      v = {0, 1, 2, 127, 128, 254, 255};
    } else {
      const int bits = static_cast<int>(element_size(dtype)) * 8;
      const int64_t max =
          bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
      const int64_t min = -max - 1;
      v = {min, min + 1, -2, -1, 0, 1, 2, max - 1, max};
    }
    KernelSetGuard g("reference");
    return tensor(ArrayRef<int64_t>(v), kLong).to(dtype);
  }
  const double inf = std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::max(), tiny = std::numeric_limits<double>::min();
  if (dtype == kFloat) max = std::numeric_limits<float>::max(), tiny = 1e-40;  // a denormal
  if (dtype == kHalf) max = 65504, tiny = 1e-7;                                // a denormal
  if (dtype == kBFloat16) max = 3.3e38, tiny = 1e-40;
  if (dtype == kDouble) tiny = 1e-310;
  const std::vector<double> v = {std::nan(""), inf, -inf, 0.0, -0.0, tiny, -tiny, 1,   -1,  0.5,
                                 -0.5,         2.5, -2.5, 20,  -20,  100,  -100,  max, -max};
  KernelSetGuard g("reference");
  return tensor(ArrayRef<double>(v), kDouble).to(dtype);
}

std::vector<Sample> one_input_samples(const SampleContext& ctx, const NamedShapes& shapes,
                                      Range r) {
  std::vector<Sample> out;
  for (const auto& [name, shape] : shapes) {
    Sample s;
    s.name = name;
    s.inputs = {ctx.input(name, 0, shape, r)};
    out.push_back(std::move(s));
  }
  if (ctx.dtype() != kBool) {
    Sample s;
    s.name = "edge_values";
    s.smooth = false;
    s.inputs = {edge_values(ctx.dtype())};
    out.push_back(std::move(s));
  }
  return out;
}

Sample known_answer(std::string name, std::vector<Tensor> inputs, std::vector<Tensor> expected,
                    SampleArgs args) {
  return Sample{.name = std::move(name),
                .inputs = std::move(inputs),
                .args = std::move(args),
                .expected = std::move(expected)};
}

const std::vector<OpEntry>& entries() {
  static const std::vector<OpEntry> all = [] {
    std::vector<OpEntry> v;
    // In op_list.def's order.
    for (auto* family :
         {&factory_entries,        &copy_entries,   &unary_entries, &binary_entries,
          &ternary_entries,        &reduce_entries, &nn_entries,    &conv_entries,
          &norm_entries,           &linalg_entries, &index_entries, &shape_entries,
          &sort_entries,           &scan_entries,   &pool_entries,  &embedding_bag_entries,
          &loss_entries,            // losses (issue 16)
          &advanced_index_entries,  // advanced indexing (issue 16)
          &interpolate_entries,     // interpolation (issue 16)
          &block_entries}) {
      for (OpEntry& e : family()) {
        const std::optional<OpId> op = find_op(e.op_name());
        TS_CHECK(op.has_value(), "catalog: entry ", e.name, " names no op of op_list.def");
        e.id = *op;
        v.push_back(std::move(e));
      }
    }
    return v;
  }();
  return all;
}

std::vector<const OpEntry*> entries_of(OpId op) {
  std::vector<const OpEntry*> out;
  for (const OpEntry& e : entries()) {
    if (e.id != op) continue;
    if (e.name == e.op_name()) {
      out.insert(out.begin(), &e);
    } else {
      out.push_back(&e);
    }
  }
  return out;
}

OpEntry& entry_named(std::vector<OpEntry>& v, const std::string& name) {
  for (OpEntry& e : v) {
    if (e.name == name) return e;
  }
  TS_ERROR("catalog: no entry named ", name);
}

int64_t numel_of(IntArrayRef shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

const char* reduction_name(Reduction r) {
  return r == Reduction::None ? "none" : r == Reduction::Mean ? "mean" : "sum";
}

OpEntry make_entry(std::string name, std::string family, SamplesFn samples, RunFn run) {
  OpEntry e;
  e.name = std::move(name);
  e.family = std::move(family);
  e.samples = std::move(samples);
  e.run = std::move(run);
  return e;
}

DTypeSet entry_dtypes(const OpEntry& e) {
  if (!e.dtypes.empty()) return e.dtypes;
  const std::optional<OpId> op = find_op(e.op_name());
  TS_CHECK(op.has_value(), "catalog: entry ", e.name, " names no op of op_list.def");
  return supported_dtypes(*op, kCPU, *find_kernel_set("reference"));
}

}  // namespace ts::catalog
