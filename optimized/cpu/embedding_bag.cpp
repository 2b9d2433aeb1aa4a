// Optimized CPU embedding_bag (issue 16): bags in parallel, each bag's rows added into a float32
// (float64 for float64) accumulator row, contiguous; float16/bfloat16 rounded once at the end.
// Params: the top of lib/src/ops/embedding_bag.cpp; semantics: reference/embedding_bag.cpp.
// Note [Rows in lanes]
// A row is short (64 floats in DLRM) and its length unknown to the compiler: GCC 12 at -O2 left
// `a[d] += r[d]` scalar, and this file's baseline target has 16-byte vectors anyway, so a bag of
// 20 rows took 0.7 ns an element (5x ATen). The row loops are Highway lanes for every target;
// a weighted row multiplies then adds (-ffp-contract=off in CMakeLists.txt), as the scalar
// tail and the reference round. max mode keeps its scalar loop (values with indices).
// Register accumulators and prefetching the row 8 indices ahead (as FBGEMM's kernels, which
// ATen's CPU embedding_bag calls): 10000 x 64 table, 256 bags of 20, 1 thread, 233 us -> 61
// with lanes alone -> 28 with both (ATen 34). Now 32 rows ahead: on the DLRM case (100000 x 64,
// 2048 bags of 20) 16 left 0.77x ATen at 1 thread, 32 and 64 gave 0.85-0.89 (prefetching into
// L2 only, 0.67-0.77).
// Note [Unrolled prefetches]
// The prefetch loop's trip count was Lanes(d), a runtime value to GCC: a loop of four prefetches
// and a branch per row. Counted from MaxLanes it unrolls to four prefetcht0: DLRM case at 1
// thread on Zen 5, 206-274 -> 186-191 us (ATen 230-247 in the same runs).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/embedding_bag.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <algorithm>
#include <vector>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {
namespace hn = hwy::HWY_NAMESPACE;

// a[c] = the sum over the bag's rows j0..j1 (padding_idx skipped) of w[idx[j]][c], or of
// psw[j] * w[idx[j]][c] (multiply, then add), for c < dim, added in row order from +0 as the
// reference does. Four vectors of columns stay in registers across the rows, and the row
// kAhead indices on is prefetched: the rows are gathers from a table beyond L1.
// The prefetches run on past the bag's end into the next bags' rows, up to `ahead_end` (a bag
// of 20 rows left its first 8 unprefetched: 1 thread, DLRM table 0.62x ATen).
template <typename C>
HWY_INLINE void sum_bag(C* HWY_RESTRICT a, const C* HWY_RESTRICT w, const int64_t* idx, int64_t j0,
                        int64_t j1, int64_t dim, const C* psw, int64_t padding_idx,
                        int64_t ahead_end) {
  constexpr int64_t kAhead = 32;
  const hn::ScalableTag<C> d;
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  constexpr int64_t kLine = 64 / static_cast<int64_t>(sizeof(C));  // elements per cache line
  constexpr auto kPrefetches =  // the lines of 4 vectors, a compile-time count
      std::max<int64_t>(1, 4 * static_cast<int64_t>(hn::MaxLanes(hn::ScalableTag<C>())) / kLine);
  int64_t c = 0;
  for (; c + 4 * L <= dim; c += 4 * L) {
    auto a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t j = j0; j < j1; ++j) {
      if (j + kAhead < ahead_end) {  // Note [Unrolled prefetches]
        const C* ahead = w + idx[j + kAhead] * dim + c;
        for (int64_t k = 0; k < kPrefetches; ++k) hwy::Prefetch(ahead + k * kLine);
      }
      const int64_t row = idx[j];
      if (row == padding_idx) continue;
      const C* r = w + row * dim + c;
      auto x0 = hn::LoadU(d, r), x1 = hn::LoadU(d, r + L);
      auto x2 = hn::LoadU(d, r + 2 * L), x3 = hn::LoadU(d, r + 3 * L);
      if (psw != nullptr) {
        const auto sv = hn::Set(d, psw[j]);
        x0 = hn::Mul(sv, x0);
        x1 = hn::Mul(sv, x1);
        x2 = hn::Mul(sv, x2);
        x3 = hn::Mul(sv, x3);
      }
      a0 = hn::Add(a0, x0);
      a1 = hn::Add(a1, x1);
      a2 = hn::Add(a2, x2);
      a3 = hn::Add(a3, x3);
    }
    hn::StoreU(a0, d, a + c);
    hn::StoreU(a1, d, a + c + L);
    hn::StoreU(a2, d, a + c + 2 * L);
    hn::StoreU(a3, d, a + c + 3 * L);
  }
  if (c == dim) return;
  std::fill(a + c, a + dim, C(0));
  for (int64_t j = j0; j < j1; ++j) {
    const int64_t row = idx[j];
    if (row == padding_idx) continue;
    const C* r = w + row * dim;
    const C s = psw != nullptr ? psw[j] : C(1);
    for (int64_t k = c; k < dim; ++k) a[k] += psw != nullptr ? s * r[k] : r[k];
  }
}

