// Per-tensor autograd state: grad mode, metadata, gradient edges and history, the Tensor
// autograd methods, and saved variables.
#include "variable.h"

#include <algorithm>
#include <atomic>
#include <sstream>

#include "touchstone/ops.h"

namespace ts {

namespace autograd::detail {
thread_local bool grad_mode_enabled = true;
}

bool GradMode::is_enabled() {
  return autograd::detail::grad_mode_enabled;
}
void GradMode::set_enabled(bool enabled) {
  autograd::detail::grad_mode_enabled = enabled;
}

namespace autograd {

namespace {
std::atomic<uint64_t> next_sequence_nr{0};
}

Node::Node() : sequence_nr_(next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}
Node::~Node() = default;

uint32_t Node::add_input_metadata(const Tensor& t) {
  input_metadata_.push_back(InputMetadata{DimVector(t.sizes()), t.dtype(), t.device()});
  return static_cast<uint32_t>(input_metadata_.size() - 1);
}

void Node::add_retain_grad_hook(uint32_t input_nr, std::weak_ptr<Tensor> slot) {
  retain_grad_hooks_.emplace_back(input_nr, std::move(slot));
}

void Node::remove_retain_grad_hook(const std::shared_ptr<Tensor>& slot) {
  std::erase_if(retain_grad_hooks_, [&](const auto& h) { return h.second.lock() == slot; });
}

void Node::run_retain_grad_hooks(const std::vector<Tensor>& grads) const {
  for (const auto& [nr, weak] : retain_grad_hooks_) {
    std::shared_ptr<Tensor> slot = weak.lock();
    if (!slot || nr >= grads.size() || !grads[nr].defined()) continue;
    // A fresh tensor: the engine may still add into the buffer it came from.
    *slot = slot->defined() ? *slot + grads[nr] : grads[nr].clone();
  }
}

AutogradMeta& materialize_meta(TensorImpl* impl) {
  if (impl->autograd_meta() == nullptr) impl->set_autograd_meta(std::make_unique<AutogradMeta>());
  return *get_meta(impl);
}

bool requires_grad(const TensorImpl* impl) {
  if (const AutogradMeta* m = get_meta(impl); m && (m->requires_grad_ || m->grad_fn_)) return true;
  if (const TensorImpl* base = impl->view_base()) {
    const AutogradMeta* bm = get_meta(base);
    return bm && (bm->requires_grad_ || bm->grad_fn_);
  }
  return false;
}

bool is_leaf_requiring_grad(const TensorImpl* impl) {
  const AutogradMeta* m = get_meta(impl);
  if (m == nullptr || !m->requires_grad_ || m->grad_fn_) return false;
  // A view whose root requires grad gets a grad_fn when next asked (Note [View regeneration]):
  // it is no leaf, whether or not anyone has asked yet.
  const TensorImpl* base = impl->view_base();
  return base == nullptr || !requires_grad(base);
}

// Note [View regeneration]
// A view's grad_fn is only valid while its storage has the version it was recorded at: an
// in-place op on the view, its root or a sibling changes what the view holds, and the root's
// history has been rebased (CopySlices) or replaced. The view then gets AsStridedBackward0 from
// the root's current history, as ATen does.
std::shared_ptr<Node> grad_fn_of(const Tensor& t) {
  TensorImpl* impl = t.impl();
  AutogradMeta* m = get_meta(impl);
  TensorImpl* base = impl->view_base();
  if (base != nullptr && requires_grad(base)) {
    const uint32_t version = t._version();
    if (m == nullptr || !m->grad_fn_ || m->attr_version_ != version) {
      const Tensor root(impl->view_base_ptr());
      const TensorGeometry base_geo(root), view_geo(t);
      auto node = std::make_shared<ViewBackward>(
          "AsStridedBackward0", [base_geo, view_geo](const Tensor& g) {
            return as_strided_backward(g, base_geo, view_geo);
          });
      node->add_next_edge(gradient_edge(root));
      node->add_input_metadata(t);
      m = &materialize_meta(impl);
      set_history(t, node, 0);
      m->attr_version_ = version;
    }
  }
  return m ? m->grad_fn_ : nullptr;
}

std::shared_ptr<Node> grad_accumulator(const Tensor& t) {
  AutogradMeta& m = materialize_meta(t.impl());
  const std::lock_guard<std::mutex> lock(m.mutex_);
  if (auto acc = m.grad_accumulator_.lock()) return acc;
  auto acc = std::make_shared<AccumulateGrad>(t);
  m.grad_accumulator_ = acc;
  return acc;
}

Edge gradient_edge(const Tensor& t) {
  if (std::shared_ptr<Node> fn = grad_fn_of(t))
    return Edge{std::move(fn), get_meta(t.impl())->output_nr_};
  if (is_leaf_requiring_grad(t.impl())) return Edge{grad_accumulator(t), 0};
  return Edge{};
}

void set_history(const Tensor& t, const std::shared_ptr<Node>& fn, uint32_t output_nr) {
  AutogradMeta& m = materialize_meta(t.impl());
  if (m.retained_grad_) {
    if (m.grad_fn_) m.grad_fn_->remove_retain_grad_hook(m.retained_grad_);
    if (fn) fn->add_retain_grad_hook(output_nr, m.retained_grad_);
  }
  m.grad_fn_ = fn;
  m.output_nr_ = output_nr;
  m.attr_version_ = t._version();
}

Tensor alias_of(const Tensor& t) {
  return Tensor(intrusive_ptr<TensorImpl>::make(t.storage(), t.dtype(), t.sizes(), t.strides(),
                                                t.storage_offset()));
}

// ---- saved variables ----

SavedVariable::SavedVariable(const Tensor& t, bool is_output, uint32_t output_nr)
    : output_nr_(output_nr), is_output_(is_output), was_defined_(t.defined()) {
  if (!t.defined()) return;
  // Note [Saved inputs without history]
  // A saved input is kept as an alias of its data (same storage, same version counter) plus
  // the grad_fn it had when saved. Saved itself, a later in-place op on it (or on a view of
  // it) that gives it a history through this node's output would close a cycle: input ->
  // CopySlices/AddcmulBackward -> ... -> this node -> input. The version check still sees the
  // write. A leaf that requires grad is kept the same way (Note [Saved leaves]).
  saved_version_ = t._version();
  if (is_output || !requires_grad(t.impl())) {
    data_ = alias_of(t);
    // A Scalar argument stays one: formulas promote as the forward did and read it as a number.
    data_.impl()->set_wrapped_number(t.impl()->is_wrapped_number());
  } else if (std::shared_ptr<Node> fn = t.grad_fn()) {
    data_ = alias_of(t);
    grad_fn_ = std::move(fn);
    output_nr_ = t.output_nr();
  } else {
    // Note [Saved leaves]
    // Kept itself, a leaf view would own its root, and an in-place op on the root whose history
    // reaches this node (x.add_(leaf * leaf)) would close a cycle. The node keeps an alias and the
    // leaf's AccumulateGrad (which holds the leaf weakly), so gradients still reach grad().
    data_ = alias_of(t);
    grad_accumulator_ = grad_accumulator(t);
  }
}

void SavedVariable::reset_data() {
  data_ = Tensor();
  grad_fn_.reset();
  grad_accumulator_.reset();
  released_ = true;
}

Tensor SavedVariable::unpack(const std::shared_ptr<Node>& owner) const {
  if (!was_defined_) return Tensor();
  TS_CHECK(!released_,
           "Trying to backward through the graph a second time (or directly access saved tensors "
           "after they have already been freed). Saved intermediate values of the graph are freed "
           "when you call .backward() or autograd::grad(). Specify retain_graph=true if you need "
           "to backward through the graph a second time or if you need to access saved tensors "
           "after calling backward.");
  const uint32_t current = data_._version();
  if (current != saved_version_) {
    std::shared_ptr<Node> fn = is_output_ ? owner : nullptr;
    uint32_t nr = output_nr_;
    if (grad_fn_) fn = grad_fn_;
    if (!is_output_ && !grad_fn_) {
      if (const AutogradMeta* m = get_meta(data_.impl())) {
        fn = m->grad_fn_;
        nr = m->output_nr_;
      }
    }
    std::ostringstream msg;
    msg << "one of the variables needed for gradient computation has been modified by an "
           "inplace operation: ["
        << data_.dtype() << " " << data_.sizes() << "]";
    if (fn) msg << ", which is output " << nr << " of " << fn->name() << ",";
    msg << " is at version " << current << "; expected version " << saved_version_
        << " instead. Hint: the tensor was changed in place after the forward pass saved it for "
           "backward; modify a clone() of it instead.";
    TS_ERROR(msg.str());
  }
  if (!GradMode::is_enabled() || (!is_output_ && !grad_fn_ && !grad_accumulator_)) return data_;
  // In grad mode (create_graph) the tensor needs its history back: a fresh alias of it.
  Tensor out = alias_of(data_);
  set_history(out, is_output_ ? owner : grad_fn_ ? grad_fn_ : grad_accumulator_, output_nr_);
  return out;
}

void throw_not_implemented(std::string_view op, std::string_view input) {
  TS_ERROR("the derivative for '", op, "' with respect to '", input, "' is not implemented.");
}

// ---- engine-side nodes ----

AutogradMeta::~AutogradMeta() {
  if (auto acc = grad_accumulator_.lock()) static_cast<AccumulateGrad&>(*acc).forget_variable();
}

AccumulateGrad::AccumulateGrad(const Tensor& variable) : variable_(variable.impl()) {
  add_input_metadata(variable);
  sequence_nr_ = UINT64_MAX;  // run as soon as ready, as in ATen
}

namespace {

// Note [Gradient layout contract]
// As ATen's AccumulateGrad: a leaf's new grad() has the leaf's strides when the leaf is
// non-overlapping and dense, else contiguous ones, so grad().view(...) works wherever the leaf's
// does (a contiguous leaf used through .t() gets a contiguous grad, not the transposed incoming
// one). An incoming gradient already laid out so (strides of size-1 dims aside, but never 0) is
// kept without a copy; an existing grad() keeps whatever layout it has.
bool obeys_layout_contract(const Tensor& grad, const TensorImpl& variable) {
  const IntArrayRef sizes = variable.sizes(), strides = variable.strides();
  if (!variable.is_contiguous() && !is_non_overlapping_and_dense(sizes, strides)) {
    return grad.is_contiguous();
  }
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (grad.sizes()[d] != 1 ? grad.strides()[d] != strides[d] : grad.strides()[d] == 0) {
      return false;
    }
  }
  return true;
}

// A copy of `grad` laid out by the contract (recorded as a copy_ in grad mode).
Tensor clone_obey_contract(const Tensor& grad, const TensorImpl& variable) {
  const IntArrayRef sizes = variable.sizes(), strides = variable.strides();
  if (variable.is_contiguous() || is_non_overlapping_and_dense(sizes, strides)) {
    return empty_strided(sizes, strides, grad.options()).copy_(grad);
  }
  return empty(sizes, grad.options()).copy_(grad);
}

}  // namespace

// Note [Gradient accumulation]
// Without create_graph the first gradient is kept as is when nothing else holds it and it obeys
// Note [Gradient layout contract] (else a copy that does) and later ones are added in place; with
// create_graph grad() = grad() + new keeps the history, so a second backward can differentiate
// through the first.
std::vector<Tensor> AccumulateGrad::apply(std::vector<Tensor>&& grads) {
  Tensor g = std::move(grads[0]);
  if (!g.defined()) return {};
  const std::lock_guard<std::mutex> lock(mutex_);
  if (variable_ == nullptr) return {};
  AutogradMeta& m = materialize_meta(variable_);
  if (!m.grad_.defined()) {
    // Nothing else may see g's memory (not even a view of it): later gradients go into it.
    const bool steal = !GradMode::is_enabled() && g.use_count() == 1 &&
                       g.storage().use_count() == 1 && obeys_layout_contract(g, *variable_);
    m.grad_ = steal ? g : clone_obey_contract(g, *variable_);
  } else if (GradMode::is_enabled()) {
    m.grad_ = m.grad_ + g;
  } else {
    m.grad_.add_(g);
  }
  return {};
}

GraphRoot::GraphRoot(std::vector<Edge> edges, std::vector<Tensor> grads)
    : grads_(std::move(grads)) {
  next_edges_ = std::move(edges);
}

std::vector<Tensor> GraphRoot::apply(std::vector<Tensor>&& /*grads*/) {
  return grads_;
}

std::vector<Tensor> ViewBackward::apply(std::vector<Tensor>&& grads) {
  if (!grads[0].defined()) return {Tensor()};
  return {fn_(grads[0])};
}

}  // namespace autograd

