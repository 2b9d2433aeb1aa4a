#pragma once
// The differential runner: every statement runs on a candidate kernel set and on the oracle
// (default: optimized against reference) from identical inputs, and the outcomes must agree.
//
// Note [Lockstep runs]
// Each set has its own slots (tensors); statement k runs on the candidate's slots, then on the
// oracle's. They agree when both throw ts::Error for the same op (the message's text before the
// first ':'), or both return results of equal dtype, sizes, strides, storage offset, storage
// size and aliasing (which slots share storage), and equal values (Note [Fuzz tolerances] in
// compare.h). Storages are compared byte for byte first; only those that differ are compared
// element by element, then the oracle's bytes are copied into the candidate's storage, so the
// next statement starts from identical inputs and rounding differences never compound. After
// backward, every leaf's (and retained) gradient is compared and synced the same way.
// Further checks on both sets: an in-place or out= call returns its output tensor; a call that
// throws leaves the tensors it would write untouched (geometry and bytes); only ts::Error is
// thrown. Values written where an output overlaps an input it reads (or itself) are unspecified:
// such storages are synced, not compared.
#include <optional>
#include <string>
#include <vector>

#include "fuzz/program.h"

namespace ts::fuzz {

struct Finding {
  int stmt = -1;     // the statement that disagreed
  std::string kind;  // error, exception, geometry, alias, values, grad, contract, untouched
  std::string message;
  std::string line;  // the program up to and including that statement (one line)
};

struct RunOptions {
  std::string candidate = "optimized";
  std::string oracle = "reference";
  bool trace = false;  // print each statement to stderr before it runs (to locate a crash)
};

class Runner {
 public:
  explicit Runner(RunOptions options);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;
  // Runs `stmt` on both sets and checks that they agree; the statement joins program().
  std::optional<Finding> step(const Stmt& stmt);

  const Program& program() const { return program_; }
  // The oracle's slots (what the generator reads to pick arguments).
  const std::vector<Tensor>& slots() const { return oracle_.slots; }
  bool last_threw() const { return last_threw_; }

 private:
  struct Side {
    std::string set;
    std::vector<Tensor> slots;
  };
  struct Outcome {
    Tensors results;
    bool threw = false;
    bool foreign = false;  // not a ts::Error
    std::string error;
  };
  Outcome execute(Side& side, const Stmt& stmt);
  std::optional<Finding> check_results(const Stmt& stmt, const Outcome& c, const Outcome& o);
  std::optional<Finding> check_values(const Stmt& stmt, const Outcome& c, const Outcome& o,
                                      const std::vector<Tensor>& before);
  std::optional<Finding> check_grads();
  Finding finding(std::string kind, std::string message) const;

  RunOptions options_;
  Side cand_, oracle_;
  Program program_;
  bool last_threw_ = false;
};

// Statements run on this thread so far: returned in both sets, threw in both, skipped (an
// argument names a tensor an earlier statement did not make).
struct RunStats {
  long long returned = 0;
  long long threw = 0;
  long long skipped = 0;
};
RunStats& run_stats();

// Runs a whole program; the first disagreement, if any.
std::optional<Finding> run_program(const Program& program, const RunOptions& options = {});

// The program being run on this thread (for crash handlers), or null.
const Program* current_program();

}  // namespace ts::fuzz
