// The crash handler of in-process runs (Note [Crash handler]).
#include "conformance/crash.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace ts::conformance {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr size_t kNoteSize = 4096;

char g_notes[2][kNoteSize];
std::atomic<const char*> g_note{nullptr};
struct sigaction g_previous[sizeof(kSignals) / sizeof(kSignals[0])];

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
    default:
      return "a signal";
  }
}

void write_all(const char* s, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}

void write_str(const char* s) {
  write_all(s, std::strlen(s));
}

// Async-signal-safe: write(2), strlen, sigaction-reset (SA_RESETHAND) and raise only.
void on_fatal_signal(int sig) {
  write_str("\ntouchstone conform: killed by ");
  write_str(signal_name(sig));
  const char* note = g_note.load(std::memory_order_acquire);
  if (note != nullptr && note[0] != '\0') {
    write_str(" ");
    write_str(note);
  } else {
    write_str(" outside any case\n");
  }
  ::raise(sig);  // the default action: SA_RESETHAND restored it on entry
}

}  // namespace

CrashReporter::CrashReporter() {
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i) {
    ::sigaction(kSignals[i], &sa, &g_previous[i]);
  }
}

CrashReporter::~CrashReporter() {
  for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i) {
    ::sigaction(kSignals[i], &g_previous[i], nullptr);
  }
  set_crash_note("");
}

void set_crash_note(const std::string& note) {
  // Fill the buffer not published, then publish it: the handler never sees a half-written note.
  char* buf = g_note.load(std::memory_order_relaxed) == g_notes[0] ? g_notes[1] : g_notes[0];
  const size_t n = std::min(note.size(), kNoteSize - 1);
  std::memcpy(buf, note.data(), n);
  buf[n] = '\0';
  g_note.store(buf, std::memory_order_release);
}

}  // namespace ts::conformance
