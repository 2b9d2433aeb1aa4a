// Optimized CPU kernels for maximum/minimum, comparisons, logical_and/or and the bitwise ops,
// and the loop of the floating UnaryBool ops (isnan, logical_not, ...: unary.cpp's kernels).
// Floating operands run Highway vector kernels (float16/bfloat16 in float32); comparisons and
// logical ops write their bool result straight from the vector masks, as integer comparisons
// do. Bool operands and integer extremes run scalar loops. Arithmetic is in binary.cpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/binary_compare.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <cstring>

#include "hwy/highway.h"
#include "optimized/cpu/loops-inl.h"
#include "touchstone/kernel_family.h"

#ifndef TS_OPTIMIZED_CPU_BINARY_COMPARE_OPS_
#define TS_OPTIMIZED_CPU_BINARY_COMPARE_OPS_
namespace ts::cpu {
// The plain ops with a bool result (comparisons, logical ops): a branch of CompareOp (floating)
// and one of compare (integers and bool) each.
constexpr bool is_compare(OpId op) {
  return op_traits(op).sig == OpSignature::BinaryBool;
}
}  // namespace ts::cpu
#endif

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

// maximum/minimum as std::max/std::min (which pick `a` on ties, so the sign of a zero result
// matches the reference), then NaN in either operand propagates.
template <OpId kOp>
struct ExtremumOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    const auto b_wins = kOp == OpId::maximum ? hn::Lt(a, b) : hn::Lt(b, a);
    return hn::IfThenElse(hn::Or(b_wins, hn::IsNaN(b)), b, a);
  }
};

// Integer lanes (Note [Integer comparisons in lanes]).
template <class V>
inline constexpr bool kInteger = !hwy::IsFloat<hn::TFromV<V>>();

// The mask of a comparison or logical op. `!=` is Not(Eq): Highway's Ne is ordered on some
// targets, while NaN != x must be true. Nonzero (NaN included) is true for the logical ops.
template <OpId kOp>
struct CompareOp {
  template <class D, class V>
  HWY_INLINE auto operator()(D d, V a, V b) const {
    const auto zero = hn::Zero(d);
    if constexpr (kOp == OpId::eq) {
      return hn::Eq(a, b);
    } else if constexpr (kOp == OpId::ne) {
      return hn::Not(hn::Eq(a, b));
    } else if constexpr (kOp == OpId::lt) {
      return hn::Lt(a, b);
    } else if constexpr (kOp == OpId::le) {
      if constexpr (kInteger<V>) {
        return hn::Not(hn::Lt(b, a));  // Highway 1.0 has no integer Le or Ge
      } else {
        return hn::Le(a, b);
      }
    } else if constexpr (kOp == OpId::gt) {
      return hn::Gt(a, b);
    } else if constexpr (kOp == OpId::ge) {
      if constexpr (kInteger<V>) {
        return hn::Not(hn::Lt(a, b));
      } else {
        return hn::Ge(a, b);
      }
    } else if constexpr (kOp == OpId::logical_and) {
      return hn::Not(hn::Or(hn::Eq(a, zero), hn::Eq(b, zero)));
    } else if constexpr (kOp == OpId::logical_or) {
      return hn::Not(hn::And(hn::Eq(a, zero), hn::Eq(b, zero)));
    } else {
      static_assert(kOp != kOp, "a BinaryBool op of op_list.def has no branch in CompareOp");
    }
  }
};

// Stores a mask as Lanes(d) bools (bytes 0/1): byte lanes as they are, 2- and 4-byte lanes
// demoted from int16 / int32 ones, 8-byte lanes through double and int32.
template <class D, class M>
HWY_INLINE void StoreMaskBytes(D /* d */, M m, uint8_t* out) {
  const hn::Rebind<int32_t, D> di32;
  const hn::Rebind<uint8_t, D> d8;
  if constexpr (sizeof(hn::TFromD<D>) == 1) {
    hn::StoreU(hn::IfThenElseZero(hn::RebindMask(d8, m), hn::Set(d8, 1)), d8, out);
  } else if constexpr (sizeof(hn::TFromD<D>) == 2) {
    const hn::Rebind<int16_t, D> di16;
    hn::StoreU(hn::DemoteTo(d8, hn::IfThenElseZero(hn::RebindMask(di16, m), hn::Set(di16, 1))), d8,
               out);
  } else if constexpr (sizeof(hn::TFromD<D>) == 4) {
    hn::StoreU(hn::DemoteTo(d8, hn::IfThenElseZero(hn::RebindMask(di32, m), hn::Set(di32, 1))), d8,
               out);
  } else {  // 8-byte lanes: int64 masks as double's (Highway 1.0 demotes no int64)
    const hn::Rebind<double, D> df64;
    const auto ones = hn::IfThenElseZero(hn::RebindMask(df64, m), hn::Set(df64, 1.0));
    hn::StoreU(hn::DemoteTo(d8, hn::DemoteTo(di32, ones)), d8, out);
  }
}

