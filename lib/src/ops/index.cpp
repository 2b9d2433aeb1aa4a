// Indexing and joining: index_select, gather, scatter_add, cat (kernels) and stack (composite).
// KernelCall and params, per op (compute_dtype is always the result's dtype); every op carries
// DimParams{dim}, the wrapped dim:
//   index_select: inputs {self, index}; dim is 0 for a 0-dim self.
//   gather:       inputs {self, index}.
//   scatter_add:  inputs {self, index, src}. The output starts as self.
//   cat:          inputs = the tensors that take part, in order (legacy empty 1-D tensors of
//                 size [0] are left out); dim is 0 when none does.
// Index values are checked here (see Note [Index bounds]), so kernels may trust them.
#include <algorithm>
#include <limits>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../autograd/derivatives.h"
#include "../size_math.h"
#include "index_checks.h"
#include "meta.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ts {
namespace {

using meta::Variant;

using meta::check_index_values;
using meta::check_no_overlap;

// Everything between the checks and the kernel: dtype, kernel lookup, output, overlap, call
// with the wrapped `dim`. For InPlace the output is inputs[0]. `no_overlap` lists inputs the
// output may not touch, as (its index among the op's Tensor arguments, tensor).
Tensor run(OpId op, Variant v, const Tensor& out, IntArrayRef shape, ScalarType dtype,
           Device device, TensorList inputs, ArrayRef<std::pair<size_t, Tensor>> no_overlap,
           int64_t dim) {
  const char* op_name = meta::op_name(op, v);
  const UserOpScope scope(op_name);
  OpParams p;
  p.compute_dtype = dtype;
  p.set(DimParams{dim});
  if (v == Variant::Out) {
    if (op == OpId::gather || op == OpId::scatter_add) {
      // ATen's gather/scatter_add out= must have self's dtype: "Expected out tensor to have dtype
      // float, but got double instead" (index_select checks its own, cat/stack cast).
      meta::check_defined(op_name, out, "out");
      TS_CHECK(out.dtype() == dtype, op_name, ": Expected out tensor to have dtype ", dtype,
               ", but got ", out.dtype(), " instead (argument 'out')");
    }
    meta::check_out(op_name, out, shape, dtype);
    for (const auto& [i, in] : no_overlap) {
      check_no_overlap(op_name, out, in, "out", meta::arg_name(op, i));
    }
    meta::check_out_no_grad(op, ArrayRef<Tensor>(&out, 1), inputs);  // before resizing
  } else if (v == Variant::InPlace) {
    meta::check_no_internal_overlap(op_name, inputs[0], "self");
    for (const auto& [i, in] : no_overlap) {
      check_no_overlap(op_name, inputs[0], in, "self", meta::arg_name(op, i));
    }
  }
  const KernelFn fn = lookup_kernel(op, dtype, device);  // before anything is written
  const Tensor result = v == Variant::InPlace
                            ? inputs[0]
                            : meta::prepare_output(op, v, out, shape, dtype, device, inputs);
  run_kernel(fn, KernelCall{op, ArrayRef<Tensor>(&result, 1), inputs, p, v});
  return result;
}

// Sizes as ATen's ensure_nonempty_*: a 0-dim tensor counts as 1-D of size 1.
int64_t nonempty_dim(const Tensor& t) {
  return t.dim() == 0 ? 1 : t.dim();
}
int64_t nonempty_size(const Tensor& t, int64_t d) {
  return t.dim() == 0 ? 1 : t.sizes()[d];
}

Tensor index_select_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                         const Tensor& index) {
  meta::check_defined("index_select", self, "self");
  meta::check_defined("index_select", index, "index");
  dim = wrap_dim(dim, self.dim(), "index_select");
  TS_CHECK(index.dim() <= 1, "index_select: Index is supposed to be a vector");
  TS_CHECK(index.dtype() == kLong || index.dtype() == kInt,
           "index_select: Expected dtype int32 or int64 for index");
  // ATen's index_select_out_cpu_ requires out= of self's dtype, whatever it can be cast to.
  TS_CHECK(v != Variant::Out || !out.defined() || out.dtype() == self.dtype(),
           "index_select: self and result must have the same scalar type (argument 'out')");
  const int64_t n = index.numel();
  TS_CHECK(self.dim() > 0 || n == 1, "index_select: Index to scalar can have only 1 value, got ", n,
           " value(s)");
  const Tensor inputs[] = {self, index};
  const Device device = meta::common_device("index_select", inputs, OpId::index_select);
  const int64_t size = nonempty_size(self, dim);
  check_index_values(index, [&](int64_t i) {
    TS_CHECK(i >= 0 && i < size, "index_select: index ", i, " out of range in self (size ", size,
             " at dimension ", dim, ")");
  });
  DimVector shape(self.sizes());
  if (self.dim() > 0) shape[dim] = n;
  const std::pair<size_t, Tensor> no_overlap[] = {{0, self}, {1, index}};
  return run(OpId::index_select, v, out, shape, self.dtype(), device, inputs, no_overlap, dim);
}

