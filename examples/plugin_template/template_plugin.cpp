// A minimal kernel set "template": add, mul, exp, relu, sum and copy_ for float32 and float64,
// with plain strided loops over the public helpers (touchstone/kernel_helpers.h). The other
// dtypes are left unregistered: asking this set for them raises "no kernel" naming op, dtype,
// device and set. docs/kernels.md is the contract these kernels follow.
#include <cmath>
#include <type_traits>

#include "touchstone/dispatch.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_helpers.h"

namespace {

// Elementwise ops receive inputs already broadcast to the output's shape (stride 0 where
// expanded), each in its own dtype: load them converted to the compute dtype, compute in
// double, round once to the compute dtype, store into the output (whose dtype out= may widen).
template <size_t N, class F>
void elementwise_double(const ts::KernelCall& c, F f) {
  const ts::ScalarType ct = c.p.compute_dtype, ot = c.outputs[0].dtype();
  ts::for_each_element<N>(c, [&](char* o, const char* const* in) {
    double v[N];
    for (size_t i = 0; i < N; ++i) v[i] = ts::load_as_double(in[i], c.inputs[i].dtype(), ct);
    ts::store_double(o, ot, ts::round_to(ct, f(v)));
  });
}

void add_kernel(const ts::KernelCall& c) {
  // alpha arrives in AlphaParams (op_list.def's params column for add).
  const double alpha = c.params<ts::AlphaParams>().alpha.to_double();
  elementwise_double<2>(c, [&](const double* v) { return v[0] + alpha * v[1]; });
}

void mul_kernel(const ts::KernelCall& c) {
  elementwise_double<2>(c, [](const double* v) { return v[0] * v[1]; });
}

void exp_kernel(const ts::KernelCall& c) {
  elementwise_double<1>(c, [](const double* v) { return std::exp(v[0]); });
}

// copy_ writes self (outputs[0]; no inputs[0] = self here) from src (inputs[0], expanded), each
// element converted with one rounding: integers through int64, floating values through double.
// Gradients of ops with broadcast operands run it (sum_to_size), so a set needs it early.
void copy_kernel(const ts::KernelCall& c) {
  const ts::Tensor& src = c.inputs[0];
  const ts::ScalarType st = src.dtype(), ot = c.outputs[0].dtype();
  ts::for_each_element<1>(c, [&](char* o, const char* const* in) {
    if (ts::is_floating_type(st)) {
      ts::store_double(o, ot, ts::load_double(in[0], st));
    } else {
      ts::store_int64(o, ot, ts::load_int64(in[0], st));
    }
  });
}

// relu is a Unary op: input, output and compute dtype are the same, so a typed loop works. The
// body is a template (`<class T = scalar_t>`), so `if constexpr` compiles each dtype's branch
// only (docs/kernels.md, "Helpers").
void relu_kernel(const ts::KernelCall& c) {
  const ts::Tensor& in = c.inputs[0];
  const ts::Tensor& out = c.outputs[0];
  TS_DISPATCH_FLOATING_TYPES(
      c.p.compute_dtype, "template relu", [&]<class T = scalar_t>() {
        ts::for_each_index(out.sizes(), [&](ts::IntArrayRef idx) {
          const T x = *reinterpret_cast<const T*>(ts::element_ptr(in, idx));
          // x < 0 ? 0 : x keeps -0 (ATen's clamp_min(x, 0) returns x when x is not below 0).
          T r = x < T(0) ? T(0) : x;
          if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(x)) r = x;  // NaN propagates, as clamp_min(x, 0) in ATen
          }
          *reinterpret_cast<T*>(ts::element_ptr(out, idx)) = r;
        });
      });
}

// Reductions: ReduceParams names the reduced dims (wrapped, sorted) and keepdim; keepdim_view
// gives the output the input's rank so each output index picks its input elements.
void sum_kernel(const ts::KernelCall& c) {
  const ts::Tensor& in = c.inputs[0];
  const ts::ScalarType ct = c.p.compute_dtype, ot = c.outputs[0].dtype();
  const ts::IntArrayRef dims = c.params<ts::ReduceParams>().dims;
  const ts::Tensor out = ts::keepdim_view(c, 0);
  ts::for_each_index(out.sizes(), [&](ts::IntArrayRef idx) {
    double acc = 0;
    ts::for_each_reduced(in, idx, dims, [&](const char* p, int64_t) {
      acc += ts::load_as_double(p, in.dtype(), ct);
    });
    ts::store_double(ts::element_ptr(out, idx), ot, ts::round_to(ct, acc));
  });
}

}  // namespace

// Runs when `touchstone ... --plugin libtouchstone_template.so` loads the library; the ABI
// version it reports is checked first.
TS_PLUGIN_INIT() {
  const ts::DTypeSet dtypes{ts::kFloat, ts::kDouble};
  ts::KernelRegistrar m("template");
  m.impl(ts::OpId::add, ts::kCPU, dtypes, add_kernel);
  m.impl(ts::OpId::mul, ts::kCPU, dtypes, mul_kernel);
  m.impl(ts::OpId::exp, ts::kCPU, dtypes, exp_kernel);
  m.impl(ts::OpId::relu, ts::kCPU, dtypes, relu_kernel);
  m.impl(ts::OpId::sum, ts::kCPU, dtypes, sum_kernel);
  m.impl(ts::OpId::copy_, ts::kCPU, dtypes, copy_kernel);
}
