// TensorIterator and parallel_for: shapes, strides, layouts, loops, 32-bit splitting.
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>

#include "touchstone/parallel.h"
#include "touchstone/tensor_iterator.h"
#include "touchstone/touchstone.h"

namespace {

using ts::IntArrayRef;
using ts::Tensor;
using ts::TensorIterator;
using ts::TensorIteratorConfig;

Tensor iota_float(IntArrayRef sizes) {
  Tensor t = ts::empty(sizes, ts::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>(i);
  return t;
}

// A transposed view built without the view ops, so this test depends only on the core.
Tensor transposed(const Tensor& t) {
  return ts::make_view(t, {t.sizes()[1], t.sizes()[0]}, {t.strides()[1], t.strides()[0]},
                       t.storage_offset());
}

std::vector<int64_t> vec(IntArrayRef a) {
  return a.vec();
}

// out = in * 2 through a float loop, for iterators over float operands.
void double_it(const TensorIterator& iter) {
  iter.for_each(
      [](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
        for (int64_t j = 0; j < n1; ++j) {
          char* out = data[0] + j * strides[2];
          const char* in = data[1] + j * strides[3];
          for (int64_t i = 0; i < n0; ++i) {
            *reinterpret_cast<float*>(out + i * strides[0]) =
                2 * *reinterpret_cast<const float*>(in + i * strides[1]);
          }
        }
      },
      /*grain_size=*/7);
}

TEST(TensorIterator, ContiguousOperandsCollapseToOneDim) {
  Tensor a = iota_float({2, 3, 4}), b = iota_float({2, 3, 4});
  TensorIterator iter = TensorIterator::binary_op(Tensor(), a, b);
  EXPECT_EQ(vec(iter.shape()), std::vector<int64_t>{24});
  EXPECT_TRUE(iter.is_contiguous());
  EXPECT_EQ(iter.output().sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_TRUE(iter.output().is_contiguous());
}

TEST(TensorIterator, BroadcastGivesStrideZeroAndFullOutput) {
  Tensor a = iota_float({4, 1}), b = iota_float({1, 3});
  TensorIterator iter = TensorIterator::binary_op(Tensor(), a, b);
  EXPECT_EQ(iter.output().sizes(), IntArrayRef({4, 3}));
  // Iteration dim 0 is the tensors' last dim (size 3): a is broadcast there, b steps by 4 bytes.
  ASSERT_EQ(iter.ndim(), 2);
  EXPECT_EQ(vec(iter.shape()), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(vec(iter.strides(1)), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(vec(iter.strides(2)), (std::vector<int64_t>{4, 0}));
  EXPECT_TRUE(iter.is_scalar(1) == false);
}

TEST(TensorIterator, PermutedInputGivesEquallyPermutedOutput) {
  Tensor base = iota_float({3, 4});
  Tensor a = transposed(base);  // sizes [4, 3], strides [1, 4]
  TensorIterator iter = TensorIterator::unary_op(Tensor(), a);
  const Tensor& out = iter.output();
  EXPECT_EQ(out.sizes(), IntArrayRef({4, 3}));
  EXPECT_EQ(out.strides(), IntArrayRef({1, 4}));
  EXPECT_TRUE(iter.is_contiguous());  // both walk memory linearly
  double_it(iter);
  // out[i][j] = 2 * a[i][j] = 2 * base[j][i] = 2 * (4j + i)
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      EXPECT_EQ(out.data_ptr<float>()[i * 1 + j * 4], 2.0f * (4 * j + i));
    }
  }
}

TEST(TensorIterator, UniformlyStridedSliceCoalesces) {
  Tensor base = iota_float({4, 6});
  Tensor a = ts::make_view(base, {4, 3}, {6, 2}, 1);  // base[:, 1::2] is one stride-2 run
  TensorIterator iter = TensorIterator::unary_op(Tensor(), a);
  EXPECT_EQ(iter.ndim(), 1);
  EXPECT_EQ(vec(iter.strides(1)), std::vector<int64_t>{8});
}

TEST(TensorIterator, StridedSliceIsNotCoalescedAcrossTheGap) {
  Tensor base = iota_float({4, 7});
  Tensor a = ts::make_view(base, {4, 3}, {7, 2}, 1);  // base[:, 1::2]: rows 28 bytes apart
  TensorIterator iter = TensorIterator::unary_op(Tensor(), a);
  EXPECT_EQ(iter.ndim(), 2);
  EXPECT_EQ(vec(iter.strides(1)), (std::vector<int64_t>{8, 28}));
  double_it(iter);
  const float* o = iter.output().data_ptr<float>();
  EXPECT_EQ(o[0], 2.0f * 1);
  EXPECT_EQ(o[1], 2.0f * 3);
  EXPECT_EQ(o[3], 2.0f * 8);
  EXPECT_EQ(o[11], 2.0f * 26);
}

TEST(TensorIterator, ForEachVisitsEveryElementOnceForAnyThreadCount) {
  for (int threads : {1, 2, 3, 8}) {
    ts::set_num_threads(threads);
    Tensor base = iota_float({37, 41});
    Tensor a = transposed(base);
    Tensor out = ts::empty({41, 37}, ts::kFloat);
    TensorIterator iter = TensorIterator::unary_op(out, a);
    double_it(iter);
    for (int64_t i = 0; i < 41; ++i) {
      for (int64_t j = 0; j < 37; ++j) {
        ASSERT_EQ(out.data_ptr<float>()[i * 37 + j], 2.0f * (j * 41 + i)) << threads;
      }
    }
  }
  ts::set_num_threads(2);
}

TEST(TensorIterator, SerialForEachCoversExactlyTheRange) {
  Tensor a = transposed(iota_float({5, 7}));
  Tensor out = ts::empty({7, 5}, ts::kFloat);
  TensorIterator iter = TensorIterator::unary_op(out, a);
  int64_t visited = 0;
  iter.serial_for_each([&](char**, const int64_t*, int64_t n0, int64_t n1) { visited += n0 * n1; },
                       {6, 29});
  EXPECT_EQ(visited, 23);
}

TEST(TensorIterator, PromotesInputsAndChecksSafeCasting) {
  Tensor a = ts::empty({3}, ts::kInt);
  Tensor b = iota_float({3});
  TensorIterator iter = TensorIterator::binary_op(Tensor(), a, b);
  EXPECT_EQ(iter.common_dtype(), ts::kFloat);
  EXPECT_EQ(iter.input_dtype(0), ts::kFloat);  // a cast into a temporary
  EXPECT_EQ(iter.output().dtype(), ts::kFloat);
  Tensor int_out = ts::empty({3}, ts::kInt);
  try {
    TensorIterator::binary_op(int_out, a, b);
    FAIL();
  } catch (const ts::Error& e) {
    EXPECT_STREQ(e.what(), "result type float32 can't be cast to the desired output type int32");
  }
}

TEST(TensorIterator, OutputOfAnotherDtypeIsWrittenBackByCastOutputs) {
  Tensor a = iota_float({4});
  Tensor out = ts::empty({4}, ts::kDouble);
  TensorIterator iter = TensorIterator::unary_op(out, a);
  EXPECT_EQ(iter.dtype(0), ts::kFloat);
  double_it(iter);
  iter.cast_outputs();
  EXPECT_EQ(out.data_ptr<double>()[3], 6.0);
}

TEST(TensorIterator, ReductionOutputHasStrideZeroOnReducedDims) {
  Tensor a = iota_float({3, 4});
  Tensor out = ts::empty({3, 1}, ts::kFloat);
  for (int64_t i = 0; i < 3; ++i) out.data_ptr<float>()[i] = 0;
  TensorIterator iter = TensorIterator::reduce_op(out, a);
  ASSERT_EQ(iter.ndim(), 2);
  EXPECT_TRUE(iter.is_dim_reduced(0));  // reduced dims go innermost
  EXPECT_FALSE(iter.is_dim_reduced(1));
  iter.for_each([](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    for (int64_t j = 0; j < n1; ++j) {
      for (int64_t i = 0; i < n0; ++i) {
        *reinterpret_cast<float*>(data[0] + i * strides[0] + j * strides[2]) +=
            *reinterpret_cast<const float*>(data[1] + i * strides[1] + j * strides[3]);
      }
    }
  });
  EXPECT_EQ(out.data_ptr<float>()[0], 0 + 1 + 2 + 3);
  EXPECT_EQ(out.data_ptr<float>()[2], 8 + 9 + 10 + 11);
}

TEST(TensorIterator, HugeExpandedReductionSplitsInto32BitPieces) {
  // 2^32 logical elements of one stored float: no memory cost.
  Tensor one = iota_float({1});
  Tensor a = one.expand({int64_t{1} << 32});
  Tensor out = ts::empty({1}, ts::kFloat);
  TensorIterator iter = TensorIterator::reduce_op(out, a);
  EXPECT_FALSE(iter.can_use_32bit_indexing());
  int pieces = 0;
  int64_t total = 0;
  std::vector<std::pair<bool, bool>> flags;
  for (TensorIterator& piece : iter.with_32bit_indexing()) {
    EXPECT_TRUE(piece.can_use_32bit_indexing());
    ++pieces;
    total += piece.numel();
    flags.emplace_back(piece.should_accumulate(), piece.is_final_output());
  }
  EXPECT_EQ(pieces, 4);
  EXPECT_EQ(total, int64_t{1} << 32);
  // Only the last piece is final; every piece after the first accumulates.
  EXPECT_EQ(flags, (std::vector<std::pair<bool, bool>>{
                       {false, false}, {true, false}, {true, false}, {true, true}}));
}

TEST(TensorIterator, LargeByteStridesSplitAlongTheWidestDim) {
  // Two rows 2^32 bytes apart: only pointer arithmetic, never dereferenced.
  Tensor storage = ts::empty({8}, ts::kInt);
  Tensor a = ts::make_view(storage, {2, 3}, {int64_t{1} << 30, 1}, 0);
  Tensor out = ts::make_view(storage, {2, 3}, {int64_t{1} << 30, 1}, 0);
  TensorIterator iter =
      TensorIteratorConfig().add_output(out).add_input(a).check_mem_overlap(false).build();
  EXPECT_FALSE(iter.can_use_32bit_indexing());
  std::vector<char*> starts;
  for (TensorIterator& piece : iter.with_32bit_indexing()) {
    EXPECT_TRUE(piece.can_use_32bit_indexing());
    EXPECT_EQ(piece.numel(), 3);
    starts.push_back(piece.data_ptr(1));
  }
  ASSERT_EQ(starts.size(), 2u);
  EXPECT_EQ(starts[1] - starts[0], int64_t{1} << 32);
}

TEST(Parallel, ForNeverNestsAndFixedChunksIgnoreThreadCount) {
  ts::set_num_threads(2);
  std::atomic<int> nested_parallel{0};
  ts::parallel_for(0, 100, 1, [&](int64_t, int64_t) {
    ts::parallel_for(0, 100, 1, [&](int64_t b, int64_t e) {
      if (b != 0 || e != 100) ++nested_parallel;
    });
  });
  EXPECT_EQ(nested_parallel.load(), 0);
  for (int threads : {1, 3}) {
    ts::set_num_threads(threads);
    std::vector<int64_t> bounds(10, -1);
    ts::parallel_for_fixed(0, 95, 10,
                           [&](int64_t c, int64_t b, int64_t e) { bounds[c] = b * 1000 + e; });
    EXPECT_EQ(bounds[0], 10);
    EXPECT_EQ(bounds[9], 90 * 1000 + 95);
  }
  ts::set_num_threads(2);
  try {
    ts::set_num_threads(0);
    FAIL();
  } catch (const ts::Error& e) {
    EXPECT_STREQ(e.what(), "set_num_threads: expected a number of threads from 1 to 4096, got 0");
  }
}

}  // namespace

namespace {

TEST(TensorIterator, OutputStridesLikeFollowPermutedInputs) {
  Tensor base = ts::empty({2, 3, 4}, ts::kFloat);
  // permute(2, 0, 1): sizes [4, 2, 3], strides [1, 12, 4]
  Tensor p = ts::make_view(base, {4, 2, 3}, {1, 12, 4}, 0);
  EXPECT_EQ(vec(TensorIterator::output_strides_like({4, 2, 3}, {p})),
            (std::vector<int64_t>{1, 12, 4}));
  // Broadcasting a contiguous [3] against the permuted input keeps the permuted layout.
  Tensor row = ts::empty({3}, ts::kFloat);
  EXPECT_EQ(vec(TensorIterator::output_strides_like({4, 2, 3}, {p, row})),
            (std::vector<int64_t>{1, 12, 4}));
  // Functional elementwise ops allocate their result that way (ATen's behaviour).
  ts::KernelSetGuard g("reference");
  Tensor r = ts::mul(p, p);
  EXPECT_EQ(r.strides(), IntArrayRef({1, 12, 4}));
}

}  // namespace
