// The optimized set's linear algebra kernels (mm, bmm, addmm, mv, dot, outer) against the
// reference set, on every dtype, layout (transposed operands included) and SIMD capability.
// Tolerances: integers are exact. Floating products accumulate k terms in float (OpenBLAS
// float32, our float16/bfloat16 loops) or double; the reference in double, rounded once. With
// operands in [-1, 1] we allow, on top of assert_close's defaults for the dtype,
// atol = k * eps(accumulation type): 2^-23 * k for float32/float16/bfloat16, 2^-52 * k for
// float64.
#include "optimized_check.h"
#include "touchstone/parallel.h"

namespace {

using ts::Tensor;
using namespace ts::testing;  // sample, layouts, name, default_atol, ...

constexpr ts::ScalarType kNoBool[] = {ts::kByte, ts::kChar,     ts::kShort, ts::kInt,   ts::kLong,
                                      ts::kHalf, ts::kBFloat16, ts::kFloat, ts::kDouble};

double product_atol(ts::ScalarType t, int64_t k) {
  if (!ts::is_floating_type(t)) return 0;
  const double eps = t == ts::kDouble ? 0x1p-52 : 0x1p-23;
  return default_atol(t) + eps * static_cast<double>(k);
}

// Operands: small integers for integer dtypes (wide enough for int8 products to wrap), [-1, 1)
// for floating ones.
Tensor operand(ts::IntArrayRef sizes, ts::ScalarType t, uint64_t seed) {
  return ts::is_floating_type(t) ? sample(sizes, t, -1, 1, seed)
                                 : sample(sizes, t, -100, 100, seed);
}

void expect_product(const std::function<Tensor()>& f, const std::string& what, ts::ScalarType t,
                    int64_t k) {
  expect_matches_reference(f, what, ts::is_floating_type(t) ? default_rtol(t) : 0,
                           product_atol(t, k));
}

// ---- mm ----

TEST(OptimizedMm, EveryDtypeAndEveryPairOfLayouts) {
  for (ts::ScalarType dt : kNoBool) {
    const Tensor a = operand({23, 29}, dt, 1);
    const Tensor b = operand({29, 31}, dt, 2);
    for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
      for_each_layout(layouts(b), [&](const std::string& lb, const Tensor& tb) {
        expect_product([&] { return ts::mm(ta, tb); }, "mm " + name(dt) + " " + la + " @ " + lb, dt,
                       29);
      });
    });
  }
}

TEST(OptimizedMm, SeveralBlocksInEveryDim) {
  // 70 x 260 x 260 spans two 64-row, 256-deep and 256-wide blocks of the blocked loops.
  for (ts::ScalarType dt : {ts::kFloat, ts::kHalf, ts::kInt}) {
    const Tensor a = operand({70, 260}, dt, 3);
    const Tensor bt = ref_clone(operand({260, 260}, dt, 4).t()).t();
    expect_product([&] { return ts::mm(a, bt); }, "large mm, b transposed " + name(dt), dt, 260);
  }
  // int64 products that wrap around.
  const Tensor big_a = sample({9, 7}, ts::kLong, -1e12, 1e12, 5);
  const Tensor big_b = sample({7, 5}, ts::kLong, -1e12, 1e12, 6);
  expect_product([&] { return ts::mm(big_a, big_b); }, "wrapping int64 mm", ts::kLong, 7);
}

