// The case catalog's completeness against op_list.def: every op has a conformance entry, a
// benchmark case, fuzzer statements and a kernel in the reference set, every differentiable
// kernel op a derivative; and a plain entry feeds all three harnesses from its one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "catalog/bench.h"
#include "fuzz/program.h"
#include "touchstone/autograd.h"
#include "touchstone/touchstone.h"

namespace {

using ts::catalog::BenchCase;
using ts::catalog::OpEntry;

std::set<std::string> benchmarked_ops(bool quick) {
  ts::catalog::BenchOptions o;
  o.quick = quick;
  std::set<std::string> out;
  for (const BenchCase& c : ts::catalog::bench_cases(o)) out.insert(c.op);
  return out;
}

TEST(CatalogCompleteness, EveryOpHasAConformanceEntryNamedAfterIt) {
  for (const ts::OpInfo& op : ts::all_ops()) {
    const std::vector<const OpEntry*> entries = ts::catalog::entries_of(op.id);
    ASSERT_FALSE(entries.empty()) << op.name << " has no catalog entry (catalog/<family>.cpp)";
    EXPECT_EQ(entries.front()->name, op.name) << op.name << ": no entry named after the op";
    for (const OpEntry* e : entries) {
      EXPECT_TRUE(e->samples && e->run) << e->name << " has no samples or no functional form";
      EXPECT_EQ(e->op_name(), op.name);
    }
  }
}

TEST(CatalogCompleteness, EveryOpHasABenchmarkCaseInQuickAndFullRuns) {
  for (bool quick : {true, false}) {
    const std::set<std::string> covered = benchmarked_ops(quick);
    for (const ts::OpInfo& op : ts::all_ops()) {
      EXPECT_TRUE(covered.count(std::string(op.name)))
          << op.name << " has no benchmark case (OpEntry::bench)" << (quick ? " in --quick" : "");
    }
  }
}

TEST(CatalogCompleteness, EveryOpRunsOnTheReferenceSet) {
  const ts::KernelSetId reference = *ts::find_kernel_set("reference");
  for (const ts::OpInfo& op : ts::all_ops()) {
    EXPECT_FALSE(ts::supported_dtypes(op.id, ts::kCPU, reference).empty())
        << op.name << " has no kernel in the reference set";
  }
}

TEST(CatalogCompleteness, EveryDifferentiableKernelOpHasADerivative) {
  for (const ts::OpInfo& op : ts::all_ops()) {
    if (op.kind != ts::OpKind::Kernel || !op.differentiable) continue;
    EXPECT_TRUE(ts::autograd::has_derivative(op.id))
        << op.name << " is differentiable in op_list.def but has no derivative formula";
  }
}

TEST(CatalogCompleteness, EveryOpHasAFuzzerStatement) {
  for (const ts::OpInfo& op : ts::all_ops()) {
    const std::string name(op.name);
    EXPECT_TRUE(ts::fuzz::find_spec(name) || ts::fuzz::find_spec(name + "_") ||
                ts::fuzz::find_spec(name + "_out"))
        << op.name << " has no statement in the fuzzer's op table";
  }
}

// A plain op (TS_UNARY_ENTRY, TS_BINARY_ENTRY) gets every form, its ranges, its benchmark case
// (inputs drawn from those ranges) and its fuzzer statements from its one catalog line.
TEST(CatalogPlainEntries, OneLineFeedsConformanceBenchmarkAndFuzzer) {
  const OpEntry& exp = *ts::catalog::entries_of(ts::OpId::exp).front();
  EXPECT_TRUE(exp.run && exp.run_out && exp.run_inplace && exp.bench);
  ASSERT_EQ(exp.ranges.size(), 1u);
  EXPECT_EQ(exp.ranges[0].lo, -4);
  const OpEntry& atan2 = *ts::catalog::entries_of(ts::OpId::atan2).front();
  EXPECT_EQ(atan2.ranges.size(), 2u);
  for (const char* s : {"exp", "exp_", "exp_out", "atan2", "atan2_", "atan2_out"}) {
    EXPECT_NE(ts::fuzz::find_spec(s), nullptr) << s;
  }
  ts::catalog::BenchOptions o;
  o.quick = true;
  o.ops = "log";
  const std::vector<BenchCase> cases = ts::catalog::bench_cases(o);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name(), "log/float32/1048576/contiguous");
  EXPECT_EQ(cases[0].bytes, 2.0 * 4 * 1048576);  // read once, written once
  // Its inputs come from log's range [0.05, 8): every value has a finite logarithm.
  const OpEntry& log = *ts::catalog::entries_of(ts::OpId::log).front();
  ts::KernelSetGuard g("reference");
  const ts::Tensor x = ts::catalog::make_input({4096}, ts::kFloat, log.ranges.at(0));
  EXPECT_GE(ts::amin(x).item<double>(), 0.05);
  EXPECT_LT(ts::amax(x).item<double>(), 8);
  EXPECT_GT(ts::amax(x).item<double>(), 7.9);  // the whole range, not a corner of it
  const ts::Tensor b = ts::catalog::make_input({4096}, ts::kBool, log.ranges.at(0));
  const double true_share = ts::mean(b.to(ts::kDouble)).item<double>();
  EXPECT_GT(true_share, 0.4);
  EXPECT_LT(true_share, 0.6);
}

