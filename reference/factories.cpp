// Reference kernels for the kernel factories: arange, linspace, eye, rand, randn, randint.
// See Note [Reference kernels] in common.h; the params are listed in lib/src/ops/factories.cpp.
#include "common.h"
#include "touchstone/kernel_family.h"
#include "touchstone/random.h"

namespace ts::reference {
namespace {

// A linspace bound converted to the output dtype first, as ATen does (Scalar::to<scalar_t>).
double linspace_bound(const Scalar& s, ScalarType t) {
  if (is_floating_type(t) || s.is_floating_point()) return round_to(t, s.to_double());
  return static_cast<double>(wrap_to(t, s.to_long()));
}

// Calls f(ptr, words) for every output element with the Philox words of its row-major index
// (Note [Philox streams] in touchstone/random.h).
template <typename F>
void for_each_philox(const KernelCall& c, const RandomParams& r, F&& f) {
  const Tensor& out = c.outputs[0];
  uint64_t i = 0;  // for_each_index visits the elements in row-major order
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    f(element_ptr(out, idx), philox_words(r.seed, r.offset, i++));
  });
}

// One kernel per Kernel op of signature class Factory (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

// start + i * step: in double for floating outputs, in wrapping int64 for integral ones.
template <>
void kernel<OpId::arange>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const ScalarType t = out.dtype();
  const ArangeParams& a = c.params<ArangeParams>();
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    const int64_t i = idx[0];
    if (is_floating_type(t)) {
      store_double(element_ptr(out, idx), t,
                   a.start.to_double() + static_cast<double>(i) * a.step.to_double());
    } else {
      const uint64_t v = static_cast<uint64_t>(a.start.to_long()) +
                         static_cast<uint64_t>(i) * static_cast<uint64_t>(a.step.to_long());
      store_int64(element_ptr(out, idx), t, static_cast<int64_t>(v));
    }
  });
}

// PyTorch's symmetric formula: the first half steps up from start, the second half down from
// end, so both ends are exact. Math in double; integral outputs truncate toward zero.
template <>
void kernel<OpId::linspace>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const ScalarType t = out.dtype();
  const LinspaceParams& l = c.params<LinspaceParams>();
  const int64_t steps = l.steps;
  const double start = linspace_bound(l.start, t);
  const double end = linspace_bound(l.end, t);
  const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
  const int64_t halfway = steps / 2;
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    const int64_t i = idx[0];
    double v = start;
    if (steps > 1) {
      v = i < halfway ? start + step * static_cast<double>(i)
                      : end - step * static_cast<double>(steps - 1 - i);
    }
    store_double(element_ptr(out, idx), t, v);
  });
}

template <>
void kernel<OpId::eye>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    store_int64(element_ptr(out, idx), out.dtype(), idx[0] == idx[1] ? 1 : 0);
  });
}

template <>
void kernel<OpId::rand>(const KernelCall& c) {
  const ScalarType t = c.outputs[0].dtype();
  for_each_philox(c, c.params<RandomParams>(), [&](char* p, const std::array<uint32_t, 4>& w) {
    double u = 0;
    switch (t) {
      case kDouble:
        u = uniform_double(w[0], w[1]);
        break;
      case kFloat:
        u = uniform_from_bits(w[0], 24);
        break;
      case kHalf:
        u = uniform_from_bits(w[0], 11);
        break;
      default:  // bfloat16
        u = uniform_from_bits(w[0], 8);
    }
    store_double(p, t, u);  // exact: u has no more significant bits than t
  });
}

template <>
void kernel<OpId::randn>(const KernelCall& c) {
  const ScalarType t = c.outputs[0].dtype();
  for_each_philox(c, c.params<RandomParams>(), [&](char* p, const std::array<uint32_t, 4>& w) {
    store_double(p, t, normal_double(w));
  });
}

template <>
void kernel<OpId::randint>(const KernelCall& c) {
  const ScalarType t = c.outputs[0].dtype();
  const RandintParams& r = c.params<RandintParams>();
  const uint64_t range = static_cast<uint64_t>(r.high) - static_cast<uint64_t>(r.low);
  for_each_philox(c, r, [&](char* p, const std::array<uint32_t, 4>& w) {
    store_int64(p, t, uniform_int_from_to(w, range, r.low));  // in range: meta checked bounds
  });
}

}  // namespace

TS_REGISTER_KERNELS(reference, factories) {
  for_each_kernel_op<OpSignature::Factory>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
