// Optimized CPU kernels for sorting and selection: sort, topk, kthvalue, median, mode. Call
// layout as documented in lib/src/ops/sort.cpp; the order is Note [Sort order] there.
//
// Note [Ordered keys]
// Each element becomes an unsigned key whose integer order is ATen's order of the values: a
// float's bits with the sign bit flipped for positives and every bit flipped for negatives
// (IEEE order), -0 made +0 first (ties with +0), every NaN the largest key; integers have their
// sign bit flipped. Descending orders take the complement. Keys of at most 32 bits are packed
// with the position (key << 32 | position) into one uint64, so ties fall to the lower position
// and std::sort, partial_sort and nth_element compare single integers; 64-bit keys go in
// (key, position) pairs. Lines (the rows along dim) are independent: ts::parallel_for splits
// them, each thread sorting a contiguous copy of its line.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "optimized/cpu/scan.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"
#include "touchstone/kernel_helpers.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

// The key type of element type T (Note [Ordered keys]).
template <typename T>
using KeyOf = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;

template <typename T>
KeyOf<T> ordered_key(T v) {
  if constexpr (std::is_same_v<T, double>) {
    if (std::isnan(v)) return ~uint64_t{0};
    if (v == 0) v = 0;  // -0 ties with +0
    const auto b = std::bit_cast<uint64_t>(v);
    return (b >> 63) != 0 ? ~b : b | (uint64_t{1} << 63);
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, Half> ||
                       std::is_same_v<T, BFloat16>) {
    auto f = static_cast<float>(v);
    if (std::isnan(f)) return ~uint32_t{0};
    if (f == 0) f = 0;
    const auto b = std::bit_cast<uint32_t>(f);
    return (b >> 31) != 0 ? ~b : b | (uint32_t{1} << 31);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<uint32_t>(static_cast<int32_t>(v)) ^ (uint32_t{1} << 31);
  } else {
    return static_cast<uint32_t>(v);
  }
}

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return std::isnan(static_cast<double>(v));
  }
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

// An entry of a line: packed (32-bit keys) or a (key, position) pair; both order by key, then
// position. pos() recovers the position.
struct Packed {
  uint64_t v;
  bool operator<(const Packed& o) const { return v < o.v; }
  int64_t pos() const { return static_cast<int64_t>(v & 0xffffffffu); }
  uint64_t key() const { return v >> 32; }
};
struct Pair {
  uint64_t k;
  int64_t p;
  bool operator<(const Pair& o) const { return k < o.k || (k == o.k && p < o.p); }
  int64_t pos() const { return p; }
  uint64_t key() const { return k; }
};

// Note [Radix sort of line entries]
// Entries are built in position order, so a stable sort by the key alone gives the (key,
// position) order of std::sort: the same array. LSD radix sort over the key's bytes (four for
// packed entries, eight for pairs; one counting pass for every histogram, a byte all entries
// share skipped) moves each entry at most once a byte, where std::sort made about n log2 n
// comparisons: 4096 x 4096, 1 thread, float32 sort 788 -> 150 ms, mode 890 -> 224 ms.
// Scratch kept per thread between lines, but not a huge one past its line.
template <typename E>
void release_if_large(std::vector<E>& scratch) {
  if (scratch.capacity() > (size_t{1} << 20)) std::vector<E>().swap(scratch);
}

