// Optimized CPU kernels for where, lerp, addcmul and masked_fill. Parameters and input order: see
// the top of lib/src/ops/ternary.cpp. where and masked_fill select whole elements, so they run
// on unsigned integers of the element's width (a Highway blend under the bool condition);
// lerp and addcmul run Highway vector kernels for floating dtypes (float16/bfloat16 in float32)
// and, for addcmul, scalar loops for integers.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/ternary.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/highway.h"
#include "optimized/cpu/loops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

// ATen's lerp, exact at both ends: from start for |weight| < 0.5, from end otherwise.
template <class D, class V>
HWY_INLINE V Lerp(D d, V start, V end, V weight) {
  using T = hn::TFromD<D>;
  const V diff = hn::Sub(end, start);
  const V from_start = hn::MulAdd(weight, diff, start);
  const V from_end = hn::NegMulAdd(diff, hn::Sub(hn::Set(d, T(1)), weight), end);
  return hn::IfThenElse(hn::Lt(hn::Abs(weight), hn::Set(d, T(0.5))), from_start, from_end);
}

struct LerpOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V start, V end, V weight) const {
    return Lerp(d, start, end, weight);
  }
};

struct LerpScalarOp {
  double weight;  // already rounded to the compute type
  template <class D, class V>
  HWY_INLINE V operator()(D d, V start, V end) const {
    return Lerp(d, start, end, hn::Set(d, static_cast<hn::TFromD<D>>(weight)));
  }
};

// self + value * tensor1 * tensor2.
// Note [addcmul rounding]
// float64 rounds the product before the add, as the reference and ATen do: fused, inf + (a
// product overflowing to -inf) would be inf instead of NaN. GCC contracts a Mul whose only use is
// an Add into an FMA (-ffp-contract=fast), so the product gets a second use in a select that
// changes nothing (x + NaN is NaN). float32 (and float16/bfloat16 in float32) may fuse: the
// reference computes in double, where the product does not overflow, and the fused result is
// the closer one.
struct AddcmulOp {
  double value;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V self, V t1, V t2) const {
    const V scaled = hn::Mul(hn::Set(d, static_cast<hn::TFromD<D>>(value)), t1);
    if constexpr (sizeof(hn::TFromD<D>) == 8) {
      const V product = hn::Mul(scaled, t2);
      return hn::IfThenElse(hn::IsNaN(product), product, hn::Add(self, product));
    }
    return hn::MulAdd(scaled, t2, self);
  }
};

// A mask of D's lane count from bytes that are 0 or 1 (bool elements).
template <class D>
HWY_INLINE auto MaskFromBools(D d, const bool* p) {
  using U = hn::TFromD<D>;
  const hn::Rebind<uint8_t, D> d8;
  const auto bytes = hn::LoadU(d8, reinterpret_cast<const uint8_t*>(p));
  if constexpr (sizeof(U) == 1) {
    return hn::Ne(bytes, hn::Zero(d8));
  } else if constexpr (sizeof(U) <= 4) {
    return hn::Ne(hn::PromoteTo(d, bytes), hn::Zero(d));
  } else {
    const hn::Rebind<uint32_t, D> d32;
    return hn::Ne(hn::PromoteTo(d, hn::PromoteTo(d32, bytes)), hn::Zero(d));
  }
}

// out[i] = cond[i] ? a[i] : b[i] over a row of n elements (byte strides; a stride 0 operand is
// one value). Contiguous rows (broadcast a or b allowed) blend whole vectors.
template <typename U>
HWY_INLINE void select_row(char* out, const char* cond, const char* a, const char* b,
                           const int64_t* s, int64_t n) {
  constexpr int64_t es = sizeof(U);
  int64_t i = 0;
  const hn::ScalableTag<U> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  if (n >= lanes && s[0] == es && s[1] == 1 && (s[2] == es || s[2] == 0) &&
      (s[3] == es || s[3] == 0)) {
    U* o = reinterpret_cast<U*>(out);
    const bool* c = reinterpret_cast<const bool*>(cond);
    const U* pa = reinterpret_cast<const U*>(a);
    const U* pb = reinterpret_cast<const U*>(b);
    const bool a_one = s[2] == 0, b_one = s[3] == 0;
    const auto va1 = hn::Set(d, pa[0]);
    const auto vb1 = hn::Set(d, pb[0]);
    for (; i + lanes <= n; i += lanes) {
      const auto va = a_one ? va1 : hn::LoadU(d, pa + i);
      const auto vb = b_one ? vb1 : hn::LoadU(d, pb + i);
      hn::StoreU(hn::IfThenElse(MaskFromBools(d, c + i), va, vb), d, o + i);
    }
  }
  for (; i < n; ++i) {
    const char* src = *reinterpret_cast<const bool*>(cond + i * s[1]) ? a + i * s[2] : b + i * s[3];
    std::memcpy(out + i * s[0], src, es);
  }
}

