// xnnpack kernels for the unary operators XNNPACK has ("nc" operators: abs, negate, square root,
// floor, ceiling, bankers rounding, truncation, sigmoid, clamp) and its binary "nd" operators with
// numpy broadcasting (add, subtract, multiply, divide, maximum, minimum).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "touchstone/kernel_helpers.h"
#include "touchstone/op_params.h"
#include "xnnpack_common.h"

namespace ts::xnnpack_set {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// Runs an operator over contiguous operands: XNNPACK shapes of the inputs (the output has the
// broadcast shape), their addresses, and the output's.
using Run = std::function<void(const std::vector<std::vector<size_t>>& shapes,
                               const std::vector<const void*>& in, void* out)>;

// Note [Elementwise layouts]
// XNNPACK's elementwise operators take contiguous operands only: the "nc" unary operators a
// batch stride, which touchstone's coalesced dims rarely fit, and the "nd" binary operators
// row-major inputs whose size-1 dims broadcast. So the dims are ordered by the output's strides
// and coalesced (adjacent dims that every operand steps through as one), an input's stride-0
// dims become size 1 (binary
// only), and an operand that is still not row-major, or not of the compute dtype, is staged into
// a contiguous buffer (Note [Staged copies]); so is an output that is not row-major, computed in a
// buffer and scattered back. XNNPACK takes at most XNN_MAX_TENSOR_DIMS (6) coalesced dims.
//
// Note [Tail rows]
// A row-major input read in place whose storage lacks XNN_EXTRA_BYTES past its end (every fresh
// tensor) is split along the outermost dim: XNNPACK reads the leading rows in place (what it
// reads past them is the next row) and the last rows, at least XNN_EXTRA_BYTES of them, from a
// padded copy.
void elementwise(const KernelCall& c, size_t n_inputs, bool broadcast, const Run& run) {
  const Tensor& out_t = c.outputs[0];
  if (out_t.numel() == 0) return;
  const ScalarType ct = c.p.compute_dtype;
  const int64_t esize = bytes_of(ct);
  std::vector<View> v{view_of(out_t)};
  for (size_t i = 0; i < n_inputs; ++i) v.push_back(view_of(c.inputs[i]));
  // Order the dims by the output's strides, outermost first (as ATen's TensorIterator does):
  // elementwise results do not depend on the order, and a transposed output with inputs of its
  // layout is then row-major throughout.
  std::vector<size_t> order(v[0].sizes.size());
  for (size_t d = 0; d < order.size(); ++d) order[d] = d;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return v[0].strides[x] > v[0].strides[y]; });
  // Coalesce: drop size-1 dims, merge d into the previous kept dim when every operand allows.
  std::vector<int64_t> sizes;
  std::vector<std::vector<int64_t>> strides(v.size());
  for (size_t d : order) {
    const int64_t n = v[0].sizes[d];
    if (n == 1) continue;
    bool merge = !sizes.empty();
    for (size_t k = 0; merge && k < v.size(); ++k) merge = strides[k].back() == v[k].strides[d] * n;
    if (merge) {
      sizes.back() *= n;
      for (size_t k = 0; k < v.size(); ++k) strides[k].back() = v[k].strides[d];
      continue;
    }
    sizes.push_back(n);
    for (size_t k = 0; k < v.size(); ++k) strides[k].push_back(v[k].strides[d]);
  }
  if (sizes.empty()) {
    sizes.push_back(1);
    for (auto& s : strides) s.push_back(0);
  }
  TS_CHECK(sizes.size() <= XNN_MAX_TENSOR_DIMS, "xnnpack ", op_info(c.op).name, ": ", sizes.size(),
           " dims after coalescing; XNNPACK takes at most ", XNN_MAX_TENSOR_DIMS);
  for (size_t k = 0; k < v.size(); ++k) {
    v[k].sizes = sizes;
    v[k].strides = strides[k];
  }
  // The output: in place when row-major and of the compute dtype, else a buffer.
  Buffer out_buffer;
  char* out = v[0].data;
  const bool out_direct = v[0].dtype == ct && is_row_major(v[0]);
  if (!out_direct) {
    out_buffer = Buffer(numel(sizes), ct);
    out = out_buffer.data();
    count_staged();
  }
  // The inputs, with their XNNPACK shapes.
  std::vector<std::vector<size_t>> shapes(n_inputs);
  std::vector<const char*> in(n_inputs);
  std::vector<Buffer> buffers(n_inputs);
  std::vector<int64_t> row(n_inputs, 0);  // elements per outermost row of a split input
  int64_t tail = 0;                       // rows read from padded copies
  for (size_t i = 0; i < n_inputs; ++i) {
    View& x = v[i + 1];
    for (size_t d = 0; d < sizes.size(); ++d) {
      // XNNPACK infers the output's shape from the inputs': a dim every input broadcasts stays
      // full in the first input (staged).
      bool all = true;
      for (size_t j = 1; j < v.size(); ++j) all = all && v[j].strides[d] == 0;
      if (x.strides[d] == 0 && broadcast && !(all && i == 0)) x.sizes[d] = 1;
      shapes[i].push_back(static_cast<size_t>(x.sizes[d]));
    }
    const bool expanded = !broadcast && std::count(x.strides.begin(), x.strides.end(), 0) > 0;
    const bool fits = x.dtype == ct && is_row_major(x) && !expanded;
    if (fits && extent_bytes(x) + XNN_EXTRA_BYTES <= x.room) {
      in[i] = x.data;
      continue;
    }
    if (fits && x.sizes[0] == sizes[0] && sizes[0] > 1) {
      // Note [Tail rows]: enough rows to hold XNN_EXTRA_BYTES.
      in[i] = x.data;
      row[i] = numel(x.sizes) / sizes[0];
      tail = std::max(tail, (XNN_EXTRA_BYTES + row[i] * esize - 1) / (row[i] * esize));
      continue;
    }
    buffers[i] = Buffer(numel(x.sizes), ct);
    gather(x, ct, buffers[i].data());
    in[i] = buffers[i].data();
    if (!fits) count_staged();
  }
  if (tail >= sizes[0]) {
    // Too few rows to split: stage the inputs that needed it whole.
    for (size_t i = 0; i < n_inputs; ++i) {
      if (row[i] == 0) continue;
      buffers[i] = Buffer(numel(v[i + 1].sizes), ct);
      gather(v[i + 1], ct, buffers[i].data());
      in[i] = buffers[i].data();
      row[i] = 0;
    }
    tail = 0;
  }
  // Tail rows first (in place, the head's output could overwrite them).
  const int64_t head = sizes[0] - tail;
  std::vector<Buffer> tails(n_inputs);
  std::vector<std::vector<size_t>> tail_shapes = shapes;
  std::vector<const void*> tail_in(n_inputs);
  for (size_t i = 0; i < n_inputs && tail > 0; ++i) {
    const bool rows = shapes[i][0] == static_cast<size_t>(sizes[0]);
    const int64_t per_row = numel(v[i + 1].sizes) / static_cast<int64_t>(shapes[i][0]);
    if (rows) tail_shapes[i][0] = static_cast<size_t>(tail);
    tail_in[i] = rows ? in[i] + head * per_row * esize : in[i];
    if (row[i] != 0) {
      tails[i] = Buffer(tail * row[i], ct);
      std::copy_n(static_cast<const char*>(tail_in[i]), tail * row[i] * esize, tails[i].data());
      tail_in[i] = tails[i].data();
    }
  }
  std::vector<std::vector<size_t>> head_shapes = shapes;
  for (size_t i = 0; i < n_inputs; ++i) {
    if (head_shapes[i][0] == static_cast<size_t>(sizes[0]))
      head_shapes[i][0] = static_cast<size_t>(head);
  }
  const int64_t out_row = numel(sizes) / sizes[0];
  run(head_shapes, std::vector<const void*>(in.begin(), in.end()), out);
  if (tail > 0) run(tail_shapes, tail_in, out + head * out_row * esize);
  if (!out_direct) scatter(out, ct, v[0]);
}

