// The plug-in author's SDK: the public kernel helpers (touchstone/kernel_helpers.h), dtype
// dispatch with `if constexpr` bodies, and a kernel set written in C (plugins/c_plugin.c)
// loaded through touchstone/c_plugin.h. tests/sdk/plugin_template_test.sh covers the installed
// tree and the C++ template plug-in.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "test_util.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_helpers.h"
#include "touchstone/touchstone.h"

#ifndef TS_C_PLUGIN_PATH
#error "tests/CMakeLists.txt passes TS_C_PLUGIN_PATH and TS_C_PLUGIN_BAD_OP_PATH"
#endif

namespace {

using namespace ts::testing;
using ts::Tensor;

// ---- helpers ----

TEST(KernelHelpers, RoundToRoundsOnceFromDouble) {
  // 1 + 2^-11 + 2^-30 through float would become the tie 1 + 2^-11 and round to 1; one rounding
  // to float16 (10 fraction bits) gives 1 + 2^-10.
  EXPECT_EQ(ts::round_to(ts::kHalf, 1 + std::ldexp(1, -11) + std::ldexp(1, -30)),
            1 + std::ldexp(1, -10));
  EXPECT_EQ(ts::round_to(ts::kHalf, 1 + std::ldexp(1, -11)), 1.0);  // a tie: to even
  EXPECT_EQ(ts::wrap_to(ts::kChar, 200), -56);
}

TEST(KernelHelpers, LoadsAndStoresConvertAnyDtype) {
  const Tensor t = ts::empty({2}, ts::kBFloat16);
  ts::store_double(t.data_ptr(), ts::kBFloat16, 1.00390625);  // 1 + 2^-8: a tie in bfloat16
  EXPECT_EQ(ts::load_double(t.data_ptr(), ts::kBFloat16), 1.0);
  const Tensor i = ts::empty({1}, ts::kInt);
  ts::store_double(i.data_ptr(), ts::kInt, -2.75);  // truncated toward zero
  EXPECT_EQ(ts::load_int64(i.data_ptr(), ts::kInt), -2);
  // A float32 compute dtype sees an int64 operand rounded to float32.
  const Tensor l = make(ts::kLong, {16777217});
  EXPECT_EQ(ts::load_as_double(l.data_ptr(), ts::kLong, ts::kFloat), 16777216.0);
}

TEST(KernelHelpers, ForEachIndexIsRowMajorAndSkipsEmptyShapes) {
  std::vector<std::vector<int64_t>> seen;
  ts::for_each_index({2, 2}, [&](ts::IntArrayRef idx) { seen.push_back(idx.vec()); });
  EXPECT_EQ(seen, (std::vector<std::vector<int64_t>>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
  int calls = 0;
  ts::for_each_index({3, 0}, [&](ts::IntArrayRef) { ++calls; });
  EXPECT_EQ(calls, 0);
  ts::for_each_index({}, [&](ts::IntArrayRef) { ++calls; });  // 0-dim: one element
  EXPECT_EQ(calls, 1);
}

TEST(KernelHelpers, ElementPtrFollowsStrides) {
  const Tensor t = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {2, 3}).t();  // (3, 2), strides (1, 3)
  EXPECT_EQ(*reinterpret_cast<float*>(ts::element_ptr(t, {2, 1})), 6.0f);
  EXPECT_EQ(*reinterpret_cast<float*>(ts::element_ptr(t, {1, 0})), 2.0f);
}

// A body that compiles only for integers (`%`) in one branch: a lambda templated on
// `T = scalar_t` is a template, so each dispatch case instantiates its own branch only (a plain
// `[&] { if constexpr ... }` compiles both branches for every dtype and fails on float's `%`).
std::string describe(ts::ScalarType t) {
  return TS_DISPATCH_ALL_DTYPES(
      t, "describe", [&]<class T = scalar_t>()->std::string {
        if constexpr (std::is_integral_v<T>) {
          return "integral " + std::to_string(T(7) % T(4));
        } else {
          return "floating " + std::to_string(sizeof(T));
        }
      });
}

TEST(DispatchMacros, TemplatedBodiesDiscardTheOtherBranch) {
  EXPECT_EQ(describe(ts::kInt), "integral 3");
  EXPECT_EQ(describe(ts::kBool), "integral 0");  // true % true, promoted to int: 1 % 1
  EXPECT_EQ(describe(ts::kHalf), "floating 2");
  EXPECT_EQ(describe(ts::kDouble), "floating 8");
  // The plain form still binds scalar_t.
  EXPECT_EQ(TS_DISPATCH_FLOATING_TYPES(ts::kFloat, "size", [&] { return sizeof(scalar_t); }), 4u);
}

// ---- a kernel set written in C ----

void load_c_plugin_once() {
  static const std::vector<std::string> sets = ts::load_kernel_set(TS_C_PLUGIN_PATH);
  ASSERT_EQ(sets, std::vector<std::string>{"c_plugin"});
}

TEST(CPlugin, AddReadsStridesBroadcastAndAlpha) {
  load_c_plugin_once();
  const ts::KernelSetGuard g("c_plugin");
  const Tensor a = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {3, 2}).t();  // [[1, 3, 5], [2, 4, 6]]
  const Tensor b = make(ts::kFloat, {10, 20, 30});                    // broadcast over rows
  EXPECT_TENSOR(ts::add(a, b, 2), ts::kFloat, Shape({2, 3}), Values({21, 43, 65, 22, 44, 66}));
  // A Scalar operand arrives as a wrapped float64 number; the sum rounds to float32.
  EXPECT_TENSOR(ts::add(make(ts::kFloat, {1, 16777216}), 1.0), ts::kFloat, Shape({2}),
                Values({2, 16777216}));
}

TEST(CPlugin, InPlaceWritesSelf) {
  load_c_plugin_once();
  const ts::KernelSetGuard g("c_plugin");
  const Tensor x = make(ts::kDouble, {1, 2, 3});
  x.add_(make(ts::kDouble, {0.5}), -1);
  EXPECT_TENSOR(x, ts::kDouble, Shape({3}), Values({0.5, 1.5, 2.5}));
  EXPECT_TENSOR(ts::relu(make(ts::kDouble, {-1, 2, kNaN})), ts::kDouble, Shape({3}),
                Values({0, 2, kNaN}));
}

TEST(CPlugin, SumReadsDimsAndKeepdim) {
  load_c_plugin_once();
  const ts::KernelSetGuard g("c_plugin");
  const Tensor a = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {3, 2}).t();  // [[1, 3, 5], [2, 4, 6]]
  EXPECT_TENSOR(ts::sum(a, {1}), ts::kFloat, Shape({2}), Values({9, 12}));
  EXPECT_TENSOR(ts::sum(a, {0}, true), ts::kFloat, Shape({1, 3}), Values({3, 7, 11}));
  EXPECT_TENSOR(ts::sum(a), ts::kFloat, Shape({}), Values({21}));
}

