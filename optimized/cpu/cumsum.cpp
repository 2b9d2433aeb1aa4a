// Optimized CPU kernel for cumsum (and cumsum_), registered by reduce.cpp.
//
// Note [Optimized cumsum]
// Floating running sums accumulate in double and round each output once to the compute dtype
// (the reference's rule); integers accumulate in uint64 and wrap. When the scanned dim is not the
// input's innermost, up to 256 lines side by side (the innermost other dim) are scanned as
// vector columns, streaming rows. Otherwise each line is a sequential scan; a few long lines
// (fewer than 64, longer than 16384) are split into fixed 16384-element pieces: the piece sums
// (vectorized), their running offsets in piece order, then every piece scanned from its offset.
// Shorter lines are scanned four at a time (Note [Lines side by side]). The pieces depend on the
// shape only, so results are identical for any thread count. The output may be the input (cumsum_):
// each element is read before it is written.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/cumsum.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/highway.h"
#include "optimized/cpu/elementwise.h"
#include "optimized/cpu/reduce-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

// Stores n running sums into elements of floating dtype t, `stride` bytes apart.
HWY_INLINE void store_block(char* p, int64_t stride, int64_t n, ScalarType t, const double* v) {
  if (t == kFloat && stride == 4) {
    convert_floats(p, v, n, true);  // in vectors (factories.cpp)
  } else if (t == kDouble && stride == 8) {
    std::memcpy(p, v, static_cast<size_t>(n) * 8);
  } else {
    for (int64_t i = 0; i < n; ++i) store_floating(p + i * stride, t, v[i]);
  }
}

// V is double for float64, float for float32, float16 and bfloat16 (the plan's dtype).
template <class V>
struct FloatScanner {
  using Acc = double;
  const ScanPlan& s;

  double sum(const char* in, int64_t is, int64_t n) const {
    DoubleState<AddOp> st;
    alignas(64) V buf[kBlock];
    for (int64_t b = 0; b < n; b += kBlock) {
      const int64_t m = std::min(kBlock, n - b);
      accumulate_contiguous<AddOp, IdentityX>(st, load_block<V>(in + b * is, is, m, s.dtype, buf),
                                              m, 0.0);
    }
    return st.fold();
  }

  void scan(const char* in, int64_t is, char* out, int64_t os, int64_t n, double acc) const {
    alignas(64) V buf[kBlock];
    alignas(64) double run[kBlock];
    for (int64_t b = 0; b < n; b += kBlock) {
      const int64_t m = std::min(kBlock, n - b);
      const V* x = load_block<V>(in + b * is, is, m, s.dtype, buf);
      for (int64_t i = 0; i < m; ++i) run[i] = acc += static_cast<double>(x[i]);
      store_block(out + b * os, os, m, s.dtype, run);
    }
  }

  // Note [Lines side by side]
  // A line's running sum is one chain of dependent double adds, one element per add latency
  // (cumsum over dim 1 of 4096² float32, 1 thread: 17.9 ms, ATen 15.9). kLines lines scanned
  // together are kLines independent chains (4: 9.9 ms with the vector store_block; 8: 10.6);
  // each line adds in its own order, so the bits are scan()'s. float64 lines stay one at a
  // time: four took 19 ms against 15 for 4096² (eight streams of twice the bytes).
  static constexpr int64_t kLines = std::is_same_v<V, double> ? 1 : 4;
  void scan_lines(const char* const* in, int64_t is, char* const* out, int64_t os,
                  int64_t n) const {
    alignas(64) V buf[kLines][kBlock];
    alignas(64) double run[kLines][kBlock];
    const V* x[kLines];
    double acc[kLines] = {};
    for (int64_t b = 0; b < n; b += kBlock) {
      const int64_t m = std::min(kBlock, n - b);
      for (int64_t r = 0; r < kLines; ++r) {
        x[r] = load_block<V>(in[r] + b * is, is, m, s.dtype, buf[r]);
      }
      for (int64_t i = 0; i < m; ++i) {
        HWY_UNROLL(8)
        for (int64_t r = 0; r < kLines; ++r) run[r][i] = acc[r] += static_cast<double>(x[r][i]);
      }
      for (int64_t r = 0; r < kLines; ++r) store_block(out[r] + b * os, os, m, s.dtype, run[r]);
    }
  }

