#pragma once
// The TOUCHSTONE_* environment variables, checked without ever aborting the process.
#include <string>
#include <vector>

namespace ts {

// Note [Environment errors]
// TOUCHSTONE_CPU_CAPABILITY is applied before main (a static initializer) and
// TOUCHSTONE_NUM_THREADS on first use; a ts::Error thrown there would abort the process with
// "terminate called". Instead a bad value is printed once as a warning on stderr, the library
// falls back (the best SIMD target the CPU supports, one thread per core) and the problem is
// kept here: `touchstone` refuses to run a command with one (exit 2), `touchstone env` shows it.

// Every problem found in the environment so far, one message each ("TOUCHSTONE_NUM_THREADS='x':
// ..."), after reading every variable the library honours.
std::vector<std::string> environment_errors();

namespace detail {
// Records and prints (once, on stderr) a problem with an environment variable.
void add_environment_error(std::string message);
// An on/off variable that is on by default: false when it is "0", true when unset, empty or
// "1"; any other value is recorded as an error and reads as on.
bool env_switch(const char* name);
}  // namespace detail

}  // namespace ts
