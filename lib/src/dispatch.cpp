// The dispatcher: op table, kernel table, kernel sets, plug-in loading.
#include "touchstone/dispatch.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <mutex>

#include "touchstone/kernel_recorder.h"

namespace ts {
namespace {

constexpr OpInfo kOps[] = {
#define TS_OP(name, kind, sig, params, variants, diff, dt, parts, schema)                   \
  {OpId::name, #name,      OpKind::kind, OpSignature::sig, kParamsIndex<params>, #variants, \
   diff,       dtypes::dt, schema},
#include "touchstone/op_list.def"
#undef TS_OP
};
static_assert(sizeof(kOps) / sizeof(kOps[0]) == kNumOps, "op table out of step with OpId");

// Note [Kernel table]
// A flat array indexed by (op, device, set): the hot path is three array indexings and a
// thread-local read, with no string look-ups and no locks. Registration happens at load time
// (static initializers, plug-in init) under a mutex. A plug-in may register while other threads
// look up (its set's name is visible before its kernels), so an entry is two atomics: the
// dtypes stored before the kernel (release), read after it (acquire); on x86 both are plain
// loads.
struct Slot {
  std::atomic<KernelFn> fn{nullptr};
  std::atomic<uint32_t> dtypes{0};
  KernelEntry load() const {
    KernelFn f = fn.load(std::memory_order_acquire);
    return {f, DTypeSet::from_bits(dtypes.load(std::memory_order_relaxed))};
  }
};

struct Registry {
  std::array<std::array<std::array<Slot, kMaxKernelSets>, kNumDeviceTypes>, kNumOps> table{};
  std::vector<std::string> set_names;
  std::mutex mutex;
  // Never reallocated, so the views kernel_set_name() returns stay valid.
  Registry() { set_names.reserve(kMaxKernelSets); }
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: plug-ins may outlive static teardown
  return *r;
}

// Atomic: set_default_kernel_set may run while threads without a guard dispatch.
std::atomic<KernelSetId>& default_set() {
  static std::atomic<KernelSetId> id = [] {
    const char* env = std::getenv("TOUCHSTONE_KERNELS");
    const std::string name = env && *env ? env : "reference";
    auto found = find_kernel_set(name);
    TS_CHECK(found.has_value(), "TOUCHSTONE_KERNELS names unknown kernel set '", name, "'");
    return *found;
  }();
  return id;
}

thread_local KernelSetId tls_set = -1;
// Beside tls_set: lookup_kernel reads both through one thread-local base (Note [Kernel recorder]).
thread_local KernelRecorder* tls_recorder = nullptr;

// The id of the set named `name`, if registered; the caller holds r.mutex.
std::optional<KernelSetId> find_set_locked(const Registry& r, std::string_view name) {
  for (size_t i = 0; i < r.set_names.size(); ++i) {
    if (r.set_names[i] == name) return static_cast<KernelSetId>(i);
  }
  return std::nullopt;
}

}  // namespace

const OpInfo& op_info(OpId op) {
  return kOps[static_cast<int>(op)];
}
ArrayRef<OpInfo> all_ops() {
  return {kOps, static_cast<size_t>(kNumOps)};
}

std::optional<OpId> find_op(std::string_view name) {
  for (const OpInfo& o : kOps) {
    if (o.name == name) return o.id;
  }
  return std::nullopt;
}

KernelSetId register_kernel_set(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (const auto found = find_set_locked(r, name)) return *found;
  TS_CHECK(r.set_names.size() < kMaxKernelSets, "register_kernel_set: more than ", kMaxKernelSets,
           " kernel sets");
  TS_CHECK(!name.empty(), "register_kernel_set: empty name");
  r.set_names.emplace_back(name);
  return static_cast<KernelSetId>(r.set_names.size() - 1);
}

std::optional<KernelSetId> find_kernel_set(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return find_set_locked(r, name);
}

std::string_view kernel_set_name(KernelSetId id) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  TS_CHECK(id >= 0 && static_cast<size_t>(id) < r.set_names.size(), "unknown kernel set id ",
           static_cast<int>(id));
  return r.set_names[id];
}