Tensor gather_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                   const Tensor& index) {
  meta::check_defined("gather", self, "self");
  meta::check_defined("gather", index, "index");
  dim = wrap_dim(dim, self.dim(), "gather");
  TS_CHECK(index.dtype() == kLong, "gather: Expected dtype int64 for index");
  if (index.numel() != 0) {  // as ATen, an empty index skips the shape checks
    TS_CHECK(nonempty_dim(self) == nonempty_dim(index),
             "gather: Index tensor must have the same number of dimensions as input tensor");
    for (int64_t d = 0; d < nonempty_dim(self); ++d) {
      TS_CHECK(d == dim || nonempty_size(index, d) <= nonempty_size(self, d),
               "gather: Size does not match at dimension ", d, " expected index ", index.sizes(),
               " to be no larger than self ", self.sizes(), " apart from dimension ", dim);
    }
  }
  const Tensor inputs[] = {self, index};
  const Device device = meta::common_device("gather", inputs, OpId::gather);
  const int64_t size = nonempty_size(self, dim);
  check_index_values(index, [&](int64_t i) {
    TS_CHECK(i >= 0 && i < size, "gather: index ", i, " is out of bounds for dimension ", dim,
             " with size ", size);
  });
  const std::pair<size_t, Tensor> no_overlap[] = {{0, self}, {1, index}};
  return run(OpId::gather, v, out, index.sizes(), self.dtype(), device, inputs, no_overlap, dim);
}

Tensor scatter_add_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                        const Tensor& index, const Tensor& src) {
  const char* op = meta::op_name(OpId::scatter_add, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, index, "index");
  meta::check_defined(op, src, "src");
  dim = wrap_dim(dim, self.dim(), op);
  TS_CHECK(index.dtype() == kLong, op, ": Expected dtype int64 for index");
  TS_CHECK(self.dtype() == src.dtype(), op, ": Expected self.dtype to be equal to src.dtype");
  if (index.numel() != 0) {  // as ATen, an empty index skips the shape checks
    TS_CHECK(nonempty_dim(self) == nonempty_dim(index), op,
             ": Index tensor must have the same number of dimensions as self tensor");
    TS_CHECK(nonempty_dim(src) == nonempty_dim(index), op,
             ": Index tensor must have the same number of dimensions as src tensor");
    for (int64_t d = 0; d < nonempty_dim(self); ++d) {
      const int64_t is = nonempty_size(index, d);
      TS_CHECK((d == dim || is <= nonempty_size(self, d)) && is <= nonempty_size(src, d), op,
               ": Expected index ", index.sizes(), " to be smaller than self ", self.sizes(),
               " apart from dimension ", dim, " and to be smaller size than src ", src.sizes());
    }
  }
  const Tensor inputs[] = {self, index, src};
  const Device device = meta::common_device(op, inputs, OpId::scatter_add);
  const int64_t size = nonempty_size(self, dim);
  check_index_values(index, [&](int64_t i) {
    TS_CHECK(i >= 0 && i < size, op, ": index ", i, " is out of bounds for dimension ", dim,
             " with size ", size);
  });
  // The output may be self itself, never index or src.
  const std::pair<size_t, Tensor> no_overlap[] = {{1, index}, {2, src}};
  return run(OpId::scatter_add, v, out, self.sizes(), self.dtype(), device, inputs, no_overlap,
             dim);
}

