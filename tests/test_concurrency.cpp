// Concurrent use of the library: user threads, each with its own KernelSetGuard, run ops large
// enough to go parallel inside (ts::parallel_for), reductions, matmul (OpenBLAS and our gemm),
// random numbers, autograd, in-place ops on views, registry look-ups and a plug-in load, the CPU
// block cache, thread-count and grad-mode changes. Every result is checked against values
// computed before the threads start, with plain loops. Built with the tsan preset
// (scripts/tsan.sh), this is ThreadSanitizer's workload; elsewhere it checks results and that
// one thread's kernel set or grad mode never shows in another.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_plugin_path.h"
#include "test_util.h"
#include "touchstone/parallel.h"
#include "touchstone/sanitizers.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::OpId;
using ts::Tensor;

constexpr int kThreads = 8;
constexpr int kIters = 2;
// 256 x 512 elements: above every parallel grain (32768), and 1 MiB in float64 (cached blocks).
constexpr int64_t kRows = 256, kCols = 512, kN = kRows * kCols;
// Matmul shapes: float (OpenBLAS in the optimized set) and int32 (our blocked gemm, which splits
// 128 rows into two 64-row tasks and so goes parallel).
constexpr int64_t kM = 64, kK = 48, kP = 32;
constexpr int64_t kIM = 128, kIK = 64, kIP = 64;
// Random draws: every draw has this many elements, so the draws' Philox offsets are multiples
// of it (Note [Philox streams]); rand's grain is 16384, randn's 1024.
constexpr int64_t kRandN = 32768;
constexpr int kDraws = kThreads * kIters * 2;
constexpr uint64_t kSeed = 20240611;
// The first 10 elements of the autograd leaf are scaled in place through a view.
constexpr int64_t kScaled = 10;

// Records failures on a worker thread; the main thread reports them (gtest stays on one thread).
struct Failures {
  std::vector<std::string> messages;
  void check(bool ok, const std::string& what) {
    if (!ok && messages.size() < 20) messages.push_back(what);
  }
  // Exact comparison of t's values, row-major over its shape and read as double.
  void check_values(const Tensor& t, const std::vector<double>& want, const std::string& what) {
    if (t.numel() != static_cast<int64_t>(want.size())) {
      check(false, what + ": " + std::to_string(t.numel()) + " elements, want " +
                       std::to_string(want.size()));
      return;
    }
    for (size_t i = 0; i < want.size(); ++i) {
      const double got = get(t, static_cast<int64_t>(i));
      if (got != want[i]) {
        std::ostringstream os;
        os << what << ": element " << i << " is " << got << ", want " << want[i];
        check(false, os.str());
        return;
      }
    }
  }
};

// Matrix helpers on row-major vectors: the oracle for mm and its gradient.
std::vector<double> matmul_values(const std::vector<double>& a, const std::vector<double>& b,
                                  int64_t n, int64_t m, int64_t p) {
  std::vector<double> c(static_cast<size_t>(n * p), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t l = 0; l < m; ++l)
      for (int64_t j = 0; j < p; ++j) c[i * p + j] += a[i * m + l] * b[l * p + j];
  return c;
}
// Small integers, different per `salt`: every product and sum is exact in float32 and int32.
std::vector<double> small_ints(int64_t n, int salt) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<double>((i * 7 + salt * 3) % 9) - 4.0;
  return v;
}

// What one thread must see, computed before any thread starts.
struct Expected {
  int thread = 0;
  std::string set;  // "reference" or "optimized"
  ts::KernelSetId set_id = -1;
  ts::KernelFn add_kernel = nullptr;  // the set's add for float32 on CPU
  double scale = 0;
  std::vector<std::vector<double>> affine;  // per iteration: arange * scale + iter + 1
  std::vector<double> sum, max;             // per iteration
  std::vector<std::vector<double>> row_sums, col_sums;
  std::vector<double> views;   // the in-place/view pattern
  std::vector<double> a, c;    // float mm: a (kM x kK) @ shared b
  std::vector<double> ia, ic;  // int32 mm: ia (kIM x kIK) @ shared ib
  std::vector<double> leaf, leaf_grad;
  double leaf_loss = 0;
  std::vector<double> a_col_sums;  // kK: this thread's share of the shared weight's gradient
};

struct RandomTables {
  std::vector<std::vector<double>> uniform, normal;  // per block of kRandN counters
};