std::vector<std::string> kernel_set_names() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.set_names;
}

KernelSetId active_kernel_set() {
  return tls_set >= 0 ? tls_set : default_set().load(std::memory_order_relaxed);
}

void set_default_kernel_set(std::string_view name) {
  auto id = find_kernel_set(name);
  TS_CHECK(id.has_value(), "set_default_kernel_set: unknown kernel set '", name, "'");
  default_set().store(*id, std::memory_order_relaxed);
}

KernelSetGuard::KernelSetGuard(std::string_view name) : prev_(tls_set) {
  auto id = find_kernel_set(name);
  TS_CHECK(id.has_value(), "KernelSetGuard: unknown kernel set '", name, "'");
  tls_set = *id;
}

KernelSetGuard::~KernelSetGuard() {
  tls_set = prev_;
}

void register_kernel(KernelSetId set, OpId op, DeviceType device, DTypeSet dtypes, KernelFn fn) {
  Registry& r = registry();
  TS_CHECK(op_info(op).kind == OpKind::Kernel, "register_kernel: ", op_info(op).name,
           " is a composite op and takes no kernels");
  std::lock_guard<std::mutex> lock(r.mutex);
  TS_CHECK(set >= 0 && static_cast<size_t>(set) < r.set_names.size(),
           "register_kernel: unknown kernel set id ", static_cast<int>(set));
  Slot& slot = r.table[static_cast<int>(op)][static_cast<int>(device)][set];
  slot.dtypes.store(dtypes.bits(), std::memory_order_relaxed);
  slot.fn.store(fn, std::memory_order_release);
}

KernelEntry get_kernel(OpId op, DeviceType device, KernelSetId set) {
  TS_CHECK(set >= 0 && set < kMaxKernelSets, "get_kernel: unknown kernel set id ",
           static_cast<int>(set));
  return registry().table[static_cast<int>(op)][static_cast<int>(device)][set].load();
}

// Note [Composite parts]
// A composite has no kernels of its own; it runs wherever the kernel ops it calls run. This
// table names those ops so `touchstone ops` and the harnesses can say which dtypes a set covers.
ArrayRef<OpId> composite_parts(OpId op) {
  using enum OpId;
  switch (op) {
#define TS_OP(name, kind, sig, params, variants, diff, dtypes, parts, schema) \
  case OpId::name: {                                                          \
    static constexpr std::initializer_list<OpId> list = {TS_UNPAREN parts};   \
    return ArrayRef<OpId>(list.begin(), list.size());                         \
  }
#define TS_UNPAREN(...) __VA_ARGS__
#include "touchstone/op_list.def"
#undef TS_UNPAREN
#undef TS_OP
  }
  return {};
}

DTypeSet supported_dtypes(OpId op, DeviceType device, KernelSetId set) {
  if (op_info(op).kind == OpKind::Kernel) return get_kernel(op, device, set).dtypes;
  DTypeSet s = DTypeSet::all();
  for (OpId part : composite_parts(op)) {
    s = DTypeSet::from_bits(s.bits() & supported_dtypes(part, device, set).bits());
  }
  return s;
}

KernelFn lookup_kernel(OpId op, ScalarType dtype, Device device) {
  const KernelSetId set = active_kernel_set();
  const KernelEntry e =
      registry().table[static_cast<int>(op)][static_cast<int>(device.type())][set].load();
  if (e.fn == nullptr || !e.dtypes.has(dtype)) [[unlikely]] {
    TS_ERROR(op_info(op).name, ": kernel set '", kernel_set_name(set), "' has no kernel for dtype ",
             dtype, " on device ", device_type_name(device.type()),
             e.fn == nullptr ? " (the op has no kernel there at all)" : "");
  }
  if (KernelRecorder* r = tls_recorder) [[unlikely]] {
    r->add({op, dtype, set});
  }
  return e.fn;
}

KernelRecorder*& detail::active_kernel_recorder() {
  return tls_recorder;
}

KernelRecorder::KernelRecorder() : prev_(detail::active_kernel_recorder()) {
  detail::active_kernel_recorder() = this;
}

