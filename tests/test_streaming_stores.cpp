// Outputs of at least the last-level cache's size take the optimized set's non-temporal store
// paths (Note [Streaming stores] in optimized/cpu/elementwise.h): elementwise loops, contiguous
// copies, step-2 slices and float32 <-> float64 conversions, fills (Note [Streaming every fill]),
// index_select's rows, cat, scatter_add's lines, scatter's and scatter_reduce's rows.
// Each writes 72 MiB into a view one float past an aligned start (so the first vector is peeled),
// with a guard element on each side; expected values are computed here in plain C++ (sums of small
// integers and halves, exact in float32).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace {

using ts::Tensor;

constexpr int64_t kN =
    (int64_t{72} << 20) / 4 + 5;  // above a 32 MiB LLC, and twice it; not a vector multiple
constexpr float kGuard = -7.0f;

float a_at(int64_t i) {
  return static_cast<float>(i % 4096);
}
float b_at(int64_t i) {
  return 0.5f * static_cast<float>(i % 3);
}

Tensor filled(float (*f)(int64_t)) {
  Tensor t = ts::empty({kN});
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < kN; ++i) p[i] = f(i);
  return t;
}

// A buffer of n elements and 2 guards, and its view [1, n + 1): 4 bytes past the 64-byte
// aligned start.
struct Out {
  explicit Out(int64_t size = kN) : n(size) {}
  int64_t n;
  Tensor buffer = ts::full({n + 2}, kGuard);
  Tensor view = buffer.slice(0, 1, n + 1);
};

// The first index where `out` differs from `expect(i)` (n when none), and both guards intact.
template <class F>
void expect_values(const Out& out, const F& expect, const char* what) {
  const float* p = out.buffer.data_ptr<float>();
  const int64_t n = out.n;
  EXPECT_EQ(p[0], kGuard) << what;
  EXPECT_EQ(p[n + 1], kGuard) << what;
  int64_t bad = n;
  for (int64_t i = 0; i < n && bad == n; ++i) {
    if (p[i + 1] != expect(i)) bad = i;
  }
  EXPECT_EQ(bad, n) << what << ": element " << bad << " is " << p[bad + 1] << ", expected "
                    << (bad < n ? expect(bad) : 0.0f);
}

class StreamingStores : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    before_ = ts::get_num_threads();
    ts::set_num_threads(GetParam());
  }
  void TearDown() override { ts::set_num_threads(before_); }

 private:
  int before_ = 1;
  ts::KernelSetGuard guard_{"optimized"};
};

TEST_P(StreamingStores, ElementwiseOutputsBeyondTheCache) {
  const Tensor a = filled(a_at), b = filled(b_at);
  Out out;
  ts::add_out(out.view, a, b);
  expect_values(
      out, [](int64_t i) { return a_at(i) + b_at(i); }, "add");
  ts::neg_out(out.view, a);
  expect_values(
      out, [](int64_t i) { return -a_at(i); }, "neg");
  ts::mul_out(out.view, a, ts::full({}, 0.5f));  // a stride-0 operand
  expect_values(
      out, [](int64_t i) { return a_at(i) * 0.5f; }, "mul by a 0-dim tensor");
  ts::addcmul_out(out.view, a, b, ts::full({}, 2.0f), 1);
  expect_values(
      out, [](int64_t i) { return a_at(i) + b_at(i) * 2.0f; }, "addcmul");
}

TEST_P(StreamingStores, CopiesAndFillsBeyondTheCache) {
  const Tensor a = filled(a_at);
  Out out;
  out.view.copy_(a);
  expect_values(out, a_at, "copy_");
  out.view.fill_(2.5);
  expect_values(
      out, [](int64_t) { return 2.5f; }, "fill_");
  out.view.zero_();
  expect_values(
      out, [](int64_t) { return 0.0f; }, "zero_");
}