RandomTables random_tables() {
  RandomTables r;
  for (int k = 0; k < kDraws; ++k) {
    std::vector<double> u(kRandN), n(kRandN);
    const uint64_t offset = static_cast<uint64_t>(k) * kRandN;
    for (int64_t i = 0; i < kRandN; ++i) {
      const auto w = ts::philox_words(kSeed, offset, static_cast<uint64_t>(i));
      u[i] = ts::uniform_float(w[0]);
      n[i] = ts::normal_double(w);
    }
    r.uniform.push_back(std::move(u));
    r.normal.push_back(std::move(n));
  }
  return r;
}

Expected expected_for(int t, const std::vector<double>& b, const std::vector<double>& ib) {
  Expected e;
  e.thread = t;
  e.set = t % 2 == 0 ? "reference" : "optimized";
  e.set_id = ts::find_kernel_set(e.set).value();
  e.add_kernel = ts::get_kernel(OpId::add, ts::kCPU, e.set_id).fn;
  e.scale = t + 1;
  for (int i = 0; i < kIters; ++i) {
    std::vector<double> v(kN), rows(kRows, 0.0), cols(kCols, 0.0);
    double sum = 0, mx = -1e300;
    for (int64_t k = 0; k < kN; ++k) {
      v[k] = static_cast<double>(k) * e.scale + i + 1;
      sum += v[k];
      mx = std::max(mx, v[k]);
      rows[k / kCols] += v[k];
      cols[k % kCols] += v[k];
    }
    e.affine.push_back(std::move(v));
    e.sum.push_back(sum);
    e.max.push_back(mx);
    e.row_sums.push_back(std::move(rows));
    e.col_sums.push_back(std::move(cols));
  }
  // zeros; row t filled with scale; columns 0 and 1 plus one; columns 5..7 doubled.
  e.views.assign(kN, 0.0);
  for (int64_t r = 0; r < kRows; ++r) {
    for (int64_t c = 0; c < kCols; ++c) {
      double v = (r == t ? e.scale : 0.0) + (c < 2 ? 1.0 : 0.0);
      if (c >= 5 && c < 8) v *= 2;
      e.views[r * kCols + c] = v;
    }
  }
  e.a = small_ints(kM * kK, t);
  e.c = matmul_values(e.a, b, kM, kK, kP);
  e.ia = small_ints(kIM * kIK, t + 11);
  e.ic = matmul_values(e.ia, ib, kIM, kIK, kIP);
  // Leaf w, h = w * 1 with h[:10] *= 3, loss = sum(h^2 / 2): dloss/dw = 9 w there, w elsewhere.
  e.leaf.resize(kN);
  e.leaf_grad.resize(kN);
  for (int64_t k = 0; k < kN; ++k) {
    const double w = static_cast<double>(k % 5) + e.scale;
    const double h = k < kScaled ? 3 * w : w;
    e.leaf[k] = w;
    e.leaf_grad[k] = k < kScaled ? 9 * w : w;
    e.leaf_loss += h * h / 2;
  }
  e.a_col_sums.assign(kK, 0.0);
  for (int64_t r = 0; r < kM; ++r)
    for (int64_t c = 0; c < kK; ++c) e.a_col_sums[c] += e.a[r * kK + c];
  return e;
}

// Shared by every thread: read-only inputs, the shared leaf and the random draws seen.
struct Shared {
  Tensor b, ib;   // float kK x kP and int32 kIK x kIP, read by every thread
  Tensor weight;  // float kK x kP leaf that every thread's backward accumulates into
  const RandomTables* tables = nullptr;
  std::atomic<int> uniform_draws[kDraws] = {};
  std::atomic<int> normal_draws[kDraws] = {};
  std::atomic<bool> plugin_loaded{false};
};

// The block of counters a draw used, found from its first two values; -1 if none matches.
int find_block(const std::vector<std::vector<double>>& table, const Tensor& t) {
  for (int k = 0; k < kDraws; ++k) {
    if (table[k][0] == get(t, 0) && table[k][1] == get(t, 1)) return k;
  }
  return -1;
}

void check_state(Failures& f, const Expected& e, bool grad_mode, const std::string& where) {
  f.check(ts::active_kernel_set() == e.set_id,
          where + ": active kernel set is not " + e.set + " (another thread's guard leaked?)");
  f.check(ts::lookup_kernel(OpId::add, ts::kFloat, ts::kCPU) == e.add_kernel,
          where + ": add dispatches to another set's kernel");
  f.check(ts::GradMode::is_enabled() == grad_mode, where + ": grad mode leaked from elsewhere");
}

