// Optimized CPU kernels for sum, mean, prod, norm, var, std and logsumexp, the reduction plan,
// and the floating / integer entry points reduce_minmax.cpp shares.
//
// Note [Optimized reductions]
// Geometry: make_reduce_plan (Note [Reduction plans] in reduce.h) turns any input layout into
// M outputs x N reduced elements walked along the input's smallest stride: inner mode reduces
// spans of the innermost reduced dim with 4 independent vector accumulators; outer mode
// accumulates whole blocks of up to 256 output columns at once, streaming input rows (sum over
// dim 0 of a row-major matrix reads rows, never strides down columns). We walk the geometry
// ourselves rather than through TensorIterator::reduce_op: the chunking below must be a pure
// function of the shape, and inner/outer kernels want the whole reduced extent per output.
// Thread invariance: every partial covers a fixed range of the reduced index (16384 elements
// in inner mode, >= 4096 rows in outer mode) and partials combine as a balanced binary tree in
// index order, so results are bitwise identical for any thread count (parallel_for_fixed and
// parallel_for over independent outputs only decide who computes what).
// Precision: floating sums, products, norms, var and logsumexp accumulate in double whatever the
// dtype (float16/bfloat16/float32 are widened exactly; float64 stays float64), with cascade
// summation: lanes accumulate at most 16384/(4 x lanes) terms (outer mode: a few thousand rows)
// sequentially, then lanes, chunks and partials add pairwise. Double accumulation needs no
// pairwise tree per output column in outer mode, and the result rounds once to the compute
// dtype, within an ulp of the reference's; float32 sums and means with a float result first add
// pairs of elements in float (Note [Float pairs before double] in reduce-inl.h: a conversion
// and a double add per element cost a Zen 4 more than its bandwidth), within u sum |x| more.
// var/std take two passes (the mean, then squared deviations); logsumexp takes the NaN-propagating
// max, then exp(x - max) in the compute dtype (Highway's Exp, <= 1 ulp in float32), summed in
// double. Integers sum and multiply in uint64 (wrapping, as the reference), then wrap to the
// result.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/reduce.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/highway.h"
#include "optimized/cpu/reduce-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

template <class V>
void run_floating(const ReducePlan& p, const FloatJob& job) {
  Finisher fin{job};
  fin.n = static_cast<double>(p.num_reduced);
  switch (job.op) {
    case OpId::sum:
    case OpId::mean:  // Note [Float pairs before double] (reduce-inl.h): not for a double result
      fin.float_sum = job.ct == kFloat && job.ot == kFloat;
      return run_double<V, AddOp, IdentityX>(p, fin, nullptr, job.ct != kDouble);
    case OpId::prod:
      return run_double<V, MulOp, IdentityX>(p, fin);
    case OpId::norm: {  // Note [Norm of any p] in reference/reduce.cpp
      if (job.p == 0) return run_double<V, AddOp, NonZeroX>(p, fin);
      if (job.p == 1) return run_double<V, AddOp, AbsX>(p, fin);
      if (job.p == 2) return run_double<V, AddOp, SquareX>(p, fin);
      if (job.p == INFINITY) return run_extreme<V, true, true>(p, fin);
      if (job.p == -INFINITY) return run_extreme<V, false, true>(p, fin);
      const std::vector<double> power(static_cast<size_t>(p.num_outputs), job.p);
      return run_double<V, AddOp, PowAbsX>(p, fin, power.data());
    }
    case OpId::amax:
      return run_extreme<V, true, false>(p, fin);
    case OpId::amin:
      return run_extreme<V, false, false>(p, fin);
    case OpId::var:
    case OpId::std: {
      std::vector<double> mean(static_cast<size_t>(p.num_outputs));
      Finisher first = fin;
      first.pass1 = true;
      first.buffer = mean.data();
      run_double<V, AddOp, IdentityX>(p, first);
      return run_double<V, AddOp, DevSquareX>(p, fin, mean.data());
    }
    case OpId::logsumexp: {
      std::vector<double> max(static_cast<size_t>(p.num_outputs)), shift(max.size());
      Finisher first = fin;
      first.pass1 = true;
      first.buffer = max.data();
      run_extreme<V, true, false>(p, first);
      for (size_t o = 0; o < max.size(); ++o) shift[o] = std::isfinite(max[o]) ? max[o] : 0.0;
      fin.max = max.data();
      return run_double<V, AddOp, ExpX>(p, fin, shift.data());
    }
    default:
      TS_ERROR(op_info(job.op).name, ": no floating reduction in the optimized set");
  }
}

}  // namespace

