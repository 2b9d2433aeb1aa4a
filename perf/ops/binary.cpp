// Binary elementwise cases: every binary op on contiguous vectors through its out= form, plus
// add in the layouts the kernels special-case (broadcast row, transposed operand, scalar).
#include "perf/catalog.h"

namespace ts::perf {
namespace {

using BinaryOut = void (*)(const Tensor& out, const Tensor& a, const Tensor& b);

struct BinarySpec {
  OpId id;
  Fill fill_a, fill_b;
  double flops;  // per element (Note [Bytes and FLOPs])
  DTypeSet allowed;
  ScalarType fallback;
  BinaryOut call;
  bool bool_out = false;
};

// `b_sizes` broadcasts against `a_sizes`; `transpose_a` times a.t() against a contiguous b.
BenchCase binary_case(const BinarySpec& s, ScalarType dtype, std::vector<int64_t> a_sizes,
                      std::vector<int64_t> b_sizes, std::string layout, bool transpose_a) {
  const ScalarType out_dtype = s.bool_out ? kBool : dtype;
  int64_t n = 1, nb = 1;
  for (int64_t d : a_sizes) n *= d;
  for (int64_t d : b_sizes) nb *= d;
  BenchCase c;
  c.family = "binary";
  c.op = std::string(op_info(s.id).name);
  c.shape = shape_str(a_sizes) + (b_sizes == a_sizes ? "" : "+" + shape_str(b_sizes));
  c.layout = std::move(layout);
  c.dtype = dtype;
  c.bytes = nbytes(n, dtype) + nbytes(nb, dtype) + nbytes(n, out_dtype);
  c.flops = s.flops * static_cast<double>(n);
  c.ops = {s.id};
  BinaryOut call = s.call;
  c.setup = [=]() -> std::function<void()> {
    Tensor a = make_input(a_sizes, dtype, s.fill_a);
    Tensor b = make_input(b_sizes, dtype, s.fill_b);
    if (transpose_a) a = a.t();
    Tensor out = empty(a.sizes(), out_dtype);
    return [=] { call(out, a, b); };
  };
  return c;
}

}  // namespace

void add_binary_cases(CaseList& list) {
  const DTypeSet fl = DTypeSet::floating();
  const DTypeSet num = fl | DTypeSet::integral(false);
  const DTypeSet ints = DTypeSet::integral(true);
  const DTypeSet all = DTypeSet::all();
  const Fill N = Fill::Normal, P = Fill::Positive, I = Fill::SmallInt, M = Fill::Mask;
  // clang-format off
  const BinarySpec specs[] = {
    {OpId::add, N, N, 1, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { add_out(o, a, b); }},
    {OpId::sub, N, N, 1, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { sub_out(o, a, b); }},
    {OpId::mul, N, N, 1, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { mul_out(o, a, b); }},
    {OpId::div, N, P, 1, fl, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { div_out(o, a, b); }},
    {OpId::remainder, N, P, 2, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { remainder_out(o, a, b); }},
    {OpId::pow, P, N, 1, fl, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { pow_out(o, a, b); }},
    {OpId::maximum, N, N, 1, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { maximum_out(o, a, b); }},
    {OpId::minimum, N, N, 1, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { minimum_out(o, a, b); }},
    {OpId::atan2, N, N, 1, fl, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { atan2_out(o, a, b); }},
    {OpId::eq, I, I, 0, all, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { eq_out(o, a, b); }, true},
    {OpId::ne, I, I, 0, all, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { ne_out(o, a, b); }, true},
    {OpId::lt, N, N, 0, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { lt_out(o, a, b); }, true},
    {OpId::le, N, N, 0, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { le_out(o, a, b); }, true},
    {OpId::gt, N, N, 0, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { gt_out(o, a, b); }, true},
    {OpId::ge, N, N, 0, num, kFloat, [](const Tensor& o, const Tensor& a, const Tensor& b) { ge_out(o, a, b); }, true},
    {OpId::logical_and, M, M, 0, all, kBool, [](const Tensor& o, const Tensor& a, const Tensor& b) { logical_and_out(o, a, b); }, true},
    {OpId::logical_or, M, M, 0, all, kBool, [](const Tensor& o, const Tensor& a, const Tensor& b) { logical_or_out(o, a, b); }, true},
    {OpId::bitwise_and, I, I, 0, ints, kInt, [](const Tensor& o, const Tensor& a, const Tensor& b) { bitwise_and_out(o, a, b); }},
    {OpId::bitwise_or, I, I, 0, ints, kInt, [](const Tensor& o, const Tensor& a, const Tensor& b) { bitwise_or_out(o, a, b); }},
    {OpId::bitwise_xor, I, I, 0, ints, kInt, [](const Tensor& o, const Tensor& a, const Tensor& b) { bitwise_xor_out(o, a, b); }},
  };
  // clang-format on
  const int64_t n = list.numel(), s = list.side();
  for (const BinarySpec& spec : specs) {
    for (ScalarType t : list.dtypes(spec.allowed, spec.fallback)) {
      list.add(binary_case(spec, t, {n}, {n}, "contiguous", false));
    }
  }
  // add in the layouts TensorIterator and the CPU loops treat apart.
  for (ScalarType t : list.dtypes(num)) {
    list.add(binary_case(specs[0], t, {s, s}, {s, s}, "contiguous", false));
    list.add(binary_case(specs[0], t, {s, s}, {s}, "broadcast_row", false));
    list.add(binary_case(specs[0], t, {s, s}, {s, s}, "transposed", true));
    list.add(binary_case(specs[0], t, {s, s}, {}, "scalar_tensor", false));
  }
}

}  // namespace ts::perf
