// Optimized CPU kernels for mm, bmm, addmm, mv and dot (float32 products: our sgemm.cpp;
// float64 products, mv and dot: OpenBLAS; other dtypes: our blocked loops in gemm.cpp) and
// outer (the set's mul, broadcast).
// Params: see the top of lib/src/ops/linalg.cpp; semantics: reference/linalg.cpp.
#include <cblas.h>

#include <atomic>
#include <climits>
#include <optional>

#include "optimized/cpu/gemm.h"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {

// OpenBLAS runs its own threads: as many as ours (one inside a parallel region).
void sync_blas_threads() {
  static std::atomic<int> current{0};
  const int want = in_parallel_region() ? 1 : get_num_threads();
  if (current.exchange(want) != want) openblas_set_num_threads(want);
}

namespace {

// Note [BLAS layouts]
// Row-major BLAS takes a matrix whose rows are contiguous (column stride 1, leading dimension =
// row stride >= cols), or, as a transposed operand, one whose columns are (a column-major
// matrix is a transposed row-major one). A dim of size 1 matches any stride. Operands in neither
// layout (sliced with a step along both dims, expanded) are copied; an output in neither layout
// is computed into a temporary. A column-major output C is computed as C^T = B^T A^T.
struct BlasMat {
  const void* data;
  bool trans;
  int64_t ld;
};

bool fits_blas(int64_t v) {
  return v <= INT_MAX;
}

std::optional<BlasMat> blas_mat(const void* data, int64_t rows, int64_t cols, int64_t rs,
                                int64_t cs) {
  if (!fits_blas(rows) || !fits_blas(cols)) return std::nullopt;
  if ((cols == 1 || cs == 1) && (rows == 1 || rs >= cols)) {
    const int64_t ld = rows == 1 ? std::max<int64_t>(cols, 1) : rs;
    if (fits_blas(ld)) return BlasMat{data, false, ld};
  }
  if ((rows == 1 || rs == 1) && (cols == 1 || cs >= rows)) {
    const int64_t ld = cols == 1 ? std::max<int64_t>(rows, 1) : cs;
    if (fits_blas(ld)) return BlasMat{data, true, ld};
  }
  return std::nullopt;
}
// Batch element `bi` of a 3-D tensor as a BLAS matrix.
std::optional<BlasMat> blas_mat(const Tensor& t, int64_t bi) {
  const char* p = static_cast<const char*>(t.data_ptr()) +
                  bi * t.stride(0) * static_cast<int64_t>(t.element_size());
  return blas_mat(p, t.size(1), t.size(2), t.stride(1), t.stride(2));
}
BlasMat transposed(BlasMat m) {
  return {m.data, !m.trans, m.ld};
}

CBLAS_TRANSPOSE blas_trans(bool t) {
  return t ? CblasTrans : CblasNoTrans;
}

// c (row-major, ldc) = alpha * a @ b + beta * c, with a n x m and b m x p.
template <typename T>
void blas_gemm(int64_t n, int64_t m, int64_t p, double alpha, const BlasMat& a, const BlasMat& b,
               double beta, void* c, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) {
    sgemm(a.trans, b.trans, n, p, m, static_cast<float>(alpha), static_cast<const float*>(a.data),
          a.ld, static_cast<const float*>(b.data), b.ld, static_cast<float>(beta),
          static_cast<float*>(c), ldc);
  } else {
    const auto N = static_cast<blasint>(n), M = static_cast<blasint>(m);
    const auto P = static_cast<blasint>(p);
    cblas_dgemm(CblasRowMajor, blas_trans(a.trans), blas_trans(b.trans), N, P, M, alpha,
                static_cast<const double*>(a.data), static_cast<blasint>(a.ld),
                static_cast<const double*>(b.data), static_cast<blasint>(b.ld), beta,
                static_cast<double*>(c), static_cast<blasint>(ldc));
  }
}

bool shares_memory(const Tensor& a, const Tensor& b) {
  return a.defined() && b.defined() && a.storage().get() == b.storage().get();
}
bool same_view(const Tensor& a, const Tensor& b) {
  return a.data_ptr() == b.data_ptr() && a.sizes() == b.sizes() && a.strides() == b.strides();
}

// Where a kernel writes its result: the output itself when it has the compute dtype and shares
// no memory with the operands it reads, else a contiguous temporary copied over afterwards
// (Note [Compute, then store] in reference/linalg.cpp). `self_ok` allows addmm's self when it
// is the output itself, read element by element just before it is written.
Tensor target_for(const Tensor& result, ScalarType ct, std::initializer_list<Tensor> reads,
                  bool self_ok = true) {
  bool direct = result.dtype() == ct && self_ok;
  for (const Tensor& t : reads) direct &= !shares_memory(result, t);
  return direct ? result : empty(result.sizes(), TensorOptions(ct));
}

