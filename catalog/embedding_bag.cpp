// Catalog entries of embedding_bag (issue 16): modes sum, mean and max, offsets with empty bags
// and include_last_offset (also leaving entries past the last bag), per_sample_weights,
// padding_idx, fixed-length bags of a 2-D input, int32 indices, scale_grad_by_freq. Benchmark: a
// recommendation model's bag sum (DLRM-like: 2048 bags of 20 rows of 64 from 100000).
#include <string>
#include <vector>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

// Note [embedding_bag samples]
// inputs {weight, indices, offsets (when args.ints[3]), per_sample_weights (when args.ints[4])};
// args.ints = {mode, include_last_offset, padding_idx (-1000: none), has_offsets, has_psw,
// scale_grad_by_freq}.
struct BagCase {
  std::string name;
  int64_t rows = 10, dim = 3;
  std::vector<int64_t> indices{};  // empty: drawn, `count` of them
  int64_t count = 8;
  std::vector<int64_t> offsets{};  // empty with fixed_rows: a 2-D input
  int64_t mode = 0;
  bool include_last_offset = false, psw = false;
  int64_t padding_idx = -1000;
  int64_t fixed_rows = 0;  // > 0: indices (fixed_rows, count / fixed_rows), no offsets
  bool scale_grad_by_freq = false;
};

constexpr int64_t kNoPadding = -1000;

std::vector<BagCase> cases(ScalarType index_dtype) {
  std::vector<BagCase> v;
  for (int64_t mode : {0, 1, 2}) {
    const std::string m = mode == 0 ? "sum" : mode == 1 ? "mean" : "max";
    v.push_back({.name = m, .offsets = {0, 2, 5}, .mode = mode});
    v.push_back({.name = m + "_empty_bags", .count = 5, .offsets = {0, 0, 3, 3}, .mode = mode});
    v.push_back({.name = m + "_include_last",
                 .offsets = {0, 2, 5, 8},
                 .mode = mode,
                 .include_last_offset = true});
    v.push_back({.name = m + "_padding",
                 .indices = {2, 0, 2, 5, 7, 2, 1, 9},
                 .offsets = {0, 1, 3, 6},
                 .mode = mode,
                 .padding_idx = 2});
    v.push_back({.name = m + "_fixed_2d", .count = 12, .mode = mode, .fixed_rows = 4});
  }
  // scale_grad_by_freq: repeated indices (each row's gradient divided by its count).
  v.push_back({.name = "sum_scale_grad",
               .indices = {1, 1, 2, 1, 3, 3, 4, 9},
               .offsets = {0, 2, 5},
               .scale_grad_by_freq = true});
  v.push_back({.name = "mean_scale_grad_padding",
               .indices = {2, 0, 2, 5, 7, 2, 1, 7},
               .offsets = {0, 1, 3, 6},
               .mode = 1,
               .padding_idx = 2,
               .scale_grad_by_freq = true});
  v.push_back({.name = "max_scale_grad",
               .indices = {1, 1, 2, 1, 3, 3, 4, 9},
               .offsets = {0, 2, 5},
               .mode = 2,
               .scale_grad_by_freq = true});
  if (index_dtype != kLong) return v;
  v.push_back({.name = "sum_psw", .offsets = {0, 3, 3, 6}, .psw = true});
  v.push_back({.name = "sum_psw_padding",
               .indices = {2, 0, 2, 5, 7, 2, 1, 9},
               .offsets = {0, 4},
               .psw = true,
               .padding_idx = -8});
  v.push_back({.name = "mean_past_last_bag",
               .count = 6,
               .offsets = {0, 2, 4},
               .mode = 1,
               .include_last_offset = true});
  std::vector<int64_t> big_offsets;
  for (int64_t o = 0; o < 300; o += 7) big_offsets.push_back(o);
  v.push_back({.name = "big_sum", .rows = 1000, .dim = 65, .count = 300, .offsets = big_offsets});
  v.push_back({.name = "big_max",
               .rows = 1000,
               .dim = 65,
               .count = 300,
               .offsets = big_offsets,
               .mode = 2});
  return v;
}