// out[i] = op(a[i], b[i]) as bool over n elements; ba/bb mark a stride-0 operand. Out of line,
// as map_contiguous (Note [One copy of each formula] in loops-inl.h).
template <typename C, class Op>
HWY_NOINLINE void compare_contiguous(uint8_t* HWY_RESTRICT out, const C* a, const C* b, bool ba,
                                     bool bb, int64_t n, const Op& op) {
  const hn::ScalableTag<C> d;
  const hn::CappedTag<C, 1> d1;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  if (ba && bb) {
    uint8_t v;
    StoreMaskBytes(d1, op(d1, hn::LoadU(d1, a), hn::LoadU(d1, b)), &v);
    std::memset(out, v, static_cast<size_t>(n));
    return;
  }
  if (ba) {
    const auto va = hn::Set(d, a[0]);
    for (; i + lanes <= n; i += lanes) StoreMaskBytes(d, op(d, va, hn::LoadU(d, b + i)), out + i);
  } else if (bb) {
    const auto vb = hn::Set(d, b[0]);
    for (; i + lanes <= n; i += lanes) StoreMaskBytes(d, op(d, hn::LoadU(d, a + i), vb), out + i);
  } else {
    for (; i + lanes <= n; i += lanes) {
      StoreMaskBytes(d, op(d, hn::LoadU(d, a + i), hn::LoadU(d, b + i)), out + i);
    }
  }
  for (; i < n; ++i) {
    StoreMaskBytes(d1, op(d1, hn::LoadU(d1, a + (ba ? 0 : i)), hn::LoadU(d1, b + (bb ? 0 : i))),
                   out + i);
  }
}

// One row of n elements of storage type T into bools; strided operands and float16/bfloat16
// go through blocks on the stack (as map_row in loops-inl.h).
template <typename T, class Op>
HWY_INLINE void compare_row(char* out, const char* const* in, const int64_t* strides, int64_t n,
                            const Op& op) {
  using C = compute_t<T>;
  constexpr int64_t es = sizeof(T);
  bool bcast[2];
  bool direct = std::is_same_v<T, C>;
  for (size_t k = 0; k < 2; ++k) {
    bcast[k] = strides[k + 1] == 0;
    direct &= bcast[k] || strides[k + 1] == es;
  }
  const bool direct_out = strides[0] == 1;
  if (direct && direct_out) {
    compare_contiguous(reinterpret_cast<uint8_t*>(out), reinterpret_cast<const C*>(in[0]),
                       reinterpret_cast<const C*>(in[1]), bcast[0], bcast[1], n, op);
    return;
  }
  alignas(64) C buf_in[2][kBlock];
  alignas(64) uint8_t buf_out[kBlock];
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = std::min(kBlock, n - b);
    const C* ins[2];
    for (size_t k = 0; k < 2; ++k) {
      const char* p = in[k] + b * strides[k + 1];
      if (direct) {
        ins[k] = reinterpret_cast<const C*>(p);
        continue;
      }
      const int64_t count = bcast[k] ? 1 : m;
      if constexpr (kInLanes<T>) {  // Note [Float16 and bfloat16 in lanes] in loops-inl.h
        if (!bcast[k] && strides[k + 1] == es) {
          widen_contiguous(reinterpret_cast<const T*>(p), m, buf_in[k]);
          ins[k] = buf_in[k];
          continue;
        }
      }
      for (int64_t i = 0; i < count; ++i) {
        buf_in[k][i] = static_cast<C>(*reinterpret_cast<const T*>(p + i * strides[k + 1]));
      }
      ins[k] = buf_in[k];
    }
    uint8_t* o = direct_out ? reinterpret_cast<uint8_t*>(out + b) : buf_out;
    compare_contiguous(o, ins[0], ins[1], bcast[0], bcast[1], m, op);
    if (!direct_out) {
      for (int64_t i = 0; i < m; ++i) out[(b + i) * strides[0]] = static_cast<char>(buf_out[i]);
    }
  }
}

// True when some operand is contiguous along dim 0 and another along dim 1 (the bool output's
// elements are 1 byte, the inputs' es bytes).
HWY_INLINE bool mixed_layout(const int64_t* s, int64_t es) {
  const int64_t size[3] = {1, es, es};
  bool inner = false, outer = false;
  for (int k = 0; k < 3; ++k) {
    inner |= s[k] == size[k];
    outer |= s[3 + k] == size[k] && s[k] != 0 && s[k] != size[k];
  }
  return inner && outer;
}

