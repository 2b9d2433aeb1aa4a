// The dispatcher: op table, kernel families, kernel sets and guards, kernel look-up errors,
// plug-in loading, and TS_CHECK's message formatting.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_plugin_path.h"
#include "test_util.h"
#include "touchstone/kernel_family.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::OpId;
using ts::Tensor;

// A kernel set registered by the test itself: only add, only float32, writing 42.
void answer_add_kernel(const ts::KernelCall& c) {
  const Tensor& out = c.outputs[0];
  float* p = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) p[i] = 42.0f;
}

ts::KernelSetId custom_set() {
  static const ts::KernelSetId id = [] {
    ts::KernelRegistrar m("test_custom");
    m.impl(OpId::add, ts::kCPU, {ts::kFloat}, answer_add_kernel);
    return m.set();
  }();
  return id;
}

ts::KernelSetId reference_set() {
  const auto id = ts::find_kernel_set("reference");
  EXPECT_TRUE(id.has_value());
  return id.value_or(0);
}

// ---- the op table ----

TEST(OpTable, NamesAreUniqueAndFindable) {
  const auto ops = ts::all_ops();
  ASSERT_EQ(ops.size(), static_cast<size_t>(ts::kNumOps));
  std::set<std::string_view> names;
  for (size_t i = 0; i < ops.size(); ++i) {
    const ts::OpInfo& o = ops[i];
    EXPECT_EQ(static_cast<size_t>(o.id), i) << o.name;
    EXPECT_FALSE(o.name.empty());
    EXPECT_TRUE(names.insert(o.name).second) << "duplicate op name " << o.name;
    EXPECT_EQ(ts::op_info(o.id).name, o.name);
    ASSERT_TRUE(ts::find_op(o.name).has_value()) << o.name;
    EXPECT_EQ(*ts::find_op(o.name), o.id);
  }
  EXPECT_FALSE(ts::find_op("no_such_op").has_value());
  EXPECT_FALSE(ts::find_op("").has_value());
  EXPECT_EQ(ts::op_info(OpId::add).name, "add");
  EXPECT_EQ(ts::op_info(OpId::add).kind, ts::OpKind::Kernel);
  EXPECT_EQ(ts::op_info(OpId::matmul).kind, ts::OpKind::Composite);
}

TEST(OpTable, SchemasStartWithTheOpName) {
  for (const ts::OpInfo& o : ts::all_ops()) {
    const std::string_view s = o.schema;
    // The schema's operator name (before the overload and the arguments) is the op's name,
    // except for cross_entropy, which ATen registers as cross_entropy_loss, and
    // repeat_interleave_self, ATen's repeat_interleave.self_Tensor (the kernel op
    // repeat_interleave is its .Tensor overload).
    const std::string_view aten = o.name == "cross_entropy"            ? "cross_entropy_loss"
                                  : o.name == "repeat_interleave_self" ? "repeat_interleave"
                                                                       : o.name;
    EXPECT_TRUE(s.starts_with(aten)) << o.name << ": " << s;
    const std::string_view base = s.substr(0, s.find_first_of(".("));
    EXPECT_EQ(base, aten) << s;
    EXPECT_NE(s.find('('), std::string_view::npos) << s;
    EXPECT_NE(s.find(") -> "), std::string_view::npos) << s;
  }
}

TEST(OpTable, VariantsAreWellFormed) {
  for (const ts::OpInfo& o : ts::all_ops()) {
    EXPECT_FALSE(o.variants.empty()) << o.name;
    EXPECT_EQ(o.variants.find_first_not_of("fmio"), std::string_view::npos) << o.name;
    // ATen's convention: a name ending in '_' is itself the in-place op, a method only.
    if (o.name.ends_with('_')) {
      EXPECT_EQ(o.variants, "mi") << o.name;
    }
  }
}

