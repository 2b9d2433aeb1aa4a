// The conformance harness (conformance/): comparison, layouts, runner, report, and a kernel set
// with planted bugs ("planted") that the runner must catch case by case.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include "conformance/compare.h"
#include "conformance/guard.h"
#include "conformance/layouts.h"
#include "conformance/report.h"
#include "conformance/runner.h"
#include "error_text.h"
#include "reports/files.h"
#include "reports/text.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::conformance;
using ts::kDouble, ts::kFloat, ts::kInt, ts::kHalf, ts::Tensor;
using ts::catalog::KnownDifference;
using ts::catalog::OpEntry;
using ts::testing::error_text;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor floats(std::initializer_list<double> v, ts::ScalarType dtype = kFloat) {
  ts::KernelSetGuard g("reference");
  return ts::tensor(v, kDouble).to(dtype);
}

// ---- compare ----

// Note [Tolerance model]: an elementwise op's budget in ULPs of the reference's value.
TEST(ConformanceCompare, UlpToleranceCountsStepsFromTheReference) {
  const float r = 1.5f, one_up = std::nextafter(r, 2.0f), two_up = std::nextafter(one_up, 2.0f);
  Tolerance t;
  t.ulp = 1;
  EXPECT_TRUE(compare(floats({one_up}), floats({r}), t).ok);
  const Comparison c = compare(floats({two_up, 3}), floats({r, 3}), t);
  EXPECT_FALSE(c.ok);
  EXPECT_DOUBLE_EQ(c.max_ulp, 2);
  EXPECT_NE(c.message.find("element 0 is 1.50000024, reference 1.5 (2 ULP, tolerance 1 ULP)"),
            std::string::npos)
      << c.message;
  Tolerance exact;  // budget 0: equality; the message still counts ULPs
  EXPECT_NE(compare(floats({one_up}), floats({r}), exact).message.find("(1 ULP, tolerance 0 ULP)"),
            std::string::npos);
  // float16: 1 + 2^-10 is one step above 1.
  EXPECT_DOUBLE_EQ(ulp_distance(1 + 1.0 / 1024, 1, kHalf), 1);
  EXPECT_DOUBLE_EQ(ulp_of(1, kHalf), 1.0 / 1024);
  EXPECT_DOUBLE_EQ(unit_roundoff(kFloat), std::ldexp(1.0, -24));
}

// Within the tolerance but beyond the budget: passes, with a warning naming the element.
TEST(ConformanceCompare, BeyondTheBudgetIsAWarning) {
  const float r = 0.75f, two_up = std::nextafter(std::nextafter(r, 1.0f), 1.0f);
  Tolerance t;
  t.ulp = 3;
  t.has_budget = true;
  t.budget.ulp = 1;
  const Comparison c = compare(floats({0.25, two_up}), floats({0.25, r}), t);
  EXPECT_TRUE(c.ok);
  EXPECT_TRUE(c.warning);
  EXPECT_NE(c.message.find("element 1 is 0.750000119, reference 0.75 (2 ULP; budget 1 ULP)"),
            std::string::npos)
      << c.message;
  EXPECT_FALSE(compare(floats({0.25, r}), floats({0.25, r}), t).warning);
}

// neg(+0) = -0: where the tolerance compares signs, +0 for -0 is a mismatch that says so.
TEST(ConformanceCompare, SignedZerosDifferWhereSignsAreCompared) {
  Tolerance t;
  EXPECT_TRUE(compare(floats({0.0}), floats({-0.0}), t).ok);
  t.signed_zeros = true;
  const Comparison c = compare(floats({1, 0.0}), floats({1, -0.0}), t);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find("element 1 is +0, reference -0 (the sign of zero)"), std::string::npos)
      << c.message;
  EXPECT_TRUE(compare(floats({-0.0}), floats({-0.0}), t).ok);
}

// Note [Summation bound]: 1 ULP plus scale_k times the element's scale (u sum|x|).
TEST(ConformanceCompare, SummationBoundFollowsEachElementsScale) {
  Tolerance t;
  t.ulp = 1;
  t.scale_k = 4 * unit_roundoff(kFloat);
  t.scale = {4096, 1};  // sum|x| per output element
  // 4 u 4096 = 2^-10 plus ulp(2048) = 2^-12: 2048 + 2^-10 passes, 2048 + 2^-8 does not.
  EXPECT_TRUE(compare(floats({2048 + 1.0 / 1024, 1}), floats({2048, 1}), t).ok);
  const Comparison c = compare(floats({2048 + 1.0 / 256, 1}), floats({2048, 1}), t);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find("(error 0.00390625, bound 0.00122070312)"), std::string::npos)
      << c.message;
}

TEST(ConformanceCompare, OneUlpPassesForFloat32) {
  const float one = 1.0f, next = std::nextafter(one, 2.0f);
  const Comparison c = compare(floats({next, 3}), floats({one, 3}), default_tolerance(kFloat));
  EXPECT_TRUE(c.ok) << c.message;
  EXPECT_DOUBLE_EQ(c.max_ulp, 1.0);
  EXPECT_GT(c.max_abs_err, 0.0);
}

TEST(ConformanceCompare, RelativeErrorOf1em3FailsForFloat32) {
  const Comparison c = compare(floats({100.1, 3}), floats({100, 3}), default_tolerance(kFloat));
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_NEAR(c.max_rel_err, 1e-3, 1e-6);
  EXPECT_NE(c.message.find("element 0"), std::string::npos) << c.message;
}

