// Optimized CPU kernels for searches in sorted sequences and unique (issue 16): searchsorted,
// bucketize, _unique2, unique_dim, unique_consecutive. Call layouts and the notes they follow
// (Note [Search order], Note [Unique order], Note [Unique outputs]) in lib/src/ops/sorted.cpp.
// searchsorted and bucketize: one binary search per value, values split among threads. unique:
// the flattened forms sort with the sort op (stable, Note [Sort order]'s order) and group the
// sorted run in one pass; the dim forms sort slice positions lexicographically.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <vector>

#include "optimized/cpu/convert.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"
#include "touchstone/kernel_helpers.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

constexpr int64_t kGrain = int64_t{1} << 12;

// The type elements of T compare in: float for the 16-bit floats, T itself otherwise.
template <typename T>
using CmpOf = std::conditional_t<is_16bit_float_v<T>, float, T>;

template <typename T>
CmpOf<T> cmp_value(T v) {
  return static_cast<CmpOf<T>>(v);
}

// ---- searchsorted, bucketize ----

// Note [Search order]: ATen's cus_lower_bound / cus_upper_bound over row[sort[j]] (sort null:
// row[j]).
template <typename C, typename T>
int64_t search(const T* row, const int64_t* sort, int64_t n, C v, bool right) {
  int64_t start = 0, end = n;
  while (start < end) {
    const int64_t mid = start + ((end - start) >> 1);
    const C m = cmp_value(row[sort != nullptr ? sort[mid] : mid]);
    if (right ? !(m > v) : !(m >= v)) {
      start = mid + 1;
    } else {
      end = mid;
    }
  }
  return start;
}

template <typename T, typename R>
void search_into(const KernelCall& c, const Tensor& seq, const Tensor& values, const Tensor& sorter,
                 R* out) {
  const bool right = c.params<SearchParams>().right;
  const int64_t n = seq.sizes().back();
  const int64_t rows = n == 0 ? 1 : seq.numel() / n;
  const int64_t total = values.numel();
  const int64_t per_row = seq.dim() == 1 ? total : total / std::max<int64_t>(1, rows);
  const T* s = static_cast<const T*>(seq.data_ptr());
  const T* v = static_cast<const T*>(values.data_ptr());
  const int64_t* so = sorter.defined() ? static_cast<const int64_t*>(sorter.data_ptr()) : nullptr;
  parallel_for(0, total, kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t r = seq.dim() == 1 ? 0 : i / per_row;
      out[i] = static_cast<R>(
          search(s + r * n, so != nullptr ? so + r * n : nullptr, n, cmp_value(v[i]), right));
    }
  });
}

void search_kernel(const KernelCall& c) {
  const bool bucketize = c.op == OpId::bucketize;
  const Tensor seq = c.inputs[bucketize ? 1 : 0].contiguous();
  const Tensor values = c.inputs[bucketize ? 0 : 1].contiguous();
  const Tensor sorter = c.inputs.size() > 2 ? c.inputs[2].contiguous() : Tensor();
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  const Tensor dst = out.is_contiguous() ? out : empty(out.sizes(), out.dtype());
  TS_DISPATCH_ALL_DTYPES(c.p.compute_dtype, "searchsorted", [&] {
    if (dst.dtype() == kInt) {
      search_into<scalar_t>(c, seq, values, sorter, static_cast<int32_t*>(dst.data_ptr()));
    } else {
      search_into<scalar_t>(c, seq, values, sorter, static_cast<int64_t*>(dst.data_ptr()));
    }
  });
  if (!dst.is_same(out)) copy_convert(out, dst);
}

// ---- unique ----

