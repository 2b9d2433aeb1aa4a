// Linear algebra: mm, bmm, addmm, dot, mv, outer (kernels) and matmul (composite).
// KernelCall and params, per op:
//   mm, bmm, dot, mv, outer: inputs {self, other}; compute_dtype = the operands' (common) dtype;
//          NoParams.
//   addmm: inputs {self expanded to (n, p), mat1, mat2}; compute_dtype = the operands' dtype;
//          AddmmParams{beta, alpha} (a beta of zero means self is not read, NaN included).
// Every op but outer needs operands of one dtype (as ATen's CPU gemm), and an out= tensor of that
// dtype; outer promotes like mul and casts to its out=.
// The dtypes each op is defined for are op_list.def's: all but bool (as PyTorch's CPU backend),
// and outer, a mul, takes bool too.
#include <algorithm>
#include <utility>

#include "../autograd/derivatives.h"
#include "../autograd/views.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

// Note [mm of mixed dtypes]
// ATen 1.13's CPU mm checks dtypes in its kernel, which an empty product never reaches: mm of
// float32 (0, 3) and float64 (3, 2) returns float32 there. Current PyTorch's mm meta refuses
// mixed dtypes up front, whatever the shapes; touchstone follows it (a parity "deliberate" row).
// The C++ type names ATen prints for a dtype (caffe2::TypeMeta), e.g. "float != double".
void check_same_dtype(const char* op, const char* a_name, const Tensor& a, const char* b_name,
                      const Tensor& b) {
  TS_CHECK(a.dtype() == b.dtype(), op, ": expected ", a_name, " and ", b_name,
           " to have the same dtype, but got: ", a.dtype(), " != ", b.dtype());
}

void check_multipliable(const char* op, const Tensor& m1, const Tensor& m2) {
  TS_CHECK(m1.size(1) == m2.size(0), op, ": mat1 and mat2 shapes cannot be multiplied (",
           m1.size(0), "x", m1.size(1), " and ", m2.size(0), "x", m2.size(1), ")");
}

// The tail of every kernel op: dtype support, kernel lookup, output, call. For InPlace the
// output is inputs[0], already checked by the caller.
Tensor run(OpId op, Variant v, const Tensor& out, IntArrayRef shape, ScalarType dtype,
           TensorList inputs, ParamsVariant args = NoParams{}) {
  const char* name = meta::op_name(op, v);
  const UserOpScope scope(name);
  const Device device = meta::common_device(name, inputs, op);
  // mm, bmm, mv of an empty result or over an empty contraction (zeros) reach no kernel in ATen,
  // whatever the dtype; dot does not skip its dtype check (Note [Nothing to compute]).
  // No product of the sizes here: a huge shape would overflow before the allocation refuses it.
  const bool empty_result = std::find(shape.begin(), shape.end(), 0) != shape.end();
  const bool empty_sum = op == OpId::mm || op == OpId::mv ? inputs[0].size(1) == 0
                         : op == OpId::bmm                ? inputs[0].size(2) == 0
                                                          : false;
  const bool nothing_to_compute =
      (op == OpId::mm || op == OpId::bmm || op == OpId::mv) && (empty_result || empty_sum);
  const bool no_kernel = meta::needs_no_kernel(op, dtype, nothing_to_compute);
  if (!no_kernel) meta::check_dtype_supported(name, dtype, op_info(op).dtypes, "self");
  OpParams p;
  p.compute_dtype = dtype;
  p.args = std::move(args);
  if (v == Variant::Out) {
    meta::check_defined(name, out, "out");
    // ATen: "result dtype Float does not match input dtype Double" (dot); "Expected out tensor to
    // have dtype float, but got double instead" (mm, bmm, addmm, mv). outer is a mul: it casts.
    if (op == OpId::dot) {
      TS_CHECK(out.dtype() == dtype, name, ": result dtype ", out.dtype(),
               " does not match input dtype ", dtype, " (argument 'out')");
    } else if (op != OpId::outer) {
      TS_CHECK(out.dtype() == dtype, name, ": Expected out tensor to have dtype ", dtype,
               ", but got ", out.dtype(), " instead (argument 'out')");
    }
    meta::check_out(name, out, shape, dtype);  // before the lookup, so its error comes first
  }
  if (no_kernel) {
    const Tensor result = meta::prepare_output(op, v, out, shape, dtype, device, inputs);
    if (!empty_result) result.zero_();
    return result;
  }
  const KernelFn fn = lookup_kernel(op, dtype, device);  // before anything is written
  const Tensor result = v == Variant::InPlace
                            ? inputs[0]
                            : meta::prepare_output(op, v, out, shape, dtype, device, inputs);
  run_kernel(fn, KernelCall{op, ArrayRef<Tensor>(&result, 1), inputs, p, v});
  return result;
}