TEST(ConformanceCompare, NaNPositionsMustMatch) {
  const Tolerance tol = default_tolerance(kDouble);
  EXPECT_TRUE(compare(floats({kNaN, 1}, kDouble), floats({kNaN, 1}, kDouble), tol).ok);
  EXPECT_FALSE(compare(floats({1, kNaN}, kDouble), floats({kNaN, 1}, kDouble), tol).ok);
  EXPECT_FALSE(compare(floats({kNaN}, kDouble), floats({0}, kDouble), tol).ok);
}

// A NaN-only mismatch has max abs/rel/ULP 0: the message names the element and both values.
TEST(ConformanceCompare, NaNOnlyMismatchesSaySo) {
  const Tolerance tol = default_tolerance(kFloat);
  const Comparison got_number = compare(floats({2, 1.5, 3}), floats({2, kNaN, 3}), tol);
  EXPECT_FALSE(got_number.ok);
  EXPECT_EQ(got_number.max_abs_err, 0.0);
  EXPECT_EQ(got_number.message, "NaN mismatch at index 1: expected nan, got 1.5");
  const Comparison got_nan = compare(floats({kNaN, 1, kNaN}), floats({0.25, 1, -4}), tol);
  EXPECT_EQ(got_nan.message,
            "NaN mismatch at index 0: expected 0.25, got nan (2 of 3 elements differ in NaN only)");
  // With a value mismatch too, the usual message (first mismatch, count) stays.
  const Comparison mixed = compare(floats({kNaN, 7}), floats({1, 1}), tol);
  EXPECT_EQ(mixed.message.rfind("2 of 2 elements differ; first: element 0 is nan", 0), 0u)
      << mixed.message;
}

TEST(ConformanceCompare, InfinitiesMustBeEqual) {
  const double inf = std::numeric_limits<double>::infinity();
  const Tolerance tol = default_tolerance(kDouble);
  EXPECT_TRUE(compare(floats({inf, -inf}, kDouble), floats({inf, -inf}, kDouble), tol).ok);
  EXPECT_FALSE(compare(floats({inf}, kDouble), floats({-inf}, kDouble), tol).ok);
  EXPECT_FALSE(compare(floats({1e300}, kDouble), floats({inf}, kDouble), tol).ok);
}

TEST(ConformanceCompare, IntegersAreExact) {
  const Tensor want = ts::tensor({1, 2, 3}, kInt);
  EXPECT_TRUE(compare(ts::tensor({1, 2, 3}, kInt), want, default_tolerance(kInt)).ok);
  const Comparison c = compare(ts::tensor({1, 3, 3}, kInt), want, default_tolerance(kInt));
  EXPECT_FALSE(c.ok);
  EXPECT_DOUBLE_EQ(c.max_abs_err, 1.0);
  // int64 beyond 2^53 is compared exactly, not through double.
  const int64_t big = (int64_t{1} << 60) + 1;
  EXPECT_FALSE(compare(ts::tensor({big}), ts::tensor({big - 1}), {}).ok);
}

TEST(ConformanceCompare, ShapeAndDtypeMustMatch) {
  const Tolerance tol = default_tolerance(kFloat);
  EXPECT_FALSE(compare(floats({1, 2}), floats({1, 2}).view({2, 1}), tol).ok);
  EXPECT_FALSE(compare(floats({1, 2}, kDouble), floats({1, 2}), tol).ok);
}

TEST(ConformanceCompare, Float16UsesItsOwnTolerance) {
  const Tolerance tol = default_tolerance(kHalf);
  EXPECT_DOUBLE_EQ(tol.rtol, 1e-3);
  // 1 ulp of float16 at 1.0 is 2^-10: within rtol; 4 ulps are not.
  EXPECT_TRUE(compare(floats({1 + 1.0 / 1024}, kHalf), floats({1}, kHalf), tol).ok);
  EXPECT_FALSE(compare(floats({1 + 4.0 / 1024}, kHalf), floats({1}, kHalf), tol).ok);
  EXPECT_DOUBLE_EQ(ulp_distance(1 + 4.0 / 1024, 1, kHalf), 4.0);
}

TEST(ConformanceCompare, ReductionToleranceScalesWithSqrtOfSummands) {
  const Tolerance t = scaled_for_summands(default_tolerance(kFloat), 100);
  EXPECT_DOUBLE_EQ(t.rtol, 1.3e-5);
  EXPECT_DOUBLE_EQ(t.atol, 1e-4);
  EXPECT_DOUBLE_EQ(scaled_for_summands({1, 1}, 0).rtol, 1.0);
}

TEST(ConformanceCompare, MistrustedOutputs) {
  EXPECT_TRUE(is_mistrusted(floats({0, 0, 0})));
  EXPECT_TRUE(is_mistrusted(floats({kNaN, kNaN})));
  EXPECT_TRUE(is_mistrusted(floats({2.5, 2.5})));
  EXPECT_TRUE(is_mistrusted(ts::empty({0})));
  EXPECT_FALSE(is_mistrusted(floats({1, 2})));
  EXPECT_FALSE(is_mistrusted(floats({3})));
  EXPECT_TRUE(compare(floats({0, 0}), floats({0, 0}), {}).mistrusted);
  EXPECT_TRUE(is_constant(floats({kNaN, kNaN})));
  EXPECT_TRUE(is_constant(floats({4})));
  EXPECT_FALSE(is_constant(floats({4, 4, 5})));
}

