// The autograd slot: wraps every kernel call (Note [Autograd slot] in dispatch.h) and records
// graph nodes when a tensor that requires grad takes part; kernels run through
// ts::detail::call_kernel, which bumps versions (Note [Version counters]). Installed when
// libtouchstone loads.
#include <string_view>

#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {

namespace detail {
extern thread_local bool grad_mode_enabled;
}

namespace {

// Note [CopySlices]
// An in-place op `fn` on a view changes part of the view's root. The root's new history is
// this node: its gradient for the root's old value is the incoming gradient with the view's
// part replaced by what fn gives for the view's old value (zero when fn overwrote it, as
// copy_ and fill_ do); fn's other inputs get fn's gradients. As ATen's CopySlices.
class CopySlices final : public Node {
 public:
  CopySlices(const Tensor& root, const Tensor& view, std::shared_ptr<Node> fn, int self_index)
      : base_(root), view_(view), fn_(std::move(fn)), self_index_(self_index) {
    add_next_edge(gradient_edge(root));
    for (size_t i = 0; i < fn_->num_outputs(); ++i) {
      if (static_cast<int>(i) != self_index_) add_next_edge(fn_->next_edge(i));
    }
    add_input_metadata(root);
  }
  std::string name() const override { return "CopySlices"; }
  void release_variables() override { fn_->release_variables(); }

  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override {
    const Tensor& grad = grads[0];
    Tensor result = empty_strided(base_.sizes, base_.strides,
                                  TensorOptions(grad.dtype()).device(grad.device()));
    result.copy_(grad);
    const Tensor slice = result.as_strided(view_.sizes, view_.strides, view_.offset - base_.offset);
    std::vector<Tensor> res = fn_->apply({slice.clone()});
    if (self_index_ >= 0 && res[static_cast<size_t>(self_index_)].defined()) {
      slice.copy_(res[static_cast<size_t>(self_index_)]);
    } else {
      slice.zero_();
    }
    std::vector<Tensor> out{result};
    for (size_t i = 0; i < res.size(); ++i) {
      if (static_cast<int>(i) != self_index_) out.push_back(std::move(res[i]));
    }
    return out;
  }

 private:
  TensorGeometry base_, view_;
  std::shared_ptr<Node> fn_;
  int self_index_;
};

bool any_requires_grad(TensorList tensors) {
  for (const Tensor& t : tensors) {
    if (t.defined() && requires_grad(t.impl())) return true;
  }
  return false;
}

// The cheap filter: a tensor autograd never touched has neither metadata nor a view root.
bool may_require_grad(TensorList tensors) {
  for (const Tensor& t : tensors) {
    const TensorImpl* impl = t.impl();
    if (impl != nullptr && (impl->autograd_meta() != nullptr || impl->view_base() != nullptr ||
                            impl->no_grad_view_base() != nullptr)) {
      return true;
    }
  }
  return false;
}

// A call autograd has seen and records nothing for: its kernel runs with grad mode off, so ops
// the kernel calls internally (an optimized kernel's out.copy_(result)) are not checked or
// recorded as the user's in-place calls (as ATen's AutoDispatchBelowAutograd).
void run_below_autograd(KernelFn fn, const KernelCall& call) {
  NoGradGuard no_grad;
  ts::detail::call_kernel(fn, call);
}

// The errors name the in-place method the user called (add_, copy_), as meta::op_name does.
void check_inplace(const OpInfo& info, const KernelCall& call, const Tensor& self) {
  const std::string_view name = info.name;
  const char* suffix = name.ends_with('_') ? "" : "_";
  // Note [Views made in no_grad mode] in autograd.h.
  if (const TensorImpl* root = self.impl()->no_grad_view_base()) {
    TS_CHECK(!requires_grad(root) && !any_requires_grad(call.inputs), name, suffix,
             ": a view was created in no_grad mode and is being modified inplace with grad mode "
             "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. "
             "You can clarify your code by moving both the view and the inplace either both "
             "inside the no_grad block (if you don't want the inplace to be tracked) or both "
             "outside (if you want the inplace to be tracked).");
  }
  if (const TensorImpl* base = self.impl()->view_base()) {
    TS_CHECK(!is_leaf_requiring_grad(base), name, suffix,
             ": a view of a leaf Variable that requires grad is being used in an in-place "
             "operation (argument 'self').");
  }
  TS_CHECK(!is_leaf_requiring_grad(self.impl()), name, suffix,
           ": a leaf Variable that requires grad is being used in an in-place operation "
           "(argument 'self').");
}

// The derivative of a non-differentiable op written in place over a tensor that requires
// grad: the result depends on nothing differentiable (ATen gives zeros; here, nothing flows).
const Derivative kNothingFlows{};

void record(KernelFn fn, const KernelCall& call) {
  const OpInfo& info = op_info(call.op);
  if (call.kind == CallKind::Out) {
    if (info.differentiable &&
        (any_requires_grad(call.inputs) || any_requires_grad(call.outputs))) {
      // meta::check_out_no_grad refuses this before the output is resized; kept as a backstop.
      TS_ERROR(info.name,
               ": functions with out=... arguments don't support automatic differentiation, "
               "but one of the arguments requires grad.");
    }
    return run_below_autograd(fn, call);
  }
  const bool inplace = call.kind == CallKind::InPlace;
  if (!inplace && !info.differentiable) return run_below_autograd(fn, call);
  const Tensor* self = inplace ? &call.outputs[0] : nullptr;
  if (inplace) check_inplace(info, call, *self);

  // Outputs that can carry history (floating); without one there is nothing to record.
  bool any_floating_output = false;
  for (const Tensor& o : call.outputs) any_floating_output |= is_floating_type(o.dtype());
  auto differentiable = [&](const Tensor& t) {
    return info.differentiable && t.defined() && is_floating_type(t.dtype()) &&
           requires_grad(t.impl());
  };
  bool any_edge = false;
  for (const Tensor& t : call.inputs) any_edge |= differentiable(t);
  const bool self_requires_grad = inplace && requires_grad(self->impl());
  // Grad mode stays as the caller set it here: a differentiable op with nothing to record runs
  // in the forward pass with grad mode on and in the engine's backward with it off.
  if (!any_floating_output || (!any_edge && !self_requires_grad)) {
    return ts::detail::call_kernel(fn, call);
  }
  std::vector<Edge> edges(call.inputs.size());
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    if (differentiable(call.inputs[i])) edges[i] = gradient_edge(call.inputs[i]);
  }
  // Note [copy_ overwrites self]
  // As ATen's CopyBackwards (edges self, src): the overwritten self's history gets a zero
  // gradient, the extra edge 1 (copy_'s formula). A view self is CopySlices' (zeroes its part).
  if (inplace && call.op == OpId::copy_ && self->impl()->view_base() == nullptr &&
      requires_grad(self->impl())) {
    edges.push_back(gradient_edge(*self));
  }