// Every second element of a source twice the size (Note [Every second element]); the slice ends
// at the source's last element.
TEST_P(StreamingStores, StepTwoSliceCopiesBeyondTheCache) {
  Tensor src = ts::empty({2 * kN - 1});
  float* p = src.data_ptr<float>();
  for (int64_t i = 0; i < 2 * kN - 1; ++i) p[i] = i % 2 == 0 ? a_at(i / 2) : kGuard;
  Out out;
  out.view.copy_(src.slice(0, 0, 2 * kN - 1, 2));
  expect_values(out, a_at, "copy_ from a step-2 slice");
}

// float64 <-> float32 copies convert in lanes and stream (rounding as static_cast): thirds do
// not fit float32, so a wrong rounding shows.
TEST_P(StreamingStores, ConversionsBeyondTheCache) {
  const auto third = [](int64_t i) { return static_cast<double>(i % 4096) + 1.0 / 3.0; };
  Tensor d = ts::empty({kN}, ts::kDouble);
  double* dp = d.data_ptr<double>();
  for (int64_t i = 0; i < kN; ++i) dp[i] = third(i);
  Out out;
  out.view.copy_(d);
  expect_values(
      out, [&](int64_t i) { return static_cast<float>(third(i)); }, "copy_ from float64");
  const Tensor a = filled(a_at);
  Tensor wide = ts::full({kN + 2}, static_cast<double>(kGuard), ts::kDouble);
  wide.slice(0, 1, kN + 1).copy_(a);
  const double* wp = wide.data_ptr<double>();
  EXPECT_EQ(wp[0], kGuard);
  EXPECT_EQ(wp[kN + 1], kGuard);
  int64_t bad = kN;
  for (int64_t i = 0; i < kN && bad == kN; ++i) {
    if (wp[i + 1] != static_cast<double>(a_at(i))) bad = i;
  }
  EXPECT_EQ(bad, kN) << "copy_ to float64: element " << bad;
}

// Broadcast sources copy row by row: a fill or a memcpy per row of 4099 (each row peels its own
// unaligned head).
TEST_P(StreamingStores, ExpandedCopiesBeyondTheCache) {
  constexpr int64_t kRows = 3072, kCols = 4099;
  Out out(kRows * kCols);
  const Tensor rows = out.view.view({kRows, kCols});
  const Tensor a = filled(a_at);
  rows.copy_(a.slice(0, 0, kRows).view({kRows, 1}).expand({kRows, kCols}));
  expect_values(
      out, [](int64_t i) { return a_at(i / kCols); }, "copy_ from a column");
  rows.copy_(a.slice(0, 0, kCols).view({1, kCols}).expand({kRows, kCols}));
  expect_values(
      out, [](int64_t i) { return a_at(i % kCols); }, "copy_ from a row");
}

// Iterations of more than two dims call the loop body once per 2-D chunk, and the streamed stores
// are fenced once per parallel piece (Note [One fence per piece]): kron's broadcast product as a
// 4-D mul, [6, 1, 4, 1] x [1, 768, 1, 1024], and a 3-D permuted copy (rows of 1024 from [288, 64,
// 1024] transposed over its first two dims), each into 72 MiB.
TEST_P(StreamingStores, FourDimProductsAndPermutedCopiesBeyondTheCache) {
  constexpr int64_t kA0 = 6, kA1 = 4, kB0 = 768, kB1 = 1024;
  Out out(kA0 * kB0 * kA1 * kB1);
  const Tensor a = filled(a_at).slice(0, 0, kA0 * kA1).view({kA0, 1, kA1, 1});
  const Tensor b = filled(b_at).slice(0, 0, kB0 * kB1).view({1, kB0, 1, kB1});
  ts::mul_out(out.view.view({kA0, kB0, kA1, kB1}), a, b);
  expect_values(
      out,
      [](int64_t i) {
        const int64_t b1 = i % kB1, a1 = i / kB1 % kA1, b0 = i / (kB1 * kA1) % kB0,
                      a0 = i / (kB1 * kA1 * kB0);
        return a_at(a0 * kA1 + a1) * b_at(b0 * kB1 + b1);
      },
      "kron as a 4-D mul");
  constexpr int64_t kP = 288, kQ = 64, kR = 1024;
  const Tensor src = filled(a_at).slice(0, 0, kP * kQ * kR).view({kP, kQ, kR});
  out.view.view({kQ, kP, kR}).copy_(src.transpose(0, 1));
  expect_values(
      out,
      [](int64_t i) {
        const int64_t r = i % kR, p = i / kR % kP, q = i / (kR * kP);
        return a_at((p * kQ + q) * kR + r);
      },
      "copy_ of a transposed 3-D tensor");
}