TEST(CPlugin, ErrorsNameOpAndSet) {
  load_c_plugin_once();
  const ts::KernelSetGuard g("c_plugin");
  EXPECT_ERROR(ts::mul(make(ts::kFloat, {1}), make(ts::kFloat, {2})),
               "mul: kernel set 'c_plugin' (C plug-in) failed: mul is not implemented here "
               "(compute dtype 8)");
  EXPECT_ERROR(ts::add(make(ts::kInt, {1}), make(ts::kInt, {2})),
               "add: kernel set 'c_plugin' has no kernel for dtype int32 on device cpu");
}

TEST(CPlugin, DelegatesThroughTheCAbi) {
  load_c_plugin_once();
  const ts::KernelSetId c_plugin = *ts::find_kernel_set("c_plugin");
  EXPECT_EQ(ts::kernel_delegate(ts::OpId::abs, ts::kCPU, c_plugin, ts::kInt),
            ts::find_kernel_set("reference"));
  const ts::KernelSetGuard g("c_plugin");
  EXPECT_TENSOR(ts::abs(make(ts::kInt, {-3, 2})), ts::kInt, {2}, {3, 2});
  EXPECT_ERROR(ts::abs(make(ts::kLong, {-3})),
               "abs: kernel set 'c_plugin' has no kernel for dtype int64 on device cpu");
}

TEST(CPlugin, BadRegistrationFailsTheLoad) {
  const std::string path = TS_C_PLUGIN_BAD_OP_PATH;
  EXPECT_ERROR(ts::load_kernel_set(path),
               "load_kernel_set: '" + path + "': register_kernel: unknown op 'no_such_op'");
  // elu's alpha, scale and input_scale are not in ts_c_params: a C kernel would read zeros.
  const std::string params = TS_C_PLUGIN_BAD_PARAMS_PATH;
  EXPECT_ERROR(ts::load_kernel_set(params), "load_kernel_set: '" + params +
                                                "': register_kernel: elu takes parameters C "
                                                "plug-ins cannot read");
}

}  // namespace
