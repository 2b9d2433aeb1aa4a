// The parity test's convolution family (issue 16): convolution, conv1d/2d/3d (numeric and
// "same"/"valid" padding, groups, stride, dilation) and conv_transpose1d/2d/3d (stride,
// output_padding, groups), with and without bias, over every dtype and two layouts, and bad calls.
#include <ATen/ops/conv1d.h>
#include <ATen/ops/conv2d.h>
#include <ATen/ops/conv3d.h>
#include <ATen/ops/conv_transpose1d.h>
#include <ATen/ops/conv_transpose2d.h>
#include <ATen/ops/conv_transpose3d.h>
#include <ATen/ops/convolution.h>

#include "parity.h"

namespace ts::parity {
namespace {

using Shape = std::vector<int64_t>;

struct ConvCall {
  const char* op;
  std::string what;
  Shape x, w;
  std::function<TsT(const TsVec&, const TsT&)> ts_f;
  std::function<AtT(const AtVec&, const AtT&)> at_f;
};

std::vector<ConvCall> conv_calls() {
  return {
      {"convolution",
       "stride2,pad1",
       {2, 3, 6},
       {4, 3, 3},
       [](const TsVec& in, const TsT& b) {
         return ts::convolution(in[0], in[1], b, 2, 1, 1, false, 0, 1);
       },
       [](const AtVec& in, const AtT& b) {
         return at::convolution(in[0], in[1], b, {2}, {1}, {1}, false, {0}, 1);
       }},
      {"conv1d",
       "dilation2,pad2",
       {2, 3, 7},
       {4, 3, 3},
       [](const TsVec& in, const TsT& b) { return ts::conv1d(in[0], in[1], b, 1, 2, 2); },
       [](const AtVec& in, const AtT& b) { return at::conv1d(in[0], in[1], b, 1, 2, 2); }},
      {"conv2d",
       "groups2,stride(1,2),pad(1,0)",
       {2, 4, 4, 5},
       {4, 2, 3, 2},
       [](const TsVec& in, const TsT& b) {
         return ts::conv2d(in[0], in[1], b, {1, 2}, {1, 0}, 1, 2);
       },
       [](const AtVec& in, const AtT& b) {
         return at::conv2d(in[0], in[1], b, {1, 2}, {1, 0}, 1, 2);
       }},
      {"conv2d",
       "same,kernel2",
       {1, 2, 4, 4},
       {3, 2, 2, 2},
       [](const TsVec& in, const TsT& b) { return ts::conv2d(in[0], in[1], b, 1, "same"); },
       [](const AtVec& in, const AtT& b) { return at::conv2d(in[0], in[1], b, 1, "same"); }},
      {"conv2d",
       "unbatched,valid",
       {2, 4, 4},
       {3, 2, 3, 3},
       [](const TsVec& in, const TsT& b) { return ts::conv2d(in[0], in[1], b, 1, "valid"); },
       [](const AtVec& in, const AtT& b) { return at::conv2d(in[0], in[1], b, 1, "valid"); }},
      {"conv3d",
       "pad(1,0,1)",
       {1, 2, 3, 3, 4},
       {2, 2, 2, 2, 2},
       [](const TsVec& in, const TsT& b) {
         return ts::conv3d(in[0], in[1], b, 1, {1, 0, 1});
       },
       [](const AtVec& in, const AtT& b) {
         return at::conv3d(in[0], in[1], b, 1, {1, 0, 1});
       }},
      {"conv_transpose1d",
       "stride2,pad1,outpad1",
       {2, 3, 4},
       {3, 2, 3},
       [](const TsVec& in, const TsT& b) { return ts::conv_transpose1d(in[0], in[1], b, 2, 1, 1); },
       [](const AtVec& in, const AtT& b) {
         return at::conv_transpose1d(in[0], in[1], b, 2, 1, 1);
       }},
      {"conv_transpose2d",
       "groups2,dilation(1,3),outpad(1,2)",
       {1, 4, 3, 3},
       {4, 1, 2, 2},
       [](const TsVec& in, const TsT& b) {
         return ts::conv_transpose2d(in[0], in[1], b, {2, 1}, 0, {1, 2}, 2, {1, 3});
       },
       [](const AtVec& in, const AtT& b) {
         return at::conv_transpose2d(in[0], in[1], b, {2, 1}, 0, {1, 2}, 2, {1, 3});
       }},
      {"conv_transpose3d",
       "stride2",
       {1, 2, 2, 2, 3},
       {2, 2, 2, 2, 2},
       [](const TsVec& in, const TsT& b) { return ts::conv_transpose3d(in[0], in[1], b, 2); },
       [](const AtVec& in, const AtT& b) { return at::conv_transpose3d(in[0], in[1], b, 2); }},
  };
}

void run_convs(Tally& tally, const std::string& set) {
  for (const ConvCall& cc : conv_calls()) {
    const bool transposed = std::string(cc.op).rfind("conv_transpose", 0) == 0;
    const int64_t groups = cc.what.rfind("groups2", 0) == 0 ? 2 : 1;
    const int64_t c_out = transposed ? cc.w[1] * groups : cc.w[0];
    for (ScalarType d : kDtypes) {
      for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
        for (const bool bias : {false, true}) {
          Call c{cc.op,
                 "f",
                 short_name(d) + "," + cc.what + (bias ? ",bias" : ""),
                 layout_name(l),
                 {{d, l, 0, cc.x}, {d, Layout::Contiguous, 1, cc.w}}};
          if (bias) c.inputs.push_back({d, Layout::Contiguous, 0, {c_out}});
          c.grad = true;
          const auto ts_f = cc.ts_f;
          const auto at_f = cc.at_f;
          run_call(
              tally, set, c, [=](const TsVec& in) { return ts_f(in, bias ? in[2] : TsT()); },
              [=](const AtVec& in) { return at_f(in, bias ? in[2] : AtT()); });
        }
      }
    }
  }
}

void run_bad_conv(Tally& tally, const std::string& set) {
  const Input x{kFloat, Layout::Contiguous, 0, {1, 3, 5, 5}};
  const Input w{kFloat, Layout::Contiguous, 1, {4, 3, 3, 3}};
  run_bad(
      tally, set, "conv2d", "channels 2 for 3", {{kFloat, Layout::Contiguous, 0, {1, 2, 5, 5}}, w},
      [](const TsVec& in) { return ts::conv2d(in[0], in[1]); },
      [](const AtVec& in) { return at::conv2d(in[0], in[1]); });
  run_bad(
      tally, set, "conv2d", "stride 0", {x, w},
      [](const TsVec& in) { return ts::conv2d(in[0], in[1], {}, 0); },
      [](const AtVec& in) { return at::conv2d(in[0], in[1], {}, 0); });
  run_bad(
      tally, set, "conv2d", "padding -1", {x, w},
      [](const TsVec& in) { return ts::conv2d(in[0], in[1], {}, 1, -1); },
      [](const AtVec& in) { return at::conv2d(in[0], in[1], {}, 1, -1); });
  run_bad(
      tally, set, "conv2d", "kernel larger than input",
      {{kFloat, Layout::Contiguous, 0, {1, 3, 2, 2}}, w},
      [](const TsVec& in) { return ts::conv2d(in[0], in[1]); },
      [](const AtVec& in) { return at::conv2d(in[0], in[1]); });
  run_bad(
      tally, set, "conv2d", "same with stride 2", {x, w},
      [](const TsVec& in) { return ts::conv2d(in[0], in[1], {}, 2, "same"); },
      [](const AtVec& in) { return at::conv2d(in[0], in[1], {}, 2, "same"); });
  run_bad(
      tally, set, "conv2d", "bias [3]", {x, w, {kFloat, Layout::Contiguous, 0, {3}}},
      [](const TsVec& in) { return ts::conv2d(in[0], in[1], in[2]); },
      [](const AtVec& in) { return at::conv2d(in[0], in[1], in[2]); });
  run_bad(
      tally, set, "conv2d", "2-D input", {{kFloat, Layout::Contiguous, 0, {5, 5}}, w},
      [](const TsVec& in) { return ts::conv2d(in[0], in[1]); },
      [](const AtVec& in) { return at::conv2d(in[0], in[1]); });
  run_bad(
      tally, set, "conv_transpose2d", "output_padding 1 stride 1",
      {x, {kFloat, Layout::Contiguous, 1, {3, 4, 3, 3}}},
      [](const TsVec& in) { return ts::conv_transpose2d(in[0], in[1], {}, 1, 0, 1); },
      [](const AtVec& in) { return at::conv_transpose2d(in[0], in[1], {}, 1, 0, 1); });
}

}  // namespace

void run_conv(Tally& tally, const std::string& set) {
  run_convs(tally, set);
  run_bad_conv(tally, set);
}

}  // namespace ts::parity
