// Reference kernels for linear algebra. See Note [Reference kernels] in common.h.
// Products accumulate in double (floating) or wrapping int64 (integers) and round once.
#include <vector>

#include "common.h"

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

template <typename M>
void mm_impl(const KernelCall& c) {
  std::vector<typename M::T> values;
  for_each_index(c.outputs[0].sizes(), [&](IntArrayRef idx) {
    values.push_back(dot_row_col<M>(c, c.inputs[0], c.inputs[1], false, 0, idx[0], idx[1]));
  });
  store_all<M>(c, values);
}

template <typename M>
void bmm_impl(const KernelCall& c) {
  std::vector<typename M::T> values;
  for_each_index(c.outputs[0].sizes(), [&](IntArrayRef idx) {
    values.push_back(dot_row_col<M>(c, c.inputs[0], c.inputs[1], true, idx[0], idx[1], idx[2]));
  });
  store_all<M>(c, values);
}

// beta * self + alpha * (mat1 @ mat2); with beta == 0, self is not read (NaN does not spread).
template <typename M>
void addmm_impl(const KernelCall& c) {
  const Tensor& self = c.inputs[0];
  const typename M::T beta = M::scalar(*c.p.s0), alpha = M::scalar(*c.p.s1);
  std::vector<typename M::T> values;
  for_each_index(c.outputs[0].sizes(), [&](IntArrayRef idx) {
    typename M::T v =
        M::mul(alpha, dot_row_col<M>(c, c.inputs[1], c.inputs[2], false, 0, idx[0], idx[1]));
    if (beta != 0) {
      v = M::add(v, M::mul(beta, M::load(element_ptr(self, idx), self.dtype(), c.p.compute_dtype)));
    }
    values.push_back(v);
  });
  store_all<M>(c, values);
}

template <typename M>
void dot_impl(const KernelCall& c) {
  const Tensor &a = c.inputs[0], &b = c.inputs[1];
  typename M::T acc = 0;
  for (int64_t i = 0; i < a.size(0); ++i) {
    acc = M::add(acc, M::mul(M::load(element_ptr(a, {i}), a.dtype(), c.p.compute_dtype),
                             M::load(element_ptr(b, {i}), b.dtype(), c.p.compute_dtype)));
  }
  store_all<M>(c, {acc});
}

template <typename M>
void mv_impl(const KernelCall& c) {
  const Tensor &mat = c.inputs[0], &vec = c.inputs[1];
  const ScalarType ct = c.p.compute_dtype;
  std::vector<typename M::T> values;
  for (int64_t i = 0; i < mat.size(0); ++i) {
    typename M::T acc = 0;
    for (int64_t j = 0; j < mat.size(1); ++j) {
      acc = M::add(acc, M::mul(M::load(element_ptr(mat, {i, j}), mat.dtype(), ct),
                               M::load(element_ptr(vec, {j}), vec.dtype(), ct)));
    }
    values.push_back(acc);
  }
  store_all<M>(c, values);
}

template <typename M>
void outer_impl(const KernelCall& c) {
  const Tensor &a = c.inputs[0], &b = c.inputs[1];
  const ScalarType ct = c.p.compute_dtype;
  std::vector<typename M::T> values;
  for_each_index(c.outputs[0].sizes(), [&](IntArrayRef idx) {
    values.push_back(M::mul(M::load(element_ptr(a, {idx[0]}), a.dtype(), ct),
                            M::load(element_ptr(b, {idx[1]}), b.dtype(), ct)));
  });
  store_all<M>(c, values);
}

// Picks the double or int64 version by the compute dtype.
#define TS_FLOAT_OR_INT(name)                                                  \
  void name##_kernel(const KernelCall& c) {                                    \
    if (is_floating_type(c.p.compute_dtype)) return name##_impl<FloatMath>(c); \
    return name##_impl<IntMath>(c);                                            \
  }
TS_FLOAT_OR_INT(mm)
TS_FLOAT_OR_INT(bmm)
TS_FLOAT_OR_INT(addmm)
TS_FLOAT_OR_INT(dot)
TS_FLOAT_OR_INT(mv)
TS_FLOAT_OR_INT(outer)
#undef TS_FLOAT_OR_INT

}  // namespace

TS_REGISTER_KERNELS(reference, linalg) {
  // PyTorch's CPU gemm/dot/gemv take every dtype but bool; outer is a mul and takes bool too.
  const DTypeSet no_bool = DTypeSet::all() - DTypeSet{kBool};
  m.impl(OpId::mm, kCPU, no_bool, mm_kernel);
  m.impl(OpId::bmm, kCPU, no_bool, bmm_kernel);
  m.impl(OpId::addmm, kCPU, no_bool, addmm_kernel);
  m.impl(OpId::dot, kCPU, no_bool, dot_kernel);
  m.impl(OpId::mv, kCPU, no_bool, mv_kernel);
  m.impl(OpId::outer, kCPU, DTypeSet::all(), outer_kernel);
}

}  // namespace ts::reference
