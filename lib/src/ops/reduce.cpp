// Reductions and cumsum: meta (dims, dtypes, empty-input checks, output allocation) for every
// variant, the Tensor methods, and the derivatives (at the end).
// Params (touchstone/op_params.h; inputs {self}):
//   ReduceParams (sum, mean, prod, amax, amin, max, min, argmax, argmin, logsumexp, all, any):
//     dims: the input's reduced dims, wrapped, sorted, unique; every dim for the full
//       reductions and argmax/argmin without dim; {dim} for the single-dim forms (prod, max/min,
//       argmax/argmin, all/any with dim); empty for a 0-dim input (one element reduces to
//       itself). Kernels that need the single dim take dims[0] (dims.empty(): a 0-dim input).
//     keepdim: as given; with dims, it tells kernels where the output's reduced dims are (see
//       Note [Reduction outputs]). reduce_params(p) reads them from any reduction's struct.
//   VarParams (var, std): ReduceParams + correction (divide by N - correction).
//   NormParams (norm): ReduceParams + p, any double (Note [Norm of any p] in reference/reduce.cpp).
//   DimParams (cumsum): dim, the scanned dim, wrapped (0 for a 0-dim input).
//   compute_dtype: the dtype the input is cast to before accumulating, and the kernel key.
//     sum, prod, mean, cumsum: dtype= if given, else the out= tensor's dtype, else the result
//       dtype (int64 for bool/integer sum, prod, cumsum); var, std, norm: out's dtype or the
//       input's; logsumexp: the result dtype (default float for bool/integer inputs);
//     amax, amin, max, min, argmax, argmin, all, any: the input's dtype.
// Outputs: max/min with dim get (values, indices int64); max/min without dim get values only.
//
// Note [Reduction outputs]
// Kernels receive the tensors the op returns (so the autograd slot sees the real outputs; see
// Note [Autograd slot]), shaped as the result: reduced dims dropped unless keepdim. Viewed with
// the keepdim=true shape instead (size 1, stride 0 inserted at each of dims, as
// reference/reduce.cpp's keepdim_view does), output index `idx` names the input elements that
// agree with `idx` outside dims, so kernels can index inputs and outputs uniformly. cumsum's
// output has the input's shape.
//
// Note [Reduction out= dtypes]
// As in ATen, sum/prod/cumsum with out= and no dtype= take the out tensor's dtype as dtype=: the
// input is cast to it first, whatever the dtypes (a float32 sum into an int64 out truncates each
// element; any sum into a bool out is an any). mean keeps its floating check. With dtype= the out
// tensor must have exactly that dtype. amax/amin/max/min values must match the input's dtype,
// indices and argmax/argmin are int64, all/any write bool or uint8 (ATen's uint8 compatibility).
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

bool contains(IntArrayRef dims, int64_t d) {
  return std::find(dims.begin(), dims.end(), d) != dims.end();
}

// The result shape: reduced dims dropped, or kept with size 1.
DimVector reduced_shape(IntArrayRef sizes, IntArrayRef dims, bool keepdim) {
  DimVector shape;
  for (int64_t d = 0; d < static_cast<int64_t>(sizes.size()); ++d) {
    if (!contains(dims, d)) {
      shape.push_back(sizes[d]);
    } else if (keepdim) {
      shape.push_back(1);
    }
  }
  return shape;
}

// The reduced dims for a single dim argument (none for a 0-dim input, which accepts 0 and -1).
DimVector single_dim(const char* op, int64_t dim, const Tensor& self) {
  const int64_t wrapped = wrap_dim(dim, self.dim(), op);
  return self.dim() == 0 ? DimVector{} : DimVector{wrapped};
}

// Every check prepare_output makes for an out= tensor, without resizing it.
void check_out_tensor(const char* op, const Tensor& out, IntArrayRef shape, ScalarType result,
                      const Tensor& self, const char* arg = "out") {
  meta::check_out_of(op, out, shape, result, self, arg);
}
using meta::check_exact_dtype;

// ATen's zero_numel_check_dims: ops without an identity (max, argmax, ...) refuse to reduce an
// empty dim. `given` are the dims as the caller wrote them (they appear in the message).
void check_nonempty_dims(const char* op, const Tensor& self, IntArrayRef given) {
  if (self.numel() != 0) return;
  TS_CHECK(!given.empty(), op,
           ": Expected reduction dim to be specified for input.numel() == 0. Specify the "
           "reduction dim with the 'dim' argument.");
  for (int64_t d : given) {
    TS_CHECK(self.sizes()[wrap_dim(d, self.dim(), op)] != 0, op, ": Expected reduction dim ", d,
             " to have non-zero size.");
  }
}