// Note [Constant by definition] and Note [Constant by layout]: zeros_like's zeros, floor's zero
// gradient and the expanded layout of a 1-D input are trusted; a 0-dim argmax (index 0 of one
// element) stays mistrusted, and an empty sample counts outside the non-empty share.
TEST(ConformanceRunner, ConstantByDefinitionOrLayoutIsTrusted) {
  RunOptions o;
  o.ops = "zeros_like,floor,argmax";
  o.dtypes = {kFloat};
  const RunResult r = run_conformance(o);
  int64_t by_layout = 0, argmax_0dim = 0, empty = 0;
  for (const CaseResult& c : r.cases) {
    if (c.op == "zeros_like" && c.numel > 0) {
      EXPECT_FALSE(c.mistrusted) << c.sample;
    }
    if (c.op == "floor" && c.check == "backward" && c.numel > 0) {
      EXPECT_FALSE(c.mistrusted) << c.sample << "/" << c.layout;
    }
    if (c.op == "floor" && c.check == "forward" && c.layout == "expanded" && c.sample == "vec7") {
      EXPECT_FALSE(c.mistrusted);
      ++by_layout;
    }
    if (c.op == "argmax" && c.sample == "scalar" && c.layout == "contiguous") {
      EXPECT_TRUE(c.mistrusted);
      ++argmax_0dim;
    }
    empty += c.numel == 0;
  }
  EXPECT_GT(by_layout, 0);
  EXPECT_GT(argmax_0dim, 0);
  const Summary s = r.summary();
  EXPECT_EQ(s.nonempty, s.cases - empty);
  EXPECT_GT(s.nonempty_mistrusted, 0);
  EXPECT_LT(s.nonempty_mistrusted, s.mistrusted);
}

// ---- layouts ----

Tensor iota(std::vector<int64_t> shape) {
  ts::KernelSetGuard g("reference");
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return ts::arange(n, kFloat).view(shape);
}

void expect_same_values(const Tensor& got, const Tensor& want) {
  const Comparison c = compare(got, want, {});
  EXPECT_TRUE(c.ok) << c.message;
}

TEST(ConformanceLayouts, TransposedSwapsStrides) {
  const Tensor t = iota({3, 4});
  const Tensor v = transposed(t);
  EXPECT_EQ(v.sizes(), t.sizes());
  EXPECT_EQ(v.strides(), (std::vector<int64_t>{1, 3}));
  expect_same_values(v, t);
}

TEST(ConformanceLayouts, PermutedReversesStrides) {
  const Tensor t = iota({2, 3, 5});
  const Tensor v = permuted(t);
  EXPECT_EQ(v.strides(), (std::vector<int64_t>{1, 2, 6}));
  expect_same_values(v, t);
  const Tensor m = iota({3, 4});
  EXPECT_TRUE(permuted(m).is_same(m));  // rank 2: left as it is
}

TEST(ConformanceLayouts, SlicedAndOffset) {
  const Tensor t = iota({3, 4});
  const Tensor s = sliced_step2(t);
  EXPECT_EQ(s.strides(), (std::vector<int64_t>{8, 2}));
  expect_same_values(s, t);
  const Tensor o = offset(t);
  EXPECT_EQ(o.storage_offset(), 3);
  EXPECT_TRUE(o.is_contiguous());
  expect_same_values(o, t);
  expect_same_values(offset(iota({})), iota({}));
}

TEST(ConformanceLayouts, ExpandedHasAZeroStride) {
  const Tensor t = iota({3, 4});
  const Tensor e = expanded(t);
  EXPECT_EQ(e.sizes(), t.sizes());
  EXPECT_EQ(e.stride(0), 0);
  ts::KernelSetGuard g("reference");
  expect_same_values(e, t.narrow(0, 2, 1).expand({3, 4}));  // the slice 2/3 along dim 0
  const Tensor one = iota({1, 1});
  EXPECT_TRUE(expanded(one).is_same(one));  // no dim to expand
}

TEST(ConformanceLayouts, VariantsPerRank) {
  std::vector<std::string> names;
  for (const LayoutVariant& v : input_layouts({iota({7})})) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"contiguous", "sliced_step2", "offset", "expanded"}));
  names.clear();
  for (const LayoutVariant& v : input_layouts({iota({2, 3, 5})})) names.push_back(v.name);
  EXPECT_EQ(names.size(), 6u);
  for (const LayoutVariant& v : input_layouts({iota({2, 3, 5}), iota({5})})) {
    EXPECT_EQ(v.inputs.size(), 2u) << v.name;
  }
  const std::vector<OutLayout> outs = out_layouts({iota({3, 4})});
  ASSERT_EQ(outs.size(), 3u);
  EXPECT_EQ(outs[0].outs[0].numel(), 0);
  EXPECT_FALSE(outs[1].outs[0].is_contiguous());
  EXPECT_EQ(outs[2].outs[0].storage_offset(), 3);
}

// ---- catalog and runner ----

TEST(ConformanceCatalog, InputsAreDeterministicAndPerCase) {
  const SampleContext a("exp", kFloat), b("exp", kFloat), c("log", kFloat);
  const Tensor x = a.input("big", 0, {37, 53}), y = b.input("big", 0, {37, 53});
  EXPECT_TRUE(compare(x, y, {}).ok);
  EXPECT_FALSE(compare(x, c.input("big", 0, {37, 53}), {}).ok);
  EXPECT_FALSE(compare(x, a.input("big", 1, {37, 53}), {}).ok);
  // Ranges are honoured, integer dtypes get integers.
  ts::KernelSetGuard g("reference");
  const Tensor p = SampleContext("log", kDouble).input("s", 0, {1000}, {0.5, 2});
  EXPECT_GE(ts::amin(p).item<double>(), 0.5);
  EXPECT_LT(ts::amax(p).item<double>(), 2.0);
  const Tensor i = SampleContext("add", kInt).input("s", 0, {1000}, {-3, 3});
  EXPECT_EQ(ts::amin(i).item<int64_t>(), -3);
  EXPECT_EQ(ts::amax(i).item<int64_t>(), 2);
}

