#pragma once
// The dispatcher: every op has an id, a schema, and a kernel table keyed by (device, kernel set).
// Kernel sets are names ("reference", "optimized", or any a plug-in registers); the active one
// is per thread (KernelSetGuard) with a process default from TOUCHSTONE_KERNELS.
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "touchstone/op_params.h"
#include "touchstone/tensor.h"

namespace ts {

enum class OpId : uint16_t {
#define TS_OP(name, kind, sig, params, variants, diff, dtypes, parts, schema) name,
#include "touchstone/op_list.def"
#undef TS_OP
};
inline constexpr int kNumOps = 0
#define TS_OP(name, kind, sig, params, variants, diff, dtypes, parts, schema) +1
#include "touchstone/op_list.def"
#undef TS_OP
    ;

enum class OpKind : uint8_t { Kernel, Composite };

// How meta checks, promotes and shapes a call (op_list.def's `sig` column).
enum class OpSignature : uint8_t {
  Factory,
  Copy,
  Unary,       // self -> same dtype
  UnaryFloat,  // self -> integer and bool inputs computed in the default float dtype
  UnaryBool,   // self -> bool
  Binary,      // self, other -> promoted dtype
  BinaryFloat,
  BinaryBool,
  Ternary,
  Reduction,
  Scan,
  Softmax,
  Norm,
  Loss,
  Matmul,
  Index,
  Join,
  Conv,  // convolution (issue 16): input, weight, bias? -> the input's dtype
  // normalization, embedding (issue 16); no CUDA kernels yet
  NormStats,  // batch_norm, group_norm: per-channel or per-group statistics
  Embedding,  // embedding: rows of weight gathered by indices
  Shape,  // shape ops of issue 16: flip, roll, tril, triu (kernels), trace, diag, ... (composites)
  // sorting and selection (issue 16): (values, int64 indices) along one dim
  Sort,
  // losses of issue 16 with kernels of their own (binary_cross_entropy, ctc_loss); no CUDA kernels
  LossKernel,
  // pooling (issue 16): planes (*, spatial...) -> (*, out spatial...); max ones add int64 indices
  Pool,
  EmbeddingBag,  // embedding_bag (issue 16): sums, means or maxima of bags of weight's rows
  // advanced indexing (issue 16): index lists, masks, scatter with reductions
  AdvancedIndex,
  // searchsorted, bucketize (binary searches in sorted rows) and unique's kernels (issue 16)
  Sorted,
  // interpolation (issue 16): planes (N, C, spatial...) resampled to (N, C, output_size...), or
  // sampled at a grid's points (grid_sampler)
  Interpolate,
};

// The dtype sets op_list.def's `dtypes` column names.
namespace dtypes {
inline constexpr DTypeSet all = DTypeSet::all();
inline constexpr DTypeSet floating = DTypeSet::floating();
inline constexpr DTypeSet no_bool = DTypeSet::all() - DTypeSet{kBool};
inline constexpr DTypeSet real = DTypeSet::integral(false) | DTypeSet::floating();  // no bool
inline constexpr DTypeSet integral_and_bool = DTypeSet::integral(true);
inline constexpr DTypeSet float_double = DTypeSet{kFloat, kDouble};  // grid_sampler (issue 16)
inline constexpr DTypeSet index_dtypes = DTypeSet{kInt, kLong};      // repeat_interleave's repeats
}  // namespace dtypes

struct OpInfo {
  OpId id;
  std::string_view name;
  OpKind kind;
  OpSignature sig;
  size_t params;              // the index of the op's parameter struct in ParamsVariant
  std::string_view variants;  // letters: f function, m method, i in-place, o out=
  bool differentiable;
  DTypeSet dtypes;  // the dtypes a kernel computes in (composites: see supported_dtypes)
  std::string_view schema;
};
const OpInfo& op_info(OpId op);
ArrayRef<OpInfo> all_ops();
std::optional<OpId> find_op(std::string_view name);

// How a call's result reaches memory: a fresh output, over inputs[0] (or, for copy_ and fill_,
// over self, which is then no input), or into a caller's out= tensor. Autograd and the version
// counter need to know; kernels may ignore it.
enum class CallKind : uint8_t { Functional, InPlace, Out };

// What a kernel receives: allocated outputs, checked inputs (undefined for absent optionals).
struct KernelCall {
  OpId op;
  ArrayRef<Tensor> outputs;
  ArrayRef<Tensor> inputs;
  const OpParams& p;
  CallKind kind = CallKind::Functional;

  // The op's parameters (op_list.def's `params` column), read by name.
  template <class P>
  const P& params() const {
    if (const P* x = std::get_if<P>(&p.args)) [[likely]] {
      return *x;
    }
    detail::params_mismatch(kParamsIndex<P>, p.args.index(), op_info(op).name.data());
  }
};
using KernelFn = void (*)(const KernelCall&);

using KernelSetId = int8_t;
inline constexpr int kMaxKernelSets = 16;

KernelSetId register_kernel_set(std::string_view name);  // idempotent
std::optional<KernelSetId> find_kernel_set(std::string_view name);
std::string_view kernel_set_name(KernelSetId id);
std::vector<std::string> kernel_set_names();
KernelSetId active_kernel_set();
// The process default (initially TOUCHSTONE_KERNELS, else "reference").
void set_default_kernel_set(std::string_view name);

class KernelSetGuard {
 public:
  explicit KernelSetGuard(std::string_view name);
  ~KernelSetGuard();
  KernelSetGuard(const KernelSetGuard&) = delete;
  KernelSetGuard& operator=(const KernelSetGuard&) = delete;

