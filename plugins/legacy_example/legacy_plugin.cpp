// The kernel set "legacy": touchstone ops computed by the TH-style C library in legacy/ (float
// and double, contiguous memory only). docs/porting.md tells the port step by step; LEGACY_STEP
// (1-4, default 4) rebuilds each step's adapter at load time, so its conformance output can be
// reproduced:
//   1 naive: tensors' data pointers go straight to the legacy functions
//   2 staging: every operand gathered into a contiguous buffer of the compute dtype, the result
//     scattered into the output (Note [Staging])
//   3 step 2 plus the adapter's fixes of two legacy quirks the run caught: tanh overflow (Note
//     [Legacy tanh] in legacy/) and relu dropping NaN
//   4 step 3 plus explicit delegation of every other dtype and op to `optimized`
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "legacy/TH.h"
#include "touchstone/dispatch.h"
#include "touchstone/kernel_helpers.h"
#include "touchstone/touchstone.h"

namespace {

using ts::KernelCall;
using ts::ScalarType;
using ts::Tensor;

int g_step = 4;

// The legacy library's error convention (a return code and a global string) as a ts::Error.
void check(int rc, const KernelCall& c) {
  if (rc != TH_OK) {
    TS_ERROR(ts::op_info(c.op).name,
             ": kernel set 'legacy': the legacy library failed: ", THGetError());
  }
}

// Note [Staging]
// The legacy functions read and write dense memory of one dtype. touchstone hands a kernel any
// strides (stride 0 where broadcast), inputs in their own dtypes, and outputs in the caller's
// layout and dtype. `staged` gathers an operand, in row-major order of its (possibly permuted)
// dims, into a fresh contiguous tensor of the compute dtype (no copy when it already is one);
// `result_buffer` and `scatter` do the same for an output. Copies use the public helpers, not
// copy_, so that staging runs no other kernel set's code.
Tensor staged(const Tensor& t, ScalarType ct, bool force_copy = false) {
  if (!force_copy && t.is_contiguous() && t.dtype() == ct) return t;
  Tensor buf = ts::empty(t.sizes(), ts::TensorOptions(ct));
  char* dst = static_cast<char*>(buf.data_ptr());
  const size_t size = ts::element_size(ct);
  ts::for_each_index(t.sizes(), [&](ts::IntArrayRef idx) {
    ts::store_double(dst, ct, ts::load_as_double(ts::element_ptr(t, idx), t.dtype(), ct));
    dst += size;
  });
  return buf;
}

Tensor result_buffer(const Tensor& out, ScalarType ct) {
  if (out.is_contiguous() && out.dtype() == ct) return out;
  return ts::empty(out.sizes(), ts::TensorOptions(ct));
}

void scatter(const Tensor& buf, const Tensor& out) {
  if (buf.is_same(out)) return;
  const char* src = static_cast<const char*>(buf.data_ptr());
  const size_t size = buf.element_size();
  ts::for_each_index(out.sizes(), [&](ts::IntArrayRef idx) {
    ts::store_double(ts::element_ptr(out, idx), out.dtype(), ts::load_double(src, buf.dtype()));
    src += size;
  });
}

// The operands of a legacy call: step 1 passes the tensors as they are (Note [Staging]).
Tensor operand(const Tensor& t, ScalarType ct) {
  return g_step == 1 ? t : staged(t, ct);
}
Tensor output(const Tensor& out, ScalarType ct) {
  return g_step == 1 ? out : result_buffer(out, ct);
}

template <class T>
T* data(const Tensor& t) {
  return static_cast<T*>(t.data_ptr());
}

// A legacy THTensor over a touchstone tensor (sizes and strides as they are).
template <class TH, class T>
TH th_tensor(const Tensor& t) {
  TH r{};
  r.data = data<T>(t);
  r.nDimension = static_cast<int>(t.dim());
  // From step 2 the operand is staged, so row-major by construction: its canonical strides
  // (an empty tensor's may be anything, which the legacy contiguity check refused).
  long stride = 1;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    r.size[d] = static_cast<long>(t.sizes()[d]);
    r.stride[d] = g_step == 1 ? static_cast<long>(t.strides()[d]) : stride;
    stride *= r.size[d];
  }
  return r;
}

using FloatUnary = int (*)(float*, const float*, long);
using DoubleUnary = int (*)(double*, const double*, long);