TEST(OptimizedMm, EmptyKZeroExpandedAndVectorShapes) {
  for (ts::ScalarType dt : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kInt}) {
    const std::string n = name(dt);
    expect_product(
        [&] {
          return ts::mm(ts::empty({4, 0}, dt), ts::empty({0, 3}, dt));
        },
        "k = 0 gives zeros " + n, dt, 0);
    expect_product(
        [&] {
          return ts::mm(ts::empty({0, 5}, dt), operand({5, 3}, dt, 7));
        },
        "no rows " + n, dt, 5);
    expect_product(
        [&] {
          return ts::mm(operand({4, 5}, dt, 8), ts::empty({5, 0}, dt));
        },
        "no columns " + n, dt, 5);
    const Tensor row = operand({1, 6}, dt, 9);
    const Tensor col = operand({6, 1}, dt, 10);
    expect_product(
        [&] {
          return ts::mm(row.expand({5, 6}), operand({6, 4}, dt, 11));
        },
        "expanded rows " + n, dt, 6);
    expect_product(
        [&] {
          return ts::mm(operand({3, 6}, dt, 12), col.expand({6, 7}));
        },
        "expanded columns " + n, dt, 6);
    expect_product([&] { return ts::mm(row, col); }, "1 x 1 result " + n, dt, 6);
    expect_product([&] { return ts::mm(col, row); }, "rank one " + n, dt, 1);
  }
}

TEST(OptimizedMm, OutVariantsAliasingAndThreads) {
  const Tensor a = operand({20, 20}, ts::kFloat, 13);
  const Tensor b = operand({20, 20}, ts::kFloat, 14);
  expect_product(
      [&] {
        Tensor out = ts::empty({0}, ts::kFloat);
        ts::mm_out(out, a, b);
        return out;
      },
      "mm_out into an empty out", ts::kFloat, 20);
  // out= must have the operands' dtype (ATen), a wider one included.
  EXPECT_THROW(ts::mm_out(ts::empty({0}, ts::kDouble), a, b), ts::Error);
  expect_product(
      [&] {
        Tensor out = ref_clone(ts::empty({20, 20})).t();  // column-major out: C^T = B^T A^T
        ts::mm_out(out, a, b);
        return out;
      },
      "mm_out into a transposed out", ts::kFloat, 20);
  expect_product(
      [&] {
        Tensor big = ref_clone(ts::zeros({20, 40}));
        Tensor out = big.slice(1, 0, std::nullopt, 2);  // no BLAS layout: a temporary
        ts::mm_out(out, a, b);
        return big;
      },
      "mm_out into a stepped out", ts::kFloat, 20);
  for (ts::ScalarType dt : {ts::kFloat, ts::kHalf, ts::kShort}) {
    expect_product(
        [&] {
          Tensor x = ref_clone(operand({20, 20}, dt, 15));
          ts::mm_out(x, x, operand({20, 20}, dt, 16));  // out is an operand
          return x;
        },
        "mm_out(x, x, b) " + name(dt), dt, 20);
  }
  for_each_thread_count({1, 3}, [&](int threads) {
    expect_product(
        [&] {
          return ts::mm(operand({70, 90}, ts::kFloat, 17), operand({90, 80}, ts::kFloat, 18));
        },
        "mm with " + std::to_string(threads) + " threads", ts::kFloat, 90);
  });
}

// Our float32 sgemm (Note [Our sgemm]): every panel width (rows 4..13 and a 12 + 4 split), both
// vector halves of the 2-vector tile partly filled, k across the 256-deep slices, more than one
// 288-row block and 2048-column block, the four transposes, and 1, 2 and 3 threads (tasks cut
// along either dim). Skinny products (m < 4 or n < 16) go to OpenBLAS (m or n of 1: its gemv).
TEST(OptimizedMm, Float32TilesSlicesBlocksAndThreads) {
  struct Shape {
    int64_t m, n, k;
  };
  const std::vector<Shape> shapes = {{4, 16, 1},    {5, 17, 7},    {9, 31, 255},  {12, 32, 256},
                                     {13, 33, 257}, {16, 47, 300}, {25, 64, 513}, {7, 100, 40},
                                     {37, 1, 50},   {1, 45, 50}};
  for (const Shape& sh : shapes) {
    const Tensor a = operand({sh.m, sh.k}, ts::kFloat, 40 + sh.m);
    const Tensor b = operand({sh.k, sh.n}, ts::kFloat, 50 + sh.n);
    for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
      for_each_layout(layouts(b), [&](const std::string& lb, const Tensor& tb) {
        expect_product([&] { return ts::mm(ta, tb); },
                       "mm " + std::to_string(sh.m) + "x" + std::to_string(sh.k) + "x" +
                           std::to_string(sh.n) + " " + la + " @ " + lb,
                       ts::kFloat, sh.k);
      });
    });
  }
  for_each_thread_count({1, 2, 3}, [&](int threads) {
    const std::string t = " with " + std::to_string(threads) + " threads";
    // Two row blocks and a ragged last panel; tasks cut along m.
    expect_product(
        [&] {
          return ts::mm(operand({301, 70}, ts::kFloat, 60), operand({70, 40}, ts::kFloat, 61));
        },
        "mm 301x70x40" + t, ts::kFloat, 70);
    // Two column blocks (2048 wide) and a ragged last tile; tasks cut along n.
    const Tensor bt = ref_clone(operand({2100, 30}, ts::kFloat, 63)).t();
    expect_product(
        [&] {
          return ts::mm(operand({6, 30}, ts::kFloat, 62), bt);
        },
        "mm 6x30x2100, b transposed" + t, ts::kFloat, 30);
  });
}

