// Philox4x32-10 known answers, the default generator's state, and rand/randn/randint values
// checked against Note [Philox streams] in touchstone/random.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <thread>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using Words = std::array<uint32_t, 4>;

// Known-answer vectors from Random123's kat_vectors (philox4x32 10 rounds).
TEST(Philox, KnownAnswerZeroCounterZeroKey) {
  const Words w = ts::philox4x32_10({0, 0, 0, 0}, {0, 0});
  EXPECT_EQ(w, (Words{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
}

TEST(Philox, KnownAnswerAllOnes) {
  const Words w =
      ts::philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff});
  EXPECT_EQ(w, (Words{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
}

TEST(Philox, KnownAnswerPiDigits) {
  const Words w =
      ts::philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0});
  EXPECT_EQ(w, (Words{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(Philox, IsUsableAtCompileTime) {
  constexpr Words w = ts::philox4x32_10({0, 0, 0, 0}, {0, 0});
  static_assert(w[0] == 0x6627e8d5u && w[3] == 0x9b00dbd8u);
}

TEST(Philox, WordsSplitSeedAndCounterIntoLowAndHighHalves) {
  const uint64_t seed = 0x0123456789abcdefull, offset = 0xfffffffffffffffeull;
  // offset + 3 wraps to 1.
  EXPECT_EQ(ts::philox_words(seed, offset, 3),
            ts::philox4x32_10({1, 0, 0, 0}, {0x89abcdef, 0x01234567}));
  EXPECT_EQ(ts::philox_words(seed, 0x100000000ull, 5),
            ts::philox4x32_10({5, 1, 0, 0}, {0x89abcdef, 0x01234567}));
}

TEST(Philox, UniformHelpersUseTheDocumentedBits) {
  EXPECT_EQ(ts::uniform_float(0), 0.0f);
  EXPECT_EQ(ts::uniform_float(0xffffffffu), 1.0f - 0x1p-24f);  // largest value below 1
  EXPECT_EQ(ts::uniform_float(0x80000000u), 0.5f);
  EXPECT_EQ(ts::uniform_float(0x000000ffu), 0.0f);  // the low 8 bits are dropped
  EXPECT_EQ(ts::uniform_double(0, 0), 0.0);
  EXPECT_EQ(ts::uniform_double(0xffffffffu, 0xffffffffu), 1.0 - 0x1p-53);
  EXPECT_EQ(ts::uniform_double(0, 0x80000000u), 0.5);  // word 1 is the high half
  EXPECT_EQ(ts::uniform_double(0x800u, 0), 0x1p-53);   // bit 11 of word 0 is the lowest kept
  EXPECT_EQ(ts::uniform_double(0x7ffu, 0), 0.0);
  EXPECT_EQ(ts::uniform_from_bits(0xffffffffu, 11), 1.0 - 0x1p-11);
  EXPECT_EQ(ts::uniform_from_bits(0x01000000u, 8), 0x1p-8);
}

TEST(Philox, NormalIsBoxMullerOnWords01And23) {
  // u1 = 1 - 0.5, u2 = 0: z = sqrt(-2 log 0.5) * cos(0) = sqrt(2 ln 2).
  EXPECT_DOUBLE_EQ(ts::normal_double({0, 0x80000000u, 0, 0}), std::sqrt(2.0 * std::log(2.0)));
  // u2 = 0.5: cos(pi) = -1.
  EXPECT_DOUBLE_EQ(ts::normal_double({0, 0x80000000u, 0, 0x80000000u}),
                   -std::sqrt(2.0 * std::log(2.0)));
  // u1 = 1: log(1) = 0, whatever u2.
  EXPECT_EQ(ts::normal_double({0, 0, 123, 456}), 0.0);
  // The largest uniform gives the smallest u1 = 2^-53: finite.
  EXPECT_TRUE(std::isfinite(ts::normal_double({0xffffffffu, 0xffffffffu, 0, 0})));
}

TEST(Philox, UniformIntUsesOneWordUpTo2To32AndTwoWordsAbove) {
  EXPECT_EQ(ts::uniform_int_from_to({10, 7, 0, 0}, 3, -5), -5 + 1);
  EXPECT_EQ(ts::uniform_int_from_to({0xffffffffu, 7, 0, 0}, uint64_t{1} << 32, 0), 0xffffffffll);
  const uint64_t range = (uint64_t{1} << 32) + 1;
  const uint64_t x = (uint64_t{7} << 32) | 10;
  EXPECT_EQ(ts::uniform_int_from_to({10, 7, 0, 0}, range, 100),
            100 + static_cast<int64_t>(x % range));
  // The full int64 range wraps without overflow.
  EXPECT_EQ(ts::uniform_int_from_to({0, 0, 0, 0}, ~uint64_t{0}, INT64_MIN), INT64_MIN);
}

TEST(Generator, ManualSeedResetsOffsetAndReserveAdvancesIt) {
  ts::manual_seed(42);
  EXPECT_EQ(ts::philox_state().seed, 42u);
  EXPECT_EQ(ts::philox_state().offset, 0u);
  const ts::PhiloxState a = ts::reserve_philox_counters(10);
  EXPECT_EQ(a.seed, 42u);
  EXPECT_EQ(a.offset, 0u);
  const ts::PhiloxState b = ts::reserve_philox_counters(5);
  EXPECT_EQ(b.offset, 10u);
  EXPECT_EQ(ts::philox_state().offset, 15u);
}

TEST(Generator, SetStateRestoresASavedState) {
  ts::manual_seed(7);
  (void)ts::rand({3});
  const ts::PhiloxState saved = ts::philox_state();
  const ts::Tensor a = ts::rand({4});
  ts::set_philox_state(saved);
  const ts::Tensor b = ts::rand({4});
  for (int i = 0; i < 4; ++i) EXPECT_EQ(a.data_ptr<float>()[i], b.data_ptr<float>()[i]);
}

TEST(Generator, ConcurrentReservationsAreDisjoint) {
  ts::manual_seed(1);
  constexpr int kThreads = 4, kPer = 1000;
  std::vector<std::vector<uint64_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kPer; ++k) got[t].push_back(ts::reserve_philox_counters(3).offset);
    });
  }
  for (auto& th : threads) th.join();
  std::vector<uint64_t> all;
  for (auto& g : got) all.insert(all.end(), g.begin(), g.end());
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], 3 * i);
  EXPECT_EQ(ts::philox_state().offset, uint64_t{3} * kThreads * kPer);
}

