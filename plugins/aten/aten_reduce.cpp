// aten kernels for the reductions and cumsum (lib/src/ops/reduce.cpp, whose Params block says
// what each op's struct holds). The outputs already have the result's shape (Note [Reduction
// outputs]); p.compute_dtype is the dtype the input is converted to before accumulating.
#include <ATen/core/Tensor.h>
#include <ATen/ops/all.h>
#include <ATen/ops/amax.h>
#include <ATen/ops/amin.h>
#include <ATen/ops/any.h>
#include <ATen/ops/argmax.h>
#include <ATen/ops/argmin.h>
#include <ATen/ops/cumprod.h>
#include <ATen/ops/cumsum.h>
#include <ATen/ops/logcumsumexp.h>
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
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

at::IntArrayRef dims_of(const KernelCall& c) {
  const DimVector& dims = reduce_params(c.p).dims;
  return at::IntArrayRef(dims.data(), dims.size());
}
bool keepdim_of(const KernelCall& c) {
  return reduce_params(c.p).keepdim;
}

// Note [Single-dim reductions]
// prod, all, any, argmax and argmin take one dim in ATen. Touchstone calls them with one reduced
// dim, none (a 0-dim input: ATen's dim 0), or every dim of the input (the forms without dim):
// those run on the flattened input, into the output seen as 0-dim (its shape has only 1s).
template <typename F>
void single_dim(const KernelCall& c, at::Tensor& out, const at::Tensor& self, F f) {
  const ReduceParams& r = c.params<ReduceParams>();
  if (r.dims.size() <= 1) {
    f(out, self, r.dims.empty() ? int64_t{0} : r.dims[0], r.keepdim);
    return;
  }
  at::Tensor out0 = out.view(at::IntArrayRef());
  f(out0, self.reshape({-1}), int64_t{0}, false);
}

// Runs f(out) on output 0 written in the compute dtype (Note [Writing outputs]).
template <typename F>
void write_compute(const KernelCall& c, F f) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { f(out); });
}

// max/min with dim: (values, indices) along dims[0] (0 for a 0-dim input); without dim: values
// only (ATen's max()).
template <bool kMax>
void max_min_kernel(const KernelCall& c) {
  const at::Tensor self = wrap(c.inputs[0]);
  if (c.outputs.size() == 1) {
    write_compute(c, [&](at::Tensor& out) { out.copy_(kMax ? self.max() : self.min()); });
    return;
  }
  const ReduceParams& r = c.params<ReduceParams>();
  const int64_t dim = r.dims.empty() ? 0 : r.dims[0];
  write_compute(c, [&](at::Tensor& values) {
    write(
        c, kLong,
        [&](at::Tensor& indices) {
          if (kMax) {
            at::max_out(values, indices, self, dim, r.keepdim);
          } else {
            at::min_out(values, indices, self, dim, r.keepdim);
          }
        },
        1);
  });
}

// ATen 1.13 takes an integer correction.
template <bool kStd>
void var_std_kernel(const KernelCall& c) {
  const VarParams& params = c.params<VarParams>();
  TS_CHECK(params.correction == std::trunc(params.correction), "aten ", kStd ? "std" : "var",
           ": PyTorch 1.13 takes an integer correction, got ", params.correction);
  // An explicit optional: a plain int64_t would pick ATen's (bool unbiased) overload.
  const c10::optional<int64_t> correction = static_cast<int64_t>(params.correction);
  write_compute(c, [&](at::Tensor& out) {
    if (kStd) {
      at::std_out(out, input(c, 0), dims_of(c), correction, params.keepdim);
    } else {
      at::var_out(out, input(c, 0), dims_of(c), correction, params.keepdim);
    }
  });
}