  const Derivative* d = info.differentiable ? find_derivative(call.op) : &kNothingFlows;
  auto node = std::make_shared<OpNode>(call, d);
  if (call.op == OpId::copy_ && !inplace) {
    node->set_name(call.inputs[0].dtype() == call.outputs[0].dtype() ? "CloneBackward0"
                                                                     : "ToCopyBackward0");
  } else if (call.op == OpId::copy_) {
    node->set_name("CopyBackwards");
  }
  node->set_next_edges(std::move(edges));  // all invalid for a non-differentiable op
  node->save_inputs(call);
  // Grad mode off: a kernel that calls ops records nothing. The versions call_kernel bumps are
  // those the outputs are saved with below.
  {
    NoGradGuard no_grad;
    ts::detail::call_kernel(fn, call);
  }
  for (const Tensor& o : call.outputs) node->add_input_metadata(o);

  if (inplace && self->impl()->view_base() != nullptr) {
    // See Note [CopySlices]; the view gets its node back from the root when next used.
    int self_index = -1;
    for (size_t i = 0; i < call.inputs.size() && self_index < 0; ++i) {
      if (call.inputs[i].impl() == self->impl()) self_index = static_cast<int>(i);
    }
    const Tensor root(self->impl()->view_base_ptr());
    set_history(root, std::make_shared<CopySlices>(root, *self, node, self_index), 0);
    set_history(*self, nullptr, 0);
  } else {
    for (size_t j = 0; j < call.outputs.size(); ++j) {
      if (is_floating_type(call.outputs[j].dtype())) {
        set_history(call.outputs[j], node, static_cast<uint32_t>(j));
      }
    }
  }
  node->save_outputs(call);
}

// Note [Autograd fast path]
// With grad mode off, or no operand autograd ever touched, a call costs a thread-local read,
// a loop over the operands' two pointers and, for in-place and out= calls, a version bump: no
// allocation and no lock.
void autograd_slot(KernelFn fn, const KernelCall& call) {
  if (!detail::grad_mode_enabled ||
      !(may_require_grad(call.inputs) ||
        (call.kind != CallKind::Functional && may_require_grad(call.outputs)))) {
    return ts::detail::call_kernel(fn, call);
  }
  record(fn, call);
}

const bool installed = [] {
  set_autograd_slot(&autograd_slot);
  return true;
}();

}  // namespace
}  // namespace ts::autograd
