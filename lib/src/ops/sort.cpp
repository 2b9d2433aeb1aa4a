// Sorting and selection (issue 16): meta for sort, argsort (a composite), topk, kthvalue, median
// and mode, and their derivatives.
// Every KernelCall has inputs {self} and outputs {values, indices}: values in self's dtype,
// indices int64. sort's outputs have self's shape; topk's have size k along dim; kthvalue,
// median(dim) and mode reduce dim (kept as size 1 with keepdim). median() over all elements runs
// on self flattened, with one output (values, 0-dim) and SortParams::dim_overload false.
// SortParams::dim is wrapped (0 for a 0-dim self, which acts as one element along dim 0).
//
// Note [Sort order]
// The order is ATen's: NaN sorts as the largest value (after +inf ascending, first descending).
// Every kernel set breaks ties by the element's position along dim (a stable sort), so values
// and indices are one function of the input: sort's unstable form is the stable one, topk's
// ties go to the lower index, kthvalue and median pick the tie of the stable sorted position.
// ATen's unstable sort and its nth_element selections may return another index among equal
// values (conformance/known_differences.json); its values are the same.
#include <algorithm>
#include <cmath>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

const char* name_of(OpId op) {
  return op_info(op).name.data();
}

// An out= tensor of exactly `dtype` (no cast), then the reductions' checks (meta.h).
void check_out_tensor(const char* op, const Tensor& out, IntArrayRef shape, ScalarType dtype,
                      const Tensor& self, const char* arg) {
  meta::check_exact_dtype(op, out, dtype, arg);
  meta::check_out_of(op, out, shape, dtype, self, arg);
}

// The size of self along the wrapped dim (1 for a 0-dim self).
int64_t dim_size(const Tensor& self, int64_t dim) {
  return self.dim() == 0 ? 1 : self.sizes()[dim];
}

// The checks every op of the family makes, then (values, indices) of `shape` through the kernel.
std::tuple<Tensor, Tensor> run_sort_op(OpId op, Variant v, const Tensor& values_out,
                                       const Tensor& indices_out, const Tensor& self,
                                       SortParams params, IntArrayRef shape) {
  const char* name = name_of(op);
  meta::check_dtype_supported(name, self.dtype(), op_info(op).dtypes, "self");
  const Tensor self1[] = {self};
  if (v == Variant::Out) {
    check_out_tensor(name, values_out, shape, self.dtype(), self, "values");
    check_out_tensor(name, indices_out, shape, kLong, self, "indices");
    meta::check_no_partial_overlap(name, values_out, indices_out, "values", "indices");
    meta::check_resized_outs_disjoint(name, values_out, indices_out, shape, "values", "indices");
    const Tensor outs[] = {values_out, indices_out};
    meta::check_out_no_grad(op, outs, self1);
  }
  const KernelFn fn = lookup_kernel(op, self.dtype(), self.device());
  // As ATen's sort meta, new (values, indices) of sort are laid out like self (dense strides),
  // and so are out= tensors it resizes.
  const bool like_self = op == OpId::sort && v == Variant::Functional;
  if (op == OpId::sort && v == Variant::Out) {
    if (values_out.sizes() != shape) meta::resize_out_like(values_out, shape, self1);
    if (indices_out.sizes() != shape) meta::resize_out_like(indices_out, shape, self1);
  }
  const Tensor values = like_self ? meta::allocate_like(shape, self.dtype(), self.device(), self1)
                                  : meta::prepare_output(op, v, values_out, shape, self.dtype(),
                                                         self.device(), self1);
  const Tensor indices =
      like_self ? meta::allocate_like(shape, kLong, self.device(), self1)
                : meta::prepare_output(op, v, indices_out, shape, kLong, self.device(), self1);
  const Tensor outputs[] = {values, indices};
  OpParams p;
  p.compute_dtype = self.dtype();
  p.set(std::move(params));
  run_kernel(fn, KernelCall{op, outputs, self1, p, v});
  return {values, indices};
}

