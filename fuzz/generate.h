#pragma once
// Decodes a fuzzer input (bytes) into a program and runs it, statement by statement, through a
// Runner: the generator reads the oracle's tensors to pick arguments that mostly fit (shapes
// that broadcast, dims in range, indices in bounds), with a few that do not (error paths).
//
// Note [Program bounds]
// A program has at most kMaxStmts statements, of which at most kMaxOps call library ops (the
// rest make inputs or out= tensors); at most kMaxInputs input tensors; a tensor an op computes
// with has at most kMaxNumel elements and no dim larger. A view may be huge ([2^40] expanded
// from a size-1 dim): the generator hands huge tensors only to views, so nothing materializes
// them, except a huge tensor of no element ([2^40, 0]), which elementwise ops, reductions and
// copies also get (results are empty, or too large to allocate: an error in both sets). No
// program makes a shape whose element count overflows int64. Each byte read is one choice; when
// the bytes run out the program ends (after backward, if it uses autograd).
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz/runner.h"

namespace ts::fuzz {

inline constexpr int kMaxStmts = 28;
inline constexpr int kMaxOps = 12;
inline constexpr int kMaxInputs = 8;
inline constexpr int64_t kMaxNumel = 256;
inline constexpr int64_t kHugeSize = int64_t{1} << 40;

// Generates and runs the program `data` encodes; the first finding. `program` (when given)
// receives the statements that ran.
std::optional<Finding> generate_and_run(const uint8_t* data, size_t size,
                                        const RunOptions& options = {}, Program* program = nullptr);

}  // namespace ts::fuzz
