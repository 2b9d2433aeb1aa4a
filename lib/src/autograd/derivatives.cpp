// The derivative table and the node that runs its formulas (OpNode).
#include "derivatives.h"

#include <array>
#include <cctype>

#include "touchstone/ops.h"
#include "touchstone/promotion.h"

namespace ts::autograd {
namespace {

struct Table {
  std::array<Derivative, kNumOps> entries{};
  std::array<bool, kNumOps> registered{};
};

Table& table() {
  static Table t;
  return t;
}

// "log_softmax" -> "LogSoftmaxBackward0", "fill_" -> "FillBackward0", "log1p" ->
// "Log1PBackward0": ATen's node names title-case each part, so a letter after a digit is upper.
std::string backward_name(std::string_view op) {
  std::string out;
  bool upper = true;
  for (char c : op) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = std::isdigit(static_cast<unsigned char>(c)) != 0;
  }
  return out + "Backward0";
}

}  // namespace

namespace {

void register_derivative(OpId op, const Derivative& d) {
  TS_INTERNAL_ASSERT(op_info(op).differentiable, "derivative registered for ", op_info(op).name,
                     ", which op_list.def marks non-differentiable");
  TS_INTERNAL_ASSERT(!table().registered[static_cast<size_t>(op)], "two derivatives for ",
                     op_info(op).name);
  table().entries[static_cast<size_t>(op)] = d;
  table().registered[static_cast<size_t>(op)] = true;
}

}  // namespace

void DerivativeRegistrar::def(OpId op, Saves saves, Formula formula, const char* name) {
  register_derivative(op, Derivative{saves, formula, name});
}

void DerivativeRegistrar::def(OpId op, Saves saves, Formula formula, NameFn name_of_call) {
  register_derivative(op, Derivative{saves, formula, nullptr, name_of_call});
}

bool is_scalar_argument(const Tensor& t) {
  return is_wrapped_number_or_view(t);
}

const Derivative* find_derivative(OpId op) {
  const size_t i = static_cast<size_t>(op);
  return table().registered[i] ? &table().entries[i] : nullptr;
}

Tensor rsub(const Tensor& t, const Scalar& s) {
  return neg(t) + s;
}

bool has_derivative(OpId op) {
  return find_derivative(op) != nullptr;
}

// ---- BackwardArgs ----

BackwardArgs::BackwardArgs(const OpNode& node, std::vector<Tensor>& grads,
                           std::vector<Tensor> inputs, std::vector<Tensor> outputs)
    : p(node.p_),
      kind(node.kind_),
      node_(node),
      grads_(grads),
      inputs_(std::move(inputs)),
      outputs_(std::move(outputs)) {}

const Tensor& BackwardArgs::grad(size_t i) const {
  if (!grads_[i].defined()) {
    const InputMetadata& m = node_.input_metadata(i);
    grads_[i] = zeros(m.sizes, TensorOptions(m.dtype).device(m.device));
  }
  return grads_[i];
}

IntArrayRef BackwardArgs::input_sizes(size_t i) const {
  return node_.forward_inputs_[i].sizes;
}
ScalarType BackwardArgs::input_dtype(size_t i) const {
  return node_.forward_inputs_[i].dtype;
}
Device BackwardArgs::input_device(size_t i) const {
  return node_.forward_inputs_[i].device;
}
size_t BackwardArgs::num_inputs() const {
  return node_.forward_inputs_.size();
}
bool BackwardArgs::needs_grad(size_t i) const {
  return i < node_.num_outputs() && node_.next_edge(i).is_valid();
}
const char* BackwardArgs::op_name() const {
  return op_info(node_.op_).name.data();
}

// ---- OpNode ----

OpNode::OpNode(const KernelCall& call, const Derivative* d)
    : op_(call.op), kind_(call.kind), p_(call.p), d_(d) {
  if (d != nullptr && d->name_of_call != nullptr) name_override_ = d->name_of_call(call);
  forward_inputs_.reserve(call.inputs.size());
  input_metadata_.reserve(call.outputs.size());
  for (const Tensor& t : call.inputs) {
    forward_inputs_.push_back(
        t.defined() ? InputMetadata{DimVector(t.sizes()), t.dtype(), t.device()} : InputMetadata{});
  }
}

std::string OpNode::name() const {
  if (name_override_ != nullptr) return name_override_;
  if (d_ != nullptr && d_->name != nullptr) return d_->name;
  return backward_name(op_info(op_).name);
}

void OpNode::save_inputs(const KernelCall& call) {
  if (d_ == nullptr || d_->saves.inputs == 0) return;
  saved_inputs_.resize(call.inputs.size());
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    if ((d_->saves.inputs >> i & 1u) == 0 || !call.inputs[i].defined()) continue;
    Tensor t = call.inputs[i];
    // A broadcast Scalar argument: keep the 0-dim wrapped number, so formulas promote as the
    // forward did.
    if (is_scalar_argument(t) && !t.impl()->is_wrapped_number()) {
      t = Tensor(t.impl()->view_base_ptr());
    }
    bool aliases_output = false;
    if (kind_ == CallKind::InPlace) {
      for (const Tensor& o : call.outputs) aliases_output |= o.storage().get() == t.storage().get();
    }
    saved_inputs_[i] = SavedVariable(aliases_output ? t.clone() : t, /*is_output=*/false);
  }
}

void OpNode::save_outputs(const KernelCall& call) {
  if (d_ == nullptr || d_->saves.outputs == 0) return;
  saved_outputs_.resize(call.outputs.size());
  for (size_t i = 0; i < call.outputs.size(); ++i) {
    if ((d_->saves.outputs >> i & 1u) == 0) continue;
    saved_outputs_[i] =
        SavedVariable(call.outputs[i], /*is_output=*/true, static_cast<uint32_t>(i));
  }
}

void OpNode::release_variables() {
  for (SavedVariable& v : saved_inputs_) v.reset_data();
  for (SavedVariable& v : saved_outputs_) v.reset_data();
}

Grads OpNode::apply(std::vector<Tensor>&& grads) {
  if (d_ == nullptr) {
    TS_ERROR("the derivative for '", op_info(op_).name,
             "' is not implemented (see Note [Adding a derivative] in "
             "lib/src/autograd/derivatives.h)");
  }
  Grads result;
  if (d_->formula != nullptr) {
    // Every saved tensor is unpacked (and version-checked) up front, as in ATen.
    const std::shared_ptr<Node> self = shared_from_this();
    std::vector<Tensor> inputs(forward_inputs_.size()), outputs(num_inputs());
    for (size_t i = 0; i < saved_inputs_.size(); ++i) inputs[i] = saved_inputs_[i].unpack(self);
    for (size_t i = 0; i < saved_outputs_.size(); ++i) outputs[i] = saved_outputs_[i].unpack(self);
    BackwardArgs args(*this, grads, std::move(inputs), std::move(outputs));
    result = d_->formula(args);
  }
  result.resize(num_outputs());
  for (size_t i = 0; i < result.size(); ++i) {
    if (!next_edges_[i].is_valid()) result[i] = Tensor();
  }
  return result;
}

}  // namespace ts::autograd