// ---- Tensor methods ----

using autograd::AutogradMeta;
using autograd::get_meta;

bool Tensor::requires_grad() const {
  return autograd::requires_grad(*this);
}

const Tensor& Tensor::requires_grad_(bool requires_grad) const {
  TS_CHECK(defined(), "requires_grad_: tensor is undefined");
  if (!requires_grad && !is_leaf()) {
    TS_ERROR(
        "requires_grad_: you can only change requires_grad flags of leaf variables. If you want "
        "to use a computed variable in a subgraph that doesn't require differentiation use "
        "var_no_grad = var.detach().");
  }
  TS_CHECK(!requires_grad || is_floating_point(),
           "requires_grad_: only Tensors of floating point dtype can require gradients (got ",
           dtype(), ")");
  if (!requires_grad && impl()->autograd_meta() == nullptr) return *this;
  autograd::materialize_meta(impl()).requires_grad_ = requires_grad;
  return *this;
}

const Tensor& Tensor::grad() const {
  static const Tensor undefined;
  const AutogradMeta* m = get_meta(impl());
  if (m == nullptr) return undefined;
  if (m->retained_grad_) return *m->retained_grad_;
  return m->grad_;
}

Tensor& Tensor::mutable_grad() const {
  AutogradMeta& m = autograd::materialize_meta(impl());
  if (m.retained_grad_) return *m.retained_grad_;
  return m.grad_;
}