TEST(Rand, SameSeedGivesSameValuesDifferentSeedsDiffer) {
  ts::manual_seed(123);
  const ts::Tensor a = ts::rand({100});
  ts::manual_seed(123);
  const ts::Tensor b = ts::rand({100});
  ts::manual_seed(124);
  const ts::Tensor c = ts::rand({100});
  int differ = 0;
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(a.data_ptr<float>()[i], b.data_ptr<float>()[i]);
    differ += a.data_ptr<float>()[i] != c.data_ptr<float>()[i];
  }
  EXPECT_GT(differ, 95);
}

TEST(Rand, ConsecutiveCallsAdvanceTheOffsetByNumel) {
  ts::manual_seed(5);
  const ts::Tensor a = ts::rand({2, 3});
  EXPECT_EQ(ts::philox_state().offset, 6u);
  const ts::Tensor b = ts::rand({4});
  EXPECT_EQ(ts::philox_state().offset, 10u);
  // b continues the stream where a stopped: b[0] is counter 6.
  EXPECT_EQ(b.data_ptr<float>()[0], ts::uniform_float(ts::philox_words(5, 6, 0)[0]));
  EXPECT_NE(a.data_ptr<float>()[0], b.data_ptr<float>()[0]);
  (void)ts::rand({0});  // an empty tensor reserves nothing
  EXPECT_EQ(ts::philox_state().offset, 10u);
}