// ATen's should_skip: legacy code passes 1-D tensors of size [0] as "nothing" to cat.
bool is_legacy_empty(const Tensor& t) {
  return t.dim() == 1 && t.size(0) == 0;
}

Tensor cat_impl(Variant v, const Tensor& out, TensorList tensors, int64_t dim) {
  const char* op = "cat";
  TS_CHECK(!tensors.empty(), op, ": expected a non-empty list of Tensors (argument 'tensors')");
  for (size_t i = 0; i < tensors.size(); ++i) {
    TS_CHECK(tensors[i].defined(), op, ": expected a defined tensor at position ", i,
             " of tensors");
    TS_CHECK(tensors[i].dim() > 0, op, ": zero-dimensional tensor (at position ", i,
             " of tensors) cannot be concatenated");
  }
  // The first tensor that takes part sets the rank and the sizes off `dim`.
  size_t ref = tensors.size();
  for (size_t i = 0; i < tensors.size() && ref == tensors.size(); ++i) {
    if (!is_legacy_empty(tensors[i])) ref = i;
  }
  SmallVector<Tensor, 4> inputs;
  DimVector shape;
  if (ref == tensors.size()) {  // all legacy empty: the result is one too
    shape.push_back(0);
    dim = 0;
  } else {
    const Tensor& first = tensors[ref];
    dim = wrap_dim(dim, first.dim(), "cat");
    shape = DimVector(first.sizes());
    shape[dim] = 0;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const Tensor& t = tensors[i];
      if (is_legacy_empty(t)) continue;
      TS_CHECK(t.dim() == first.dim(), op, ": Tensors must have same number of dimensions: got ",
               first.dim(), " and ", t.dim(), " (tensor number ", i, " in tensors)");
      for (int64_t d = 0; d < t.dim(); ++d) {
        TS_CHECK(d == dim || t.sizes()[d] == first.sizes()[d], op,
                 ": Sizes of tensors must match except in dimension ", dim, ". Expected size ",
                 first.sizes()[d], " but got size ", t.sizes()[d], " for tensor number ", i,
                 " in the list.");
      }
      const auto total = detail::checked_add(shape[dim], t.sizes()[dim]);
      TS_CHECK(total.has_value(), op, ": the size of the result along dim ", dim,
               " overflows int64 (argument 'tensors')");
      shape[dim] = *total;
      inputs.push_back(t);
    }
  }
  const ScalarType dtype = result_type(tensors);
  const Device device = meta::common_device(op, tensors, OpId::cat);
  std::vector<std::pair<size_t, Tensor>> no_overlap;
  for (const Tensor& t : tensors) no_overlap.emplace_back(0, t);
  return run(OpId::cat, v, out, shape, dtype, device, inputs, no_overlap, dim);
}

}  // namespace