TEST(OpTable, CompositeOpsHaveNoKernels) {
  custom_set();
  for (const ts::OpInfo& o : ts::all_ops()) {
    if (o.kind != ts::OpKind::Composite) continue;
    for (const std::string& set : ts::kernel_set_names()) {
      for (ts::DeviceType dev : {ts::kCPU, ts::kCUDA}) {
        EXPECT_EQ(ts::get_kernel(o.id, dev, *ts::find_kernel_set(set)).fn, nullptr)
            << o.name << " in " << set;
      }
    }
  }
}

TEST(OpTable, ReferenceSetHasACpuKernelForEveryKernelOp) {
  const ts::KernelSetId ref = reference_set();
  std::string missing;
  for (const ts::OpInfo& o : ts::all_ops()) {
    if (o.kind != ts::OpKind::Kernel) continue;
    const ts::KernelEntry e = ts::get_kernel(o.id, ts::kCPU, ref);
    if (e.fn == nullptr || e.dtypes.empty())
      missing += std::string(missing.empty() ? "" : ", ") + std::string(o.name);
  }
  EXPECT_TRUE(missing.empty()) << "reference has no CPU kernel for: " << missing;
}

// ---- kernel families (Note [Kernel families]) ----

template <ts::OpSignature... Sigs>
std::vector<OpId> kernel_ops_of() {
  std::vector<OpId> ops;
  ts::for_each_kernel_op<Sigs...>([&](auto op) { ops.push_back(op); });
  return ops;
}

TEST(KernelFamily, VisitsTheKernelOpsOfTheClassesInListOrder) {
  using enum OpId;
  using S = ts::OpSignature;
  // Composites of the same classes (zeros, rand_like, clone, matmul, linear, stack) are not.
  EXPECT_EQ(kernel_ops_of<S::Factory>(),
            (std::vector<OpId>{arange, linspace, eye, rand, randn, randint}));
  EXPECT_EQ(kernel_ops_of<S::Copy>(), (std::vector<OpId>{copy_, fill_}));
  EXPECT_EQ(kernel_ops_of<S::Matmul>(), (std::vector<OpId>{mm, bmm, addmm, dot, mv, outer}));
  EXPECT_EQ((kernel_ops_of<S::Index, S::Join>()),
            (std::vector<OpId>{index_select, gather, scatter_add, cat}));
  static_assert(ts::is_kernel_of<S::Join>(cat) && !ts::is_kernel_of<S::Join>(stack));
  static_assert(!ts::is_kernel_of<S::Index>(cat) && !ts::is_kernel_of<S::Matmul>(matmul));
}

TEST(KernelFamily, SetsRegisterTheDeclaredDtypes) {
  using S = ts::OpSignature;
  for (const char* name : {"reference", "optimized"}) {
    const ts::KernelSetId set = *ts::find_kernel_set(name);
    for (OpId op : kernel_ops_of<S::Factory, S::Copy, S::Matmul, S::Index, S::Join>()) {
      EXPECT_EQ(ts::get_kernel(op, ts::kCPU, set).dtypes.bits(), ts::op_info(op).dtypes.bits())
          << name << " " << ts::op_info(op).name;
    }
  }
  // The declared sets themselves, as PyTorch's CPU backend defines the ops.
  EXPECT_FALSE(ts::op_info(OpId::mm).dtypes.has(ts::kBool));
  EXPECT_TRUE(ts::op_info(OpId::outer).dtypes.has(ts::kBool));
  EXPECT_EQ(ts::op_info(OpId::rand).dtypes.bits(), ts::DTypeSet::floating().bits());
}

// ---- kernel sets ----

