#pragma once
// The SIMD capability the optimized CPU kernels run with: "scalar", "sse4", "avx2" or "avx512".
// The best the CPU supports is chosen at start-up; TOUCHSTONE_CPU_CAPABILITY forces a lower one.
#include <string>
#include <string_view>
#include <vector>

namespace ts::cpu {

std::vector<std::string> compiled_capabilities();   // worst to best
std::vector<std::string> supported_capabilities();  // those this CPU can run, worst to best
std::string capability();                           // the one in use
// Forces `name` (must be supported); affects every thread.
void set_capability(std::string_view name);

}  // namespace ts::cpu