// One single-output reduction, after the op-specific checks: checks out=, looks the kernel up,
// allocates or resizes, then runs the kernel with `params` (ReduceParams or a struct derived
// from it; see Note [Reduction outputs]).
template <class P>
Tensor reduce(OpId op, Variant v, const Tensor& out, const Tensor& self, P params,
              ScalarType result, ScalarType compute_dtype, bool no_kernel = false) {
  const char* name = name_of(op);
  const UserOpScope scope(name);
  const DimVector shape = reduced_shape(self.sizes(), params.dims, params.keepdim);
  if (v == Variant::Out) check_out_tensor(name, out, shape, result, self);
  if (no_kernel) {  // an empty result (Note [Nothing to compute])
    return meta::prepare_output(op, v, out, shape, result, self.device(),
                                ArrayRef<Tensor>(&self, 1));
  }
  const KernelFn fn = lookup_kernel(op, compute_dtype, self.device());
  const Tensor r =
      meta::prepare_output(op, v, out, shape, result, self.device(), ArrayRef<Tensor>(&self, 1));
  OpParams p;
  p.compute_dtype = compute_dtype;
  p.set(std::move(params));
  run_kernel(fn, KernelCall{op, ArrayRef<Tensor>(&r, 1), ArrayRef<Tensor>(&self, 1), p, v});
  return r;
}

// bool and integer sums and products accumulate in int64 (as ATen's promote_integers).
ScalarType accumulate_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral_type(self.dtype(), /*include_bool=*/true) ? kLong : self.dtype();
}

// sum, prod, mean: see Note [Reduction out= dtypes].
Tensor accumulate(OpId op, Variant v, const Tensor& out, const Tensor& self, ReduceParams params,
                  std::optional<ScalarType> dtype) {
  const char* name = name_of(op);
  if (v == Variant::Out && !dtype && op != OpId::mean) {
    meta::check_defined(name, out, "out");
    dtype = out.dtype();
  }
  const ScalarType result = accumulate_dtype(self, dtype);
  if (op == OpId::mean) {
    TS_CHECK(is_floating_type(result), "mean: could not infer output dtype. ",
             dtype ? "Optional" : "Input",
             " dtype must be either a floating point or complex dtype. Got: ",
             dtype ? *dtype : self.dtype());
  }
  ScalarType compute_dtype = result;
  if (v == Variant::Out) {
    meta::check_defined(name, out, "out");
    if (dtype) check_exact_dtype(name, out, *dtype, "out");
    compute_dtype = out.dtype();
  }
  return reduce(op, v, out, self, std::move(params), result, compute_dtype);
}

// sum, mean: over `dim` (every dim when empty); `dim_overload`: sum.dim_IntList, mean.dim.
Tensor sum_mean(OpId op, Variant v, const Tensor& out, const Tensor& self, IntArrayRef dim,
                bool keepdim, std::optional<ScalarType> dtype, bool dim_overload = true) {
  const char* name = name_of(op);
  meta::check_defined(name, self, "self");
  return accumulate(op, v, out, self,
                    {meta::reduction_dims(name, dim, self.dim()), keepdim, dim_overload}, dtype);
}

Tensor prod_impl(Variant v, const Tensor& out, const Tensor& self, std::optional<int64_t> dim,
                 bool keepdim, std::optional<ScalarType> dtype) {
  meta::check_defined("prod", self, "self");
  DimVector dims =
      dim ? single_dim("prod", *dim, self) : meta::reduction_dims("prod", {}, self.dim());
  return accumulate(OpId::prod, v, out, self, {std::move(dims), keepdim, dim.has_value()}, dtype);
}

// amax, amin: the input's dtype; no identity, so empty reduced dims are refused.
Tensor amax_amin(OpId op, Variant v, const Tensor& out, const Tensor& self, IntArrayRef dim,
                 bool keepdim) {
  const char* name = name_of(op);
  meta::check_defined(name, self, "self");
  if (v == Variant::Out) {
    meta::check_defined(name, out, "out");
    TS_CHECK(out.dtype() == self.dtype(), name,
             ": Expected the dtype for input and out to match, but got ", self.dtype(),
             " for input's dtype and ", out.dtype(), " for out's dtype.");
  }
  DimVector dims = meta::reduction_dims(name, dim, self.dim());
  check_nonempty_dims(name, self, dim);
  return reduce(op, v, out, self, ReduceParams{std::move(dims), keepdim}, self.dtype(),
                self.dtype());
}

// max(), min(): over every element, values only.
Tensor max_min_all(OpId op, const Tensor& self) {
  const char* name = name_of(op);
  meta::check_defined(name, self, "self");
  TS_CHECK(self.numel() > 0, name,
           ": Expected reduction dim to be specified for input.numel() == 0. Specify the "
           "reduction dim with the 'dim' argument.");
  return reduce(op, Variant::Functional, {}, self,
                ReduceParams{meta::reduction_dims(name, {}, self.dim()), false}, self.dtype(),
                self.dtype());
}

