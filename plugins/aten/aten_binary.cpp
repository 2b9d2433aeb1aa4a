// aten kernels for the binary elementwise ops (lib/src/ops/binary.cpp): both operands converted
// to p.compute_dtype, then ATen's out= form (bool outputs for comparisons and logical ops).
#include <ATen/core/Tensor.h>
#include <ATen/ops/add.h>
#include <ATen/ops/atan2.h>
#include <ATen/ops/bitwise_and.h>
#include <ATen/ops/bitwise_or.h>
#include <ATen/ops/bitwise_xor.h>
#include <ATen/ops/div.h>
#include <ATen/ops/eq.h>
#include <ATen/ops/ge.h>
#include <ATen/ops/gt.h>
#include <ATen/ops/le.h>
#include <ATen/ops/logical_and.h>
#include <ATen/ops/logical_or.h>
#include <ATen/ops/lt.h>
#include <ATen/ops/maximum.h>
#include <ATen/ops/minimum.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/ne.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/remainder.h>
#include <ATen/ops/sub.h>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

#define TS_ATEN_BINARY(name, result)                                                           \
  void name##_kernel(const KernelCall& c) {                                                    \
    write(c, result, [&](at::Tensor& out) { at::name##_out(out, input(c, 0), input(c, 1)); }); \
  }
TS_ATEN_BINARY(mul, c.p.compute_dtype)
TS_ATEN_BINARY(remainder, c.p.compute_dtype)
TS_ATEN_BINARY(pow, c.p.compute_dtype)
TS_ATEN_BINARY(maximum, c.p.compute_dtype)
TS_ATEN_BINARY(minimum, c.p.compute_dtype)
TS_ATEN_BINARY(atan2, c.p.compute_dtype)
TS_ATEN_BINARY(bitwise_and, c.p.compute_dtype)
TS_ATEN_BINARY(bitwise_or, c.p.compute_dtype)
TS_ATEN_BINARY(bitwise_xor, c.p.compute_dtype)
TS_ATEN_BINARY(eq, kBool)
TS_ATEN_BINARY(ne, kBool)
TS_ATEN_BINARY(lt, kBool)
TS_ATEN_BINARY(le, kBool)
TS_ATEN_BINARY(gt, kBool)
TS_ATEN_BINARY(ge, kBool)
TS_ATEN_BINARY(logical_and, kBool)
TS_ATEN_BINARY(logical_or, kBool)
#undef TS_ATEN_BINARY

// s0 = alpha.
void add_kernel(const KernelCall& c) {
  const at::Scalar alpha = to_aten(*c.p.s0);
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::add_out(out, input(c, 0), input(c, 1), alpha); });
}

void sub_kernel(const KernelCall& c) {
  const at::Scalar alpha = to_aten(*c.p.s0);
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::sub_out(out, input(c, 0), input(c, 1), alpha); });
}

// mode: 0 true division, 1 trunc, 2 floor.
void div_kernel(const KernelCall& c) {
  const c10::optional<c10::string_view> mode =
      c.p.mode == 0 ? c10::nullopt
                    : c10::optional<c10::string_view>(c.p.mode == 1 ? "trunc" : "floor");
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::div_out(out, input(c, 0), input(c, 1), mode); });
}

}  // namespace

void register_binary(KernelRegistrar& m) {
  const DTypeSet integral_and_bool = DTypeSet::integral(true);
  m.impl(OpId::add, kCPU, kAll, guarded<add_kernel>);
  m.impl(OpId::sub, kCPU, kNoBool, guarded<sub_kernel>);
  m.impl(OpId::mul, kCPU, kAll, guarded<mul_kernel>);
  m.impl(OpId::div, kCPU, kNoBool, guarded<div_kernel>);
  m.impl(OpId::remainder, kCPU, kNoBool, guarded<remainder_kernel>);
  m.impl(OpId::pow, kCPU, kNoBool, guarded<pow_kernel>);
  m.impl(OpId::maximum, kCPU, kAll, guarded<maximum_kernel>);
  m.impl(OpId::minimum, kCPU, kAll, guarded<minimum_kernel>);
  m.impl(OpId::atan2, kCPU, kFloatingNoHalf, guarded<atan2_kernel>);
  m.impl(OpId::eq, kCPU, kAll, guarded<eq_kernel>);
  m.impl(OpId::ne, kCPU, kAll, guarded<ne_kernel>);
  m.impl(OpId::lt, kCPU, kAll, guarded<lt_kernel>);
  m.impl(OpId::le, kCPU, kAll, guarded<le_kernel>);
  m.impl(OpId::gt, kCPU, kAll, guarded<gt_kernel>);
  m.impl(OpId::ge, kCPU, kAll, guarded<ge_kernel>);
  m.impl(OpId::logical_and, kCPU, kAll, guarded<logical_and_kernel>);
  m.impl(OpId::logical_or, kCPU, kAll, guarded<logical_or_kernel>);
  m.impl(OpId::bitwise_and, kCPU, integral_and_bool, guarded<bitwise_and_kernel>);
  m.impl(OpId::bitwise_or, kCPU, integral_and_bool, guarded<bitwise_or_kernel>);
  m.impl(OpId::bitwise_xor, kCPU, integral_and_bool, guarded<bitwise_xor_kernel>);
}

}  // namespace ts::aten
