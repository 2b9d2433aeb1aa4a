// xnnpack kernels for softmax (XNNPACK's softmax_nc over the last dim) and mm / addmm (its fully
// connected operator); linear and matmul reach them through touchstone's composites.
#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>

#include "touchstone/kernel_helpers.h"
#include "touchstone/op_params.h"
#include "xnnpack_common.h"

namespace ts::xnnpack_set {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// Note [Rows]
// XNNPACK's softmax and fully connected operators read and write rows: `batch` rows of
// `channels` contiguous elements, a fixed stride (>= channels) apart. A 2-D view {rows, cols}
// fits when its column stride is 1; other layouts and dtypes are staged (Note [Staged copies]).
// An input read in place whose storage lacks XNN_EXTRA_BYTES past its last row has its last
// rows copied, with the same stride, into a padded buffer (Note [Tail rows]).
bool fits_rows(const View& v, ScalarType ct) {
  return v.dtype == ct && (v.strides[1] == 1 || v.sizes[1] == 1) &&
         (v.strides[0] >= v.sizes[1] || v.sizes[0] == 1);
}

int64_t row_stride(const View& v) {
  return v.sizes[0] == 1 ? v.sizes[1] : v.strides[0];
}

// Runs `run(in, out, batch)` over `in`'s rows into `out`'s (both {rows, cols}); `make(in_stride,
// out_stride)` creates the operator first.
void run_rows(const KernelCall& c, const View& in_v, const View& out_v,
              const std::function<void(int64_t, int64_t)>& make,
              const std::function<void(const char*, char*, int64_t)>& run) {
  const ScalarType ct = c.p.compute_dtype;
  const int64_t esize = bytes_of(ct);
  const int64_t rows = in_v.sizes[0], cols = in_v.sizes[1], out_cols = out_v.sizes[1];
  Buffer in_buffer, out_buffer;
  const char* in = in_v.data;
  int64_t in_stride = row_stride(in_v);
  if (!fits_rows(in_v, ct)) {
    in_buffer = Buffer(rows * cols, ct);
    gather(in_v, ct, in_buffer.data());
    in = in_buffer.data();
    in_stride = cols;
    count_staged();
  }
  char* out = out_v.data;
  int64_t out_stride = row_stride(out_v);
  const bool out_direct = fits_rows(out_v, ct);
  if (!out_direct) {
    out_buffer = Buffer(rows * out_cols, ct);
    out = out_buffer.data();
    out_stride = out_cols;
    count_staged();
  }
  make(in_stride, out_stride);
  int64_t tail = 0;
  Buffer tail_buffer;
  if (in_buffer.bytes.empty()) {
    const int64_t end = ((rows - 1) * in_stride + cols) * esize;
    if (end + XNN_EXTRA_BYTES > in_v.room) {
      tail = std::min(rows, (XNN_EXTRA_BYTES + in_stride * esize - 1) / (in_stride * esize));
      const int64_t span = ((tail - 1) * in_stride + cols) * esize;
      tail_buffer.bytes.assign(span + XNN_EXTRA_BYTES, 0);
      std::memcpy(tail_buffer.data(), in + (rows - tail) * in_stride * esize, span);
    }
  }
  if (rows > tail) run(in, out, rows - tail);
  if (tail > 0) run(tail_buffer.data(), out + (rows - tail) * out_stride * esize, tail);
  if (!out_direct) scatter(out, ct, out_v);
}

// The view with dim `d` moved last, its other dims coalesced into one where their strides
// allow ({rows, cols}); otherwise the other dims are left for run_rows to stage.
View rows_view(View v, int64_t d) {
  if (v.sizes.empty()) return View{v.data, v.dtype, {1, 1}, {1, 1}, v.room};
  const int64_t cols = v.sizes[d], cstride = v.strides[d];
  v.sizes.erase(v.sizes.begin() + d);
  v.strides.erase(v.strides.begin() + d);
  std::vector<int64_t> s, st;
  for (size_t k = 0; k < v.sizes.size(); ++k) {
    if (v.sizes[k] == 1) continue;
    if (!s.empty() && st.back() == v.strides[k] * v.sizes[k]) {
      s.back() *= v.sizes[k];
      st.back() = v.strides[k];
    } else {
      s.push_back(v.sizes[k]);
      st.push_back(v.strides[k]);
    }
  }
  if (s.size() <= 1) {
    const int64_t rows = s.empty() ? 1 : s[0];
    return View{v.data, v.dtype, {rows, cols}, {s.empty() ? cols : st[0], cstride}, v.room};
  }
  // Not one row stride: a {rows, cols} view is not expressible; gather through the N-d view
  // (rows in row-major order of the other dims).
  s.push_back(cols);
  st.push_back(cstride);
  return View{v.data, v.dtype, s, st, v.room};
}

// A row-major {rows, cols} view of a buffer.
View matrix(Buffer& b, ScalarType dtype, int64_t rows, int64_t cols) {
  return View{b.data(), dtype, {rows, cols}, {cols, 1}, static_cast<int64_t>(b.bytes.size())};
}

// Note [Softmax dims]
// XNNPACK's softmax normalizes each row's `channels` contiguous elements, i.e. the last dim only.
// softmax over another dim moves that dim last through a staged copy (and back), counted.
void softmax_kernel(const KernelCall& c) {
  const Tensor& out_t = c.outputs[0];
  if (out_t.numel() == 0) return;
  const int64_t d = c.inputs[0].dim() == 0 ? 0 : c.params<DimParams>().dim;
  View in = rows_view(view_of(c.inputs[0]), d), out = rows_view(view_of(out_t), d);
  const int64_t cols = in.sizes.back(), rows = numel(in.sizes) / cols;
  Buffer in_buffer, out_buffer;
  if (in.sizes.size() > 2) {
    in_buffer = Buffer(rows * cols, c.p.compute_dtype);
    gather(in, c.p.compute_dtype, in_buffer.data());
    in = matrix(in_buffer, c.p.compute_dtype, rows, cols);
    count_staged();
  }
  View full_out = out;
  if (out.sizes.size() > 2) {
    out_buffer = Buffer(rows * cols, c.p.compute_dtype);
    out = matrix(out_buffer, c.p.compute_dtype, rows, cols);
    count_staged();
  }
  Operator op;
  run_rows(
      c, in, out,
      [&](int64_t in_stride, int64_t out_stride) {
        check(c, xnn_create_softmax_nc_f32(cols, in_stride, out_stride, 0, &op.op),
              "xnn_create_softmax_nc_f32");
      },
      [&](const char* x, char* y, int64_t batch) {
        run_rows_op(c, op, xnn_setup_softmax_nc_f32, "xnn_setup_softmax_nc_f32", batch, x, y);
      });
  if (!out_buffer.bytes.empty()) scatter(out_buffer.data(), c.p.compute_dtype, full_out);
}

// Note [Fully connected weights]
// XNNPACK's fully connected operator computes out = in @ kernel^T + bias, its kernel {N, K}
// row-major, or {K, N} row-major with XNN_FLAG_TRANSPOSE_WEIGHTS. mm's `other` {K, N} is passed
// as it is when row-major (with the flag) or column-major (without); other layouts are staged.
// The operator packs the kernel (and bias) when created, once per call.
void fully_connected(const KernelCall& c, const View& a, const View& b, const float* bias,
                     const View& out) {
  const ScalarType ct = c.p.compute_dtype;
  const int64_t m = a.sizes[0], k = a.sizes[1], n = b.sizes[1];
  if (k == 0) {
    // An empty sum: XNNPACK takes no zero input channels.
    Buffer zeros(m * n, ct);
    for (int64_t i = 0; i < m * n; ++i)
      store_double(zeros.data() + i * bytes_of(ct), ct, bias != nullptr ? bias[i % n] : 0.0);
    return scatter(zeros.data(), ct, out);
  }
  Buffer b_buffer;
  const char* kernel = b.data;
  uint32_t flags = XNN_FLAG_TRANSPOSE_WEIGHTS;
  const bool row_major = (b.strides[1] == 1 || n == 1) && (b.strides[0] == n || k == 1);
  const bool col_major = (b.strides[0] == 1 || k == 1) && (b.strides[1] == k || n == 1);
  if (b.dtype != ct || !(row_major || col_major)) {
    b_buffer = Buffer(k * n, ct);
    gather(b, ct, b_buffer.data());
    kernel = b_buffer.data();
    count_staged();
  } else if (!row_major) {
    flags = 0;
  }
  Operator op;
  run_rows(
      c, a, out,
      [&](int64_t in_stride, int64_t out_stride) {
        check(c,
              xnn_create_fully_connected_nc_f32(k, n, in_stride, out_stride,
                                                reinterpret_cast<const float*>(kernel), bias, -kInf,
                                                kInf, flags, &op.op),
              "xnn_create_fully_connected_nc_f32");
      },
      [&](const char* x, char* y, int64_t batch) {
        run_rows_op(c, op, xnn_setup_fully_connected_nc_f32, "xnn_setup_fully_connected_nc_f32",
                    batch, x, y);
      });
}

void mm_kernel(const KernelCall& c) {
  if (c.outputs[0].numel() == 0) return;
  fully_connected(c, view_of(c.inputs[0]), view_of(c.inputs[1]), nullptr, view_of(c.outputs[0]));
}

// Note [addmm]
// beta * self + alpha * (mat1 @ mat2). With alpha = beta = 1 and self a row broadcast (linear's
// bias), self is the operator's bias. Otherwise the product goes to a buffer, XNNPACK's multiply
// scales it and self by alpha and beta, and its add sums them (beta 0: self is not read, as
// ATen). Each step rounds to float32, where ATen's GEMM rounds alpha * sum + beta * self once.
void addmm_kernel(const KernelCall& c) {
  const Tensor& out_t = c.outputs[0];
  if (out_t.numel() == 0) return;
  const ScalarType ct = c.p.compute_dtype;
  const AddmmParams& p = c.params<AddmmParams>();
  const double alpha = p.alpha.to_double(), beta = p.beta.to_double();
  const View self = view_of(c.inputs[0]), a = view_of(c.inputs[1]), b = view_of(c.inputs[2]);
  const int64_t m = out_t.size(0), n = out_t.size(1);
  if (alpha == 1 && beta == 1 && self.strides[0] == 0 && c.kind != CallKind::InPlace) {
    Buffer bias(n, ct);
    gather(View{self.data, self.dtype, {n}, {self.strides[1]}, self.room}, ct, bias.data());
    return fully_connected(c, a, b, reinterpret_cast<const float*>(bias.data()), view_of(out_t));
  }
  Buffer product(m * n, ct);
  fully_connected(c, a, b, nullptr, matrix(product, ct, m, n));
  const std::vector<size_t> all{static_cast<size_t>(m * n)}, one{1};
  Buffer scale(1, ct);
  if (alpha != 1) {
    store_double(scale.data(), ct, alpha);
    run_binary(c, Binary::mul, all, one, product.data(), scale.data(), product.data());
  }
  if (beta != 0) {
    Buffer term(m * n, ct);
    gather(self, ct, term.data());
    if (beta != 1) {
      store_double(scale.data(), ct, beta);
      run_binary(c, Binary::mul, all, one, term.data(), scale.data(), term.data());
    }
    run_binary(c, Binary::add, all, all, product.data(), term.data(), product.data());
  }
  scatter(product.data(), ct, view_of(out_t));
}

}  // namespace

void register_nn(KernelRegistrar& m) {
  m.impl(OpId::softmax, kCPU, xnn_dtypes(OpId::softmax, false), softmax_kernel);
  m.impl(OpId::mm, kCPU, xnn_dtypes(OpId::mm, false), mm_kernel);
  m.impl(OpId::addmm, kCPU, xnn_dtypes(OpId::addmm, false), addmm_kernel);
}

}  // namespace ts::xnnpack_set
