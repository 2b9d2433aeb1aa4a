// The table of conventions at non-differentiable points (touchstone/nondiff_points.def).
#include "touchstone/autograd.h"

namespace ts::autograd {

ArrayRef<NondifferentiablePoint> nondifferentiable_points() {
  static constexpr NondifferentiablePoint kPoints[] = {
#define TS_NONDIFF(op, input, point, gradient) {#op, input, point, gradient},
#include "touchstone/nondiff_points.def"
#undef TS_NONDIFF
  };
  return {kPoints, sizeof(kPoints) / sizeof(kPoints[0])};
}

}  // namespace ts::autograd
