// Side-by-side CPU benchmarks: the optimized set, the reference set and libtorch (ATen) run the
// same cases in one process, registered case by case so ratios survive a noisy machine, plus a
// STREAM-style add loop as the bandwidth bound. See perf/README.md for the command and table.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "touchstone/cpu_capability.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

#ifdef TS_HAVE_TORCH
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#endif

namespace {

using ts::Tensor;

constexpr int64_t kM = int64_t{1} << 20;

// Inputs are made once per shape and shared by every backend of a case.
Tensor input(const std::string& key, std::vector<int64_t> sizes) {
  static std::map<std::string, Tensor> cache;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  ts::KernelSetGuard g("optimized");
  Tensor t = ts::empty(sizes, ts::kFloat);
  float* p = t.data_ptr<float>();
  ts::parallel_for(0, t.numel(), 1 << 16, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) p[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f - 0.5f;
  });
  cache.emplace(key, t);
  return t;
}

struct Case {
  std::string name;
  double bytes;                      // moved per call, for GB/s
  double flops;                      // per call, for GFLOP/s
  std::function<void()> touchstone;  // runs under the active kernel set
#ifdef TS_HAVE_TORCH
  std::function<void()> aten;
#endif
  bool with_reference;
};

#ifdef TS_HAVE_TORCH
at::Tensor as_aten(const Tensor& t) {
  return at::from_blob(t.data_ptr(), std::vector<int64_t>(t.sizes().begin(), t.sizes().end()),
                       std::vector<int64_t>(t.strides().begin(), t.strides().end()),
                       at::TensorOptions().dtype(at::kFloat));
}
#endif

