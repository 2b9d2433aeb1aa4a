// The engine: runs a backward pass over the graph (Tensor::backward, autograd::grad,
// autograd::backward).
//
// Note [Engine]
// From a GraphRoot holding the initial gradients, a walk over next_edges counts each node's
// dependencies (edges into it from nodes that will run). A node becomes ready when all of them
// have delivered, its input gradients summed in its buffer; ready nodes run latest-created
// first (sequence_nr, as ATen). Each gradient is validated against the receiving node's input
// metadata: a broadcast one is summed down to its shape, and it is cast to its dtype. For
// autograd::grad only nodes on a path to an input run, and the inputs' gradients are captured
// from the buffers of their gradient edges instead of being accumulated into grad().
#include <queue>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "touchstone/op_scope.h"
#include "touchstone/ops.h"
#include "variable.h"

namespace ts::autograd {
namespace {

bool is_expandable_to(IntArrayRef shape, IntArrayRef desired) {
  if (shape.size() > desired.size()) return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t s = shape[shape.size() - 1 - i], d = desired[desired.size() - 1 - i];
    if (s != d && s != 1) return false;
  }
  return true;
}

Tensor validate(const Node& producer, size_t index, Tensor grad, const InputMetadata& meta) {
  if (!grad.defined()) return grad;
  if (grad.sizes() != IntArrayRef(meta.sizes)) {
    TS_CHECK(is_expandable_to(meta.sizes, grad.sizes()), "Function ", producer.name(),
             " returned an invalid gradient at index ", index, " - got ", grad.sizes(),
             " but expected shape compatible with ", IntArrayRef(meta.sizes));
    grad = sum_to(grad, meta.sizes);
  }
  if (grad.dtype() != meta.dtype && meta.dtype != ScalarType::Undefined) grad = grad.to(meta.dtype);
  return grad;
}

struct GraphTask {
  bool keep_graph = false;
  bool accumulate = true;  // backward(): leaves accumulate; grad(): inputs are captured
  std::unordered_map<Node*, int> dependencies;
  std::unordered_map<Node*, std::vector<Tensor>> buffers;
  std::unordered_set<Node*> runs;  // grad(): the nodes on a path to a captured edge
  // grad(): for a node, the (input_nr, result index) pairs captured from its buffer.
  std::unordered_map<Node*, std::vector<std::pair<uint32_t, size_t>>> captures;
  std::vector<Tensor> captured;
};

// Every node reachable from `root`, each once.
std::vector<Node*> reachable(Node* root) {
  std::vector<Node*> order, stack{root};
  std::unordered_set<Node*> seen{root};
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    order.push_back(n);
    for (const Edge& e : n->next_edges()) {
      if (e.is_valid() && seen.insert(e.function.get()).second) stack.push_back(e.function.get());
    }
  }
  return order;
}

// grad(): a node runs when one of its next edges leads to a captured node or to a node that
// runs. Nodes are visited children first (an iterative post-order over the DAG).
void mark_running(GraphTask& task, Node* root) {
  std::unordered_map<Node*, bool> done;
  std::vector<std::pair<Node*, size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto& [n, i] = stack.back();
    if (i < n->num_outputs()) {
      const Edge& e = n->next_edge(i++);
      if (e.is_valid() && !done.count(e.function.get())) {
        done[e.function.get()] = false;
        stack.emplace_back(e.function.get(), 0);
      }
      continue;
    }
    bool runs = false;
    for (const Edge& e : n->next_edges()) {
      if (e.is_valid() &&
          (task.captures.count(e.function.get()) || task.runs.count(e.function.get()))) {
        runs = true;
      }
    }
    if (runs) task.runs.insert(n);
    done[n] = true;
    stack.pop_back();
  }
}

void execute(GraphTask& task, const std::shared_ptr<Node>& root) {
  const std::vector<Node*> nodes = reachable(root.get());
  if (!task.accumulate) mark_running(task, root.get());
  auto will_run = [&](Node* n) { return task.accumulate || n == root.get() || task.runs.count(n); };
  for (Node* n : nodes) {
    if (!will_run(n)) continue;
    for (const Edge& e : n->next_edges()) {
      if (e.is_valid()) ++task.dependencies[e.function.get()];
    }
  }
  auto later_first = [](const Node* a, const Node* b) {
    return a->sequence_nr() < b->sequence_nr();
  };
  std::priority_queue<Node*, std::vector<Node*>, decltype(later_first)> ready(later_first);
  ready.push(root.get());
  while (!ready.empty()) {
    Node* n = ready.top();
    ready.pop();
    std::vector<Tensor> inputs = std::move(task.buffers[n]);
    task.buffers.erase(n);
    inputs.resize(n->num_inputs());
    if (auto it = task.captures.find(n); it != task.captures.end()) {
      for (const auto& [input_nr, index] : it->second) task.captured[index] = inputs[input_nr];
    }
    if (!will_run(n)) continue;
    if (task.accumulate) n->run_retain_grad_hooks(inputs);
    std::vector<Tensor> outputs;
    bool any_defined = n == root.get();
    for (const Tensor& t : inputs) any_defined |= t.defined();
    if (any_defined) {
      outputs = n->apply(std::move(inputs));
      if (!task.keep_graph) n->release_variables();
    }
    outputs.resize(n->num_outputs());
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const Edge& e = n->next_edge(i);
      if (!e.is_valid()) continue;
      Node* next = e.function.get();
      Tensor g = validate(*n, i, std::move(outputs[i]), next->input_metadata(e.input_nr));
      std::vector<Tensor>& buf = task.buffers[next];
      if (buf.size() < next->num_inputs()) buf.resize(next->num_inputs());
      Tensor& slot = buf[e.input_nr];
      if (g.defined()) slot = slot.defined() ? slot + g : std::move(g);
      if (--task.dependencies[next] == 0) ready.push(next);
    }
  }
}