namespace meta {
namespace {
// First and one-past-last byte a tensor's elements can touch.
std::pair<const char*, const char*> byte_range(const Tensor& t) {
  const char* p = static_cast<const char*>(t.data_ptr());
  int64_t lo = 0, hi = 0;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t span = (t.sizes()[d] - 1) * t.strides()[d];
    (span < 0 ? lo : hi) += span;
  }
  const int64_t es = static_cast<int64_t>(t.element_size());
  return {p + lo * es, p + (hi + 1) * es};
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Note [Index extremes in AVX2]
// SSE2, this file's baseline, has no 64-bit integer compare, so int64 extremes were scalar
// compare-and-moves: 16 M indices took about 10 ms at 1 thread, a quarter of a scatter_reduce
// call of 4096 x 4096 on the EPYC VM. With AVX2 (checked at run time) four lanes compare and
// blend at once: under perf, the check's samples against scatter_reduce's own loop went from
// 0.24-0.32 to 0.15-0.18 (memory-bound now). Min and max are exact: the same checks either way.
__attribute__((target("avx2"))) void minmax_run_avx2(const int64_t* p, int64_t n, int64_t& l,
                                                     int64_t& h) {
  __m256i lo0 = _mm256_set1_epi64x(l), lo1 = lo0, hi0 = _mm256_set1_epi64x(h), hi1 = hi0;
  int64_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + k));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + k + 4));
    lo0 = _mm256_blendv_epi8(lo0, a, _mm256_cmpgt_epi64(lo0, a));
    lo1 = _mm256_blendv_epi8(lo1, b, _mm256_cmpgt_epi64(lo1, b));
    hi0 = _mm256_blendv_epi8(hi0, a, _mm256_cmpgt_epi64(a, hi0));
    hi1 = _mm256_blendv_epi8(hi1, b, _mm256_cmpgt_epi64(b, hi1));
  }
  alignas(32) int64_t lv[8], hv[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lv), lo0);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lv + 4), lo1);
  _mm256_store_si256(reinterpret_cast<__m256i*>(hv), hi0);
  _mm256_store_si256(reinterpret_cast<__m256i*>(hv + 4), hi1);
  for (int i = 0; i < 8; ++i) l = std::min(l, lv[i]), h = std::max(h, hv[i]);
  for (; k < n; ++k) l = std::min(l, p[k]), h = std::max(h, p[k]);
}
const bool kHasAvx2 = [] {
  __builtin_cpu_init();  // may run before libgcc's own initializer
  return __builtin_cpu_supports("avx2") != 0;
}();
#endif

// l = min(l, p[0..n)), h likewise with max; four independent chains, as each min is a
// dependent compare and move (SSE2 has no 64-bit integer min to vectorize with).
template <typename I>
void minmax_run(const I* p, int64_t n, I& l, I& h) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if constexpr (std::is_same_v<I, int64_t>) {
    if (kHasAvx2) return minmax_run_avx2(p, n, l, h);  // Note [Index extremes in AVX2]
  }
#endif
  I l0 = l, l1 = l, l2 = l, l3 = l, h0 = h, h1 = h, h2 = h, h3 = h;
  int64_t k = 0;
  for (; k + 4 <= n; k += 4) {
    l0 = std::min(l0, p[k]), h0 = std::max(h0, p[k]);
    l1 = std::min(l1, p[k + 1]), h1 = std::max(h1, p[k + 1]);
    l2 = std::min(l2, p[k + 2]), h2 = std::max(h2, p[k + 2]);
    l3 = std::min(l3, p[k + 3]), h3 = std::max(h3, p[k + 3]);
  }
  for (; k < n; ++k) l0 = std::min(l0, p[k]), h0 = std::max(h0, p[k]);
  l = std::min(std::min(l0, l1), std::min(l2, l3));
  h = std::max(std::max(h0, h1), std::max(h2, h3));
}

// Min and max of an index: positions split evenly among threads, each walked a row (the last
// dim, any stride) at a time; a contiguous index is one row.
template <typename I>
std::pair<int64_t, int64_t> extremes_of(const Tensor& index) {
  const int64_t nd = index.dim();
  const bool flat = nd == 0 || index.is_contiguous();
  const int64_t n = flat ? index.numel() : index.sizes()[nd - 1];
  const int64_t step = flat ? 1 : index.strides()[nd - 1];
  const I* base = static_cast<const I*>(index.data_ptr());
  std::mutex m;
  I lo = std::numeric_limits<I>::max(), hi = std::numeric_limits<I>::lowest();
  parallel_for(0, index.numel(), int64_t{1} << 16, [&](int64_t b, int64_t e) {
    I l = std::numeric_limits<I>::max(), h = std::numeric_limits<I>::lowest();
    while (b < e) {
      const int64_t j = b % n, len = std::min(n - j, e - b);
      int64_t off = 0;
      for (int64_t d = nd - 2, q = b / n; !flat && d >= 0; --d) {
        off += (q % index.sizes()[d]) * index.strides()[d];
        q /= index.sizes()[d];
      }
      const I* p = base + off + j * step;
      if (step == 1) {
        minmax_run(p, len, l, h);
      } else {
        for (int64_t k = 0; k < len; ++k)
          l = std::min(l, p[k * step]), h = std::max(h, p[k * step]);
      }
      b += len;
    }
    const std::lock_guard<std::mutex> lock(m);
    lo = std::min(lo, l);
    hi = std::max(hi, h);
  });
  return {lo, hi};
}

}  // namespace