void run(benchmark::State& state, const Case& c, const std::function<void()>& f) {
  f();  // warm-up (first touch of outputs, caches)
  for (auto _ : state) f();
  state.counters["GB/s"] = benchmark::Counter(
      c.bytes, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
  if (c.flops > 0) {
    state.counters["GFLOP/s"] = benchmark::Counter(
        c.flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
  }
}

std::vector<Case> cases() {
  std::vector<Case> out;
  auto binary_case = [&](std::string name, int64_t n, bool reference) {
    Tensor a = input("a" + std::to_string(n), {n}), b = input("b" + std::to_string(n), {n});
    Tensor o = input("o" + std::to_string(n), {n});
    Case c{name,
           12.0 * n,
           static_cast<double>(n),
           [=] { ts::add_out(o, a, b); },
#ifdef TS_HAVE_TORCH
           [=] {
             at::Tensor ao = as_aten(o);
             at::add_out(ao, as_aten(a), as_aten(b));
           },
#endif
           reference};
    out.push_back(c);
  };
  binary_case("add_f32_16M", 16 * kM, true);
  binary_case("add_f32_128M", 128 * kM, false);

  {
    Tensor a = input("a16", {16 * kM}), o = input("o16", {16 * kM});
    out.push_back({"exp_f32_16M", 8.0 * 16 * kM, 16.0 * kM, [=] { ts::exp_out(o, a); },
#ifdef TS_HAVE_TORCH
                   [=] {
                     at::Tensor ao = as_aten(o);
                     at::exp_out(ao, as_aten(a));
                   },
#endif
                   true});
  }
  {
    Tensor a = input("a16", {16 * kM});
    out.push_back({"sum_f32_16M", 4.0 * 16 * kM, 16.0 * kM,
                   [=] { benchmark::DoNotOptimize(ts::sum(a)); },
#ifdef TS_HAVE_TORCH
                   [=] { benchmark::DoNotOptimize(at::sum(as_aten(a))); },
#endif
                   true});
  }
  const int64_t n = 4096;
  Tensor sq = input("sq", {n, n}), sq2 = input("sq2", {n, n}), sqo = input("sqo", {n, n});
  Tensor row = input("row", {n});
  out.push_back({"add_bcast_4096x4096+4096", 8.0 * n * n, 1.0 * n * n,
                 [=] { ts::add_out(sqo, sq, row); },
#ifdef TS_HAVE_TORCH
                 [=] {
                   at::Tensor ao = as_aten(sqo);
                   at::add_out(ao, as_aten(sq), as_aten(row));
                 },
#endif
                 true});
  out.push_back({"add_contig_4096x4096", 12.0 * n * n, 1.0 * n * n,
                 [=] { ts::add_out(sqo, sq, sq2); },
#ifdef TS_HAVE_TORCH
                 [=] {
                   at::Tensor ao = as_aten(sqo);
                   at::add_out(ao, as_aten(sq), as_aten(sq2));
                 },
#endif
                 true});
  out.push_back({"add_transposed_4096x4096", 12.0 * n * n, 1.0 * n * n,
                 [=] { ts::add_out(sqo, sq.t(), sq2); },
#ifdef TS_HAVE_TORCH
                 [=] {
                   at::Tensor ao = as_aten(sqo);
                   at::add_out(ao, as_aten(sq).t(), as_aten(sq2));
                 },
#endif
                 true});
  for (int64_t dim : {0, 1}) {
    out.push_back({"sum_dim" + std::to_string(dim) + "_4096x4096", 4.0 * n * n, 1.0 * n * n,
                   [=] { benchmark::DoNotOptimize(ts::sum(sq, {dim})); },
#ifdef TS_HAVE_TORCH
                   [=] { benchmark::DoNotOptimize(at::sum(as_aten(sq), {dim})); },
#endif
                   true});
  }
  out.push_back({"softmax_dim1_4096x4096", 8.0 * n * n, 4.0 * n * n,
                 [=] { benchmark::DoNotOptimize(ts::softmax(sq, 1)); },
#ifdef TS_HAVE_TORCH
                 [=] { benchmark::DoNotOptimize(at::softmax(as_aten(sq), 1)); },
#endif
                 true});
  {
    Tensor a = input("m1", {1024, 1024}), b = input("m2", {1024, 1024});
    out.push_back({"mm_f32_1024", 12.0 * 1024 * 1024, 2.0 * 1024 * 1024 * 1024,
                   [=] { benchmark::DoNotOptimize(ts::mm(a, b)); },
#ifdef TS_HAVE_TORCH
                   [=] { benchmark::DoNotOptimize(at::mm(as_aten(a), as_aten(b))); },
#endif
                   false});
  }
  {
    Tensor a = input("one_a", {1}), b = input("one_b", {1});
    out.push_back({"add_1_element", 12.0, 1.0, [=] { benchmark::DoNotOptimize(ts::add(a, b)); },
#ifdef TS_HAVE_TORCH
                   [=] { benchmark::DoNotOptimize(at::add(as_aten(a), as_aten(b))); },
#endif
                   true});
  }
  {
    // Per-call autograd overhead: the same 1-element add with an input that requires grad.
    Tensor a = input("one_a", {1}).detach().requires_grad_(), b = input("one_b", {1});
    out.push_back({"add_1_element_requires_grad", 12.0, 1.0,
                   [=] { benchmark::DoNotOptimize(ts::add(a, b)); },
#ifdef TS_HAVE_TORCH
                   [=] {
                     static at::Tensor ag = as_aten(a).detach().requires_grad_();
                     benchmark::DoNotOptimize(at::add(ag, as_aten(b)));
                   },
#endif
                   true});
  }
  return out;
}

// The bandwidth bound: a plain OpenMP loop over the same arrays as add_f32_*.
void register_stream(int64_t n, const std::string& name) {
  benchmark::RegisterBenchmark(
      ("stream_add/" + name).c_str(),
      [n](benchmark::State& state) {
        Tensor a = input("a" + std::to_string(n), {n}), b = input("b" + std::to_string(n), {n});
        Tensor o = input("o" + std::to_string(n), {n});
        const float* pa = a.data_ptr<float>();
        const float* pb = b.data_ptr<float>();
        float* po = o.data_ptr<float>();
        const int threads = ts::get_num_threads();
        for (auto _ : state) {
#pragma omp parallel for num_threads(threads) schedule(static)
          for (int64_t i = 0; i < n; ++i) po[i] = pa[i] + pb[i];
          benchmark::ClobberMemory();
        }
        state.counters["GB/s"] = benchmark::Counter(
            12.0 * n, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
      })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
#ifdef TS_HAVE_TORCH
  at::set_num_threads(ts::get_num_threads());
  benchmark::AddCustomContext("libtorch", "1 (ATen threads = touchstone threads)");
#endif
  benchmark::AddCustomContext("touchstone_threads", std::to_string(ts::get_num_threads()));
  benchmark::AddCustomContext("cpu_capability", ts::cpu::capability());
  static const std::vector<Case> all = cases();
  for (const Case& c : all) {
    auto reg = [&](const std::string& set, std::function<void()> f) {
      benchmark::RegisterBenchmark((c.name + "/" + set).c_str(),
                                   [&c, f](benchmark::State& s) { run(s, c, f); })
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
    };
    reg("optimized", [&c] {
      ts::KernelSetGuard g("optimized");
      c.touchstone();
    });
#ifdef TS_HAVE_TORCH
    reg("libtorch", c.aten);
#endif
    if (c.with_reference) {
      reg("reference", [&c] {
        ts::KernelSetGuard g("reference");
        c.touchstone();
      });
    }
  }
  register_stream(16 * kM, "16M");
  register_stream(128 * kM, "128M");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