// index_select over dim 0 copies whole rows, streamed: rows 4098, 6, 13, ... (7 apart, wrapping)
// of a 4099 x 4099 table, each row starting at a different alignment.
TEST_P(StreamingStores, IndexSelectRowsBeyondTheCache) {
  constexpr int64_t kRows = 4099, kCols = 4099;
  const Tensor table = filled(a_at).slice(0, 0, kRows * kCols).view({kRows, kCols});
  Tensor index = ts::empty({kRows - 1}, ts::kLong);
  int64_t* ip = index.data_ptr<int64_t>();
  for (int64_t r = 0; r < kRows - 1; ++r) ip[r] = (r * 7 + 4098) % kRows;
  Out out((kRows - 1) * kCols);
  ts::index_select_out(out.view.view({kRows - 1, kCols}), table, 0, index);
  expect_values(
      out, [&](int64_t i) { return a_at(((i / kCols * 7 + 4098) % kRows) * kCols + i % kCols); },
      "index_select rows");
}

// index_copy over dim 0 writes each row once, from source or from self (Note [index_copy in one
// pass]): rows 4097, 4095, ... (the odd ones, backwards) take source's rows 0, 1, ...; the even
// rows keep self's (a_at); source's rows hold b_at + 8 (one of 8, 8.5, 9). Rows start at every
// alignment.
TEST_P(StreamingStores, IndexCopyRowsBeyondTheCache) {
  constexpr int64_t kRows = 4098, kCols = 4099, kHalf = kRows / 2;
  const Tensor self = filled(a_at).slice(0, 0, kRows * kCols).view({kRows, kCols});
  const Tensor source = ts::add(filled(b_at).slice(0, 0, kHalf * kCols), 8.0f).view({kHalf, kCols});
  Tensor index = ts::empty({kHalf}, ts::kLong);
  int64_t* ip = index.data_ptr<int64_t>();
  for (int64_t r = 0; r < kHalf; ++r) ip[r] = kRows - 1 - 2 * r;
  Out out(kRows * kCols);
  ts::index_copy_out(out.view.view({kRows, kCols}), self, 0, index, source);
  expect_values(
      out,
      [&](int64_t i) {
        const int64_t row = i / kCols, col = i % kCols;
        if (row % 2 == 0) return a_at(i);
        return b_at((kRows - 1 - row) / 2 * kCols + col) + 8.0f;
      },
      "index_copy rows");
}

// cat of contiguous inputs copies slab pieces, streamed: along dim 1, so every output row holds
// a piece of each input (widths 1000, 3, 3096: pieces at every alignment).
TEST_P(StreamingStores, CatBeyondTheCache) {
  constexpr int64_t kRows = 4608, kCols = 4099;
  const Tensor a = filled(a_at), b = filled(b_at);
  const Tensor x = a.slice(0, 0, kRows * 1000).view({kRows, 1000});
  const Tensor y = b.slice(0, 0, kRows * 3).view({kRows, 3});
  const Tensor z = a.slice(0, 7, 7 + kRows * 3096).view({kRows, 3096});
  Out out(kRows * kCols);
  ts::cat_out(out.view.view({kRows, kCols}), {x, y, z}, 1);
  expect_values(
      out,
      [](int64_t i) {
        const int64_t r = i / kCols, c = i % kCols;
        if (c < 1000) return a_at(r * 1000 + c);
        if (c < 1003) return b_at(r * 3 + c - 1000);
        return a_at(7 + r * 3096 + c - 1003);
      },
      "cat along dim 1");
}

