// CUDA kernels for binary elementwise ops: arithmetic (add, sub, mul, div in every rounding
// mode, remainder, pow, atan2), maximum/minimum, comparisons, logical and bitwise ops, and the
// math ops of issue 16 (hypot ... clamp_max). The
// formulas follow reference/binary.cpp; float16/bfloat16 compute in float32. A plain op is one
// branch of BinaryOp; add/sub (AlphaParams) and div (DivParams) read their parameters here.
#include "optimized/cuda/loops.cuh"
#include "optimized/cuda/math.cuh"

namespace ts::cuda {
namespace {

// nextafter of a 16-bit float: its bit pattern plus or minus one, as the CPU set's Note
// [nextafter of 16-bit floats]; 0 steps to the smallest subnormal with b's sign.
template <typename T>
__device__ T nextafter_bits(T a, T b) {
  const float fa = convert<float>(a), fb = convert<float>(b);
  if (fa != fa || fb != fb) return convert<T>(fa + fb);
  if (fa == fb) return b;
  unsigned short bits;
  memcpy(&bits, &a, sizeof bits);
  if (fa == 0.0f) {
    bits = fb < 0.0f ? 0x8001 : 0x0001;
  } else {
    bits = (fb > fa) == (fa > 0.0f) ? bits + 1 : bits - 1;
  }
  T r;
  memcpy(&r, &bits, sizeof bits);
  return r;
}

// The formula of every plain binary op, and of add (alpha) and div (kMode), for each of the op's
// dtypes (a missing branch fails to compile); BinaryBool ops return bool. T is the storage type
// (for div's trunc of the quotient rounded to it), C the compute type.
template <OpId op, typename T, RoundingMode kMode = RoundingMode::None>
struct BinaryOp {
  using C = compute_t<T>;
  C alpha = C(1);  // add and sub (sub is add with -alpha)
  __device__ auto operator()(C a, C b) const {
    if constexpr (op == OpId::add) {
      if constexpr (std::is_floating_point_v<C>) {
        return a + alpha * b;
      } else if constexpr (std::is_same_v<C, bool>) {
        return a || (alpha && b);
      } else {
        return static_cast<C>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(alpha) * static_cast<uint64_t>(b));
      }
    } else if constexpr (op == OpId::mul) {
      if constexpr (std::is_floating_point_v<C>)
        return a * b;
      else if constexpr (std::is_same_v<C, bool>)
        return a && b;
      else
        return static_cast<C>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    } else if constexpr (op == OpId::maximum || op == OpId::minimum) {
      if (is_nan(a) || is_nan(b)) return is_nan(a) ? a : b;
      return (op == OpId::maximum) == (a > b) ? a : b;
    } else if constexpr (op == OpId::div && std::is_floating_point_v<C>) {
      if constexpr (kMode == RoundingMode::None) {
        return a / b;
      } else if constexpr (kMode == RoundingMode::Trunc) {
        // trunc of the quotient as rounded to the storage dtype, as ATen's trunc(a / b).
        return ::trunc(convert<C>(convert<T>(a / b)));
      } else {
        return float_div_floor(a, b);
      }
    } else if constexpr (op == OpId::div) {
      const C q = int_div_trunc(a, b);
      if constexpr (kMode != RoundingMode::Floor) return q;
      const bool inexact = int_rem_trunc(a, b) != 0;
      return inexact && (is_negative(a) != is_negative(b)) ? static_cast<C>(q - 1) : q;
    } else if constexpr (op == OpId::remainder) {
      if constexpr (std::is_floating_point_v<C>) {
        const C mod = ::fmod(a, b);
        return mod != C(0) && (b < C(0)) != (mod < C(0)) ? mod + b : mod;
      } else {
        const C r = int_rem_trunc(a, b);
        return r != 0 && is_negative(r) != is_negative(b) ? static_cast<C>(r + b) : r;
      }
    } else if constexpr (op == OpId::pow) {
      if constexpr (std::is_floating_point_v<C>)
        return b == C(2) ? a * a : ::pow(a, b);  // square: exact, as glibc's pow (CUDA's: 1 ULP)
      else
        return int_pow(a, b);
    } else if constexpr (op == OpId::atan2) {
      return ::atan2(a, b);
    } else if constexpr (op == OpId::eq) {
      return a == b;
    } else if constexpr (op == OpId::ne) {
      return a != b;
    } else if constexpr (op == OpId::lt) {
      return a < b;
    } else if constexpr (op == OpId::le) {
      return a <= b;
    } else if constexpr (op == OpId::gt) {
      return a > b;
    } else if constexpr (op == OpId::ge) {
      return a >= b;
    } else if constexpr (op == OpId::logical_and) {
      return a != C(0) && b != C(0);
    } else if constexpr (op == OpId::logical_or) {
      return a != C(0) || b != C(0);
    } else if constexpr (op == OpId::bitwise_and) {
      return static_cast<C>(a & b);
    } else if constexpr (op == OpId::bitwise_or) {
      return static_cast<C>(a | b);
    } else if constexpr (op == OpId::bitwise_xor) {
      return static_cast<C>(a ^ b);
    } else if constexpr (op == OpId::hypot) {  // math (issue 16)
      // Scaled by a power of two: CUDA's hypot overflows near DBL_MAX (2 ULP above it).
      if (::isinf(a) || ::isinf(b)) return C(INFINITY);
      if (is_nan(a) || is_nan(b)) return a + b;
      const C m = ::fmax(::fabs(a), ::fabs(b));
      if (m == C(0)) return C(0);
      const int e = ::ilogb(m);
      const C x = ::scalbn(a, -e), y = ::scalbn(b, -e);
      return ::scalbn(::sqrt(::fma(x, x, y * y)), e);
    } else if constexpr (op == OpId::copysign) {
      return ::copysign(a, b);
    } else if constexpr (op == OpId::nextafter) {
      // In the storage type: float32 computes in double (Note [CUDA float32 in double]).
      if constexpr (is_reduced_v<T>) {
        return convert<C>(nextafter_bits(convert<T>(a), convert<T>(b)));
      } else if constexpr (std::is_same_v<T, float>) {
        return static_cast<C>(::nextafterf(static_cast<float>(a), static_cast<float>(b)));
      } else {
        return ::nextafter(a, b);
      }
    } else if constexpr (op == OpId::fmod) {
      if constexpr (std::is_floating_point_v<C>)
        return ::fmod(a, b);
      else
        return int_rem_trunc(a, b);  // the sign of a; b != 0 (checked)
    } else if constexpr (op == OpId::floor_divide) {
      if constexpr (std::is_floating_point_v<C>) {
        return float_div_floor(a, b);
      } else {
        const C q = int_div_trunc(a, b);
        const bool inexact = int_rem_trunc(a, b) != 0;
        return inexact && (is_negative(a) != is_negative(b)) ? static_cast<C>(q - 1) : q;
      }
    } else if constexpr (op == OpId::xlogy) {
      if (is_nan(b)) return b;
      return a == C(0) ? C(0) : a * ::log(b);
    } else if constexpr (op == OpId::logaddexp || op == OpId::logaddexp2) {
      if (::isinf(a) && a == b) return a;
      const C m = is_nan(a) || is_nan(b) ? a + b : ::fmax(a, b);
      if constexpr (op == OpId::logaddexp)
        return m + ::log1p(::exp(-::fabs(a - b)));
      else
        return m + ::log1p(::exp2(-::fabs(a - b))) / C(0.69314718055994530942);  // log1p(1)/ln2 = 1
    } else if constexpr (op == OpId::heaviside) {
      return a == C(0) ? b : static_cast<C>(a > C(0));
    } else if constexpr (op == OpId::clamp_min) {
      return clamp_min(a, b);
    } else if constexpr (op == OpId::clamp_max) {
      return clamp_max(a, b);
    } else {
      static_assert(op != op, "a plain binary op of op_list.def has no branch in BinaryOp");
    }
  }
};

// Note [CUDA integer division by zero]
// As the reference (Note [Integer division by zero]), integer div with a rounding mode and
// remainder by zero throw ZeroDivisionError before anything is written: a kernel scans the
// divisor for zeros and the host reads one flag, which costs a synchronization on those calls.
template <typename T>
__global__ void find_zero_kernel(OffsetCalculator<1, int64_t> calc, const char* p, int64_t n,
                                 int* flag) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    if (*reinterpret_cast<const T*>(p + calc.get(i)[0]) == T(0)) *flag = 1;
  }
}