void run_iteration(Failures& f, const Expected& e, Shared& s, int i) {
  const std::string it =
      e.set + " thread " + std::to_string(e.thread) + " iteration " + std::to_string(i);
  check_state(f, e, true, it + " start");
  ts::set_num_threads(2 + (e.thread + i) % 2);  // always > 1: the parallel paths run
  const int nt = ts::get_num_threads();
  f.check(nt == 2 || nt == 3, it + ": get_num_threads() gave " + std::to_string(nt));

  // Large element-wise ops, in place too, and reductions (inner and outer).
  Tensor y = ts::arange(kN, ts::kDouble) * e.scale + static_cast<double>(i);
  y.add_(1.0);
  f.check_values(y, e.affine[i], it + ": arange * scale + i + 1");
  f.check(y.sum().item<double>() == e.sum[i], it + ": sum");
  f.check(y.max().item<double>() == e.max[i], it + ": max");
  const Tensor grid = y.view({kRows, kCols});
  f.check_values(grid.sum(1), e.row_sums[i], it + ": row sums");
  f.check_values(grid.sum(0), e.col_sums[i], it + ": column sums");
  const Tensor twos = ts::ones({kN}, ts::kFloat) * 2.0;
  f.check(twos.sum().item<double>() == 2.0 * kN, it + ": float sum of twos");
  f.check(twos.mean().item<double>() == 2.0, it + ": float mean of twos");
  f.check_values(ts::tensor({1.0, 2.0, 3.0}, ts::kDouble) * e.scale,
                 {e.scale, 2 * e.scale, 3 * e.scale}, it + ": small mul");

  // In-place ops through views.
  const Tensor m = ts::zeros({kRows, kCols}, ts::kFloat);
  m.select(0, e.thread).fill_(e.scale);
  m.transpose(0, 1).narrow(0, 0, 2).add_(1.0);
  m.narrow(1, 5, 3).mul_(2.0);
  f.check_values(m, e.views, it + ": in-place ops on views");

  // Matmul on a matrix every thread reads.
  const Tensor a = make(ts::kFloat, e.a, {kM, kK});
  f.check_values(a.mm(s.b), e.c, it + ": float mm");
  f.check_values(ts::matmul(a, s.b), e.c, it + ": float matmul");
  f.check_values(make(ts::kInt, e.ia, {kIM, kIK}).mm(s.ib), e.ic, it + ": int32 mm");

  // Random numbers: each draw takes its own block of counters from the default generator.
  const Tensor u = ts::rand({kRandN});
  const int ku = find_block(s.tables->uniform, u);
  f.check(ku >= 0, it + ": rand drew from no expected block of counters");
  if (ku >= 0) {
    f.check_values(u, s.tables->uniform[ku], it + ": rand");
    s.uniform_draws[ku].fetch_add(1);
  }
  const Tensor n = ts::randn({kRandN}, ts::kDouble);
  const int kn = find_block(s.tables->normal, n);
  f.check(kn >= 0, it + ": randn drew from no expected block of counters");
  if (kn >= 0) {
    f.check_values(n, s.tables->normal[kn], it + ": randn");
    s.normal_draws[kn].fetch_add(1);
  }

  // Autograd: an in-place op on a view of a non-leaf (CopySlices), then backward.
  const Tensor w = make(ts::kDouble, e.leaf);
  w.requires_grad_();
  const Tensor h = w * 1.0;
  h.narrow(0, 0, kScaled).mul_(3.0);
  const Tensor loss = (h * h * 0.5).sum();
  f.check(loss.item<double>() == e.leaf_loss, it + ": loss");
  loss.backward();
  f.check_values(w.grad(), e.leaf_grad, it + ": leaf gradient");
  const std::vector<Tensor> g = ts::autograd::grad({(w * w).sum()}, {w});
  std::vector<double> twice(e.leaf.size());
  std::transform(e.leaf.begin(), e.leaf.end(), twice.begin(), [](double v) { return 2 * v; });
  f.check_values(g[0], twice, it + ": autograd::grad");
  // The shared leaf: every thread's backward adds its column sums of a into weight.grad().
  a.mm(s.weight).sum().backward();

  // Grad mode is per thread: odd threads switch it off on odd iterations.
  if (e.thread % 2 == 1 && i % 2 == 1) {
    const ts::NoGradGuard no_grad;
    f.check(!(w * 2.0).requires_grad(), it + ": recorded under NoGradGuard");
    check_state(f, e, false, it + " under NoGradGuard");
  } else {
    f.check((w * 2.0).requires_grad(), it + ": not recorded in grad mode");
  }
  check_state(f, e, true, it + " after autograd");

  // Registry look-ups, as `touchstone ops` makes them, while thread 0 may be loading a plug-in.
  for (const std::string& name : ts::kernel_set_names()) {
    const auto id = ts::find_kernel_set(name);
    f.check(id.has_value() && ts::kernel_set_name(*id) == name, it + ": kernel set " + name);
    if (id) (void)ts::supported_dtypes(OpId::add, ts::kCPU, *id);
  }
  f.check(ts::supported_dtypes(OpId::add, ts::kCPU, e.set_id).has(ts::kFloat),
          it + ": add float32 missing from " + e.set);
  if (e.thread == 0) {
    if (i == 0) {
      f.check(ts::load_kernel_set(TS_TEST_PLUGIN_PATH) == std::vector<std::string>{"test_plugin"},
              it + ": loading the test plug-in");
      s.plugin_loaded = true;
    }
    const ts::KernelSetGuard plugin("test_plugin");
    const Tensor marked = ts::add(make(ts::kFloat, {1, 2}), make(ts::kFloat, {3, 4}));
    f.check_values(marked, {1234.5, 1234.5}, it + ": add under the plug-in's guard");
  }
  f.check_values(ts::add(make(ts::kFloat, {1, 2}), make(ts::kFloat, {3, 4})), {4, 6},
                 it + ": add after the plug-in's guard");
  check_state(f, e, true, it + " end");
}

