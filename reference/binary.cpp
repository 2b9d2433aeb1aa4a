// Reference kernels for binary elementwise ops. See Note [Reference kernels] in common.h.
#include <cmath>

#include "common.h"

namespace ts::reference {
namespace {

void add_kernel(const KernelCall& c) {
  const double fa = c.p.s0->to_double();
  const int64_t ia = c.p.s0->to_long();
  elementwise<2>(
      c, [&](const double* v) { return v[0] + fa * v[1]; },
      [&](const int64_t* v) { return static_cast<int64_t>(static_cast<uint64_t>(v[0]) +
                                                          static_cast<uint64_t>(ia) * static_cast<uint64_t>(v[1])); });
}

void sub_kernel(const KernelCall& c) {
  const double fa = c.p.s0->to_double();
  const int64_t ia = c.p.s0->to_long();
  elementwise<2>(
      c, [&](const double* v) { return v[0] - fa * v[1]; },
      [&](const int64_t* v) { return static_cast<int64_t>(static_cast<uint64_t>(v[0]) -
                                                          static_cast<uint64_t>(ia) * static_cast<uint64_t>(v[1])); });
}

void mul_kernel(const KernelCall& c) {
  elementwise<2>(
      c, [](const double* v) { return v[0] * v[1]; },
      [](const int64_t* v) {
        return static_cast<int64_t>(static_cast<uint64_t>(v[0]) * static_cast<uint64_t>(v[1]));
      });
}

}  // namespace

TS_REGISTER_KERNELS(reference, binary) {
  const DTypeSet all = DTypeSet::all();
  m.impl(OpId::add, kCPU, all, add_kernel);
  m.impl(OpId::sub, kCPU, all - DTypeSet{kBool}, sub_kernel);
  m.impl(OpId::mul, kCPU, all, mul_kernel);
}

}  // namespace ts::reference