// max(dim), min(dim): (values, indices); with out= both are checked before either is written.
std::tuple<Tensor, Tensor> max_min_dim(OpId op, Variant v, const Tensor& values_out,
                                       const Tensor& indices_out, const Tensor& self, int64_t dim,
                                       bool keepdim) {
  const char* name = name_of(op);
  const UserOpScope scope(name);
  meta::check_defined(name, self, "self");
  DimVector dims = single_dim(name, dim, self);
  check_nonempty_dims(name, self, dims);
  const DimVector shape = reduced_shape(self.sizes(), dims, keepdim);
  if (v == Variant::Out) {
    check_exact_dtype(name, values_out, self.dtype(), "values");
    check_exact_dtype(name, indices_out, kLong, "indices");
    check_out_tensor(name, values_out, shape, self.dtype(), self, "values");
    check_out_tensor(name, indices_out, shape, kLong, self, "indices");
    meta::check_no_partial_overlap(name, values_out, indices_out, "values", "indices");
    meta::check_resized_outs_disjoint(name, values_out, indices_out, shape, "values", "indices");
  }
  const KernelFn fn = lookup_kernel(op, self.dtype(), self.device());
  const Tensor self1[] = {self};
  const Tensor values =
      meta::prepare_output(op, v, values_out, shape, self.dtype(), self.device(), self1);
  const Tensor indices =
      meta::prepare_output(op, v, indices_out, shape, kLong, self.device(), self1);
  const Tensor outputs[] = {values, indices};
  OpParams p;
  p.compute_dtype = self.dtype();
  p.set(ReduceParams{std::move(dims), keepdim});
  run_kernel(fn, KernelCall{op, outputs, self1, p, v});
  return {values, indices};
}

// argmax, argmin: int64 indices; without dim, into the flattened input.
Tensor argmax_argmin(OpId op, Variant v, const Tensor& out, const Tensor& self,
                     std::optional<int64_t> dim, bool keepdim) {
  const char* name = name_of(op);
  meta::check_defined(name, self, "self");
  DimVector dims;
  if (dim) {
    dims = single_dim(name, *dim, self);
    check_nonempty_dims(name, self, dims);
  } else {
    TS_CHECK(self.numel() != 0, name,
             ": Expected reduction dim to be specified for input.numel() == 0.");
    dims = meta::reduction_dims(name, {}, self.dim());
  }
  // ATen's shape checks come first; along a dim of an empty input no kernel is reached, so a
  // bool input passes (Note [Nothing to compute]).
  const bool no_kernel = meta::needs_no_kernel(op, self.dtype(), self.numel() == 0);
  if (!no_kernel) meta::check_dtype_supported(name, self.dtype(), op_info(op).dtypes, "self");
  if (v == Variant::Out) check_exact_dtype(name, out, kLong, "out");
  return reduce(op, v, out, self, ReduceParams{std::move(dims), keepdim}, kLong, self.dtype(),
                no_kernel);
}

// var, std, norm: floating inputs only; out= may hold a wider or narrower floating dtype.
// `params` has every field but dims.
template <class P>
Tensor floating_reduction(OpId op, Variant v, const Tensor& out, const Tensor& self,
                          IntArrayRef dim, P params) {
  const char* name = name_of(op);
  meta::check_defined(name, self, "self");
  if (op == OpId::norm) {
    TS_CHECK(is_floating_type(self.dtype()),
             "norm: input dtype should be either floating point or complex. Got ", self.dtype(),
             " instead (argument 'self').");
  } else {
    TS_CHECK(is_floating_type(self.dtype()), name,
             ": std and var only support floating point and complex dtypes, but got ", self.dtype(),
             " (argument 'self')");
  }
  params.dims = meta::reduction_dims(name, dim, self.dim());
  ScalarType compute_dtype = self.dtype();
  if (v == Variant::Out) {
    meta::check_defined(name, out, "out");
    if (can_cast(self.dtype(), out.dtype())) compute_dtype = out.dtype();
  }
  return reduce(op, v, out, self, std::move(params), self.dtype(), compute_dtype);
}

Tensor var_std(OpId op, Variant v, const Tensor& out, const Tensor& self, IntArrayRef dim,
               double correction, bool keepdim) {
  VarParams params;
  params.keepdim = keepdim;
  params.dim_overload = !dim.empty();  // dim=None: a full reduction (Note [Degenerate var...])
  params.correction = correction;
  return floating_reduction(op, v, out, self, dim, std::move(params));
}

Tensor norm_impl(Variant v, const Tensor& out, const Tensor& self, const Scalar& pv,
                 IntArrayRef dim, bool keepdim) {
  // ATen 1.13: "norm_kernel_tensor_iterator_impl expects norm to be integer or float".
  TS_CHECK(!pv.is_bool(), "norm: expects p to be an integer or float, but got ", pv,
           " (argument 'p')");
  NormParams params;
  params.keepdim = keepdim;
  params.dim_overload = !dim.empty();  // norm(self, p) is norm.Scalar: NormBackward0
  params.p = pv.to_double();
  return floating_reduction(OpId::norm, v, out, self, dim, std::move(params));
}