void floating_reduction_impl(const ReducePlan& p, const FloatJob& job) {
  if (p.dtype == kDouble) return run_floating<double>(p, job);
  run_floating<float>(p, job);
}

// Note [all and any in lanes]
// x != 0 is a test of x's bits: all of them for integers and bool, all but the sign for
// floating types (-0 is zero, NaN is not). Over dim 0, all keeps a lane's bits while the test
// holds and any ors them in, one row at a time; lanes are unsigned integers of the element's
// width. The scalar loop ran all/any over dim 0 of a float32 4096^2 at 3.6 GB/s (ATen: 1.6x).
template <typename U>
void logical_row_typed(bool any, bool floating, const U* x, int64_t n, U* lanes) {
  const hn::ScalableTag<U> du;
  const int64_t L = static_cast<int64_t>(hn::Lanes(du));
  const U bits = floating ? static_cast<U>(~(U{1} << (8 * sizeof(U) - 1))) : static_cast<U>(~U{0});
  const auto vbits = hn::Set(du, bits);
  int64_t c = 0;
  for (; c + L <= n; c += L) {
    const auto set = hn::Ne(hn::And(hn::LoadU(du, x + c), vbits), hn::Zero(du));
    const auto a = hn::LoadU(du, lanes + c);
    hn::StoreU(any ? hn::Or(a, hn::VecFromMask(du, set)) : hn::IfThenElseZero(set, a), du,
               lanes + c);
  }
  for (; c < n; ++c) {
    const U v = (x[c] & bits) != 0 ? static_cast<U>(~U{0}) : U{0};
    lanes[c] = any ? (lanes[c] | v) : (lanes[c] & v);
  }
}

// Whether x[i] != 0 for all (any) of n elements (inner mode: one output's span).
template <typename U>
bool logical_span_typed(bool any, bool floating, const U* x, int64_t n) {
  const hn::ScalableTag<U> du;
  const int64_t L = static_cast<int64_t>(hn::Lanes(du));
  const U bits = floating ? static_cast<U>(~(U{1} << (8 * sizeof(U) - 1))) : static_cast<U>(~U{0});
  const auto vbits = hn::Set(du, bits);
  auto acc = any ? hn::Zero(du) : hn::Set(du, static_cast<U>(~U{0}));
  int64_t i = 0;
  for (; i + L <= n; i += L) {
    const auto set = hn::Ne(hn::And(hn::LoadU(du, x + i), vbits), hn::Zero(du));
    acc = any ? hn::Or(acc, hn::VecFromMask(du, set)) : hn::IfThenElseZero(set, acc);
  }
  bool r = any ? !hn::AllTrue(du, hn::Eq(acc, hn::Zero(du)))
               : hn::AllTrue(du, hn::Ne(acc, hn::Zero(du)));
  for (; i < n; ++i) r = any ? (r || (x[i] & bits) != 0) : (r && (x[i] & bits) != 0);
  return r;
}

bool logical_span(bool any, bool floating, size_t size, const void* x, int64_t n) {
  switch (size) {
    case 1:
      return logical_span_typed(any, floating, static_cast<const uint8_t*>(x), n);
    case 2:
      return logical_span_typed(any, floating, static_cast<const uint16_t*>(x), n);
    case 4:
      return logical_span_typed(any, floating, static_cast<const uint32_t*>(x), n);
    default:
      return logical_span_typed(any, floating, static_cast<const uint64_t*>(x), n);
  }
}