void check_no_zero_divisor(const KernelCall& c) {
  if (is_floating_type(c.p.compute_dtype)) return;
  DeviceGuard guard(c.outputs[0].device().index());
  const Tensor divisor =
      c.inputs[1].is_cuda() ? c.inputs[1] : to_device(c.inputs[1], c.outputs[0].device());
  const Tensor b = divisor.dtype() == c.p.compute_dtype ? divisor : divisor.to(c.p.compute_dtype);
  TensorIterator iter =
      TensorIteratorConfig().add_output(b).check_mem_overlap(false).resize_outputs(false).build();
  const Tensor flag = zeros({1}, TensorOptions(kInt).device(b.device()));
  TS_DISPATCH_INTEGRAL_TYPES(c.p.compute_dtype, op_info(c.op).name.data(), [&] {
    find_zero_kernel<scalar_t><<<grid_size(iter.numel()), kThreads, 0, stream()>>>(
        OffsetCalculator<1, int64_t>(iter), iter.data_ptr(0), iter.numel(),
        static_cast<int*>(flag.data_ptr()));
    TS_CUDA_KERNEL_LAUNCH_CHECK();
  });
  int found = 0;
  TS_CUDA_CHECK(
      cudaMemcpyAsync(&found, flag.data_ptr(), sizeof(int), cudaMemcpyDeviceToHost, stream()));
  TS_CUDA_CHECK(cudaStreamSynchronize(stream()));
  TS_CHECK(found == 0, op_info(c.op).name, ": ZeroDivisionError");
}