Tensor logsumexp_impl(Variant v, const Tensor& out, const Tensor& self, IntArrayRef dim,
                      bool keepdim) {
  meta::check_defined("logsumexp", self, "self");
  DimVector dims = meta::reduction_dims("logsumexp", dim, self.dim());
  const ScalarType result =
      is_integral_type(self.dtype(), /*include_bool=*/true) ? kDefaultDtype : self.dtype();
  if (v == Variant::Out) {
    meta::check_defined("logsumexp", out, "out");
    TS_CHECK(
        is_floating_type(out.dtype()),
        "logsumexp: Expected floating point type for result tensor (argument 'out'), but got: ",
        out.dtype());
  }
  return reduce(OpId::logsumexp, v, out, self, ReduceParams{std::move(dims), keepdim}, result,
                result);
}

// all, any: bool results (uint8 for uint8 inputs); out= may be bool or uint8.
Tensor all_any(OpId op, Variant v, const Tensor& out, const Tensor& self,
               std::optional<int64_t> dim, bool keepdim) {
  const char* name = name_of(op);
  meta::check_defined(name, self, "self");
  DimVector dims = dim ? single_dim(name, *dim, self) : meta::reduction_dims(name, {}, self.dim());
  ScalarType result = self.dtype() == kByte ? kByte : kBool;
  if (v == Variant::Out) {
    meta::check_defined(name, out, "out");
    TS_CHECK(out.dtype() == kBool || out.dtype() == kByte, name,
             ": only supports bool tensor for result (argument 'out'), got: ", out.dtype());
    result = out.dtype();
  }
  return reduce(op, v, out, self, ReduceParams{std::move(dims), keepdim}, result, self.dtype());
}

Tensor cumsum_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                   std::optional<ScalarType> dtype) {
  const char* op = meta::op_name(OpId::cumsum, v);
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  if (v == Variant::Out && !dtype) {
    meta::check_defined("cumsum", out, "out");
    dtype = out.dtype();  // Note [Reduction out= dtypes]
  }
  OpParams p;
  p.set(DimParams{wrap_dim(dim, self.dim(), op)});
  const ScalarType result = accumulate_dtype(self, dtype);
  p.compute_dtype = result;
  // ATen's cumsum has no bool kernel ("cumsum_out_cpu" not implemented for 'Bool'): bool input
  // sums in int64, but dtype=bool, a bool out= or cumsum_ on bool is refused.
  const bool bool_compute = v == Variant::InPlace ? self.dtype() == kBool : result == kBool;
  // ATen's cumsum_ reaches no kernel for a 0-dim (a copy of itself) or empty self: bool passes.
  const bool no_kernel = v == Variant::InPlace && (self.dim() == 0 || self.numel() == 0);
  TS_CHECK(!bool_compute || no_kernel, op, ": not implemented for dtype bool (argument '",
           v == Variant::InPlace ? "self"
           : v == Variant::Out   ? "out"
                                 : "dtype",
           "')");
  const Tensor self1[] = {self};
  if (v == Variant::InPlace) {
    TS_CHECK(!dtype || *dtype == self.dtype(), "cumsum_: Bad in-place call: input tensor dtype ",
             self.dtype(), " and output tensor dtype ", *dtype, " should match (argument 'dtype')");
    meta::check_no_internal_overlap("cumsum_", self, "self");
    p.compute_dtype = self.dtype();
    if (bool_compute) return self;  // no_kernel
    const KernelFn fn = lookup_kernel(OpId::cumsum, p.compute_dtype, self.device());
    run_kernel(fn, KernelCall{OpId::cumsum, self1, self1, p, v});
    return self;
  }
  if (v == Variant::Out) {
    meta::check_defined("cumsum", out, "out");
    if (dtype) check_exact_dtype("cumsum", out, *dtype, "out");
    check_out_tensor("cumsum", out, self.sizes(), result, self);
    p.compute_dtype = out.dtype();
  }
  const KernelFn fn = lookup_kernel(OpId::cumsum, p.compute_dtype, self.device());
  const Tensor r =
      meta::prepare_output(OpId::cumsum, v, out, self.sizes(), result, self.device(), self1);
  run_kernel(fn, KernelCall{OpId::cumsum, ArrayRef<Tensor>(&r, 1), self1, p, v});
  return r;
}

}  // namespace