TEST(ConformanceCatalog, PatternsSelectOps) {
  EXPECT_TRUE(matches_pattern("sum", "sum"));
  EXPECT_FALSE(matches_pattern("cumsum", "sum"));  // an exact name selects only itself
  EXPECT_TRUE(matches_pattern("cumsum", "*sum"));
  EXPECT_TRUE(matches_pattern("bitwise_xor", "bitwise"));  // no exact name: a substring
  EXPECT_FALSE(matches_pattern("gelu.tanh", "gelu"));
  EXPECT_TRUE(matches_pattern("gelu.tanh", "neg,gelu*"));
  EXPECT_TRUE(matches_pattern("anything", ""));
}

TEST(ConformanceRunner, OptimizedPassesOnAFewOps) {
  RunOptions o;
  o.kernel_set = "optimized";
  o.ops = "neg,add,sum,amax";
  const RunResult r = run_conformance(o);
  const Summary s = r.summary();
  EXPECT_GT(s.cases, 1000);
  EXPECT_EQ(s.passed, s.cases);
  std::set<std::string> ops, layouts;
  for (const CaseResult& c : r.cases) {
    ops.insert(c.op);
    layouts.insert(c.layout);
    EXPECT_EQ(c.status, "passed") << c.op << " " << c.dtype << " " << c.sample << "/" << c.layout
                                  << ": " << c.message;
  }
  EXPECT_EQ(ops, (std::set<std::string>{"neg", "add", "sum", "amax"}));
  EXPECT_EQ(layouts.size(), 9u);
}

TEST(ConformanceRunner, CaseFilterSelectsOneCase) {
  RunOptions o;
  o.ops = "exp";
  o.dtypes = {kFloat};
  o.case_filter = "big/transposed/functional/forward";
  const RunResult r = run_conformance(o);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].sample, "big");
  EXPECT_EQ(r.cases[0].layout, "transposed");
  EXPECT_EQ(r.cases[0].dtype, "float32");
  // Leaving off the variant and check: the in-place and backward cases of that layout too.
  o.case_filter = "big/transposed";
  std::set<std::string> kinds;
  for (const CaseResult& c : run_conformance(o).cases) kinds.insert(c.variant + "/" + c.check);
  EXPECT_EQ(kinds, (std::set<std::string>{"functional/forward", "inplace/forward",
                                          "functional/backward"}));
}

TEST(ConformanceRunner, GradcheckRunsInFloat64OnSmoothSamples) {
  RunOptions o;
  o.ops = "sigmoid";
  o.dtypes = {kDouble};
  std::set<std::string> checked;
  for (const CaseResult& c : run_conformance(o).cases) {
    if (c.check == "gradcheck") checked.insert(c.sample);
    EXPECT_EQ(c.status, "passed") << c.sample << "/" << c.layout << " " << c.check;
  }
  // Not on edge values (not smooth) nor on empty inputs (nothing to check); 37x53 is too big.
  EXPECT_EQ(checked, (std::set<std::string>{"scalar", "vec7", "mat3x4", "cube", "size1"}));
}

// A set without the op's kernel (a device the set has no kernel on, say) gets an error naming the
// missing kernel, also where the reference refuses the input for a reason of its own: the
// refusals do not compare.
TEST(ConformanceRunner, AMissingKernelIsAnErrorWhereTheReferenceRaisesToo) {
  ts::register_kernel_set("test_without_kernels");
  RunOptions o;
  o.kernel_set = "test_without_kernels";
  o.ops = "masked_select";
  o.dtypes = {kFloat};
  const RunResult r = run_conformance(o);
  // The reference refuses the gradient of the 0-dim sample (index_put's shape check) where the
  // candidate has no masked_select to start with.
  bool reference_raised = false;
  for (const CaseResult& c : r.cases) {
    EXPECT_EQ(c.status, "error") << c.sample << " " << c.check << ": " << c.message;
    EXPECT_NE(c.message.find("has no kernel for dtype float32"), std::string::npos) << c.message;
    reference_raised = reference_raised || (c.sample == "scalar" && c.check == "backward");
  }
  EXPECT_TRUE(reference_raised);
}

// Note [Known answers]: the expected outputs judge every set, the reference included, on the
// layouts that keep the values and in the out= form; expanded inputs (other values) and the
// in-place form are judged against the reference.
TEST(ConformanceRunner, KnownAnswersJudgeTheReferenceItself) {
  OpEntry neg = *ts::catalog::entries_of(ts::OpId::neg).front();
  neg.samples = [](const SampleContext&) { return std::vector<Sample>{}; };
  auto run = [&](double last) {
    neg.known = {{kFloat, [last] {
                    return ts::catalog::known_answer(
                        "known", {ts::tensor({1., 2., 3., 4.}).view({2, 2})},
                        {ts::tensor({-1., -2., -3., last}).view({2, 2})});
                  }}};
    RunOptions o;
    o.kernel_set = "reference";
    o.ops = "neg";
    o.dtypes = {kFloat};
    o.grad = false;
    std::map<std::string, std::string> status;
    for (const CaseResult& c : run_conformance(o, {neg}).cases) {
      status[c.layout + "/" + c.variant] = c.status;
    }
    return status;
  };
  const std::map<std::string, std::string> wrong = run(-5);
  for (const char* layout : {"contiguous", "transposed", "offset"}) {
    EXPECT_EQ(wrong.at(std::string(layout) + "/functional"), "failed") << layout;
  }
  EXPECT_EQ(wrong.at("out_resized/out"), "failed");
  EXPECT_EQ(wrong.at("expanded/functional"), "passed");
  EXPECT_EQ(wrong.at("contiguous/inplace"), "passed");
  for (const auto& [name, status] : run(-4)) EXPECT_EQ(status, "passed") << name;
}

