#pragma once
// Helpers shared by the aten plug-in's family files: touchstone tensors seen as at::Tensor without
// copying, dtype and Scalar conversion, writing into the given outputs, and error translation.
// Note [Light header]
// libtorch headers cost seconds per translation unit, so this header includes none: ATen types
// are only declared here, and each aten_<family>.cpp includes the per-op ATen headers it calls.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "touchstone/dispatch.h"
#include "touchstone/function_ref.h"

namespace c10 {
class Scalar;
enum class ScalarType : int8_t;
}  // namespace c10
namespace at {
class Tensor;
}  // namespace at

namespace ts::aten {

at::Tensor wrap(const Tensor& t);
// `t` seen in `dtype`: the same memory when the dtypes agree, else a converted copy. Kernels
// convert their operands to p.compute_dtype, as ATen's TensorIterator casts to the common dtype.
at::Tensor wrap_as(const Tensor& t, ScalarType dtype);
// Input i of the call in the compute dtype (undefined when the input is absent).
at::Tensor input(const KernelCall& c, size_t i);

// The dtype ATen's out= form of an elementwise op gives: bool for the UnaryBool and BinaryBool
// ops (comparisons, logical ops, isnan), else the compute dtype.
ScalarType result_dtype(const KernelCall& c);

c10::ScalarType to_aten(ScalarType t);
c10::Scalar to_aten(const Scalar& s);
// Sizes, strides or dims as the std::vector ATen's IntArrayRef arguments view.
inline std::vector<int64_t> ints(IntArrayRef v) {
  return v.vec();
}

// Note [Writing outputs]
// Kernels write into the outputs meta allocated, never reallocating them. `f` gets output i of
// the call as an at::Tensor when it has dtype `dtype` (what ATen's out= forms produce); otherwise
// a temporary of `dtype`, then copied into the output (an out= tensor of a castable dtype). A call
// that made ATen resize the output (a shape disagreement) is an error, not a silent reallocation.
void write(const KernelCall& c, ScalarType dtype, FunctionRef<void(at::Tensor&)> f,
           size_t output = 0);

// Rethrows the exception in flight as a ts::Error naming the op (c10::Error included).
[[noreturn]] void rethrow(const KernelCall& c);

// libtorch's warnings (deprecations, slow paths) are printed once per source line rather than at
// every call, so that a conformance run's output stays readable.
void install_warning_handler();

// Gives ATen touchstone's thread count (ts::get_num_threads()), so that a --threads 1 run
// compares like with like; a no-op when they already agree.
void sync_threads();

// Every kernel runs through this, so that ATen's errors reach touchstone callers as ts::Error.
template <void (*Body)(const KernelCall&)>
void guarded(const KernelCall& c) {
  try {
    sync_threads();
    Body(c);
  } catch (...) {
    rethrow(c);
  }
}

// One registration function per family file, called by TS_PLUGIN_INIT (aten_plugin.cpp).
void register_copy(KernelRegistrar& m);
void register_factory(KernelRegistrar& m);
void register_unary(KernelRegistrar& m);
void register_binary(KernelRegistrar& m);
void register_ternary(KernelRegistrar& m);
void register_reduce(KernelRegistrar& m);
void register_nn(KernelRegistrar& m);
void register_norm(KernelRegistrar& m);  // normalization, embedding (issue 16)
void register_linalg(KernelRegistrar& m);
void register_index(KernelRegistrar& m);
void register_conv(KernelRegistrar& m);   // convolution (issue 16)
void register_shape(KernelRegistrar& m);  // shape (issue 16)
// sorting and selection (issue 16)
void register_sort(KernelRegistrar& m);
void register_loss(KernelRegistrar& m);           // losses (issue 16)
void register_pool(KernelRegistrar& m);           // pooling (issue 16)
void register_interpolate(KernelRegistrar& m);    // interpolation (issue 16)
void register_embedding_bag(KernelRegistrar& m);  // embedding_bag (issue 16)
// advanced indexing (issue 16)
void register_advanced_index(KernelRegistrar& m);
// searchsorted, bucketize, unique (issue 16)
void register_sorted(KernelRegistrar& m);

// The dtype sets ATen 1.13's CPU backend covers, as the family files register them.
inline constexpr DTypeSet kAll = DTypeSet::all();
inline constexpr DTypeSet kNoBool = kAll - DTypeSet{kBool};
inline constexpr DTypeSet kNoHalf = kAll - DTypeSet{kHalf};
inline constexpr DTypeSet kFloating = DTypeSet::floating();
// No float16: most of ATen 1.13's CPU math kernels are not instantiated for it.
inline constexpr DTypeSet kFloatingNoHalf = kFloating - DTypeSet{kHalf};

}  // namespace ts::aten
