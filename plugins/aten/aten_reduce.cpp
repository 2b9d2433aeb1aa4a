// aten kernels for the reductions and cumsum (lib/src/ops/reduce.cpp). The outputs already have
// the result's shape (Note [Reduction outputs]); p.dims are the reduced dims, p.dim the single
// dim argument, p.compute_dtype the dtype the input is converted to before accumulating.
#include <ATen/core/Tensor.h>
#include <ATen/ops/all.h>
#include <ATen/ops/amax.h>
#include <ATen/ops/amin.h>
#include <ATen/ops/any.h>
#include <ATen/ops/argmax.h>
#include <ATen/ops/argmin.h>
#include <ATen/ops/cumsum.h>
#include <ATen/ops/logsumexp.h>
#include <ATen/ops/max.h>
#include <ATen/ops/mean.h>
#include <ATen/ops/min.h>
#include <ATen/ops/norm.h>
#include <ATen/ops/prod.h>
#include <ATen/ops/std.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/var.h>
#include <cmath>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

at::IntArrayRef dims_of(const KernelCall& c) {
  return at::IntArrayRef(c.p.dims.data(), c.p.dims.size());
}

// Note [Single-dim reductions]
// prod, all, any, argmax and argmin take one dim in ATen. Touchstone calls them with one reduced
// dim, none (a 0-dim input: ATen's dim 0), or every dim of the input (the forms without dim):
// those run on the flattened input, into the output seen as 0-dim (its shape has only 1s).
template <typename F>
void single_dim(const KernelCall& c, at::Tensor& out, const at::Tensor& self, F f) {
  if (c.p.dims.size() <= 1) {
    f(out, self, c.p.dims.empty() ? int64_t{0} : c.p.dims[0], c.p.keepdim);
    return;
  }
  at::Tensor out0 = out.view(at::IntArrayRef());
  f(out0, self.reshape({-1}), int64_t{0}, false);
}

void sum_kernel(const KernelCall& c) {
  const at::ScalarType dtype = to_aten(c.p.compute_dtype);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::sum_out(out, wrap(c.inputs[0]), dims_of(c), c.p.keepdim, dtype);
  });
}

void mean_kernel(const KernelCall& c) {
  const at::ScalarType dtype = to_aten(c.p.compute_dtype);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::mean_out(out, wrap(c.inputs[0]), dims_of(c), c.p.keepdim, dtype);
  });
}

void prod_kernel(const KernelCall& c) {
  const at::ScalarType dtype = to_aten(c.p.compute_dtype);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    single_dim(c, out, wrap(c.inputs[0]),
               [&](at::Tensor& o, const at::Tensor& s, int64_t d, bool k) {
                 at::prod_out(o, s, d, k, dtype);
               });
  });
}

void amax_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::amax_out(out, wrap(c.inputs[0]), dims_of(c), c.p.keepdim); });
}

void amin_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::amin_out(out, wrap(c.inputs[0]), dims_of(c), c.p.keepdim); });
}

// max/min with dim: (values, indices); without dim: values only (ATen's max()).
template <bool kMax>
void max_min_kernel(const KernelCall& c) {
  const at::Tensor self = wrap(c.inputs[0]);
  if (c.outputs.size() == 1) {
    write(c, c.p.compute_dtype,
          [&](at::Tensor& out) { out.copy_(kMax ? self.max() : self.min()); });
    return;
  }
  write(c, c.p.compute_dtype, [&](at::Tensor& values) {
    write(
        c, kLong,
        [&](at::Tensor& indices) {
          if (kMax) {
            at::max_out(values, indices, self, c.p.dim, c.p.keepdim);
          } else {
            at::min_out(values, indices, self, c.p.dim, c.p.keepdim);
          }
        },
        1);
  });
}

template <bool kMax>
void arg_kernel(const KernelCall& c) {
  write(c, kLong, [&](at::Tensor& out) {
    single_dim(c, out, wrap(c.inputs[0]),
               [&](at::Tensor& o, const at::Tensor& s, int64_t d, bool k) {
                 if (kMax) {
                   at::argmax_out(o, s, d, k);
                 } else {
                   at::argmin_out(o, s, d, k);
                 }
               });
  });
}