// The initial gradient of output i: as given, or ones for a 1-element output.
Tensor initial_grad(const Tensor& output, const Tensor& given, size_t i) {
  if (given.defined()) {
    TS_CHECK(given.sizes() == output.sizes(), "Mismatch in shape: grad_output[", i,
             "] has a shape of ", given.sizes(), " and output[", i, "] has a shape of ",
             output.sizes(), ".");
    return given;
  }
  TS_CHECK(output.numel() == 1,
           "grad can be implicitly created only for scalar outputs; pass a gradient for output ", i,
           " of shape ", output.sizes());
  return ones_like(output);
}

std::shared_ptr<Node> make_root(TensorList outputs, TensorList grad_outputs) {
  TS_CHECK(grad_outputs.empty() || grad_outputs.size() == outputs.size(), "grad_outputs has ",
           grad_outputs.size(), " tensors but there are ", outputs.size(), " outputs");
  std::vector<Edge> edges;
  std::vector<Tensor> grads;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    TS_CHECK(out.defined(), "element ", i, " of tensors is undefined");
    Edge e = gradient_edge(out);
    TS_CHECK(e.is_valid(), "element ", i,
             " of tensors does not require grad and does not have a grad_fn");
    grads.push_back(initial_grad(out, grad_outputs.empty() ? Tensor() : grad_outputs[i], i));
    edges.push_back(std::move(e));
  }
  return std::make_shared<GraphRoot>(std::move(edges), std::move(grads));
}

}  // namespace

void backward(TensorList tensors, TensorList grad_tensors, std::optional<bool> retain_graph,
              bool create_graph) {
  const UserOpScope scope("backward");
  std::shared_ptr<Node> root;
  {
    NoGradGuard no_grad;  // ones_like for the implicit gradient records nothing
    root = make_root(tensors, grad_tensors);
  }
  GraphTask task;
  task.keep_graph = retain_graph.value_or(create_graph);
  AutoGradMode mode(create_graph);
  execute(task, root);
}

std::vector<Tensor> grad(TensorList outputs, TensorList inputs, TensorList grad_outputs,
                         std::optional<bool> retain_graph, bool create_graph, bool allow_unused) {
  const UserOpScope scope("grad");
  std::shared_ptr<Node> root;
  GraphTask task;
  task.accumulate = false;
  task.keep_graph = retain_graph.value_or(create_graph);
  std::vector<Edge> input_edges;
  {
    NoGradGuard no_grad;
    root = make_root(outputs, grad_outputs);
  }
  task.captured.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    TS_CHECK(inputs[i].defined() && requires_grad(inputs[i]),
             "One of the differentiated Tensors does not require grad (inputs[", i, "])");
    Edge e = gradient_edge(inputs[i]);
    task.captures[e.function.get()].emplace_back(e.input_nr, i);
    input_edges.push_back(std::move(e));  // keeps a leaf's AccumulateGrad alive
  }
  {
    AutoGradMode mode(create_graph);
    execute(task, root);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    Tensor& g = task.captured[i];
    if (g.defined()) {
      // Captured at the edge, so still cast/summed to the input's metadata.
      const InputMetadata& m = input_edges[i].function->input_metadata(input_edges[i].input_nr);
      AutoGradMode mode(create_graph);
      if (g.sizes() != IntArrayRef(m.sizes)) g = sum_to(g, m.sizes);
      if (g.dtype() != m.dtype) g = g.to(m.dtype);
    }
    TS_CHECK(g.defined() || allow_unused, "One of the differentiated Tensors (inputs[", i,
             "]) appears to not have been used in the graph. Set allow_unused=true if this is the "
             "desired behavior.");
  }
  return std::move(task.captured);
}

}  // namespace ts::autograd

namespace ts {

void Tensor::backward(const Tensor& gradient, std::optional<bool> retain_graph,
                      bool create_graph) const {
  const Tensor grads[] = {gradient};
  autograd::backward(ArrayRef<Tensor>(this, 1),
                     gradient.defined() ? TensorList(grads) : TensorList(), retain_graph,
                     create_graph);
}

}  // namespace ts