// The shape of a selection along `dim` (kthvalue, median, mode): dim dropped or kept as 1.
DimVector reduced_shape(const Tensor& self, int64_t dim, bool keepdim) {
  DimVector shape(self.sizes());
  if (self.dim() == 0) return shape;
  if (keepdim) {
    shape[dim] = 1;
  } else {
    shape.erase(static_cast<size_t>(dim));
  }
  return shape;
}

std::tuple<Tensor, Tensor> sort_impl(Variant v, const Tensor& values, const Tensor& indices,
                                     const Tensor& self, std::optional<bool> stable, int64_t dim,
                                     bool descending) {
  const UserOpScope scope("sort");
  meta::check_defined("sort", self, "self");
  SortParams p;
  p.dim = wrap_dim(dim, self.dim(), "sort");
  p.descending = descending;
  p.stable = stable.value_or(false);
  p.dim_overload = stable.has_value();  // the stable overload: SortBackward1
  return run_sort_op(OpId::sort, v, values, indices, self, p, self.sizes());
}

std::tuple<Tensor, Tensor> topk_impl(Variant v, const Tensor& values, const Tensor& indices,
                                     const Tensor& self, int64_t k, int64_t dim, bool largest,
                                     bool sorted) {
  const UserOpScope scope("topk");
  meta::check_defined("topk", self, "self");
  SortParams p;
  p.dim = wrap_dim(dim, self.dim(), "topk");
  TS_CHECK(k >= 0 && k <= dim_size(self, p.dim),
           "topk: selected index k out of range (argument 'k': k = ", k, ", dim ", dim,
           " has size ", dim_size(self, p.dim), ")");
  p.k = k;
  p.descending = largest;
  p.sorted = sorted;
  DimVector shape(self.sizes());
  if (self.dim() > 0) shape[p.dim] = k;
  return run_sort_op(OpId::topk, v, values, indices, self, p, shape);
}

// kthvalue, median(dim), mode: one element selected along a non-empty dim.
std::tuple<Tensor, Tensor> select_impl(OpId op, Variant v, const Tensor& values,
                                       const Tensor& indices, const Tensor& self, int64_t k,
                                       int64_t dim, bool keepdim) {
  const char* name = name_of(op);
  const UserOpScope scope(name);
  meta::check_defined(name, self, "self");
  SortParams p;
  p.dim = wrap_dim(dim, self.dim(), name);
  p.keepdim = keepdim;
  const int64_t n = dim_size(self, p.dim);
  TS_CHECK(n > 0, name, ": Expected reduction dim ", dim,
           " to have non-zero size (argument 'dim')");
  if (op == OpId::kthvalue) {
    TS_CHECK(k >= 1 && k <= n, "kthvalue: selected number k out of range for dimension ", dim,
             " (argument 'k': k = ", k, ", size ", n, ")");
    p.k = k;
  }
  return run_sort_op(op, v, values, indices, self, p, reduced_shape(self, p.dim, keepdim));
}

}  // namespace

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return sort_impl(Variant::Functional, {}, {}, self, std::nullopt, dim, descending);
}
std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                bool descending) {
  if (!stable) stable = false;  // the stable overload (SortBackward1) even when None
  return sort_impl(Variant::Functional, {}, {}, self, stable, dim, descending);
}
std::tuple<Tensor&, Tensor&> sort_out(const Tensor& values, const Tensor& indices,
                                      const Tensor& self, int64_t dim, bool descending) {
  sort_impl(Variant::Out, values, indices, self, std::nullopt, dim, descending);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}
std::tuple<Tensor&, Tensor&> sort_out(const Tensor& values, const Tensor& indices,
                                      const Tensor& self, std::optional<bool> stable, int64_t dim,
                                      bool descending) {
  if (!stable) stable = false;
  sort_impl(Variant::Out, values, indices, self, stable, dim, descending);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}