KernelRecorder::~KernelRecorder() {
  detail::active_kernel_recorder() = prev_;
}

void KernelRecorder::add(const KernelRecord& r) {
  if (std::find(records_.begin(), records_.end(), r) == records_.end()) records_.push_back(r);
}

const char* params_name(size_t index) {
  static constexpr const char* kNames[] = {"NoParams"
#define TS_PARAMS_NAME(P) , #P
                                           TS_FOR_EACH_OP_PARAMS(TS_PARAMS_NAME)
#undef TS_PARAMS_NAME
  };
  static_assert(std::size(kNames) == std::variant_size_v<ParamsVariant>);
  return index < std::size(kNames) ? kNames[index] : "?";
}

void detail::params_mismatch(size_t wanted, size_t held, const char* op) {
  TS_ERROR(op ? op : "kernel", ": internal error: the kernel read ", params_name(wanted),
           " but the call carries ", params_name(held),
           " (op_list.def names each op's parameter struct)");
}

AutogradSlot detail::autograd_slot = nullptr;

void set_autograd_slot(AutogradSlot slot) {
  detail::autograd_slot = slot;
}

// Note [Version counters]
// A tensor's version (Tensor::_version, shared through its storage by views and detach()) counts
// the writes to it: every in-place or out= kernel call bumps the counter of each tensor it
// wrote, here in the core, whether autograd is loaded or not; functional calls write fresh
// tensors and bump nothing. Autograd only reads versions: a tensor saved for backward whose
// version moved was modified in place, and backward refuses it.
void detail::call_kernel(KernelFn fn, const KernelCall& call) {
  // A meta function fills the struct op_list.def names; a kernel reads it without checking.
  const size_t declared = op_info(call.op).params;
  if (call.p.args.index() != declared) [[unlikely]] {
    TS_ERROR(op_info(call.op).name, ": internal error: the call carries ",
             params_name(call.p.args.index()), " but op_list.def declares ", params_name(declared));
  }
  fn(call);
  if (call.kind == CallKind::Functional) return;
  for (const Tensor& o : call.outputs) {
    if (o.defined()) o.storage()->bump_version();
  }
}

void detail::kernel_out_of_memory(const KernelCall& call) {
  TS_ERROR(op_info(call.op).name, ": out of memory (std::bad_alloc) in the ",
           kernel_set_name(active_kernel_set()), " kernel for ", dtype_name(call.p.compute_dtype));
}

void dispatch(const KernelCall& call, Device device) {
  run_kernel(lookup_kernel(call.op, call.p.compute_dtype, device), call);
}

namespace detail {
// Registers the C plug-in `handle` if it is one (lib/src/c_plugin.cpp); false if it is not.
bool load_c_plugin(void* handle, const std::string& path);
}  // namespace detail

std::vector<std::string> load_kernel_set(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  TS_CHECK(handle != nullptr, "load_kernel_set: cannot load '", path, "': ", dlerror());
  const std::vector<std::string> before = kernel_set_names();
  if (!detail::load_c_plugin(handle, path)) {  // a C plug-in: touchstone/c_plugin.h
    using AbiFn = int (*)();
    using InitFn = void (*)();
    auto abi = reinterpret_cast<AbiFn>(dlsym(handle, "touchstone_plugin_abi_version"));
    auto init = reinterpret_cast<InitFn>(dlsym(handle, "touchstone_plugin_init"));
    TS_CHECK(abi != nullptr && init != nullptr, "load_kernel_set: '", path,
             "' is not a touchstone plug-in (no TS_PLUGIN_INIT entry points)");
    TS_CHECK(abi() == TS_PLUGIN_ABI_VERSION, "load_kernel_set: '", path,
             "' was built for plug-in ABI ", abi(), " but this touchstone has ABI ",
             TS_PLUGIN_ABI_VERSION);
    init();
  }
  const std::vector<std::string> after = kernel_set_names();
  return {after.begin() + static_cast<std::ptrdiff_t>(before.size()), after.end()};
}

}  // namespace ts