// lanes[c] = lanes[c] and (all) / or (any) all-ones where x[c] != 0, for c < n elements of
// `size` bytes at x (lanes of the same width).
void logical_row(bool any, bool floating, size_t size, const void* x, int64_t n, void* lanes) {
  switch (size) {
    case 1:
      return logical_row_typed(any, floating, static_cast<const uint8_t*>(x), n,
                               static_cast<uint8_t*>(lanes));
    case 2:
      return logical_row_typed(any, floating, static_cast<const uint16_t*>(x), n,
                               static_cast<uint16_t*>(lanes));
    case 4:
      return logical_row_typed(any, floating, static_cast<const uint32_t*>(x), n,
                               static_cast<uint32_t*>(lanes));
    default:
      return logical_row_typed(any, floating, static_cast<const uint64_t*>(x), n,
                               static_cast<uint64_t*>(lanes));
  }
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <limits>
#include <vector>

#include "optimized/cpu/scan.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"

namespace ts::cpu {

HWY_EXPORT(floating_reduction_impl);
HWY_EXPORT(logical_row);
HWY_EXPORT(logical_span);

void floating_reduction(const ReducePlan& p, const FloatJob& job) {
  HWY_DYNAMIC_DISPATCH(floating_reduction_impl)(p, job);
}

void Finisher::finish(int64_t o, double acc, char* const* out) const {
  if (pass1) {
    buffer[o] = job.op == OpId::logsumexp ? acc : acc / n;
    return;
  }
  double v = acc;
  switch (job.op) {
    case OpId::mean:
      v = acc / n;
      break;
    case OpId::norm:
      if (n == 0) {
        v = 0;  // every p, as ATen
      } else if (job.p == 2) {
        v = std::sqrt(acc);
      } else if (job.p != 0 && job.p != 1 && !std::isinf(job.p)) {
        v = std::pow(acc, 1 / job.p);
      }
      break;
    case OpId::var:
    case OpId::std:
      v = acc / std::max(0.0, n - job.correction);
      if (job.op == OpId::std) v = std::sqrt(v);
      break;
    case OpId::logsumexp: {
      const double m = max[o];
      v = std::isfinite(m) ? std::log(acc) + m : m;  // NaN, or all terms 0 / one infinite
      break;
    }
    default:
      break;
  }
  store_floating(out[0], job.ot, round_to_dtype(job.ct, v));
}

namespace {

// ---- integer and bool reductions (and all/any on every dtype): scalar loops ----

// x != 0 as PyTorch's bool conversion (NaN is true, -0.0 false).
template <class T>
bool nonzero(T x) {
  if constexpr (is_reduced_v<T>) {
    return (x.x & 0x7fff) != 0;
  } else {
    return x != T(0);
  }
}

// Sums and products wrap in uint64 (the output then wraps to its dtype, as the sum or product of
// the inputs wrapped to it would); amax/amin compare in the input type; all/any and x != 0.
template <class T, OpId kOp>
struct IntOp {
  static constexpr bool kWide = kOp == OpId::sum || kOp == OpId::prod;
  static constexpr bool kLogical = kOp == OpId::all || kOp == OpId::any;
  using Acc = std::conditional_t<kWide, uint64_t, std::conditional_t<kLogical, uint8_t, T>>;
  static Acc identity() {
    if constexpr (kOp == OpId::sum || kOp == OpId::any) return Acc(0);
    if constexpr (kOp == OpId::prod || kOp == OpId::all) return Acc(1);
    if constexpr (kOp == OpId::amax) return std::numeric_limits<T>::lowest();
    if constexpr (kOp == OpId::amin) return std::numeric_limits<T>::max();
  }
  static Acc step(Acc a, T x) {
    if constexpr (kWide) {
      return merge(a, static_cast<uint64_t>(static_cast<int64_t>(x)));
    } else if constexpr (kLogical) {
      return merge(a, static_cast<uint8_t>(nonzero(x)));
    } else {
      return merge(a, x);
    }
  }
  static Acc merge(Acc a, Acc b) {
    if constexpr (kOp == OpId::sum) return a + b;
    if constexpr (kOp == OpId::prod) return a * b;
    if constexpr (kOp == OpId::amax) return b > a ? b : a;
    if constexpr (kOp == OpId::amin) return b < a ? b : a;
    if constexpr (kOp == OpId::all) return a & b;
    if constexpr (kOp == OpId::any) return a | b;
  }
};

// Stores a uint64 value wrapped to integer dtype t (bool: v != 0).
void store_wrapped(char* p, ScalarType t, uint64_t v) {
  TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(t, "reduce", [&] {
    const scalar_t s = std::is_same_v<scalar_t, bool> ? v != 0 : static_cast<scalar_t>(v);
    std::memcpy(p, &s, sizeof(s));
  });
}

template <class T, OpId kOp>
struct IntReducer {
  using Op = IntOp<T, kOp>;
  using Acc = typename Op::Acc;
  const ReducePlan& p;
  ScalarType ot;

  Acc inner(const char* base, int64_t, int64_t k0, int64_t k1) const {
    Acc a = Op::identity();
    for_each_span(p, base, k0, k1, [&](const char* ptr, int64_t n, int64_t) {
      const int64_t st = p.span_stride;
      Acc t = a;
      if (Op::kLogical && st == static_cast<int64_t>(sizeof(T))) {
        constexpr bool kFloating = std::is_floating_point_v<T> || is_reduced_v<T>;
        const bool any =
            HWY_DYNAMIC_DISPATCH(logical_span)(kOp == OpId::any, kFloating, sizeof(T), ptr, n);
        t = Op::merge(t, static_cast<Acc>(any));
      } else if (st == static_cast<int64_t>(sizeof(T))) {
        const T* x = reinterpret_cast<const T*>(ptr);
        for (int64_t i = 0; i < n; ++i) t = Op::step(t, x[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) t = Op::step(t, *reinterpret_cast<const T*>(ptr + i * st));
      }
      a = t;
    });
    return a;
  }

  void outer(const char* base, int64_t, int64_t w, int64_t k0, int64_t k1, Acc* acc) const {
    if constexpr (Op::kLogical) {
      if (p.col_stride == static_cast<int64_t>(sizeof(T)))
        return logical_outer(base, w, k0, k1, acc);
    }
    std::fill(acc, acc + w, Op::identity());
    Walker rw(p.rows, k0);
    const int64_t cs = p.col_stride;
    for (int64_t k = k0; k < k1; ++k, rw.next()) {
      const char* row = base + rw.off[0];
      if (cs == static_cast<int64_t>(sizeof(T))) {
        const T* x = reinterpret_cast<const T*>(row);
        for (int64_t c = 0; c < w; ++c) acc[c] = Op::step(acc[c], x[c]);
      } else {
        for (int64_t c = 0; c < w; ++c) {
          acc[c] = Op::step(acc[c], *reinterpret_cast<const T*>(row + c * cs));
        }
      }
    }
  }

  // Note [all and any in lanes] (logical_row), blocks of 512 columns.
  void logical_outer(const char* base, int64_t w, int64_t k0, int64_t k1, Acc* acc) const {
    using U = hwy::UnsignedFromSize<sizeof(T)>;
    constexpr bool kFloating = std::is_floating_point_v<T> || is_reduced_v<T>;
    constexpr int64_t kBlock = 512;
    U lanes[kBlock];
    for (int64_t c0 = 0; c0 < w; c0 += kBlock) {
      const int64_t n = std::min(kBlock, w - c0);
      std::fill(lanes, lanes + n, kOp == OpId::all ? static_cast<U>(~U{0}) : U{0});
      Walker rw(p.rows, k0);
      for (int64_t k = k0; k < k1; ++k, rw.next()) {
        HWY_DYNAMIC_DISPATCH(logical_row)
        (kOp == OpId::any, kFloating, sizeof(T), base + rw.off[0] + c0 * sizeof(T), n, lanes);
      }
      for (int64_t c = 0; c < n; ++c) acc[c0 + c] = lanes[c] != 0 ? Acc(1) : Acc(0);
    }
  }

  Acc combine(Acc a, Acc b) const { return Op::merge(a, b); }
  void finish(int64_t, Acc acc, char* const* out) const {
    if constexpr (Op::kWide) {
      store_wrapped(out[0], ot, acc);
    } else if constexpr (Op::kLogical) {
      std::memcpy(out[0], &acc, 1);  // a bool or uint8 output
    } else {
      std::memcpy(out[0], &acc, sizeof(T));
    }
  }
};

// Runs IntReducer<T, op> for the op of kOps that `op` is; false when none is.
template <class T, OpId... kOps>
bool run_integer_of(const ReducePlan& p, OpId op, ScalarType ot) {
  return ((op == kOps && (run_reduction(p, IntReducer<T, kOps>{p, ot}), true)) || ...);
}

template <class T>
void run_integer(const ReducePlan& p, OpId op, ScalarType ot) {
  bool done = run_integer_of<T, OpId::all, OpId::any>(p, op, ot);  // any T: x != 0
  if constexpr (std::is_integral_v<T>) {
    done = done || run_integer_of<T, OpId::sum, OpId::prod, OpId::amax, OpId::amin>(p, op, ot);
  }
  TS_CHECK(done, op_info(op).name, ": no integer reduction for dtype ", p.dtype,
           " in the optimized set");
}

}  // namespace

void integer_reduction(const ReducePlan& p, OpId op, ScalarType ot) {
  TS_DISPATCH_ALL_DTYPES(p.dtype, "reduce", [&] { run_integer<scalar_t>(p, op, ot); });
}

std::vector<PlanDim> sort_and_coalesce(std::vector<PlanDim> dims, bool sort) {
  if (sort) {
    std::stable_sort(dims.begin(), dims.end(), [](const PlanDim& a, const PlanDim& b) {
      return stride_key(a.stride[0]) > stride_key(b.stride[0]);
    });
  }
  std::vector<PlanDim> out;
  for (const PlanDim& d : dims) {
    if (!out.empty()) {
      PlanDim& prev = out.back();
      bool merge = true;
      for (int k = 0; k < kReduceOperands; ++k) merge &= prev.stride[k] == d.stride[k] * d.size;
      if (merge) {
        prev.size *= d.size;
        for (int k = 0; k < kReduceOperands; ++k) prev.stride[k] = d.stride[k];
        continue;
      }
    }
    out.push_back(d);
  }
  return out;
}

DimList to_dim_list(const std::vector<PlanDim>& dims, size_t count) {
  DimList l;
  for (size_t i = 0; i < count; ++i) {
    l.size.push_back(dims[i].size);
    for (int k = 0; k < kReduceOperands; ++k) l.stride[k].push_back(dims[i].stride[k]);
  }
  return l;
}

ReducePlan make_reduce_plan(const Tensor& in, ArrayRef<Tensor> outputs, IntArrayRef dims,
                            bool keepdim, bool in_order) {
  ReducePlan p;
  p.in = static_cast<const char*>(in.data_ptr());
  p.dtype = in.dtype();
  p.noutputs = static_cast<int>(outputs.size());
  for (int j = 0; j < p.noutputs; ++j) p.out[j] = static_cast<char*>(outputs[j].data_ptr());
  std::vector<PlanDim> kept, red;
  int64_t out_dim = 0;
  const int64_t in_es = static_cast<int64_t>(in.element_size());
  for (int64_t d = 0; d < in.dim(); ++d) {
    const bool reduced = std::find(dims.begin(), dims.end(), d) != dims.end();
    PlanDim x{in.size(d), {in.stride(d) * in_es, 0, 0}};
    if (!reduced) {
      const int64_t od = keepdim ? d : out_dim++;
      for (int j = 0; j < p.noutputs; ++j) {
        x.stride[1 + j] = outputs[j].stride(od) * static_cast<int64_t>(outputs[j].element_size());
      }
      p.num_outputs *= x.size;
    } else {
      p.num_reduced *= x.size;
    }
    if (x.size != 1) (reduced ? red : kept).push_back(x);
  }
  if (p.num_outputs == 0) return p;
  if (p.num_reduced == 0) red.clear();
  kept = sort_and_coalesce(std::move(kept), true);
  red = sort_and_coalesce(std::move(red), !in_order);
  int64_t min_red = std::numeric_limits<int64_t>::max();
  for (const PlanDim& d : red) min_red = std::min(min_red, stride_key(d.stride[0]));
  p.outer = !kept.empty() && (red.empty() || stride_key(kept.back().stride[0]) < min_red);
  if (p.outer) {
    const PlanDim& col = kept.back();
    p.cols = col.size;
    p.col_stride = col.stride[0];
    for (int j = 0; j < 2; ++j) p.col_out_stride[j] = col.stride[1 + j];
    p.outs = to_dim_list(kept, kept.size() - 1);
    p.rows = to_dim_list(red, red.size());
  } else {
    p.outs = to_dim_list(kept, kept.size());
    if (!red.empty()) {
      p.span_size = red.back().size;
      p.span_stride = red.back().stride[0];
      p.rows = to_dim_list(red, red.size() - 1);
    }
  }
  return p;
}

namespace {

// Note [Casting broadcast inputs]
// A reduction input cast to its compute dtype is cast over its real elements only: the stride-0
// dims are cast as size 1 and expanded again, so sum(x.expand({2^31}), kDouble) casts one
// element instead of materializing 16 GiB.
Tensor cast_input(const Tensor& self, ScalarType ct) {
  DimVector real(self.sizes());
  bool expanded = false;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.strides()[d] == 0 && real[d] > 1) {
      real[d] = 1;
      expanded = true;
    }
  }
  if (!expanded) return self.to(ct);
  return self.as_strided(real, self.strides(), self.storage_offset()).to(ct).expand(self.sizes());
}

// Floating compute dtype: the input is cast to it first unless it already has it (as ATen's
// TensorIterator casts operands to the common dtype).
void floating_kernel(const KernelCall& c, FloatJob job) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor& self = c.inputs[0];
  const Tensor in = self.dtype() == ct ? self : cast_input(self, ct);
  const ReduceParams& r = reduce_params(c.p);
  job.ct = ct;
  job.ot = c.outputs[0].dtype();
  floating_reduction(make_reduce_plan(in, c.outputs, r.dims, r.keepdim, false), job);
}

// Integer or bool compute dtype: integer inputs are read as they are (the result wraps to the
// compute dtype, which the sum or product of the wrapped inputs would too); floating inputs,
// and non-bool inputs of a bool sum or product, are cast first.
void integer_kernel(const KernelCall& c, OpId op) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor& self = c.inputs[0];
  const bool cast = is_floating_type(self.dtype()) || (ct == kBool && self.dtype() != kBool);
  const Tensor in = cast ? cast_input(self, ct) : self;
  const ReduceParams& r = reduce_params(c.p);
  integer_reduction(make_reduce_plan(in, c.outputs, r.dims, r.keepdim, false), op,
                    c.outputs[0].dtype());
}