std::pair<int64_t, int64_t> cpu_index_extremes(const Tensor& index) {
  return index.dtype() == kLong ? extremes_of<int64_t>(index) : extremes_of<int32_t>(index);
}

// ATen's assert_no_overlap: the written-to tensor may not share any memory with the input
// (not even all of it, as in-place ops may); dense layouts are judged by their byte ranges.
void check_no_overlap(const char* op, const Tensor& out, const Tensor& in, const char* out_arg,
                      const char* in_arg) {
  if (out.numel() == 0 || in.numel() == 0 || out.storage().get() != in.storage().get()) return;
  if (!out.is_non_overlapping_and_dense() || !in.is_non_overlapping_and_dense()) return;
  const auto [a0, a1] = byte_range(out);
  const auto [b0, b1] = byte_range(in);
  TS_CHECK(a1 <= b0 || b1 <= a0, op,
           ": unsupported operation: some elements of the input tensor (argument '", in_arg,
           "') and the written-to tensor (argument '", out_arg,
           "') refer to a single memory location. Please clone() the tensor before performing "
           "the operation.");
}

}  // namespace meta

// ---- index_select, gather: the function, out= and method forms of name_impl ----
#define TS_INDEX_FORMS(name)                                                                    \
  Tensor name(const Tensor& self, int64_t dim, const Tensor& index) {                           \
    return name##_impl(Variant::Functional, {}, self, dim, index);                              \
  }                                                                                             \
  Tensor& name##_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index) { \
    name##_impl(Variant::Out, out, self, dim, index);                                           \
    return const_cast<Tensor&>(out);                                                            \
  }                                                                                             \
  Tensor Tensor::name(int64_t dim, const Tensor& index) const {                                 \
    return ts::name(*this, dim, index);                                                         \
  }
TS_INDEX_FORMS(index_select)
TS_INDEX_FORMS(gather)
#undef TS_INDEX_FORMS

// ---- scatter_add ----
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_add_impl(Variant::Functional, {}, self, dim, index, src);
}
Tensor& scatter_add_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& src) {
  scatter_add_impl(Variant::Out, out, self, dim, index, src);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ts::scatter_add(*this, dim, index, src);
}
Tensor& Tensor::scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const {
  scatter_add_impl(Variant::InPlace, {}, *this, dim, index, src);
  return const_cast<Tensor&>(*this);
}

// ---- cat, stack ----
Tensor cat(TensorList tensors, int64_t dim) {
  return cat_impl(Variant::Functional, {}, tensors, dim);
}
Tensor& cat_out(const Tensor& out, TensorList tensors, int64_t dim) {
  cat_impl(Variant::Out, out, tensors, dim);
  return const_cast<Tensor&>(out);
}

namespace {

// stack = unsqueeze every tensor at `dim` (which may be ndim), then cat along it.
std::vector<Tensor> stack_inputs(TensorList tensors, int64_t& dim) {
  TS_CHECK(!tensors.empty(), "stack: expects a non-empty TensorList (argument 'tensors')");
  for (size_t i = 0; i < tensors.size(); ++i) {
    TS_CHECK(tensors[i].defined(), "stack: expected a defined tensor at entry ", i, " of tensors");
    TS_CHECK(tensors[i].sizes() == tensors[0].sizes(),
             "stack: expects each tensor to be equal size, but got ", tensors[0].sizes(),
             " at entry 0 and ", tensors[i].sizes(), " at entry ", i, " of tensors");
  }
  dim = wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> unsqueezed;
  unsqueezed.reserve(tensors.size());
  for (const Tensor& t : tensors) unsqueezed.push_back(t.unsqueeze(dim));
  return unsqueezed;
}

}  // namespace

