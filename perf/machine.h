#pragma once
// The machine context a perf report carries (and `touchstone env` prints): CPU, cores, threads,
// SIMD target, GPU, compiler, build, commit and library versions.
#include <nlohmann/json.hpp>

namespace ts::perf {

// `threads`: the thread count the run uses.
nlohmann::json machine_context(int threads);

}  // namespace ts::perf