TEST(OptimizedAddmm, Float32AlphaBetaAndStridedOut) {
  // alpha and beta on our sgemm's tiles, full and partial; beta = 0 must not read a NaN out.
  const Tensor self = operand({14, 40}, ts::kFloat, 70);
  const Tensor a = operand({14, 300}, ts::kFloat, 71), b = operand({300, 40}, ts::kFloat, 72);
  for (const auto& ab :
       std::vector<std::pair<double, double>>{{1, 1}, {0.5, -2}, {-3, 0}, {1, 0.25}}) {
    const double alpha = ab.first, beta = ab.second;  // clang 14: lambdas capture no bindings
    expect_product([&] { return ts::addmm(self, a, b, beta, alpha); },
                   "addmm alpha " + std::to_string(alpha) + " beta " + std::to_string(beta),
                   ts::kFloat, 300);
  }
  expect_product(
      [&] {
        Tensor out = ref_clone(ts::full({14, 40}, NAN));
        ts::addmm_out(out, self, a, b, 0, 1);
        return out;
      },
      "addmm_out beta 0 over a NaN out", ts::kFloat, 300);
  // A matrix-vector product (n == 1 and m == 1: gemv) with beta 0 over a NaN out, and addmv.
  expect_product(
      [&] {
        Tensor out = ref_clone(ts::full({14, 1}, NAN));
        ts::addmm_out(out, self.narrow(1, 0, 1), a, b.narrow(1, 0, 1), 0, 2);
        return out;
      },
      "addmm_out n = 1, beta 0 over a NaN out", ts::kFloat, 300);
  expect_product(
      [&] {
        Tensor out = ref_clone(ts::full({1, 40}, NAN));
        ts::addmm_out(out, self.narrow(0, 0, 1), a.narrow(0, 0, 1), b, 0, 2);
        return out;
      },
      "addmm_out m = 1, beta 0 over a NaN out", ts::kFloat, 300);
  expect_product([&] { return ts::addmv(self.select(1, 0), a, b.select(1, 3), 0.5, -1); }, "addmv",
                 ts::kFloat, 300);
  // An out whose rows are longer than n (ldc > n).
  expect_product(
      [&] {
        Tensor big = ref_clone(ts::zeros({14, 64}));
        ts::mm_out(big.slice(1, 3, 43), a, b);
        return big;
      },
      "mm_out into a column slice", ts::kFloat, 300);
}

// ---- bmm ----

