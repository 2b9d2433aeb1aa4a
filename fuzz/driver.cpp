// fuzz_ops: the differential fuzzer without libFuzzer (any compiler). Replays inputs (files,
// directories: the corpus), runs one text program, or runs N random programs; prints a finding
// as a minimized one-line program. Exit status: 0 no finding, 1 a finding, 2 usage or I/O error.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "fuzz/input.h"
#include "reports/files.h"
#include "touchstone/parallel.h"

extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));
extern "C" int __lsan_do_recoverable_leak_check() __attribute__((weak));

namespace {

using namespace ts::fuzz;
namespace fs = std::filesystem;

const char* const kUsage =
    "usage: fuzz_ops [options] [FILE|DIR ...]\n"
    "  FILE|DIR           replay inputs: text programs or libFuzzer's binary inputs (a directory\n"
    "                     is read recursively)\n"
    "  --program LINE     run one program given as text\n"
    "  --runs N           run N random programs (inputs of up to --max-len bytes from --seed)\n"
    "  --seed S           seed of the random inputs (default 1)\n"
    "  --max-len L        longest random input in bytes (default 256)\n"
    "  --candidate SET    the kernel set under test (default optimized)\n"
    "  --oracle SET       the kernel set it must agree with (default reference)\n"
    "  --plugin LIB.so    load a kernel-set plug-in first\n"
    "  --print            print each input's program (one line each)\n"
    "  --trace            print each statement before it runs (locates a crash)\n"
    "  --no-minimize      report a finding as found, not minimized\n"
    "  --leak-check N     under LeakSanitizer, check for leaks after every N random programs\n"
    "                     (locates a leaking program: a leak is otherwise reported at exit)\n";

// A crash mid-program: print what was running (best effort; we are dying anyway).
void print_current() {
  if (const Program* p = current_program()) {
    std::fprintf(stderr, "fuzz_ops: crashed in program: %s\n", to_string(*p).c_str());
  }
}
void on_signal(int sig) {
  print_current();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

struct Options {
  std::vector<std::string> paths;
  std::string program;
  long long runs = 0;
  long long leak_check_every = 0;
  unsigned long long seed = 1;
  size_t max_len = 256;
  std::string plugin;
  bool print = false;
  bool minimize = true;
  RunOptions run;
};

[[noreturn]] void usage_error(const std::string& msg) {
  std::cerr << "fuzz_ops: " << msg << "\n" << kUsage;
  std::exit(2);
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(a + " needs a value");
      return argv[++i];
    };
    const auto number = [&](const std::string& v) -> unsigned long long {
      try {
        size_t used = 0;
        const unsigned long long n = std::stoull(v, &used);
        if (used == v.size() && v[0] != '-') return n;
      } catch (const std::exception&) {
      }
      usage_error(a + ": expected a non-negative integer, got '" + v + "'");
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (a == "--program") {
      o.program = value();
    } else if (a == "--leak-check") {
      o.leak_check_every = static_cast<long long>(number(value()));
    } else if (a == "--runs") {
      o.runs = static_cast<long long>(number(value()));
    } else if (a == "--seed") {
      o.seed = number(value());
    } else if (a == "--max-len") {
      o.max_len = std::max<size_t>(1, number(value()));
    } else if (a == "--candidate") {
      o.run.candidate = value();
    } else if (a == "--oracle") {
      o.run.oracle = value();
    } else if (a == "--plugin") {
      o.plugin = value();
    } else if (a == "--print") {
      o.print = true;
    } else if (a == "--trace") {
      o.run.trace = true;
    } else if (a == "--no-minimize") {
      o.minimize = false;
    } else if (!a.empty() && a[0] == '-') {
      usage_error("unknown option " + a);
    } else {
      o.paths.push_back(a);
    }
  }
  if (o.paths.empty() && o.program.empty() && o.runs == 0) usage_error("nothing to run");
  return o;
}

// Prints a finding (minimized when asked) and returns the exit status 1.
int report(const Finding& f, const Program& p, const Options& o, const std::string& source) {
  std::cerr << "fuzz_ops: FINDING (" << f.kind << ") in " << source << ": " << f.message << "\n"
            << "  program: " << f.line << "\n";
  if (o.minimize) {
    const Program small = minimize(p, f, o.run);
    auto g = run_program(small, o.run);
    std::cerr << "  minimized: " << to_string(small) << "\n";
    if (g) std::cerr << "  minimized finding (" << g->kind << "): " << g->message << "\n";
  }
  std::cerr << "  replay: fuzz_ops --program '<line>'\n";
  return 1;
}

std::vector<std::string> input_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::end(it);
           it.increment(ec)) {
        if (it->is_regular_file(ec)) found.push_back(it->path().string());
      }
      if (ec) throw ts::Error("fuzz_ops: cannot read directory '" + p + "': " + ec.message());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(p);
    }
  }
  return files;
}

int run(const Options& o) {
  size_t programs = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto finish = [&](int status) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const RunStats& st = run_stats();
    std::cerr << "fuzz_ops: " << programs << " programs in " << s << " s ("
              << static_cast<long long>(programs / std::max(s, 1e-9)) << " programs/s; "
              << st.returned + st.threw + st.skipped << " statements: " << st.returned
              << " returned, " << st.threw << " threw in both sets, " << st.skipped << " skipped), "
              << (status == 0 ? "no finding" : "1 finding") << "\n";
    return status;
  };
  const auto one = [&](const uint8_t* data, size_t size, const std::string& source) {
    std::vector<Program> ps;
    auto f = run_input(data, size, o.run, &ps);
    programs += ps.size();
    if (o.print) {
      for (const Program& p : ps) std::cout << to_string(p) << "\n";
    }
    if (f) return report(*f, ps.back(), o, source);
    return 0;
  };
  if (!o.program.empty()) {
    const Program p = parse_program(o.program);  // a parse error is a usage error (exit 2)
    const std::string line = to_string(p);
    if (int s = one(reinterpret_cast<const uint8_t*>(line.data()), line.size(), "--program")) {
      return finish(s);
    }
  }
  for (const std::string& file : input_files(o.paths)) {
    const std::string bytes = ts::reports::read_file(file, "fuzz_ops");
    if (int s = one(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), file)) {
      return finish(s);
    }
  }
  std::mt19937_64 rng(o.seed);
  std::vector<uint8_t> buf;
  for (long long i = 0; i < o.runs; ++i) {
    buf.resize(1 + rng() % o.max_len);
    for (uint8_t& b : buf) b = static_cast<uint8_t>(rng());
    if (int s = one(buf.data(), buf.size(),
                    "random input " + std::to_string(i) + " of --seed " + std::to_string(o.seed))) {
      return finish(s);
    }
    if (o.leak_check_every > 0 && (i + 1) % o.leak_check_every == 0 &&
        __lsan_do_recoverable_leak_check != nullptr && __lsan_do_recoverable_leak_check() != 0) {
      std::cerr << "fuzz_ops: LeakSanitizer found leaks after random input " << i << " of --seed "
                << o.seed << " (none after input " << i - o.leak_check_every << ")\n";
      return finish(1);
    }
  }
  return finish(0);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_args(argc, argv);
  ts::set_num_threads(1);
  for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL}) std::signal(sig, on_signal);
  if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(print_current);
  try {
    if (!o.plugin.empty()) ts::load_kernel_set(o.plugin);
    return run(o);
  } catch (const ts::Error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
