// aten kernel for convolution (lib/src/ops/conv.cpp, whose Params block gives the inputs and
// struct): at::convolution, ATen's own kernel op under conv1d/2d/3d and conv_transpose1d/2d/3d.
#include <ATen/core/Tensor.h>
#include <ATen/ops/convolution.h>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

template <OpId op>
void conv_kernel(const KernelCall& c) {
  if constexpr (op == OpId::convolution) {
    // ATen 1.13 has no out= form of convolution, so the result is copied into the output.
    const ConvParams& p = c.params<ConvParams>();
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::convolution(input(c, 0), input(c, 1), input(c, 2), ints(p.stride),
                                ints(p.padding), ints(p.dilation), p.transposed,
                                ints(p.output_padding), p.groups));
    });
  } else {
    static_assert(kMissingKernel<op>, "a convolution op without its aten kernel");
  }
}

}  // namespace

// ATen 1.13's CPU convolution has no float16 kernel ("slow_conv2d_cpu" not implemented for
// 'Half'); current PyTorch has one.
void register_conv(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Conv>(
      [&](auto op) { m.impl(op, kCPU, kFloatingNoHalf, guarded<conv_kernel<op>>); });
}

}  // namespace ts::aten