TEST(OptimizedBmm, EveryDtypeAndBatchLayouts) {
  for (ts::ScalarType dt : kNoBool) {
    const Tensor a = operand({3, 11, 13}, dt, 20);
    const Tensor b = operand({3, 13, 9}, dt, 21);
    const Tensor at = ref_clone(a.transpose(1, 2)).transpose(1, 2);
    const Tensor bt = ref_clone(b.transpose(1, 2)).transpose(1, 2);
    const Tensor bstep = ref_clone(operand({6, 13, 9}, dt, 22)).slice(0, 0, std::nullopt, 2);
    const Tensor bexp = operand({1, 13, 9}, dt, 23).expand({3, 13, 9});
    const Tensor batch_last = ref_clone(a.permute({1, 2, 0})).permute({2, 0, 1});
    const std::string n = name(dt);
    expect_product([&] { return ts::bmm(a, b); }, "bmm " + n, dt, 13);
    expect_product([&] { return ts::bmm(at, b); }, "bmm a transposed " + n, dt, 13);
    expect_product([&] { return ts::bmm(a, bt); }, "bmm b transposed " + n, dt, 13);
    expect_product([&] { return ts::bmm(at, bt); }, "bmm both transposed " + n, dt, 13);
    expect_product([&] { return ts::bmm(a, bstep); }, "bmm stepped batch " + n, dt, 13);
    expect_product([&] { return ts::bmm(a, bexp); }, "bmm expanded batch " + n, dt, 13);
    expect_product([&] { return ts::bmm(batch_last, b); }, "bmm batch-last layout " + n, dt, 13);
  }
  expect_product(
      [&] {
        return ts::bmm(ts::empty({0, 3, 4}), ts::empty({0, 4, 5}));
      },
      "empty batch", ts::kFloat, 4);
  expect_product(
      [&] {
        return ts::bmm(ts::empty({2, 3, 0}), ts::empty({2, 0, 5}));
      },
      "bmm k = 0", ts::kFloat, 0);
  expect_product(
      [&] {
        Tensor out = ref_clone(ts::empty({3, 9, 11}, ts::kDouble)).transpose(1, 2);
        ts::bmm_out(out, operand({3, 11, 13}, ts::kDouble, 24),
                    operand({3, 13, 9}, ts::kDouble, 25));
        return out;
      },
      "bmm_out into transposed matrices", ts::kDouble, 13);
}

// ---- addmm ----

TEST(OptimizedAddmm, EveryDtypeAlphaBetaAndSelfBroadcast) {
  for (ts::ScalarType dt : kNoBool) {
    const bool fl = ts::is_floating_type(dt);
    const Tensor m1 = operand({17, 19}, dt, 30);
    const Tensor m2 = operand({19, 15}, dt, 31);
    const Tensor m1t = ref_clone(m1.t()).t();
    const Tensor self = operand({17, 15}, dt, 32);
    const Tensor row = operand({15}, dt, 33);
    const Tensor one = operand({1, 1}, dt, 34);
    const std::string n = name(dt);
    const ts::Scalar alpha = fl ? ts::Scalar(0.5) : ts::Scalar(3);
    const ts::Scalar beta = fl ? ts::Scalar(-1.5) : ts::Scalar(-2);
    expect_product([&] { return ts::addmm(self, m1, m2); }, "addmm " + n, dt, 19);
    expect_product([&] { return ts::addmm(self, m1t, m2, beta, alpha); }, "addmm a.t " + n, dt, 19);
    expect_product([&] { return ts::addmm(row, m1, m2, beta, alpha); }, "addmm row self " + n, dt,
                   19);
    expect_product([&] { return ts::addmm(one, m1, m2, 1, alpha); }, "addmm 1x1 self " + n, dt, 19);
    expect_product([&] { return ts::addmm(self, m1, m2, 0, alpha); }, "addmm beta 0 " + n, dt, 19);
    expect_product(
        [&] {
          Tensor s = ref_clone(self);
          s.addmm_(m1t, m2, beta, alpha);
          return s;
        },
        "addmm_ " + n, dt, 19);
  }
}

