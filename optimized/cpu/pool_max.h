#pragma once
// The vectorized window maxima of pool.cpp's max pooling (Note [Max pooling in lanes]).
#include <cstdint>

namespace ts::cpu {

// One output row along the last spatial dim, outputs [begin, end) whose windows lie whole in the
// input row: output o reads positions start + o step + k dilation (k < taps, all in [0, in)) of
// each window row, whose offsets in the plane are rows[0..nrows) in window order. y and ind are
// the row's outputs (indexed by o); `first` is the offset of the window's first row (the index
// of an empty window, as in pool.cpp's max_planes). Offsets must fit in int32.
template <typename T>
struct MaxRow {
  const T* plane = nullptr;
  const int64_t* rows = nullptr;
  int64_t nrows = 0, first = 0;
  int64_t start = 0, step = 1, taps = 1, dilation = 1, in = 0;
  int64_t begin = 0, end = 0;
  T* y = nullptr;
  int64_t* ind = nullptr;
};

void max_pool_row(const MaxRow<float>& r);
void max_pool_row(const MaxRow<double>& r);

}  // namespace ts::cpu
