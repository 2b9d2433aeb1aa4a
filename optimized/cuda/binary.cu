// CUDA kernels for binary elementwise ops: arithmetic (add, sub, mul, div in every rounding
// mode, remainder, pow, atan2), maximum/minimum, comparisons, logical and bitwise ops. The
// formulas follow reference/binary.cpp; float16/bfloat16 compute in float32.
#include "optimized/cuda/loops.cuh"
#include "optimized/cuda/math.cuh"

namespace ts::cuda {
namespace {

enum class B { add, mul, div_true, div_trunc, div_floor, remainder, pow, atan2, maximum, minimum };

// T is the storage type (for div_trunc's rounding of the quotient), C the compute type.
template <B op, typename T>
struct BinaryOp {
  using C = compute_t<T>;
  C alpha = C(1);  // add and sub (sub is add with -alpha)
  __device__ C operator()(C a, C b) const {
    if constexpr (op == B::add) {
      if constexpr (std::is_floating_point_v<C>) {
        return a + alpha * b;
      } else if constexpr (std::is_same_v<C, bool>) {
        return a || (alpha && b);
      } else {
        return static_cast<C>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(alpha) * static_cast<uint64_t>(b));
      }
    } else if constexpr (op == B::mul) {
      if constexpr (std::is_floating_point_v<C>)
        return a * b;
      else if constexpr (std::is_same_v<C, bool>)
        return a && b;
      else
        return static_cast<C>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    } else if constexpr (op == B::maximum || op == B::minimum) {
      if (is_nan(a) || is_nan(b)) return is_nan(a) ? a : b;
      return (op == B::maximum) == (a > b) ? a : b;
    } else if constexpr (std::is_floating_point_v<C>) {
      if constexpr (op == B::div_true) {
        return a / b;
      } else if constexpr (op == B::div_trunc) {
        // trunc of the quotient as rounded to the storage dtype, as ATen's trunc(a / b).
        return ::trunc(convert<C>(convert<T>(a / b)));
      } else if constexpr (op == B::div_floor) {
        return float_div_floor(a, b);
      } else if constexpr (op == B::remainder) {
        const C mod = ::fmod(a, b);
        return mod != C(0) && (b < C(0)) != (mod < C(0)) ? mod + b : mod;
      } else if constexpr (op == B::pow) {
        return ::pow(a, b);
      } else {
        static_assert(op == B::atan2);
        return ::atan2(a, b);
      }
    } else {
      if constexpr (op == B::div_trunc || op == B::div_true) {
        return int_div_trunc(a, b);
      } else if constexpr (op == B::div_floor) {
        const C q = int_div_trunc(a, b);
        const bool inexact = int_rem_trunc(a, b) != 0;
        return inexact && (is_negative(a) != is_negative(b)) ? static_cast<C>(q - 1) : q;
      } else if constexpr (op == B::remainder) {
        const C r = int_rem_trunc(a, b);
        return r != 0 && is_negative(r) != is_negative(b) ? static_cast<C>(r + b) : r;
      } else if constexpr (op == B::pow) {
        return int_pow(a, b);
      } else {
        return C(0);  // atan2 has no integral kernel (the meta computes integers in float)
      }
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

template <B op>
void arith_kernel(const KernelCall& c, bool negate_alpha = false) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_ALL(iter.common_dtype(), op_info(c.op).name.data(), [&] {
    BinaryOp<op, scalar_t> f;
    if constexpr (op == B::add) {
      f.alpha = scalar_as<compute_t<scalar_t>>(negate_alpha ? -*c.p.s0 : *c.p.s0);
    }
    if constexpr (std::is_same_v<scalar_t, bool> && op != B::add && op != B::mul &&
                  op != B::maximum && op != B::minimum) {
      TS_ERROR(op_info(c.op).name, ": CUDA kernel called with dtype bool");
    } else {
      gpu_kernel<2, scalar_t, scalar_t>(iter, f);
    }
  });
  iter.cast_outputs();
}

void add_kernel(const KernelCall& c) {
  arith_kernel<B::add>(c);
}
void sub_kernel(const KernelCall& c) {
  arith_kernel<B::add>(c, /*negate_alpha=*/true);
}
void mul_kernel(const KernelCall& c) {
  arith_kernel<B::mul>(c);
}
void div_kernel(const KernelCall& c) {
  // mode 0: true division; 1: rounded toward zero; 2: toward -inf.
  if (c.p.mode != 0) check_no_zero_divisor(c);
  if (c.p.mode == 0) {
    arith_kernel<B::div_true>(c);
  } else if (c.p.mode == 1) {
    arith_kernel<B::div_trunc>(c);
  } else {
    arith_kernel<B::div_floor>(c);
  }
}
void remainder_kernel(const KernelCall& c) {
  check_no_zero_divisor(c);
  arith_kernel<B::remainder>(c);
}
void pow_kernel(const KernelCall& c) {
  arith_kernel<B::pow>(c);
}
void atan2_kernel(const KernelCall& c) {
  arith_kernel<B::atan2>(c);
}
void maximum_kernel(const KernelCall& c) {
  arith_kernel<B::maximum>(c);
}
void minimum_kernel(const KernelCall& c) {
  arith_kernel<B::minimum>(c);
}

enum class Cmp { eq, ne, lt, le, gt, ge, logical_and, logical_or };

template <Cmp op>
struct CompareOp {
  template <typename C>
  __device__ bool operator()(C a, C b) const {
    if constexpr (op == Cmp::eq)
      return a == b;
    else if constexpr (op == Cmp::ne)
      return a != b;
    else if constexpr (op == Cmp::lt)
      return a < b;
    else if constexpr (op == Cmp::le)
      return a <= b;
    else if constexpr (op == Cmp::gt)
      return a > b;
    else if constexpr (op == Cmp::ge)
      return a >= b;
    else if constexpr (op == Cmp::logical_and)
      return a != C(0) && b != C(0);
    else
      return a != C(0) || b != C(0);
  }
};

template <Cmp op>
void compare_kernel(const KernelCall& call) {
  with_bool_output(call, [](const KernelCall& c) {
    DeviceGuard guard(c.outputs[0].device().index());
    TensorIterator iter = elementwise_iter(c, /*cast_output=*/false);
    TS_CUDA_DISPATCH_ALL(iter.common_dtype(), op_info(c.op).name.data(),
                         [&] { gpu_kernel<2, bool, scalar_t>(iter, CompareOp<op>{}); });
  });
}

enum class Bit { and_, or_, xor_ };

template <Bit op>
struct BitwiseOp {
  template <typename C>
  __device__ C operator()(C a, C b) const {
    if constexpr (op == Bit::and_)
      return static_cast<C>(a & b);
    else if constexpr (op == Bit::or_)
      return static_cast<C>(a | b);
    else
      return static_cast<C>(a ^ b);
  }
};

template <Bit op>
void bitwise_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_INTEGRAL_AND_BOOL(iter.common_dtype(), op_info(c.op).name.data(), [&] {
    gpu_kernel<2, scalar_t, scalar_t>(iter, BitwiseOp<op>{});
  });
  iter.cast_outputs();
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_binary) {
  const DTypeSet all = DTypeSet::all();
  const DTypeSet no_bool = all - DTypeSet{kBool};
  const DTypeSet integral_and_bool = DTypeSet::integral(true);
  m.impl(OpId::add, kCUDA, all, add_kernel);
  m.impl(OpId::sub, kCUDA, no_bool, sub_kernel);
  m.impl(OpId::mul, kCUDA, all, mul_kernel);
  m.impl(OpId::div, kCUDA, no_bool, div_kernel);
  m.impl(OpId::remainder, kCUDA, no_bool, remainder_kernel);
  m.impl(OpId::pow, kCUDA, no_bool, pow_kernel);
  m.impl(OpId::atan2, kCUDA, DTypeSet::floating(), atan2_kernel);
  m.impl(OpId::maximum, kCUDA, all, maximum_kernel);
  m.impl(OpId::minimum, kCUDA, all, minimum_kernel);
  m.impl(OpId::eq, kCUDA, all, compare_kernel<Cmp::eq>);
  m.impl(OpId::ne, kCUDA, all, compare_kernel<Cmp::ne>);
  m.impl(OpId::lt, kCUDA, all, compare_kernel<Cmp::lt>);
  m.impl(OpId::le, kCUDA, all, compare_kernel<Cmp::le>);
  m.impl(OpId::gt, kCUDA, all, compare_kernel<Cmp::gt>);
  m.impl(OpId::ge, kCUDA, all, compare_kernel<Cmp::ge>);
  m.impl(OpId::logical_and, kCUDA, all, compare_kernel<Cmp::logical_and>);
  m.impl(OpId::logical_or, kCUDA, all, compare_kernel<Cmp::logical_or>);
  m.impl(OpId::bitwise_and, kCUDA, integral_and_bool, bitwise_kernel<Bit::and_>);
  m.impl(OpId::bitwise_or, kCUDA, integral_and_bool, bitwise_kernel<Bit::or_>);
  m.impl(OpId::bitwise_xor, kCUDA, integral_and_bool, bitwise_kernel<Bit::xor_>);
}

}  // namespace ts::cuda
