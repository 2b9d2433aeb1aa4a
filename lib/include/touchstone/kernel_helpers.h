#pragma once
// Helpers for writing kernels with plain strided loops: element addresses from strides, an N-d
// index loop, loads and stores of any dtype through double or int64 with one correct rounding,
// and the keepdim view of a reduction's output. The reference kernel set is built on them; a
// plug-in may use them too.
// The kernel contract in brief (docs/kernels.md in full): outputs are allocated with their final
// shape and dtype but any strides; inputs keep their dtypes (compute in p.compute_dtype, the
// lookup key, loading with load_as_double); elementwise inputs are expanded to the output's
// shape (stride 0); Scalars are 0-dim float64/int64/bool inputs; in-place calls pass self as
// outputs[0] and inputs[0]; a reduction's outputs have the result's shape (keepdim_view), with
// indices as outputs[1]; grad mode is off while a recorded call runs. One kernel per (op,
// device, set) covers the dtypes it registers; the rest raise "no kernel" naming op, dtype,
// device and set. The plug-in ABI (TS_PLUGIN_ABI_VERSION) changes with KernelCall, Tensor,
// OpParams or op_list.def.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "touchstone/dispatch.h"

namespace ts {

// Pointer to the element at multi-index `idx` (`idx.size() == t.dim()`).
inline char* element_ptr(const Tensor& t, IntArrayRef idx) {
  int64_t off = 0;
  for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.strides()[d];
  return static_cast<char*>(t.data_ptr()) + off * static_cast<int64_t>(t.element_size());
}

// Calls f(idx) for every multi-index of `shape`, in row-major order (once for a 0-dim shape,
// never for an empty one).
template <typename F>
void for_each_index(IntArrayRef shape, F&& f) {
  for (int64_t s : shape) {
    if (s == 0) return;
  }
  DimVector idx(shape.size(), 0);
  while (true) {
    f(IntArrayRef(idx));
    int64_t d = static_cast<int64_t>(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// Loads of one element as double / int64 / bool, whatever its dtype (exact, but an int64 beyond
// 2^53 as double rounds to nearest).
double load_double(const void* p, ScalarType t);
int64_t load_int64(const void* p, ScalarType t);
inline bool load_bool(const void* p, ScalarType t) {
  return is_floating_type(t) ? load_double(p, t) != 0 : load_int64(p, t) != 0;
}

// `v` rounded (once, to nearest even) to dtype t's precision, returned as double.
double round_to(ScalarType t, double v);
// `v` wrapped to integer dtype t (two's complement), returned as int64.
int64_t wrap_to(ScalarType t, int64_t v);

// Stores `v` into an element of dtype t: rounded once for floating types, truncated toward
// zero then wrapped for integers (out-of-range is implementation-defined in PyTorch too),
// v != 0 for bool.
void store_double(void* p, ScalarType t, double v);
void store_int64(void* p, ScalarType t, int64_t v);

// An int64 with its magnitude truncated to 53 significant bits, the last set if anything was
// dropped, so that one more rounding to float32 or narrower is exact (Note [Round to odd]).
double int64_to_double_round_odd(int64_t v);

// A load already converted to the compute dtype `c` (KernelCall::p.compute_dtype), as ATen casts
// operands to the common dtype before computing.
inline double load_as_double(const void* p, ScalarType t, ScalarType c) {
  if (!is_floating_type(t) && c != kDouble)
    return round_to(c, int64_to_double_round_odd(load_int64(p, t)));
  return round_to(c, load_double(p, t));
}
inline int64_t load_as_int64(const void* p, ScalarType t, ScalarType c) {
  return c == kBool ? static_cast<int64_t>(load_bool(p, t)) : wrap_to(c, load_int64(p, t));
}

// Runs f(out_ptr, in_ptrs) over every element of an elementwise call: the inputs already have
// the output's shape (broadcast inputs have stride 0); each operand keeps its own strides.
// The outer dims go as for_each_index's odometer; the innermost by pointer steps (strides in
// bytes, read once), so that an element costs f and N + 1 additions.
template <size_t N, typename F>
void for_each_element(const KernelCall& c, F&& f) {
  const Tensor& out = c.outputs[0];
  // An empty innermost dim leaves the outer ones to count: [7, 8, 2^40, 0] ran 2^40 empty rows.
  if (out.numel() == 0) return;
  const IntArrayRef shape = out.sizes();
  const size_t nd = shape.size();
  char* base[N + 1];  // operand 0 the output, 1..N the inputs
  DimVector step[N + 1];
  int64_t inner_step[N + 1];
  for (size_t k = 0; k <= N; ++k) {
    const Tensor& t = k == 0 ? out : c.inputs[k - 1];
    base[k] = static_cast<char*>(t.data_ptr());
    const auto size = static_cast<int64_t>(t.element_size());
    for (size_t d = 0; d < nd; ++d) step[k].push_back(t.strides()[d] * size);
    inner_step[k] = nd == 0 ? 0 : step[k][nd - 1];
  }
  const int64_t inner = nd == 0 ? 1 : shape[nd - 1];
  for_each_index(shape.slice(0, nd == 0 ? 0 : nd - 1), [&](IntArrayRef idx) {
    char* p[N + 1];
    for (size_t k = 0; k <= N; ++k) {
      p[k] = base[k];
      for (size_t d = 0; d < idx.size(); ++d) p[k] += idx[d] * step[k][d];
    }
    for (int64_t i = 0; i < inner; ++i) {
      const char* in[N];
      for (size_t k = 0; k < N; ++k) in[k] = p[k + 1];
      f(p[0], in);
      for (size_t k = 0; k <= N; ++k) p[k] += inner_step[k];
    }
  });
}

// A reduction's output `o` with the input's rank: size 1 and stride 0 at each reduced dim (the
// output itself when the op kept its dims), so that output index `idx` reduces the input
// elements agreeing with `idx` outside the reduced dims.
inline Tensor keepdim_view(const KernelCall& c, size_t o) {
  const Tensor& out = c.outputs[o];
  const ReduceParams& r = reduce_params(c.p);
  const IntArrayRef dims = r.dims;
  if (r.keepdim || dims.empty()) return out;
  DimVector sizes, strides;
  size_t j = 0;
  for (int64_t d = 0; d < c.inputs[0].dim(); ++d) {
    if (std::find(dims.begin(), dims.end(), d) != dims.end()) {
      sizes.push_back(1);
      strides.push_back(0);
    } else {
      sizes.push_back(out.sizes()[j]);
      strides.push_back(out.strides()[j]);
      ++j;
    }
  }
  return make_view(out, sizes, strides, out.storage_offset());
}

// Calls f(in_ptr, k) for every input element reducing into output index `idx` (keepdim shape),
// in row-major order of the reduced dims; k counts them from 0.
template <typename F>
void for_each_reduced(const Tensor& in, IntArrayRef idx, IntArrayRef dims, F&& f) {
  const char* base = element_ptr(in, idx);  // reduced dims of idx are 0
  DimVector rsizes;
  for (int64_t d : dims) rsizes.push_back(in.sizes()[d]);
  const int64_t esize = static_cast<int64_t>(in.element_size());
  int64_t k = 0;
  for_each_index(rsizes, [&](IntArrayRef r) {
    int64_t off = 0;
    for (size_t j = 0; j < r.size(); ++j) off += r[j] * in.strides()[dims[j]];
    f(base + off * esize, k++);
  });
}

}  // namespace ts
