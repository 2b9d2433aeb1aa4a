#pragma once
// Autograd internals shared by lib/src/autograd: per-tensor metadata, gradient edges,
// history, saved variables and the nodes the engine itself needs.
#include <memory>
#include <mutex>
#include <vector>

#include "touchstone/autograd.h"
#include "touchstone/dispatch.h"

namespace ts::autograd {

// Note [Shared leaves]
// Threads may share a leaf that requires grad (model weights), as in PyTorch: their forward
// passes fetch its one AccumulateGrad (made lazily, under the meta's mutex) and their backward
// passes add into its grad() (under the node's mutex). Two mutexes, as in ATen, so that an op
// on the leaf inside AccumulateGrad::apply (create_graph) can still fetch the node.
// What autograd keeps per tensor (TensorImpl::autograd_meta).
struct AutogradMeta final : AutogradMetaInterface {
  Tensor grad_;                            // leaves: the accumulated gradient
  std::shared_ptr<Node> grad_fn_;          // non-leaves: the node that made this tensor
  std::mutex mutex_;                       // guards grad_accumulator_ (Note [Shared leaves])
  std::weak_ptr<Node> grad_accumulator_;   // leaves that require grad: their AccumulateGrad
  std::shared_ptr<Tensor> retained_grad_;  // retain_grad() on a non-leaf: shared with a hook
  uint32_t output_nr_ = 0;                 // which output of grad_fn_ this tensor is
  uint32_t attr_version_ = 0;              // views: the version when grad_fn_ was set
  bool requires_grad_ = false;             // leaves only; non-leaves require grad via grad_fn_
  ~AutogradMeta() override;                // tells its AccumulateGrad the leaf is gone
};

inline AutogradMeta* get_meta(const TensorImpl* impl) {
  return static_cast<AutogradMeta*>(impl->autograd_meta());
}
AutogradMeta& materialize_meta(TensorImpl* impl);

// Whether `impl` requires grad: a leaf flag, a grad_fn, or a view root that requires grad.
bool requires_grad(const TensorImpl* impl);
inline bool requires_grad(const Tensor& t) {
  return t.defined() && requires_grad(t.impl());
}
// A leaf that requires grad (no history of its own, nor through a view root).
bool is_leaf_requiring_grad(const TensorImpl* impl);

// The node that made `t` (regenerating a stale view's node first; see Note [Differentiable
// views] in touchstone/autograd.h), or null.
std::shared_ptr<Node> grad_fn_of(const Tensor& t);
// Where t's gradient goes: grad_fn_of(t), or the AccumulateGrad of a leaf that requires grad.
Edge gradient_edge(const Tensor& t);
std::shared_ptr<Node> grad_accumulator(const Tensor& t);

// Makes `fn` (at output `output_nr`) the history of `t`; moves retain_grad hooks along.
void set_history(const Tensor& t, const std::shared_ptr<Node>& fn, uint32_t output_nr);

// A view of `base` with `t`'s geometry, aliasing its storage, without autograd metadata.
Tensor alias_of(const Tensor& t);

// The geometry a node needs to rebuild a tensor or a view of it.
struct TensorGeometry {
  DimVector sizes;
  DimVector strides;
  int64_t offset = 0;
  ScalarType dtype = ScalarType::Undefined;
  Device device = kCPU;
  explicit TensorGeometry(const Tensor& t)
      : sizes(t.sizes()),
        strides(t.strides()),
        offset(t.storage_offset()),
        dtype(t.dtype()),
        device(t.device()) {}
};

// Note [Saved variables]
// A node keeps the tensors its formula needs as SavedVariables, with the storage's version at
// save time: unpacking after an in-place change fails with PyTorch's message. A saved output
// is kept as a detached alias (holding the output itself would make a reference cycle through
// its grad_fn) and gets the node back as grad_fn when unpacked in grad mode.
class SavedVariable {
 public:
  SavedVariable() = default;
  SavedVariable(const Tensor& t, bool is_output, uint32_t output_nr = 0);
  // `owner` is the node unpacking (the grad_fn of a saved output).
  Tensor unpack(const std::shared_ptr<Node>& owner) const;
  void reset_data();
  bool was_defined() const { return was_defined_; }

 private:
  Tensor data_;
  std::shared_ptr<Node> grad_fn_;           // a saved input's history when it was saved (non-leaf)
  std::shared_ptr<Node> grad_accumulator_;  // a saved leaf's sink (Note [Saved leaves])
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool was_defined_ = false;
  bool released_ = false;
};

// The error a formula raises when asked for a gradient nobody has written.
[[noreturn]] void throw_not_implemented(std::string_view op, std::string_view input);

// Gradient sink of a leaf: adds each gradient into the leaf's grad().
// Note [AccumulateGrad holds its leaf weakly]
// The graph must not own the leaf: a leaf can be a view (t(x).requires_grad_()) whose root gets
// a CopySlices history that reaches this node, and leaf -> root -> CopySlices -> ... ->
// AccumulateGrad -> leaf would be a cycle that is never freed. The node keeps the leaf's
// TensorImpl unowned; the leaf's AutogradMeta clears it when the leaf dies (then gradients
// have nowhere to go and are dropped).
class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(const Tensor& variable);
  std::string name() const override { return "AccumulateGrad"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;
  void forget_variable() {
    const std::lock_guard<std::mutex> lock(mutex_);
    variable_ = nullptr;
  }

 private:
  TensorImpl* variable_;  // null once the leaf is gone; guarded by mutex_
  std::mutex mutex_;      // serializes updates of the leaf's grad() (Note [Shared leaves])
};

// The root of a backward pass: hands out the initial gradients.
class GraphRoot final : public Node {
 public:
  GraphRoot(std::vector<Edge> edges, std::vector<Tensor> grads);
  std::string name() const override { return "GraphRoot"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;

 private:
  std::vector<Tensor> grads_;
};

// Backward of a view: `fn` maps the view's gradient to its input's.
using ViewBackwardFn = std::function<Tensor(const Tensor& grad)>;
class ViewBackward final : public Node {
 public:
  ViewBackward(const char* name, ViewBackwardFn fn) : name_(name), fn_(std::move(fn)) {}
  std::string name() const override { return name_; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;

 private:
  const char* name_;
  ViewBackwardFn fn_;
};

// The gradient of `input` for `grad` of its view with geometry `view` (as_strided's backward,
// correct for overlapping views too). Geometries are in elements of the shared storage.
Tensor as_strided_backward(Tensor grad, const TensorGeometry& input, const TensorGeometry& view);

// Sums `grad` down to `shape` (the backward of broadcasting).
Tensor sum_to(const Tensor& grad, IntArrayRef shape);

}  // namespace ts::autograd