 private:
  KernelSetId prev_;
};

struct KernelEntry {
  KernelFn fn = nullptr;
  DTypeSet dtypes;
};
void register_kernel(KernelSetId set, OpId op, DeviceType device, DTypeSet dtypes, KernelFn fn);
KernelEntry get_kernel(OpId op, DeviceType device, KernelSetId set);
// The dtypes `set` runs `op` in on `device`: a kernel op's registered dtypes; for a composite,
// the intersection over the kernel ops it is built from (see Note [Composite parts]).
DTypeSet supported_dtypes(OpId op, DeviceType device, KernelSetId set);
// The kernel ops a composite is built from (empty for kernel ops and pure allocations).
ArrayRef<OpId> composite_parts(OpId op);

// Note [Delegation]
// A set may leave some dtypes of an op to another set explicitly: delegate_kernel(legacy, add,
// cpu, {int32, int64}, optimized). The registry records where each (op, dtype) comes from, so
// listings and conformance reports can say "delegated" instead of passing the other set's
// kernel off as the set's own. A delegated call runs the target's kernel with the target as the
// active set (ops it calls internally, and C kernels, resolve there), and is counted per thread
// (take_delegations). The target must have the kernel when delegating (its own, or delegated
// on); a set's own kernel for a dtype always wins, and impl() of a delegated dtype replaces the
// delegation.
void delegate_kernel(KernelSetId set, OpId op, DeviceType device, DTypeSet dtypes, KernelSetId to);
// The set `set` hands (op, device, dtype) to, if it delegates it (the direct target).
std::optional<KernelSetId> kernel_delegate(OpId op, DeviceType device, KernelSetId set,
                                           ScalarType dtype);
// The dtypes of supported_dtypes(op, device, set) that run in another set (for a composite: in
// another set for at least one of its parts).
DTypeSet delegated_dtypes(OpId op, DeviceType device, KernelSetId set);
// The sets this thread ran delegated kernels of since the last call (bit i: set i), then clears.
uint32_t take_delegations();

// The active set's kernel for (op, dtype, device), following delegations; throws naming all
// four when there is none.
KernelFn lookup_kernel(OpId op, ScalarType dtype, Device device);
// Note [Autograd slot]
// Meta functions never call a kernel directly: run_kernel does, so that autograd (a slot above
// every kernel set) can record a graph node around any kernel call when a tensor requires grad.
// With the slot empty, run_kernel is one predictable branch and call_kernel.
using AutogradSlot = void (*)(KernelFn fn, const KernelCall& call);
void set_autograd_slot(AutogradSlot slot);
namespace detail {
extern AutogradSlot autograd_slot;
// Runs `fn`, then bumps the version of every tensor an in-place or out= call wrote (Note
// [Version counters] in dispatch.cpp); the autograd slot runs kernels through it too.
void call_kernel(KernelFn fn, const KernelCall& call);
// Note [Foreign exceptions]
// A kernel may throw what its library throws (dnnl::error, std::out_of_range, std::bad_alloc);
// run_kernel rethrows any std::exception other than a ts::Error as a ts::Error naming the op,
// its dtype, device and the active set, with the exception's type and message, so a plug-in
// needs no try/catch of its own and a caller only ever sees ts::Error.
[[noreturn]] void kernel_threw(const KernelCall& call, const std::exception& e);
}  // namespace detail
inline void run_kernel(KernelFn fn, const KernelCall& call) {
  try {
    if (detail::autograd_slot != nullptr) [[unlikely]] {
      detail::autograd_slot(fn, call);
    } else {
      detail::call_kernel(fn, call);
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    detail::kernel_threw(call, e);
  }
}
// lookup_kernel + run_kernel: for meta functions with nothing to do between the two.
void dispatch(const KernelCall& call, Device device);

// Loads a plug-in shared library and runs its registration (see TS_PLUGIN_INIT); returns the
// names of the kernel sets it added.
std::vector<std::string> load_kernel_set(const std::string& path);

// Registration helper used by kernel files: `TS_REGISTER_KERNELS(reference, unary) { m.impl(...);
// }`
class KernelRegistrar {
 public:
  explicit KernelRegistrar(std::string_view set) : set_(register_kernel_set(set)) {}
  KernelRegistrar& impl(OpId op, DeviceType device, DTypeSet dtypes, KernelFn fn) {
    register_kernel(set_, op, device, dtypes, fn);
    return *this;
  }
  // Registers every dtype op_list.def declares for the op.
  KernelRegistrar& impl(OpId op, DeviceType device, KernelFn fn) {
    return impl(op, device, op_info(op).dtypes, fn);
  }
  // Leaves `dtypes` of the op to the set named `to` (Note [Delegation]).
  KernelRegistrar& delegate(OpId op, DeviceType device, DTypeSet dtypes, std::string_view to);
  // Leaves every dtype op_list.def declares for the op that this set does not register to `to`.
  KernelRegistrar& delegate_rest(OpId op, DeviceType device, std::string_view to);
  KernelSetId set() const { return set_; }

 private:
  KernelSetId set_;
};

}  // namespace ts

#define TS_REGISTER_KERNELS(set, family)                              \
  static void ts_register_##set##_##family(::ts::KernelRegistrar& m); \
  static const bool ts_registered_##set##_##family = [] {             \
    ::ts::KernelRegistrar m(#set);                                    \
    ts_register_##set##_##family(m);                                  \
    return true;                                                      \
  }();                                                                \
  static void ts_register_##set##_##family(::ts::KernelRegistrar& m)

// A plug-in defines its registration with TS_PLUGIN_INIT() { ts::KernelRegistrar m("name"); ... }
#define TS_PLUGIN_ABI_VERSION 1
#define TS_PLUGIN_INIT()                           \
  extern "C" int touchstone_plugin_abi_version() { \
    return TS_PLUGIN_ABI_VERSION;                  \
  }                                                \
  extern "C" void touchstone_plugin_init()