// --- unary "nc" operators, run as one channel over every element ---

using CreateNc = xnn_status (*)(size_t, size_t, size_t, uint32_t, xnn_operator_t*);
void unary(const KernelCall& c, CreateNc create, SetupRows setup, const char* name) {
  Operator op;
  check(c, create(1, 1, 1, 0, &op.op), name);
  elementwise(c, 1, false, [&](const auto& shapes, const auto& in, void* out) {
    size_t n = 1;
    for (size_t s : shapes[0]) n *= s;
    run_rows_op(c, op, setup, name, n, in[0], out);
  });
}

// clang-format off
// One row per unary op: its XNNPACK operator (xnn_create_<name>_nc_f32).
#define TS_XNN_UNARY_OPS(_) \
  _(abs, abs) \
  _(neg, negate) \
  _(sqrt, square_root) \
  _(floor, floor) \
  _(ceil, ceiling) \
  _(round, bankers_rounding) \
  _(trunc, truncation) \
  _(sigmoid, sigmoid)
// clang-format on

#define TS_XNN_UNARY_KERNEL(name, xnn)                                          \
  void name##_kernel(const KernelCall& c) {                                     \
    unary(c, xnn_create_##xnn##_nc_f32, xnn_setup_##xnn##_nc_f32, "xnn_" #xnn); \
  }
