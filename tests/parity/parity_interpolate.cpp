// The parity test's interpolation family (issue 16): the kernel ops upsample_nearest,
// _upsample_nearest_exact, upsample_linear (ATen's op of their dim count) and
// upsample_bicubic2d, ATen's per-dim forms (given scales, align_corners), interpolate (ATen's
// .vec overloads: output_size or scale_factors) and affine_grid (ATen's affine_grid_generator),
// over the floating dtypes and two layouts, and bad calls.
#include <ATen/ops/_upsample_nearest_exact1d.h>
#include <ATen/ops/_upsample_nearest_exact2d.h>
#include <ATen/ops/_upsample_nearest_exact3d.h>
#include <ATen/ops/affine_grid_generator.h>
#include <ATen/ops/grid_sampler.h>
#include <ATen/ops/grid_sampler_2d_backward.h>
#include <ATen/ops/upsample_bicubic2d.h>
#include <ATen/ops/upsample_bilinear2d.h>
#include <ATen/ops/upsample_linear1d.h>
#include <ATen/ops/upsample_nearest1d.h>
#include <ATen/ops/upsample_nearest2d.h>
#include <ATen/ops/upsample_nearest3d.h>
#include <ATen/ops/upsample_trilinear3d.h>

#include <cmath>

#include "parity.h"