OpEntry entry(ScalarType index_dtype) {
  OpEntry e = make_entry(
      index_dtype == kLong ? "embedding_bag" : "embedding_bag.int32_indices", "embedding_bag",
      [index_dtype](const SampleContext& ctx) {
        const SampleContext idx_ctx("embedding_bag/indices", kLong);
        std::vector<Sample> out;
        for (const BagCase& c : cases(index_dtype)) {
          Sample s;
          s.name = c.name;
          Tensor idx;
          {
            KernelSetGuard g("reference");
            idx = c.indices.empty()
                      ? idx_ctx.input(s.name, 1, {c.count}, Range{0, static_cast<double>(c.rows)})
                      : tensor(ArrayRef<int64_t>(c.indices), TensorOptions(kLong));
            if (c.fixed_rows > 0) idx = idx.reshape({c.fixed_rows, -1});
            idx = idx.to(index_dtype);
          }
          s.inputs = {ctx.input(s.name, 0, {c.rows, c.dim}), idx};
          const bool has_offsets = c.fixed_rows == 0;
          if (has_offsets) {
            KernelSetGuard g("reference");
            s.inputs.push_back(tensor(ArrayRef<int64_t>(c.offsets), TensorOptions(kLong)));
          }
          if (c.psw) s.inputs.push_back(ctx.input(s.name, 3, {idx.numel()}));
          s.args.ints = {c.mode, c.include_last_offset, c.padding_idx, has_offsets,
                         c.psw,  c.scale_grad_by_freq};
          s.summands = idx.numel();
          // scale_grad_by_freq's gradient is not the derivative: no gradcheck (the kernel sets'
          // gradients are still compared with the reference's).
          s.smooth = !c.scale_grad_by_freq;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        const bool has_offsets = a.ints[3] != 0, has_psw = a.ints[4] != 0;
        const Tensor offsets = has_offsets ? in[2] : Tensor();
        const Tensor psw = has_psw ? in[has_offsets ? 3 : 2] : Tensor();
        const std::optional<int64_t> pad =
            a.ints[2] == kNoPadding ? std::nullopt : std::optional<int64_t>(a.ints[2]);
        return In{ts::embedding_bag(in[0], in[1], offsets, a.ints[5] != 0, a.ints[0], false, psw,
                                    a.ints[1] != 0, pad)};
      });
  if (index_dtype != kLong) e.op = "embedding_bag";
  e.accumulates = true;
  e.grad_elementwise = true;
  return e;
}

void add_bench(std::vector<OpEntry>& v) {
  entry_named(v, "embedding_bag").bench =
      each_dtype(DTypeSet::floating(), [](CaseList& list, ScalarType t) {
        const int64_t rows = list.quick() ? 10000 : 100000, dim = 64, per_bag = 20;
        const int64_t bags = list.quick() ? 256 : 2048, n = bags * per_bag;
        BenchCase c = make_case(
            "embedding_bag", "embedding_bag", t,
            shape_str({rows, dim}) + "_bags" + std::to_string(bags) + "x" + std::to_string(per_bag),
            "dlrm_sum", nbytes(n * dim + bags * dim, t) + 8.0 * n, static_cast<double>(n * dim),
            {OpId::embedding_bag});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor w = make_input({rows, dim}, t, d), idx = make_index({n}, rows, d);
          Tensor offs = arange(0, n, per_bag, TensorOptions(kLong).device(d));
          return [=] { (void)embedding_bag(w, idx, offs); };
        };
        list.add(std::move(c));
      });
}

}  // namespace

std::vector<OpEntry> embedding_bag_entries() {
  std::vector<OpEntry> v;
  v.push_back(entry(kLong));
  v.push_back(entry(kInt));
  add_bench(v);
  return v;
}

}  // namespace ts::catalog
