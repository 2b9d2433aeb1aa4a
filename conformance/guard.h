#pragma once
// Guard bytes around every CPU allocation, to catch kernels that write outside their outputs.
#include <string>

namespace ts::conformance {

// Note [Guard bytes]
// While a GuardScope lives, CPU allocations get 64 guard bytes on each side, filled with a
// pattern; check_guards() reports the first damaged block of those still alive, and a block freed
// with damaged guards is remembered until the next check. Alignment stays 64 bytes. The block
// itself starts filled with the pattern too, so an output element a kernel never writes reads
// as garbage (0xA5A5A5A5 is -2.9e-16 in float32), not as the zero a fresh page would give.
class GuardScope {
 public:
  GuardScope();
  ~GuardScope();
  GuardScope(const GuardScope&) = delete;
  GuardScope& operator=(const GuardScope&) = delete;
};

// Empty when every guard is intact; else where the damage is ("3 bytes after a 64-byte block").
// Clears the record of damaged freed blocks.
std::string check_guards();

}  // namespace ts::conformance
