// Note [Attribution] in conformance/runner.cpp: the dispatcher's kernel recorder, and the
// catalog's coverage of every kernel a composite or backward case runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "conformance/runner.h"
#include "touchstone/kernel_recorder.h"
#include "touchstone/sanitizers.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::conformance;

std::vector<std::string> names(const std::vector<ts::KernelRecord>& records) {
  std::vector<std::string> out;
  for (const ts::KernelRecord& r : records) {
    out.push_back(std::string(ts::op_info(r.op).name) + " " + std::string(ts::dtype_name(r.dtype)) +
                  " " + std::string(ts::kernel_set_name(r.set)));
  }
  return out;
}

TEST(KernelRecorder, RecordsEachKernelOnceInFirstUseOrderAndOnlyWhileAlive) {
  ts::KernelSetGuard g("reference");
  const ts::Tensor x = ts::ones({2, 3}), w = ts::ones({4, 3}), bias = ts::ones({4});
  const ts::Tensor b = ts::ones({3}, ts::kDouble);
  (void)(x + x);  // no recorder: nothing to record
  std::vector<std::string> outer_names;
  {
    ts::KernelRecorder outer;
    (void)ts::linear(x, w, bias);  // a 2-D input with a bias: one addmm, as ATen
    {
      ts::KernelRecorder inner;  // only the innermost records
      (void)(b * b);
      EXPECT_EQ(names(inner.records()), std::vector<std::string>{"mul float64 reference"});
    }
    (void)(x + x);
    (void)(x + x);
    (void)ts::linear(x, w, bias);
    outer_names = names(outer.records());
  }
  EXPECT_EQ(outer_names,
            (std::vector<std::string>{"addmm float32 reference", "add float32 reference"}));
  EXPECT_EQ(ts::detail::active_kernel_recorder(), nullptr);
}

// Every kernel a composite or backward case runs has own cases at that dtype, so attribution
// can test it alone (grad mode on and off). Runs the contiguous functional cases on the reference.
TEST(ConformanceAttribution, CatalogCoversRecordedKernels) {
  if (TS_ASAN) GTEST_SKIP() << "Note [Whole-catalog checks under the sanitizers]";
  RunOptions o;
  o.kernel_set = "reference";
  o.case_filter = "/contiguous/functional";
  o.record_kernels = true;
  o.guard = false;
  const RunResult r = run_conformance(o);
  std::map<std::string, std::set<std::string>> own;  // op -> dtypes with own cases
  for (const OpEntry& e : catalog()) {
    const ts::DTypeSet dts = entry_dtypes(e);
    for (int i = 0; i < ts::kNumScalarTypes; ++i) {
      const auto dt = static_cast<ts::ScalarType>(i);
      if (dts.has(dt)) own[e.op_name()].insert(std::string(ts::dtype_name(dt)));
    }
  }
  std::map<std::string, std::string> missing;  // kernel -> the first case that ran it
  bool saw_composite = false, saw_backward = false;
  for (const CaseResult& c : r.cases) {
    if (c.check == "gradcheck") continue;  // runs the reference itself, not the candidate
    for (const std::string& k : c.kernels) {
      std::istringstream in(k);
      std::string op, dtype;
      in >> op >> dtype;
      saw_composite = saw_composite || (c.op == "linear" && op == "mm");
      saw_backward = saw_backward || (c.op == "exp" && c.check == "backward" && op == "mul");
      if (own[op].count(dtype) == 0) {
        missing.emplace(k, c.op + " " + c.dtype + " " + c.sample + " " + c.check);
      }
    }
  }
  EXPECT_TRUE(saw_composite && saw_backward) << "the recorder saw no composite or backward kernel";
  std::string list;
  for (const auto& [k, where] : missing) list += "\n  " + k + " (first in " + where + ")";
  EXPECT_TRUE(missing.empty()) << missing.size() << " kernels without an own case:" << list;
}

}  // namespace
