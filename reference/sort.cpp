// Reference kernels for sorting and selection: sort, topk, kthvalue, median, mode. See Note
// [Reference kernels] in common.h and the call layout in lib/src/ops/sort.cpp.
// Each line of self along dim is read into (value, position) entries, values compared exactly
// (double for floating dtypes, int64 for the others), ordered by Note [Sort order] (NaN largest,
// ties by position, i.e. a stable sort); the selected entries' positions are the indices and
// their elements, copied unchanged, the values.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "common.h"
#include "scan.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

struct Entry {
  double f = 0;   // the value of a floating element
  int64_t i = 0;  // the value of any other element
  int64_t pos = 0;
};

// Whether a orders before b ascending, on values alone: NaN after every number.
bool value_less(const Entry& a, const Entry& b, bool floating) {
  if (!floating) return a.i < b.i;
  if (std::isnan(a.f)) return false;
  return std::isnan(b.f) || a.f < b.f;
}
bool value_equal(const Entry& a, const Entry& b, bool floating) {
  return !value_less(a, b, floating) && !value_less(b, a, floating);
}

// The entries of a line in the order of Note [Sort order].
std::vector<Entry> sorted_line(std::vector<Entry> e, bool descending, bool floating) {
  std::stable_sort(e.begin(), e.end(), [&](const Entry& a, const Entry& b) {
    return descending ? value_less(b, a, floating) : value_less(a, b, floating);
  });
  return e;
}

// t seen with at least one dim, and with size 1 (stride 0) inserted at `dim` when `insert`.
Tensor line_view(const Tensor& t, int64_t dim, bool insert) {
  DimVector sizes(t.sizes()), strides(t.strides());
  if (insert || t.dim() == 0) {
    sizes.insert(static_cast<size_t>(dim), 1);
    strides.insert(static_cast<size_t>(dim), 0);
  }
  return make_view(t, sizes, strides, t.storage_offset());
}

// The positions (along dim) that op `op` selects from line `e`, in output order.
std::vector<int64_t> select(OpId op, const std::vector<Entry>& e, const SortParams& p,
                            bool floating) {
  const auto n = static_cast<int64_t>(e.size());
  std::vector<int64_t> pos;
  if (op == OpId::sort || op == OpId::topk) {
    const std::vector<Entry> s = sorted_line(e, p.descending, floating);
    const int64_t count = op == OpId::sort ? n : p.k;
    for (int64_t j = 0; j < count; ++j) pos.push_back(s[j].pos);
  } else if (op == OpId::kthvalue) {
    pos.push_back(sorted_line(e, false, floating)[p.k - 1].pos);
  } else if (op == OpId::median) {
    // ATen: a line holding NaN has median NaN, at its first NaN; else the lower middle value.
    for (const Entry& x : e) {
      if (floating && std::isnan(x.f)) return {x.pos};
    }
    pos.push_back(sorted_line(e, false, floating)[(n - 1) / 2].pos);
  } else {  // mode: the smallest of the most frequent values, at its last position
    const std::vector<Entry> s = sorted_line(e, false, floating);
    int64_t best = 0, best_count = 0;
    for (int64_t j = 0, run = 1; j < n; ++j, ++run) {
      if (j + 1 < n && value_equal(s[j], s[j + 1], floating)) continue;
      if (run > best_count) {
        best = s[j].pos;
        best_count = run;
      }
      run = 0;
    }
    pos.push_back(best);
  }
  return pos;
}

template <OpId op>
void kernel(const KernelCall& c) {
  static_assert(op == OpId::sort || op == OpId::topk || op == OpId::kthvalue ||
                    op == OpId::median || op == OpId::mode || op == OpId::cummax ||
                    op == OpId::cummin,
                "a Sort op without its reference kernel");
  if constexpr (op == OpId::cummax || op == OpId::cummin) {  // reference/scan.cpp
    return cum_extreme_kernel(c, op == OpId::cummax);
  }
  const SortParams& p = c.params<SortParams>();
  const ScalarType t = c.inputs[0].dtype();
  const bool floating = is_floating_type(t);
  const bool reduces = op != OpId::sort && op != OpId::topk && !p.keepdim;
  const Tensor in = line_view(c.inputs[0], 0, false);
  const Tensor values = line_view(c.outputs[0], p.dim, reduces);
  const Tensor indices = c.outputs.size() > 1 ? line_view(c.outputs[1], p.dim, reduces) : Tensor();
  if (in.numel() == 0 || values.numel() == 0) return;
  const int64_t d = p.dim, n = in.sizes()[d];
  const auto esize = static_cast<int64_t>(in.element_size());
  DimVector lines(in.sizes());
  lines[d] = 1;
  for_each_index(lines, [&](IntArrayRef idx) {
    std::vector<Entry> e(static_cast<size_t>(n));
    const char* row = element_ptr(in, idx);
    for (int64_t j = 0; j < n; ++j) {
      const char* x = row + j * in.strides()[d] * esize;
      e[j].pos = j;
      if (floating) {
        e[j].f = load_double(x, t);
      } else {
        e[j].i = load_int64(x, t);
      }
    }
    const std::vector<int64_t> pos = select(op, e, p, floating);
    char* vrow = element_ptr(values, idx);
    char* irow = indices.defined() ? element_ptr(indices, idx) : nullptr;
    for (size_t j = 0; j < pos.size(); ++j) {
      const auto jj = static_cast<int64_t>(j);
      std::memcpy(vrow + jj * values.strides()[d] * esize, row + pos[j] * in.strides()[d] * esize,
                  static_cast<size_t>(esize));
      if (irow != nullptr) store_int64(irow + jj * indices.strides()[d] * 8, kLong, pos[j]);
    }
  });
}

}  // namespace

TS_REGISTER_KERNELS(reference, sort) {
  for_each_kernel_op<OpSignature::Sort>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