// ---- sum, mean, prod ----
Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return sum_mean(OpId::sum, Variant::Functional, {}, self, {}, false, dtype, false);
}
Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  return sum_mean(OpId::sum, Variant::Functional, {}, self, dim, keepdim, dtype);
}
Tensor& sum_out(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim,
                std::optional<ScalarType> dtype) {
  sum_mean(OpId::sum, Variant::Out, out, self, dim, keepdim, dtype);
  return const_cast<Tensor&>(out);
}
Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  return sum_mean(OpId::mean, Variant::Functional, {}, self, {}, false, dtype, false);
}
Tensor mean(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  return sum_mean(OpId::mean, Variant::Functional, {}, self, dim, keepdim, dtype);
}
Tensor& mean_out(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim,
                 std::optional<ScalarType> dtype) {
  sum_mean(OpId::mean, Variant::Out, out, self, dim, keepdim, dtype);
  return const_cast<Tensor&>(out);
}
Tensor prod(const Tensor& self, std::optional<ScalarType> dtype) {
  return prod_impl(Variant::Functional, {}, self, std::nullopt, false, dtype);
}
Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return prod_impl(Variant::Functional, {}, self, dim, keepdim, dtype);
}
Tensor& prod_out(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim,
                 std::optional<ScalarType> dtype) {
  prod_impl(Variant::Out, out, self, dim, keepdim, dtype);
  return const_cast<Tensor&>(out);
}

// ---- amax, amin, max, min, argmax, argmin ----
Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return amax_amin(OpId::amax, Variant::Functional, {}, self, dim, keepdim);
}
Tensor& amax_out(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  amax_amin(OpId::amax, Variant::Out, out, self, dim, keepdim);
  return const_cast<Tensor&>(out);
}
Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return amax_amin(OpId::amin, Variant::Functional, {}, self, dim, keepdim);
}
Tensor& amin_out(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  amax_amin(OpId::amin, Variant::Out, out, self, dim, keepdim);
  return const_cast<Tensor&>(out);
}
Tensor max(const Tensor& self) {
  return max_min_all(OpId::max, self);
}
Tensor min(const Tensor& self) {
  return max_min_all(OpId::min, self);
}
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return max_min_dim(OpId::max, Variant::Functional, {}, {}, self, dim, keepdim);
}
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return max_min_dim(OpId::min, Variant::Functional, {}, {}, self, dim, keepdim);
}
std::tuple<Tensor&, Tensor&> max_out(const Tensor& values, const Tensor& indices,
                                     const Tensor& self, int64_t dim, bool keepdim) {
  max_min_dim(OpId::max, Variant::Out, values, indices, self, dim, keepdim);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}
std::tuple<Tensor&, Tensor&> min_out(const Tensor& values, const Tensor& indices,
                                     const Tensor& self, int64_t dim, bool keepdim) {
  max_min_dim(OpId::min, Variant::Out, values, indices, self, dim, keepdim);
  return {const_cast<Tensor&>(values), const_cast<Tensor&>(indices)};
}
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return argmax_argmin(OpId::argmax, Variant::Functional, {}, self, dim, keepdim);
}
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return argmax_argmin(OpId::argmin, Variant::Functional, {}, self, dim, keepdim);
}
Tensor& argmax_out(const Tensor& out, const Tensor& self, std::optional<int64_t> dim,
                   bool keepdim) {
  argmax_argmin(OpId::argmax, Variant::Out, out, self, dim, keepdim);
  return const_cast<Tensor&>(out);
}
Tensor& argmin_out(const Tensor& out, const Tensor& self, std::optional<int64_t> dim,
                   bool keepdim) {
  argmax_argmin(OpId::argmin, Variant::Out, out, self, dim, keepdim);
  return const_cast<Tensor&>(out);
}

// ---- var, std, norm, logsumexp ----
Tensor var(const Tensor& self, IntArrayRef dim, double correction, bool keepdim) {
  return var_std(OpId::var, Variant::Functional, {}, self, dim, correction, keepdim);
}
Tensor& var_out(const Tensor& out, const Tensor& self, IntArrayRef dim, double correction,
                bool keepdim) {
  var_std(OpId::var, Variant::Out, out, self, dim, correction, keepdim);
  return const_cast<Tensor&>(out);
}
Tensor std(const Tensor& self, IntArrayRef dim, double correction, bool keepdim) {
  return var_std(OpId::std, Variant::Functional, {}, self, dim, correction, keepdim);
}
Tensor& std_out(const Tensor& out, const Tensor& self, IntArrayRef dim, double correction,
                bool keepdim) {
  var_std(OpId::std, Variant::Out, out, self, dim, correction, keepdim);
  return const_cast<Tensor&>(out);
}
Tensor norm(const Tensor& self, const Scalar& p, IntArrayRef dim, bool keepdim) {
  return norm_impl(Variant::Functional, {}, self, p, dim, keepdim);
}
Tensor& norm_out(const Tensor& out, const Tensor& self, const Scalar& p, IntArrayRef dim,
                 bool keepdim) {
  norm_impl(Variant::Out, out, self, p, dim, keepdim);
  return const_cast<Tensor&>(out);
}
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return logsumexp_impl(Variant::Functional, {}, self, dim, keepdim);
}
Tensor& logsumexp_out(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  logsumexp_impl(Variant::Out, out, self, dim, keepdim);
  return const_cast<Tensor&>(out);
}