// The result dtype of the benchmark's bytes comes from the op itself: compares write bool.
TEST(CatalogPlainEntries, BenchmarkBytesFollowTheResultDtype) {
  ts::catalog::BenchOptions o;
  o.quick = true;
  o.ops = "lt";
  o.dtypes = {ts::kDouble};
  const std::vector<BenchCase> cases = ts::catalog::bench_cases(o);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].bytes, (8.0 + 8.0 + 1.0) * 1048576);
  EXPECT_EQ(cases[0].flops, 0);
}

// Note [ULP budgets]: every elementwise entry has a budget row in catalog/budgets.cpp (an entry
// without one keeps assert_close's rtol/atol: add its row, with the comment that justifies it).
TEST(Catalog, EveryElementwiseOpHasABudget) {
  for (const OpEntry& e : ts::catalog::entries()) {
    if (!ts::catalog::judged_in_ulp(e)) continue;
    EXPECT_TRUE(ts::catalog::ulp_budget(e, ts::kFloat).has_value())
        << e.name << " (" << e.family << ") has no ULP budget: add a row to catalog/budgets.cpp";
  }
}

// tests/CMakeLists.txt runs one conform.optimized.<family> test per family it lists: a family
// missing there would never run in ctest (conv, norm, shape, sort, scan and model once were).
TEST(Catalog, EveryFamilyHasAConformanceTest) {
  std::set<std::string> listed;
  std::string all = TS_CONFORM_FAMILIES;
  for (size_t b = 0, e = 0; b <= all.size(); b = e + 1) {
    e = std::min(all.find(',', b), all.size());
    listed.insert(all.substr(b, e - b));
  }
  std::set<std::string> families;
  for (const OpEntry& e : ts::catalog::entries()) families.insert(e.family);
  for (const std::string& f : families) {
    EXPECT_TRUE(listed.count(f)) << "family '" << f << "' has no "
                                 << "conform.optimized test: add it to TS_CONFORM_FAMILIES in "
                                    "tests/CMakeLists.txt";
  }
  for (const std::string& f : listed) EXPECT_TRUE(families.count(f)) << f << ": no such family";
}

// Edge values of the integer dtypes: the limits, their neighbours and -2..2, where ATen wraps.
TEST(Catalog, IntegerEdgeValuesHoldTheLimits) {
  ts::KernelSetGuard g("reference");
  const ts::Tensor v = ts::catalog::edge_values(ts::kChar).to(ts::kLong).contiguous();
  const std::vector<int64_t> got(v.data_ptr<int64_t>(), v.data_ptr<int64_t>() + v.numel());
  EXPECT_EQ(got, (std::vector<int64_t>{-128, -127, -2, -1, 0, 1, 2, 126, 127}));
  const ts::Tensor u = ts::catalog::edge_values(ts::kByte).to(ts::kLong).contiguous();
  EXPECT_EQ(std::vector<int64_t>(u.data_ptr<int64_t>(), u.data_ptr<int64_t>() + u.numel()),
            (std::vector<int64_t>{0, 1, 2, 127, 128, 254, 255}));
  EXPECT_EQ(ts::catalog::kLargeNumel, 65543);
}

}  // namespace