TEST(OptimizedAddmm, BetaZeroIgnoresNaNAndKZero) {
  Tensor nan_self;
  {
    ts::KernelSetGuard g("reference");
    nan_self = ts::full({6, 5}, std::numeric_limits<double>::quiet_NaN());
  }
  const Tensor m1 = operand({6, 7}, ts::kFloat, 35);
  const Tensor m2 = operand({7, 5}, ts::kFloat, 36);
  for (ts::ScalarType dt : kFloating) {
    Tensor s, a, b;
    {
      ts::KernelSetGuard g("reference");
      s = nan_self.to(dt), a = m1.to(dt), b = m2.to(dt);
    }
    expect_product([&] { return ts::addmm(s, a, b, 0, 2); }, "beta 0, NaN self " + name(dt), dt, 7);
    expect_product(
        [&] {
          Tensor out = ref_clone(s);  // NaN garbage in out= must not leak through either
          ts::addmm_out(out, s, a, b, 0, 1);
          return out;
        },
        "beta 0 into a NaN out " + name(dt), dt, 7);
    expect_product(
        [&] {
          Tensor x = ref_clone(s);
          x.addmm_(a, b, 0, 1);
          return x;
        },
        "addmm_ beta 0 over NaN " + name(dt), dt, 7);
    expect_product(
        [&] {
          return ts::addmm(operand({3, 4}, dt, 37), ts::empty({3, 0}, dt), ts::empty({0, 4}, dt), 2,
                           3);
        },
        "k = 0: beta * self " + name(dt), dt, 0);
  }
  expect_product(
      [&] {
        return ts::addmm(operand({3, 4}, ts::kInt, 38), ts::empty({3, 0}, ts::kInt),
                         ts::empty({0, 4}, ts::kInt), -3, 5);
      },
      "k = 0 int32", ts::kInt, 0);
}

TEST(OptimizedAddmm, OutAliasingSelfAndOperands) {
  for (ts::ScalarType dt : {ts::kFloat, ts::kHalf, ts::kLong}) {
    const Tensor m2 = operand({12, 12}, dt, 39);
    expect_product(
        [&] {
          Tensor x = ref_clone(operand({12, 12}, dt, 40));
          x.addmm_(x, m2, 1, 1);  // self is mat1
          return x;
        },
        "addmm_(x, b): self is mat1 " + name(dt), dt, 12);
    expect_product(
        [&] {
          Tensor x = ref_clone(operand({12, 12}, dt, 41));
          ts::addmm_out(x, x.select(0, 0), operand({12, 12}, dt, 42), m2, 1,
                        1);  // self a row of out
          return x;
        },
        "addmm_out: self is a row of out " + name(dt), dt, 12);
    expect_product(
        [&] {
          Tensor out = ref_clone(ts::empty({12, 12}, dt)).t();
          ts::addmm_out(out, operand({12}, dt, 43), operand({12, 12}, dt, 44), m2, 2, 1);
          return out;
        },
        "addmm_out into a transposed out " + name(dt), dt, 12);
  }
}

// ---- mv, dot ----

TEST(OptimizedMv, EveryDtypeLayoutAndVectorStride) {
  for (ts::ScalarType dt : kNoBool) {
    const Tensor a = operand({27, 33}, dt, 50);
    const Tensor x = operand({33}, dt, 51);
    const Tensor xs = ref_clone(operand({66}, dt, 52)).slice(0, 0, std::nullopt, 2);
    const Tensor xe = operand({1}, dt, 53).expand({33});
    for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
      const std::string what = name(dt) + " " + la;
      expect_product([&] { return ts::mv(ta, x); }, "mv " + what, dt, 33);
      expect_product([&] { return ts::mv(ta, xs); }, "mv stepped vec " + what, dt, 33);
      expect_product([&] { return ts::mv(ta, xe); }, "mv expanded vec " + what, dt, 33);
    });
    expect_product(
        [&] {
          return ts::mv(ts::empty({4, 0}, dt), ts::empty({0}, dt));
        },
        "mv k = 0 " + name(dt), dt, 0);
    expect_product(
        [&] {
          return ts::mv(ts::empty({0, 4}, dt), operand({4}, dt, 54));
        },
        "mv no rows " + name(dt), dt, 4);
  }
  expect_product(
      [&] {
        Tensor big = ref_clone(ts::zeros({54}, ts::kDouble));
        ts::mv_out(big.slice(0, 0, std::nullopt, 2), operand({27, 33}, ts::kDouble, 55),
                   operand({33}, ts::kDouble, 56));
        return big;
      },
      "mv_out into a stepped out", ts::kDouble, 33);
  expect_product(
      [&] {
        Tensor out = ts::empty({0}, ts::kFloat);
        ts::mv_out(out, operand({27, 33}, ts::kFloat, 57), operand({33}, ts::kFloat, 58));
        return out;
      },
      "mv_out into an empty out", ts::kFloat, 33);
  EXPECT_THROW(ts::mv_out(ts::empty({0}, ts::kDouble), operand({2, 3}, ts::kFloat, 57),
                          operand({3}, ts::kFloat, 58)),
               ts::Error);
}