// ---- all, any, cumsum ----
Tensor all(const Tensor& self) {
  return all_any(OpId::all, Variant::Functional, {}, self, std::nullopt, false);
}
Tensor all(const Tensor& self, int64_t dim, bool keepdim) {
  return all_any(OpId::all, Variant::Functional, {}, self, dim, keepdim);
}
Tensor& all_out(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim) {
  all_any(OpId::all, Variant::Out, out, self, dim, keepdim);
  return const_cast<Tensor&>(out);
}
Tensor any(const Tensor& self) {
  return all_any(OpId::any, Variant::Functional, {}, self, std::nullopt, false);
}
Tensor any(const Tensor& self, int64_t dim, bool keepdim) {
  return all_any(OpId::any, Variant::Functional, {}, self, dim, keepdim);
}
Tensor& any_out(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim) {
  all_any(OpId::any, Variant::Out, out, self, dim, keepdim);
  return const_cast<Tensor&>(out);
}
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return cumsum_impl(Variant::Functional, {}, self, dim, dtype);
}
Tensor& cumsum_out(const Tensor& out, const Tensor& self, int64_t dim,
                   std::optional<ScalarType> dtype) {
  cumsum_impl(Variant::Out, out, self, dim, dtype);
  return const_cast<Tensor&>(out);
}

