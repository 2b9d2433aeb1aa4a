// Derivatives of the copy family (lib/src/ops/copy.cpp). clone, contiguous and to are
// composites of copy_, so these formulas cover them too. See Note [Adding a derivative].
#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {

TS_REGISTER_DERIVATIVES(copy) {
  // copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)          KernelCall inputs: {src}
  //   self: zeros (overwritten; not an input of the call)     src: grad.to(src.device)
  // The engine casts grad to src's dtype; src's ExpandBackward0 sums a broadcast src. A copy
  // across devices sends grad back to src's device (as ATen's CopyBackwards).
  m.def(OpId::copy_, save_nothing(), [](const BackwardArgs& a) -> Grads {
    const Tensor& grad = a.grad();
    const Device src_device = a.input_device(0);
    if (grad.device() == src_device) return {grad};
    Tensor moved = empty_like(grad, TensorOptions(grad.dtype()).device(src_device));
    moved.copy_(grad);
    return {moved};
  });
}

}  // namespace ts::autograd