  void columns(const char* in, char* out, int64_t w) const {
    alignas(64) double acc[kCols];
    alignas(64) V buf[kCols];
    std::fill(acc, acc + w, 0.0);
    for (int64_t k = 0; k < s.len; ++k, in += s.in_step, out += s.out_step) {
      const V* x = load_block<V>(in, s.col_in, w, s.dtype, buf);
      accumulate_rows<AddOp, IdentityX, 1>(acc, &x, w, nullptr);
      store_block(out, s.col_out, w, s.dtype, acc);
    }
  }
};

}  // namespace

void floating_cumsum_impl(const ScanPlan& s) {
  if (s.dtype == kDouble) return run_scan(s, FloatScanner<double>{s});
  run_scan(s, FloatScanner<float>{s});
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "touchstone/dispatch_macros.h"

namespace ts::cpu {

HWY_EXPORT(floating_cumsum_impl);

void floating_cumsum(const ScanPlan& s) {
  HWY_DYNAMIC_DISPATCH(floating_cumsum_impl)(s);
}

namespace {

// Integer and bool lines (scalar loops): uint64 running sums wrapped to Out (bool: != 0).
template <class In, class Out>
struct IntScanner {
  using Acc = uint64_t;
  static constexpr int64_t kLines = 1;
  const ScanPlan& s;

  static uint64_t value(const char* p) {
    In x;
    std::memcpy(&x, p, sizeof(In));
    return static_cast<uint64_t>(static_cast<int64_t>(x));
  }
  static void store(char* p, uint64_t acc) {
    const Out o = std::is_same_v<Out, bool> ? acc != 0 : static_cast<Out>(acc);
    std::memcpy(p, &o, sizeof(Out));
  }

  uint64_t sum(const char* in, int64_t is, int64_t n) const {
    uint64_t a = 0;
    for (int64_t i = 0; i < n; ++i) a += value(in + i * is);
    return a;
  }
  void scan(const char* in, int64_t is, char* out, int64_t os, int64_t n, uint64_t acc) const {
    for (int64_t i = 0; i < n; ++i) {
      acc += value(in + i * is);
      store(out + i * os, acc);
    }
  }
  void columns(const char* in, char* out, int64_t w) const {
    uint64_t acc[kCols] = {};
    for (int64_t k = 0; k < s.len; ++k, in += s.in_step, out += s.out_step) {
      for (int64_t c = 0; c < w; ++c) acc[c] += value(in + c * s.col_in);
      for (int64_t c = 0; c < w; ++c) store(out + c * s.col_out, acc[c]);
    }
  }
};

ScanPlan make_scan_plan(const Tensor& in, const Tensor& out, int64_t dim) {
  ScanPlan s;
  s.in = static_cast<const char*>(in.data_ptr());
  s.out = static_cast<char*>(out.data_ptr());
  s.dtype = in.dtype();
  if (in.dim() == 0) return s;
  const int64_t ies = static_cast<int64_t>(in.element_size());
  const int64_t oes = static_cast<int64_t>(out.element_size());
  s.len = in.size(dim);
  s.in_step = in.stride(dim) * ies;
  s.out_step = out.stride(dim) * oes;
  std::vector<PlanDim> others;
  for (int64_t d = 0; d < in.dim(); ++d) {
    if (d == dim || in.size(d) == 1) continue;
    others.push_back(PlanDim{in.size(d), {in.stride(d) * ies, out.stride(d) * oes, 0}});
  }
  others = sort_and_coalesce(std::move(others), true);
  s.columns = !others.empty() && stride_key(others.back().stride[0]) < stride_key(s.in_step);
  if (s.columns) {
    s.cols = others.back().size;
    s.col_in = others.back().stride[0];
    s.col_out = others.back().stride[1];
    others.pop_back();
  }
  s.lines = to_dim_list(others, others.size());
  return s;
}

}  // namespace

// Floating compute dtypes read the input cast to them. Integer ones read integer inputs as they
// are (wrapping to the result dtype is the same either way) when the result has the input's
// dtype or int64; a bool result reads the input cast to bool.
void cumsum_kernel(const KernelCall& c) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor& self = c.inputs[0];
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  const ScalarType it = self.dtype();
  bool cast = it != ct;
  if (!is_floating_type(ct) && ct != kBool && !is_floating_type(it)) cast = it != ct && ct != kLong;
  const Tensor in = cast ? self.to(ct) : self;
  const ScanPlan s = make_scan_plan(in, out, c.params<DimParams>().dim);
  if (is_floating_type(ct)) return floating_cumsum(s);
  TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(in.dtype(), "cumsum", [&] {
    if (ct == kLong) return run_scan(s, IntScanner<scalar_t, int64_t>{s});
    run_scan(s, IntScanner<scalar_t, scalar_t>{s});
  });
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
