#pragma once
// `touchstone conform`: runs the conformance catalog against a kernel set.
#include "conformance/runner.h"

namespace ts::tools {

// Prints one line per failing case (with its repro) and a table per op (per family when
// `quiet`); writes the reports asked for. Returns 0 only when every case passed.
int run_conform(conformance::RunOptions options, bool quiet = false);

}  // namespace ts::tools