Tensor mm_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& mat2) {
  meta::check_defined("mm", self, "self");
  meta::check_defined("mm", mat2, "mat2");
  TS_CHECK(self.dim() == 2, "mm: self must be a matrix");
  TS_CHECK(mat2.dim() == 2, "mm: mat2 must be a matrix");
  check_multipliable("mm", self, mat2);
  check_same_dtype("mm", "self", self, "mat2", mat2);
  const Tensor inputs[] = {self, mat2};
  const int64_t shape[] = {self.size(0), mat2.size(1)};
  return run(OpId::mm, v, out, shape, self.dtype(), inputs);
}

Tensor bmm_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& mat2) {
  meta::check_defined("bmm", self, "self");
  meta::check_defined("bmm", mat2, "mat2");
  TS_CHECK(self.dim() == 3, "bmm: batch1 must be a 3D tensor");
  TS_CHECK(mat2.dim() == 3, "bmm: batch2 must be a 3D tensor");
  const int64_t b = self.size(0), n = self.size(1), m = self.size(2);
  TS_CHECK(mat2.size(0) == b && mat2.size(1) == m,
           "bmm: Expected size for first two dimensions of batch2 tensor to be: [", b, ", ", m,
           "] but got: [", mat2.size(0), ", ", mat2.size(1), "].");
  check_same_dtype("bmm", "batch1", self, "batch2", mat2);
  const Tensor inputs[] = {self, mat2};
  const int64_t shape[] = {b, n, mat2.size(2)};
  return run(OpId::bmm, v, out, shape, self.dtype(), inputs);
}

Tensor addmm_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& mat1,
                  const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  const char* op = v == Variant::InPlace ? "addmm_" : "addmm";
  meta::check_defined(op, self, "self");
  meta::check_defined(op, mat1, "mat1");
  meta::check_defined(op, mat2, "mat2");
  TS_CHECK(mat1.dim() == 2, op, ": mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  TS_CHECK(mat2.dim() == 2, op, ": mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  check_multipliable(op, mat1, mat2);
  check_same_dtype(op, "mat1", mat1, "mat2", mat2);
  check_same_dtype(op, "mat2", mat2, "self", self);
  // As ATen's Scalar::to<scalar_t>(): integer products truncate a floating beta/alpha.
  meta::check_scalar_fits(op, beta, self.dtype(), "beta");
  meta::check_scalar_fits(op, alpha, self.dtype(), "alpha");
  const int64_t shape[] = {mat1.size(0), mat2.size(1)};
  Tensor self_expanded = self;
  if (v == Variant::InPlace) {
    // The result is written over self, so self cannot broadcast.
    TS_CHECK(self.sizes() == IntArrayRef(shape), op, ": Bad in-place call: input tensor size ",
             self.sizes(), " and output tensor size ", IntArrayRef(shape),
             " should match (argument 'self')");
    meta::check_no_internal_overlap(op, self);
    meta::check_no_partial_overlap(op, self, mat1);
    meta::check_no_partial_overlap(op, self, mat2);
  } else {
    TS_CHECK(self.dim() <= 2, op, ": self of shape ", self.sizes(),
             " can't be broadcast to the result shape ", IntArrayRef(shape));
    for (int64_t d = 0; d < self.dim(); ++d) {
      const int64_t s = self.sizes()[d], r = shape[2 - self.dim() + d];
      TS_CHECK(s == r || s == 1, op, ": self of shape ", self.sizes(),
               " can't be broadcast to the result shape ", IntArrayRef(shape));
    }
    self_expanded = self.expand(shape);
  }
  const Tensor inputs[] = {self_expanded, mat1, mat2};
  return run(OpId::addmm, v, out, shape, self.dtype(), inputs, AddmmParams{beta, alpha});
}

