// aten kernels for the binary elementwise ops (lib/src/ops/binary.cpp): both operands converted
// to p.compute_dtype, then ATen's out= form (bool outputs for comparisons and logical ops). A
// plain op is one row of TS_ATEN_BINARY_OPS (and its ATen header).
#include <ATen/core/Tensor.h>
#include <ATen/ops/add.h>
#include <ATen/ops/atan2.h>
#include <ATen/ops/bitwise_and.h>
#include <ATen/ops/bitwise_or.h>
#include <ATen/ops/bitwise_xor.h>
#include <ATen/ops/clamp_max.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/copysign.h>
#include <ATen/ops/div.h>
#include <ATen/ops/eq.h>
#include <ATen/ops/floor_divide.h>
#include <ATen/ops/fmod.h>
#include <ATen/ops/ge.h>
#include <ATen/ops/gt.h>
#include <ATen/ops/heaviside.h>
#include <ATen/ops/hypot.h>
#include <ATen/ops/le.h>
#include <ATen/ops/logaddexp.h>
#include <ATen/ops/logaddexp2.h>
#include <ATen/ops/logical_and.h>
#include <ATen/ops/logical_or.h>
#include <ATen/ops/lt.h>
#include <ATen/ops/maximum.h>
#include <ATen/ops/minimum.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/ne.h>
#include <ATen/ops/nextafter.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/remainder.h>
#include <ATen/ops/sub.h>
#include <ATen/ops/xlogy.h>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

// clang-format off
// One row per plain binary op: its ATen function and the dtypes of op_list.def's that ATen 1.13's
// CPU backend lacks.
#define TS_ATEN_BINARY_OPS(_)                                                                \
  _(mul, {}) _(remainder, {}) _(pow, {}) _(maximum, {}) _(minimum, {}) _(atan2, {kHalf})    \
  _(eq, {}) _(ne, {}) _(lt, {}) _(le, {}) _(gt, {}) _(ge, {}) _(logical_and, {})            \
  _(logical_or, {}) _(bitwise_and, {}) _(bitwise_or, {}) _(bitwise_xor, {})                 \
  /* math (issue 16) */                                                                     \
  _(hypot, {kHalf}) _(copysign, {}) _(nextafter, {kHalf}) _(fmod, {}) _(floor_divide, {})   \
  _(xlogy, {}) _(logaddexp, {kHalf}) _(logaddexp2, {kHalf}) _(heaviside, {})                \
  _(clamp_min, {}) _(clamp_max, {})
// clang-format on

#define TS_ATEN_BINARY_KERNEL(name, lacks)                                          \
  void name##_kernel(const KernelCall& c) {                                         \
    write(c, result_dtype(c),                                                       \
          [&](at::Tensor& out) { at::name##_out(out, input(c, 0), input(c, 1)); }); \
  }
TS_ATEN_BINARY_OPS(TS_ATEN_BINARY_KERNEL)
#undef TS_ATEN_BINARY_KERNEL

void add_kernel(const KernelCall& c) {
  const at::Scalar alpha = to_aten(c.params<AlphaParams>().alpha);
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::add_out(out, input(c, 0), input(c, 1), alpha); });
}

void sub_kernel(const KernelCall& c) {
  const at::Scalar alpha = to_aten(c.params<AlphaParams>().alpha);
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::sub_out(out, input(c, 0), input(c, 1), alpha); });
}

void div_kernel(const KernelCall& c) {
  const RoundingMode rounding = c.params<DivParams>().rounding_mode;
  const c10::optional<c10::string_view> mode =
      rounding == RoundingMode::None
          ? c10::nullopt
          : c10::optional<c10::string_view>(rounding == RoundingMode::Trunc ? "trunc" : "floor");
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::div_out(out, input(c, 0), input(c, 1), mode); });
}

}  // namespace

void register_binary(KernelRegistrar& m) {
#define TS_ATEN_BINARY_REGISTER(name, lacks) \
  m.impl(OpId::name, kCPU, op_info(OpId::name).dtypes - DTypeSet lacks, guarded<name##_kernel>);
  TS_ATEN_BINARY_OPS(TS_ATEN_BINARY_REGISTER)
#undef TS_ATEN_BINARY_REGISTER
  m.impl(OpId::add, kCPU, guarded<add_kernel>);
  m.impl(OpId::sub, kCPU, guarded<sub_kernel>);
  m.impl(OpId::div, kCPU, guarded<div_kernel>);
}

}  // namespace ts::aten