MatRef mat_ref(const Tensor& t) {  // 3-D
  return {t.data_ptr(), t.stride(0), t.stride(1), t.stride(2)};
}

// out = alpha * (a @ b) + beta * self, batched: a (B, n, m), b (B, m, p), self (B, n, p) or
// undefined when beta is not used, result (B, n, p) or (n, p).
void product(const KernelCall& c, const Tensor& a, const Tensor& b, const Tensor& self,
             const Scalar& alpha, const Scalar& beta) {
  const Tensor& result = c.outputs[0];
  if (result.numel() == 0) return;
  const ScalarType ct = c.p.compute_dtype;
  const int64_t batch = a.size(0), n = a.size(1), m = a.size(2), p = b.size(2);
  const Tensor r3 = result.dim() == 3 ? result : result.unsqueeze(0);
  Tensor target =
      target_for(result, ct, {a, b}, !shares_memory(result, self) || same_view(r3, self));
  Tensor out = target.dim() == 3 ? target : target.unsqueeze(0);
  const bool blas =
      (ct == kFloat || ct == kDouble) && m > 0 && fits_blas(n) && fits_blas(m) && fits_blas(p);
  if (!blas) {
    GemmPlan g;
    g.dtype = ct;
    g.batch = batch, g.n = n, g.m = m, g.p = p;
    g.a = mat_ref(a), g.b = mat_ref(b);
    if (self.defined()) g.self = mat_ref(self);
    g.out = out.data_ptr();
    g.out_batch_stride = out.stride(0), g.out_row_stride = out.stride(1);
    g.out_col_stride = out.stride(2);
    g.alpha = alpha.to_double(), g.beta = beta.to_double();
    g.ialpha = alpha.to_long(), g.ibeta = beta.to_long();
    blocked_gemm(g);
  } else {
    if (!blas_mat(out, 0)) {
      target = empty(result.sizes(), TensorOptions(ct));
      out = target.dim() == 3 ? target : target.unsqueeze(0);
    }
    // BLAS reads C when beta != 0: start from self. With beta == 0 it does not read C.
    if (self.defined() && !same_view(out, self)) out.copy_(self);
    const Tensor ac = blas_mat(a, 0) ? a : a.contiguous();
    const Tensor bc = blas_mat(b, 0) ? b : b.contiguous();
    const double blas_beta = self.defined() ? beta.to_double() : 0.0;
    sync_blas_threads();
    const auto es = static_cast<int64_t>(element_size(ct));
    const auto one = [&](int64_t bi) {
      const BlasMat A = *blas_mat(ac, bi), B = *blas_mat(bc, bi), C = *blas_mat(out, bi);
      void* pc = static_cast<char*>(out.data_ptr()) + bi * out.stride(0) * es;
      auto run = [&](auto tag) {
        using T = decltype(tag);
        if (!C.trans) return blas_gemm<T>(n, m, p, alpha.to_double(), A, B, blas_beta, pc, C.ld);
        blas_gemm<T>(p, m, n, alpha.to_double(), transposed(B), transposed(A), blas_beta, pc, C.ld);
      };
      if (ct == kFloat) {
        run(float{});
      } else {
        run(double{});
      }
    };
    if (ct == kFloat && batch >= get_num_threads()) {
      // Whole products per thread (our sgemm runs on one inside a parallel region).
      parallel_for(0, batch, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t bi = b0; bi < b1; ++bi) one(bi);
      });
    } else {
      for (int64_t bi = 0; bi < batch; ++bi) one(bi);
    }
  }
  if (!target.is_same(result)) result.copy_(target);
}

// One kernel per Kernel op of signature class Matmul (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

template <>
void kernel<OpId::mm>(const KernelCall& c) {
  product(c, c.inputs[0].unsqueeze(0), c.inputs[1].unsqueeze(0), {}, 1, 0);
}

template <>
void kernel<OpId::bmm>(const KernelCall& c) {
  product(c, c.inputs[0], c.inputs[1], {}, 1, 0);
}

template <>
void kernel<OpId::addmm>(const KernelCall& c) {
  const AddmmParams& p = c.params<AddmmParams>();
  const bool beta_used =
      is_floating_type(c.p.compute_dtype) ? p.beta.to_double() != 0 : p.beta.to_long() != 0;
  const Tensor self = beta_used ? c.inputs[0].unsqueeze(0) : Tensor();
  product(c, c.inputs[1].unsqueeze(0), c.inputs[2].unsqueeze(0), self, p.alpha, p.beta);
}

