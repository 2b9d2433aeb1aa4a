#pragma once
// The derivative table: one backward formula per differentiable OpId, registered at the end of
// each family's lib/src/ops/<family>.cpp, beside the meta that builds the call it differentiates
// (ATen's derivatives.yaml, in C++; MLX keeps a primitive's vjp beside it likewise).
//
// Note [Adding a derivative]
// 1. Open the op's family file, lib/src/ops/<family>.cpp (op_list.def groups the ops by family),
//    and add a registration inside the TS_REGISTER_DERIVATIVES block at its end, under a comment
//    quoting the op's schema from op_list.def and the formula per input, as in derivatives.yaml:
//
//      // mul.Tensor(Tensor self, Tensor other) -> Tensor
//      //   self: grad * other          other: grad * self
//      m.def(OpId::mul, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
//        return {a.needs_grad(0) ? a.grad() * a.input(1) : Tensor(),
//                a.needs_grad(1) ? a.grad() * a.input(0) : Tensor()};
//      });
//
// 2. Indices are those of the KernelCall the op's meta builds (documented at the top of
//    lib/src/ops/<family>.cpp), not of the public function: elementwise inputs arrive
//    broadcast to the output's shape (their ExpandBackward0 sums the gradient back), Scalar
//    arguments are in the op's parameter struct (a.p.get<AlphaParams>().alpha) or are
//    wrapped-number inputs, optional inputs may be undefined. Return one tensor per KernelCall
//    input (undefined where needs_grad is false or the input is not differentiable, e.g. an
//    index).
// 3. Save only what the formula reads: save_inputs({...}) and/or save_output(i). In-place
//    calls clone a saved input before the kernel overwrites it; a formula that can use the
//    result instead (exp: grad * result) should save the output. Input sizes, dtypes and
//    devices are always available (a.input_sizes(i), a.input_dtype(i), a.input_device(i)).
// 4. Write the formula in ts ops only (never data_ptr): it then runs on the active kernel set
//    and records a graph under create_graph, so gradgradcheck works. The engine casts each
//    returned gradient to its input's dtype and sums a broadcast one down to its shape.
// 5. At a non-differentiable point follow PyTorch and add a row to
//    lib/include/touchstone/nondiff_points.def.
// 6. Add gradcheck + gradgradcheck tests (tests/test_autograd_<family>.cpp). An op left
//    without a formula raises "the derivative for '<op>' is not implemented" at backward.
#include <initializer_list>
#include <vector>

#include "variable.h"

namespace ts::autograd {

using Grads = std::vector<Tensor>;

class OpNode;

// What a formula sees when its node runs.
class BackwardArgs {
 public:
  BackwardArgs(const OpNode& node, std::vector<Tensor>& grads, std::vector<Tensor> inputs,
               std::vector<Tensor> outputs);
  const OpParams& p;
  CallKind kind;
  // The gradient of forward output i (zeros if none flowed into it while others did).
  const Tensor& grad(size_t i = 0) const;
  // Saved forward input / output i (undefined unless the registration saves it).
  const Tensor& input(size_t i) const { return inputs_[i]; }
  const Tensor& output(size_t i = 0) const { return outputs_[i]; }
  IntArrayRef input_sizes(size_t i) const;
  ScalarType input_dtype(size_t i) const;
  Device input_device(size_t i) const;
  size_t num_inputs() const;
  size_t num_outputs() const { return outputs_.size(); }
  // Whether forward input i's gradient is wanted (it requires grad).
  bool needs_grad(size_t i) const;
  const char* op_name() const;

 private:
  const OpNode& node_;
  std::vector<Tensor>& grads_;
  std::vector<Tensor> inputs_, outputs_;
};

using Formula = Grads (*)(const BackwardArgs&);

// s - t, for formulas (ts has no Scalar - Tensor operator).
Tensor rsub(const Tensor& t, const Scalar& s);

// Which forward tensors a formula reads (bit i = input / output i).
struct Saves {
  uint32_t inputs = 0;
  uint32_t outputs = 0;
  constexpr Saves operator|(Saves o) const { return {inputs | o.inputs, outputs | o.outputs}; }
};
constexpr Saves save_nothing() {
  return {};
}
constexpr Saves save_inputs(std::initializer_list<int> idx) {
  Saves s;
  for (int i : idx) s.inputs |= 1u << i;
  return s;
}
constexpr Saves save_output(int i = 0) {
  return {0, 1u << i};
}

// The node's name when it depends on the overload called (Note [Overload node names]).
using NameFn = const char* (*)(const KernelCall& call);

struct Derivative {
  Saves saves;
  Formula formula = nullptr;
  const char* name = nullptr;     // the node's name; default "<Op>Backward0" from the op's name
  NameFn name_of_call = nullptr;  // else this names it from the call
};

// Whether a KernelCall input is a Scalar argument: a wrapped number, maybe broadcast.
bool is_scalar_argument(const Tensor& t);

// The node the autograd slot builds for a kernel call of a differentiable op (or for an
// in-place call of a non-differentiable one, whose result then depends on nothing).
class OpNode final : public Node {
 public:
  // `d` null: no formula is registered (backward raises); `call` gives the forward inputs.
  OpNode(const KernelCall& call, const Derivative* d);
  std::string name() const override;
  Grads apply(std::vector<Tensor>&& grads) override;
  void release_variables() override;
  // Saves the inputs the formula reads; for an in-place call, those sharing memory with the
  // output are cloned first (the kernel is about to overwrite them).
  void save_inputs(const KernelCall& call);
  void save_outputs(const KernelCall& call);
  void set_name(const char* name) { name_override_ = name; }

  OpId op_;
  CallKind kind_;
  OpParams p_;
  const Derivative* d_;
  const char* name_override_ = nullptr;
  std::vector<InputMetadata> forward_inputs_;  // sizes and dtype of each forward input
  std::vector<SavedVariable> saved_inputs_, saved_outputs_;
};

// The registered derivative of `op`, or null.
const Derivative* find_derivative(OpId op);

class DerivativeRegistrar {
 public:
  void def(OpId op, Saves saves, Formula formula, const char* name = nullptr);
  void def(OpId op, Saves saves, Formula formula, NameFn name_of_call);
};

}  // namespace ts::autograd

#define TS_REGISTER_DERIVATIVES(family)                                                 \
  static void ts_register_derivatives_##family(::ts::autograd::DerivativeRegistrar& m); \
  static const bool ts_registered_derivatives_##family = [] {                           \
    ::ts::autograd::DerivativeRegistrar m;                                              \
    ts_register_derivatives_##family(m);                                                \
    return true;                                                                        \
  }();                                                                                  \
  static void ts_register_derivatives_##family(::ts::autograd::DerivativeRegistrar& m)