// A comparison over an n0 x n1 block of for_each with two inputs of storage type T and a bool
// output; mixed layouts go in kTile x kTile tiles, as vectorized_loop.
template <typename T, class Op>
HWY_INLINE void compare_block(char* const* data, const int64_t* strides, int64_t n0, int64_t n1,
                              const Op& op) {
  const char* in[2];
  if (n1 > 1 && mixed_layout(strides, sizeof(T))) {
    for (int64_t j0 = 0; j0 < n1; j0 += kTile) {
      for (int64_t i0 = 0; i0 < n0; i0 += kTile) {
        const int64_t ni = std::min(kTile, n0 - i0);
        for (int64_t j = j0; j < std::min(n1, j0 + kTile); ++j) {
          for (size_t k = 0; k < 2; ++k) {
            in[k] = data[k + 1] + j * strides[k + 4] + i0 * strides[k + 1];
          }
          compare_row<T>(data[0] + j * strides[3] + i0 * strides[0], in, strides, ni, op);
        }
      }
    }
    return;
  }
  for (int64_t j = 0; j < n1; ++j) {
    for (size_t k = 0; k < 2; ++k) in[k] = data[k + 1] + j * strides[k + 4];
    compare_row<T>(data[0] + j * strides[3], in, strides, n0, op);
  }
}

template <typename T, class Op>
void compare_loop(const TensorIterator& iter, const Op& op) {
  iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    compare_block<T>(data, strides, n0, n1, op);
  });
}

// The mask of a floating UnaryBool op. It runs as a comparison whose second operand is the
// first again (unary_bool_loop), so `b` is `a` and unused.
template <OpId kOp>
struct UnaryBoolOp {
  template <class D, class V>
  HWY_INLINE auto operator()(D d, V a, V) const {
    if constexpr (kOp == OpId::logical_not) {
      return hn::Eq(a, hn::Zero(d));  // NaN is nonzero: logical_not(NaN) is false
    } else if constexpr (kOp == OpId::isnan) {
      return hn::IsNaN(a);
    } else if constexpr (kOp == OpId::isinf) {
      return hn::IsInf(a);
    } else if constexpr (kOp == OpId::isfinite) {
      return hn::IsFinite(a);
    } else {
      static_assert(kOp != kOp, "a UnaryBool op of op_list.def has no branch in UnaryBoolOp");
    }
  }
};

// A one-input iterator through compare_block: the input is passed twice.
template <typename T, class Op>
void unary_bool_loop(const TensorIterator& iter, const Op& op) {
  iter.for_each([&](char** data, const int64_t* s, int64_t n0, int64_t n1) {
    char* const data2[3] = {data[0], data[1], data[1]};
    const int64_t s2[6] = {s[0], s[1], s[1], s[2], s[3], s[3]};
    compare_block<T>(data2, s2, n0, n1, op);
  });
}

template <OpId kOp>
void run_compare(const TensorIterator& iter) {
  if (!is_floating_type(iter.common_dtype())) {  // Note [Integer comparisons in lanes]
    TS_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), "compare_loop",
                               [&] { compare_loop<scalar_t>(iter, CompareOp<kOp>{}); });
    return;
  }
  TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(iter.common_dtype(), "compare_loop",
                                         [&] { compare_loop<scalar_t>(iter, CompareOp<kOp>{}); });
}

}  // namespace

