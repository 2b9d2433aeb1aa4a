#pragma once
// `touchstone conform`: runs the conformance catalog against a kernel set.
#include "conformance/runner.h"

namespace ts::tools {

// Prints one line per failing case (with its repro) and a table per op; writes the report when
// asked. Returns 0 only when every case passed.
int run_conform(conformance::RunOptions options);

}  // namespace ts::tools
