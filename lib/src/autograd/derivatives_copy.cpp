// Derivatives of the copy family (lib/src/ops/copy.cpp). clone, contiguous and to are
// composites of copy_, so these formulas cover them too. See Note [Adding a derivative].
#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {

TS_REGISTER_DERIVATIVES(copy) {
  // copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)          KernelCall inputs: {src}
  //   self: zeros (overwritten; not an input of the call)     src: grad
  // The engine casts grad to src's dtype; src's ExpandBackward0 sums a broadcast src.
  m.def(OpId::copy_, save_nothing(), [](const BackwardArgs& a) -> Grads { return {a.grad()}; });
}

}  // namespace ts::autograd