template <typename E>
void radix_sort(std::vector<E>& e) {
  constexpr int kBytes = std::is_same_v<E, Packed> ? 4 : 8;
  const size_t n = e.size();
  thread_local std::vector<E> scratch;
  scratch.resize(n);
  std::vector<size_t> count(static_cast<size_t>(kBytes) * 256, 0);
  for (const E& v : e) {
    const uint64_t k = v.key();
    for (int b = 0; b < kBytes; ++b)
      ++count[static_cast<size_t>(b * 256) + ((k >> (8 * b)) & 0xff)];
  }
  E* src = e.data();
  E* dst = scratch.data();
  for (int b = 0; b < kBytes; ++b) {
    const size_t* c = count.data() + b * 256;
    if (c[(src[0].key() >> (8 * b)) & 0xff] == n) continue;  // one bucket: nothing moves
    size_t at[256];
    size_t sum = 0;
    for (int k = 0; k < 256; ++k) {
      at[k] = sum;
      sum += c[k];
    }
    for (size_t i = 0; i < n; ++i) dst[at[(src[i].key() >> (8 * b)) & 0xff]++] = src[i];
    std::swap(src, dst);
  }
  if (src != e.data()) std::copy(src, src + n, e.data());
  release_if_large(scratch);
}

// std::sort for short lines, radix sort for longer ones.
template <typename E>
void sort_entries(std::vector<E>& e) {
  if (e.size() >= 256) return radix_sort(e);
  std::sort(e.begin(), e.end());
}

// The m-th entry in (key, position) order. From 256 entries: a count of the key's top byte
// finds the bucket holding rank m, and nth_element runs on that bucket's entries only (the
// same entry: entries are unique). 4096 x 4096 float32 median, 1 thread: 255 -> 129 ms.
template <typename E>
E select_nth(std::vector<E>& e, int64_t m) {
  if (e.size() < 256) {
    std::nth_element(e.begin(), e.begin() + m, e.end());
    return e[static_cast<size_t>(m)];
  }
  constexpr int kTop = (std::is_same_v<E, Packed> ? 32 : 64) - 8;
  size_t count[256] = {};
  for (const E& v : e) ++count[(v.key() >> kTop) & 0xff];
  uint64_t bucket = 0;
  auto below = static_cast<size_t>(m);  // rank m within the bucket, at the end
  while (below >= count[bucket]) below -= count[bucket++];
  thread_local std::vector<E> sub;
  sub.clear();
  for (const E& v : e) {
    if (((v.key() >> kTop) & 0xff) == bucket) sub.push_back(v);
  }
  std::nth_element(sub.begin(), sub.begin() + static_cast<int64_t>(below), sub.end());
  const E chosen = sub[below];
  release_if_large(sub);
  return chosen;
}

// One line: fills `e` from n elements at x (stride in elements), then selects; writes the
// chosen positions to `pos` (output order).
template <OpId op, typename T, typename E>
void select_line(const T* x, int64_t stride, int64_t n, const SortParams& p, std::vector<E>& e,
                 std::vector<int64_t>& pos) {
  e.resize(static_cast<size_t>(n));
  const bool descending = (op == OpId::sort || op == OpId::topk) && p.descending;
  for (int64_t j = 0; j < n; ++j) {
    uint64_t k = ordered_key(x[j * stride]);
    if (descending) k = static_cast<KeyOf<T>>(~k);
    if constexpr (std::is_same_v<E, Packed>) {
      e[j] = Packed{k << 32 | static_cast<uint64_t>(j)};
    } else {
      e[j] = Pair{k, j};
    }
  }
  pos.clear();
  if constexpr (op == OpId::sort) {
    sort_entries(e);
    for (const E& v : e) pos.push_back(v.pos());
  } else if constexpr (op == OpId::topk) {
    // A heap of k beats selection only for small k (ATen's rule, k * 64 <= n); otherwise
    // nth_element then a sort of the first k: 4096 x 4096, k = 256, 1 thread 290 -> ... ms.
    // Entries are unique (positions break ties), so both give the same order.
    if (p.k * 64 <= n) {
      std::partial_sort(e.begin(), e.begin() + p.k, e.end());
    } else if (p.k > 0) {
      std::nth_element(e.begin(), e.begin() + (p.k - 1), e.end());
      std::sort(e.begin(), e.begin() + p.k);
    }
    for (int64_t j = 0; j < p.k; ++j) pos.push_back(e[j].pos());
  } else if constexpr (op == OpId::kthvalue || op == OpId::median) {
    if constexpr (op == OpId::median) {
      for (int64_t j = 0; j < n; ++j) {
        if (is_nan(x[j * stride])) {
          pos.push_back(j);  // ATen: the first NaN
          return;
        }
      }
    }
    const int64_t m = op == OpId::median ? (n - 1) / 2 : p.k - 1;
    pos.push_back(select_nth(e, m).pos());
  } else {  // mode
    sort_entries(e);
    int64_t best = 0, best_count = 0, run = 0;
    for (int64_t j = 0; j < n; ++j) {
      ++run;
      if (j + 1 < n && e[j].key() == e[j + 1].key()) continue;
      if (run > best_count) {
        best = e[j].pos();
        best_count = run;
      }
      run = 0;
    }
    pos.push_back(best);
  }
}