// -1, 0, 1 as a orders before, ties with or after b (Note [Unique order]: NaN last).
template <typename C>
int order_of(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    const bool an = std::isnan(a), bn = std::isnan(b);
    if (an || bn) return an && bn ? 0 : (an ? 1 : -1);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

// The groups of `order` (item positions in output order), items equal when same(a, b): each
// group's first item, every item's group, each group's size.
struct Groups {
  std::vector<int64_t> first, group_of, count;
};

template <class Same>
Groups group(const std::vector<int64_t>& order, const Same& same) {
  Groups g;
  g.group_of.resize(order.size());
  for (size_t j = 0; j < order.size(); ++j) {
    if (j == 0 || !same(order[j - 1], order[j])) {
      g.first.push_back(order[j]);
      g.count.push_back(0);
    }
    g.group_of[static_cast<size_t>(order[j])] = static_cast<int64_t>(g.first.size()) - 1;
    ++g.count.back();
  }
  return g;
}

// inverse, counts and num from the groups (inverse over items in row-major order).
void write_groups(const KernelCall& c, const Groups& g) {
  const UniqueParams& p = c.params<UniqueParams>();
  if (p.return_inverse) {
    std::copy(g.group_of.begin(), g.group_of.end(), static_cast<int64_t*>(c.outputs[1].data_ptr()));
  }
  if (p.return_counts) {
    std::copy(g.count.begin(), g.count.end(), static_cast<int64_t*>(c.outputs[2].data_ptr()));
  }
  *static_cast<int64_t*>(c.outputs[3].data_ptr()) = static_cast<int64_t>(g.first.size());
}

// The flattened forms: _unique2 sorts (the sort op, stable), unique_consecutive keeps the order.
template <typename T>
void unique_flat(const KernelCall& c) {
  const Tensor x = c.inputs[0].reshape({-1}).contiguous();
  const int64_t n = x.numel();
  Tensor sorted = x;
  std::vector<int64_t> order;
  if (c.op != OpId::unique_consecutive && n > 0) {
    order.resize(static_cast<size_t>(n));
    const auto [values, indices] = sort(x, std::optional<bool>(true), 0, false);
    sorted = values.contiguous();
    const Tensor ix = indices.contiguous();
    std::copy_n(static_cast<const int64_t*>(ix.data_ptr()), n, order.begin());
  }
  const T* xs = static_cast<const T*>(x.data_ptr());
  const T* ss = static_cast<const T*>(sorted.data_ptr());
  const bool consecutive = c.op == OpId::unique_consecutive;
  // One pass over the ordered values, straight into the outputs: a new group where a value
  // differs from the one before it (NaN from any).
  const UniqueParams& p = c.params<UniqueParams>();
  T* out = static_cast<T*>(c.outputs[0].data_ptr());
  int64_t* inv = p.return_inverse ? static_cast<int64_t*>(c.outputs[1].data_ptr()) : nullptr;
  int64_t* cnt = p.return_counts ? static_cast<int64_t*>(c.outputs[2].data_ptr()) : nullptr;
  const T* v = consecutive ? xs : ss;
  int64_t k = 0;
  for (int64_t j = 0; j < n; ++j) {
    if (j == 0 || !(cmp_value(v[j - 1]) == cmp_value(v[j]))) {
      out[k] = v[j];
      if (cnt != nullptr) cnt[k] = 0;
      ++k;
    }
    if (inv != nullptr) inv[consecutive ? j : order[static_cast<size_t>(j)]] = k - 1;
    if (cnt != nullptr) ++cnt[k - 1];
  }
  *static_cast<int64_t*>(c.outputs[3].data_ptr()) = k;
}

// The dim forms: slices along dim as rows of a contiguous (n, m) copy, their positions sorted
// lexicographically (stable; unique_consecutive keeps them in order).
template <typename T>
void unique_slices(const KernelCall& c) {
  const UniqueParams& p = c.params<UniqueParams>();
  const Tensor& self = c.inputs[0];
  const Tensor x = self.movedim(p.dim, 0).contiguous();
  const int64_t n = x.sizes()[0], m = n == 0 ? 0 : x.numel() / n;
  const T* xs = static_cast<const T*>(x.data_ptr());
  auto compare = [&](int64_t a, int64_t b) {
    for (int64_t k = 0; k < m; ++k) {
      const int o = order_of(cmp_value(xs[a * m + k]), cmp_value(xs[b * m + k]));
      if (o != 0) return o;
    }
    return 0;
  };
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  if (c.op != OpId::unique_consecutive) {
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return compare(a, b) < 0; });
  }
  const Groups g = group(order, [&](int64_t a, int64_t b) {
    for (int64_t k = 0; k < m; ++k) {
      if (!(cmp_value(xs[a * m + k]) == cmp_value(xs[b * m + k]))) return false;
    }
    return true;
  });
  const auto k = static_cast<int64_t>(g.first.size());
  DimVector shape(self.sizes());
  shape[p.dim] = k;
  const Tensor first = tensor(ArrayRef<int64_t>(g.first.data(), g.first.size()), kLong);
  const Tensor picked = x.index_select(0, first).movedim(0, p.dim);
  copy_convert(c.outputs[0].narrow(0, 0, k * m).view(shape), picked);
  write_groups(c, g);
}

void unique_kernel(const KernelCall& c) {
  const bool flat = c.params<UniqueParams>().dim < 0;
  TS_DISPATCH_ALL_DTYPES(c.p.compute_dtype, "unique", [&] {
    if (flat) {
      unique_flat<scalar_t>(c);
    } else {
      unique_slices<scalar_t>(c);
    }
  });
}

template <OpId op>
void kernel(const KernelCall& c) {
  if constexpr (op == OpId::searchsorted || op == OpId::bucketize) {
    search_kernel(c);
  } else if constexpr (op == OpId::_unique2 || op == OpId::unique_dim ||
                       op == OpId::unique_consecutive) {
    unique_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a Sorted op without its optimized kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, sorted) {
  for_each_kernel_op<OpSignature::Sorted>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