// One branch per Reduction and Scan op of op_list.def (registered below); reduce_minmax.cpp
// and cumsum.cpp hold the kernels of the extremes, all/any and cumsum.
template <OpId op>
void reduce_kernel(const KernelCall& c) {
  using enum OpId;
  if constexpr (op == sum || op == prod) {
    if (!is_floating_type(c.p.compute_dtype)) return integer_kernel(c, op);
    floating_kernel(c, {op});
  } else if constexpr (op == mean || op == logsumexp) {
    floating_kernel(c, {op});
  } else if constexpr (op == var || op == std) {
    floating_kernel(c, {.op = op, .correction = c.params<VarParams>().correction});
  } else if constexpr (op == norm) {
    floating_kernel(c, {.op = op, .p = c.params<NormParams>().p});
  } else if constexpr (op == amax || op == max || op == amin || op == min) {
    extreme_kernel(c, op == amax || op == max);
  } else if constexpr (op == argmax || op == argmin) {
    arg_extreme_kernel(c, op == argmax);
  } else if constexpr (op == all || op == any) {
    all_any_kernel(c, op);
  } else if constexpr (op == cumsum) {
    cumsum_kernel(c);
  } else if constexpr (op == cumprod) {  // scans (issue 16): scan.cpp
    cumprod_kernel(c);
  } else if constexpr (op == logcumsumexp) {
    logcumsumexp_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a Reduction or Scan op without its optimized CPU kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, reduce) {
  for_each_kernel_op<OpSignature::Reduction, OpSignature::Scan>(
      [&](auto op) { m.impl(op, kCPU, reduce_kernel<op>); });
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
