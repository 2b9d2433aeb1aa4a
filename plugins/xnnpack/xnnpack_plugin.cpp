// The xnnpack kernel set: touchstone ops computed by XNNPACK's operators (libxnnpack 2022-02-16,
// Debian) on touchstone's memory where XNNPACK can take it (see README.md). Loaded with --plugin
// or `--kernels xnnpack`.
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <mutex>

#include "touchstone/kernel_helpers.h"
#include "touchstone/parallel.h"
#include "xnnpack_common.h"

namespace ts::xnnpack_set {
namespace {

std::atomic<int64_t> staged{0};

const char* status_name(xnn_status s) {
  switch (s) {
    case xnn_status_success:
      return "success";
    case xnn_status_uninitialized:
      return "uninitialized";
    case xnn_status_invalid_parameter:
      return "invalid parameter";
    case xnn_status_invalid_state:
      return "invalid state";
    case xnn_status_unsupported_parameter:
      return "unsupported parameter";
    case xnn_status_unsupported_hardware:
      return "unsupported hardware";
    case xnn_status_out_of_memory:
      return "out of memory";
  }
  return "unknown status";
}

// Note [float16]
// XNNPACK creates its f16 operators only where the CPU has its f16 kernels (x86: F16C and
// AVX2 in this release); elsewhere creation returns xnn_status_unsupported_hardware. The set
// probes the operators it would use once, at load, and registers float16 only when all succeed.
bool probe_f16() {
  const float inf = std::numeric_limits<float>::infinity();
  xnn_operator_t op = nullptr;
  bool ok = true;
  auto probe = [&](xnn_status s) {
    ok = ok && s == xnn_status_success;
    if (op != nullptr) xnn_delete_operator(op);
    op = nullptr;
  };
  probe(xnn_create_add_nd_f16(-inf, inf, 0, &op));
  probe(xnn_create_multiply_nd_f16(-inf, inf, 0, &op));
  probe(xnn_create_clamp_nc_f16(1, 1, 1, 0.f, inf, 0, &op));
  return ok;
}

}  // namespace

bool has_f16() {
  static const bool f16 = probe_f16();
  return f16;
}

DTypeSet xnn_dtypes(OpId op, bool f16) {
  DTypeSet wanted{kFloat};
  if (f16 && has_f16()) wanted = DTypeSet{kFloat, kHalf};
  return op_info(op).dtypes - (DTypeSet::all() - wanted);
}

void check(const KernelCall& c, xnn_status s, const char* call) {
  TS_CHECK(s == xnn_status_success, "xnnpack ", op_info(c.op).name, ": ", call,
           " failed: ", status_name(s), " (status ", static_cast<int>(s), ")");
}

pthreadpool_t threadpool() {
  static std::mutex mutex;
  static std::map<int, pthreadpool_t> pools;  // kept for the process (Note [Threadpool])
  const int n = get_num_threads();
  std::lock_guard<std::mutex> lock(mutex);
  pthreadpool_t& pool = pools[n];
  if (pool == nullptr) pool = pthreadpool_create(static_cast<size_t>(n));
  return pool;
}

void run_rows_op(const KernelCall& c, const Operator& op, SetupRows setup, const char* name,
                 size_t batch, const void* in, void* out) {
  check(c,
        setup(op.op, batch, static_cast<const float*>(in), static_cast<float*>(out), threadpool()),
        name);
  check(c, xnn_run_operator(op.op, threadpool()), "xnn_run_operator");
}

View view_of(const Tensor& t) {
  View v;
  v.data = static_cast<char*>(t.data_ptr());
  v.dtype = t.dtype();
  v.sizes.assign(t.sizes().begin(), t.sizes().end());
  v.strides.assign(t.strides().begin(), t.strides().end());
  v.room = static_cast<int64_t>(t.storage()->nbytes()) - t.storage_offset() * bytes_of(v.dtype);
  return v;
}

int64_t numel(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

int64_t bytes_of(ScalarType t) {
  return static_cast<int64_t>(ts::element_size(t));
}

bool is_row_major(const View& v) {
  int64_t expected = 1;
  for (size_t d = v.sizes.size(); d-- > 0;) {
    if (v.sizes[d] == 1) continue;
    if (v.strides[d] != expected) return false;
    expected *= v.sizes[d];
  }
  return true;
}

int64_t extent_bytes(const View& v) {
  int64_t last = 0;
  for (size_t d = 0; d < v.sizes.size(); ++d) last += (v.sizes[d] - 1) * v.strides[d];
  return (last + 1) * bytes_of(v.dtype);
}

namespace {
// Calls f(src_element, k) over `v` in row-major order, k counting elements from 0: an index
// loop over the outer dims and a plain strided loop over the last.
template <typename F>
void for_each_strided(const View& v, F&& f) {
  if (v.sizes.empty()) return f(v.data, int64_t{0});
  const std::vector<int64_t> outer(v.sizes.begin(), v.sizes.end() - 1);
  const int64_t n = v.sizes.back(), esize = bytes_of(v.dtype);
  const int64_t step = v.strides.back() * esize;
  int64_t k = 0;
  for_each_index(outer, [&](IntArrayRef idx) {
    int64_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * v.strides[d];
    char* p = v.data + off * esize;
    for (int64_t j = 0; j < n; ++j, p += step) f(p, k++);
  });
}
}  // namespace

void gather(const View& v, ScalarType to, void* dst) {
  char* out = static_cast<char*>(dst);
  const int64_t esize = bytes_of(to);
  if (v.dtype == to) {
    for_each_strided(v, [&](const char* p, int64_t k) { std::memcpy(out + k * esize, p, esize); });
    return;
  }
  for_each_strided(v, [&](const char* p, int64_t k) {
    store_double(out + k * esize, to, load_as_double(p, v.dtype, to));
  });
}

void scatter(const void* src, ScalarType from, const View& v) {
  const char* in = static_cast<const char*>(src);
  const int64_t esize = bytes_of(from);
  if (v.dtype == from) {
    for_each_strided(v, [&](char* p, int64_t k) { std::memcpy(p, in + k * esize, esize); });
    return;
  }
  for_each_strided(
      v, [&](char* p, int64_t k) { store_double(p, v.dtype, load_double(in + k * esize, from)); });
}

void count_staged() {
  staged.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace ts::xnnpack_set

// The number of operands the set has staged into contiguous buffers (Note [Staged copies]).
extern "C" __attribute__((visibility("default"))) int64_t touchstone_xnnpack_staged() {
  return ts::xnnpack_set::staged.load(std::memory_order_relaxed);
}

TS_PLUGIN_INIT() {
  // Note [Initialization]: once per process, with XNNPACK's default allocator (nullptr); a
  // failure (a CPU without SSE2) registers nothing and says why.
  const xnn_status s = xnn_initialize(nullptr);
  TS_CHECK(s == xnn_status_success, "xnnpack: xnn_initialize failed (status ", static_cast<int>(s),
           ")");
  ts::KernelRegistrar m("xnnpack");
  ts::xnnpack_set::register_elementwise(m);
  ts::xnnpack_set::register_nn(m);
}
