// The C plug-in bridge (touchstone/c_plugin.h): C kernels registered through ts_c_host, called
// through one C++ trampoline that builds the C view of each call.
#include "touchstone/c_plugin.h"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstring>
#include <string>
#include <type_traits>
#include <variant>

#include "touchstone/dispatch.h"

namespace ts::detail {
namespace {

static_assert(TS_C_BOOL == static_cast<int>(kBool) && TS_C_UINT8 == static_cast<int>(kByte) &&
                  TS_C_INT8 == static_cast<int>(kChar) && TS_C_INT16 == static_cast<int>(kShort) &&
                  TS_C_INT32 == static_cast<int>(kInt) && TS_C_INT64 == static_cast<int>(kLong) &&
                  TS_C_FLOAT16 == static_cast<int>(kHalf) &&
                  TS_C_BFLOAT16 == static_cast<int>(kBFloat16) &&
                  TS_C_FLOAT32 == static_cast<int>(kFloat) &&
                  TS_C_FLOAT64 == static_cast<int>(kDouble),
              "ts_c_dtype numbers ts::ScalarType");

// Note [C kernel table]
// A KernelFn is a bare function pointer, so every C kernel is registered as c_trampoline, which
// finds the C function by (active set, op, device): the set the dispatcher looked up is the
// active one while the kernel runs.
using CTable =
    std::array<std::array<std::array<std::atomic<ts_c_kernel_fn>, kMaxKernelSets>, kNumDeviceTypes>,
               kNumOps>;
CTable& c_table() {
  static CTable table{};
  return table;
}

ts_c_scalar c_scalar(const Scalar& s) {
  const bool integral = !is_floating_type(s.type());
  return {integral ? 1 : 0, integral ? s.to_long() : 0, s.to_double()};
}

void set_reduce(ts_c_params& c, const ReduceParams& r) {
  c.dims = r.dims.data();
  c.num_dims = static_cast<int32_t>(r.dims.size());
  c.keepdim = r.keepdim ? 1 : 0;
}

ts_c_params c_params(const OpParams& p) {
  ts_c_params c{};
  std::visit(
      [&](const auto& a) {
        using P = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<P, AlphaParams>) {
          c.alpha = c_scalar(a.alpha);
        } else if constexpr (std::is_same_v<P, AddmmParams>) {
          c.alpha = c_scalar(a.alpha);
          c.beta = c_scalar(a.beta);
        } else if constexpr (std::is_same_v<P, ValueParams>) {
          c.value = c_scalar(a.value);
          c.has_value = 1;
        } else if constexpr (std::is_same_v<P, LerpParams>) {
          if (a.weight) c.value = c_scalar(*a.weight);
          c.has_value = a.weight ? 1 : 0;
        } else if constexpr (std::is_same_v<P, DivParams>) {
          c.rounding_mode = static_cast<int32_t>(a.rounding_mode);
        } else if constexpr (std::is_same_v<P, GeluParams>) {
          c.approximate = static_cast<int32_t>(a.approximate);
        } else if constexpr (std::is_same_v<P, NanToNumParams>) {
          c.nan = a.nan;
          c.posinf = a.posinf;
          c.neginf = a.neginf;
        } else if constexpr (std::is_same_v<P, ClampParams>) {
          c.has_min = a.has_min ? 1 : 0;
          c.has_max = a.has_max ? 1 : 0;
        } else if constexpr (std::is_base_of_v<ReduceParams, P>) {
          set_reduce(c, a);
          if constexpr (std::is_same_v<P, VarParams>) c.correction = a.correction;
          if constexpr (std::is_same_v<P, NormParams>) c.p = a.p;
        } else if constexpr (std::is_same_v<P, LayerNormParams>) {
          c.dims = a.dims.data();
          c.num_dims = static_cast<int32_t>(a.dims.size());
          c.eps = a.eps;
        } else if constexpr (std::is_same_v<P, DimParams>) {
          c.dim = a.dim;
        } else if constexpr (std::is_base_of_v<LossParams, P>) {
          c.reduction = static_cast<int64_t>(a.reduction);
          if constexpr (std::is_same_v<P, NllLossParams>) {
            c.ignore_index = a.ignore_index;
            c.class_dim = a.class_dim;
          }
        }
      },
      p.args);
  return c;
}

ts_c_tensor c_tensor(const Tensor& t) {
  if (!t.defined()) return {nullptr, -1, -1, nullptr, nullptr};
  return {t.data_ptr(), static_cast<int32_t>(t.dtype()), static_cast<int32_t>(t.dim()),
          t.sizes().data(), t.strides().data()};
}

void c_trampoline(const KernelCall& call) {
  const Tensor& first = call.outputs.empty() ? call.inputs[0] : call.outputs[0];
  const KernelSetId set = active_kernel_set();
  const ts_c_kernel_fn fn =
      c_table()[static_cast<int>(call.op)][static_cast<int>(first.device().type())][set].load();
  SmallVector<ts_c_tensor, 4> outputs, inputs;
  for (const Tensor& t : call.outputs) outputs.push_back(c_tensor(t));
  for (const Tensor& t : call.inputs) inputs.push_back(c_tensor(t));
  const ts_c_params params = c_params(call.p);
  const std::string op(op_info(call.op).name);
  const ts_c_kernel_call c{op.c_str(),
                           static_cast<int32_t>(call.p.compute_dtype),
                           static_cast<int32_t>(call.kind),
                           static_cast<int32_t>(outputs.size()),
                           static_cast<int32_t>(inputs.size()),
                           outputs.data(),
                           inputs.data(),
                           &params};
  char error[512] = {};
  if (fn(&c, error, sizeof(error)) != 0) {
    TS_ERROR(op, ": kernel set '", kernel_set_name(set),
             "' (C plug-in) failed: ", error[0] != 0 ? error : "no message");
  }
}

// The first registration error of the plug-in being loaded (one load at a time: dlopen order).
thread_local std::string registration_error;

// A registration's ts::Error as the C interface reports it: kept for the load, copied to error.
int registration_failed(const std::string& message, char* error, size_t error_size) {
  if (registration_error.empty()) registration_error = message;
  if (error != nullptr && error_size > 0) {
    std::strncpy(error, message.c_str(), error_size - 1);
    error[error_size - 1] = '\0';
  }
  return 1;
}

DeviceType c_device(const char* what, const char* device) {
  const std::string_view dev = device != nullptr ? device : "";
  TS_CHECK(dev == "cpu" || dev == "cuda", what, ": unknown device '", dev, "' (cpu or cuda)");
  return dev == "cpu" ? kCPU : kCUDA;
}

// Whether ts_c_params carries the op's parameters: not a factory's, nor the activations' Scalars,
// sorting's SortParams, ctc_loss's lengths, pooling's PoolParams, AdaptivePoolParams,
// EmbeddingBagParams, advanced indexing's IndexPutParams and ScatterParams, the searches' and
// unique's SearchParams and UniqueParams, or interpolation's UpsampleParams (issue 16), which a
// C kernel would otherwise read as zeros.
bool c_readable_params(const OpInfo& info) {
  if (info.sig == OpSignature::Factory) return info.params == 0;
  for (size_t p :
       {kParamsIndex<LeakyReluParams>, kParamsIndex<EluParams>, kParamsIndex<SoftplusParams>,
        kParamsIndex<HardtanhParams>, kParamsIndex<ThresholdParams>, kParamsIndex<SortParams>,
        kParamsIndex<CtcLossParams>, kParamsIndex<PoolParams>, kParamsIndex<AdaptivePoolParams>,
        kParamsIndex<EmbeddingBagParams>, kParamsIndex<IndexPutParams>, kParamsIndex<ScatterParams>,
        kParamsIndex<SearchParams>, kParamsIndex<UniqueParams>, kParamsIndex<UpsampleParams>}) {
    if (info.params == p) return false;
  }
  return true;
}

int c_register_kernel(const char* set, const char* op, const char* device, uint32_t dtypes,
                      ts_c_kernel_fn fn, char* error, size_t error_size) {
  try {
    const std::optional<OpId> id = find_op(op != nullptr ? op : "");
    TS_CHECK(id.has_value(), "register_kernel: unknown op '", op != nullptr ? op : "", "'");
    TS_CHECK(c_readable_params(op_info(*id)), "register_kernel: ", op,
             " takes parameters C plug-ins cannot read");
    TS_CHECK(fn != nullptr, "register_kernel: ", op, ": null kernel");
    const DeviceType type = c_device("register_kernel", device);
    const KernelSetId s = register_kernel_set(set != nullptr ? set : "");
    register_kernel(s, *id, type, DTypeSet::from_bits(dtypes & DTypeSet::all().bits()),
                    c_trampoline);
    c_table()[static_cast<int>(*id)][static_cast<int>(type)][s].store(fn);
    return 0;
  } catch (const Error& e) {
    return registration_failed(e.what(), error, error_size);
  }
}

int c_delegate_kernel(const char* set, const char* op, const char* device, uint32_t dtypes,
                      const char* to, char* error, size_t error_size) {
  try {
    const std::optional<OpId> id = find_op(op != nullptr ? op : "");
    TS_CHECK(id.has_value(), "delegate_kernel: unknown op '", op != nullptr ? op : "", "'");
    KernelRegistrar m(set != nullptr ? set : "");
    m.delegate(*id, c_device("delegate_kernel", device),
               DTypeSet::from_bits(dtypes & DTypeSet::all().bits()), to != nullptr ? to : "");
    return 0;
  } catch (const Error& e) {
    return registration_failed(e.what(), error, error_size);
  }
}

}  // namespace

bool load_c_plugin(void* handle, const std::string& path) {
  using AbiFn = int (*)();
  using InitFn = void (*)(const ts_c_host*);
  auto abi = reinterpret_cast<AbiFn>(dlsym(handle, "touchstone_c_plugin_abi_version"));
  auto init = reinterpret_cast<InitFn>(dlsym(handle, "touchstone_c_plugin_init"));
  if (abi == nullptr || init == nullptr) return false;
  // ABI 2 only appended a field to ts_c_host, so version-1 plug-ins load as they are.
  TS_CHECK(abi() == TS_C_PLUGIN_ABI_VERSION || abi() == 1, "load_kernel_set: '", path,
           "' was built for C plug-in ABI ", abi(), " but this touchstone has C ABI ",
           TS_C_PLUGIN_ABI_VERSION, " (and loads 1)");
  static const ts_c_host host{TS_C_PLUGIN_ABI_VERSION, c_register_kernel, c_delegate_kernel};
  registration_error.clear();
  init(&host);
  TS_CHECK(registration_error.empty(), "load_kernel_set: '", path, "': ", registration_error);
  return true;
}

}  // namespace ts::detail
