#pragma once
// Layout fuzzing: the same sample in other memory layouts, and out= tensors in several layouts.
#include <string>
#include <vector>

#include "touchstone/tensor.h"

namespace ts::conformance {

struct LayoutVariant {
  std::string name;
  std::vector<Tensor> inputs;
  // False when the layout changes the values (expanded): the reference then reruns on them.
  bool same_values = true;
};

// Note [Layout variants]
// contiguous; transposed (first and last dims swapped, dim >= 2); permuted (dims reversed,
// dim >= 3); sliced_step2 (every other element of a last dim twice as long); offset (3 elements
// into a larger storage); expanded (stride 0: the first dim of size > 1 made from the slice 2/3
// along it; a reduction's samples pass their reduced dims, and the first of those of size > 1 is
// expanded instead, so that kept dims still vary and the outputs are not constant). Every
// transform but expanded applies to each input it fits; expanded applies to the first input it
// fits only, so that the other inputs still vary the output (two stride-0 operands of a binary op
// make it constant: a case that proves little). A variant that changes no input is left out.
// In-place cases write into the first input in each of these layouts (relayout).
std::vector<LayoutVariant> input_layouts(const std::vector<Tensor>& inputs,
                                         const std::vector<int64_t>& reduced_dims = {});

// One transform, for the tests; `t` unchanged when it does not fit.
Tensor transposed(const Tensor& t);
Tensor permuted(const Tensor& t);
Tensor sliced_step2(const Tensor& t);
Tensor offset(const Tensor& t);
Tensor expanded(const Tensor& t, const std::vector<int64_t>& reduced_dims = {});

// A fresh tensor with t's values in the memory layout of variant `layout` (a name from
// input_layouts; "expanded" keeps the slice 2/3 along t's expanded dim): in-place cases write into
// it.
Tensor relayout(const std::string& layout, const Tensor& t,
                const std::vector<int64_t>& reduced_dims = {});

struct OutLayout {
  std::string name;
  std::vector<Tensor> outs;
};

// out= tensors for results shaped like `like`: out_resized (empty, resized by the op),
// out_transposed (right shape, transposed strides) and out_offset (inside a larger storage).
std::vector<OutLayout> out_layouts(const std::vector<Tensor>& like);

// Every layout name a case can have: the input layouts, then the out= layouts (--case checks).
const std::vector<std::string>& layout_names();

}  // namespace ts::conformance