// Runs select_row over an iterator; `arg` gives the operands holding cond, a and b, or -1 for
// an `a` that is the constant `*a_const`.
template <typename U>
void select_loop(const TensorIterator& iter, const int (&arg)[3], const U* a_const, bool serial) {
  const int nt = iter.ntensors();
  auto loop = [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    for (int64_t j = 0; j < n1; ++j) {
      const char* ptr[3];
      int64_t s[4] = {strides[0], 0, 0, 0};
      for (int k = 0; k < 3; ++k) {
        if (arg[k] < 0) {
          ptr[k] = reinterpret_cast<const char*>(a_const);
        } else {
          ptr[k] = data[arg[k]] + j * strides[nt + arg[k]];
          s[k + 1] = strides[arg[k]];
        }
      }
      select_row<U>(data[0] + j * strides[nt], ptr[0], ptr[1], ptr[2], s, n0);
    }
  };
  if (serial) {
    iter.serial_for_each(loop, {0, iter.numel()});
  } else {
    iter.for_each(loop);
  }
}

inline void select_dispatch(size_t element_size, const TensorIterator& iter, const int (&arg)[3],
                            uint64_t a_const, bool serial) {
  switch (element_size) {
    case 1: {
      const uint8_t v = static_cast<uint8_t>(a_const);
      return select_loop<uint8_t>(iter, arg, &v, serial);
    }
    case 2: {
      const uint16_t v = static_cast<uint16_t>(a_const);
      return select_loop<uint16_t>(iter, arg, &v, serial);
    }
    case 4: {
      const uint32_t v = static_cast<uint32_t>(a_const);
      return select_loop<uint32_t>(iter, arg, &v, serial);
    }
    default:
      return select_loop<uint64_t>(iter, arg, &a_const, serial);
  }
}

}  // namespace

// Operands (out, condition, self, other), all but the condition of `element_size` bytes.
void where_bytes(const TensorIterator& iter, size_t element_size) {
  select_dispatch(element_size, iter, {1, 2, 3}, 0, false);
}

// Operands (out, self, mask); `value` holds the fill value's bytes (little end first).
// `serial` when the output overlaps itself (masked_fill_ on an expanded tensor).
void masked_fill_bytes(const TensorIterator& iter, size_t element_size, uint64_t value,
                       bool serial) {
  select_dispatch(element_size, iter, {2, -1, 1}, value, serial);
}

void lerp_floating(const TensorIterator& iter, bool scalar_weight, double weight) {
  if (scalar_weight) return floating_loop<2>(iter, LerpScalarOp{weight});
  floating_loop<3>(iter, LerpOp{});
}