// Note [Narrow documented differences]: a row explains the errors it bounds, no larger ones.
TEST(ConformanceKnownDifferences, ACaseBeyondTheRowsBoundStaysFailed) {
  OpEntry e;
  e.name = "std";
  KnownDifference row{"", "std", "", "", "expanded", "", "backward", "constant rows"};
  row.max_abs_err = 1;
  e.documented.push_back(row);
  CaseResult c;
  c.op = "std";
  c.dtype = "float64";
  c.sample = "big_d0";
  c.layout = "expanded";
  c.check = "backward";
  c.status = "failed";
  c.message = "element 0 is 3.3e+304, reference 0";
  c.max_abs_err = 3.3e304;
  CaseResult small = c;
  small.max_abs_err = 0.05;
  apply_known_differences("optimized", &e, c);
  EXPECT_EQ(c.status, "failed");
  EXPECT_NE(c.message.find("beyond the documented difference's bound: max_abs_err 1"),
            std::string::npos)
      << c.message;
  apply_known_differences("optimized", &e, small);
  EXPECT_EQ(small.status, "documented");
  EXPECT_EQ(small.message.rfind("constant rows [failed: ", 0), 0u) << small.message;
}

// A row with a device glob ("cuda": CUDA's double lgamma, say) explains runs on that device only.
TEST(ConformanceKnownDifferences, ADeviceRowAppliesOnItsDeviceOnly) {
  const auto rows = parse_known_differences(
      R"({"differences": [{"kernel_set": "optimized", "device": "cuda", "ops": ["lgamma"],
                           "reason": "CUDA lgamma", "max_ulp": 8, "evidence": "e"}]})");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].device, "cuda");
  OpEntry e;
  e.name = "lgamma";
  e.documented = rows;
  CaseResult c;
  c.op = "lgamma";
  c.dtype = "float64";
  c.status = "failed";
  c.message = "1 of 19 elements differ";
  c.max_ulp = 8;
  CaseResult on_cpu = c, on_cuda = c;
  apply_known_differences("optimized", &e, on_cpu, "cpu");
  apply_known_differences("optimized", &e, on_cuda, "cuda");
  EXPECT_EQ(on_cpu.status, "failed");
  EXPECT_EQ(on_cuda.status, "documented");
  c.max_ulp = 9;  // beyond the row's bound
  apply_known_differences("optimized", &e, c, "cuda");
  EXPECT_EQ(c.status, "failed");
}

// Note [Known differences as data]: a row per reason expands to a row per op; malformed rows
// are errors that name the row.
TEST(ConformanceKnownDifferences, TableRowsExpandPerOpAndAreCheckedStrictly) {
  const auto rows = parse_known_differences(
      R"({"differences": [{"kernel_set": "aten", "ops": ["exp", "log*"], "dtype": "float16",
                           "reason": "r1", "max_abs_err": 0.5, "evidence": "e1"},
                          {"kernel_set": "x", "ops": ["neg"], "layout": "expanded",
                           "variant": "out", "check": "backward", "sample": "big",
                           "message": "*no kernel*", "reason": "r2"}]})");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].op, "log*");
  EXPECT_EQ(rows[1].dtype, "float16");
  EXPECT_EQ(rows[1].sample, "");
  EXPECT_EQ(rows[2].kernel_set, "x");
  EXPECT_EQ(rows[2].layout + rows[2].variant + rows[2].check + rows[2].sample,
            "expandedoutbackwardbig");
  EXPECT_EQ(rows[2].message, "*no kernel*");
  EXPECT_EQ(rows[0].message, "");
  auto error = [](const std::string& text) {
    try {
      parse_known_differences(text);
    } catch (const ts::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_DOUBLE_EQ(rows[0].max_abs_err, 0.5);
  EXPECT_EQ(rows[0].evidence, "e1");
  EXPECT_EQ(rows[2].max_abs_err, std::numeric_limits<double>::infinity());
  // Note [Narrow documented differences]: a row about values needs a bound and its evidence.
  EXPECT_NE(error(R"({"differences": [{"kernel_set": "a", "ops": ["x"], "reason": "r"}]})")
                .find("needs a 'max_abs_err' or 'max_ulp' bound"),
            std::string::npos);
  EXPECT_NE(error(R"({"differences": [{"kernel_set": "a", "ops": ["x"], "reason": "r",
                                       "max_abs_err": 1}]})")
                .find("needs its 'evidence'"),
            std::string::npos);
  EXPECT_NE(error(R"({"differences": [{"kernel_set": "a", "ops": ["x"], "reason": "r",
                                       "max_abs_err": "big", "evidence": "e"}]})")
                .find("'max_abs_err' is neither a number >= 0 nor \"inf\""),
            std::string::npos);
  EXPECT_EQ(parse_known_differences(R"({"differences": [{"kernel_set": "a", "ops": ["x"],
              "reason": "r", "max_abs_err": "inf", "evidence": "e"}]})")[0]
                .max_abs_err,
            std::numeric_limits<double>::infinity());
  EXPECT_NE(error(R"({"differences": [{"kernel_set": "a", "ops": ["x"], "reason": "r",
                                       "dtypes": "float16"}]})")
                .find("row 0 has an unknown field 'dtypes'"),
            std::string::npos);
  EXPECT_NE(error(R"({"differences": [{"kernel_set": "a", "ops": ["x"]}]})").find("no 'reason'"),
            std::string::npos);
  EXPECT_NE(error(R"({"differences": [{"kernel_set": "a", "ops": [], "reason": "r"}]})")
                .find("non-empty 'ops'"),
            std::string::npos);
  EXPECT_NE(error("[1]").find("'differences' array"), std::string::npos);
  // The tree's own table parses, and every row names ops the catalog has.
  for (const KnownDifference& k : known_differences()) {
    bool matched = false;
    for (const OpEntry& e : catalog()) matched = matched || ts::reports::glob_match(k.op, e.name);
    EXPECT_TRUE(matched) << k.op << " (" << k.reason << ")";
  }
}

