// The benchmark catalog: bytes and FLOPs by hand for a few ops, the model shapes, the
// --ops and --dtypes filters, the roofline percentage, the run statistics and the checks a run
// makes before it measures anything.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "catalog/bench.h"
#include "perf/probes.h"
#include "perf/runner.h"
#include "touchstone/cuda.h"

namespace {

using ts::catalog::BenchCase;
using ts::catalog::BenchOptions;

const BenchCase& find_case(const std::vector<BenchCase>& cases, const std::string& name) {
  for (const BenchCase& c : cases) {
    if (c.name() == name) return c;
  }
  throw std::runtime_error("no case " + name);
}

// Catalog options (aggregate initializers would trip -Wmissing-field-initializers).
BenchOptions opts(bool quick, std::string ops = "", std::vector<ts::ScalarType> dtypes = {}) {
  BenchOptions o;
  o.quick = quick;
  o.ops = std::move(ops);
  o.dtypes = std::move(dtypes);
  return o;
}

std::set<std::string> ops_of(const std::vector<BenchCase>& cases) {
  std::set<std::string> out;
  for (const BenchCase& c : cases) out.insert(c.op);
  return out;
}

TEST(PerfCatalog, ContiguousAddMovesThreeArraysAndDoesOneFlopPerElement) {
  const auto cases = ts::catalog::bench_cases(opts(true));
  const BenchCase& c = find_case(cases, "add/float32/1048576/contiguous");
  EXPECT_EQ(c.bytes, 3.0 * 4 * 1048576);  // a, b read, out written: 12 MiB
  EXPECT_EQ(c.flops, 1048576.0);
  EXPECT_EQ(c.family, "binary");
}

TEST(PerfCatalog, BroadcastAddReadsTheRowOnce) {
  const auto cases = ts::catalog::bench_cases(opts(true));
  const BenchCase& c = find_case(cases, "add/float32/1024x1024+1024/broadcast_row");
  EXPECT_EQ(c.bytes, 4.0 * (1048576 + 1024 + 1048576));
}

TEST(PerfCatalog, MatrixProductIsTwoFlopsPerMultiplyAdd) {
  const auto cases = ts::catalog::bench_cases(opts(true));
  const BenchCase& c = find_case(cases, "mm/float32/128x128x128/nn");
  EXPECT_EQ(c.flops, 2.0 * 128 * 128 * 128);  // 4194304
  EXPECT_EQ(c.bytes, 3.0 * 128 * 128 * 4);    // A, B read, C written
  const BenchCase& d = find_case(ts::catalog::bench_cases(opts(true, "mm", {ts::kDouble})),
                                 "mm/float64/128x128x128/nn");
  EXPECT_EQ(d.bytes, 3.0 * 128 * 128 * 8);
}

TEST(PerfCatalog, RowSumReadsTheMatrixAndWritesOneValuePerRow) {
  const auto cases = ts::catalog::bench_cases(opts(true));
  const BenchCase& c = find_case(cases, "sum/float32/1024x1024/dim1");
  EXPECT_EQ(c.bytes, 4.0 * 1048576 + 4.0 * 1024);
  EXPECT_EQ(c.flops, 1048576.0);
  const BenchCase& all = find_case(cases, "sum/float32/1024x1024/all_dims");
  EXPECT_EQ(all.bytes, 4.0 * 1048576 + 4.0);
}

TEST(PerfCatalog, SoftmaxCountsFourFlopsPerElement) {
  const auto cases = ts::catalog::bench_cases(opts(true));
  const BenchCase& c = find_case(cases, "softmax/float32/1024x1024/dim1");
  EXPECT_EQ(c.flops, 4.0 * 1048576);
  EXPECT_EQ(c.bytes, 2.0 * 4 * 1048576);
}

TEST(PerfCatalog, FullShapesAreLargerThanQuickOnes) {
  const auto full = ts::catalog::bench_cases(opts(false, "add"));
  const BenchCase& c = find_case(full, "add/float32/16777216/contiguous");
  EXPECT_EQ(c.bytes, 3.0 * 4 * 16777216);
  // Full runs only: the add on the STREAM probe's 128 M elements, a 1024^3 product.
  EXPECT_EQ(find_case(full, "add/float32/134217728/contiguous").bytes, 3.0 * 4 * 134217728);
  const auto mm = ts::catalog::bench_cases(opts(false, "mm"));
  EXPECT_EQ(find_case(mm, "mm/float32/1024x1024x1024/nn").flops, 2.0 * 1024 * 1024 * 1024);
  for (const BenchCase& q : ts::catalog::bench_cases(opts(true, "add,mm"))) {
    EXPECT_NE(q.shape, "134217728");
    EXPECT_NE(q.shape, "1024x1024x1024");
  }
}

// Every op has a case: tests/test_catalog.cpp. The model shapes: an MLP layer, attention's
// softmax and layer_norm, per-call batches.
TEST(PerfCatalog, ModelShapesHaveCases) {
  const std::set<std::string> covered = ops_of(ts::catalog::bench_cases(opts(true)));
  for (const char* m : {"mlp_layer", "attention_softmax", "attention_layer_norm", "small_ops_batch",
                        "add_1_element"}) {
    EXPECT_TRUE(covered.count(m)) << m;
  }
}

TEST(PerfCatalog, CaseNamesAreUnique) {
  std::set<std::string> names;
  for (const BenchCase& c : ts::catalog::bench_cases(opts(true))) {
    EXPECT_TRUE(names.insert(c.name()).second) << c.name();
  }
}

TEST(PerfCatalog, OpsFilterTakesExactNamesFamiliesAndGlobs) {
  EXPECT_EQ(ops_of(ts::catalog::bench_cases(opts(true, "add"))), std::set<std::string>{"add"});
  EXPECT_EQ(ops_of(ts::catalog::bench_cases(opts(true, "add*"))),
            (std::set<std::string>{"add", "addbmm", "addcmul", "addmm", "addmv", "add_1_element"}));
  EXPECT_EQ(ops_of(ts::catalog::bench_cases(opts(true, "ternary"))),
            (std::set<std::string>{"where", "lerp", "addcmul", "masked_fill"}));
  // Not an op or a family: a substring of op names.
  EXPECT_EQ(ops_of(ts::catalog::bench_cases(opts(true, "softmax"))),
            (std::set<std::string>{"softmax"}));
  EXPECT_EQ(ops_of(ts::catalog::bench_cases(opts(true, "_softmax"))),
            (std::set<std::string>{"log_softmax", "attention_softmax"}));
}

// Before: " mul" was a substring no op name holds, so "add, mul" selected add alone.
TEST(PerfCatalog, OpsPatternsAreTrimmedOfBlanks) {
  EXPECT_EQ(ts::catalog::op_patterns(" add ,\tmul,, "), (std::vector<std::string>{"add", "mul"}));
  EXPECT_EQ(ops_of(ts::catalog::bench_cases(opts(true, "add, mul"))),
            (std::set<std::string>{"add", "mul"}));
}

TEST(PerfCatalog, PatternsThatSelectNoCaseAreNamed) {
  EXPECT_EQ(ts::catalog::unmatched_patterns(opts(true, "add,nosuchop, zz*,binary,_softmax")),
            (std::vector<std::string>{"nosuchop", "zz*"}));
  // A dtype filter does not make a pattern unknown: int32 has no mm case, yet mm is an op.
  EXPECT_TRUE(ts::catalog::unmatched_patterns(opts(true, "mm", {ts::kInt})).empty());
  EXPECT_TRUE(ts::catalog::unmatched_patterns(opts(true, "")).empty());
}

TEST(PerfCatalog, DtypesFilterKeepsTheDtypesEachOpAllows) {
  const auto cases =
      ts::catalog::bench_cases(opts(true, "exp,bitwise_and", {ts::kDouble, ts::kInt}));
  std::set<std::string> names;
  for (const BenchCase& c : cases) names.insert(c.op + "/" + std::string(ts::dtype_name(c.dtype)));
  EXPECT_EQ(names, (std::set<std::string>{"exp/float64", "bitwise_and/int32"}));
}

TEST(PerfRoofline, PercentIsTheRooflineTimeOverTheMeasuredTime) {
  ts::perf::Roofline r;
  r.copy_gbs = 10;
  r.add_gbs = 8;  // the roof is the better of the two: 10 GB/s
  r.sgemm_gflops = 100;
  r.dgemm_gflops = 50;
  // 1 GB at 10 GB/s takes 0.1 s; measured 0.2 s.
  EXPECT_DOUBLE_EQ(ts::perf::roofline_pct(r, ts::kFloat, 1e9, 0, 0.2), 50.0);
  // 100 GFLOP: 1 s at the float32 peak, 2 s at the float64 one; measured 2 s.
  EXPECT_DOUBLE_EQ(ts::perf::roofline_pct(r, ts::kFloat, 1e6, 1e11, 2.0), 50.0);
  EXPECT_DOUBLE_EQ(ts::perf::roofline_pct(r, ts::kDouble, 1e6, 1e11, 2.0), 100.0);
  // The slower roof bounds: 1 GB (0.1 s) and 1 GFLOP (0.01 s) -> 0.1 s.
  EXPECT_DOUBLE_EQ(ts::perf::roofline_pct(r, ts::kFloat, 1e9, 1e9, 0.1), 100.0);
  r.read_gbs = 20;  // a read-only loop outruns copy: the DRAM roof is 20 GB/s now
  EXPECT_DOUBLE_EQ(ts::perf::roofline_pct(r, ts::kFloat, 1e9, 0, 0.1), 50.0);
}

TEST(PerfRoofline, ACaseThatFitsInACacheIsHeldToThatCachesRoof) {
  ts::perf::Roofline r;
  r.copy_gbs = 10;
  r.cache_gbs = {{256e3, 200}, {4e6, 80}, {64e6, 30}};  // footprint bytes, GB/s
  EXPECT_EQ(r.bandwidth_gbs(), 10);
  EXPECT_EQ(r.bandwidth_gbs(1e3), 200);  // below the smallest probe: its roof
  EXPECT_EQ(r.bandwidth_gbs(256e3), 200);
  EXPECT_EQ(r.bandwidth_gbs(1e6), 200);  // the probe at the largest footprint <= 1 MB
  EXPECT_EQ(r.bandwidth_gbs(12e6), 80);
  EXPECT_EQ(r.bandwidth_gbs(64e6), 30);
  EXPECT_EQ(r.bandwidth_gbs(1e9), 10);  // past the largest probe: DRAM
  // 12 MB at 80 GB/s is 150 us; measured 300 us.
  EXPECT_DOUBLE_EQ(ts::perf::roofline_pct(r, ts::kFloat, 12e6, 0, 300e-6), 50.0);
}

TEST(PerfRunner, SummaryGivesMedianMinMaxMeanAndSampleStddev) {
  ts::perf::SetResult r;
  r.samples_s = {3, 1, 2};
  ts::perf::summarize(r);
  EXPECT_EQ(r.median_s, 2);
  EXPECT_EQ(r.min_s, 1);
  EXPECT_EQ(r.max_s, 3);
  EXPECT_EQ(r.mean_s, 2);
  EXPECT_DOUBLE_EQ(r.stddev_s, 1);  // sqrt(((1)^2 + 0 + (1)^2) / 2)
  r.samples_s = {4, 1, 3, 2};
  ts::perf::summarize(r);
  EXPECT_EQ(r.median_s, 2.5);
}

// One tiny run (neg on 1 M floats, the optimized set, one short repetition, no probes): a
// check that fails to stop it still ends in a fraction of a second, and the test fails.
ts::perf::RunOptions tiny() {
  ts::perf::RunOptions o;
  o.kernel_sets = {"optimized"};
  o.catalog.quick = true;
  o.catalog.ops = "neg";
  o.repetitions = 1;
  o.min_time = 0.001;
  o.probes = false;
  return o;
}

// The message of the ts::Error run_bench throws ("" when the run completes).
std::string bench_error(const ts::perf::RunOptions& o) {
  std::ostringstream progress;
  try {
    ts::perf::run_bench(o, progress);
  } catch (const ts::Error& e) {
    return e.what();
  }
  return "";
}

// Before: --ops nosuchop ran 0 cases and exited 0.
TEST(PerfRunner, AnOpsPatternThatSelectsNoCaseIsAnError) {
  ts::perf::RunOptions o = tiny();
  o.catalog.ops = "neg,nosuchop";
  EXPECT_EQ(bench_error(o).rfind("bench: --ops: pattern 'nosuchop' selects no benchmark case", 0),
            0u)
      << bench_error(o);
}

// Note [CUDA runs]: the device is checked before anything runs; only cpu and cuda are devices.
TEST(PerfRunner, TheDeviceIsCheckedFirst) {
  ts::perf::RunOptions o = tiny();
  o.device = "tpu";
  EXPECT_EQ(bench_error(o),
            "bench: --device must be cpu or cuda (the current CUDA device), got 'tpu'");
  o.device = "cuda";
#if defined(TS_HAVE_CUDA)
  if (ts::cuda::device_count() == 0) {
    EXPECT_EQ(bench_error(o), "bench: --device cuda: no CUDA device is visible");
  }
#else
  EXPECT_EQ(bench_error(o),
            "bench: --device cuda: this build has no CUDA kernel set (configure with the cuda "
            "preset)");
#endif
}

TEST(PerfRunner, AnEmptySelectionIsAnErrorUnlessAllowed) {
  ts::perf::RunOptions o = tiny();
  o.catalog.ops = "mm";
  o.catalog.dtypes = {ts::kInt};  // mm has no int32 case
  EXPECT_EQ(bench_error(o),
            "bench: the selection is empty: no case of --ops 'mm' runs in --dtypes int32 "
            "(--allow-empty accepts an empty run)");
  o.allow_empty = true;
  std::ostringstream progress;
  EXPECT_EQ(ts::perf::run_bench(o, progress).cases.size(), 0u);
}

// Before: negative values meant "the default", a duplicated set was timed twice under one name
// and --plant-slowdown took "2x" for 2.
TEST(PerfRunner, BadOptionsAreErrorsNamingTheFlag) {
  auto error_with = [](auto change) {
    ts::perf::RunOptions o = tiny();
    change(o);
    return bench_error(o);
  };
  using O = ts::perf::RunOptions;
  EXPECT_EQ(error_with([](O& o) { o.threads = -3; }),
            "bench: --threads must be a positive number, got -3");
  EXPECT_EQ(error_with([](O& o) { o.repetitions = -1; }),
            "bench: --repetitions must be a positive number, got -1");
  EXPECT_EQ(error_with([](O& o) { o.min_time = -0.5; }),
            "bench: --min-time must be a positive number of seconds, got -0.5");
  EXPECT_EQ(error_with([](O& o) {
              o.kernel_sets = {"optimized", "optimized"};
            }),
            "bench: --kernels lists 'optimized' twice");
  EXPECT_EQ(error_with([](O& o) {
              o.kernel_sets = {"nosuchset"};
            }).rfind("bench: --kernels: no kernel set named 'nosuchset' (known: ", 0),
            0u);
  for (const char* bad : {"neg", "neg=", "=2"}) {
    EXPECT_EQ(error_with([&](O& o) { o.slowdown = bad; }),
              std::string("bench: --plant-slowdown expects PATTERN=FACTOR (such as add=2), got '") +
                  bad + "'");
  }
  for (const char* bad : {"neg=2x", "neg=0", "neg=-2", "neg=9999999"}) {
    EXPECT_EQ(error_with([&](O& o) {
                o.slowdown = bad;
              }).rfind("bench: --plant-slowdown: FACTOR must be an integer from 1 to 999999", 0),
              0u)
        << bad;
  }
  EXPECT_EQ(error_with([](O& o) { o.slowdown = "add=2"; }),
            "bench: --plant-slowdown: pattern 'add' matches no selected op");
}

TEST(PerfRunner, APlantedSlowdownParsesPatternAndFactor) {
  EXPECT_EQ(ts::perf::parse_slowdown("add*=3"), (std::pair<std::string, int>{"add*", 3}));
  EXPECT_EQ(ts::perf::parse_slowdown(""), (std::pair<std::string, int>{"", 1}));
}

}  // namespace