TEST(KernelSets, RegisterIsIdempotent) {
  const ts::KernelSetId a = ts::register_kernel_set("test_idempotent");
  const size_t count = ts::kernel_set_names().size();
  const ts::KernelSetId b = ts::register_kernel_set("test_idempotent");
  EXPECT_EQ(a, b);
  EXPECT_EQ(ts::kernel_set_names().size(), count);
  EXPECT_EQ(ts::kernel_set_name(a), "test_idempotent");
  EXPECT_EQ(ts::find_kernel_set("test_idempotent"), a);
  EXPECT_EQ(ts::register_kernel_set("reference"), reference_set());
  EXPECT_FALSE(ts::find_kernel_set("no_such_set").has_value());
  const auto names = ts::kernel_set_names();
  EXPECT_EQ(names[static_cast<size_t>(a)], "test_idempotent");
}

TEST(KernelSets, BadNamesAndIdsError) {
  EXPECT_ERROR(ts::register_kernel_set(""), "register_kernel_set: empty name");
  EXPECT_ERROR(ts::kernel_set_name(-1), "unknown kernel set id -1");
  EXPECT_ERROR(ts::kernel_set_name(ts::kMaxKernelSets), "unknown kernel set id 16");
  EXPECT_ERROR(ts::KernelSetGuard("no_such_set"),
               "KernelSetGuard: unknown kernel set 'no_such_set'");
  EXPECT_ERROR(ts::set_default_kernel_set("no_such_set"),
               "set_default_kernel_set: unknown kernel set 'no_such_set'");
  EXPECT_ERROR(
      ts::register_kernel(ts::kMaxKernelSets, OpId::add, ts::kCPU, {ts::kFloat}, answer_add_kernel),
      "register_kernel: unknown kernel set id 16");
  EXPECT_ERROR(ts::register_kernel(-1, OpId::add, ts::kCPU, {ts::kFloat}, answer_add_kernel),
               "register_kernel: unknown kernel set id -1");
  EXPECT_ERROR(ts::get_kernel(OpId::add, ts::kCPU, ts::kMaxKernelSets),
               "get_kernel: unknown kernel set id 16");
}