TEST(Rand, ElementIMatchesTheNoteForEveryFloatingDtype) {
  const uint64_t seed = 0xdeadbeefcafef00dull;
  ts::manual_seed(seed);
  ts::set_philox_state({seed, 1000});
  const ts::Tensor f = ts::rand({2, 5});
  const ts::Tensor d = ts::rand({7}, ts::kDouble);
  const ts::Tensor h = ts::rand({3}, ts::kHalf);
  const ts::Tensor bf = ts::rand({3}, ts::kBFloat16);
  ASSERT_EQ(f.dtype(), ts::kFloat);
  ASSERT_EQ(f.sizes(), ts::IntArrayRef({2, 5}));
  for (uint64_t i = 0; i < 10; ++i) {
    const Words w =
        ts::philox4x32_10({static_cast<uint32_t>(1000 + i), 0, 0, 0},
                          {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)});
    EXPECT_EQ(f.data_ptr<float>()[i], static_cast<float>(w[0] >> 8) / 16777216.0f) << i;
  }
  for (uint64_t i = 0; i < 7; ++i) {
    const Words w = ts::philox_words(seed, 1010, i);
    const uint64_t bits = (static_cast<uint64_t>(w[1]) << 32) | w[0];
    EXPECT_EQ(d.data_ptr<double>()[i], std::ldexp(static_cast<double>(bits >> 11), -53)) << i;
  }
  for (uint64_t i = 0; i < 3; ++i) {
    const Words wh = ts::philox_words(seed, 1017, i);
    EXPECT_EQ(static_cast<float>(h.data_ptr<ts::Half>()[i]),
              std::ldexp(static_cast<float>(wh[0] >> 21), -11));
    const Words wb = ts::philox_words(seed, 1020, i);
    EXPECT_EQ(static_cast<float>(bf.data_ptr<ts::BFloat16>()[i]),
              std::ldexp(static_cast<float>(wb[0] >> 24), -8));
  }
}

TEST(Rand, ValuesLieInZeroOneAndLookUniform) {
  ts::manual_seed(2024);
  for (ts::ScalarType t : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kBFloat16}) {
    const ts::Tensor r = ts::rand({20000}, t);
    double sum = 0;
    int below_quarter = 0;
    for (int64_t i = 0; i < 20000; ++i) {
      const double v = get(r, i);
      ASSERT_GE(v, 0.0) << t;
      ASSERT_LT(v, 1.0) << t;
      sum += v;
      below_quarter += v < 0.25;
    }
    // mean 0.5 (bfloat16's 8-bit grid: 0.5 - 2^-9), sd of the mean ~0.002; fraction < 0.25 ~0.003.
    EXPECT_NEAR(sum / 20000, 0.5, 0.012) << t;
    EXPECT_NEAR(below_quarter / 20000.0, 0.25, 0.015) << t;
  }
}

TEST(Randn, ElementIIsBoxMullerOfItsWords) {
  ts::set_philox_state({99, 7});
  const ts::Tensor d = ts::randn({3, 2}, ts::kDouble);
  const ts::Tensor f = ts::randn({4});
  for (uint64_t i = 0; i < 6; ++i) {
    const Words w = ts::philox_words(99, 7, i);
    const double u1 = 1.0 - ts::uniform_double(w[0], w[1]);
    const double u2 = ts::uniform_double(w[2], w[3]);
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    EXPECT_EQ(d.data_ptr<double>()[i], z) << i;
  }
  for (uint64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(f.data_ptr<float>()[i],
              static_cast<float>(ts::normal_double(ts::philox_words(99, 13, i))));
  }
}

