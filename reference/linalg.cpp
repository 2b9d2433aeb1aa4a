// Reference kernels for linear algebra. See Note [Reference kernels] in common.h.
// Products accumulate in double (floating) or wrapping int64 (integers) and round once.
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

// Arithmetic in double, rounded once to the compute dtype, then stored to the output's dtype.
struct FloatMath {
  using T = double;
  static T load(const void* p, ScalarType t, ScalarType ct) { return load_as_double(p, t, ct); }
  static T add(T a, T b) { return a + b; }
  static T mul(T a, T b) { return a * b; }
  static T scalar(const Scalar& s) { return s.to_double(); }
  static void store(void* p, ScalarType t, ScalarType ct, T v) {
    store_double(p, t, round_to(ct, v));
  }
};

// Arithmetic in int64 that wraps (through uint64: no signed overflow), then wrapped to the
// compute dtype; a bool compute dtype (outer) uses 0/1 and stores v != 0.
struct IntMath {
  using T = int64_t;
  static T load(const void* p, ScalarType t, ScalarType ct) { return load_as_int64(p, t, ct); }
  static T add(T a, T b) {
    return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  }
  static T mul(T a, T b) {
    return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  }
  static T scalar(const Scalar& s) { return s.to_long(); }
  static void store(void* p, ScalarType t, ScalarType ct, T v) {
    store_int64(p, t, ct == kBool ? (v != 0) : wrap_to(ct, v));
  }
};

// Note [Compute, then store]
// Every kernel computes all of its results before writing any: an out= tensor may be the very
// tensor an input reads (full overlap is allowed), and must not see half-written values.
template <typename M>
void store_all(const KernelCall& c, const std::vector<typename M::T>& values) {
  const Tensor& out = c.outputs[0];
  size_t n = 0;
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    M::store(element_ptr(out, idx), out.dtype(), c.p.compute_dtype, values[n++]);
  });
}

// sum over l of a[i, l] * b[l, j] (with a leading batch index `bi` when `batched`).
template <typename M>
typename M::T dot_row_col(const KernelCall& c, const Tensor& a, const Tensor& b, bool batched,
                          int64_t bi, int64_t i, int64_t j) {
  const ScalarType ct = c.p.compute_dtype;
  const int64_t k = a.size(-1);
  typename M::T acc = 0;
  for (int64_t l = 0; l < k; ++l) {
    const char* pa = batched ? element_ptr(a, {bi, i, l}) : element_ptr(a, {i, l});
    const char* pb = batched ? element_ptr(b, {bi, l, j}) : element_ptr(b, {l, j});
    acc = M::add(acc, M::mul(M::load(pa, a.dtype(), ct), M::load(pb, b.dtype(), ct)));
  }
  return acc;
}

// The results of `op` in the output's row-major order, in M's arithmetic: one branch per Kernel
// op of signature class Matmul (Note [Kernel families]).
template <OpId op, typename M>
std::vector<typename M::T> results(const KernelCall& c) {
  using T = typename M::T;
  const ScalarType ct = c.p.compute_dtype;
  const Tensor &a = c.inputs[0], &b = c.inputs[1];
  auto load = [&](const Tensor& t, IntArrayRef idx) {
    return M::load(element_ptr(t, idx), t.dtype(), ct);
  };
  std::vector<T> values;
  if constexpr (op == OpId::mm) {
    for_each_index(c.outputs[0].sizes(), [&](IntArrayRef idx) {
      values.push_back(dot_row_col<M>(c, a, b, false, 0, idx[0], idx[1]));
    });
  } else if constexpr (op == OpId::bmm) {
    for_each_index(c.outputs[0].sizes(), [&](IntArrayRef idx) {
      values.push_back(dot_row_col<M>(c, a, b, true, idx[0], idx[1], idx[2]));
    });
  } else if constexpr (op == OpId::addmm) {
    // beta * self + alpha * (mat1 @ mat2); with beta == 0, self is not read (NaN does not spread).
    const AddmmParams& s = c.params<AddmmParams>();
    const T beta = M::scalar(s.beta), alpha = M::scalar(s.alpha);
    for_each_index(c.outputs[0].sizes(), [&](IntArrayRef idx) {
      T v = M::mul(alpha, dot_row_col<M>(c, b, c.inputs[2], false, 0, idx[0], idx[1]));
      if (beta != 0) v = M::add(v, M::mul(beta, load(a, idx)));
      values.push_back(v);
    });
  } else if constexpr (op == OpId::dot) {
    T acc = 0;
    for (int64_t i = 0; i < a.size(0); ++i) acc = M::add(acc, M::mul(load(a, {i}), load(b, {i})));
    values.push_back(acc);
  } else if constexpr (op == OpId::mv) {
    for (int64_t i = 0; i < a.size(0); ++i) {
      T acc = 0;
      for (int64_t j = 0; j < a.size(1); ++j) {
        acc = M::add(acc, M::mul(load(a, {i, j}), load(b, {j})));
      }
      values.push_back(acc);
    }
  } else if constexpr (op == OpId::outer) {
    for_each_index(c.outputs[0].sizes(), [&](IntArrayRef idx) {
      values.push_back(M::mul(load(a, {idx[0]}), load(b, {idx[1]})));
    });
  } else {
    static_assert(kMissingKernel<op>, "reference linalg: a Matmul op without its branch");
  }
  return values;
}

// Picks the double or int64 arithmetic by the compute dtype.
template <OpId op>
void kernel(const KernelCall& c) {
  if (is_floating_type(c.p.compute_dtype))
    return store_all<FloatMath>(c, results<op, FloatMath>(c));
  store_all<IntMath>(c, results<op, IntMath>(c));
}

}  // namespace

// The dtypes are op_list.def's: PyTorch's CPU gemm/dot/gemv take every dtype but bool; outer is a
// mul and takes bool too.
TS_REGISTER_KERNELS(reference, linalg) {
  for_each_kernel_op<OpSignature::Matmul>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
