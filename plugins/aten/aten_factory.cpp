// aten kernels for the kernel factories arange, linspace, eye, rand, randn and randint
// (lib/src/ops/factories.cpp). The output is fresh, contiguous and of the requested size.
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/linspace.h>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

// s0 = start, s1 = end, s2 = step: int64 Scalars (truncated) for integral dtypes, else doubles.
// Note [aten arange size]
// ATen sizes the result itself. For floating dtypes and int64 it does so from the values
// touchstone passes on (int64 from the truncated bounds), so a size disagreement shows up as an
// error from write(). For the narrower integral dtypes ATen sizes from the bounds as given, which
// the kernel no longer has: the end passed is start + n * step, which gives ATen touchstone's n.
void arange_kernel(const KernelCall& c) {
  const at::Scalar start = to_aten(*c.p.s0), step = to_aten(*c.p.s2);
  at::Scalar end = to_aten(*c.p.s1);
  if (is_integral_type(c.p.compute_dtype, false) && c.p.compute_dtype != kLong) {
    end = c.p.s0->to_long() + c.outputs[0].numel() * c.p.s2->to_long();
  }
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { at::arange_out(out, start, end, step); });
}

// s0 = start, s1 = end, i0 = steps.
void linspace_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::linspace_out(out, to_aten(*c.p.s0), to_aten(*c.p.s1), c.p.i0);
  });
}

// n and m are the output's sizes.
void eye_kernel(const KernelCall& c) {
  const Tensor& t = c.outputs[0];
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { at::eye_out(out, t.size(0), t.size(1)); });
}

// Note [aten random streams]
// ATen's CPU generator is an mt19937, not touchstone's Philox, so random values cannot match the
// reference's. Each call seeds a fresh generator from touchstone's (seed, offset): reproducible
// under ts::manual_seed and disjoint calls get different streams, but the values differ from
// every other kernel set's (conformance/known_differences.cpp).
at::Generator generator_for(const KernelCall& c) {
  const uint64_t seed = c.p.seed ^ (c.p.offset * 0x9E3779B97F4A7C15ull);
  return at::detail::createCPUGenerator(seed);
}

void rand_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.uniform_(0, 1, generator_for(c)); });
}

void randn_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.normal_(0, 1, generator_for(c)); });
}

// i0 = low, i1 = high (exclusive).
void randint_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { out.random_(c.p.i0, c.p.i1, generator_for(c)); });
}

}  // namespace

void register_factory(KernelRegistrar& m) {
  m.impl(OpId::arange, kCPU, kNoBool, guarded<arange_kernel>);
  m.impl(OpId::linspace, kCPU, kNoBool, guarded<linspace_kernel>);
  m.impl(OpId::eye, kCPU, kAll - DTypeSet{kBFloat16}, guarded<eye_kernel>);
  m.impl(OpId::rand, kCPU, kFloating, guarded<rand_kernel>);
  m.impl(OpId::randn, kCPU, kFloating, guarded<randn_kernel>);
  m.impl(OpId::randint, kCPU, kAll, guarded<randint_kernel>);
}

}  // namespace ts::aten