// d0 = correction; ATen 1.13 takes an integer one.
template <bool kStd>
void var_std_kernel(const KernelCall& c) {
  TS_CHECK(c.p.d0 == std::trunc(c.p.d0), "aten ", kStd ? "std" : "var",
           ": PyTorch 1.13 takes an integer correction, got ", c.p.d0);
  // An explicit optional: a plain int64_t would pick ATen's (bool unbiased) overload.
  const c10::optional<int64_t> correction = static_cast<int64_t>(c.p.d0);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if (kStd) {
      at::std_out(out, input(c, 0), dims_of(c), correction, c.p.keepdim);
    } else {
      at::var_out(out, input(c, 0), dims_of(c), correction, c.p.keepdim);
    }
  });
}

// s0 = p (1, 2 or inf).
void norm_kernel(const KernelCall& c) {
  const c10::optional<at::Scalar> p = to_aten(*c.p.s0);
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::norm_out(out, input(c, 0), p, dims_of(c), c.p.keepdim); });
}

void logsumexp_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::logsumexp_out(out, input(c, 0), dims_of(c), c.p.keepdim); });
}

// The output is bool, or uint8 (for uint8 inputs, or a uint8 out=): ATen writes either.
template <bool kAll>
void all_any_kernel(const KernelCall& c) {
  write(c, c.outputs[0].dtype(), [&](at::Tensor& out) {
    single_dim(c, out, wrap(c.inputs[0]),
               [&](at::Tensor& o, const at::Tensor& s, int64_t d, bool k) {
                 if (kAll) {
                   at::all_out(o, s, d, k);
                 } else {
                   at::any_out(o, s, d, k);
                 }
               });
  });
}

// In-place (cumsum_), the output is the input itself, which ATen's cumsum_out allows.
void cumsum_kernel(const KernelCall& c) {
  const at::ScalarType dtype = to_aten(c.p.compute_dtype);
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::cumsum_out(out, wrap(c.inputs[0]), c.p.dim, dtype); });
}

}  // namespace

void register_reduce(KernelRegistrar& m) {
  const DTypeSet no_reduced_float = kAll - DTypeSet{kHalf, kBFloat16};
  m.impl(OpId::sum, kCPU, kAll, guarded<sum_kernel>);
  m.impl(OpId::mean, kCPU, kFloating, guarded<mean_kernel>);
  m.impl(OpId::prod, kCPU, no_reduced_float, guarded<prod_kernel>);
  m.impl(OpId::amax, kCPU, kAll, guarded<amax_kernel>);
  m.impl(OpId::amin, kCPU, kAll, guarded<amin_kernel>);
  m.impl(OpId::max, kCPU, kAll, guarded<max_min_kernel<true>>);
  m.impl(OpId::min, kCPU, kAll, guarded<max_min_kernel<false>>);
  m.impl(OpId::argmax, kCPU, kNoBool, guarded<arg_kernel<true>>);
  m.impl(OpId::argmin, kCPU, kNoBool, guarded<arg_kernel<false>>);
  m.impl(OpId::var, kCPU, kFloating, guarded<var_std_kernel<false>>);
  m.impl(OpId::std, kCPU, kFloating, guarded<var_std_kernel<true>>);
  m.impl(OpId::norm, kCPU, kFloating, guarded<norm_kernel>);
  m.impl(OpId::logsumexp, kCPU, kFloatingNoHalf, guarded<logsumexp_kernel>);
  m.impl(OpId::all, kCPU, kAll, guarded<all_any_kernel<true>>);
  m.impl(OpId::any, kCPU, kAll, guarded<all_any_kernel<false>>);
  // No bool: a bool cumsum_ (compute dtype bool) has no ATen kernel.
  m.impl(OpId::cumsum, kCPU, kNoHalf - DTypeSet{kBool}, guarded<cumsum_kernel>);
}

}  // namespace ts::aten
