#pragma once
namespace ts::tools {
// Runs known-answer cases on the reference set; prints a summary, returns the exit status.
int run_selfcheck(bool verbose);
}  // namespace ts::tools
