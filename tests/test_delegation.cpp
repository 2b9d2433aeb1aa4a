// Delegation between kernel sets (Note [Delegation] in touchstone/dispatch.h): a set registers
// some dtypes of an op and hands others to another set explicitly; lookups, listings and
// conformance reports say where each (op, dtype) runs. Also the legacy plug-in's delegation.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "conformance/report.h"
#include "conformance/runner.h"
#include "test_util.h"
#include "touchstone/kernel_helpers.h"
#include "touchstone/touchstone.h"

namespace {

using ts::OpId;
using ts::Tensor;

// "test_counter": add for int32 and int64, writing 7 everywhere and counting its calls, and
// remembering the active set while it runs.
int counter_calls = 0;
ts::KernelSetId active_in_counter = -1;
void counter_add(const ts::KernelCall& c) {
  ++counter_calls;
  active_in_counter = ts::active_kernel_set();
  const Tensor& out = c.outputs[0];
  for (int64_t i = 0; i < out.numel(); ++i) {
    ts::store_int64(static_cast<char*>(out.data_ptr()) + i * out.element_size(), out.dtype(), 7);
  }
}

// "test_partial": add for float32 only (the reference's kernel), int32 and int64 delegated to
// test_counter.
ts::KernelSetId counter_set() {
  static const ts::KernelSetId id = [] {
    ts::KernelRegistrar m("test_counter");
    m.impl(OpId::add, ts::kCPU, {ts::kInt, ts::kLong}, counter_add);
    return m.set();
  }();
  return id;
}

ts::KernelFn reference_kernel(OpId op) {
  return ts::get_kernel(op, ts::kCPU, *ts::find_kernel_set("reference")).fn;
}

ts::KernelSetId partial_set() {
  static const ts::KernelSetId id = [] {
    counter_set();
    ts::KernelRegistrar m("test_partial");
    m.impl(OpId::add, ts::kCPU, {ts::kFloat}, reference_kernel(OpId::add));
    m.delegate(OpId::add, ts::kCPU, {ts::kInt, ts::kLong}, "test_counter");
    return m.set();
  }();
  return id;
}

TEST(Delegation, DelegatedDtypesRunTheOtherSetsKernel) {
  partial_set();
  ts::KernelSetGuard g("test_partial");
  (void)ts::take_delegations();
  counter_calls = 0;
  const Tensor i = ts::tensor({1.0, 2.0, 3.0}, ts::kInt);
  const Tensor r = ts::add(i, i);
  EXPECT_EQ(counter_calls, 1);
  EXPECT_TENSOR(r, ts::kInt, {3}, {7, 7, 7});  // the counter's answer, not 2, 4, 6
  // The delegated kernel ran with its own set active, and the call was recorded.
  EXPECT_EQ(active_in_counter, counter_set());
  EXPECT_EQ(ts::active_kernel_set(), partial_set());
  EXPECT_EQ(ts::take_delegations(), 1u << counter_set());
  EXPECT_EQ(ts::take_delegations(), 0u);
  // float32 is the set's own: no delegation, the right sum.
  const Tensor f = ts::tensor({1.5, 2.0}, ts::kFloat);
  EXPECT_TENSOR(ts::add(f, f), ts::kFloat, {2}, {3.0, 4.0});
  EXPECT_EQ(counter_calls, 1);
  EXPECT_EQ(ts::take_delegations(), 0u);
}

TEST(Delegation, RegistryRecordsWhereEachDtypeComesFrom) {
  const ts::KernelSetId p = partial_set();
  EXPECT_EQ(ts::get_kernel(OpId::add, ts::kCPU, p).dtypes.bits(), ts::DTypeSet{ts::kFloat}.bits());
  EXPECT_EQ(ts::supported_dtypes(OpId::add, ts::kCPU, p).bits(),
            (ts::DTypeSet{ts::kFloat, ts::kInt, ts::kLong}).bits());
  EXPECT_EQ(ts::delegated_dtypes(OpId::add, ts::kCPU, p).bits(),
            (ts::DTypeSet{ts::kInt, ts::kLong}).bits());
  EXPECT_EQ(ts::kernel_delegate(OpId::add, ts::kCPU, p, ts::kInt), counter_set());
  EXPECT_FALSE(ts::kernel_delegate(OpId::add, ts::kCPU, p, ts::kFloat).has_value());
  EXPECT_FALSE(ts::kernel_delegate(OpId::add, ts::kCPU, p, ts::kShort).has_value());
}

TEST(Delegation, UndelegatedDtypesStillHaveNoKernel) {
  partial_set();
  ts::KernelSetGuard g("test_partial");
  const Tensor s = ts::tensor({1.0}, ts::kShort);
  EXPECT_ERROR(ts::add(s, s), "add: kernel set 'test_partial' has no kernel for dtype int16");
}

TEST(Delegation, BadDelegationsNameOpDtypeAndBothSets) {
  partial_set();
  ts::KernelRegistrar m("test_partial");
  EXPECT_ERROR(m.delegate(OpId::add, ts::kCPU, {ts::kShort}, "no_such_set"),
               "add: kernel set 'test_partial' cannot delegate to unknown kernel set "
               "'no_such_set'");
  // The counter has no int16 add.
  EXPECT_ERROR(m.delegate(OpId::add, ts::kCPU, {ts::kShort}, "test_counter"),
               "add: kernel set 'test_partial' cannot delegate int16 to 'test_counter', which has "
               "no kernel for it (op add, dtype int16, device cpu, from 'test_partial' to "
               "'test_counter')");
  EXPECT_ERROR(m.delegate(OpId::add, ts::kCPU, {ts::kFloat}, "reference"),
               "add: kernel set 'test_partial' registers float32 itself");
  EXPECT_ERROR(m.delegate(OpId::matmul, ts::kCPU, {ts::kFloat}, "reference"),
               "matmul: is a composite op");
  // A failed delegation changed nothing.
  EXPECT_FALSE(ts::kernel_delegate(OpId::add, ts::kCPU, partial_set(), ts::kShort).has_value());
}

TEST(Delegation, ChainsAreFollowed) {
  partial_set();
  ts::KernelRegistrar chain("test_chain");
  chain.delegate(OpId::add, ts::kCPU, {ts::kInt}, "test_partial");  // -> test_counter
  ts::KernelSetGuard g("test_chain");
  counter_calls = 0;
  const Tensor i = ts::tensor({5.0}, ts::kInt);
  EXPECT_TENSOR(ts::add(i, i), ts::kInt, {1}, {7});
  EXPECT_EQ(counter_calls, 1);
  EXPECT_EQ(ts::take_delegations(), 1u << counter_set());
  // A target must have the kernel when delegating, so no loop can form: not even to itself.
  EXPECT_ERROR(chain.delegate(OpId::add, ts::kCPU, {ts::kLong}, "test_chain"),
               "add: kernel set 'test_chain' cannot delegate int64 to 'test_chain', which has no "
               "kernel for it");
}

TEST(Delegation, OwnRegistrationReplacesADelegation) {
  ts::KernelRegistrar m("test_replace");
  m.delegate_rest(OpId::neg, ts::kCPU, "reference");
  EXPECT_EQ(ts::supported_dtypes(OpId::neg, ts::kCPU, m.set()).bits(),
            ts::op_info(OpId::neg).dtypes.bits());
  EXPECT_EQ(ts::delegated_dtypes(OpId::neg, ts::kCPU, m.set()).bits(),
            ts::op_info(OpId::neg).dtypes.bits());
  m.impl(OpId::neg, ts::kCPU, {ts::kDouble}, reference_kernel(OpId::neg));
  EXPECT_FALSE(ts::kernel_delegate(OpId::neg, ts::kCPU, m.set(), ts::kDouble).has_value());
  EXPECT_EQ(ts::kernel_delegate(OpId::neg, ts::kCPU, m.set(), ts::kFloat),
            ts::find_kernel_set("reference"));
  EXPECT_FALSE(ts::delegated_dtypes(OpId::neg, ts::kCPU, m.set()).has(ts::kDouble));
}

// A conformance run of a partial set: the delegated cases pass and say where they ran.
TEST(Delegation, ConformanceReportsDelegatedCases) {
  ts::KernelRegistrar m("test_conform_partial");
  m.impl(OpId::add, ts::kCPU, {ts::kFloat}, reference_kernel(OpId::add));
  m.delegate(OpId::add, ts::kCPU, {ts::kInt}, "optimized");
  ts::conformance::RunOptions o;
  o.kernel_set = "test_conform_partial";
  o.ops = "add";
  o.dtypes = {ts::kFloat, ts::kInt};
  o.grad = false;  // add's gradient runs sum and copy_, which this set does not have
  const ts::conformance::RunResult r = ts::conformance::run_conformance(o);
  // An int32 case computes in int32 (delegated) unless a floating operand promotes it to the
  // set's own float32; a float32 case never leaves the set.
  int64_t ints = 0, floats = 0;
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.status, "passed") << c.dtype << " " << c.sample << " " << c.message;
    if (c.dtype == "float32") {
      ++floats;
      EXPECT_EQ(c.delegated_to, "") << c.sample << "/" << c.layout;
    } else if (!c.delegated_to.empty()) {
      ++ints;
      EXPECT_EQ(c.delegated_to, "optimized") << c.sample << "/" << c.layout;
    }
  }
  EXPECT_GT(ints, 10);
  EXPECT_GT(floats, 10);
  EXPECT_EQ(r.summary().delegated, ints);
  const nlohmann::json report = ts::conformance::report_json(r, o);
  EXPECT_TRUE(ts::conformance::schema_violations(report).empty());
  EXPECT_EQ(report["summary"]["delegated"], ints);
  int64_t marked = 0;
  for (const auto& c : report["cases"]) marked += c.value("delegated_to", "") == "optimized";
  EXPECT_EQ(marked, ints);
}

