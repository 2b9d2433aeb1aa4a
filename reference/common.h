#pragma once
// Helpers for the reference kernels: element offsets from strides, loads and stores through
// double (floating) or int64 (integers), one rounding to the output dtype.
// Note [Reference kernels]
// The reference set is the specification. It loops over the output's multi-index and computes
// each operand's offset from its own strides (broadcast = stride 0). It uses no TensorIterator
// and no shared fast path, so a bug there cannot hide in both sets. Inputs are first rounded to
// the op's compute dtype (as ATen casts operands to the common dtype), the math runs in double
// (or int64), and the result is rounded once to the output dtype.
#include <cstdint>
#include <cstring>

#include "touchstone/dispatch.h"
#include "touchstone/kernel_helpers.h"

namespace ts::reference {

// The element helpers (element_ptr, for_each_index, for_each_element, the loads, stores and
// roundings) are public, in namespace ts: touchstone/kernel_helpers.h. Plug-ins use them too.

// One element of dtype st converted to dtype dt, rounded once (Note [Conversions round once]
// in copy.cpp); copy_, fill_, where and masked_fill use it.
void convert_element(void* dst, ScalarType dt, const void* src, ScalarType st);
// A Scalar stored into an element of dtype dt, converted as convert_element does.
void store_scalar(void* dst, ScalarType dt, const Scalar& s);

// Note [Inline float32 and float64 elements]
// elementwise() below loads, rounds and stores through these: the same values as
// kernel_helpers.h's load_as_double, round_to and store_double, with float32 and float64 inline
// (an exhaustive sweep runs 2^32 elements through one kernel) and other dtypes through those.
inline double load_element(const char* p, ScalarType t, ScalarType c) {
  if (t == kFloat && (c == kFloat || c == kDouble)) {
    float f;
    std::memcpy(&f, p, sizeof f);
    return f;
  }
  if (t == kDouble && c == kDouble) {
    double d;
    std::memcpy(&d, p, sizeof d);
    return d;
  }
  return load_as_double(p, t, c);
}
inline double round_element(ScalarType t, double v) {
  if (t == kDouble) return v;
  if (t == kFloat) return static_cast<float>(v);
  return round_to(t, v);
}
inline void store_element(char* p, ScalarType t, double v) {
  if (t == kFloat) {
    const auto f = static_cast<float>(v);
    std::memcpy(p, &f, sizeof f);
  } else if (t == kDouble) {
    std::memcpy(p, &v, sizeof v);
  } else {
    store_double(p, t, v);
  }
}

// Note [Broadcast scalars load once]
// An operand that is one element broadcast to the output's shape (a wrapped number, x + 1, or a
// Scalar exponent, pow(x, 2)) has the same value at every output element: elementwise() loads
// and rounds it once. An operand in the output's storage is read per element as written, in
// case the loop writes it first.
template <size_t N>
struct Broadcasts {
  bool is_const[N] = {};
  double value[N] = {};  // in the compute dtype
};

inline bool one_element_broadcast(const Tensor& t, const Tensor& out) {
  if (t.storage().get() == out.storage().get()) return false;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] != 1 && t.strides()[d] != 0) return false;
  }
  return true;
}

// elementwise() when the output, the compute dtype and every operand not broadcast from one
// element are T (float or double): the same values as load_element, round_element and
// store_element, with the dtypes known to the loop (stores through char* may alias anything,
// so a dtype read at run time is read per element).
template <typename T, size_t N, typename FD>
void elementwise_same_dtype(const KernelCall& c, FD& fd, const Broadcasts<N>& k) {
  for_each_element<N>(c, [&](char* o, const char* const* in) {
    double v[N];
    for (size_t i = 0; i < N; ++i) {
      if (k.is_const[i]) {
        v[i] = k.value[i];
        continue;
      }
      T x;
      std::memcpy(&x, in[i], sizeof x);
      v[i] = x;
    }
    const auto r = static_cast<T>(fd(v));
    std::memcpy(o, &r, sizeof r);
  });
}

// The common shape of elementwise kernels: `fd` computes in double when the compute dtype is
// floating, `fi` in int64 otherwise (bool compute dtypes use 0/1).
template <size_t N, typename FD, typename FI>
void elementwise(const KernelCall& c, FD&& fd, FI&& fi) {
  const ScalarType ct = c.p.compute_dtype;
  const ScalarType ot = c.outputs[0].dtype();
  ScalarType it[N];
  bool same = ot == ct;
  Broadcasts<N> k;
  for (size_t i = 0; i < N; ++i) {
    it[i] = c.inputs[i].dtype();
    if (is_floating_type(ct) && c.outputs[0].numel() > 1 &&
        one_element_broadcast(c.inputs[i], c.outputs[0])) {
      k.is_const[i] = true;
      k.value[i] = load_element(static_cast<const char*>(c.inputs[i].data_ptr()), it[i], ct);
    }
    same = same && (k.is_const[i] || it[i] == ct);
  }
  if (same && ct == kFloat) return elementwise_same_dtype<float, N>(c, fd, k);
  if (same && ct == kDouble) return elementwise_same_dtype<double, N>(c, fd, k);
  if (is_floating_type(ct)) {
    for_each_element<N>(c, [&](char* o, const char* const* in) {
      double v[N];
      for (size_t i = 0; i < N; ++i)
        v[i] = k.is_const[i] ? k.value[i] : load_element(in[i], it[i], ct);
      store_element(o, ot, round_element(ct, fd(v)));
    });
  } else {
    for_each_element<N>(c, [&](char* o, const char* const* in) {
      int64_t v[N];
      for (size_t i = 0; i < N; ++i) v[i] = load_as_int64(in[i], it[i], ct);
      const auto r = fi(v);
      if constexpr (std::is_same_v<std::decay_t<decltype(r)>, bool>) {
        store_int64(o, ot, r ? 1 : 0);
      } else {
        store_int64(o, ot, ct == kBool ? (r != 0) : wrap_to(ct, r));
      }
    });
  }
}

// Note [Formula tables]
// A plain op's reference kernel is one row of its family's table (reference/unary.cpp,
// binary.cpp): fd computes in double for floating compute dtypes, fi in int64 for integral and
// bool ones; a null formula stands for the compute dtypes the op's meta never gives. A bool
// compute dtype keeps the low bit of fi's result: bool is a one-bit integer (~ is logical not).
template <class Row, size_t K>
constexpr const Row* find_formula(const Row (&table)[K], OpId op) {
  for (const Row& row : table) {
    if (row.op == op) return &row;
  }
  return nullptr;
}

template <size_t N, class FD, class FI>
void formula_kernel(const KernelCall& c, FD fd, FI fi) {
  static_assert(N == 1 || N == 2);
  TS_CHECK(is_floating_type(c.p.compute_dtype) ? fd != nullptr : fi != nullptr, op_info(c.op).name,
           ": reference kernel called with compute dtype ", c.p.compute_dtype);
  const bool is_bool = c.p.compute_dtype == kBool;
  elementwise<N>(
      c,
      [&](const double* v) {
        if constexpr (N == 1) {
          return fd(v[0]);
        } else {
          return fd(v[0], v[1]);
        }
      },
      [&](const int64_t* v) {
        int64_t r;
        if constexpr (N == 1) {
          r = fi(v[0]);
        } else {
          r = fi(v[0], v[1]);
        }
        return is_bool ? (r & 1) : r;
      });
}

}  // namespace ts::reference