TS_XNN_UNARY_OPS(TS_XNN_UNARY_KERNEL)
#undef TS_XNN_UNARY_KERNEL

// clamp_nc in float32 or float16 (its bounds are float either way).
void clamp(const KernelCall& c, float lo, float hi) {
  Operator op;
  const bool f16 = c.p.compute_dtype == kHalf;
  check(c,
        f16 ? xnn_create_clamp_nc_f16(1, 1, 1, lo, hi, 0, &op.op)
            : xnn_create_clamp_nc_f32(1, 1, 1, lo, hi, 0, &op.op),
        "xnn_create_clamp_nc");
  elementwise(c, 1, false, [&](const auto& shapes, const auto& in, void* out) {
    size_t n = 1;
    for (size_t s : shapes[0]) n *= s;
    check(c,
          f16 ? xnn_setup_clamp_nc_f16(op.op, n, in[0], out, threadpool())
              : xnn_setup_clamp_nc_f32(op.op, n, static_cast<const float*>(in[0]),
                                       static_cast<float*>(out), threadpool()),
          "xnn_setup_clamp_nc");
    check(c, xnn_run_operator(op.op, threadpool()), "xnn_run_operator");
  });
}

void relu_kernel(const KernelCall& c) {
  clamp(c, 0.f, kInf);
}

// --- binary "nd" operators ---

}  // namespace

xnn_status create(Binary k, bool f16, xnn_operator_t* op) {
  switch (k) {
    case Binary::add:
      return f16 ? xnn_create_add_nd_f16(-kInf, kInf, 0, op)
                 : xnn_create_add_nd_f32(-kInf, kInf, 0, op);
    case Binary::sub:
      return xnn_create_subtract_nd_f32(-kInf, kInf, 0, op);
    case Binary::mul:
      return f16 ? xnn_create_multiply_nd_f16(-kInf, kInf, 0, op)
                 : xnn_create_multiply_nd_f32(-kInf, kInf, 0, op);
    case Binary::div:
      return xnn_create_divide_nd_f32(-kInf, kInf, 0, op);
    case Binary::max:
      return xnn_create_maximum_nd_f32(0, op);
    case Binary::min:
      return xnn_create_minimum_nd_f32(0, op);
  }
  return xnn_status_invalid_parameter;
}