// ---- the legacy plug-in (plugins/legacy_example) ----

std::string run(const std::string& command) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::array<char, 4096> buf{};
  while (pipe && fgets(buf.data(), buf.size(), pipe.get()) != nullptr) out += buf.data();
  return out;
}

TEST(LegacyPlugin, OwnsFloatAndDoubleAndDelegatesTheRest) {
  ts::load_kernel_set(TS_LEGACY_PLUGIN_PATH);
  const ts::KernelSetId legacy = *ts::find_kernel_set("legacy");
  const ts::KernelSetId optimized = *ts::find_kernel_set("optimized");
  EXPECT_EQ(ts::get_kernel(OpId::add, ts::kCPU, legacy).dtypes.bits(),
            (ts::DTypeSet{ts::kFloat, ts::kDouble}).bits());
  EXPECT_EQ(ts::kernel_delegate(OpId::add, ts::kCPU, legacy, ts::kInt), optimized);
  EXPECT_EQ(ts::kernel_delegate(OpId::tanh, ts::kCPU, legacy, ts::kHalf), optimized);
  EXPECT_EQ(ts::kernel_delegate(OpId::gt, ts::kCPU, legacy, ts::kFloat), optimized);
  EXPECT_FALSE(ts::kernel_delegate(OpId::tanh, ts::kCPU, legacy, ts::kFloat).has_value());
  ts::KernelSetGuard g("legacy");
  // The legacy tanh (Note [Legacy tanh]) is saturated by the adapter: +-1, not NaN.
  const Tensor x = ts::tensor({-100.0, 0.0, 100.0}, ts::kFloat);
  EXPECT_TENSOR(ts::tanh(x), ts::kFloat, {3}, {-1.0, 0.0, 1.0});
  (void)ts::take_delegations();
  const Tensor i = ts::tensor({1.0, -2.0}, ts::kLong);
  EXPECT_TENSOR(ts::add(i, i), ts::kLong, {2}, {2, -4});
  EXPECT_EQ(ts::take_delegations(), 1u << optimized);
  // A strided (transposed) operand is staged: mm of a transposed matrix.
  const Tensor a = ts::tensor({1.0, 2.0, 3.0, 4.0}, ts::kDouble).reshape({2, 2});
  EXPECT_TENSOR(ts::mm(a.t(), a), ts::kDouble, {2, 2}, {10, 14, 14, 20});
  EXPECT_EQ(ts::take_delegations(), 0u);
}