TEST(ConformanceRunner, ShardsPartitionTheGroups) {
  RunOptions o;
  o.ops = "neg,exp";
  o.dtypes = {kFloat, kDouble, kInt};
  o.grad = false;
  const RunResult whole = run_conformance(o);
  size_t sum = 0;
  std::vector<nlohmann::json> reports;
  for (int i = 1; i <= 3; ++i) {
    o.shard_index = i;
    o.shard_count = 3;
    const RunResult r = run_conformance(o);
    sum += r.cases.size();
    reports.push_back(report_json(r, o));
    EXPECT_EQ(reports.back()["shard"], (nlohmann::json{{"index", i}, {"count", 3}}));
  }
  EXPECT_EQ(sum, whole.cases.size());
  // Merged in any order: the whole run's cases, in its order, as shard 1/1.
  const nlohmann::json merged = merge_reports({reports[2], reports[0], reports[1]});
  ASSERT_EQ(merged["cases"].size(), whole.cases.size());
  for (size_t k = 0; k < whole.cases.size(); ++k) {
    const nlohmann::json& c = merged["cases"][k];
    EXPECT_EQ(c["op"].get<std::string>() + " " + c["dtype"].get<std::string>() + " " +
                  c["sample"].get<std::string>() + "/" + c["layout"].get<std::string>() + "/" +
                  c["variant"].get<std::string>(),
              whole.cases[k].op + " " + whole.cases[k].dtype + " " + whole.cases[k].sample + "/" +
                  whole.cases[k].layout + "/" + whole.cases[k].variant)
        << k;
  }
  EXPECT_EQ(merged["summary"]["cases"].get<size_t>(), whole.cases.size());
  EXPECT_EQ(merged["summary"]["passed"].get<size_t>(), whole.cases.size());
  EXPECT_EQ(merged["shard"], (nlohmann::json{{"index", 1}, {"count", 1}}));
  EXPECT_EQ(schema_violations(merged), std::vector<std::string>{});
  o.shard_index = 4;
  EXPECT_THROW(run_conformance(o), ts::Error);
  o.shard_index = 0;
  EXPECT_THROW(run_conformance(o), ts::Error);
}

TEST(ConformanceMerge, RefusesGapsDuplicatesAndOtherRuns) {
  RunOptions o;
  o.ops = "neg";
  o.dtypes = {kFloat, kDouble};
  o.grad = false;
  o.shard_count = 3;
  std::vector<nlohmann::json> r;
  for (int i = 1; i <= 3; ++i) {
    o.shard_index = i;
    r.push_back(report_json(run_conformance(o), o));
  }
  EXPECT_NE(error_text([&] {
              merge_reports({r[0], r[2]}, {"a.json", "c.json"});
            }).find("merge: shard 2/3 missing (given: 1/3, 3/3)"),
            std::string::npos);
  EXPECT_NE(error_text([&] {
              merge_reports({r[0], r[1], r[1], r[2]}, {"a", "b", "b2", "c"});
            }).find("merge: shard 2/3 is given twice ('b' and 'b2')"),
            std::string::npos);
  // The same shard of a run with another --dtypes filter.
  o.dtypes = {kFloat};
  o.shard_index = 2;
  const nlohmann::json other = report_json(run_conformance(o), o);
  EXPECT_NE(error_text([&] {
              merge_reports({r[0], other, r[2]}, {"a", "b", "c"});
            })
                .find("merge: 'b' and 'a' are not shards of one run: options.dtypes is "
                      "[\"float32\"] in 'b' and [\"float32\",\"float64\"] in 'a'"),
            std::string::npos);
  nlohmann::json other_set = r[1];
  other_set["kernel_set"] = "reference";
  EXPECT_NE(error_text([&] {
              merge_reports({r[0], other_set, r[2]});
            }).find("kernel_set is \"reference\" in report 2 and \"optimized\" in report 1"),
            std::string::npos);
  nlohmann::json old = r[1];
  old["schema_version"] = 2;
  EXPECT_NE(error_text([&] {
              merge_reports({r[0], old, r[2]});
            }).find("merge: report 2 has schema_version 2; this touchstone merges version 5"),
            std::string::npos);
  EXPECT_EQ(error_text([&] { merge_reports({r[1], r[2], r[0]}); }), "");
}

