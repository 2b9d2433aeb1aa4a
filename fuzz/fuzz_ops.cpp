// fuzz_ops_libfuzzer: the differential fuzzer as a libFuzzer target (clang, -fsanitize=fuzzer
// with ASan and UBSan; scripts/fuzz.sh). A disagreement prints the program as one line and
// aborts, so libFuzzer saves the input (crash-*) and -minimize_crash=1 can shrink it; set
// TS_FUZZ_TRACE=1 to print each statement before it runs (a crash then shows its program).
#include <cstdio>
#include <cstdlib>

#include "fuzz/input.h"
#include "touchstone/parallel.h"

namespace {

ts::fuzz::RunOptions& options() {
  static ts::fuzz::RunOptions o = [] {
    ts::fuzz::RunOptions r;
    r.trace = std::getenv("TS_FUZZ_TRACE") != nullptr;
    return r;
  }();
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ts::set_num_threads(1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<ts::fuzz::Program> programs;
  if (auto f = ts::fuzz::run_input(data, size, options(), &programs)) {
    std::fprintf(stderr, "fuzz: FINDING (%s): %s\nfuzz: program: %s\n", f->kind.c_str(),
                 f->message.c_str(), f->line.c_str());
    const ts::fuzz::Program small = ts::fuzz::minimize(programs.back(), *f, options());
    std::fprintf(stderr, "fuzz: minimized: %s\n", ts::fuzz::to_string(small).c_str());
    std::abort();
  }
  return 0;
}