template <OpId op, RoundingMode kMode = RoundingMode::None>
void binary_kernel(const KernelCall& call) {
  if constexpr (op == OpId::remainder || op == OpId::fmod || op == OpId::floor_divide) {
    check_no_zero_divisor(call);
  }
  plain_kernel<op, 2>(call, [](auto type, const KernelCall& c) {
    BinaryOp<op, typename decltype(type)::type, kMode> f;
    if constexpr (op == OpId::add) {
      const Scalar& alpha = c.params<AlphaParams>().alpha;
      f.alpha = scalar_as<typename decltype(f)::C>(c.op == OpId::sub ? -alpha : alpha);
    }
    return f;
  });
}

void div_kernel(const KernelCall& c) {
  switch (c.params<DivParams>().rounding_mode) {
    case RoundingMode::None:
      return binary_kernel<OpId::div>(c);
    case RoundingMode::Trunc:
      check_no_zero_divisor(c);
      return binary_kernel<OpId::div, RoundingMode::Trunc>(c);
    case RoundingMode::Floor:
      check_no_zero_divisor(c);
      return binary_kernel<OpId::div, RoundingMode::Floor>(c);
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_binary) {
  for_each_plain_op<PlainOp::Binary>([&](auto op) { m.impl(op, kCUDA, binary_kernel<op>); });
  m.impl(OpId::add, kCUDA, binary_kernel<OpId::add>);
  m.impl(OpId::sub, kCUDA, binary_kernel<OpId::add>);  // with -alpha
  m.impl(OpId::div, kCUDA, div_kernel);
}

}  // namespace ts::cuda
