// The dispatcher: op table, kernel table, kernel sets, plug-in loading.
#include "touchstone/dispatch.h"

#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <typeinfo>
#include <utility>

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
  // Note [Delegation]: the dtypes handed to another set, and the set per dtype (stored before
  // the bit, release; read after it, acquire).
  std::atomic<uint32_t> delegated{0};
  std::array<std::atomic<KernelSetId>, kNumScalarTypes> delegate_to{};
  KernelEntry load() const {
    KernelFn f = fn.load(std::memory_order_acquire);
    return {f, DTypeSet::from_bits(dtypes.load(std::memory_order_relaxed))};
  }
  std::optional<KernelSetId> target(ScalarType dtype) const {
    if (!DTypeSet::from_bits(delegated.load(std::memory_order_acquire)).has(dtype)) return {};
    return delegate_to[static_cast<int>(dtype)].load(std::memory_order_relaxed);
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
thread_local uint32_t tls_delegations = 0;  // take_delegations()
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

namespace {

Slot& slot_of(OpId op, DeviceType device, KernelSetId set) {
  return registry().table[static_cast<int>(op)][static_cast<int>(device)][set];
}

// The set whose own kernel runs (op, device, dtype) for `set`, following delegations; none when
// the chain ends without one (at most kMaxKernelSets hops, so a cycle ends too).
std::optional<KernelSetId> resolve(OpId op, DeviceType device, KernelSetId set, ScalarType dtype) {
  for (int hop = 0; hop < kMaxKernelSets; ++hop) {
    const Slot& slot = slot_of(op, device, set);
    const KernelEntry e = slot.load();
    if (e.fn != nullptr && e.dtypes.has(dtype)) return set;
    const std::optional<KernelSetId> next = slot.target(dtype);
    if (!next) return {};
    set = *next;
  }
  return {};
}

// A delegated call runs under its target set S (Note [Delegation]): one trampoline per set id,
// which finds S's own kernel for the call's op, device and compute dtype.
template <int S>
void delegated_call(const KernelCall& call) {
  const Tensor& first = call.outputs.empty() ? call.inputs[0] : call.outputs[0];
  const KernelFn fn = slot_of(call.op, first.device().type(), S).load().fn;
  tls_delegations |= 1u << S;
  struct ActiveSet {  // KernelSetGuard by id, without the name look-up
    KernelSetId prev = std::exchange(tls_set, static_cast<KernelSetId>(S));
    ~ActiveSet() { tls_set = prev; }
  } active;
  fn(call);
}
template <int... S>
constexpr std::array<KernelFn, sizeof...(S)> make_trampolines(std::integer_sequence<int, S...>) {
  return {&delegated_call<S>...};
}
constexpr auto kTrampolines = make_trampolines(std::make_integer_sequence<int, kMaxKernelSets>{});

}  // namespace

void register_kernel(KernelSetId set, OpId op, DeviceType device, DTypeSet dtypes, KernelFn fn) {
  Registry& r = registry();
  TS_CHECK(op_info(op).kind == OpKind::Kernel, "register_kernel: ", op_info(op).name,
           " is a composite op and takes no kernels");
  std::lock_guard<std::mutex> lock(r.mutex);
  TS_CHECK(set >= 0 && static_cast<size_t>(set) < r.set_names.size(),
           "register_kernel: unknown kernel set id ", static_cast<int>(set));
  Slot& slot = slot_of(op, device, set);
  // The set's own kernel replaces any delegation of the same dtypes.
  slot.delegated.fetch_and(~dtypes.bits(), std::memory_order_relaxed);
  slot.dtypes.store(dtypes.bits(), std::memory_order_relaxed);
  slot.fn.store(fn, std::memory_order_release);
}

void delegate_kernel(KernelSetId set, OpId op, DeviceType device, DTypeSet dtypes, KernelSetId to) {
  Registry& r = registry();
  const std::string_view name = op_info(op).name;
  TS_CHECK(op_info(op).kind == OpKind::Kernel, name,
           ": is a composite op and takes no kernels, so there is nothing to delegate");
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto known = [&](KernelSetId s) {
    return s >= 0 && static_cast<size_t>(s) < r.set_names.size();
  };
  TS_CHECK(known(set) && known(to), name, ": delegate: unknown kernel set id ",
           static_cast<int>(known(set) ? to : set));
  const std::string& from_name = r.set_names[set];
  const std::string& to_name = r.set_names[to];
  Slot& slot = slot_of(op, device, set);
  const DTypeSet own = slot.load().fn != nullptr ? slot.load().dtypes : DTypeSet{};
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto dt = static_cast<ScalarType>(i);
    if (!dtypes.has(dt)) continue;
    const auto where = [&] {
      return std::string(" (op ") + std::string(name) + ", dtype " + std::string(dtype_name(dt)) +
             ", device " + std::string(device_type_name(device)) + ", from '" + from_name +
             "' to '" + to_name + "')";
    };
    TS_CHECK(op_info(op).dtypes.has(dt), name, ": kernel set '", from_name, "' cannot delegate ",
             dt, ": the op has no such dtype", where());
    TS_CHECK(!own.has(dt), name, ": kernel set '", from_name, "' registers ", dt,
             " itself, so it cannot delegate it to '", to_name, "'", where());
    const std::optional<KernelSetId> runs = resolve(op, device, to, dt);
    TS_CHECK(runs.has_value(), name, ": kernel set '", from_name, "' cannot delegate ", dt, " to '",
             to_name, "', which has no kernel for it", where());
    slot.delegate_to[i].store(to, std::memory_order_relaxed);
  }
  slot.delegated.fetch_or(dtypes.bits(), std::memory_order_release);
}