// Unary ops: out = f(self), computed by the legacy vector function of the compute dtype.
template <FloatUnary F, DoubleUnary D>
void unary_kernel(const KernelCall& c) {
  const ScalarType ct = c.p.compute_dtype;
  // Note [Legacy tanh]: the legacy formula is NaN for large |x|; tanh(+-20) is +-1 in float and
  // double, so from step 3 the adapter saturates the (copied) input there.
  const bool saturate = F == &THFloatVector_tanh && g_step >= 3;
  Tensor in = g_step == 1 ? c.inputs[0] : staged(c.inputs[0], ct, saturate);
  if (saturate) {
    ts::for_each_index(in.sizes(), [&](ts::IntArrayRef idx) {
      char* p = ts::element_ptr(in, idx);
      ts::store_double(p, ct, std::clamp(ts::load_double(p, ct), -20.0, 20.0));
    });
  }
  const Tensor out = output(c.outputs[0], ct);
  const long n = static_cast<long>(out.numel());
  check(ct == ts::kFloat ? F(data<float>(out), data<float>(in), n)
                         : D(data<double>(out), data<double>(in), n),
        c);
  scatter(out, c.outputs[0]);
}

// relu is THNN's threshold with threshold 0 and value 0. Its `x > 0 ? x : 0` maps NaN to 0 and
// -0 to +0, where ATen's relu propagates NaN and keeps -0; from step 3 the adapter puts both
// back (the -0 since issue 15's oracle compares the sign of zero).
void relu_kernel(const KernelCall& c) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor in = operand(c.inputs[0], ct), out = output(c.outputs[0], ct);
  const long n = static_cast<long>(out.numel());
  const size_t size = ts::element_size(ct);
  auto at = [&](const Tensor& t, long i) { return static_cast<char*>(t.data_ptr()) + i * size; };
  std::vector<std::pair<long, double>> kept;  // NaN and -0, found before the call (in place)
  for (long i = 0; g_step >= 3 && i < n; ++i) {
    const double x = ts::load_double(at(in, i), ct);
    if (std::isnan(x) || (x == 0 && std::signbit(x))) kept.emplace_back(i, x);
  }
  check(ct == ts::kFloat ? THFloatVector_threshold(data<float>(out), data<float>(in), 0, 0, n)
                         : THDoubleVector_threshold(data<double>(out), data<double>(in), 0, 0, n),
        c);
  for (const auto& [i, x] : kept) ts::store_double(at(out, i), ct, x);
  scatter(out, c.outputs[0]);
}

// Binary ops: f(out, self, other, [alpha]).
template <class FloatFn, class DoubleFn>
void binary_call(const KernelCall& c, FloatFn f, DoubleFn d) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor a = operand(c.inputs[0], ct), b = operand(c.inputs[1], ct);
  const Tensor out = output(c.outputs[0], ct);
  const long n = static_cast<long>(out.numel());
  check(ct == ts::kFloat ? f(data<float>(out), data<float>(a), data<float>(b), n)
                         : d(data<double>(out), data<double>(a), data<double>(b), n),
        c);
  scatter(out, c.outputs[0]);
}

template <int (*F)(float*, const float*, const float*, float, long),
          int (*D)(double*, const double*, const double*, double, long)>
void alpha_kernel(const KernelCall& c) {
  const double alpha = c.params<ts::AlphaParams>().alpha.to_double();
  binary_call(
      c,
      [&](float* r, const float* a, const float* b, long n) {
        return F(r, a, b, static_cast<float>(alpha), n);
      },
      [&](double* r, const double* a, const double* b, long n) { return D(r, a, b, alpha, n); });
}

void mul_kernel(const KernelCall& c) {
  binary_call(c, THFloatVector_cmul, THDoubleVector_cmul);
}

// sum: the kept dims first, the reduced ones last, as a (rows, cols) matrix whose rows the
// legacy library sums (sumall when everything is reduced). Step 1 assumes the reduced dims are
// already the trailing ones of a contiguous input, as the legacy callers' data was.
template <class T, class TH>
void sum_typed(const KernelCall& c, int (*sum_rows)(T*, const TH*),
               int (*sum_all)(const TH*, double*)) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor& self = c.inputs[0];
  std::vector<int64_t> dims(c.params<ts::ReduceParams>().dims.begin(),
                            c.params<ts::ReduceParams>().dims.end());
  if (dims.empty()) {
    for (int64_t d = 0; d < self.dim(); ++d) dims.push_back(d);
  }
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) perm.push_back(d);
  }
  perm.insert(perm.end(), dims.begin(), dims.end());
  const Tensor in = g_step == 1 ? self : staged(self.permute(perm), ct);
  const Tensor out = output(c.outputs[0], ct);
  const int64_t rows = out.numel();
  const int64_t cols = rows == 0 ? 0 : in.numel() / rows;
  TH m = th_tensor<TH, T>(in);
  m.nDimension = 2;
  m.size[0] = static_cast<long>(rows);
  m.size[1] = static_cast<long>(cols);
  m.stride[0] = static_cast<long>(cols);
  m.stride[1] = 1;
  if (rows == 1) {
    double total = 0;
    check(sum_all(&m, &total), c);
    ts::store_double(out.data_ptr(), ct, ts::round_to(ct, total));
  } else {
    check(sum_rows(data<T>(out), &m), c);
  }
  scatter(out, c.outputs[0]);
}