// ATen's argsort and argsort.stable: sort's indices (CompositeImplicitAutograd).
Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  const UserOpScope scope("argsort");
  return std::get<1>(sort(self, dim, descending));
}
Tensor argsort(const Tensor& self, bool stable, int64_t dim, bool descending) {
  const UserOpScope scope("argsort");
  return std::get<1>(sort(self, std::optional<bool>(stable), dim, descending));
}

std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                bool sorted) {
  return topk_impl(Variant::Functional, {}, {}, self, k, dim, largest, sorted);
}
std::tuple<Tensor&, Tensor&> topk_out(const Tensor& values, const Tensor& indices,
                                      const Tensor& self, int64_t k, int64_t dim, bool largest,
                                      bool sorted) {
  topk_impl(Variant::Out, values, indices, self, k, dim, largest, sorted);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}

std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  return select_impl(OpId::kthvalue, Variant::Functional, {}, {}, self, k, dim, keepdim);
}
std::tuple<Tensor&, Tensor&> kthvalue_out(const Tensor& values, const Tensor& indices,
                                          const Tensor& self, int64_t k, int64_t dim,
                                          bool keepdim) {
  select_impl(OpId::kthvalue, Variant::Out, values, indices, self, k, dim, keepdim);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}

// Note [median over all elements]
// median() is ATen's own op (MedianBackward0: the gradient is split evenly among the elements
// equal to the result, evenly_distribute_backward); here it is the median kernel over self
// flattened, values only. An empty self gives NaN (floating) as ATen; integers have no NaN.
Tensor median(const Tensor& self) {
  const UserOpScope scope("median");
  meta::check_defined("median", self, "self");
  meta::check_dtype_supported("median", self.dtype(), op_info(OpId::median).dtypes, "self");
  if (self.numel() == 0) {
    TS_CHECK(is_floating_type(self.dtype()), "median: an empty input of dtype ", self.dtype(),
             " has no median (NaN does not fit the dtype) (argument 'self')");
    return full({}, NAN, self.options());
  }
  const Tensor flat = self.reshape({-1});
  const Tensor flat1[] = {flat};
  const KernelFn fn = lookup_kernel(OpId::median, self.dtype(), self.device());
  const Tensor values = meta::prepare_output(OpId::median, Variant::Functional, {}, {},
                                             self.dtype(), self.device(), flat1);
  OpParams p;
  p.compute_dtype = self.dtype();
  SortParams sp;
  sp.dim_overload = false;
  p.set(sp);
  run_kernel(fn,
             KernelCall{OpId::median, ArrayRef<Tensor>(&values, 1), flat1, p, Variant::Functional});
  return values;
}
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim) {
  return select_impl(OpId::median, Variant::Functional, {}, {}, self, 0, dim, keepdim);
}
std::tuple<Tensor&, Tensor&> median_out(const Tensor& values, const Tensor& indices,
                                        const Tensor& self, int64_t dim, bool keepdim) {
  select_impl(OpId::median, Variant::Out, values, indices, self, 0, dim, keepdim);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}

std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim, bool keepdim) {
  return select_impl(OpId::mode, Variant::Functional, {}, {}, self, 0, dim, keepdim);
}
std::tuple<Tensor&, Tensor&> mode_out(const Tensor& values, const Tensor& indices,
                                      const Tensor& self, int64_t dim, bool keepdim) {
  select_impl(OpId::mode, Variant::Out, values, indices, self, 0, dim, keepdim);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}

