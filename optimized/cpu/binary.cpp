// Optimized CPU kernels for binary elementwise ops. Floating types run Highway vector kernels
// (float16/bfloat16 in float32); integer and bool types run scalar loops the compiler vectorizes.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/binary.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/highway.h"
#include "optimized/cpu/loops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

struct AddOp {
  double alpha;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    if (alpha == 1) return hn::Add(a, b);
    return hn::MulAdd(hn::Set(d, static_cast<hn::TFromD<D>>(alpha)), b, a);
  }
};

struct MulOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Mul(a, b);
  }
};

struct DivOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Div(a, b);
  }
};

template <class Op>
void run_floating(const TensorIterator& iter, const Op& op) {
  switch (iter.common_dtype()) {
    case kFloat:
      return vectorized_loop<float, 2>(iter, op);
    case kDouble:
      return vectorized_loop<double, 2>(iter, op);
    case kHalf:
      return vectorized_loop<Half, 2>(iter, op);
    case kBFloat16:
      return vectorized_loop<BFloat16, 2>(iter, op);
    default:
      TS_ERROR("optimized binary: not a floating dtype: ", iter.common_dtype());
  }
}

}  // namespace

// alpha scales the second operand (add: +alpha, sub: -alpha).
void add_floating(const TensorIterator& iter, double alpha) { run_floating(iter, AddOp{alpha}); }
void mul_floating(const TensorIterator& iter) { run_floating(iter, MulOp{}); }
void div_floating(const TensorIterator& iter) { run_floating(iter, DivOp{}); }

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "touchstone/dispatch_macros.h"

namespace ts::cpu {
namespace {

HWY_EXPORT(add_floating);
HWY_EXPORT(mul_floating);
HWY_EXPORT(div_floating);

// Wrapping integer arithmetic through uint64 (no signed overflow).
template <typename T>
T wrap_add(T a, T b, int64_t alpha) {
  return static_cast<T>(static_cast<uint64_t>(a) +
                        static_cast<uint64_t>(alpha) * static_cast<uint64_t>(b));
}

void add_sub_kernel(const KernelCall& c, double sign) {
  TensorIterator iter = elementwise_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(add_floating)(iter, sign * c.p.s0->to_double());
  } else if (t == kBool) {
    scalar_loop<bool, bool, 2>(iter, [](bool a, bool b) { return a || b; });
  } else {
    const int64_t alpha = static_cast<int64_t>(sign) * c.p.s0->to_long();
    TS_DISPATCH_INTEGRAL_TYPES(t, "add", [&] {
      scalar_loop<scalar_t, scalar_t, 2>(iter, [alpha](scalar_t a, scalar_t b) {
        return wrap_add<scalar_t>(a, b, alpha);
      });
    });
  }
  iter.cast_outputs();
}

void add_kernel(const KernelCall& c) { add_sub_kernel(c, 1); }
void sub_kernel(const KernelCall& c) { add_sub_kernel(c, -1); }

void mul_kernel(const KernelCall& c) {
  TensorIterator iter = elementwise_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(mul_floating)(iter);
  } else if (t == kBool) {
    scalar_loop<bool, bool, 2>(iter, [](bool a, bool b) { return a && b; });
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, "mul", [&] {
      scalar_loop<scalar_t, scalar_t, 2>(iter, [](scalar_t a, scalar_t b) {
        return static_cast<scalar_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
      });
    });
  }
  iter.cast_outputs();
}

void div_kernel(const KernelCall& c) {
  TS_CHECK(c.p.mode == 0, "div: the optimized set has no rounding_mode kernel yet");
  TensorIterator iter = elementwise_iter(c);
  HWY_DYNAMIC_DISPATCH(div_floating)(iter);
  iter.cast_outputs();
}

}  // namespace

TS_REGISTER_KERNELS(optimized, binary) {
  const DTypeSet all = DTypeSet::all();
  m.impl(OpId::add, kCPU, all, add_kernel);
  m.impl(OpId::sub, kCPU, all - DTypeSet{kBool}, sub_kernel);
  m.impl(OpId::mul, kCPU, all, mul_kernel);
  m.impl(OpId::div, kCPU, DTypeSet::floating(), div_kernel);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