TEST(Concurrency, EightThreadsWithTheirOwnKernelSetsGetExactResults) {
  const int saved_threads = ts::get_num_threads();
  ts::manual_seed(kSeed);
  const std::vector<double> b = small_ints(kK * kP, 5), ib = small_ints(kIK * kIP, 6);
  const RandomTables tables = random_tables();
  std::vector<Expected> expected;
  for (int t = 0; t < kThreads; ++t) expected.push_back(expected_for(t, b, ib));
  std::vector<double> weight_grad(kK * kP, 0.0);
  for (const Expected& e : expected)
    for (int64_t c = 0; c < kK; ++c)
      for (int64_t j = 0; j < kP; ++j) weight_grad[c * kP + j] += kIters * e.a_col_sums[c];

  Shared shared;
  shared.b = make(ts::kFloat, b, {kK, kP});
  shared.ib = make(ts::kInt, ib, {kIK, kIP});
  shared.weight = make(ts::kFloat, small_ints(kK * kP, 9), {kK, kP});
  shared.weight.requires_grad_();
  shared.tables = &tables;

  std::vector<Failures> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const ts::KernelSetGuard guard(expected[t].set);
      try {
        for (int i = 0; i < kIters; ++i) run_iteration(failures[t], expected[t], shared, i);
      } catch (const std::exception& ex) {
        failures[t].check(false, std::string("thread threw: ") + ex.what());
      }
    });
  }
  for (std::thread& th : threads) th.join();
  ts::set_num_threads(saved_threads);

  for (int t = 0; t < kThreads; ++t) {
    for (const std::string& m : failures[t].messages) ADD_FAILURE() << m;
  }
  // Every block of counters was drawn exactly once, by rand or by randn.
  for (int k = 0; k < kDraws; ++k) {
    EXPECT_EQ(shared.uniform_draws[k] + shared.normal_draws[k], 1) << "block " << k;
  }
  EXPECT_TRUE(shared.plugin_loaded);
  Failures f;
  f.check_values(shared.weight.grad(), weight_grad, "shared weight's gradient");
  for (const std::string& m : f.messages) ADD_FAILURE() << m;
  // This thread had no guard: still the process default.
  EXPECT_EQ(ts::kernel_set_name(ts::active_kernel_set()),
            std::getenv("TOUCHSTONE_KERNELS") ? std::getenv("TOUCHSTONE_KERNELS") : "reference");
}

// Regression: set_default_kernel_set wrote the default while threads without a guard read it
// (a data race ThreadSanitizer reports; the default is now an atomic).
TEST(Concurrency, DefaultKernelSetChangesWhileThreadsWithoutGuardDispatch) {
  const std::string before(ts::kernel_set_name(ts::active_kernel_set()));
  const auto ref = ts::find_kernel_set("reference").value();
  const auto opt = ts::find_kernel_set("optimized").value();
  std::atomic<bool> done{false};
  std::vector<Failures> failures(3);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      do {
        const ts::KernelSetId id = ts::active_kernel_set();
        failures[t].check(id == ref || id == opt, "a guard-less thread saw an unknown set");
        failures[t].check_values(ts::arange(5, ts::kDouble) * 2.0, {0, 2, 4, 6, 8},
                                 "arange * 2 without a guard");
      } while (!done);
    });
  }
  for (int k = 0; k < 200; ++k) ts::set_default_kernel_set(k % 2 == 0 ? "optimized" : "reference");
  done = true;
  for (std::thread& th : threads) th.join();
  ts::set_default_kernel_set(before);
  for (const Failures& f : failures)
    for (const std::string& m : f.messages) ADD_FAILURE() << m;
}

