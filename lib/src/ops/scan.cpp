// Scans of issue 16: meta for cumprod and logcumsumexp (Scan class, DimParams, as cumsum in
// reduce.cpp) and cummax, cummin (Sort class: values and int64 indices, SortParams::dim), and
// their derivatives.
// Calls: inputs {self}; cumprod and logcumsumexp write one output of self's shape (cumprod_:
// the output is self), cummax and cummin (values, indices) of self's shape. DimParams::dim and
// SortParams::dim are wrapped (0 for a 0-dim self).
//   cumprod: compute dtype as cumsum's (dtype= if given, else the out= tensor's, else self's
//     with integers and bool in int64; no bool compute dtype, as ATen's kernel).
//   logcumsumexp: floating self, computed in its dtype; an out= must have it.
//   cummax, cummin: ATen's rule: an element equal to the running extreme takes its place (the
//     index is the last of the ties), and NaN, once met, stays (its latest index).
#include <cmath>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

// An out= tensor of exactly `dtype` (no cast), then the reductions' checks (meta.h).
void check_out_tensor(const char* op, const Tensor& out, IntArrayRef shape, ScalarType dtype,
                      const Tensor& self, const char* arg) {
  meta::check_exact_dtype(op, out, dtype, arg);
  meta::check_out_of(op, out, shape, dtype, self, arg);
}

Tensor cumprod_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype) {
  const char* op = meta::op_name(OpId::cumprod, v);
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  if (v == Variant::Out && !dtype) {
    meta::check_defined("cumprod", out, "out");
    dtype = out.dtype();  // as cumsum: Note [Reduction out= dtypes] in reduce.cpp
  }
  OpParams p;
  p.set(DimParams{wrap_dim(dim, self.dim(), op)});
  ScalarType result = dtype ? *dtype : self.dtype();
  if (!dtype && is_integral_type(self.dtype(), /*include_bool=*/true)) result = kLong;
  p.compute_dtype = result;
  // As cumsum: no bool kernel (dtype=bool, a bool out= or cumprod_ on a non-empty bool self).
  const bool bool_compute = v == Variant::InPlace ? self.dtype() == kBool : result == kBool;
  const bool no_kernel = v == Variant::InPlace && (self.dim() == 0 || self.numel() == 0);
  TS_CHECK(!bool_compute || no_kernel, op, ": not implemented for dtype bool (argument '",
           v == Variant::InPlace ? "self"
           : v == Variant::Out   ? "out"
                                 : "dtype",
           "')");
  const Tensor self1[] = {self};
  if (v == Variant::InPlace) {
    TS_CHECK(!dtype || *dtype == self.dtype(), "cumprod_: Bad in-place call: input tensor dtype ",
             self.dtype(), " and output tensor dtype ", *dtype, " should match (argument 'dtype')");
    meta::check_no_internal_overlap("cumprod_", self, "self");
    p.compute_dtype = self.dtype();
    if (bool_compute) return self;  // no_kernel
    const KernelFn fn = lookup_kernel(OpId::cumprod, p.compute_dtype, self.device());
    run_kernel(fn, KernelCall{OpId::cumprod, self1, self1, p, v});
    return self;
  }
  if (v == Variant::Out) check_out_tensor("cumprod", out, self.sizes(), result, self, "out");
  const KernelFn fn = lookup_kernel(OpId::cumprod, p.compute_dtype, self.device());
  const Tensor r =
      meta::prepare_output(OpId::cumprod, v, out, self.sizes(), result, self.device(), self1);
  run_kernel(fn, KernelCall{OpId::cumprod, ArrayRef<Tensor>(&r, 1), self1, p, v});
  return r;
}

Tensor logcumsumexp_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim) {
  const UserOpScope scope("logcumsumexp");
  meta::check_defined("logcumsumexp", self, "self");
  meta::check_dtype_supported("logcumsumexp", self.dtype(), op_info(OpId::logcumsumexp).dtypes,
                              "self");
  OpParams p;
  p.set(DimParams{wrap_dim(dim, self.dim(), "logcumsumexp")});
  p.compute_dtype = self.dtype();
  const Tensor self1[] = {self};
  if (v == Variant::Out) {
    check_out_tensor("logcumsumexp", out, self.sizes(), self.dtype(), self, "out");
  }
  const KernelFn fn = lookup_kernel(OpId::logcumsumexp, self.dtype(), self.device());
  const Tensor r = meta::prepare_output(OpId::logcumsumexp, v, out, self.sizes(), self.dtype(),
                                        self.device(), self1);
  run_kernel(fn, KernelCall{OpId::logcumsumexp, ArrayRef<Tensor>(&r, 1), self1, p, v});
  return r;
}