// The table is process-wide and never shrinks, so the overflow is checked in a child process.
TEST(KernelSetsDeathTest, AtMostSixteenSets) {
  EXPECT_EXIT(
      {
        std::string msg;
        try {
          for (int i = 0; i <= ts::kMaxKernelSets; ++i) {
            ts::register_kernel_set("overflow_" + std::to_string(i));
          }
        } catch (const ts::Error& e) {
          msg = e.what();
        }
        std::fprintf(stderr, "%s\n", msg.c_str());
        std::exit(ts::kernel_set_names().size() == ts::kMaxKernelSets ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "register_kernel_set: more than 16 kernel sets");
}

TEST(KernelSets, CompositeOpsTakeNoKernels) {
  EXPECT_ERROR(ts::register_kernel(custom_set(), OpId::empty, ts::kCPU, ts::DTypeSet::all(),
                                   answer_add_kernel),
               "register_kernel: empty is a composite op and takes no kernels");
  ts::KernelRegistrar m("test_custom");
  EXPECT_ERROR(m.impl(OpId::matmul, ts::kCPU, {ts::kFloat}, answer_add_kernel),
               "register_kernel: matmul is a composite op and takes no kernels");
  EXPECT_EQ(ts::get_kernel(OpId::matmul, ts::kCPU, custom_set()).fn, nullptr);
}

TEST(KernelSetGuard, NestsAndRestores) {
  const ts::KernelSetId base = ts::active_kernel_set();
  const ts::KernelSetId custom = custom_set();
  {
    ts::KernelSetGuard outer("test_custom");
    EXPECT_EQ(ts::active_kernel_set(), custom);
    {
      ts::KernelSetGuard inner("reference");
      EXPECT_EQ(ts::active_kernel_set(), reference_set());
      {
        ts::KernelSetGuard innermost("test_custom");
        EXPECT_EQ(ts::active_kernel_set(), custom);
      }
      EXPECT_EQ(ts::active_kernel_set(), reference_set());
    }
    EXPECT_EQ(ts::active_kernel_set(), custom);
  }
  EXPECT_EQ(ts::active_kernel_set(), base);
}

TEST(KernelSetGuard, IsPerThread) {
  const ts::KernelSetId base = ts::active_kernel_set();
  const ts::KernelSetId custom = custom_set();
  ts::KernelSetGuard g("test_custom");
  ASSERT_EQ(ts::active_kernel_set(), custom);
  ts::KernelSetId seen_in_thread = -2, seen_under_thread_guard = -2;
  std::thread th([&] {
    seen_in_thread = ts::active_kernel_set();  // this thread has no guard: the default
    ts::KernelSetGuard tg("reference");
    seen_under_thread_guard = ts::active_kernel_set();
  });
  th.join();
  EXPECT_EQ(seen_in_thread, base);
  EXPECT_EQ(seen_under_thread_guard, reference_set());
  EXPECT_EQ(ts::active_kernel_set(), custom);  // the other thread's guard did not leak here
  // And an op on another thread runs on that thread's set.
  Tensor from_thread;
  std::thread th2([&] {
    from_thread = ts::add(make(ts::kFloat, {1, 2}), make(ts::kFloat, {3, 4}));
  });
  th2.join();
  EXPECT_EQ(from_thread.data_ptr<float>()[0], 4.0f);
  EXPECT_EQ(from_thread.data_ptr<float>()[1], 6.0f);
  const Tensor here = ts::add(make(ts::kFloat, {1, 2}), make(ts::kFloat, {3, 4}));
  EXPECT_EQ(here.data_ptr<float>()[0], 42.0f);
}

TEST(KernelSetGuard, DefaultSetAppliesToThreadsWithoutAGuard) {
  const std::string before(ts::kernel_set_name(ts::active_kernel_set()));
  custom_set();
  ts::set_default_kernel_set("test_custom");
  ts::KernelSetId seen = -2;
  std::thread th([&] { seen = ts::active_kernel_set(); });
  th.join();
  EXPECT_EQ(seen, custom_set());
  {
    ts::KernelSetGuard g("reference");
    EXPECT_EQ(ts::active_kernel_set(), reference_set());
  }
  EXPECT_EQ(ts::active_kernel_set(), custom_set());
  ts::set_default_kernel_set(before);
  EXPECT_EQ(ts::kernel_set_name(ts::active_kernel_set()), before);
}

// ---- kernel look-up ----

TEST(Dispatch, CustomSetKernelRuns) {
  custom_set();
  ts::KernelSetGuard g("test_custom");
  const Tensor r = ts::add(make(ts::kFloat, {1, 2, 3}), make(ts::kFloat, {4, 5, 6}));
  ASSERT_EQ(r.dtype(), ts::kFloat);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(r.data_ptr<float>()[i], 42.0f);
  // dispatch() with a hand-made call goes to the same kernel.
  Tensor out = make(ts::kFloat, {0, 0});
  const Tensor ins[] = {make(ts::kFloat, {1, 1}), make(ts::kFloat, {1, 1})};
  ts::OpParams p;
  p.compute_dtype = ts::kFloat;
  p.set(ts::AlphaParams{1});
  ts::dispatch(ts::KernelCall{OpId::add, ts::ArrayRef<Tensor>(&out, 1), ins, p}, ts::kCPU);
  EXPECT_EQ(out.data_ptr<float>()[1], 42.0f);
  EXPECT_EQ(ts::lookup_kernel(OpId::add, ts::kFloat, ts::kCPU), &answer_add_kernel);
}

// A call whose parameter struct is not the one op_list.def declares for its op is refused
// before the kernel runs, naming both structs; the output is untouched.
TEST(Dispatch, CallWithTheWrongParamsStructIsRefused) {
  Tensor out = make(ts::kFloat, {7, 7});
  const Tensor ins[] = {make(ts::kFloat, {1, 1}), make(ts::kFloat, {1, 1})};
  ts::OpParams p;
  p.compute_dtype = ts::kFloat;
  p.set(ts::DivParams{});  // add declares AlphaParams
  EXPECT_ERROR(
      ts::dispatch(ts::KernelCall{OpId::add, ts::ArrayRef<Tensor>(&out, 1), ins, p}, ts::kCPU),
      "add: internal error: the call carries DivParams but op_list.def declares AlphaParams");
  EXPECT_EQ(out.data_ptr<float>()[0], 7.0f);
  p.args = {};  // NoParams
  EXPECT_ERROR(
      ts::dispatch(ts::KernelCall{OpId::add, ts::ArrayRef<Tensor>(&out, 1), ins, p}, ts::kCPU),
      "carries NoParams but op_list.def declares AlphaParams");
}

// Note [Version counters]: the core bumps the version of every tensor a kernel writes, autograd
// only reads it; with the autograd slot removed the counts are the same as with it.
TEST(Dispatch, KernelCallsBumpVersionsWithoutAutograd) {
  struct SlotRemoved {
    ts::AutogradSlot saved = ts::detail::autograd_slot;
    SlotRemoved() { ts::set_autograd_slot(nullptr); }
    ~SlotRemoved() { ts::set_autograd_slot(saved); }
  };
  ASSERT_NE(ts::detail::autograd_slot, nullptr);  // installed when libtouchstone loads
  Tensor x = make(ts::kFloat, {0, 0, 0}), v = x.narrow(0, 1, 2), y;
  {
    const SlotRemoved no_autograd;
    v.add_(1);             // in place through a view: x is [0, 1, 1], version 1
    ts::add_out(x, x, x);  // out=: [0, 2, 2], version 2
    y = x * 2;             // functional: x unchanged, y fresh at version 0
    x.fill_(5);            // version 3
  }
  EXPECT_EQ(values(x), (Values{5, 5, 5}));
  EXPECT_EQ(values(y), (Values{0, 4, 4}));
  EXPECT_EQ(x._version(), 3u);
  EXPECT_EQ(v._version(), 3u);  // a view shares its base's counter
  EXPECT_EQ(y._version(), 0u);
}

TEST(Dispatch, MissingKernelNamesOpDtypeDeviceAndSet) {
  custom_set();
  ts::KernelSetGuard g("test_custom");
  EXPECT_ERROR(ts::add(make(ts::kInt, {1, 2}), make(ts::kInt, {3, 4})),
               "add: kernel set 'test_custom' has no kernel for dtype int32 on device cpu");
  EXPECT_ERROR(ts::mul(make(ts::kFloat, {1}), make(ts::kFloat, {2})),
               "mul: kernel set 'test_custom' has no kernel for dtype float32 on device cpu "
               "(the op has no kernel there at all)");
  EXPECT_ERROR(ts::lookup_kernel(OpId::add, ts::kFloat, ts::Device("cuda:0")),
               "add: kernel set 'test_custom' has no kernel for dtype float32 on device cuda "
               "(the op has no kernel there at all)");
  EXPECT_ERROR(ts::lookup_kernel(OpId::add, ts::kHalf, ts::kCPU),
               "add: kernel set 'test_custom' has no kernel for dtype float16 on device cpu");
  // A failed in-place call leaves self untouched.
  const Tensor self = make(ts::kInt, {7, 8});
  EXPECT_ERROR(self.add_(make(ts::kInt, {1, 1})), "has no kernel for dtype int32");
  EXPECT_EQ(self.data_ptr<int32_t>()[0], 7);
  EXPECT_EQ(self.data_ptr<int32_t>()[1], 8);
}

// ---- plug-ins ----

const std::vector<std::string>& plugin_sets_from_first_load() {
  static const std::vector<std::string> sets = ts::load_kernel_set(TS_TEST_PLUGIN_PATH);
  return sets;
}

TEST(Plugin, LoadAddsItsKernelSet) {
  EXPECT_EQ(plugin_sets_from_first_load(), std::vector<std::string>{"test_plugin"});
  ASSERT_TRUE(ts::find_kernel_set("test_plugin").has_value());
  // Loading again runs the (idempotent) registration again and adds no set.
  EXPECT_TRUE(ts::load_kernel_set(TS_TEST_PLUGIN_PATH).empty());
  const auto names = ts::kernel_set_names();
  EXPECT_EQ(std::count(names.begin(), names.end(), "test_plugin"), 1);
}

TEST(Plugin, ItsKernelIsWhatRuns) {
  plugin_sets_from_first_load();
  const Tensor a = make(ts::kFloat, {1, 2, 3}), b = make(ts::kFloat, {10, 20, 30});
  {
    ts::KernelSetGuard g("test_plugin");
    const Tensor r = ts::add(a, b);
    ASSERT_EQ(r.dtype(), ts::kFloat);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(r.data_ptr<float>()[i], 1234.5f);
    EXPECT_ERROR(ts::add(make(ts::kInt, {1}), make(ts::kInt, {2})),
                 "add: kernel set 'test_plugin' has no kernel for dtype int32 on device cpu");
  }
  const Tensor r = ts::add(a, b);  // back on the default set: a real add
  EXPECT_EQ(r.data_ptr<float>()[2], 33.0f);
}

TEST(Plugin, NonPluginLibraryErrors) {
  EXPECT_ERROR(ts::load_kernel_set("libm.so.6"),
               "load_kernel_set: 'libm.so.6' is not a touchstone plug-in");
}

TEST(Plugin, MissingPathErrors) {
  EXPECT_ERROR(ts::load_kernel_set("/nonexistent/libts_nothing.so"),
               "load_kernel_set: cannot load '/nonexistent/libts_nothing.so'");
}

TEST(Plugin, WrongAbiErrorsWithoutRunningInit) {
  const std::string path = TS_TEST_BAD_ABI_PLUGIN_PATH;
  EXPECT_ERROR(ts::load_kernel_set(path), "load_kernel_set: '" + path +
                                              "' was built for plug-in ABI 999 but this "
                                              "touchstone has ABI 1");
  EXPECT_FALSE(ts::find_kernel_set("bad_abi_plugin").has_value());
}

// ---- TS_CHECK ----

int g_evaluations = 0;
int counted() {
  return ++g_evaluations;
}

TEST(Check, StreamsThePartsTogether) {
  const int x = 3;
  EXPECT_ERROR(TS_CHECK(x == 2, "op: got ", x, " and ", 1.5, ' ', "dtype ", ts::kHalf),
               "op: got 3 and 1.5 dtype float16");
  const std::string msg = error_of([&] { TS_CHECK(x == 2, "exactly ", x); });
  EXPECT_EQ(msg, "exactly 3");
}

TEST(Check, NoPartsNamesTheCondition) {
  const int x = 3;
  const std::string msg = error_of([&] { TS_CHECK(x == 2); });
  EXPECT_EQ(msg, "Expected x == 2 to be true, but got false.");
}

TEST(Check, PassingCheckEvaluatesNoParts) {
  g_evaluations = 0;
  EXPECT_NO_THROW(TS_CHECK(1 + 1 == 2, "never ", counted()));
  EXPECT_EQ(g_evaluations, 0);
  EXPECT_ERROR(TS_CHECK(1 + 1 == 3, "now ", counted()), "now 1");
}

TEST(Check, ErrorAndInternalAssert) {
  EXPECT_EQ(error_of([] { TS_ERROR("a", 1, "b", 2.5); }), "a1b2.5");
  EXPECT_ERROR(TS_INTERNAL_ASSERT(1 + 1 == 3, "context ", 7),
               "internal assert failed: 1 + 1 == 3 context 7");
  EXPECT_ERROR(TS_INTERNAL_ASSERT(false), "internal assert failed: false");
  // ts::Error is a std::runtime_error.
  try {
    TS_CHECK(false, "x");
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "x");
  }
}

}  // namespace