std::shared_ptr<autograd::Node> Tensor::grad_fn() const {
  return autograd::grad_fn_of(*this);
}

bool Tensor::is_leaf() const {
  return grad_fn() == nullptr;
}

uint32_t Tensor::output_nr() const {
  (void)grad_fn();  // a stale view gets its node first
  const AutogradMeta* m = get_meta(impl());
  return m ? m->output_nr_ : 0;
}

Tensor Tensor::detach() const {
  TS_CHECK(defined(), "detach: tensor is undefined");
  return autograd::alias_of(*this);
}

const Tensor& Tensor::detach_() const {
  TS_CHECK(!is_view(), "detach_: Can't detach views in-place. Use detach() instead.");
  if (AutogradMeta* m = get_meta(impl())) {
    if (m->retained_grad_ && m->grad_fn_) m->grad_fn_->remove_retain_grad_hook(m->retained_grad_);
    m->grad_fn_.reset();
    m->requires_grad_ = false;
    m->output_nr_ = 0;
  }
  return *this;
}

void Tensor::retain_grad() const {
  TS_CHECK(requires_grad(),
           "retain_grad: can't retain_grad on Tensor that has requires_grad=False");
  if (is_leaf()) return;  // leaves keep their grad anyway
  AutogradMeta& m = autograd::materialize_meta(impl());
  if (m.retained_grad_) return;
  m.retained_grad_ = std::make_shared<Tensor>();
  m.grad_fn_->add_retain_grad_hook(m.output_nr_, m.retained_grad_);
}

bool Tensor::retains_grad() const {
  const AutogradMeta* m = get_meta(impl());
  return m != nullptr && m->retained_grad_ != nullptr;
}

bool Tensor::is_view() const {
  return impl_->view_base() != nullptr;
}

Tensor Tensor::_base() const {
  return is_view() ? Tensor(impl()->view_base_ptr()) : Tensor();
}

}  // namespace ts
