// CUDA index_select, gather, scatter_add, cat and outer against the CPU reference set, the
// bounds check of device indices (Note [Index bounds]), and the scatter_add atomics of every
// dtype with hand values. Skipped when no device is visible.
#include "test_cuda_util.h"

using namespace ts::testing;  // NOLINT
using ts::Tensor;

namespace {

using CudaIndex = CudaTest;

TEST_F(CudaIndex, GatherAndIndexSelectMatchReference) {
  for (ts::ScalarType t : {kFloat, kDouble, kHalf, kByte, kShort, kLong, kBool}) {
    const Tensor x = random_input({6, 9, 4}, t, 20.0);
    const Tensor sel = make_long({8, 0, 3, 3, 5});
    const Tensor sel32 = make(kInt, {2, 1, 0});
    const std::string name = std::string(ts::dtype_name(t));
    for (int64_t d : {0, 1, 2}) {
      expect_matches_reference(
          "index_select " + name + " dim " + std::to_string(d),
          [d](const Ts& in) {
            return ts::index_select(in[0], d, d == 1 ? in[1] : ts::remainder(in[1], 4));
          },
          {x, sel}, Tolerance{});
    }
    expect_matches_reference(
        "index_select int32 index " + name,
        [](const Ts& in) { return ts::index_select(in[0].transpose(0, 2), 1, in[1]); }, {x, sel32},
        Tolerance{});
    // gather with an index smaller than self in the other dims.
    const Tensor idx = ts::randint(0, 9, {5, 7, 3});
    expect_matches_reference(
        "gather " + name, [](const Ts& in) { return ts::gather(in[0], 1, in[1]); }, {x, idx},
        Tolerance{});
  }
}

TEST_F(CudaIndex, ScatterAddMatchesReference) {
  for (ts::ScalarType t : {kFloat, kDouble, kHalf, kBFloat16, kInt, kLong, kShort, kChar, kByte}) {
    // Integers large enough to wrap the narrow dtypes; floats of magnitude about 2.
    const bool floating = ts::is_floating_type(t);
    const Tensor self = random_input({5, 8}, t, floating ? 2.0 : 40.0);
    const Tensor src = random_input({30, 8}, t, floating ? 2.0 : 40.0, 0.0, 9);
    const Tensor idx = ts::randint(0, 5, {30, 8});  // many collisions per output element
    expect_matches_reference(
        "scatter_add " + std::string(ts::dtype_name(t)),
        [](const Ts& in) { return ts::scatter_add(in[0], 0, in[1], in[2]); }, {self, idx, src},
        floating ? tolerance_for(t, 30) : Tolerance{});
    expect_matches_reference(
        "scatter_add_ dim 1 " + std::string(ts::dtype_name(t)),
        [](const Ts& in) {
          Tensor s = in[0].clone();
          s.scatter_add_(1, ts::remainder(in[1], 8).narrow(0, 0, 5), in[2].narrow(0, 0, 5));
          return s;
        },
        {self, idx, src}, floating ? tolerance_for(t, 8) : Tolerance{});
  }
}

TEST_F(CudaIndex, ScatterAddNarrowAtomicsByHand) {
  // Four int8 adds into one byte (and its neighbours in the same 32-bit word): 100 * 3 wraps.
  const Tensor idx = to_cuda(make_long({1, 1, 1, 2, 0, 3}));
  const Tensor src8 = to_cuda(make(kChar, {100, 100, 100, -1, 5, 7}));
  const Tensor self8 = to_cuda(make(kChar, {0, 0, 0, 0}));
  EXPECT_EQ(values(to_cpu(ts::scatter_add(self8, 0, idx, src8))), (Values{5, 44, -1, 7}));
  const Tensor src16 = to_cuda(make(kShort, {30000, 30000, 10, -1, 5, 7}));
  const Tensor self16 = to_cuda(make(kShort, {1, 2, 3, 4}));
  EXPECT_EQ(values(to_cpu(ts::scatter_add(self16, 0, idx, src16))), (Values{6, -5524, 2, 11}));
  // bool adds are ORs.
  const Tensor srcb = to_cuda(make(kBool, {0, 0, 1, 0, 0, 0}));
  const Tensor selfb = to_cuda(make(kBool, {0, 0, 1, 0}));
  EXPECT_EQ(values(to_cpu(ts::scatter_add(selfb, 0, idx, srcb))), (Values{0, 1, 1, 0}));
}

TEST_F(CudaIndex, DeviceIndexBoundsAreChecked) {
  const Tensor x = to_cuda(random_input({4, 3}, kFloat));
  const Tensor out = to_cuda(make(kFloat, Values(9, 9.0), {3, 3}));
  for (const auto& [bad, message] : std::vector<std::pair<std::vector<int64_t>, std::string>>{
           {{0, 4, 1}, "index_select: index 4 out of range in self (size 4 at dimension 0)"},
           {{-1, 2, 0}, "index_select: index -1 out of range in self (size 4 at dimension 0)"}}) {
    try {
      (void)ts::index_select_out(out, x, 0, to_cuda(make_long(bad)));
      FAIL() << "no error for a bad device index";
    } catch (const ts::Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
    // Nothing was written.
    EXPECT_EQ(values(to_cpu(out)), Values(9, 9.0));
  }
  try {
    (void)ts::gather(x, 1, to_cuda(make_long({0, 1, 2, 3, 0, 0}, {2, 3})));
    FAIL() << "no error for a bad gather index";
  } catch (const ts::Error& e) {
    EXPECT_NE(std::string(e.what()).find("gather: index 3 is out of bounds for dimension 1"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(CudaIndex, CatAndOuterMatchReference) {
  const Tensor a = random_input({3, 5}, kFloat);
  const Tensor b = random_input({3, 2}, kFloat, 1.0, 0.0, 3);
  const Tensor c = random_input({3, 4}, kHalf, 1.0, 0.0, 4);  // promoted to float
  expect_matches_reference(
      "cat dim 1",
      [](const Ts& in) {
        return ts::cat({in[0], in[1], in[2]}, 1);
      },
      {a, b, c}, Tolerance{});
  expect_matches_reference(
      "cat dim 0",
      [](const Ts& in) {
        return ts::cat({in[0].transpose(0, 1), in[1].t()}, 0);
      },
      {a, b}, Tolerance{});
  for (ts::ScalarType t : {kFloat, kDouble, kHalf, kInt, kChar, kBool}) {
    const Tensor u = random_input({7}, t, 9.0);
    const Tensor v = random_input({5}, t, 9.0, 0.0, 5);
    expect_matches_reference(
        "outer " + std::string(ts::dtype_name(t)),
        [](const Ts& in) { return ts::outer(in[0], in[1]); }, {u, v}, tolerance_for(t));
  }
}

}  // namespace
