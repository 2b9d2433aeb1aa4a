// Optimized CPU kernels for amax, amin, max, min (all, or with a dim: values and indices),
// argmax, argmin, all and any (registered by reduce.cpp). See Note [Optimized reductions] in
// reduce.cpp and Note [Extremes with indices] in reduce-inl.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/reduce_minmax.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/highway.h"
#include "optimized/cpu/reduce-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {

void floating_arg_reduction_impl(const ReducePlan& p, bool is_max) {
  if (p.dtype == kDouble) {
    if (is_max) return run_reduction(p, ArgReducer<double, true>{p});
    return run_reduction(p, ArgReducer<double, false>{p});
  }
  if (is_max) return run_reduction(p, ArgReducer<float, true>{p});
  run_reduction(p, ArgReducer<float, false>{p});
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "touchstone/dispatch_macros.h"

namespace ts::cpu {

HWY_EXPORT(floating_arg_reduction_impl);

void floating_arg_reduction(const ReducePlan& p, bool is_max) {
  HWY_DYNAMIC_DISPATCH(floating_arg_reduction_impl)(p, is_max);
}

namespace {

// argmax/argmin and max/min with indices on integer and bool dtypes (scalar loops): strictly
// better wins, so walking in index order keeps the first occurrence; a later chunk wins only
// when strictly better.
template <class T, bool kMax>
struct IntArgReducer {
  struct Acc {
    T value;
    int64_t index;
  };
  const ReducePlan& p;

  static bool better(T x, T best) { return kMax ? x > best : x < best; }

  Acc inner(const char* base, int64_t, int64_t k0, int64_t k1) const {
    Acc a{T(), -1};
    for_each_span(p, base, k0, k1, [&](const char* ptr, int64_t n, int64_t k) {
      const int64_t st = p.span_stride;
      for (int64_t i = 0; i < n; ++i) {
        const T x = *reinterpret_cast<const T*>(ptr + i * st);
        if (a.index < 0 || better(x, a.value)) a = Acc{x, k + i};
      }
    });
    return a;
  }

  void outer(const char* base, int64_t, int64_t w, int64_t k0, int64_t k1, Acc* acc) const {
    Walker rw(p.rows, k0);
    const int64_t cs = p.col_stride;
    for (int64_t c = 0; c < w; ++c) {
      acc[c] = Acc{*reinterpret_cast<const T*>(base + rw.off[0] + c * cs), k0};
    }
    for (int64_t k = k0 + 1; k < k1; ++k) {
      rw.next();
      const char* row = base + rw.off[0];
      for (int64_t c = 0; c < w; ++c) {
        const T x = *reinterpret_cast<const T*>(row + c * cs);
        if (better(x, acc[c].value)) acc[c] = Acc{x, k};
      }
    }
  }

  Acc combine(const Acc& a, const Acc& b) const { return better(b.value, a.value) ? b : a; }
  void finish(int64_t, const Acc& acc, char* const* out) const {
    if (p.noutputs == 2) {
      std::memcpy(out[0], &acc.value, sizeof(T));
      std::memcpy(out[1], &acc.index, 8);
    } else {
      std::memcpy(out[0], &acc.index, 8);
    }
  }
};

// Values and indices (max/min with a dim: 2 outputs) or indices only (argmax, argmin).
void arg_reduction(const ReducePlan& p, bool is_max) {
  if (is_floating_type(p.dtype)) return floating_arg_reduction(p, is_max);
  TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(p.dtype, "argmax", [&] {
    if (is_max) return run_reduction(p, IntArgReducer<scalar_t, true>{p});
    run_reduction(p, IntArgReducer<scalar_t, false>{p});
  });
}

}  // namespace

// amax/amin and max()/min() write values only; max/min with a dim also write indices.
void extreme_kernel(const KernelCall& c, bool is_max) {
  const Tensor& in = c.inputs[0];
  const ScalarType t = in.dtype();
  const bool with_indices = c.outputs.size() == 2;
  const ReduceParams& r = c.params<ReduceParams>();
  const ReducePlan p = make_reduce_plan(in, c.outputs, r.dims, r.keepdim, with_indices);
  if (with_indices) return arg_reduction(p, is_max);
  const OpId op = is_max ? OpId::amax : OpId::amin;
  if (is_floating_type(t)) return floating_reduction(p, FloatJob{op, t, t});
  integer_reduction(p, op, t);
}

void arg_extreme_kernel(const KernelCall& c, bool is_max) {
  const ReduceParams& r = c.params<ReduceParams>();
  arg_reduction(make_reduce_plan(c.inputs[0], c.outputs, r.dims, r.keepdim, true), is_max);
}

void all_any_kernel(const KernelCall& c, OpId op) {
  const ReduceParams& r = c.params<ReduceParams>();
  integer_reduction(make_reduce_plan(c.inputs[0], c.outputs, r.dims, r.keepdim, false), op,
                    c.outputs[0].dtype());
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
