#pragma once
// What lib/src/views.cpp needs from autograd: each view op records its backward node here
// (see Note [Differentiable views] in touchstone/autograd.h).
#include <functional>

#include "touchstone/tensor.h"

namespace ts::autograd {

// Whether a view of `self` needs a node: grad mode is on and self requires grad.
bool view_needs_history(const Tensor& self);
// Gives `view` (just made from `self`) a node named `name` whose backward is `fn`.
void set_view_history(const Tensor& self, const Tensor& view, const char* name,
                      std::function<Tensor(const Tensor& grad)> fn);
// as_strided's backward for `view` of `self`, holding only their geometries (see Note
// [as_strided backward]).
std::function<Tensor(const Tensor& grad)> as_strided_backward_fn(const Tensor& self,
                                                                 const Tensor& view);
Tensor sum_to(const Tensor& grad, IntArrayRef shape);
// Contiguous `self`'s storage with `shape`, whose node is `name`, and no autograd view of self
// (Note [Unsafe views] in views.cpp): matmul's _unsafe_view and squeeze_, reshape's copy.
Tensor view_named(const Tensor& self, IntArrayRef shape, const char* name);

}  // namespace ts::autograd