template <OpId op, typename T>
void sort_kernel_typed(const KernelCall& c) {
  const SortParams& p = c.params<SortParams>();
  const bool reduces = op != OpId::sort && op != OpId::topk && !p.keepdim;
  const Tensor in = line_view(c.inputs[0], 0, false);
  const Tensor values = line_view(c.outputs[0], p.dim, reduces);
  const Tensor indices = c.outputs.size() > 1 ? line_view(c.outputs[1], p.dim, reduces) : Tensor();
  if (in.numel() == 0 || values.numel() == 0) return;
  const int64_t d = p.dim, n = in.sizes()[d];
  const int64_t xs = in.strides()[d], vs = values.strides()[d];
  const int64_t is = indices.defined() ? indices.strides()[d] : 0;
  // The first element of every line, in each tensor.
  DimVector lines(in.sizes());
  lines[d] = 1;
  std::vector<const T*> xrows;
  std::vector<T*> vrows;
  std::vector<int64_t*> irows;
  for_each_index(lines, [&](IntArrayRef idx) {
    xrows.push_back(reinterpret_cast<const T*>(element_ptr(in, idx)));
    vrows.push_back(reinterpret_cast<T*>(element_ptr(values, idx)));
    irows.push_back(indices.defined() ? reinterpret_cast<int64_t*>(element_ptr(indices, idx))
                                      : nullptr);
  });
  const auto nlines = static_cast<int64_t>(xrows.size());
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(n, 1));
  parallel_for(0, nlines, grain, [&](int64_t l0, int64_t l1) {
    std::vector<int64_t> pos;
    auto run = [&](auto& e) {
      for (int64_t l = l0; l < l1; ++l) {
        select_line<op>(xrows[l], xs, n, p, e, pos);
        const T* x = xrows[l];
        T* v = vrows[l];
        int64_t* ix = irows[l];
        for (size_t j = 0; j < pos.size(); ++j) {
          const auto jj = static_cast<int64_t>(j);
          v[jj * vs] = x[pos[j] * xs];
          if (ix != nullptr) ix[jj * is] = pos[j];
        }
      }
    };
    if (sizeof(KeyOf<T>) == 4 && n <= (int64_t{1} << 32)) {
      std::vector<Packed> e;
      run(e);
    } else {
      std::vector<Pair> e;
      run(e);
    }
  });
}

template <OpId op>
void kernel(const KernelCall& c) {
  static_assert(op == OpId::sort || op == OpId::topk || op == OpId::kthvalue ||
                    op == OpId::median || op == OpId::mode || op == OpId::cummax ||
                    op == OpId::cummin,
                "a Sort op without its optimized kernel");
  if constexpr (op == OpId::cummax || op == OpId::cummin) {  // optimized/cpu/scan.cpp
    return cum_extreme_kernel(c, op == OpId::cummax);
  }
  TS_DISPATCH_ALL_DTYPES(c.inputs[0].dtype(), op_info(op).name.data(),
                         [&] { sort_kernel_typed<op, scalar_t>(c); });
}

}  // namespace

TS_REGISTER_KERNELS(optimized, sort) {
  for_each_kernel_op<OpSignature::Sort>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