void answer_add(const ts::KernelCall& c) {
  const Tensor& out = c.outputs[0];
  float* p = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) p[i] = 42.0f;
}

// Regression: a thread that sees a newly registered set (as after a plug-in's name appears)
// read its kernel table entries while the registering thread wrote them (entries are atomics).
TEST(Concurrency, KernelsRegisteredWhileAnotherThreadLooksThemUp) {
  const ts::KernelSetId id = ts::register_kernel_set("test_concurrency_late");
  std::string failure;
  std::thread reader([&] {
    while (!ts::supported_dtypes(OpId::add, ts::kCPU, id).has(ts::kFloat)) {
    }
    const ts::KernelSetGuard guard("test_concurrency_late");
    const Tensor r = ts::add(make(ts::kFloat, {1, 2}), make(ts::kFloat, {3, 4}));
    if (get(r, 0) != 42.0 || get(r, 1) != 42.0) failure = "the late set's add did not run";
  });
  ts::KernelRegistrar m("test_concurrency_late");
  m.impl(OpId::add, ts::kCPU, {ts::kFloat}, answer_add);
  reader.join();
  EXPECT_EQ(failure, "");
}

// Regression: threads sharing a leaf raced on its AccumulateGrad (created lazily) and on its
// grad(); PyTorch accumulates every thread's gradient, and so does touchstone now.
TEST(Concurrency, ThreadsSharingALeafAccumulateEveryGradient) {
  const Tensor w = ts::ones({64}, ts::kDouble);
  w.requires_grad_();
  constexpr int kPasses = 25;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const ts::KernelSetGuard guard(t % 2 == 0 ? "reference" : "optimized");
      for (int k = 0; k < kPasses; ++k) (w * static_cast<double>(t + 1)).sum().backward();
    });
  }
  for (std::thread& th : threads) th.join();
  // Each pass of thread t adds t + 1 to every element: 25 * (1 + ... + 8) = 900.
  EXPECT_TENSOR(w.grad(), ts::kDouble, {64}, Values(64, 900.0));
}

// Note [CPU block cache] in lib/src/storage.cpp: a full cache gives back its least recently
// freed blocks to keep a new one (ctest runs this file with an 8 MiB cache).
TEST(CpuBlockCache, AFullCacheGivesBackItsOldestBlocks) {
#if TS_ASAN
  GTEST_SKIP() << "sanitizer builds never cache blocks";
#else
  constexpr size_t kMiB = size_t{1} << 20;
  if (ts::cpu_cache_stats().limit_bytes != 8 * kMiB) GTEST_SKIP() << "needs an 8 MiB cache";
  { const Tensor a = ts::empty({int64_t{5} << 18}, ts::kFloat); }  // 5 MiB: a 6 MiB block
  const ts::CpuCacheStats s1 = ts::cpu_cache_stats();
  EXPECT_GE(s1.cached_bytes, 6 * kMiB);
  void* b_data = nullptr;
  {
    const Tensor b = ts::empty({int64_t{3} << 18}, ts::kFloat);  // a 4 MiB block
    b_data = b.data_ptr();
  }
  // 6 + 4 MiB do not fit in 8: the older 6 MiB block went back to the C library.
  const ts::CpuCacheStats s2 = ts::cpu_cache_stats();
  EXPECT_GT(s2.evictions, s1.evictions);
  EXPECT_LE(s2.cached_bytes, 8 * kMiB);
  EXPECT_GE(s2.cached_bytes, 4 * kMiB);
  const Tensor again = ts::full({int64_t{3} << 18}, 1.5, ts::kFloat);
  EXPECT_EQ(again.data_ptr(), b_data);
  EXPECT_EQ(ts::cpu_cache_stats().hits, s2.hits + 1);
  EXPECT_EQ(again.sum().item<double>(), 1.5 * (3 << 18));
  // A block larger than the whole cache is never kept.
  { const Tensor big = ts::empty({int64_t{9} << 18}, ts::kFloat); }
  EXPECT_LE(ts::cpu_cache_stats().cached_bytes, 8 * kMiB);
#endif
}

}  // namespace