TEST(OptimizedDot, EveryDtypeStrideAndLength) {
  for (ts::ScalarType dt : kNoBool) {
    const Tensor a = operand({200003}, dt, 60);  // several chunks of the blocked dot
    const Tensor b = operand({200003}, dt, 61);
    const Tensor as = ref_clone(operand({94}, dt, 62)).slice(0, 0, std::nullopt, 2);
    const Tensor be = operand({1}, dt, 63).expand({47});
    const std::string n = name(dt);
    expect_product([&] { return ts::dot(a, b); }, "long dot " + n, dt, 200003);
    expect_product([&] { return ts::dot(as, be); }, "stepped . expanded " + n, dt, 47);
    expect_product([&] { return ts::dot(ts::empty({0}, dt), ts::empty({0}, dt)); }, "empty " + n,
                   dt, 0);
    expect_product([&] { return ts::dot(as.slice(0, 0, 1), be.slice(0, 0, 1)); }, "one " + n, dt,
                   1);
  }
  expect_product(
      [&] {
        Tensor out = ts::empty({0}, ts::kFloat);
        ts::dot_out(out, operand({40}, ts::kFloat, 64), operand({40}, ts::kFloat, 65));
        return out;
      },
      "dot_out into an empty out", ts::kFloat, 40);
  EXPECT_THROW(ts::dot_out(ts::empty({}, ts::kDouble), operand({40}, ts::kFloat, 64),
                           operand({40}, ts::kFloat, 65)),
               ts::Error);
}

// ---- outer ----

TEST(OptimizedOuter, EveryDtypeMixedDtypesAndLayouts) {
  for (ts::ScalarType dt : {ts::kBool, ts::kByte, ts::kChar, ts::kShort, ts::kInt, ts::kLong,
                            ts::kHalf, ts::kBFloat16, ts::kFloat, ts::kDouble}) {
    const Tensor a = sample({37}, dt, -50, 50, 70);
    const Tensor b = sample({41}, dt, -50, 50, 71);
    const Tensor bs = ref_clone(sample({82}, dt, -50, 50, 72)).slice(0, 1, std::nullopt, 2);
    expect_matches_reference([&] { return ts::outer(a, b); }, "outer " + name(dt));
    expect_matches_reference([&] { return ts::outer(bs, a); }, "outer stepped " + name(dt));
  }
  const Tensor i = sample({9}, ts::kInt, -5, 5, 73);
  const Tensor f = sample({11}, ts::kHalf, -5, 5, 74);
  expect_matches_reference([&] { return ts::outer(i, f); }, "int32 x float16");
  expect_matches_reference([&] { return ts::outer(ts::empty({0}), f); }, "empty");
  expect_matches_reference(
      [&] {
        Tensor out = ref_clone(ts::empty({11, 9}, ts::kDouble)).t();
        ts::outer_out(out, i, f);
        return out;
      },
      "outer_out transposed float64");
}

}  // namespace