Tensor dot_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& other) {
  meta::check_defined("dot", self, "self");
  meta::check_defined("dot", other, "tensor");
  TS_CHECK(self.dim() == 1 && other.dim() == 1, "dot: 1D tensors expected, but got a ", self.dim(),
           "D self and a ", other.dim(), "D tensor");
  TS_CHECK(self.dtype() == other.dtype(),
           "dot: expected self and tensor to have the same dtype, but found ", self.dtype(),
           " and ", other.dtype());
  TS_CHECK(self.numel() == other.numel(), "dot: inconsistent tensor size, expected tensor [",
           self.numel(), "] and src [", other.numel(),
           "] to have the same number of elements, but got ", self.numel(), " and ", other.numel(),
           " elements respectively");
  const Tensor inputs[] = {self, other};
  return run(OpId::dot, v, out, {}, self.dtype(), inputs);
}

Tensor mv_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& vec) {
  meta::check_defined("mv", self, "self");
  meta::check_defined("mv", vec, "vec");
  TS_CHECK(self.dim() == 2 && vec.dim() == 1, "mv: matrix @ vector expected, but got a ",
           self.dim(), "-D self and a ", vec.dim(), "-D vec");
  TS_CHECK(self.size(1) == vec.size(0), "mv: size mismatch, got mat (", self.size(0), "x",
           self.size(1), "), vec (", vec.size(0), ")");
  check_same_dtype("mv", "self", self, "vec", vec);
  const Tensor inputs[] = {self, vec};
  const int64_t shape[] = {self.size(0)};
  return run(OpId::mv, v, out, shape, self.dtype(), inputs);
}

Tensor outer_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& vec2) {
  meta::check_defined("outer", self, "self");
  meta::check_defined("outer", vec2, "vec2");
  TS_CHECK(self.dim() == 1, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  TS_CHECK(vec2.dim() == 1, "outer: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  const Tensor inputs[] = {self, vec2};
  const int64_t shape[] = {self.size(0), vec2.size(0)};
  return run(OpId::outer, v, out, shape, result_type(self, vec2), inputs);
}

// Broadcasts two batch shapes (ATen's infer_size), naming matmul in the error.
DimVector broadcast_batch(IntArrayRef a, IntArrayRef b) {
  const size_t n = std::max(a.size(), b.size());
  DimVector r(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t sa = i + a.size() >= n ? a[i + a.size() - n] : 1;
    const int64_t sb = i + b.size() >= n ? b[i + b.size() - n] : 1;
    TS_CHECK(sa == sb || sa == 1 || sb == 1, "matmul: The size of tensor a (", sa,
             ") must match the size of tensor b (", sb, ") at non-singleton dimension ", i,
             " (the batch dims of self ", a, " and other ", b, ")");
    r[i] = sa == 1 ? sb : sa;
  }
  return r;
}

}  // namespace

// ---- mm, bmm, dot, mv, outer: the function, out= and method forms of name_impl ----
#define TS_PRODUCT_FORMS(name, other)                                              \
  Tensor name(const Tensor& self, const Tensor& other) {                           \
    return name##_impl(Variant::Functional, {}, self, other);                      \
  }                                                                                \
  Tensor& name##_out(const Tensor& out, const Tensor& self, const Tensor& other) { \
    name##_impl(Variant::Out, out, self, other);                                   \
    return const_cast<Tensor&>(out);                                               \
  }                                                                                \
  Tensor Tensor::name(const Tensor& other) const {                                 \
    return ts::name(*this, other);                                                 \
  }
TS_PRODUCT_FORMS(mm, mat2)
TS_PRODUCT_FORMS(bmm, mat2)
TS_PRODUCT_FORMS(dot, other)
TS_PRODUCT_FORMS(mv, vec)
TS_PRODUCT_FORMS(outer, vec2)
#undef TS_PRODUCT_FORMS

// ---- addmm ----
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  return addmm_impl(Variant::Functional, {}, self, mat1, mat2, beta, alpha);
}
Tensor& addmm_out(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                  const Scalar& beta, const Scalar& alpha) {
  addmm_impl(Variant::Out, out, self, mat1, mat2, beta, alpha);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                     const Scalar& alpha) const {
  return ts::addmm(*this, mat1, mat2, beta, alpha);
}
Tensor& Tensor::addmm_(const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                       const Scalar& alpha) const {
  addmm_impl(Variant::InPlace, {}, *this, mat1, mat2, beta, alpha);
  return const_cast<Tensor&>(*this);
}

