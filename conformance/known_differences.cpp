// Disagreements with the reference that are understood: see KnownDifference in catalog.h. Every
// row names the kernel set, the cases it covers, and why the difference is not a bug.
//
// Note [aten known differences]
// The aten set is libtorch 1.13.1's ATen (plugins/aten). Each row below was reproduced against
// libtorch directly (outside touchstone), so it describes PyTorch's behaviour, not the plug-in's;
// plugins/aten/README.md summarizes them. Three kinds:
// - no kernel: ATen 1.13 has no CPU kernel for the dtype, so every case of it raises;
// - reduced precision: ATen computes some float16/bfloat16 ops with intermediates rounded to the
//   dtype (or accumulates in it), where the reference rounds once from double;
// - edge values and conventions: Sleef, FMA and formula choices at overflow, NaN -> int casts,
//   PyTorch 1.13 bugs fixed later, and random streams (mt19937, not touchstone's Philox).
#include <initializer_list>

#include "conformance/runner.h"

namespace ts::conformance {
namespace {

using Rows = std::vector<KnownDifference>;

// The cases of each of `ops` in `dtype` and `sample` (globs; empty: all), of one check.
void add(Rows& rows, std::initializer_list<const char*> ops, const std::string& dtype,
         const std::string& sample, const std::string& check, const std::string& reason) {
  for (const char* op : ops) rows.push_back({"aten", op, dtype, sample, "", "", check, reason});
}

// The same, narrowed to one layout and variant.
void add_variant(Rows& rows, std::initializer_list<const char*> ops, const std::string& dtype,
                 const std::string& layout, const std::string& variant, const std::string& reason) {
  for (const char* op : ops) rows.push_back({"aten", op, dtype, "", layout, variant, "", reason});
}

void aten_no_kernel(Rows& rows) {
  const std::string no_half =
      "PyTorch 1.13's CPU backend has no float16 kernel for this op (RuntimeError \"... not "
      "implemented for 'Half'\"), so the aten set registers none and every case raises";
  add(rows, {"exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid"},
      "float16", "", "", no_half);
  add(rows, {"relu", "gelu", "gelu.*", "silu", "erf", "floor", "ceil", "round", "trunc", "clamp"},
      "float16", "", "", no_half);
  add(rows, {"atan2", "lerp", "addcmul", "addcmul.*", "prod", "prod.*", "logsumexp", "cumsum"},
      "float16", "", "", no_half);
  add(rows, {"softmax", "log_softmax", "layer_norm", "nll_loss"}, "float16", "", "", no_half);
  add(rows, {"mm", "mm.*", "bmm", "bmm.*", "addmm", "addmm.*", "dot", "dot.*", "mv", "mv.*"},
      "float16", "", "", no_half);
  add(rows, {"cross_entropy"}, "float16", "", "",
      "built on log_softmax and nll_loss, which PyTorch 1.13 has no float16 CPU kernel for");
  add(rows, {"matmul", "matmul.*", "linear", "linear.*"}, "float16", "", "",
      "built on mm/mv/bmm/dot, which PyTorch 1.13 has no float16 CPU kernel for");
  add(rows, {"outer"}, "float16", "", "backward",
      "outer's gradient is a matrix-vector product (mv), which PyTorch 1.13 has no float16 CPU "
      "kernel for");
  add(rows, {"pow"}, "float16", "", "backward",
      "pow's gradient for the exponent uses log(self), which PyTorch 1.13 has no float16 CPU "
      "kernel for");
  const std::string no_bf16 =
      "PyTorch 1.13's CPU backend has no bfloat16 kernel for this op (not implemented for "
      "'BFloat16'), so the aten set registers none and every case raises";
  add(rows, {"mse_loss", "eye", "prod", "prod.*"}, "bfloat16", "", "", no_bf16);
  add_variant(rows, {"cumsum"}, "bool", "", "inplace",
              "cumsum_ on a bool tensor accumulates in bool, which PyTorch 1.13 has no CPU kernel "
              "for (\"cumsum_out_cpu\" not implemented for 'Bool')");
}

void aten_reduced_precision(Rows& rows) {
  add(rows, {"add.alpha", "sub.alpha"}, "*float16", "", "forward",
      "ATen 1.13 rounds alpha * other to the dtype before the addition (float16 always: a + "
      "round16(0.75 * b) reproduces every element; bfloat16 outside the vector loop); the "
      "reference rounds a + alpha * b once, and with cancellation the two differ by ulps of b");
  add(rows, {"add", "sub", "mul", "div", "maximum", "remainder", "lerp"}, "*float16", "bcast_*",
      "backward",
      "the gradient of a broadcast operand is a sum over the broadcast dims; ATen 1.13 sums "
      "float16/bfloat16 over non-innermost dims with partial sums rounded to the dtype");
  add(rows, {"sum", "mean"}, "float16", "cube_neg_keepdim", "forward",
      "ATen 1.13 sums float16 over non-innermost dims with partial sums rounded to float16 (a "
      "2x3x5 sum over dims (0, 2) is off by up to 4 ulps)");
  add(rows, {"var*", "std*"}, "*float16", "", "backward",
      "the gradient's x - mean uses ATen's float16/bfloat16 mean, whose partial sums are rounded "
      "to the dtype (a row of equal values does not give x - mean == 0)");
  add(rows,
      {"mm", "mm.*", "bmm", "bmm.*", "addmm", "addmm.*", "dot", "dot.*", "mv", "mv.*", "matmul",
       "matmul.*", "linear", "linear.*"},
      "bfloat16", "", "",
      "ATen 1.13's bfloat16 CPU matrix products (without oneDNN) round partial sums to bfloat16 "
      "(pytorch/pytorch#83863; a bfloat16 dot of 2053 values near 2 stalls at 1024): fp32 "
      "accumulation for dot/gemv came later (pytorch/pytorch#152676)");
  add(rows, {"outer"}, "bfloat16", "", "backward",
      "outer's gradient is a bfloat16 matrix-vector product, whose partial sums ATen 1.13 rounds "
      "to bfloat16 (pytorch/pytorch#83863)");
  add(rows, {"norm*"}, "*float16", "", "",
      "ATen 1.13 accumulates float16/bfloat16 norms in the dtype: float16 squares overflow (the "
      "norm of 53 values of 250 is inf for 1820) and long sums stall (float16 gives 103.8 for an "
      "exact 104.6 over 2053 elements; a bfloat16 p=1 norm stops growing at 1024)");
  add(rows, {"mean", "mean.*"}, "float16", "shifted_*", "forward",
      "ATen 1.13 computes a float16 mean as a float16 sum divided by N, so the sum overflows: the "
      "mean of 2053 values of 1000.5 is inf");
  add(rows, {"gelu", "gelu.tanh"}, "bfloat16", "", "forward",
      "ATen 1.13 evaluates bfloat16 GELU with bfloat16 intermediates (the tanh form everywhere, "
      "the erf form outside the vector loop): 1 + tanh(...) cancels, gelu(-4.375, 'tanh') is -0 "
      "for a true -1.03e-5");
  add_variant(rows, {"gelu", "gelu.tanh"}, "", "out_transposed", "out",
              "PyTorch 1.13 runs float32/bfloat16 GELU through oneDNN (pytorch/pytorch#58525), "
              "whose out= form leaves a non-contiguous out tensor unwritten (gelu_out into a "
              "transposed zeros tensor stays zeros; verified against libtorch 1.13.1)");
  add(rows, {"layer_norm"}, "bfloat16", "", "",
      "ATen 1.13's bfloat16 CPU layer_norm is inaccurate: a constant row of 0.3 normalizes to "
      "0.046875 instead of 0, and the error spreads to the gradients");
  add(rows, {"softmax", "log_softmax", "cross_entropy"}, "bfloat16", "", "",
      "ATen 1.13's bfloat16 (log_)softmax rounds intermediates (the row max plus log-sum) to "
      "bfloat16: log_softmax([2, -4 x131])[0] is -0.2832 for a true -0.2812; cross_entropy and "
      "the gradients inherit it");
  add(rows, {"mse_loss"}, "float16", "", "forward",
      "ATen 1.13 rounds self - target to float16 before squaring (round16(round16(a - b)^2) "
      "reproduces every element); the reference rounds (a - b)^2 once");
  add(rows, {"scatter_add", "index_select", "gather"}, "*float16", "", "",
      "scatter_add adds each src element into the output in the output's dtype, one rounding per "
      "add, as torch.Tensor.scatter_add_ documents (self[index[i][j]][j] += src[i][j]); the "
      "reference sums in double and rounds once. index_select and gather differentiate through "
      "scatter_add");
  add(rows, {"rsqrt"}, "bfloat16", "", "backward",
      "outside its vector loop ATen 1.13 computes bfloat16 rsqrt as 1 / sqrt(x) with sqrt rounded "
      "to bfloat16 first (rsqrt(1.1016) = 0.957, correctly rounded 0.9531); the gradient cubes "
      "the saved result, tripling the error");
  add(rows, {"linspace"}, "*float16", "big", "",
      "ATen computes float16/bfloat16 linspace values in float32 (start + i * step, and from the "
      "end for the second half) and rounds those: 1139 of the 2053 float16 values of "
      "linspace(-10, 10, 2053) differ from the once-rounded ones");
  add(rows, {"layer_norm"}, "float32", "size1*", "forward",
      "ATen's CPU layer_norm computes x * rstd + (-mean * rstd); on a row of zero variance rstd "
      "is 1/sqrt(eps) = 316 and the two rounded products leave an ulp of 316 * x instead of 0");
  add_variant(rows, {"layer_norm"}, "float32", "expanded", "functional",
              "an expanded input has constant rows: ATen's x * rstd + (-mean * rstd) leaves an "
              "ulp of 316 * x instead of 0 (rstd = 1/sqrt(eps) at zero variance)");
  add(rows, {"cumsum.dtype"}, "float64", "*_to_float32", "backward",
      "the gradient is sum - cumsum + grad in float32; ATen's float32 sum accumulates in float32 "
      "(cascade sum), within an ulp of the once-rounded sum, and the subtraction cancels that "
      "ulp into ~16 ulps of the result");
  add(rows, {"arange"}, "*float16", "big", "",
      "ATen computes float16/bfloat16 arange values as start + i * step in float32; near zero the "
      "cancellation keeps float32's error of |start| (arange(-50, 50, 0.037)[1351] is -0.01297 "
      "for -0.013)");
}

void aten_edge_values(Rows& rows) {
  add(rows, {"addcmul", "addcmul.value"}, "float64", "edge_values", "",
      "ATen's vectorized addcmul fuses self + value * t1 * t2 (FMA): inf + max * -1.5 stays inf "
      "where the reference's rounded product overflows to -inf and gives NaN");
  add(rows, {"lerp"}, "", "edge_values", "forward",
      "ATen computes lerp in the dtype's opmath (float32 for float32 and bfloat16): end - start "
      "overflows for operands near the dtype's max, where the reference's double does not");
  add(rows, {"log1p"}, "", "edge_values", "",
      "ATen's vectorized log1p is Sleef's, which returns inf for x > 1e38 (float) and x > 1e307 "
      "(double) (shibatch/sleef#473)");
  add(rows, {"pow"}, "float64", "edge_values", "",
      "ATen's vectorized pow is Sleef's, which overflows to inf too early: pow(DBL_MAX, 1) is inf "
      "(shibatch/sleef#600)");
  add(rows, {"remainder"}, "", "edge_values", "",
      "ATen 1.13's vectorized remainder goes through Sleef_fmod, which returns NaN when a / b "
      "overflows (a tiny divisor): remainder(1, 1e-310) is NaN for an exact 3.5e-311 "
      "(pytorch/pytorch#77742)");
  add(rows, {"var*", "std*"}, "float64", "edge_values", "",
      "ATen's Welford variance overflows to NaN on a row holding both DBL_MAX and -DBL_MAX, where "
      "the true variance overflows to inf");
  add(rows, {"to"}, "", "*_to_int32", "forward",
      "NaN, inf and out-of-range floats cast to int32 are undefined behaviour in PyTorch "
      "(pytorch/pytorch#35086); ATen on x86 gives INT_MIN (pytorch/pytorch#87556), the reference "
      "0");
  add(rows, {"linspace"}, "int*", "big", "",
      "PyTorch 1.13's integral linspace on CPU rounds wrongly (pytorch/pytorch#81996): "
      "linspace(-10, 10, 2053, dtype=int64)[5] is -8 for -9.95");
  add(rows, {"arange"}, "int64", "truncated_args", "",
      "PyTorch 1.13 sizes an int64 arange from the truncated bounds: arange(0.5, 7.9, 1.5, "
      "dtype=int64) has 7 elements (int32 and float32: 5); touchstone sizes from the bounds as "
      "given, as current ATen does, so the aten kernel refuses ATen's larger result");
}

void aten_random(Rows& rows) {
  add(rows, {"rand", "randn", "randint", "rand_like", "randn_like", "dropout"}, "", "", "",
      "ATen's CPU generator is an mt19937, not touchstone's Philox: the aten set seeds one from "
      "touchstone's (seed, offset), so values are reproducible but differ from the reference's "
      "by design (Note [aten random streams] in plugins/aten/aten_factory.cpp)");
}

}  // namespace

const std::vector<KnownDifference>& known_differences() {
  static const Rows rows = [] {
    Rows r;
    aten_no_kernel(r);
    aten_reduced_precision(r);
    aten_edge_values(r);
    aten_random(r);
    return r;
  }();
  return rows;
}

}  // namespace ts::conformance