TEST(Randn, MeanAndStdOf100kSamples) {
  ts::manual_seed(31337);
  constexpr int n = 100000;
  const ts::Tensor r = ts::randn({n}, ts::kDouble);
  const double* p = r.data_ptr<double>();
  double sum = 0, sq = 0;
  int within_one = 0;
  for (int i = 0; i < n; ++i) {
    sum += p[i];
    sq += p[i] * p[i];
    within_one += std::fabs(p[i]) < 1.0;
  }
  const double mean = sum / n, var = sq / n - mean * mean;
  // Standard errors: mean 1/sqrt(n) = 0.0032, variance sqrt(2/n) = 0.0045; bounds are ~5 sigma.
  EXPECT_NEAR(mean, 0.0, 0.016);
  EXPECT_NEAR(std::sqrt(var), 1.0, 0.012);
  EXPECT_NEAR(within_one / static_cast<double>(n), 0.6827, 0.008);  // sd 0.0015
}

TEST(Randn, ReducedPrecisionDtypesRoundTheDoubleValue) {
  ts::set_philox_state({3, 0});
  const ts::Tensor h = ts::randn({5}, ts::kHalf);
  const ts::Tensor b = ts::randn({5}, ts::kBFloat16);
  for (uint64_t i = 0; i < 5; ++i) {
    const double z = ts::normal_double(ts::philox_words(3, 0, i));
    EXPECT_NEAR(static_cast<float>(h.data_ptr<ts::Half>()[i]), z, std::fabs(z) * 0x1p-11 + 1e-7);
    const double zb = ts::normal_double(ts::philox_words(3, 5, i));
    EXPECT_NEAR(static_cast<float>(b.data_ptr<ts::BFloat16>()[i]), zb,
                std::fabs(zb) * 0x1p-8 + 1e-7);
  }
}

TEST(Randint, ValuesAreInRangeHitEveryValueAndMatchTheNote) {
  ts::set_philox_state({11, 0});
  const ts::Tensor r = ts::randint(-3, 4, {5000});
  ASSERT_EQ(r.dtype(), ts::kLong);
  int seen[7] = {};
  for (int i = 0; i < 5000; ++i) {
    const int64_t v = r.data_ptr<int64_t>()[i];
    ASSERT_GE(v, -3);
    ASSERT_LT(v, 4);
    ++seen[v + 3];
    const Words w = ts::philox_words(11, 0, static_cast<uint64_t>(i));
    ASSERT_EQ(v, -3 + static_cast<int64_t>(w[0] % 7));
  }
  for (int k = 0; k < 7; ++k) EXPECT_GT(seen[k], 600);  // expected 714 each
}

TEST(Randint, HighOnlyOverloadAndOtherDtypes) {
  ts::set_philox_state({12, 0});
  const ts::Tensor a = ts::randint(10, {3, 4}, ts::kInt);
  ASSERT_EQ(a.dtype(), ts::kInt);
  ASSERT_EQ(a.sizes(), ts::IntArrayRef({3, 4}));
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(a.data_ptr<int32_t>()[i],
              static_cast<int32_t>(ts::philox_words(12, 0, static_cast<uint64_t>(i))[0] % 10));
  }
  const ts::Tensor b = ts::randint(0, 2, {100}, ts::kBool);
  const ts::Tensor u = ts::randint(250, 256, {100}, ts::kByte);
  const ts::Tensor f = ts::randint(-2048, 2049, {100}, ts::kHalf);
  int trues = 0;
  for (int i = 0; i < 100; ++i) {
    trues += b.data_ptr<bool>()[i];
    EXPECT_GE(u.data_ptr<uint8_t>()[i], 250);
    const float fv = static_cast<float>(f.data_ptr<ts::Half>()[i]);
    EXPECT_EQ(fv, std::trunc(fv));
    EXPECT_GE(fv, -2048.0f);
    EXPECT_LE(fv, 2048.0f);
  }
  EXPECT_GT(trues, 20);
  EXPECT_LT(trues, 80);
  // Device-only options keep the int64 default.
  EXPECT_EQ(ts::randint(3, {2}, ts::TensorOptions(ts::kCPU)).dtype(), ts::kLong);
}