// ---- matmul ----
// Note [matmul rules]
// As torch.matmul: 1-D @ 1-D is dot; 2-D @ 2-D is mm; a 1-D left operand gets a leading 1 and a
// 1-D right operand a trailing 1, removed from the result afterwards. N-D @ 1-D/2-D folds the
// left operand's batch dims into its rows for one mm (as ATen, so its errors are mm's). Any other
// case broadcasts the batch dims (all but the last two), expands both operands to them,
// flattens the batch into one dim and runs bmm: (j, 1, n, m) @ (k, m, p) -> (j, k, n, p).
Tensor matmul(const Tensor& self, const Tensor& other) {
  const UserOpScope scope("matmul");
  meta::check_defined("matmul", self, "self");
  meta::check_defined("matmul", other, "other");
  const int64_t d1 = self.dim(), d2 = other.dim();
  TS_CHECK(d1 >= 1 && d2 >= 1,
           "matmul: both arguments to matmul need to be at least 1D, but they are ", d1,
           "D (self) and ", d2, "D (other)");
  // Checked here so the message names matmul's arguments, not those of the op it runs.
  TS_CHECK(self.size(-1) == other.size(d2 == 1 ? 0 : -2),
           "matmul: self and other shapes cannot be multiplied (", self.sizes(), " and ",
           other.sizes(), ")");
  check_same_dtype("matmul", "self", self, "other", other);
  if (d1 == 1 && d2 == 1) return ts::dot(self, other);
  if (d1 == 2 && d2 == 1) return ts::mv(self, other);
  // The last step's node is ATen's: squeeze_(0) (SqueezeBackward3), _unsafe_view
  // (UnsafeViewBackward0).
  if (d1 == 1 && d2 == 2) {
    return autograd::view_named(ts::mm(self.unsqueeze(0), other), {other.size(1)},
                                "SqueezeBackward3");
  }
  if (d1 == 2 && d2 == 2) return ts::mm(self, other);
  if (d1 >= 3 && d2 <= 2) {
    // Fold the batch into the rows: (..., n, m) -> (B * n, m).
    const Tensor rhs = d2 == 1 ? other.unsqueeze(1) : other;
    DimVector shape(self.sizes().slice(0, static_cast<size_t>(d1 - 1)));
    int64_t rows = 1;  // not reshape(-1, m): with m == 0 the -1 would be ambiguous
    for (int64_t s : shape) rows *= s;
    const Tensor folded = ts::mm(self.reshape({rows, self.size(-1)}), rhs);
    if (d2 == 2) shape.push_back(other.size(1));
    return autograd::view_named(folded, shape, "UnsafeViewBackward0");
  }
  const Tensor lhs = d1 == 1 ? self.unsqueeze(0) : self;     // (..., n, m)
  const Tensor rhs = d2 == 1 ? other.unsqueeze(-1) : other;  // (..., m, p)
  const int64_t n = lhs.size(-2), m1 = lhs.size(-1), m2 = rhs.size(-2), p = rhs.size(-1);
  const DimVector batch = broadcast_batch(lhs.sizes().slice(0, static_cast<size_t>(lhs.dim() - 2)),
                                          rhs.sizes().slice(0, static_cast<size_t>(rhs.dim() - 2)));
  int64_t batch_numel = 1;
  for (int64_t s : batch) batch_numel *= s;
  DimVector lhs_shape(batch), rhs_shape(batch);
  lhs_shape.push_back(n);
  lhs_shape.push_back(m1);
  rhs_shape.push_back(m2);
  rhs_shape.push_back(p);
  const Tensor a = lhs.expand(lhs_shape).reshape({batch_numel, n, m1});
  const Tensor b = rhs.expand(rhs_shape).reshape({batch_numel, m2, p});
  DimVector shape(batch);
  if (d1 > 1) shape.push_back(n);
  if (d2 > 1) shape.push_back(p);
  // ATen 1.13 folds a 2-D self @ N-D other into one mm of other's transpose and returns its
  // transpose .contiguous() (CloneBackward0), unless other is 3-D with its last two dims
  // transposed (its should_fold); the values and the contiguous layout are the same here.
  const bool folded_by_aten = d1 == 2 && !(d2 == 3 && other.stride(2) != 1 &&
                                           other.stride(0) == other.size(1) * other.size(2));
  return autograd::view_named(ts::bmm(a, b), shape,
                              folded_by_aten ? "CloneBackward0" : "UnsafeViewBackward0");
}
Tensor Tensor::matmul(const Tensor& other) const {
  return ts::matmul(*this, other);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative]) ----