void addcmul_floating(const TensorIterator& iter, double value) {
  floating_loop<3>(iter, AddcmulOp{value});
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "optimized/cpu/convert.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/ops.h"

namespace ts::cpu {
namespace {

HWY_EXPORT(where_bytes);
HWY_EXPORT(masked_fill_bytes);
HWY_EXPORT(lerp_floating);
HWY_EXPORT(addcmul_floating);

// A Scalar converted to T as the reference stores it (rounded once; see convert.h).
template <typename T>
T scalar_as(const Scalar& s) {
  return s.is_floating_point() ? double_to<T>(s.to_double()) : int64_to<T>(s.to_long());
}

// ATen converts a Scalar argument to opmath: float for float16 and bfloat16.
double scalar_as_opmath(const Scalar& s, ScalarType compute) {
  if (compute == kDouble) return s.to_double();
  return static_cast<double>(scalar_as<float>(s));
}

// `t` in dtype `dt`. A broadcast single value (a wrapped scalar) is converted once and
// expanded again instead of being materialized at the full shape.
Tensor cast_input(const Tensor& t, ScalarType dt) {
  if (t.dtype() == dt) return t;
  bool one_value = true;
  for (int64_t d = 0; d < t.dim(); ++d) one_value &= t.strides()[d] == 0 || t.sizes()[d] == 1;
  if (!one_value || t.numel() == 0) return t.to(dt);
  Tensor r = empty({}, TensorOptions(dt));
  TS_DISPATCH_ALL_DTYPES(dt, "where", [&] {
    using To = scalar_t;
    TS_DISPATCH_ALL_DTYPES(t.dtype(), "where", [&] {
      *r.data_ptr<To>() = convert_value<To>(*static_cast<const scalar_t*>(t.data_ptr()));
    });
  });
  return r.expand(t.sizes());
}

void where_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const ScalarType t = out.dtype();  // the result type of self and other
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(c.inputs[0])
                            .add_input(cast_input(c.inputs[1], t))
                            .add_input(cast_input(c.inputs[2], t))
                            .check_mem_overlap(false)
                            .build();
  HWY_DYNAMIC_DISPATCH(where_bytes)(iter, element_size(t));
}

void masked_fill_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(c.inputs[0])
                            .add_input(c.inputs[1])
                            .check_mem_overlap(false)
                            .build();
  uint64_t value = 0;
  TS_DISPATCH_ALL_DTYPES(out.dtype(), "masked_fill", [&] {
    const scalar_t v = scalar_as<scalar_t>(c.params<ValueParams>().value);
    std::memcpy(&value, &v, sizeof(v));
  });
  // Note [masked_fill_ on expanded tensors] in lib/src/ops/ternary.cpp: elements sharing memory
  // must not be written by two threads (one may write the value, the other the old self).
  bool overlaps = false;
  for (int64_t d = 0; d < iter.ndim(); ++d)
    overlaps |= iter.shape()[d] > 1 && iter.strides(0)[d] == 0;
  HWY_DYNAMIC_DISPATCH(masked_fill_bytes)(iter, element_size(out.dtype()), value, overlaps);
}

void lerp_kernel(const KernelCall& c) {
  TensorIterator iter = elementwise_iter(c);
  const std::optional<Scalar>& weight = c.params<LerpParams>().weight;
  const double w = weight ? scalar_as_opmath(*weight, c.p.compute_dtype) : 0.0;
  HWY_DYNAMIC_DISPATCH(lerp_floating)(iter, weight.has_value(), w);
  iter.cast_outputs();
}

void addcmul_kernel(const KernelCall& c) {
  TensorIterator iter = elementwise_iter(c);
  const ScalarType t = iter.common_dtype();
  const Scalar& value = c.params<ValueParams>().value;
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(addcmul_floating)(iter, scalar_as_opmath(value, t));
  } else {
    const uint64_t v = static_cast<uint64_t>(value.to_long());
    TS_DISPATCH_INTEGRAL_TYPES(t, "addcmul", [&] {
      scalar_loop<scalar_t, scalar_t, 3>(iter, [v](scalar_t a, scalar_t b, scalar_t d) {
        // Wrapping arithmetic through uint64 (no signed overflow).
        return static_cast<scalar_t>(static_cast<uint64_t>(a) +
                                     v * static_cast<uint64_t>(b) * static_cast<uint64_t>(d));
      });
    });
  }
  iter.cast_outputs();
}

}  // namespace

TS_REGISTER_KERNELS(optimized, ternary) {
  m.impl(OpId::where, kCPU, where_kernel);
  m.impl(OpId::lerp, kCPU, lerp_kernel);
  m.impl(OpId::addcmul, kCPU, addcmul_kernel);
  m.impl(OpId::masked_fill, kCPU, masked_fill_kernel);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