// ---- methods ----
std::tuple<Tensor, Tensor> Tensor::sort(int64_t dim, bool descending) const {
  return ts::sort(*this, dim, descending);
}
std::tuple<Tensor, Tensor> Tensor::sort(std::optional<bool> stable, int64_t dim,
                                        bool descending) const {
  return ts::sort(*this, stable, dim, descending);
}
Tensor Tensor::argsort(int64_t dim, bool descending) const {
  return ts::argsort(*this, dim, descending);
}
Tensor Tensor::argsort(bool stable, int64_t dim, bool descending) const {
  return ts::argsort(*this, stable, dim, descending);
}
std::tuple<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim, bool largest, bool sorted) const {
  return ts::topk(*this, k, dim, largest, sorted);
}
std::tuple<Tensor, Tensor> Tensor::kthvalue(int64_t k, int64_t dim, bool keepdim) const {
  return ts::kthvalue(*this, k, dim, keepdim);
}
Tensor Tensor::median() const {
  return ts::median(*this);
}
std::tuple<Tensor, Tensor> Tensor::median(int64_t dim, bool keepdim) const {
  return ts::median(*this, dim, keepdim);
}
std::tuple<Tensor, Tensor> Tensor::mode(int64_t dim, bool keepdim) const {
  return ts::mode(*this, dim, keepdim);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
namespace ts::autograd {
namespace {

// value_selecting_reduction_backward: grad to the elements at `indices` along dim, zeros
// elsewhere (indices of a row are distinct, so scatter_add is scatter). `keepdim` false: grad
// and indices lack dim and get it back as size 1.
Tensor select_backward(const BackwardArgs& a, bool keepdim) {
  const SortParams& p = a.p.get<SortParams>();
  if (a.input_sizes(0).empty()) return a.grad();  // a 0-dim self: the identity
  Tensor g = a.grad(), idx = a.output(1);
  if (!keepdim) {
    g = g.unsqueeze(p.dim);
    idx = idx.unsqueeze(p.dim);
  }
  return zeros(a.input_sizes(0), g.options()).scatter_add(p.dim, idx, g);
}

Grads keep_dim_backward(const BackwardArgs& a) {
  return {select_backward(a, true)};
}
Grads reduce_dim_backward(const BackwardArgs& a) {
  return {select_backward(a, a.p.get<SortParams>().keepdim)};
}

}  // namespace

TS_REGISTER_DERIVATIVES(sort) {
  // sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False)
  //   self: value_selecting_reduction_backward(grad, dim, indices, self.sizes(), true)
  m.def(OpId::sort, save_output(1), keep_dim_backward, [](const KernelCall& c) {
    return c.p.get<SortParams>().dim_overload ? "SortBackward1" : "SortBackward0";
  });
  // topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True)
  //   self: value_selecting_reduction_backward(grad, dim, indices, self.sizes(), true)
  m.def(OpId::topk, save_output(1), keep_dim_backward);
  // kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False)
  // mode(Tensor self, int dim=-1, bool keepdim=False)
  //   self: value_selecting_reduction_backward(grad, dim, indices, self.sizes(), keepdim)
  m.def(OpId::kthvalue, save_output(1), reduce_dim_backward);
  m.def(OpId::mode, save_output(1), reduce_dim_backward);
  // median.dim(Tensor self, int dim, bool keepdim=False): as kthvalue;
  // median(Tensor self): evenly_distribute_backward(grad, self, result) (Note [median over all
  // elements]): grad / count at the elements equal to the result (NaN: at the NaNs).
  m.def(
      OpId::median, save_inputs({0}) | save_output(0) | save_output(1),
      [](const BackwardArgs& a) -> Grads {
        if (a.p.get<SortParams>().dim_overload) return reduce_dim_backward(a);
        const Tensor& x = a.input(0);
        const Tensor& r = a.output(0);
        const Tensor mask = isnan(r).item<bool>() ? isnan(x) : eq(x, r);
        return {zeros(a.input_sizes(0), a.grad().options())
                    .masked_fill(mask, 1)
                    .mul(a.grad() / mask.sum())};
      },
      [](const KernelCall& c) {
        return c.p.get<SortParams>().dim_overload ? "MedianBackward1" : "MedianBackward0";
      });
}

}  // namespace ts::autograd