namespace ts::parity {
namespace {

using Shape = std::vector<int64_t>;

struct UpCall {
  const char* op;
  std::string what;
  Shape x;
  std::function<TsT(const TsVec&)> ts_f;
  std::function<AtT(const AtVec&)> at_f;
};

std::vector<UpCall> up_calls() {
  const c10::optional<double> none = c10::nullopt;
  return {
      {"upsample_nearest",
       "1d,5->8",
       {2, 3, 5},
       [](const TsVec& in) { return ts::upsample_nearest(in[0], {8}); },
       [none](const AtVec& in) { return at::upsample_nearest1d(in[0], {8}, none); }},
      {"upsample_nearest1d",
       "7->3,scale0.5",
       {2, 3, 7},
       [](const TsVec& in) { return ts::upsample_nearest1d(in[0], {3}, 0.5); },
       [](const AtVec& in) {
         return at::upsample_nearest1d(in[0], at::IntArrayRef{3}, c10::optional<double>(0.5));
       }},
      {"upsample_nearest2d",
       "4x5->8x7",
       {2, 3, 4, 5},
       [](const TsVec& in) {
         return ts::upsample_nearest2d(in[0], {8, 7});
       },
       [](const AtVec& in) {
         return at::upsample_nearest2d(in[0], {8, 7});
       }},
      {"upsample_nearest3d",
       "2x3x2->3x6x5",
       {1, 2, 2, 3, 2},
       [](const TsVec& in) {
         return ts::upsample_nearest3d(in[0], {3, 6, 5});
       },
       [](const AtVec& in) {
         return at::upsample_nearest3d(in[0], {3, 6, 5});
       }},
      {"_upsample_nearest_exact",
       "2d,5x4->3x7",
       {2, 3, 5, 4},
       [](const TsVec& in) {
         return ts::_upsample_nearest_exact(in[0], {3, 7});
       },
       [](const AtVec& in) {
         return at::_upsample_nearest_exact2d(in[0], {3, 7});
       }},
      {"_upsample_nearest_exact1d",
       "6->9",
       {2, 3, 6},
       [](const TsVec& in) { return ts::_upsample_nearest_exact1d(in[0], {9}); },
       [](const AtVec& in) { return at::_upsample_nearest_exact1d(in[0], {9}); }},
      {"_upsample_nearest_exact2d",
       "scales1.6,0.7",
       {2, 3, 5, 10},
       [](const TsVec& in) {
         return ts::_upsample_nearest_exact2d(in[0], {8, 7}, 1.6, 0.7);
       },
       [](const AtVec& in) {
         return at::_upsample_nearest_exact2d(in[0], {8, 7}, 1.6, 0.7);
       }},
      {"_upsample_nearest_exact3d",
       "2x3x2->4x2x3",
       {1, 2, 2, 3, 2},
       [](const TsVec& in) {
         return ts::_upsample_nearest_exact3d(in[0], {4, 2, 3});
       },
       [](const AtVec& in) {
         return at::_upsample_nearest_exact3d(in[0], {4, 2, 3});
       }},
      {"upsample_linear",
       "2d,corners",
       {2, 3, 4, 5},
       [](const TsVec& in) {
         return ts::upsample_linear(in[0], {7, 9}, true);
       },
       [](const AtVec& in) {
         return at::upsample_bilinear2d(in[0], {7, 9}, true);
       }},
      {"upsample_linear1d",
       "5->9,scale1.9",
       {2, 3, 5},
       [](const TsVec& in) { return ts::upsample_linear1d(in[0], {9}, false, 1.9); },
       [](const AtVec& in) {
         return at::upsample_linear1d(in[0], at::IntArrayRef{9}, false, c10::optional<double>(1.9));
       }},
      {"upsample_bilinear2d",
       "56->112 style 4x5->8x10",
       {2, 3, 4, 5},
       [](const TsVec& in) {
         return ts::upsample_bilinear2d(in[0], {8, 10}, false);
       },
       [](const AtVec& in) {
         return at::upsample_bilinear2d(in[0], {8, 10}, false);
       }},
      {"upsample_bilinear2d",
       "down,corners",
       {2, 3, 7, 6},
       [](const TsVec& in) {
         return ts::upsample_bilinear2d(in[0], {3, 4}, true);
       },
       [](const AtVec& in) {
         return at::upsample_bilinear2d(in[0], {3, 4}, true);
       }},
      {"upsample_trilinear3d",
       "2x3x2->3x4x4",
       {1, 2, 2, 3, 2},
       [](const TsVec& in) {
         return ts::upsample_trilinear3d(in[0], {3, 4, 4}, false);
       },
       [](const AtVec& in) {
         return at::upsample_trilinear3d(in[0], {3, 4, 4}, false);
       }},
      {"upsample_bicubic2d",
       "4x5->7x3",
       {2, 3, 4, 5},
       [](const TsVec& in) {
         return ts::upsample_bicubic2d(in[0], {7, 3}, false);
       },
       [](const AtVec& in) {
         return at::upsample_bicubic2d(in[0], {7, 3}, false);
       }},
      {"upsample_bicubic2d",
       "corners,scales",
       {2, 3, 4, 5},
       [](const TsVec& in) {
         return ts::upsample_bicubic2d(in[0], {6, 8}, true, 1.5, 1.6);
       },
       [](const AtVec& in) {
         return at::upsample_bicubic2d(in[0], {6, 8}, true, 1.5, 1.6);
       }},
      {"interpolate",
       "bilinear,scale_factor2",
       {2, 3, 4, 5},
       [](const TsVec& in) { return ts::interpolate(in[0], {}, 2.0, "bilinear"); },
       [](const AtVec& in) {
         return at::upsample_bilinear2d(in[0], c10::nullopt, false, std::vector<double>{2.0, 2.0});
       }},
      {"interpolate",
       "nearest,size",
       {2, 3, 4, 5},
       [](const TsVec& in) {
         return ts::interpolate(in[0], {6, 3});
       },
       [](const AtVec& in) {
         return at::upsample_nearest2d(in[0], at::IntArrayRef{6, 3}, c10::nullopt);
       }},
  };
}

void run_ups(Tally& tally, const std::string& set) {
  for (const UpCall& uc : up_calls()) {
    for (ScalarType d : kFloatDtypes) {
      for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
        Call c{uc.op, "f", short_name(d) + "," + uc.what, layout_name(l), {{d, l, 0, uc.x}}};
        c.grad = true;
        run_call(tally, set, c, uc.ts_f, uc.at_f);
      }
    }
  }
}

// affine_grid against ATen's affine_grid_generator (torch.nn.functional.affine_grid's call).
void run_affine_grid(Tally& tally, const std::string& set) {
  for (ScalarType d : {kFloat, kDouble}) {
    for (const bool corners : {false, true}) {
      Call c{"affine_grid",
             "f",
             short_name(d) + (corners ? ",corners" : ""),
             "contiguous",
             {{d, Layout::Contiguous, 0, {2, 2, 3}}}};
      c.grad = true;
      run_call(
          tally, set, c,
          [corners](const TsVec& in) {
            return ts::affine_grid(in[0], {2, 3, 4, 5}, corners);
          },
          [corners](const AtVec& in) {
            return at::affine_grid_generator(in[0], {2, 3, 4, 5}, corners);
          });
      Call c3{"affine_grid",
              "f",
              short_name(d) + ",3d" + (corners ? ",corners" : ""),
              "contiguous",
              {{d, Layout::Contiguous, 0, {1, 3, 4}}}};
      c3.grad = true;
      run_call(
          tally, set, c3,
          [corners](const TsVec& in) {
            return ts::affine_grid(in[0], {1, 2, 2, 3, 4}, corners);
          },
          [corners](const AtVec& in) {
            return at::affine_grid_generator(in[0], {1, 2, 2, 3, 4}, corners);
          });
    }
  }
}

// Grid points: sin(1.7 i) 1.1, inside and outside [-1, 1], none on a pixel center.
Input grid_input(ScalarType d, Shape shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(std::sin(1.7 * static_cast<double>(i)) * 1.1);
  return {d, Layout::Contiguous, 0, std::move(shape), std::move(v)};
}

// grid_sampler and grid_sample (ATen's grid_sampler), each mode and padding mode, 2-d and 3-d;
// grid_sampler_backward against grid_sampler_2d_backward. Grid points in [-1, 1) and beyond.
void run_grid_sampler(Tally& tally, const std::string& set) {
  for (ScalarType d : {kFloat, kDouble}) {
    for (int64_t mode = 0; mode < 3; ++mode) {
      for (int64_t pad = 0; pad < 3; ++pad) {
        const std::string what =
            short_name(d) + ",mode" + std::to_string(mode) + ",padding" + std::to_string(pad);
        for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
          Call c{"grid_sampler",
                 "f",
                 what,
                 layout_name(l),
                 {{d, l, 0, {2, 3, 5, 6}}, grid_input(d, {2, 4, 3, 2})}};
          c.grad = true;
          run_call(
              tally, set, c,
              [mode, pad](const TsVec& in) {
                return ts::grid_sampler(in[0], in[1], mode, pad, pad == 1);
              },
              [mode, pad](const AtVec& in) {
                return at::grid_sampler(in[0], in[1], mode, pad, pad == 1);
              });
        }
        if (mode != 2) {
          Call c{"grid_sample",
                 "f",
                 what + ",3d",
                 "contiguous",
                 {{d, Layout::Contiguous, 0, {1, 2, 3, 4, 3}}, grid_input(d, {1, 2, 3, 2, 3})}};
          c.grad = true;
          const char* const modes[] = {"bilinear", "nearest", "bicubic"};
          const char* const pads[] = {"zeros", "border", "reflection"};
          run_call(
              tally, set, c,
              [=](const TsVec& in) {
                return ts::grid_sample(in[0], in[1], modes[mode], pads[pad]);
              },
              [=](const AtVec& in) { return at::grid_sampler(in[0], in[1], mode, pad, false); });
        }
      }
    }
    Call c{"grid_sampler_backward",
           "f",
           short_name(d) + ",grad_input",
           "contiguous",
           {{d, Layout::Contiguous, 1, {2, 3, 4, 3}},
            {d, Layout::Contiguous, 0, {2, 3, 5, 6}},
            grid_input(d, {2, 4, 3, 2})}};
    run_call(
        tally, set, c,
        [](const TsVec& in) {
          return std::get<0>(ts::grid_sampler_backward(in[0], in[1], in[2], 0, 2, false));
        },
        [](const AtVec& in) {
          return std::get<0>(
              at::grid_sampler_2d_backward(in[0], in[1], in[2], 0, 2, false, {true, true}));
        });
  }
}

