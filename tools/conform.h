#pragma once
// `touchstone conform`: runs the conformance catalog against a kernel set.
#include <cstdint>

#include "conformance/runner.h"

namespace ts::tools {

// The failing cases `touchstone conform` prints unless --max-failures-shown says otherwise.
inline constexpr int64_t kDefaultFailuresShown = 50;

// Prints one line per failing case (with its repro), at most `max_failures_shown` (Note [Failure
// cap]), and a table per op (per family when `quiet`); writes the reports asked for. Returns 0
// only when every case passed or is documented.
int run_conform(conformance::RunOptions options, bool quiet = false,
                int64_t max_failures_shown = kDefaultFailuresShown);

}  // namespace ts::tools