xnn_status setup(Binary k, bool f16, xnn_operator_t op, const std::vector<size_t>& a,
                 const std::vector<size_t>& b, const void* x, const void* y, void* out) {
  const auto* fx = static_cast<const float*>(x);
  const auto* fy = static_cast<const float*>(y);
  auto* fo = static_cast<float*>(out);
  pthreadpool_t pool = threadpool();
  switch (k) {
    case Binary::add:
      return f16 ? xnn_setup_add_nd_f16(op, a.size(), a.data(), b.size(), b.data(), x, y, out, pool)
                 : xnn_setup_add_nd_f32(op, a.size(), a.data(), b.size(), b.data(), fx, fy, fo,
                                        pool);
    case Binary::sub:
      return xnn_setup_subtract_nd_f32(op, a.size(), a.data(), b.size(), b.data(), fx, fy, fo,
                                       pool);
    case Binary::mul:
      return f16 ? xnn_setup_multiply_nd_f16(op, a.size(), a.data(), b.size(), b.data(), x, y, out,
                                             pool)
                 : xnn_setup_multiply_nd_f32(op, a.size(), a.data(), b.size(), b.data(), fx, fy, fo,
                                             pool);
    case Binary::div:
      return xnn_setup_divide_nd_f32(op, a.size(), a.data(), b.size(), b.data(), fx, fy, fo, pool);
    case Binary::max:
      return xnn_setup_maximum_nd_f32(op, a.size(), a.data(), b.size(), b.data(), fx, fy, fo, pool);
    case Binary::min:
      return xnn_setup_minimum_nd_f32(op, a.size(), a.data(), b.size(), b.data(), fx, fy, fo, pool);
  }
  return xnn_status_invalid_parameter;
}

void run_binary(const KernelCall& c, Binary k, const std::vector<size_t>& a,
                const std::vector<size_t>& b, const void* x, const void* y, void* out) {
  const bool f16 = c.p.compute_dtype == kHalf;
  Operator op;
  check(c, create(k, f16, &op.op), "xnn_create_<binary>_nd");
  check(c, setup(k, f16, op.op, a, b, x, y, out), "xnn_setup_<binary>_nd");
  check(c, xnn_run_operator(op.op, threadpool()), "xnn_run_operator");
}

