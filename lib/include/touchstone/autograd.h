#pragma once
// Autograd: grad mode, the graph (Node, Edge), the engine (backward, grad), gradcheck and the
// conventions at non-differentiable points. Implemented in lib/src/autograd.
//
// Note [Autograd overview]
// The autograd slot (Note [Autograd slot] in dispatch.h) wraps every kernel call. When grad
// mode is on and an input requires grad, it builds a node for the op from the derivative table
// (registered at the end of lib/src/ops/<family>.cpp), links it to the inputs' gradient edges,
// saves what the formula needs, runs the kernel and gives the outputs their history. Views record
// their own nodes (lib/src/views.cpp). Formulas are written in ts ops, so backward runs on the
// active kernel set and, with create_graph, records a graph of its own.
//
// Note [Differentiable views]
// A view made with grad mode on remembers the root of its view chain (TensorImpl::view_base).
// An in-place op on such a view rebases the root's history (a CopySlices node, as in ATen):
// the root's gradient is the incoming one with the view's part replaced by what the op's
// formula gives for the view's old value. A view whose storage changed since its grad_fn was
// set (the version counter says so) gets a fresh AsStridedBackward0 node from the root.
//
// Note [Views made in no_grad mode]
// A view made under NoGradGuard is a plain alias for autograd (no history, no requires_grad)
// but remembers its root (TensorImpl::no_grad_view_base; a view of it inherits that). An
// in-place op on it with grad mode on, while its root or another operand requires grad, is
// refused as ATen does ("A view was created in no_grad mode and is being modified inplace with
// grad mode enabled"): recorded, the root's gradient would silently ignore the op.
// Deliberate differences: ATen reports such a view as requires_grad() and is_view() (it is a
// leaf and gets no gradient either way); touchstone has no multi-output views (unbind, split)
// nor inference mode, whose sibling rules therefore do not arise.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "touchstone/dispatch.h"
#include "touchstone/tensor.h"

namespace ts {

// Grad mode is per thread and on by default.
class GradMode {
 public:
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

// Sets grad mode for a scope and restores it after.
class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) : prev_(GradMode::is_enabled()) {
    GradMode::set_enabled(enabled);
  }
  ~AutoGradMode() { GradMode::set_enabled(prev_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool prev_;
};

// No graph is recorded in its scope (as torch.no_grad()).
class NoGradGuard : public AutoGradMode {
 public:
  NoGradGuard() : AutoGradMode(false) {}
};

namespace autograd {

class Node;

// Where a gradient goes: input `input_nr` of `function` (its forward output `input_nr`).
struct Edge {
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
  bool is_valid() const { return function != nullptr; }
};

// The shape, dtype and device a gradient must have when it reaches a node.
struct InputMetadata {
  DimVector sizes;
  ScalarType dtype = ScalarType::Undefined;
  Device device = kCPU;
};

// A backward function: takes one gradient per forward output ("inputs" of the node) and
// returns one per next edge (the forward inputs).
class Node : public std::enable_shared_from_this<Node> {
 public:
  Node();
  virtual ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  virtual std::string name() const = 0;
  // `grads` has num_inputs() entries, undefined where no gradient flowed.
  virtual std::vector<Tensor> apply(std::vector<Tensor>&& grads) = 0;
  // Frees saved tensors; called after a backward pass that does not retain the graph.
  virtual void release_variables() {}

  const std::vector<Edge>& next_edges() const { return next_edges_; }
  const Edge& next_edge(size_t i) const { return next_edges_[i]; }
  size_t num_outputs() const { return next_edges_.size(); }
  void set_next_edges(std::vector<Edge> edges) { next_edges_ = std::move(edges); }
  void add_next_edge(Edge e) { next_edges_.push_back(std::move(e)); }

  size_t num_inputs() const { return input_metadata_.size(); }
  const InputMetadata& input_metadata(size_t i) const { return input_metadata_[i]; }
  // Appends the metadata of a forward output; returns its index (the output's output_nr).
  uint32_t add_input_metadata(const Tensor& t);
  // Creation order; the engine runs later nodes first when several are ready.
  uint64_t sequence_nr() const { return sequence_nr_; }

  // retain_grad(): the gradient for input `input_nr` is also stored in `*slot`.
  void add_retain_grad_hook(uint32_t input_nr, std::weak_ptr<Tensor> slot);
  void remove_retain_grad_hook(const std::shared_ptr<Tensor>& slot);
  void run_retain_grad_hooks(const std::vector<Tensor>& grads) const;

 protected:
  std::vector<Edge> next_edges_;
  std::vector<InputMetadata> input_metadata_;
  std::vector<std::pair<uint32_t, std::weak_ptr<Tensor>>> retain_grad_hooks_;
  uint64_t sequence_nr_;
};

// Computes the sum of gradients of `outputs` with respect to `inputs`; `grad_outputs` (one per
// output, or empty) defaults to ones for 1-element outputs. The graph is kept when
// retain_graph (default: create_graph); create_graph records the backward pass itself. Unless
// allow_unused, every input must be reachable; unused inputs give undefined tensors.
std::vector<Tensor> grad(TensorList outputs, TensorList inputs, TensorList grad_outputs = {},
                         std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                         bool allow_unused = false);

// Accumulates gradients of `tensors` into the .grad() of the leaves that require grad.
void backward(TensorList tensors, TensorList grad_tensors = {},
              std::optional<bool> retain_graph = std::nullopt, bool create_graph = false);

// Whether the derivative table has a formula for `op` (every differentiable kernel op should;
// composites are differentiated through the ops they call).
bool has_derivative(OpId op);

// ---- gradcheck ----

struct GradcheckOptions {
  double eps = 1e-6;   // central-difference step
  double atol = 1e-5;  // |analytical - numerical| <= atol + rtol * |numerical|
  double rtol = 1e-3;
  // Compare v^T J u for random u, v instead of the full Jacobian (PyTorch's fast_mode).
  bool fast_mode = false;
  uint64_t seed = 0;            // for fast mode's random vectors and gradgradcheck's grads
  bool raise_exception = true;  // throw a ts::Error on a mismatch instead of returning it
};

struct GradcheckResult {
  bool ok = true;
  std::string message;   // what failed: the input, output and worst element
  double max_error = 0;  // the largest |analytical - numerical| seen
};

// A function under test: tensors in, tensors out. Non-floating outputs are skipped.
using GradcheckFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

// Compares the analytical Jacobian (by autograd::grad) of fn at `inputs` with central
// differences. Inputs that require grad must be float64; they are perturbed in place.
GradcheckResult gradcheck(const GradcheckFn& fn, const std::vector<Tensor>& inputs,
                          const GradcheckOptions& options = {});

// gradcheck of the first derivative: the function (inputs, grad_outputs) -> grad(fn(inputs),
// inputs, grad_outputs, create_graph). grad_outputs default to random float64 tensors.
GradcheckResult gradgradcheck(const GradcheckFn& fn, const std::vector<Tensor>& inputs,
                              const std::vector<Tensor>& grad_outputs = {},
                              const GradcheckOptions& options = {});

// ---- conventions at non-differentiable points ----

// One row of lib/include/touchstone/nondiff_points.def: at `point`, the gradient of `op` with
// respect to `input` is `gradient` (PyTorch's choice, as its derivatives.yaml computes it).
struct NondifferentiablePoint {
  std::string_view op;
  std::string_view input;
  std::string_view point;
  std::string_view gradient;
};
ArrayRef<NondifferentiablePoint> nondifferentiable_points();

}  // namespace autograd
}  // namespace ts
