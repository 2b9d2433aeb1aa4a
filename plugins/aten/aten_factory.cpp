// aten kernels for the kernel factories arange, linspace, eye, rand, randn and randint
// (lib/src/ops/factories.cpp). The output is fresh, contiguous and of the requested size.
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/linspace.h>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// One kernel per Kernel op of signature class Factory (Note [Kernel families]).
template <OpId op>
void factory_kernel(const KernelCall& c) = delete;

// ArangeParams: int64 Scalars (truncated) for integral dtypes, else doubles.
// Note [aten arange size]
// ATen sizes the result itself. For floating dtypes and int64 it does so from the values
// touchstone passes on (int64 from the truncated bounds), so a size disagreement shows up as an
// error from write(). For the narrower integral dtypes ATen sizes from the bounds as given, which
// the kernel no longer has: the end passed is start + n * step, which gives ATen touchstone's n.
template <>
void factory_kernel<OpId::arange>(const KernelCall& c) {
  const ArangeParams& a = c.params<ArangeParams>();
  const at::Scalar start = to_aten(a.start), step = to_aten(a.step);
  at::Scalar end = to_aten(a.end);
  if (is_integral_type(c.p.compute_dtype, false) && c.p.compute_dtype != kLong) {
    end = a.start.to_long() + c.outputs[0].numel() * a.step.to_long();
  }
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { at::arange_out(out, start, end, step); });
}

template <>
void factory_kernel<OpId::linspace>(const KernelCall& c) {
  const LinspaceParams& l = c.params<LinspaceParams>();
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::linspace_out(out, to_aten(l.start), to_aten(l.end), l.steps); });
}

// n and m are the output's sizes.
template <>
void factory_kernel<OpId::eye>(const KernelCall& c) {
  const Tensor& t = c.outputs[0];
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { at::eye_out(out, t.size(0), t.size(1)); });
}

// Note [aten random streams]
// ATen's CPU generator is an mt19937, not touchstone's Philox, so random values cannot match the
// reference's. Each call seeds a fresh generator from touchstone's (seed, offset): reproducible
// under ts::manual_seed and disjoint calls get different streams, but the values differ from
// every other kernel set's (conformance/known_differences.cpp).
at::Generator generator_for(const RandomParams& r) {
  return at::detail::createCPUGenerator(r.seed ^ (r.offset * 0x9E3779B97F4A7C15ull));
}

template <>
void factory_kernel<OpId::rand>(const KernelCall& c) {
  const at::Generator g = generator_for(c.params<RandomParams>());
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.uniform_(0, 1, g); });
}

template <>
void factory_kernel<OpId::randn>(const KernelCall& c) {
  const at::Generator g = generator_for(c.params<RandomParams>());
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.normal_(0, 1, g); });
}

// [low, high).
template <>
void factory_kernel<OpId::randint>(const KernelCall& c) {
  const RandintParams& r = c.params<RandintParams>();
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { out.random_(r.low, r.high, generator_for(r)); });
}

}  // namespace

// The declared dtypes, but eye: ATen 1.13 has no bfloat16 eye on the CPU.
void register_factory(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Factory>([&](auto op) {
    DTypeSet dtypes = op_info(op).dtypes;
    if (op == OpId::eye) dtypes = dtypes - DTypeSet{kBFloat16};
    m.impl(op, kCPU, dtypes, guarded<factory_kernel<op>>);
  });
}

}  // namespace ts::aten