void extremum_floating(const TensorIterator& iter, OpId op) {
  if (op == OpId::maximum) {
    floating_loop<2>(iter, ExtremumOp<OpId::maximum>{});
  } else {
    floating_loop<2>(iter, ExtremumOp<OpId::minimum>{});
  }
}
void unary_bool(const TensorIterator& iter, OpId op) {
  if (iter.common_dtype() == kBool) {  // logical_not of bools: bytes 0/1 as uint8 lanes
    return unary_bool_loop<uint8_t>(iter, UnaryBoolOp<OpId::logical_not>{});
  }
  for_each_plain_op<PlainOp::Unary>([&](auto k) {
    if constexpr (op_traits(k).sig == OpSignature::UnaryBool) {
      if (op == k) {
        TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(iter.common_dtype(), "unary_bool_loop", [&] {
          unary_bool_loop<scalar_t>(iter, UnaryBoolOp<k>{});
        });
      }
    }
  });
}
// Floating and integer (not bool) operands.
void compare_lanes(const TensorIterator& iter, OpId op) {
  for_each_plain_op<PlainOp::Binary>([&](auto k) {
    if constexpr (is_compare(k)) {
      if (op == k) run_compare<k>(iter);
    }
  });
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>

#include "optimized/cpu/binary.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/ops.h"

namespace ts::cpu {
namespace {

HWY_EXPORT(extremum_floating);
HWY_EXPORT(compare_lanes);
HWY_EXPORT(unary_bool);

// maximum and minimum.
template <OpId kOp>
void extremum_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(extremum_floating)(iter, kOp);
  } else {
    TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(t, op_info(kOp).name.data(), [&] {
      scalar_loop<scalar_t, scalar_t, 2>(iter, [](scalar_t a, scalar_t b) {
        return kOp == OpId::maximum ? std::max(a, b) : std::min(a, b);
      });
    });
  }
  iter.cast_outputs();
}

template <OpId kOp, typename T>
bool compare(T a, T b) {
  if constexpr (kOp == OpId::eq) {
    return a == b;
  } else if constexpr (kOp == OpId::ne) {
    return a != b;
  } else if constexpr (kOp == OpId::lt) {
    return a < b;
  } else if constexpr (kOp == OpId::le) {
    return a <= b;
  } else if constexpr (kOp == OpId::gt) {
    return a > b;
  } else if constexpr (kOp == OpId::ge) {
    return a >= b;
  } else if constexpr (kOp == OpId::logical_and) {
    return a != 0 && b != 0;
  } else if constexpr (kOp == OpId::logical_or) {
    return a != 0 || b != 0;
  } else {
    static_assert(kOp != kOp, "a BinaryBool op of op_list.def has no branch in compare");
  }
}

// Note [Integer comparisons in lanes]
// Integer operands compared in a plain loop that the compiler left scalar for int64 (SSE2 has no
// 64-bit compare): one_hot's eq of 65536 x 1000 int64 took 40 % of its time. They now run the
// floating types' Highway loops; their masks are narrowed to bytes through same-size lanes.

// Note [Bool results]
// The loops write bool. An out= or in-place output of another dtype (x.lt_(y) on floats) gets a
// bool temporary, copied into it afterwards; the inputs are read before anything is written.
template <OpId kOp>
void compare_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const Tensor target = out.dtype() == kBool ? out : empty_like(out, TensorOptions(kBool));
  const KernelCall call{c.op, ArrayRef<Tensor>(&target, 1), c.inputs, c.p, c.kind};
  TensorIterator iter = binary_iter(call, /*cast_output=*/false);
  const ScalarType t = iter.common_dtype();
  if (t != kBool) {
    HWY_DYNAMIC_DISPATCH(compare_lanes)(iter, kOp);
  } else {
    TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(t, op_info(c.op).name.data(), [&] {
      scalar_loop<bool, scalar_t, 2>(iter,
                                     [](scalar_t a, scalar_t b) { return compare<kOp>(a, b); });
    });
  }
  if (!target.is_same(out)) out.copy_(target);
}

// Bool operands are 0/1, so the results are 0/1 too.
template <class F>
void bitwise_kernel(const KernelCall& c, const F& f) {
  TensorIterator iter = binary_iter(c);
  TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(iter.common_dtype(), op_info(c.op).name.data(), [&] {
    scalar_loop<scalar_t, scalar_t, 2>(
        iter, [&f](scalar_t a, scalar_t b) { return static_cast<scalar_t>(f(a, b)); });
  });
  iter.cast_outputs();
}

void bitwise_and_kernel(const KernelCall& c) {
  bitwise_kernel(c, [](auto a, auto b) { return a & b; });
}
void bitwise_or_kernel(const KernelCall& c) {
  bitwise_kernel(c, [](auto a, auto b) { return a | b; });
}
void bitwise_xor_kernel(const KernelCall& c) {
  bitwise_kernel(c, [](auto a, auto b) { return a ^ b; });
}

}  // namespace

void unary_bool_vector_loop(const TensorIterator& iter, OpId op) {
  HWY_DYNAMIC_DISPATCH(unary_bool)(iter, op);
}

TS_REGISTER_KERNELS(optimized, binary_compare) {
  for_each_plain_op<PlainOp::Binary>([&](auto op) {
    if constexpr (is_compare(op)) m.impl(op, kCPU, compare_kernel<op>);
  });
  m.impl(OpId::maximum, kCPU, extremum_kernel<OpId::maximum>);
  m.impl(OpId::minimum, kCPU, extremum_kernel<OpId::minimum>);
  m.impl(OpId::bitwise_and, kCPU, bitwise_and_kernel);
  m.impl(OpId::bitwise_or, kCPU, bitwise_or_kernel);
  m.impl(OpId::bitwise_xor, kCPU, bitwise_xor_kernel);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