TEST(ConformanceRunner, OptionsAreValidated) {
  auto fails = [](RunOptions o, const std::string& message) {
    const std::string e = error_text([&] { run_conformance(o); });
    EXPECT_NE(e.find(message), std::string::npos) << "got: " << e;
  };
  RunOptions o;
  o.ops = "neg";
  o.dtypes = {kFloat};
  RunOptions t = o;
  t.case_timeout_s = 0;
  fails(t, "conform: --timeout must be a positive number of seconds, got 0");
  t.case_timeout_s = -1;
  fails(t, "conform: --timeout must be a positive number of seconds, got -1");
  t = o;
  t.ops = "neg,nosuchop";
  fails(t, "conform: --ops: 'nosuchop' matches no op of the catalog (`touchstone ops`");
  t = o;
  t.families = "unary,nosuch";
  fails(t, "conform: --families: no op family named 'nosuch' (families: factory, copy, unary");
  t = o;
  t.case_filter = "big/contiguous/functional/forward/more";
  fails(t, "conform: --case expects SAMPLE/LAYOUT/VARIANT/CHECK");
  t.case_filter = "big/sideways";
  fails(t, "conform: --case 'big/sideways': no layout named 'sideways' (layouts: contiguous, ");
  t.case_filter = "big//backwards";
  fails(t, "no variant named 'backwards' (variants: functional, inplace, out)");
  t.case_filter = "big///gradient";
  fails(t, "no check named 'gradient' (checks: forward, backward, gradcheck)");
  t.case_filter = "nosample/contiguous";
  fails(t,
        "conform: --case 'nosample/contiguous': no sample named 'nosample' in the selected ops "
        "(their samples: ");
  t = o;
  t.families = "factory";  // neg is unary: no group at all
  fails(t, "conform: no case selected: no op x dtype matches --ops 'neg' --families 'factory'");
  t.allow_empty = true;
  EXPECT_TRUE(run_conformance(t).cases.empty());
  // Spaces after commas are fine.
  t = o;
  t.ops = "neg, exp";
  t.grad = false;
  t.case_filter = "big/contiguous/functional";
  std::set<std::string> ops;
  for (const CaseResult& c : run_conformance(t).cases) ops.insert(c.op);
  EXPECT_EQ(ops, (std::set<std::string>{"neg", "exp"}));
}

TEST(ConformanceGuard, AWritePastTheEndIsFoundOnce) {
  GuardScope scope;
  Tensor t = ts::zeros({10}, kFloat);
  EXPECT_EQ(check_guards(), "");
  static_cast<float*>(t.data_ptr())[10] = 1.0f;
  EXPECT_EQ(check_guards(), "a write at byte 0 past the end of a 40-byte block");
  EXPECT_EQ(check_guards(), "");  // repaired
  static_cast<unsigned char*>(t.data_ptr())[-2] = 7;
  EXPECT_EQ(check_guards(), "a write 2 bytes before the start of a 40-byte block");
  static_cast<float*>(t.data_ptr())[11] = 1.0f;
  t = Tensor();  // freed with a damaged guard
  EXPECT_EQ(check_guards(),
            "a write at byte 4 past the end of a 40-byte block (found when it was freed)");
}

// A fresh block reads as the pattern, so an element a kernel never writes is not a lucky zero.
TEST(ConformanceGuard, FreshBlocksArePoisoned) {
  GuardScope scope;
  const Tensor t = ts::empty({3}, kFloat);
  uint32_t bits[3];
  std::memcpy(bits, t.data_ptr(), sizeof bits);
  for (uint32_t b : bits) EXPECT_EQ(b, 0xA5A5A5A5u);
}

TEST(ConformanceRunner, DocumentedSkipsAreNotRun) {
  RunOptions o;
  o.ops = "prod";
  o.dtypes = {kDouble};
  o.case_filter = "edge_values/";
  o.allow_empty = true;  // the one sample selected is skipped: no case
  const RunResult r = run_conformance(o);
  EXPECT_TRUE(r.cases.empty());
  EXPECT_EQ(r.skipped_samples, 1);
  o.allow_empty = false;
  EXPECT_THROW(run_conformance(o), ts::Error);
}

TEST(ConformanceRunner, UnknownKernelSetIsAnError) {
  RunOptions o;
  o.kernel_set = "no_such_set";
  EXPECT_THROW(run_conformance(o), ts::Error);
}

// ---- a kernel set with planted bugs ----

// Note [Planted bugs]
// "planted" runs add like the reference but for float64, where it adds 0.5 to every result; and
// runs neg (float32, float64) reading and writing memory as if every tensor were contiguous
// (reads clamped to the input's storage, so the bug stays memory-safe).
ts::KernelFn reference_kernel(ts::OpId op) {
  return ts::get_kernel(op, ts::kCPU, *ts::find_kernel_set("reference")).fn;
}

void planted_add(const ts::KernelCall& c) {
  reference_kernel(ts::OpId::add)(c);
  if (c.outputs[0].dtype() == kDouble) {
    ts::KernelSetGuard g("reference");
    c.outputs[0].add_(0.5);
  }
}

template <typename T>
void neg_ignoring_strides(const Tensor& out, const Tensor& in) {
  const int64_t avail =
      static_cast<int64_t>(in.storage()->nbytes() / sizeof(T)) - in.storage_offset();
  const T* src = static_cast<const T*>(in.data_ptr());
  T* dst = static_cast<T*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) dst[i] = -src[std::min(i, avail - 1)];
}

void planted_neg(const ts::KernelCall& c) {
  if (c.outputs[0].dtype() == kDouble) {
    neg_ignoring_strides<double>(c.outputs[0], c.inputs[0]);
  } else {
    neg_ignoring_strides<float>(c.outputs[0], c.inputs[0]);
  }
}

void register_planted() {
  static const bool done = [] {
    ts::KernelRegistrar m("planted");
    m.impl(ts::OpId::add, ts::kCPU, ts::DTypeSet::all(), planted_add);
    m.impl(ts::OpId::neg, ts::kCPU, {kFloat, kDouble}, planted_neg);
    return true;
  }();
  (void)done;
}