// o[d] = a[d] / count, d < n.
template <typename C>
HWY_INLINE void divide_row(C* HWY_RESTRICT o, const C* HWY_RESTRICT a, int64_t n, C count) {
  const hn::ScalableTag<C> d;
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  const auto cv = hn::Set(d, count);
  int64_t i = 0;
  for (; i + L <= n; i += L) hn::StoreU(hn::Div(hn::LoadU(d, a + i), cv), d, o + i);
  for (; i < n; ++i) o[i] = a[i] / count;
}

template <typename C>
void bags_typed(const C* w, const int64_t* idx, const int64_t* offs, const C* psw, C* out,
                int64_t* arg, int64_t bags, int64_t dim, const EmbeddingBagParams& p) {
  // About 16K elements of work a task: a bag is its rows times dim.
  const int64_t per_bag = std::max<int64_t>(1, offs[bags] / std::max<int64_t>(bags, 1)) * dim;
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(per_bag, 1));
  parallel_for(0, bags, grain, [&](int64_t b0, int64_t b1) {
    std::vector<C> acc(static_cast<size_t>(dim));
    for (int64_t b = b0; b < b1; ++b) {
      C* a = acc.data();
      C* o = out + b * dim;
      if (p.mode == 0) {  // the sum straight into the bag's output row
        sum_bag(o, w, idx, offs[b], offs[b + 1], dim, psw, p.padding_idx, offs[bags]);
        continue;
      }
      if (p.mode == 1) {  // the mean over the rows that are not padding_idx (none: 0)
        int64_t count = 0;
        for (int64_t j = offs[b]; j < offs[b + 1]; ++j) count += idx[j] != p.padding_idx ? 1 : 0;
        sum_bag(a, w, idx, offs[b], offs[b + 1], dim, psw, p.padding_idx, offs[bags]);
        if (count > 0) {
          divide_row(o, a, dim, static_cast<C>(count));
        } else {
          std::copy(a, a + dim, o);
        }
        continue;
      }
      std::fill(acc.begin(), acc.end(), C(0));
      int64_t* ai = arg + b * dim;
      std::fill(ai, ai + dim, int64_t{-1});
      int64_t seen = 0;
      for (int64_t j = offs[b]; j < offs[b + 1]; ++j) {
        const int64_t row = idx[j];
        if (row == p.padding_idx) continue;
        const C* r = w + row * dim;
        for (int64_t d = 0; d < dim; ++d) {
          if (seen == 0 || r[d] > a[d]) {
            a[d] = r[d];
            ai[d] = row;
          }
        }
        ++seen;
      }
      std::copy(a, a + dim, o);
    }
  });
}

}  // namespace

void bags_f32(const float* w, const int64_t* idx, const int64_t* offs, const float* psw, float* out,
              int64_t* arg, int64_t bags, int64_t dim, const EmbeddingBagParams& p) {
  bags_typed(w, idx, offs, psw, out, arg, bags, dim, p);
}
void bags_f64(const double* w, const int64_t* idx, const int64_t* offs, const double* psw,
              double* out, int64_t* arg, int64_t bags, int64_t dim, const EmbeddingBagParams& p) {
  bags_typed(w, idx, offs, psw, out, arg, bags, dim, p);
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::cpu {
namespace {

HWY_EXPORT(bags_f32);
HWY_EXPORT(bags_f64);

void embedding_bag_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  const EmbeddingBagParams& p = c.params<EmbeddingBagParams>();
  const ScalarType math = c.p.compute_dtype == kDouble ? kDouble : kFloat;
  const auto prepare = [&](const Tensor& t) {
    if (!t.defined()) return t;
    return (t.dtype() == math ? t : t.to(math)).contiguous();
  };
  const Tensor w = prepare(c.inputs[0]), psw = prepare(c.inputs[3]);
  const Tensor idx = c.inputs[1].to(kLong).contiguous();
  const Tensor offs = c.inputs[2].to(kLong).contiguous();
  const bool direct = out.dtype() == math && out.is_contiguous();
  const Tensor y = direct ? out : empty(out.sizes(), TensorOptions(math));
  const Tensor& mi = c.outputs[1];
  const bool mi_direct = p.mode != 2 || mi.is_contiguous();
  const Tensor arg = mi_direct ? mi : empty(mi.sizes(), TensorOptions(kLong));
  int64_t* ap = p.mode == 2 ? arg.data_ptr<int64_t>() : nullptr;
  const int64_t bags = out.size(0), dim = out.size(1);
  if (math == kDouble) {
    HWY_DYNAMIC_DISPATCH(bags_f64)
    (w.data_ptr<double>(), idx.data_ptr<int64_t>(), offs.data_ptr<int64_t>(),
     psw.defined() ? psw.data_ptr<double>() : nullptr, y.data_ptr<double>(), ap, bags, dim, p);
  } else {
    HWY_DYNAMIC_DISPATCH(bags_f32)
    (w.data_ptr<float>(), idx.data_ptr<int64_t>(), offs.data_ptr<int64_t>(),
     psw.defined() ? psw.data_ptr<float>() : nullptr, y.data_ptr<float>(), ap, bags, dim, p);
  }
  if (!direct) out.copy_(y);
  if (!mi_direct) mi.copy_(arg);
}

template <OpId op>
void kernel(const KernelCall& c) {
  if constexpr (op == OpId::embedding_bag) {
    embedding_bag_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "an embedding_bag op without its optimized kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, embedding_bag) {
  for_each_kernel_op<OpSignature::EmbeddingBag>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