// ---- Tensor methods ----
Tensor Tensor::sum(std::optional<ScalarType> dtype) const {
  return ts::sum(*this, dtype);
}
Tensor Tensor::sum(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ts::sum(*this, dim, keepdim, dtype);
}
Tensor Tensor::mean(std::optional<ScalarType> dtype) const {
  return ts::mean(*this, dtype);
}
Tensor Tensor::mean(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ts::mean(*this, dim, keepdim, dtype);
}
Tensor Tensor::prod(std::optional<ScalarType> dtype) const {
  return ts::prod(*this, dtype);
}
Tensor Tensor::prod(int64_t dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ts::prod(*this, dim, keepdim, dtype);
}
Tensor Tensor::amax(IntArrayRef dim, bool keepdim) const {
  return ts::amax(*this, dim, keepdim);
}
Tensor Tensor::amin(IntArrayRef dim, bool keepdim) const {
  return ts::amin(*this, dim, keepdim);
}
Tensor Tensor::max() const {
  return ts::max(*this);
}
Tensor Tensor::min() const {
  return ts::min(*this);
}
std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool keepdim) const {
  return ts::max(*this, dim, keepdim);
}
std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool keepdim) const {
  return ts::min(*this, dim, keepdim);
}
Tensor Tensor::argmax(std::optional<int64_t> dim, bool keepdim) const {
  return ts::argmax(*this, dim, keepdim);
}
Tensor Tensor::argmin(std::optional<int64_t> dim, bool keepdim) const {
  return ts::argmin(*this, dim, keepdim);
}
Tensor Tensor::var(IntArrayRef dim, double correction, bool keepdim) const {
  return ts::var(*this, dim, correction, keepdim);
}
Tensor Tensor::std(IntArrayRef dim, double correction, bool keepdim) const {
  return ts::std(*this, dim, correction, keepdim);
}
Tensor Tensor::norm(const Scalar& p, IntArrayRef dim, bool keepdim) const {
  return ts::norm(*this, p, dim, keepdim);
}
Tensor Tensor::logsumexp(IntArrayRef dim, bool keepdim) const {
  return ts::logsumexp(*this, dim, keepdim);
}
Tensor Tensor::all() const {
  return ts::all(*this);
}
Tensor Tensor::all(int64_t dim, bool keepdim) const {
  return ts::all(*this, dim, keepdim);
}
Tensor Tensor::any() const {
  return ts::any(*this);
}
Tensor Tensor::any(int64_t dim, bool keepdim) const {
  return ts::any(*this, dim, keepdim);
}
Tensor Tensor::cumsum(int64_t dim, std::optional<ScalarType> dtype) const {
  return ts::cumsum(*this, dim, dtype);
}
Tensor& Tensor::cumsum_(int64_t dim, std::optional<ScalarType> dtype) const {
  cumsum_impl(Variant::InPlace, {}, *this, dim, dtype);
  return const_cast<Tensor&>(*this);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
// Every call has inputs {self}; see Params above and Note [Reduction outputs].
namespace ts::autograd {
namespace {

const DimVector& dims_of(const BackwardArgs& a) {
  return reduce_params(a.p).dims;
}

// A reduced tensor with its reduced dims put back as size 1 (so it broadcasts to the input).
Tensor restore(Tensor t, const BackwardArgs& a) {
  if (reduce_params(a.p).keepdim) return t;
  for (int64_t d : dims_of(a)) t = t.unsqueeze(d);
  return t;
}

// How many input elements each output element reduces.
int64_t reduced_count(const BackwardArgs& a) {
  int64_t n = 1;
  for (int64_t d : dims_of(a)) n *= a.input_sizes(0)[static_cast<size_t>(d)];
  return n;
}

// The gradient of a reduction that picks the extreme value: split evenly among the elements
// equal to it (amax, amin, max(), min(), as ATen's evenly_distribute_backward).
Grads evenly_to_ties(const BackwardArgs& a) {
  const Tensor mask = eq(a.input(0), restore(a.output(), a));
  const Tensor count = mask.sum(dims_of(a), /*keepdim=*/true);
  return {restore(a.grad(), a) * mask / count};
}

// The gradient of var for grad `g` (already restored): 2 / (N - correction) * g * (x - mean).
// Note [Norm gradients]
// Current PyTorch's norm_backward: p = 0 gives no gradient (undefined, as ATen: a leaf's .grad
// stays unset); 1: grad * sgn(x); 2: x * grad / norm; inf / -inf: grad * sgn(x) split evenly
// among the elements equal to the max / min of |x| or NaN (then the norm is NaN too: 1.13's
// test "x and norm NaN" and current PyTorch's "x NaN" agree); p < 1: sgn(x) |x|^(p-1) (0 at x = 0)
// * grad * norm^(1-p); otherwise x |x|^(p-2) * grad / norm^(p-1) (0 where norm = 0).
//
// Note [Degenerate var and std]
// The forward divides by max(0, N - correction). The gradient is current PyTorch's var_backward:
// a full reduction (no dim, or a 0-dim input) with N <= correction gives g * (NaN where x equals
// the mean, else inf); along dims 2 / (N - correction) is used as it is (inf * 0 = NaN at
// N == correction, finite and of the opposite sign beyond). So one element with correction 1 is
// NaN, value and gradient. libtorch 1.13 differs and is not followed: it raises "Function
// VarBackward0 returned an invalid gradient at index 0 - got [] but expected shape compatible
// with [1]" (StdBackward0 alike) for a full reduction of a 1-D tensor with N <= correction and
// gives inf for a 0-dim one with correction 1, artifacts of its formula.
Tensor var_backward(const Tensor& g, const BackwardArgs& a) {
  const Tensor& x = a.input(0);
  const Tensor mean = x.mean(dims_of(a), /*keepdim=*/true);
  const double dof = static_cast<double>(reduced_count(a)) - a.p.get<VarParams>().correction;
  const bool full = !reduce_params(a.p).dim_overload || a.input_sizes(0).empty();
  if (full && dof <= 0) return g * where(eq(x, mean), NAN, full_like(x, INFINITY));
  return g * (x - mean) * (2.0 / dof);
}

// prod over one dim d of x, for grad `g` with d kept: the product of the others, written so
// that no zero is ever divided by (the zero count picks the branch).
Tensor prod_backward_dim(const Tensor& g, const Tensor& x, int64_t d) {
  const Tensor zero = eq(x, 0);
  const Tensor x_safe = where(zero, 1, x);
  const Tensor nonzero_prod = x_safe.prod(d, /*keepdim=*/true);
  const Tensor zeros_in_row = zero.sum({d}, /*keepdim=*/true);
  const Tensor at_zero = where(eq(zeros_in_row, 1), nonzero_prod, 0);
  const Tensor elsewhere = where(eq(zeros_in_row, 0), nonzero_prod / x_safe, 0);
  return g * where(zero, at_zero, elsewhere);
}

// Note [Reduction node names]
// ATen names the node after the overload (libtorch 1.13's grad_fn()->name()): sum(), mean(),
// prod() and norm(p) are <Op>Backward0, their per-dim overloads (dim given, even empty, except
// norm's) <Op>Backward1; max() and min() are Max/MinBackward1, max/min(dim) ...Backward0.
template <const char* kFull, const char* kDim>
const char* overload_name(const KernelCall& c) {
  return reduce_params(c.p).dim_overload ? kDim : kFull;
}
constexpr char kSum0[] = "SumBackward0", kSum1[] = "SumBackward1", kMean0[] = "MeanBackward0",
               kMean1[] = "MeanBackward1", kProd0[] = "ProdBackward0", kProd1[] = "ProdBackward1",
               kNorm0[] = "NormBackward0", kNorm1[] = "NormBackward1";

}  // namespace

TS_REGISTER_DERIVATIVES(reduce) {
  // sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
  //   self: grad.expand(self.sizes()) (reduced dims restored)
  m.def(
      OpId::sum, save_nothing(),
      [](const BackwardArgs& a) -> Grads {
        return {restore(a.grad(), a).expand(a.input_sizes(0))};
      },
      overload_name<kSum0, kSum1>);
  // mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
  //   self: grad.expand(self.sizes()) / N
  m.def(
      OpId::mean, save_nothing(),
      [](const BackwardArgs& a) -> Grads {
        return {restore(a.grad(), a).expand(a.input_sizes(0)) /
                static_cast<double>(reduced_count(a))};
      },
      overload_name<kMean0, kMean1>);
  // prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None)
  //   self: grad * (product of the other elements); prod() over all dims flattens first
  // Note [prod gradient layout]
  // ATen's prod_backward of prod() over several dims is grad * (result / self) when self has no
  // zero, laid out like self (libtorch 1.13: a transposed [2, 3] self gets strides [1, 2]), else
  // the flattened product of the others, contiguous. prod(dim) is elementwise in self already.
  m.def(
      OpId::prod, save_inputs({0}) | save_output(),
      [](const BackwardArgs& a) -> Grads {
        const Tensor& x = a.input(0);
        const DimVector& dims = dims_of(a);
        if (dims.empty()) return {a.grad()};
        if (dims.size() > 1) {
          if (!eq(x, 0).any().item<bool>()) return {a.grad() * (a.output() / x)};
          return {prod_backward_dim(a.grad().reshape({1}), x.reshape({-1}), 0).reshape(x.sizes())};
        }
        return {prod_backward_dim(restore(a.grad(), a), x, dims[0])};
      },
      overload_name<kProd0, kProd1>);
  // amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
  // amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
  //   self: grad split evenly among the elements equal to the result
  m.def(OpId::amax, save_inputs({0}) | save_output(), evenly_to_ties);
  m.def(OpId::amin, save_inputs({0}) | save_output(), evenly_to_ties);
  // max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  // min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  //   self: grad to the returned index (value_selecting_reduction_backward); max() and min()
  //   over all elements (values only) split it evenly among ties, as amax.
  for (OpId op : {OpId::max, OpId::min}) {
    m.def(
        op, save_inputs({0}) | save_output(0) | save_output(1),
        [](const BackwardArgs& a) -> Grads {
          const DimVector& dims = dims_of(a);
          if (dims.empty()) return {a.grad()};  // a 0-dim input
          // max(), min(): contiguous as ATen's evenly_distribute_backward (a zeros_like of
          // self in contiguous format, masked_fill_ed).
          if (a.num_outputs() == 1) return {evenly_to_ties(a)[0].contiguous()};
          return {zeros(a.input_sizes(0), a.grad().options())
                      .scatter_add(dims[0], restore(a.output(1), a), restore(a.grad(), a))};
        },
        op == OpId::max ? NameFn{[](const KernelCall& c) {
          return c.outputs.size() == 1 ? "MaxBackward1" : "MaxBackward0";
        }}
                        : NameFn{[](const KernelCall& c) {
                            return c.outputs.size() == 1 ? "MinBackward1" : "MinBackward0";
                          }});
  }
  // var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)
  //   self: 2 / (N - correction) * grad * (self - self.mean(dim, true))
  m.def(OpId::var, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {var_backward(restore(a.grad(), a), a)}; });
  // std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)
  //   self: var's gradient for grad / (2 * result), 0 where result == 0
  m.def(OpId::std, save_inputs({0}) | save_output(), [](const BackwardArgs& a) -> Grads {
    const Tensor result = restore(a.output(), a);
    const Tensor g = (restore(a.grad(), a) / (result * 2)).masked_fill(eq(result, 0), 0);
    return {var_backward(g, a)};
  });
  // norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor
  //   self: norm_backward, Note [Norm gradients]
  m.def(
      OpId::norm, save_inputs({0}) | save_output(),
      [](const BackwardArgs& a) -> Grads {
        const Tensor& x = a.input(0);
        const Tensor g = restore(a.grad(), a);
        const Tensor norm = restore(a.output(), a);
        const double p = a.p.get<NormParams>().p;
        if (p == 0) return {Tensor()};
        if (p == 1) return {g * x.sign()};
        if (p == 2) return {x * (g / norm).masked_fill(eq(norm, 0), 0)};
        if (std::isinf(p)) {
          const Tensor mask = logical_or(eq(x.abs(), norm), isnan(x));
          return {x.sign() * (g / mask.sum(dims_of(a), /*keepdim=*/true)) * mask};
        }
        if (p < 1) {
          const Tensor scaled = x.sign() * x.abs().pow(p - 1).masked_fill(eq(x, 0), 0);
          return {scaled * g * norm.pow(1 - p)};
        }
        const Tensor scaled = p < 2 ? x.sign() * x.abs().pow(p - 1) : x * x.abs().pow(p - 2);
        return {scaled * (g / norm.pow(p - 1)).masked_fill(eq(norm, 0), 0)};
      },
      overload_name<kNorm0, kNorm1>);
  // logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
  //   self: grad * exp(self - result)
  m.def(OpId::logsumexp, save_inputs({0}) | save_output(), [](const BackwardArgs& a) -> Grads {
    return {restore(a.grad(), a) * exp(a.input(0) - restore(a.output(), a))};
  });
  // cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
  //   self: the reversed cumsum of grad: grad.sum(dim) - grad.cumsum(dim) + grad
  m.def(OpId::cumsum, save_nothing(), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    if (g.dim() == 0) return {g};
    const int64_t dim = a.p.get<DimParams>().dim;
    return {g.sum({dim}, /*keepdim=*/true) - g.cumsum(dim) + g};
  });
}

}  // namespace ts::autograd
