#pragma once
// One fuzzer input, as libFuzzer and the plain driver see it, and the minimizer of findings.
//
// Note [Text and binary inputs]
// An input whose bytes are all printable (or newlines) and that parses is text: one program per
// line (Note [Program text]), blank lines and lines starting with '#' skipped. Any other input
// is bytes for the generator (generate.h). So hand-written programs and the one-liners of
// findings can sit in the corpus next to libFuzzer's binary inputs, and libFuzzer mutates both.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz/runner.h"

namespace ts::fuzz {

// Runs every program of the input; the first finding. `programs` (when given) receives them.
std::optional<Finding> run_input(const uint8_t* data, size_t size, const RunOptions& options,
                                 std::vector<Program>* programs = nullptr);

// A smaller program with a finding of the same kind at the same op: statements are removed
// (with the statements that use their tensors) and arguments reset to their defaults while the
// finding persists. Runs the program many times; a crash cannot be minimized here (use
// libFuzzer's -minimize_crash=1 on the binary input).
Program minimize(const Program& program, const Finding& finding, const RunOptions& options);

}  // namespace ts::fuzz