std::tuple<Tensor, Tensor> cum_extreme(OpId op, Variant v, const Tensor& values_out,
                                       const Tensor& indices_out, const Tensor& self, int64_t dim) {
  const char* name = op_info(op).name.data();
  const UserOpScope scope(name);
  meta::check_defined(name, self, "self");
  meta::check_dtype_supported(name, self.dtype(), op_info(op).dtypes, "self");
  SortParams params;
  params.dim = wrap_dim(dim, self.dim(), name);
  const Tensor self1[] = {self};
  if (v == Variant::Out) {
    check_out_tensor(name, values_out, self.sizes(), self.dtype(), self, "values");
    check_out_tensor(name, indices_out, self.sizes(), kLong, self, "indices");
    meta::check_no_partial_overlap(name, values_out, indices_out, "values", "indices");
    meta::check_resized_outs_disjoint(name, values_out, indices_out, self.sizes(), "values",
                                      "indices");
    const Tensor outs[] = {values_out, indices_out};
    meta::check_out_no_grad(op, outs, self1);
  }
  const KernelFn fn = lookup_kernel(op, self.dtype(), self.device());
  const Tensor values =
      meta::prepare_output(op, v, values_out, self.sizes(), self.dtype(), self.device(), self1);
  const Tensor indices =
      meta::prepare_output(op, v, indices_out, self.sizes(), kLong, self.device(), self1);
  const Tensor outputs[] = {values, indices};
  OpParams p;
  p.compute_dtype = self.dtype();
  p.set(params);
  run_kernel(fn, KernelCall{op, outputs, self1, p, v});
  return {values, indices};
}

}  // namespace

Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return cumprod_impl(Variant::Functional, {}, self, dim, dtype);
}
Tensor& cumprod_out(const Tensor& out, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype) {
  cumprod_impl(Variant::Out, out, self, dim, dtype);
  return const_cast<Tensor&>(out);
}
Tensor logcumsumexp(const Tensor& self, int64_t dim) {
  return logcumsumexp_impl(Variant::Functional, {}, self, dim);
}
Tensor& logcumsumexp_out(const Tensor& out, const Tensor& self, int64_t dim) {
  logcumsumexp_impl(Variant::Out, out, self, dim);
  return const_cast<Tensor&>(out);
}
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim) {
  return cum_extreme(OpId::cummax, Variant::Functional, {}, {}, self, dim);
}
std::tuple<Tensor&, Tensor&> cummax_out(const Tensor& values, const Tensor& indices,
                                        const Tensor& self, int64_t dim) {
  cum_extreme(OpId::cummax, Variant::Out, values, indices, self, dim);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim) {
  return cum_extreme(OpId::cummin, Variant::Functional, {}, {}, self, dim);
}
std::tuple<Tensor&, Tensor&> cummin_out(const Tensor& values, const Tensor& indices,
                                        const Tensor& self, int64_t dim) {
  cum_extreme(OpId::cummin, Variant::Out, values, indices, self, dim);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}