TEST(LegacyPlugin, OpsListsDelegatedCellsAsDelegated) {
  const nlohmann::json ops = nlohmann::json::parse(
      run(std::string(TS_CLI_PATH) + " ops --json --plugin " + TS_LEGACY_PLUGIN_PATH));
  bool seen = false;
  for (const auto& op : ops) {
    if (op["name"] != "add") continue;
    seen = true;
    EXPECT_EQ(op["kernel_sets"]["legacy"]["cpu"], (nlohmann::json{"float32", "float64"}));
    EXPECT_EQ(op["delegated"]["legacy"]["cpu"]["int32"], "optimized");
    EXPECT_FALSE(op["delegated"]["legacy"]["cpu"].contains("float32"));
  }
  EXPECT_TRUE(seen);
  const std::string table =
      run(std::string(TS_CLI_PATH) + " ops --plugin " + TS_LEGACY_PLUGIN_PATH);
  const size_t at = table.find("\nadd ");
  ASSERT_NE(at, std::string::npos);
  const std::string line = table.substr(at + 1, table.find('\n', at + 1) - at - 1);
  EXPECT_NE(line.find("legacy cpu: float32,float64;"), std::string::npos) << line;
  EXPECT_NE(
      line.find("legacy cpu: bool,uint8,int8,int16,int32,int64,float16,bfloat16 -> optimized"),
      std::string::npos)
      << line;
}

}  // namespace
