#pragma once
// Helpers shared by the dnnl plug-in's family files: oneDNN memory descriptors over touchstone's
// sizes and strides, operands converted to a oneDNN data type, fills, and error translation.
#include <dnnl.hpp>
#include <memory>
#include <unordered_map>
#include <vector>

#include "touchstone/dispatch.h"

namespace ts::dnnl_set {

// The dtypes the set registers: oneDNN 2.6's CPU primitives compute float32 and bfloat16 (its
// float16 is reorder-only on CPU: an eltwise exp on f16 has no implementation).
inline constexpr DTypeSet kDnnlDtypes{kFloat, kBFloat16};
// The dtypes of op_list.def's for `op` that oneDNN computes.
inline DTypeSet dnnl_dtypes(OpId op) {
  return op_info(op).dtypes - (DTypeSet::all() - kDnnlDtypes);
}

dnnl::engine& engine();
dnnl::stream& stream();

// oneDNN's data type for a touchstone dtype: f32, bf16, f16, s32, s8, u8 (bool as u8, 0/1 bytes);
// undef for the others (float64, int64, int16), which oneDNN lacks.
dnnl::memory::data_type to_dnnl(ScalarType t);

// Note [Descriptors from strides]
// A tensor's memory descriptor is its sizes and strides as they are (a 0-dim tensor as {1}):
// oneDNN's plain "blocking" descriptors take any non-negative strides, zero included (an expanded
// operand), so no operand is copied for its layout. Zero strides and layouts no optimized
// implementation covers select oneDNN's reference implementation (slow, but exact).
dnnl::memory::desc desc(const Tensor& t, dnnl::memory::data_type dt);
dnnl::memory::desc desc(const Tensor& t);
// The desc viewed with `sizes` and `strides` (a reshape the caller has checked is a view).
dnnl::memory::desc desc(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                        dnnl::memory::data_type dt);
dnnl::memory memory(const dnnl::memory::desc& md, const Tensor& t);

// Note [Converted operands]
// An input whose dtype is not the one a primitive computes in (exp of an int32 tensor computes in
// float32; a float64 0-dim scalar) is converted into a contiguous buffer by a reorder; a dtype
// oneDNN has no type for (int64, float64, int16) is read element by element only for a 0-dim
// wrapped scalar, and otherwise raises naming the op and dtype (no silent fallback).
struct Operand {
  dnnl::memory mem;
  std::shared_ptr<std::vector<char>> buffer;  // owns a converted copy, if any
  dnnl::memory::desc md() const { return mem.get_desc(); }
};
// With `squeeze`, dims of stride 0 get size 1: oneDNN's binary broadcasts its second source over
// them, where an expanded operand would take the (slow) reference implementation.
Operand operand(const KernelCall& c, size_t i, dnnl::memory::data_type dt, bool squeeze = false);

// The row-major strides of `sizes`.
std::vector<int64_t> row_major(const std::vector<int64_t>& sizes);
// The strides of a plain memory descriptor.
std::vector<int64_t> strides_of(const dnnl::memory::desc& md);

// Executes a primitive and waits for it.
void execute(const dnnl::primitive& p, const std::unordered_map<int, dnnl::memory>& args);
// dst := src converted and relaid out (any dtypes and strides oneDNN has).
void reorder(const dnnl::memory& src, const dnnl::memory& dst);
// Every element of `dst` := value.
void fill(const dnnl::memory& dst, float value);

// Throws unless `t` has a oneDNN data type, naming the op and the argument.
void check_dtype(const KernelCall& c, const Tensor& t, const char* what);

void register_elementwise(KernelRegistrar& m);
void register_reduce(KernelRegistrar& m);
void register_matmul(KernelRegistrar& m);

}  // namespace ts::dnnl_set