// Note [stack's node]
// stack is cat of the unsqueezed inputs; its gradient is cat's (then each unsqueeze's), but
// ATen's stack has its own node, StackBackward0 (libtorch 1.13 and current PyTorch), so the
// cat node is renamed.
Tensor stack(TensorList tensors, int64_t dim) {
  const UserOpScope scope("stack");
  const std::vector<Tensor> inputs = stack_inputs(tensors, dim);
  Tensor result = ts::cat(inputs, dim);
  if (auto* node = dynamic_cast<autograd::OpNode*>(result.grad_fn().get())) {
    node->set_name("StackBackward0");
  }
  return result;
}
Tensor& stack_out(const Tensor& out, TensorList tensors, int64_t dim) {
  const UserOpScope scope("stack");
  const std::vector<Tensor> inputs = stack_inputs(tensors, dim);
  return ts::cat_out(out, inputs, dim);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative]) ----
// KernelCall inputs as at the top of this file; stack is a composite of cat.
namespace ts::autograd {

TS_REGISTER_DERIVATIVES(index) {
  // index_select(Tensor self, int dim, Tensor index) -> Tensor
  //   self: zeros_like(self).index_add_(dim, index, grad) (here: scatter_add of grad with the
  //         index broadcast along the other dims)      index: non-differentiable
  m.def(OpId::index_select, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    const int64_t dim = a.p.get<DimParams>().dim;
    const IntArrayRef sizes = a.input_sizes(0);
    if (sizes.empty()) return {g.reshape({})};  // a 0-dim self: index is [0]
    DimVector shape(g.dim(), 1);
    shape[static_cast<size_t>(dim)] = -1;
    const Tensor index = a.input(1).to(kLong).reshape(shape).expand(g.sizes());
    return {zeros(sizes, g.options()).scatter_add(dim, index, g), Tensor()};
  });
  // gather(Tensor self, int dim, Tensor index) -> Tensor
  //   self: zeros(self.sizes()).scatter_add(dim, index, grad)      index: non-differentiable
  m.def(OpId::gather, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    const int64_t dim = a.p.get<DimParams>().dim;
    return {zeros(a.input_sizes(0), g.options()).scatter_add(dim, a.input(1), g), Tensor()};
  });
  // scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
  //   self: grad    index: non-differentiable    src: grad.gather(dim, index), zero-padded to
  //   src's shape where index is smaller
  m.def(OpId::scatter_add, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    Tensor gsrc;
    if (a.needs_grad(2)) {
      const Tensor& index = a.input(1);
      gsrc = g.gather(a.p.get<DimParams>().dim, index);
      const IntArrayRef src_sizes = a.input_sizes(2);
      if (gsrc.sizes() != src_sizes) {
        Tensor padded = zeros(src_sizes, g.options());
        Tensor part = padded;
        for (int64_t d = 0; d < index.dim(); ++d) part = part.narrow(d, 0, index.size(d));
        part.copy_(gsrc);
        gsrc = padded;
      }
    }
    return {g, Tensor(), gsrc};
  });
  // cat(Tensor[] tensors, int dim=0) -> Tensor
  //   tensors[i]: grad.narrow(dim, offset_i, tensors[i].size(dim))
  m.def(OpId::cat, save_nothing(), [](const BackwardArgs& a) -> Grads {
    const int64_t dim = a.p.get<DimParams>().dim;
    Grads out;
    int64_t offset = 0;
    for (size_t i = 0; i < a.num_inputs(); ++i) {
      const int64_t n = a.input_sizes(i)[static_cast<size_t>(dim)];
      out.push_back(a.needs_grad(i) ? a.grad().narrow(dim, offset, n) : Tensor());
      offset += n;
    }
    return out;
  });
}

}  // namespace ts::autograd