void run_bad_interpolate(Tally& tally, const std::string& set) {
  const Input x{kFloat, Layout::Contiguous, 0, {1, 3, 5, 5}};
  run_bad(
      tally, set, "upsample_nearest2d", "3-D input", {{kFloat, Layout::Contiguous, 0, {3, 5, 5}}},
      [](const TsVec& in) {
        return ts::upsample_nearest2d(in[0], {4, 4});
      },
      [](const AtVec& in) {
        return at::upsample_nearest2d(in[0], {4, 4});
      });
  run_bad(
      tally, set, "upsample_bilinear2d", "output_size of 1", {x},
      [](const TsVec& in) { return ts::upsample_bilinear2d(in[0], {4}, false); },
      [](const AtVec& in) { return at::upsample_bilinear2d(in[0], {4}, false); });
  run_bad(
      tally, set, "upsample_bicubic2d", "output size 0", {x},
      [](const TsVec& in) {
        return ts::upsample_bicubic2d(in[0], {0, 4}, false);
      },
      [](const AtVec& in) {
        return at::upsample_bicubic2d(in[0], {0, 4}, false);
      });
  run_bad(
      tally, set, "affine_grid", "theta 2x3 for a 5-D size",
      {{kFloat, Layout::Contiguous, 0, {1, 2, 3}}},
      [](const TsVec& in) {
        return ts::affine_grid(in[0], {1, 1, 2, 2, 2});
      },
      [](const AtVec& in) {
        return at::affine_grid_generator(in[0], {1, 1, 2, 2, 2}, false);
      });
  run_bad(
      tally, set, "grid_sampler", "bicubic on a 5-D input",
      {{kFloat, Layout::Contiguous, 0, {1, 2, 3, 3, 3}},
       {kFloat, Layout::Contiguous, 1, {1, 2, 2, 2, 3}}},
      [](const TsVec& in) { return ts::grid_sampler(in[0], in[1], 2, 0, false); },
      [](const AtVec& in) { return at::grid_sampler(in[0], in[1], 2, 0, false); });
}

}  // namespace

void run_interpolate(Tally& tally, const std::string& set) {
  run_ups(tally, set);
  run_affine_grid(tally, set);
  run_grid_sampler(tally, set);
  run_bad_interpolate(tally, set);
}

}  // namespace ts::parity