RunResult run_planted(const std::string& ops, std::vector<ts::ScalarType> dtypes) {
  register_planted();
  RunOptions o;
  o.kernel_set = "planted";
  o.grad = false;  // backward formulas need kernels "planted" lacks
  o.ops = ops;
  o.dtypes = std::move(dtypes);
  return run_conformance(o);
}

TEST(ConformancePlanted, AddIsWrongForFloat64Only) {
  const RunResult r = run_planted("add", {kFloat, kDouble, kInt});
  int64_t failed = 0;
  for (const CaseResult& c : r.cases) {
    ASSERT_EQ(c.op, "add");
    const bool should_fail = c.dtype == "float64" && c.numel > 0;
    EXPECT_EQ(c.status, should_fail ? "failed" : "passed")
        << c.dtype << " " << c.sample << "/" << c.layout << ": " << c.message;
    if (c.status == "failed") {
      ++failed;
      EXPECT_NEAR(c.max_abs_err, 0.5, 1e-12);
      EXPECT_EQ(c.repro, "touchstone conform --kernels planted --ops add --dtypes float64 --case " +
                             c.sample + "/" + c.layout + "/" + c.variant + "/forward");
    }
  }
  EXPECT_GT(failed, 50);
}

TEST(ConformancePlanted, NegIgnoringStridesFailsOnStridedLayoutsOnly) {
  const RunResult r = run_planted("neg", {kFloat, kDouble});
  // Samples of rank >= 2 with more than one element: every non-dense layout of them breaks the
  // bug (a 1-D expanded input is a constant, which the clamped read happens to get right).
  const std::set<std::string> multi = {"mat3x4", "cube", "big", "size1"};
  std::set<std::string> failing_layouts;
  for (const CaseResult& c : r.cases) {
    const std::string where = c.dtype + " " + c.sample + "/" + c.layout + ": " + c.message;
    if (c.message.rfind("both raised", 0) == 0) continue;  // in-place on an expanded self
    const bool strided =
        c.layout == "sliced_step2" || c.layout == "expanded" || c.layout == "out_transposed";
    // Dense inputs (transposed and permuted too: the output takes their memory order) pass.
    if (!strided || c.numel <= 1) {
      EXPECT_EQ(c.status, "passed") << where;
    }
    if (strided && multi.count(c.sample)) {
      EXPECT_EQ(c.status, "failed") << where;
    }
    if (c.status != "passed") failing_layouts.insert(c.layout);
  }
  EXPECT_EQ(failing_layouts, (std::set<std::string>{"sliced_step2", "expanded", "out_transposed"}));
}

TEST(ConformancePlanted, MissingDtypeIsAnErrorPerCase) {
  const RunResult r = run_planted("neg", {kInt});
  ASSERT_FALSE(r.cases.empty());
  int64_t both_raised = 0;
  for (const CaseResult& c : r.cases) {
    if (c.message.rfind("both raised", 0) == 0) {  // in-place on an expanded self: refused early
      EXPECT_EQ(c.variant + "/" + c.layout, "inplace/expanded");
      ++both_raised;
      continue;
    }
    EXPECT_EQ(c.status, "error") << c.sample << "/" << c.layout;
    EXPECT_NE(c.message.find("planted"), std::string::npos) << c.message;
  }
  EXPECT_EQ(r.summary().errors + both_raised, static_cast<int64_t>(r.cases.size()));
}

// ---- report ----

TEST(ConformanceReport, WrittenAtomicallyWithTheSchemaFields) {
  RunOptions o;
  o.ops = "neg";
  o.dtypes = {kFloat};
  const RunResult r = run_conformance(o);
  const nlohmann::json j = report_json(r, o);
  for (const char* key : {"schema_version", "tool_version", "git_commit", "timestamp", "machine",
                          "kernel_set", "device", "summary", "cases"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["summary"]["cases"], static_cast<int64_t>(r.cases.size()));
  EXPECT_EQ(j["cases"].size(), r.cases.size());
  EXPECT_FALSE(j["machine"]["simd_target"].get<std::string>().empty());
  for (const char* key : {"op", "dtype", "sample", "layout", "variant", "check", "status",
                          "max_abs_err", "max_rel_err", "max_ulp"}) {
    EXPECT_TRUE(j["cases"][0].contains(key)) << key;
  }
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ts_conform_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "report.json").string();
  ts::reports::write_json(path, j, "test");
  std::ifstream in(path);
  EXPECT_EQ(nlohmann::json::parse(in), j);
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files += entry.exists();
  EXPECT_EQ(files, 1u);  // no temporary left behind
  std::filesystem::remove_all(dir);
}

TEST(ConformanceReport, ValidatesAgainstItsSchemaAndBrokenOnesDoNot) {
  RunOptions o;
  o.ops = "exp,sum";
  o.dtypes = {kFloat, kDouble};
  nlohmann::json j = report_json(run_conformance(o), o);
  EXPECT_EQ(schema_violations(j), std::vector<std::string>{});
  nlohmann::json broken = j;
  broken["summary"].erase("passed");
  broken["cases"][0]["status"] = "fine";
  broken["cases"][1]["variant"] = "sideways";
  EXPECT_EQ(schema_violations(broken).size(), 3u);
  EXPECT_THROW(check_schema(broken, "test"), ts::Error);
  // A failing case must carry its message and repro line.
  nlohmann::json failing = j;
  failing["cases"][0]["status"] = "failed";
  failing["cases"][0].erase("message");
  EXPECT_FALSE(schema_violations(failing).empty());
}

}  // namespace