std::optional<KernelSetId> kernel_delegate(OpId op, DeviceType device, KernelSetId set,
                                           ScalarType dtype) {
  TS_CHECK(set >= 0 && set < kMaxKernelSets, "kernel_delegate: unknown kernel set id ",
           static_cast<int>(set));
  const Slot& slot = slot_of(op, device, set);
  const KernelEntry e = slot.load();
  if (e.fn != nullptr && e.dtypes.has(dtype)) return {};
  return slot.target(dtype);
}

DTypeSet delegated_dtypes(OpId op, DeviceType device, KernelSetId set) {
  DTypeSet out;
  const DTypeSet supported = supported_dtypes(op, device, set);
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto dt = static_cast<ScalarType>(i);
    if (!supported.has(dt)) continue;
    bool delegated = kernel_delegate(op, device, set, dt).has_value();
    for (OpId part : composite_parts(op)) {
      delegated = delegated || kernel_delegate(part, device, set, dt).has_value();
    }
    if (delegated) out = DTypeSet::from_bits(out.bits() | DTypeSet{dt}.bits());
  }
  return out;
}

KernelRegistrar& KernelRegistrar::delegate(OpId op, DeviceType device, DTypeSet dtypes,
                                           std::string_view to) {
  const std::optional<KernelSetId> target = find_kernel_set(to);
  TS_CHECK(target.has_value(), op_info(op).name, ": kernel set '", kernel_set_name(set_),
           "' cannot delegate to unknown kernel set '", to, "'");
  delegate_kernel(set_, op, device, dtypes, *target);
  return *this;
}

KernelRegistrar& KernelRegistrar::delegate_rest(OpId op, DeviceType device, std::string_view to) {
  const KernelEntry own = get_kernel(op, device, set_);
  const uint32_t mine = own.fn != nullptr ? own.dtypes.bits() : 0u;
  return delegate(op, device, DTypeSet::from_bits(op_info(op).dtypes.bits() & ~mine), to);
}

uint32_t take_delegations() {
  return std::exchange(tls_delegations, 0u);
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
  if (op_info(op).kind == OpKind::Kernel) {
    const Slot& slot = slot_of(op, device, set);
    const KernelEntry e = slot.load();
    const uint32_t own = e.fn != nullptr ? e.dtypes.bits() : 0u;
    return DTypeSet::from_bits(own | slot.delegated.load(std::memory_order_acquire));
  }
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
    const std::optional<KernelSetId> to = kernel_delegate(op, device.type(), set, dtype);
    const std::optional<KernelSetId> runs =
        to ? resolve(op, device.type(), *to, dtype) : std::nullopt;
    if (runs) return kTrampolines[*runs];
    TS_ERROR(
        op_info(op).name, ": kernel set '", kernel_set_name(set), "' has no kernel for dtype ",
        dtype, " on device ", device_type_name(device.type()),
        to ? " (it delegates it to '" + std::string(kernel_set_name(*to)) + "', which has none)"
        : e.fn == nullptr ? " (the op has no kernel there at all)"
                          : "");
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

void detail::kernel_threw(const KernelCall& call, const std::exception& e) {
  const std::string_view set = kernel_set_name(active_kernel_set());
  const std::string_view dtype = dtype_name(call.p.compute_dtype);
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) {
    TS_ERROR(op_info(call.op).name, ": out of memory (std::bad_alloc) in the ", set, " kernel for ",
             dtype);
  }
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> type(
      abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status), std::free);
  TS_ERROR(op_info(call.op).name, ": the ", set, " kernel for ", dtype, " threw ",
           status == 0 ? type.get() : typeid(e).name(), ": ", e.what());
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