// y = A x: gemv for float/double, else the blocked loops as y^T = x^T A^T.
template <>
void kernel<OpId::mv>(const KernelCall& c) {
  const Tensor& result = c.outputs[0];
  if (result.numel() == 0) return;
  const ScalarType ct = c.p.compute_dtype;
  const Tensor& a = c.inputs[0];
  Tensor x = c.inputs[1];
  const int64_t n = a.size(0), m = a.size(1);
  Tensor target = target_for(result, ct, {a, x});
  const bool blas = (ct == kFloat || ct == kDouble) && m > 0 && fits_blas(n) && fits_blas(m) &&
                    fits_blas(x.stride(0)) && fits_blas(target.stride(0));
  if (!blas) {
    GemmPlan g;
    g.dtype = ct;
    g.n = 1, g.m = m, g.p = n;
    g.a = {x.data_ptr(), 0, 0, x.stride(0)};
    g.b = {a.data_ptr(), 0, a.stride(1), a.stride(0)};
    g.out = target.data_ptr();
    g.out_col_stride = target.stride(0);
    blocked_gemm(g);
  } else {
    const auto A = blas_mat(a.data_ptr(), n, m, a.stride(0), a.stride(1));
    const Tensor ac = A ? a : a.contiguous();
    const BlasMat Ab = A ? *A : *blas_mat(ac.data_ptr(), n, m, ac.stride(0), ac.stride(1));
    if (m > 1 && x.stride(0) == 0) x = x.contiguous();
    const auto incx = static_cast<blasint>(m == 1 ? 1 : x.stride(0));
    const auto incy = static_cast<blasint>(n == 1 ? 1 : target.stride(0));
    target.zero_();  // gemv scales y by beta = 0; start from zeros, never from NaN garbage
    const blasint rows = static_cast<blasint>(Ab.trans ? m : n);
    const blasint cols = static_cast<blasint>(Ab.trans ? n : m);
    sync_blas_threads();
    if (ct == kFloat) {
      cblas_sgemv(CblasRowMajor, blas_trans(Ab.trans), rows, cols, 1.0f,
                  static_cast<const float*>(Ab.data), static_cast<blasint>(Ab.ld),
                  x.data_ptr<float>(), incx, 0.0f, target.data_ptr<float>(), incy);
    } else {
      cblas_dgemv(CblasRowMajor, blas_trans(Ab.trans), rows, cols, 1.0,
                  static_cast<const double*>(Ab.data), static_cast<blasint>(Ab.ld),
                  x.data_ptr<double>(), incx, 0.0, target.data_ptr<double>(), incy);
    }
  }
  if (!target.is_same(result)) result.copy_(target);
}

template <>
void kernel<OpId::dot>(const KernelCall& c) {
  const Tensor& result = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  Tensor a = c.inputs[0], b = c.inputs[1];
  const int64_t n = a.size(0);
  // The value is computed before it is stored, so the output may be any tensor of dtype ct.
  const Tensor target = result.dtype() == ct ? result : empty({}, TensorOptions(ct));
  if ((ct == kFloat || ct == kDouble) && n > 0 && fits_blas(n)) {
    if (n > 1 && a.stride(0) == 0) a = a.contiguous();
    if (n > 1 && b.stride(0) == 0) b = b.contiguous();
    const auto sa = static_cast<blasint>(n == 1 ? 1 : a.stride(0));
    const auto sb = static_cast<blasint>(n == 1 ? 1 : b.stride(0));
    if (fits_blas(a.stride(0)) && fits_blas(b.stride(0))) {
      sync_blas_threads();
      if (ct == kFloat) {
        *target.data_ptr<float>() =
            cblas_sdot(static_cast<blasint>(n), a.data_ptr<float>(), sa, b.data_ptr<float>(), sb);
      } else {
        *target.data_ptr<double>() =
            cblas_ddot(static_cast<blasint>(n), a.data_ptr<double>(), sa, b.data_ptr<double>(), sb);
      }
      if (!target.is_same(result)) result.copy_(target);
      return;
    }
  }
  blocked_dot(ct, a.data_ptr(), a.stride(0), b.data_ptr(), b.stride(0), n, target.data_ptr());
  if (!target.is_same(result)) result.copy_(target);
}

// out[i, j] = a[i] * b[j]: the set's mul kernel over the operands broadcast to (n, m) (stride 0,
// each element loaded once).
template <>
void kernel<OpId::outer>(const KernelCall& c) {
  static const KernelFn mul = get_kernel(OpId::mul, kCPU, *find_kernel_set("optimized")).fn;
  const int64_t shape[] = {c.outputs[0].size(0), c.outputs[0].size(1)};
  const Tensor inputs[] = {c.inputs[0].unsqueeze(1).expand(shape),
                           c.inputs[1].unsqueeze(0).expand(shape)};
  mul(KernelCall{OpId::mul, c.outputs, inputs, c.p, c.kind});
}

}  // namespace

// As the reference set: op_list.def's dtypes.
TS_REGISTER_KERNELS(optimized, linalg) {
  for_each_kernel_op<OpSignature::Matmul>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