// One branch per Reduction and Scan op of op_list.def (registered below).
template <OpId op>
void reduce_kernel(const KernelCall& c) {
  using enum OpId;
  const at::Tensor self = wrap(c.inputs[0]);
  const at::ScalarType dtype = to_aten(c.p.compute_dtype);
  if constexpr (op == sum) {
    write_compute(c,
                  [&](at::Tensor& o) { at::sum_out(o, self, dims_of(c), keepdim_of(c), dtype); });
  } else if constexpr (op == mean) {
    write_compute(c,
                  [&](at::Tensor& o) { at::mean_out(o, self, dims_of(c), keepdim_of(c), dtype); });
  } else if constexpr (op == prod) {
    write_compute(c, [&](at::Tensor& out) {
      single_dim(c, out, self, [&](at::Tensor& o, const at::Tensor& s, int64_t d, bool k) {
        at::prod_out(o, s, d, k, dtype);
      });
    });
  } else if constexpr (op == amax) {
    write_compute(c, [&](at::Tensor& o) { at::amax_out(o, self, dims_of(c), keepdim_of(c)); });
  } else if constexpr (op == amin) {
    write_compute(c, [&](at::Tensor& o) { at::amin_out(o, self, dims_of(c), keepdim_of(c)); });
  } else if constexpr (op == max || op == min) {
    max_min_kernel<op == max>(c);
  } else if constexpr (op == argmax || op == argmin) {
    write(c, kLong, [&](at::Tensor& out) {
      single_dim(c, out, self, [&](at::Tensor& o, const at::Tensor& s, int64_t d, bool k) {
        op == argmax ? at::argmax_out(o, s, d, k) : at::argmin_out(o, s, d, k);
      });
    });
  } else if constexpr (op == var || op == std) {
    var_std_kernel<op == std>(c);
  } else if constexpr (op == norm) {
    const c10::optional<at::Scalar> p = to_aten(Scalar(c.params<NormParams>().p));
    write_compute(
        c, [&](at::Tensor& o) { at::norm_out(o, input(c, 0), p, dims_of(c), keepdim_of(c)); });
  } else if constexpr (op == logsumexp) {
    write_compute(
        c, [&](at::Tensor& o) { at::logsumexp_out(o, input(c, 0), dims_of(c), keepdim_of(c)); });
  } else if constexpr (op == all || op == any) {
    // The output is bool, or uint8 (for uint8 inputs, or a uint8 out=): ATen writes either.
    write(c, c.outputs[0].dtype(), [&](at::Tensor& out) {
      single_dim(c, out, self, [&](at::Tensor& o, const at::Tensor& s, int64_t d, bool k) {
        op == all ? at::all_out(o, s, d, k) : at::any_out(o, s, d, k);
      });
    });
  } else if constexpr (op == cumsum) {
    // In-place (cumsum_), the output is the input itself, which ATen's cumsum_out allows.
    const int64_t dim = c.params<DimParams>().dim;
    write_compute(c, [&](at::Tensor& o) { at::cumsum_out(o, self, dim, dtype); });
  } else if constexpr (op == cumprod) {  // scans (issue 16)
    const int64_t dim = c.params<DimParams>().dim;
    write_compute(c, [&](at::Tensor& o) { at::cumprod_out(o, self, dim, dtype); });
  } else if constexpr (op == logcumsumexp) {
    const int64_t dim = c.params<DimParams>().dim;
    write_compute(c, [&](at::Tensor& o) { at::logcumsumexp_out(o, self, dim); });
  } else {
    static_assert(kMissingKernel<op>, "a Reduction or Scan op without its aten kernel");
  }
}

// The dtypes of op_list.def that ATen 1.13's CPU kernels lack.
DTypeSet reduce_dtypes(OpId op) {
  const DTypeSet declared = op_info(op).dtypes;
  switch (op) {
    case OpId::prod:
      return declared - DTypeSet{kHalf, kBFloat16};
    case OpId::logsumexp:
      return declared - DTypeSet{kHalf};
    case OpId::cumsum:   // no bool: a bool cumsum_ (compute dtype bool) has no ATen kernel
    case OpId::cumprod:  // scans (issue 16): the same, "cumprod_out_cpu"
      return declared - DTypeSet{kHalf, kBool};
    case OpId::logcumsumexp:
      return declared - DTypeSet{kHalf};
    default:
      return declared;
  }
}

}  // namespace

void register_reduce(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Reduction, OpSignature::Scan>(
      [&](auto op) { m.impl(op, kCPU, reduce_dtypes(op), guarded<reduce_kernel<op>>); });
}

}  // namespace ts::aten