// KernelCall inputs as at the top of this file; matmul is a composite of these.
namespace ts::autograd {
namespace {

// t cast to the gradient's dtype (outer promotes its operands; the others need one dtype).
// Note [mm gradient layout]
// ATen's mm_mat1_backward / mm_mat2_backward give a column-major matrix (strides [1, rows]) a
// column-major gradient, computing its transpose; libtorch 1.13: mm(x.t(), m) with x [2, 3]
// gives x.t() the gradient strides [1, 3]. Used by mm and addmm (and so linear and matmul).
bool column_major(const Tensor& t) {
  return t.dim() == 2 && t.stride(0) == 1 && t.stride(1) == t.size(0);
}

Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat1, const Tensor& mat2) {
  return column_major(mat1) ? mat2.mm(grad.t()).t() : grad.mm(mat2.t());
}

Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, const Tensor& mat2) {
  return column_major(mat2) ? grad.t().mm(mat1).t() : mat1.t().mm(grad);
}

Tensor like(const Tensor& t, const Tensor& grad) {
  return t.dtype() == grad.dtype() ? t : t.to(grad.dtype());
}

}  // namespace

TS_REGISTER_DERIVATIVES(linalg) {
  // mm(Tensor self, Tensor mat2) -> Tensor
  //   self: grad.mm(mat2.t())          mat2: self.t().mm(grad)
  m.def(OpId::mm, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? mm_mat1_backward(a.grad(), a.input(0), a.input(1)) : Tensor(),
            a.needs_grad(1) ? mm_mat2_backward(a.grad(), a.input(0), a.input(1)) : Tensor()};
  });
  // bmm(Tensor self, Tensor mat2) -> Tensor
  //   self: grad.bmm(mat2.transpose(1, 2))    mat2: self.transpose(1, 2).bmm(grad)
  m.def(OpId::bmm, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? a.grad().bmm(a.input(1).transpose(1, 2)) : Tensor(),
            a.needs_grad(1) ? a.input(0).transpose(1, 2).bmm(a.grad()) : Tensor()};
  });
  // addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
  //   self: grad * beta    mat1: grad.mm(mat2.t()) * alpha    mat2: mat1.t().mm(grad) * alpha
  m.def(OpId::addmm, save_inputs({1, 2}), [](const BackwardArgs& a) -> Grads {
    const AddmmParams& ab = a.p.get<AddmmParams>();
    const double beta = ab.beta.to_double(), alpha = ab.alpha.to_double();
    return {
        a.needs_grad(0) ? a.grad() * beta : Tensor(),
        a.needs_grad(1) ? mm_mat1_backward(a.grad(), a.input(1), a.input(2)) * alpha : Tensor(),
        a.needs_grad(2) ? mm_mat2_backward(a.grad(), a.input(1), a.input(2)) * alpha : Tensor()};
  });
  // dot(Tensor self, Tensor tensor) -> Tensor
  //   self: grad * tensor              tensor: grad * self
  m.def(OpId::dot, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? a.grad() * a.input(1) : Tensor(),
            a.needs_grad(1) ? a.grad() * a.input(0) : Tensor()};
  });
  // mv(Tensor self, Tensor vec) -> Tensor
  //   self: grad.outer(vec)            vec: self.t().mv(grad)
  m.def(OpId::mv, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? outer(a.grad(), a.input(1)) : Tensor(),
            a.needs_grad(1) ? a.input(0).t().mv(a.grad()) : Tensor()};
  });
  // outer(Tensor self, Tensor vec2) -> Tensor
  //   self: grad.mv(vec2)              vec2: grad.t().mv(self)
  //   named MulBackward0: ATen's outer is a composite, a broadcast mul (current PyTorch too)
  m.def(
      OpId::outer, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        const Tensor& g = a.grad();
        return {a.needs_grad(0) ? g.mv(like(a.input(1), g)) : Tensor(),
                a.needs_grad(1) ? g.t().mv(like(a.input(0), g)) : Tensor()};
      },
      "MulBackward0");
}

}  // namespace ts::autograd
