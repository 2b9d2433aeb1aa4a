#pragma once
// Naming the running case when a run without --isolate dies of a signal.
#include <string>

namespace ts::conformance {

// Note [Crash handler]
// While a CrashReporter lives, SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT print the note last
// given to set_crash_note (the case being run, its repro line, a hint to use --isolate) to
// stderr, then re-raise the signal with its default action, so the process still dies of it.
// The handler only write(2)s a preformatted buffer: notes are formatted before each case into
// one of two static buffers, and an atomic pointer publishes the finished one.
class CrashReporter {
 public:
  CrashReporter();   // installs the handlers
  ~CrashReporter();  // restores the previous ones and clears the note
  CrashReporter(const CrashReporter&) = delete;
  CrashReporter& operator=(const CrashReporter&) = delete;
};

// The text printed on a crash (truncated to 4 KiB); empty: a generic line.
void set_crash_note(const std::string& note);

}  // namespace ts::conformance
