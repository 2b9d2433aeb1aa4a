// The linear-algebra-shaped composites of issue 16: baddbmm (bmm, mul, add), addbmm and addmv
// (addmm over reshaped operands). Every operand has one dtype, as ATen's CPU kernels demand.
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

void check_dtypes(const char* op, const Tensor& self, const char* a_name, const Tensor& a,
                  const char* b_name, const Tensor& b) {
  TS_CHECK(self.dtype() == a.dtype() && a.dtype() == b.dtype(), op,
           ": Input dtypes must be the same, got: input ", self.dtype(), ", ", a_name, ": ",
           a.dtype(), ", ", b_name, ": ", b.dtype(), " (argument '", a_name, "')");
}

// self broadcast to `shape` (named in the error, as ATen's expand_size).
Tensor expand_self(const char* op, const Tensor& self, IntArrayRef shape) {
  bool ok = self.dim() <= static_cast<int64_t>(shape.size());
  for (int64_t d = 0; ok && d < self.dim(); ++d) {
    const int64_t s = self.size(d), r = shape[shape.size() - self.dim() + d];
    ok = s == r || s == 1;
  }
  TS_CHECK(ok, op, ": self of shape ", self.sizes(), " can't be broadcast to the result shape ",
           shape, " (argument 'self')");
  return self.expand(shape);
}

}  // namespace

// Note [baddbmm's beta and alpha]
// alpha scales the product and beta self, each Scalar checked to fit the dtype as addmm's; a
// beta of zero leaves self out entirely, so its NaN and inf do not reach the result (ATen: "if
// beta is 0, then input will be ignored, and nan and inf in it will not be propagated").
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  const char* op = "baddbmm";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, batch1, "batch1");
  meta::check_defined(op, batch2, "batch2");
  TS_CHECK(batch1.dim() == 3, op, ": batch1 must be a 3D tensor (argument 'batch1')");
  TS_CHECK(batch2.dim() == 3, op, ": batch2 must be a 3D tensor (argument 'batch2')");
  check_dtypes(op, self, "batch1", batch1, "batch2", batch2);
  meta::check_scalar_fits(op, beta, self.dtype(), "beta");
  meta::check_scalar_fits(op, alpha, self.dtype(), "alpha");
  TS_CHECK(batch1.dtype() != kBool, op, ": \"baddbmm\" not implemented for 'Bool' (argument ",
           "'self')");
  const int64_t shape[] = {batch1.size(0), batch1.size(1), batch2.size(2)};
  const Tensor self_ = expand_self(op, self, shape);
  // Integer dtypes truncate a floating beta or alpha, as ATen's Scalar::to<scalar_t>().
  const bool floating = is_floating_type(self.dtype());
  const Scalar b = floating ? beta : Scalar(beta.to<int64_t>());
  const Scalar a = floating ? alpha : Scalar(alpha.to<int64_t>());
  Tensor product = bmm(batch1, batch2);
  if (a.to_double() != 1) product = product * a;
  if (b.to_double() == 0) return product;
  return b.to_double() == 1 ? self_ + product : self_ * b + product;
}
Tensor Tensor::baddbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                       const Scalar& alpha) const {
  return ts::baddbmm(*this, batch1, batch2, beta, alpha);
}

// Note [addbmm as one addmm]
// sum over b of batch1[b] @ batch2[b] is one product of batch1 laid out as [n, b * m] (the
// batches side by side) and batch2 as [b * m, p]; addmm then applies beta and alpha.
Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
              const Scalar& alpha) {
  const char* op = "addbmm";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, batch1, "batch1");
  meta::check_defined(op, batch2, "batch2");
  TS_CHECK(batch1.dim() == 3, op, ": batch1 must be a 3D tensor (argument 'batch1')");
  TS_CHECK(batch2.dim() == 3, op, ": batch2 must be a 3D tensor (argument 'batch2')");
  TS_CHECK(batch1.size(0) == batch2.size(0), op,
           ": batch1 and batch2 must have same number of batches, got ", batch1.size(0), " and ",
           batch2.size(0), " (argument 'batch2')");
  TS_CHECK(batch1.size(2) == batch2.size(1), op, ": Incompatible matrix sizes for bmm (",
           batch1.size(1), "x", batch1.size(2), " and ", batch2.size(1), "x", batch2.size(2),
           ") (argument 'batch2')");
  check_dtypes(op, self, "batch1", batch1, "batch2", batch2);
  const int64_t b = batch1.size(0), n = batch1.size(1), m = batch1.size(2), p = batch2.size(2);
  const int64_t shape[] = {n, p};
  expand_self(op, self, shape);
  const int64_t s1[] = {n, b * m}, s2[] = {b * m, p};
  return addmm(self, batch1.permute({1, 0, 2}).reshape(s1), batch2.reshape(s2), beta, alpha);
}
Tensor Tensor::addbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                      const Scalar& alpha) const {
  return ts::addbmm(*this, batch1, batch2, beta, alpha);
}

// addmv = addmm with vec as an [m, 1] matrix and self as a column, the result's column as [n].
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
             const Scalar& alpha) {
  const char* op = "addmv";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, mat, "mat");
  meta::check_defined(op, vec, "vec");
  TS_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1, op,
           ": vector + matrix @ vector expected, got ", self.dim(), ", ", mat.dim(), ", ",
           vec.dim(), " (argument 'mat')");
  TS_CHECK(mat.size(1) == vec.size(0) &&
               (self.dim() == 0 || self.size(0) == mat.size(0) || self.size(0) == 1),
           op, ": size mismatch, got input (", self.dim() == 0 ? 1 : self.size(0), "), mat (",
           mat.size(0), "x", mat.size(1), "), vec (", vec.size(0), ") (argument 'vec')");
  check_dtypes(op, self, "mat", mat, "vec", vec);
  const Tensor column = self.dim() == 1 ? self.unsqueeze(1) : self;
  return addmm(column, mat, vec.unsqueeze(1), beta, alpha).squeeze(1);
}
Tensor Tensor::addmv(const Tensor& mat, const Tensor& vec, const Scalar& beta,
                     const Scalar& alpha) const {
  return ts::addmv(*this, mat, vec, beta, alpha);
}

}  // namespace ts
