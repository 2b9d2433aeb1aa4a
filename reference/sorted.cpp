// Reference kernels for searches in sorted sequences and unique (issue 16): searchsorted,
// bucketize, _unique2, unique_dim, unique_consecutive. See Note [Reference kernels] in common.h;
// call layouts, Note [Search order], Note [Unique order] and Note [Unique outputs] in
// lib/src/ops/sorted.cpp. Elements are compared exactly: double for floating dtypes, int64 for
// the others.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

// An element's value: f for floating dtypes, i for the others.
struct Value {
  double f = 0;
  int64_t i = 0;
};

Value load_value(const char* p, ScalarType t) {
  Value v;
  if (is_floating_type(t)) {
    v.f = load_double(p, t);
  } else {
    v.i = load_int64(p, t);
  }
  return v;
}

// IEEE comparisons (any comparison with NaN is false).
bool less(const Value& a, const Value& b, bool floating) {
  return floating ? a.f < b.f : a.i < b.i;
}
bool equal(const Value& a, const Value& b, bool floating) {
  return floating ? a.f == b.f : a.i == b.i;
}

// ---- searchsorted, bucketize ----

// Note [Search order]: the binary search of ATen's cus_lower_bound / cus_upper_bound over
// row(0) .. row(n - 1).
template <class Row>
int64_t search(int64_t n, const Value& v, bool right, bool floating, const Row& row) {
  int64_t start = 0, end = n;
  while (start < end) {
    const int64_t mid = start + ((end - start) >> 1);
    const Value m = row(mid);
    // left: go right while !(m >= v); right: while !(m > v)
    const bool go_right =
        right ? !less(v, m, floating) : !(less(v, m, floating) || equal(v, m, floating));
    if (go_right) {
      start = mid + 1;
    } else {
      end = mid;
    }
  }
  return start;
}

void search_kernel(const KernelCall& c) {
  const bool bucketize = c.op == OpId::bucketize;
  const Tensor& seq = c.inputs[bucketize ? 1 : 0];
  const Tensor& values = c.inputs[bucketize ? 0 : 1];
  const Tensor sorter = c.inputs.size() > 2 ? c.inputs[2] : Tensor();
  const Tensor& out = c.outputs[0];
  const bool right = c.params<SearchParams>().right;
  const bool floating = is_floating_type(seq.dtype());
  const int64_t n = seq.sizes().back();
  for_each_index(values.sizes(), [&](IntArrayRef idx) {
    // The row of seq: the whole of a 1-D seq, else the one of idx's leading coordinates.
    DimVector pos(static_cast<size_t>(seq.dim()), 0);
    if (seq.dim() > 1) {
      for (int64_t d = 0; d + 1 < seq.dim(); ++d) pos[d] = idx[d];
    }
    const Value v = load_value(element_ptr(values, idx), values.dtype());
    // Element j of the row, read through sorter when given.
    const int64_t r = search(n, v, right, floating, [&](int64_t j) {
      DimVector p = pos;
      p.back() = j;
      if (sorter.defined()) p.back() = load_int64(element_ptr(sorter, p), kLong);
      return load_value(element_ptr(seq, p), seq.dtype());
    });
    store_int64(element_ptr(out, idx), out.dtype(), r);
  });
}

// ---- unique ----

// The items of self: its elements in row-major order (flattened forms), or its slices along dim,
// each as its elements in row-major order.
std::vector<std::vector<Value>> items_of(const Tensor& self, int64_t dim) {
  std::vector<std::vector<Value>> items;
  if (dim < 0) {
    for_each_index(self.sizes(), [&](IntArrayRef idx) {
      items.push_back({load_value(element_ptr(self, idx), self.dtype())});
    });
    return items;
  }
  items.resize(static_cast<size_t>(self.sizes()[dim]));
  for_each_index(self.sizes(), [&](IntArrayRef idx) {
    items[static_cast<size_t>(idx[dim])].push_back(
        load_value(element_ptr(self, idx), self.dtype()));
  });
  return items;
}

// Note [Unique order]: element-wise NaN last, lexicographic over a slice's elements.
bool item_less(const std::vector<Value>& a, const std::vector<Value>& b, bool floating) {
  for (size_t k = 0; k < a.size(); ++k) {
    const bool a_nan = floating && std::isnan(a[k].f), b_nan = floating && std::isnan(b[k].f);
    if (a_nan || b_nan) {
      if (a_nan && b_nan) continue;
      return b_nan;
    }
    if (less(a[k], b[k], floating)) return true;
    if (less(b[k], a[k], floating)) return false;
  }
  return false;
}
bool item_equal(const std::vector<Value>& a, const std::vector<Value>& b, bool floating) {
  for (size_t k = 0; k < a.size(); ++k) {
    if (!equal(a[k], b[k], floating)) return false;
  }
  return true;
}

void unique_kernel(const KernelCall& c) {
  const Tensor& self = c.inputs[0];
  const Tensor &values = c.outputs[0], &inverse = c.outputs[1], &counts = c.outputs[2];
  const UniqueParams& p = c.params<UniqueParams>();
  const bool floating = is_floating_type(self.dtype());
  const std::vector<std::vector<Value>> items = items_of(self, p.dim);
  std::vector<int64_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  if (c.op != OpId::unique_consecutive) {
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return item_less(items[a], items[b], floating); });
  }
  // Group the ordered items: a new group where an item differs from the one before it.
  std::vector<int64_t> first;  // each group's first item
  std::vector<int64_t> group_of(items.size());
  std::vector<int64_t> count;
  for (size_t j = 0; j < order.size(); ++j) {
    if (j == 0 || !item_equal(items[order[j - 1]], items[order[j]], floating)) {
      first.push_back(order[j]);
      count.push_back(0);
    }
    group_of[order[j]] = static_cast<int64_t>(first.size()) - 1;
    ++count.back();
  }
  const auto k = static_cast<int64_t>(first.size());
  // values: the groups' first items, contiguous in the result's shape.
  const auto esize = static_cast<size_t>(self.element_size());
  char* const v = static_cast<char*>(values.data_ptr());
  if (p.dim < 0) {
    std::vector<DimVector> positions;
    for_each_index(self.sizes(), [&](IntArrayRef idx) { positions.emplace_back(idx); });
    for (int64_t g = 0; g < k; ++g) {
      std::memcpy(v + g * esize, element_ptr(self, positions[first[g]]), esize);
    }
  } else {
    DimVector shape(self.sizes());
    shape[p.dim] = k;
    size_t o = 0;
    for_each_index(shape, [&](IntArrayRef idx) {
      DimVector from(idx);
      from[p.dim] = first[idx[p.dim]];
      std::memcpy(v + (o++) * esize, element_ptr(self, from), esize);
    });
  }
  if (p.return_inverse) {
    size_t j = 0;
    for_each_index(inverse.sizes(), [&](IntArrayRef idx) {
      store_int64(element_ptr(inverse, idx), kLong, group_of[j++]);
    });
  }
  if (p.return_counts) {
    for (int64_t g = 0; g < k; ++g) {
      const int64_t at[] = {g};
      store_int64(element_ptr(counts, at), kLong, count[g]);
    }
  }
  store_int64(c.outputs[3].data_ptr(), kLong, k);
}

template <OpId op>
void kernel(const KernelCall& c) {
  if constexpr (op == OpId::searchsorted || op == OpId::bucketize) {
    search_kernel(c);
  } else if constexpr (op == OpId::_unique2 || op == OpId::unique_dim ||
                       op == OpId::unique_consecutive) {
    unique_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a Sorted op without its reference kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, sorted) {
  for_each_kernel_op<OpSignature::Sorted>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
