// Unary elementwise cases: every unary op on a contiguous vector through its out= form (or its
// functional form where it has none), plus exp on a transposed matrix.
#include <string_view>

#include "perf/catalog.h"

namespace ts::perf {
namespace {

using UnaryOut = void (*)(const Tensor& out, const Tensor& in);

struct UnarySpec {
  OpId id;
  Fill fill;
  double flops;  // per element (Note [Bytes and FLOPs])
  DTypeSet allowed;
  ScalarType fallback;
  UnaryOut call;
  bool bool_out = false;  // the result is bool whatever the input
};

constexpr DTypeSet kFloating = DTypeSet::floating();

BenchCase unary_case(const UnarySpec& s, ScalarType dtype, IntArrayRef sizes, bool transposed) {
  const std::vector<int64_t> shape(sizes.begin(), sizes.end());
  const ScalarType out_dtype = s.bool_out ? kBool : dtype;
  const int64_t n = [&] {
    int64_t p = 1;
    for (int64_t d : shape) p *= d;
    return p;
  }();
  BenchCase c;
  c.family = "unary";
  c.op = std::string(op_info(s.id).name);
  c.shape = shape_str(shape);
  c.layout = transposed ? "transposed" : "contiguous";
  c.dtype = dtype;
  c.bytes = nbytes(n, dtype) + nbytes(n, out_dtype);
  c.flops = s.flops * static_cast<double>(n);
  c.ops = {s.id};
  UnaryOut call = s.call;
  c.setup = [=]() -> std::function<void()> {
    Tensor in = make_input(shape, dtype, s.fill);
    if (transposed) in = in.t();
    Tensor out = empty(in.sizes(), out_dtype);
    return [=] { call(out, in); };
  };
  return c;
}

}  // namespace

void add_unary_cases(CaseList& list) {
  const DTypeSet ints = DTypeSet::integral(/*include_bool=*/true);
  const DTypeSet signed_num = kFloating | DTypeSet{kChar, kShort, kInt, kLong};
  // clang-format off
  const UnarySpec specs[] = {
    {OpId::neg, Fill::Normal, 1, signed_num, kFloat, [](const Tensor& o, const Tensor& a) { neg_out(o, a); }},
    {OpId::abs, Fill::Normal, 1, signed_num, kFloat, [](const Tensor& o, const Tensor& a) { abs_out(o, a); }},
    {OpId::sign, Fill::Normal, 1, signed_num, kFloat, [](const Tensor& o, const Tensor& a) { sign_out(o, a); }},
    {OpId::exp, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { exp_out(o, a); }},
    {OpId::expm1, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { expm1_out(o, a); }},
    {OpId::log, Fill::Positive, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { log_out(o, a); }},
    {OpId::log1p, Fill::Positive, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { log1p_out(o, a); }},
    {OpId::sqrt, Fill::Positive, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { sqrt_out(o, a); }},
    {OpId::rsqrt, Fill::Positive, 2, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { rsqrt_out(o, a); }},
    {OpId::reciprocal, Fill::Positive, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { reciprocal_out(o, a); }},
    {OpId::sin, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { sin_out(o, a); }},
    {OpId::cos, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { cos_out(o, a); }},
    {OpId::tanh, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { tanh_out(o, a); }},
    {OpId::sigmoid, Fill::Normal, 3, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { sigmoid_out(o, a); }},
    {OpId::relu, Fill::Normal, 1, signed_num, kFloat, [](const Tensor& o, const Tensor& a) { relu_out(o, a); }},
    {OpId::gelu, Fill::Normal, 4, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { gelu_out(o, a); }},
    {OpId::silu, Fill::Normal, 4, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { silu_out(o, a); }},
    {OpId::erf, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { erf_out(o, a); }},
    {OpId::floor, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { floor_out(o, a); }},
    {OpId::ceil, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { ceil_out(o, a); }},
    {OpId::round, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { round_out(o, a); }},
    {OpId::trunc, Fill::Normal, 1, kFloating, kFloat, [](const Tensor& o, const Tensor& a) { trunc_out(o, a); }},
    {OpId::isnan, Fill::Normal, 0, kFloating, kFloat, [](const Tensor&, const Tensor& a) { (void)isnan(a); }, true},
    {OpId::logical_not, Fill::Mask, 0, DTypeSet::all(), kBool, [](const Tensor& o, const Tensor& a) { logical_not_out(o, a); }, true},
    {OpId::bitwise_not, Fill::SmallInt, 0, ints, kInt, [](const Tensor& o, const Tensor& a) { bitwise_not_out(o, a); }},
    {OpId::clamp, Fill::Normal, 2, signed_num, kFloat, [](const Tensor& o, const Tensor& a) { clamp_out(o, a, -0.5, 0.5); }},
  };
  // clang-format on
  for (const UnarySpec& s : specs) {
    for (ScalarType t : list.dtypes(s.allowed, s.fallback)) {
      list.add(unary_case(s, t, {list.numel()}, false));
    }
  }
  // A transposed input: the kernel walks one operand against its strides.
  for (ScalarType t : list.dtypes(kFloating)) {
    list.add(unary_case(specs[3], t, {list.side(), list.side()}, true));
  }
}

}  // namespace ts::perf