// Rows of 4099 scattered along dim 1: row r's k-th index is (k / 2 * 5 + r) % 4099, so every
// column is the target of two terms (one for the last pair, none for half the columns), in
// order. Values are integers and halves: sums, maxima and minima are exact.
struct ScatterRows {
  static constexpr int64_t kRows = 4600, kCols = 4099;  // 4099 is prime: 5 has an inverse, 820
  Tensor self = filled(a_at).slice(0, 0, kRows* kCols).view({kRows, kCols});
  Tensor src = filled(b_at).slice(0, 0, kRows* kCols).view({kRows, kCols});
  Tensor index = ts::empty({kRows, kCols}, ts::kLong);
  ScatterRows() {
    int64_t* ip = index.data_ptr<int64_t>();
    for (int64_t r = 0; r < kRows; ++r) {
      for (int64_t k = 0; k < kCols; ++k) ip[r * kCols + k] = (k / 2 * 5 + r) % kCols;
    }
  }
  // The source values that reach flat position i, in order: v[0, n).
  struct Terms {
    float v[2];
    int n = 0;
  };
  static Terms terms(int64_t i) {
    const int64_t r = i / kCols, c = i % kCols;
    const int64_t j = ((c - r) % kCols + kCols) % kCols * 820 % kCols;  // (c - r) / 5
    Terms t;
    for (int64_t k = 2 * j; k < 2 * j + 2 && k < kCols; ++k) t.v[t.n++] = b_at(r * kCols + k);
    return t;
  }
  // out of place into a misaligned view, then in place on a copy of self.
  template <class F, class E>
  void check(const F& op, const E& expect, const char* what) const {
    Out out(kRows * kCols);
    op(out.view.view({kRows, kCols}), self, false);
    expect_values(out, expect, what);
    Out in_place(kRows * kCols);
    in_place.view.copy_(self.reshape({-1}));
    op(in_place.view.view({kRows, kCols}), in_place.view.view({kRows, kCols}), true);
    expect_values(in_place, expect, what);
  }
};

// scatter_add reads each line from self and streams it out (Note [Scatter_add in a line
// buffer] in optimized/cpu/index.cpp); scatter and scatter_reduce amax/amin update rows in a
// buffer and stream them (Note [Scattered rows streamed] in optimized/cpu/advanced_index.cpp).
TEST_P(StreamingStores, ScatterAlongRowsBeyondTheCache) {
  const ScatterRows s;
  const Tensor &index = s.index, &src = s.src;
  s.check(
      [&](const Tensor& out, const Tensor& self, bool in_place) {
        if (in_place) return (void)out.scatter_add_(1, index, src);
        ts::scatter_add_out(out, self, 1, index, src);
      },
      [](int64_t i) {
        const ScatterRows::Terms t = ScatterRows::terms(i);
        float v = a_at(i);
        for (int k = 0; k < t.n; ++k) v += t.v[k];
        return v;
      },
      "scatter_add");
  s.check(
      [&](const Tensor& out, const Tensor& self, bool in_place) {
        if (in_place) return (void)out.scatter_(1, index, src);
        ts::scatter_out(out, self, 1, index, src);
      },
      [](int64_t i) {
        const ScatterRows::Terms t = ScatterRows::terms(i);
        return t.n == 0 ? a_at(i) : t.v[t.n - 1];  // the last write wins
      },
      "scatter");
  for (const char* reduce : {"amax", "amin"}) {
    const bool is_max = reduce[1] == 'm' && reduce[2] == 'a';
    s.check([&](const Tensor& out, const Tensor& self,
                bool) { ts::scatter_reduce_out(out, self, 1, index, src, reduce); },
            [is_max](int64_t i) {
              const ScatterRows::Terms t = ScatterRows::terms(i);
              float v = a_at(i);
              for (int k = 0; k < t.n; ++k) v = is_max ? std::max(v, t.v[k]) : std::min(v, t.v[k]);
              return v;
            },
            reduce);
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, StreamingStores, ::testing::Values(1, 2, 3));

}  // namespace