void sum_kernel(const KernelCall& c) {
  if (c.p.compute_dtype == ts::kFloat) {
    sum_typed<float, THFloatTensor>(c, THFloatTensor_sumRows, THFloatTensor_sumall);
  } else {
    sum_typed<double, THDoubleTensor>(c, THDoubleTensor_sumRows, THDoubleTensor_sumall);
  }
}

template <class T, class TH>
void mm_typed(const KernelCall& c, int (*mm)(TH*, const TH*, const TH*)) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor a = operand(c.inputs[0], ct), b = operand(c.inputs[1], ct);
  const Tensor out = output(c.outputs[0], ct);
  TH r = th_tensor<TH, T>(out);
  const TH m1 = th_tensor<TH, T>(a), m2 = th_tensor<TH, T>(b);
  check(mm(&r, &m1, &m2), c);
  scatter(out, c.outputs[0]);
}

void mm_kernel(const KernelCall& c) {
  if (c.p.compute_dtype == ts::kFloat) {
    mm_typed<float, THFloatTensor>(c, THFloatTensor_mm);
  } else {
    mm_typed<double, THDoubleTensor>(c, THDoubleTensor_mm);
  }
}

int legacy_step() {
  const char* env = std::getenv("LEGACY_STEP");
  if (env == nullptr || *env == '\0') return 4;
  const std::string s(env);
  TS_CHECK(s.size() == 1 && s[0] >= '1' && s[0] <= '4',
           "legacy plug-in: LEGACY_STEP must be 1, 2, 3 or 4, got '", s, "'");
  return s[0] - '0';
}

}  // namespace

TS_PLUGIN_INIT() {
  using ts::OpId;
  g_step = legacy_step();
  ts::KernelRegistrar m("legacy");
  const ts::DTypeSet fd{ts::kFloat, ts::kDouble};  // all the legacy library has
  m.impl(OpId::add, ts::kCPU, fd, alpha_kernel<THFloatVector_cadd, THDoubleVector_cadd>);
  m.impl(OpId::sub, ts::kCPU, fd, alpha_kernel<THFloatVector_csub, THDoubleVector_csub>);
  m.impl(OpId::mul, ts::kCPU, fd, mul_kernel);
  m.impl(OpId::neg, ts::kCPU, fd, unary_kernel<THFloatVector_neg, THDoubleVector_neg>);
  m.impl(OpId::abs, ts::kCPU, fd, unary_kernel<THFloatVector_abs, THDoubleVector_abs>);
  m.impl(OpId::exp, ts::kCPU, fd, unary_kernel<THFloatVector_exp, THDoubleVector_exp>);
  m.impl(OpId::sigmoid, ts::kCPU, fd, unary_kernel<THFloatVector_sigmoid, THDoubleVector_sigmoid>);
  m.impl(OpId::tanh, ts::kCPU, fd, unary_kernel<THFloatVector_tanh, THDoubleVector_tanh>);
  m.impl(OpId::relu, ts::kCPU, fd, relu_kernel);
  m.impl(OpId::sum, ts::kCPU, fd, sum_kernel);
  m.impl(OpId::mm, ts::kCPU, fd, mm_kernel);
  if (g_step < 4) return;
  // Note [Legacy delegation]: every dtype and op the legacy library lacks runs in `optimized`,
  // said explicitly, so listings and conformance reports name it (Note [Delegation]).
  const ts::KernelSetId optimized = *ts::find_kernel_set("optimized");
  for (const ts::OpInfo& op : ts::all_ops()) {
    if (op.kind != ts::OpKind::Kernel) continue;
    const ts::KernelEntry own = ts::get_kernel(op.id, ts::kCPU, m.set());
    const uint32_t mine = own.fn != nullptr ? own.dtypes.bits() : 0u;
    const ts::DTypeSet rest =
        ts::DTypeSet::from_bits(ts::get_kernel(op.id, ts::kCPU, optimized).dtypes.bits() & ~mine);
    if (!rest.empty()) m.delegate(op.id, ts::kCPU, rest, "optimized");
  }
}