Tensor Tensor::cumprod(int64_t dim, std::optional<ScalarType> dtype) const {
  return ts::cumprod(*this, dim, dtype);
}
Tensor& Tensor::cumprod_(int64_t dim, std::optional<ScalarType> dtype) const {
  cumprod_impl(Variant::InPlace, {}, *this, dim, dtype);
  return const_cast<Tensor&>(*this);
}
Tensor Tensor::logcumsumexp(int64_t dim) const {
  return ts::logcumsumexp(*this, dim);
}
std::tuple<Tensor, Tensor> Tensor::cummax(int64_t dim) const {
  return ts::cummax(*this, dim);
}
std::tuple<Tensor, Tensor> Tensor::cummin(int64_t dim) const {
  return ts::cummin(*this, dim);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
namespace ts::autograd {
namespace {

// sum_{j >= k} t_j along dim (cumsum's gradient): t.sum(dim) - t.cumsum(dim) + t.
Tensor reversed_cumsum(const Tensor& t, int64_t dim) {
  return t.sum({dim}, /*keepdim=*/true) - t.cumsum(dim) + t;
}

// t reversed along dim.
Tensor flip(const Tensor& t, int64_t dim) {
  const int64_t n = t.sizes()[dim];
  return t.index_select(dim, arange(n - 1, -1, -1, TensorOptions(kLong).device(t.device())));
}

// Note [cumprod gradient]
// ATen's cumprod_backward: with w = grad * result, an element before the row's first zero gets
// reversed_cumsum(w) / self (w vanishes from the first zero on); the first zero z gets
// sum_{j >= z} grad_j * prod_{i <= j, i != z} self_i, the reversed cumsum of grad times the
// cumprod of self with that zero made 1 (the products vanish from a second zero on); every
// element after the first zero gets 0. No division by zero is ever evaluated.
Tensor cumprod_backward(const Tensor& g, const Tensor& x, const Tensor& result, int64_t dim) {
  const Tensor is_zero = eq(x, 0);
  const Tensor zeros_before = is_zero.cumsum(dim);
  const Tensor before = eq(zeros_before, 0);
  const Tensor first_zero = logical_and(is_zero, eq(zeros_before, 1));
  const Tensor x_safe = where(before, x, 1);
  const Tensor at_before = reversed_cumsum(g * result, dim) / x_safe;
  const Tensor y = where(first_zero, 1, x);
  const Tensor at_zero = reversed_cumsum(g * y.cumprod(dim), dim);
  return where(before, at_before, where(first_zero, at_zero, 0));
}

// Note [logcumsumexp gradient]
// ATen's logcumsumexp_backward: grad_k's contribution to self_j (j <= k) is
// grad_k exp(self_j - result_k), summed in log space by sign: the positive and negative parts
// of grad each through a reversed logcumsumexp of log|grad| - result, plus self, exponentiated.
Tensor logcumsumexp_backward(const Tensor& g, const Tensor& x, const Tensor& result, int64_t dim) {
  const double lowest = -meta::floating_max(g.dtype());  // ATen: the dtype's lowest
  auto reversed = [dim](const Tensor& t) { return flip(flip(t, dim).logcumsumexp(dim), dim); };
  const Tensor log_abs = g.abs().log();
  const Tensor pos = where(gt(g, 0), log_abs, full_like(g, lowest));
  const Tensor neg = where(lt(g, 0), log_abs, full_like(g, lowest));
  return exp(reversed(pos - result) + x) - exp(reversed(neg - result) + x);
}

}  // namespace

TS_REGISTER_DERIVATIVES(scan) {
  // cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
  //   self: cumprod_backward(grad, self, dim, result) (Note [cumprod gradient])
  m.def(OpId::cumprod, save_inputs({0}) | save_output(), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    if (g.dim() == 0 || g.numel() <= 1) return {g};
    const int64_t dim = a.p.get<DimParams>().dim;
    if (g.sizes()[dim] == 1) return {g};
    return {cumprod_backward(g, a.input(0), a.output(), dim)};
  });
  // logcumsumexp(Tensor self, int dim) -> Tensor
  //   self: logcumsumexp_backward(grad, self, result, dim) (Note [logcumsumexp gradient])
  m.def(OpId::logcumsumexp, save_inputs({0}) | save_output(), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    if (g.dim() == 0 || g.numel() == 0) return {g};
    return {logcumsumexp_backward(g, a.input(0), a.output(), a.p.get<DimParams>().dim)};
  });
  // cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)
  // cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)
  //   self: cummaxmin_backward(grad, self, indices, dim): grad added at the indices
  for (OpId op : {OpId::cummax, OpId::cummin}) {
    m.def(op, save_output(1), [](const BackwardArgs& a) -> Grads {
      if (a.input_sizes(0).empty()) return {a.grad()};
      return {zeros(a.input_sizes(0), a.grad().options())
                  .scatter_add(a.p.get<SortParams>().dim, a.output(1), a.grad())};
    });
  }
}

}  // namespace ts::autograd