TEST(Randint, WideRangesUseTwoWords) {
  ts::set_philox_state({13, 0});
  const int64_t lo = INT64_MIN, hi = INT64_MAX;
  const ts::Tensor r = ts::randint(lo, hi, {50});
  for (uint64_t i = 0; i < 50; ++i) {
    const Words w = ts::philox_words(13, 0, i);
    const uint64_t x = (static_cast<uint64_t>(w[1]) << 32) | w[0];
    const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    EXPECT_EQ(r.data_ptr<int64_t>()[i],
              static_cast<int64_t>(static_cast<uint64_t>(lo) + x % range));
  }
}

TEST(Random, ErrorsNameTheOpAndLeaveTheGeneratorAlone) {
  ts::manual_seed(0);
  EXPECT_ERROR(ts::rand({2}, ts::kLong), "rand: not implemented for dtype int64");
  EXPECT_ERROR(ts::randn({2}, ts::kBool), "randn: not implemented for dtype bool");
  EXPECT_ERROR(ts::rand({-1}), "rand: Trying to create tensor with negative dimension -1");
  EXPECT_ERROR(ts::randint(5, 3, {2}),
               "randint: random_ expects 'from' to be less than 'to', but got from=5 >= to=3");
  EXPECT_ERROR(ts::randint(4, 4, {2}), "but got from=4 >= to=4");
  EXPECT_ERROR(ts::randint(0, 0, {2}), "but got from=0 >= to=0");
  EXPECT_ERROR(ts::randint(-1, 5, {2}, ts::kByte), "randint: from is out of bounds for uint8");
  EXPECT_ERROR(ts::randint(0, 257, {2}, ts::kByte), "randint: to - 1 is out of bounds for uint8");
  EXPECT_ERROR(ts::randint(0, 3, {2}, ts::kBool), "randint: to - 1 is out of bounds for bool");
  EXPECT_ERROR(ts::randint(-129, 0, {2}, ts::kChar), "randint: from is out of bounds for int8");
  EXPECT_ERROR(ts::randint(0, 2050, {2}, ts::kHalf),
               "randint: to - 1 is out of bounds [-(2^11), 2^11]. Due to precision limitations "
               "float16 can support discrete uniform distribution only within this range.");
  EXPECT_ERROR(ts::randint(-257, 0, {2}, ts::kBFloat16), "randint: from is out of bounds [-(2^8)");
  EXPECT_ERROR(ts::randint(-3, {2}), "but got from=0 >= to=-3");
  EXPECT_ERROR(ts::rand_like(ts::empty({2}, ts::kInt)), "rand: not implemented for dtype int32");
  EXPECT_ERROR(ts::randn_like(ts::empty({2}, ts::kLong)), "randn: not implemented for dtype int64");
  EXPECT_EQ(ts::philox_state().offset, 0u);
}

TEST(Random, LikeFactoriesTakeShapeAndDtypeFromSelf) {
  ts::set_philox_state({21, 0});
  const ts::Tensor self = ts::empty({2, 3}, ts::kDouble);
  const ts::Tensor a = ts::rand_like(self);
  EXPECT_EQ(a.dtype(), ts::kDouble);
  EXPECT_EQ(a.sizes(), ts::IntArrayRef({2, 3}));
  const ts::Tensor b = ts::randn_like(self, ts::kHalf);
  EXPECT_EQ(b.dtype(), ts::kHalf);
  EXPECT_EQ(b.sizes(), ts::IntArrayRef({2, 3}));
  EXPECT_EQ(a.data_ptr<double>()[5],
            ts::uniform_double(ts::philox_words(21, 0, 5)[0], ts::philox_words(21, 0, 5)[1]));
  EXPECT_EQ(ts::philox_state().offset, 12u);
  const ts::Tensor z = ts::rand({});  // 0-dim: one element
  EXPECT_EQ(z.dim(), 0);
  EXPECT_EQ(z.data_ptr<float>()[0], ts::uniform_float(ts::philox_words(21, 12, 0)[0]));
}

}  // namespace