namespace {

// a (k) b; with `alpha` (add, sub), b is first multiplied by alpha with XNNPACK's multiply,
// rounding once more than ATen's fused self + alpha * other.
void binary(const KernelCall& c, Binary k, double alpha = 1.0) {
  const bool f16 = c.p.compute_dtype == kHalf;
  Operator op, scale;
  check(c, create(k, f16, &op.op), "xnn_create_<binary>_nd");
  // Note [float16 alpha]: a float16 b * alpha rounded before the add is up to 4 ulps off ATen's
  // one rounding (conformance add.alpha float16), and XNNPACK has no float32 path for float16.
  TS_CHECK(!(f16 && alpha != 1.0), "xnnpack ", op_info(c.op).name,
           ": XNNPACK has no fused multiply-add for float16 with alpha != 1 (alpha ", alpha, ")");
  Buffer factor;
  if (alpha != 1.0) {
    check(c, create(Binary::mul, f16, &scale.op), "xnn_create_multiply_nd");
    factor = Buffer(1, c.p.compute_dtype);
    store_double(factor.data(), c.p.compute_dtype, alpha);
  }
  elementwise(c, 2, true, [&](const auto& shapes, const auto& in, void* out) {
    const void* b = in[1];
    Buffer scaled;
    if (alpha != 1.0) {
      size_t n = 1;
      for (size_t s : shapes[1]) n *= s;
      scaled = Buffer(static_cast<int64_t>(n), c.p.compute_dtype);
      check(c, setup(Binary::mul, f16, scale.op, shapes[1], {1}, b, factor.data(), scaled.data()),
            "xnn_setup_multiply_nd");
      check(c, xnn_run_operator(scale.op, threadpool()), "xnn_run_operator");
      b = scaled.data();
    }
    check(c, setup(k, f16, op.op, shapes[0], shapes[1], in[0], b, out), "xnn_setup_<binary>_nd");
    check(c, xnn_run_operator(op.op, threadpool()), "xnn_run_operator");
  });
}

void add_kernel(const KernelCall& c) {
  binary(c, Binary::add, c.params<AlphaParams>().alpha.to_double());
}
void sub_kernel(const KernelCall& c) {
  binary(c, Binary::sub, c.params<AlphaParams>().alpha.to_double());
}

void div_kernel(const KernelCall& c) {
  TS_CHECK(c.params<DivParams>().rounding_mode == RoundingMode::None,
           "xnnpack div: XNNPACK's divide has no rounding mode (rounding_mode='trunc' or "
           "'floor')");
  binary(c, Binary::div);
}

// Note [Clamp bounds]
// XNNPACK's clamp operator needs min < max, neither NaN (xnn_create_clamp_nc_f32 returns
// invalid_parameter otherwise). ATen's clamp with min >= max gives max everywhere
// (min(max(x, lo), hi)), which two valid clamps give too: (-inf, hi], then [hi, +inf). A NaN
// bound, or an infinite hi with lo >= hi, has no XNNPACK clamp and raises.
void clamp_kernel(const KernelCall& c) {
  const ClampParams& bounds = c.params<ClampParams>();
  size_t next = 1;
  auto bound = [&](bool present, float absent) {
    return present ? static_cast<float>(c.inputs[next++].as_strided({}, {}).item().to_double())
                   : absent;
  };
  const float lo = bound(bounds.has_min, -kInf);
  const float hi = bound(bounds.has_max, kInf);
  TS_CHECK(!std::isnan(lo) && !std::isnan(hi),
           "xnnpack clamp: XNNPACK's clamp takes no NaN bound (min ", lo, ", max ", hi, ")");
  if (lo < hi) return clamp(c, lo, hi);
  TS_CHECK(std::isfinite(hi), "xnnpack clamp: XNNPACK's clamp has no bounds for min ", lo,
           " >= max ", hi);
  clamp(c, -kInf, hi);
  // The second pass reads the output the first wrote.
  KernelCall again = c;
  again.inputs = c.outputs;
  clamp(again, hi, kInf);
}

#define TS_XNN_BINARY_KERNEL(name, kind)    \
  void name##_kernel(const KernelCall& c) { \
    binary(c, Binary::kind);                \
  }
TS_XNN_BINARY_KERNEL(mul, mul)
TS_XNN_BINARY_KERNEL(maximum, max)
TS_XNN_BINARY_KERNEL(minimum, min)
#undef TS_XNN_BINARY_KERNEL

}  // namespace

void register_elementwise(KernelRegistrar& m) {
#define TS_XNN_REGISTER(name, ...) \
  m.impl(OpId::name, kCPU, xnn_dtypes(OpId::name, false), name##_kernel);
  TS_XNN_UNARY_OPS(TS_XNN_REGISTER)
  TS_XNN_REGISTER(maximum)
  TS_XNN_REGISTER(minimum)
#undef TS_XNN_REGISTER
  m.impl(OpId::relu, kCPU, xnn_dtypes(OpId::relu, true), relu_kernel);
  m.impl(OpId::clamp, kCPU, xnn_dtypes(OpId::clamp, true), clamp_kernel);
  m.impl(OpId::mul, kCPU, xnn_dtypes(OpId::mul, true), mul_kernel);
  m.impl(OpId::add, kCPU, xnn_dtypes(OpId::add, true), add_kernel);
  m.impl(OpId::sub, kCPU, xnn_dtypes(OpId::sub, false), sub_kernel);
  m.impl(OpId::div, kCPU, xnn_dtypes(OpId::div, false), div_kernel);
}

}  // namespace ts::xnnpack_set
