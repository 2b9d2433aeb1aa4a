#pragma once
// The direct float32 convolution of conv_direct.cpp (Note [Direct convolution]).
#include <cstdint>

namespace ts::cpu {

// A direct (not transposed) convolution of contiguous float32 tensors: x (n, c_in, in...),
// w (c_out, c_in / groups, k...), bias (c_out) or null, y (n, c_out, out...). Spatial dims are
// padded to 3 in front (a missing dim has size 1, stride 1, no padding).
struct DirectConv {
  const float* x = nullptr;
  const float* w = nullptr;
  const float* bias = nullptr;
  float* y = nullptr;
  int64_t n = 0, c_in = 0, c_out = 0, groups = 1;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1};
  int64_t s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, p[3] = {0, 0, 0};
};

// Whether conv_direct takes this geometry: strides along the last dim of 1 or 2.
bool conv_direct_supported(const DirectConv& c);
// Runs it on our threads.
void conv_direct(const DirectConv& c);

// Copies `planes` contiguous planes of x (in[0] x in[1] x in[2] each) into dst as planes of
// dims[0] x dims[1] x dims[2], element (i0, i1, i2) at (i0 + front[0], ...), zeros around it
// (dims >= in + front); on our threads.
void pad_planes(const float* x, int64_t planes, const int64_t in[3], const int64_t dims[3],
                const int64_t front[3], float* dst);

// Whether conv_winograd takes this geometry (Note [Winograd convolution] in conv_winograd.cpp):
// 2-d, 3x3, stride and dilation 1, one group, at least 16 channels in and out.
bool conv_winograd_supported(const DirectConv& c);
// Runs it on our threads.
void conv_winograd(const DirectConv& c);

}  // namespace ts::cpu
