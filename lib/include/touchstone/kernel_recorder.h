#pragma once
// Which kernels a call ran: a recorder the dispatcher fills on this thread while one is alive.
#include <vector>

#include "touchstone/dispatch.h"

namespace ts {

// One kernel the dispatcher looked up: op, the dtype it ran in, the set that ran it.
struct KernelRecord {
  OpId op;
  ScalarType dtype;
  KernelSetId set;
  bool operator==(const KernelRecord&) const = default;
};

// Note [Kernel recorder]
// While a KernelRecorder lives, every kernel lookup on its thread (lookup_kernel: each kernel
// call of a meta function, forward or backward) adds (op, dtype, set) once, in first-use order.
// Off by default: the dispatcher then pays one thread-local load and a branch per call. Nested
// recorders stack; only the innermost records. The conformance runner attributes failures of
// composite and backward cases with it.
class KernelRecorder {
 public:
  KernelRecorder();
  ~KernelRecorder();
  KernelRecorder(const KernelRecorder&) = delete;
  KernelRecorder& operator=(const KernelRecorder&) = delete;

  const std::vector<KernelRecord>& records() const { return records_; }
  void add(const KernelRecord& r);

 private:
  std::vector<KernelRecord> records_;
  KernelRecorder* prev_;
};

namespace detail {
// The innermost live recorder of this thread, or nullptr.
KernelRecorder*& active_kernel_recorder();
}  // namespace detail

}  // namespace ts
