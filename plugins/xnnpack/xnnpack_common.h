#pragma once
// Helpers shared by the xnnpack plug-in's family files: status checks, the threadpool, strided
// views of touchstone tensors, and staging into the contiguous buffers XNNPACK reads.
#include <xnnpack.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "touchstone/dispatch.h"

namespace ts::xnnpack_set {

// Whether XNNPACK created a float16 operator on this CPU (probed once at load: Note [float16]).
bool has_f16();
// The dtypes the set registers for an op XNNPACK computes in float32 (and float16 if `f16`).
DTypeSet xnn_dtypes(OpId op, bool f16);

// Throws a ts::Error naming the op, the XNNPACK call and its status unless `s` is success.
void check(const KernelCall& c, xnn_status s, const char* call);

// Note [Threadpool]
// XNNPACK runs on a pthreadpool with touchstone's thread count (get_num_threads(), i.e.
// TOUCHSTONE_NUM_THREADS or set_num_threads), one pool per count, kept for the process.
pthreadpool_t threadpool();

// Owns an XNNPACK operator (created per call: Note [Operators per call]).
struct Operator {
  xnn_operator_t op = nullptr;
  Operator() = default;
  Operator(const Operator&) = delete;
  Operator& operator=(const Operator&) = delete;
  ~Operator() {
    if (op != nullptr) xnn_delete_operator(op);
  }
};

// The setup of a float32 operator over `batch` rows ("nc" unary operators, softmax, fully
// connected), and one run of it: setup, then xnn_run_operator, each status checked.
using SetupRows = xnn_status (*)(xnn_operator_t, size_t, const float*, float*, pthreadpool_t);
void run_rows_op(const KernelCall& c, const Operator& op, SetupRows setup, const char* name,
                 size_t batch, const void* in, void* out);

// A strided view of a tensor's elements: base address, dtype, sizes and strides (elements), and
// the bytes readable from `data` to the end of its storage (for XNN_EXTRA_BYTES).
struct View {
  char* data = nullptr;
  ScalarType dtype = kFloat;
  std::vector<int64_t> sizes, strides;
  int64_t room = 0;
};
View view_of(const Tensor& t);
int64_t numel(const std::vector<int64_t>& sizes);
int64_t bytes_of(ScalarType t);
// Whether `v`'s strides are row-major over its sizes (dims of size 1 ignored).
bool is_row_major(const View& v);
// Bytes from v.data past its last element.
int64_t extent_bytes(const View& v);

// Note [Extra bytes]
// XNNPACK's kernels may read (never write) up to XNN_EXTRA_BYTES past an input's last element
// (xnnpack.h). An input is read in place only when its storage holds those bytes; otherwise its
// last rows are copied into a padded buffer (Note [Tail rows]) or the whole input is staged.
// A contiguous buffer of `n` elements of `dtype` with XNN_EXTRA_BYTES of padding.
struct Buffer {
  std::vector<char> bytes;
  Buffer() = default;
  Buffer(int64_t n, ScalarType dtype) : bytes(n * bytes_of(dtype) + XNN_EXTRA_BYTES) {}
  char* data() { return bytes.data(); }
};
// Gathers `v` (row-major over its sizes) into dst, each element converted to `to` with one
// rounding (touchstone's load_as_double / round_to).
void gather(const View& v, ScalarType to, void* dst);
// Stores contiguous elements of dtype `from` into `v` (row-major over its sizes), converted.
void scatter(const void* src, ScalarType from, const View& v);

// Note [Staged copies]
// Every operand copied because XNNPACK cannot take it as it is (layout, dtype, a broadcast input
// of a unary op, a non-contiguous output) counts one; exported as touchstone_xnnpack_staged().
void count_staged();

// XNNPACK's binary "nd" operators (numpy broadcasting over `a` and `b`, at most 6 dims).
enum class Binary { add, sub, mul, div, max, min };
xnn_status create(Binary k, bool f16, xnn_operator_t* op);
xnn_status setup(Binary k, bool f16, xnn_operator_t op, const std::vector<size_t>& a,
                 const std::vector<size_t>& b, const void* x, const void* y, void* out);
// out := x (k) y in the call's compute dtype, every buffer padded (Note [Extra bytes]).
void run_binary(const KernelCall& c, Binary k, const std::vector<size_t>& a,
                const std::vector<size_t>& b, const void* x, const void* y, void* out);

void register_elementwise(KernelRegistrar& m);
void register_nn(KernelRegistrar& m);

}  // namespace ts::xnnpack_set
