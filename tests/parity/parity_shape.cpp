// The parity test's shape family (issue 16): flip, roll, tril, triu (every form), trace, diag,
// repeat, tile, diff and kron over every dtype and the layouts of a 2x3 input; baddbmm, addbmm
// and addmv with and without beta and alpha; repeat_interleave, the padding ops, meshgrid, einsum
// and tensordot; and a few bad calls.
#include <ATen/ops/_pad_circular.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/einsum.h>
#include <ATen/ops/kl_div.h>
#include <ATen/ops/meshgrid.h>
#include <ATen/ops/pad.h>
#include <ATen/ops/reflection_pad1d.h>
#include <ATen/ops/reflection_pad2d.h>
#include <ATen/ops/reflection_pad3d.h>
#include <ATen/ops/repeat_interleave.h>
#include <ATen/ops/replication_pad1d.h>
#include <ATen/ops/replication_pad2d.h>
#include <ATen/ops/replication_pad3d.h>
#include <ATen/ops/tensordot.h>

#include "parity.h"

namespace ts::parity {
namespace {

constexpr Layout kShapeLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Strided,
                                    Layout::Expanded, Layout::Empty};

void run_shape_copies(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : kShapeLayouts) {
      const std::string key = short_name(d);
      Call f{"flip", "", key + ",dims=0,1", layout_name(l), {{d, l, 0}}};
      run_forms(
          tally, set, f, d,
          [](const TsVec& in) {
            return ts::flip(in[0], {0, 1});
          },
          [](const AtVec& in) {
            return at::flip(in[0], {0, 1});
          },
          nullptr, nullptr,
          [](const TsT& o, const TsVec& in) {
            ts::flip_out(o, in[0], {0, 1});
          },
          [](AtT& o, const AtVec& in) {
            at::flip_out(o, in[0], {0, 1});
          });
      Call r{"roll", "", key + ",shifts=1,-4,dims=0,1", layout_name(l), {{d, l, 0}}};
      run_forms(
          tally, set, r, d,
          [](const TsVec& in) {
            return ts::roll(in[0], {1, -4}, {0, 1});
          },
          [](const AtVec& in) {
            return at::roll(in[0], {1, -4}, {0, 1});
          },
          nullptr, nullptr,
          [](const TsT& o, const TsVec& in) {
            ts::roll_out(o, in[0], {1, -4}, {0, 1});
          },
          [](AtT& o, const AtVec& in) {
            at::roll_out(o, in[0], {1, -4}, {0, 1});
          });
      Call rf{"roll", "", key + ",shifts=2", layout_name(l), {{d, l, 0}}};
      run_call(
          tally, set, rf, [](const TsVec& in) { return ts::roll(in[0], {2}); },
          [](const AtVec& in) { return at::roll(in[0], {2}); });
      for (int64_t k : {0, 1, -1}) {
        for (const bool lower : {true, false}) {
          Call t{lower ? "tril" : "triu",
                 "",
                 key + ",diagonal=" + std::to_string(k),
                 layout_name(l),
                 {{d, l, 0}}};
          run_forms(
              tally, set, t, d,
              [=](const TsVec& in) { return lower ? ts::tril(in[0], k) : ts::triu(in[0], k); },
              [=](const AtVec& in) { return lower ? at::tril(in[0], k) : at::triu(in[0], k); },
              [=](const TsVec& in) { lower ? in[0].tril_(k) : in[0].triu_(k); },
              [=](AtVec& in) { lower ? in[0].tril_(k) : in[0].triu_(k); },
              [=](const TsT& o, const TsVec& in) {
                lower ? ts::tril_out(o, in[0], k) : ts::triu_out(o, in[0], k);
              },
              [=](AtT& o, const AtVec& in) {
                lower ? at::tril_out(o, in[0], k) : at::triu_out(o, in[0], k);
              });
        }
      }
    }
  }
}

void run_composites(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : kShapeLayouts) {
      const std::string key = short_name(d);
      Call t{"trace", "", key, layout_name(l), {{d, l, 0}}};
      run_call(
          tally, set, t, [](const TsVec& in) { return ts::trace(in[0]); },
          [](const AtVec& in) { return at::trace(in[0]); });
      for (int64_t k : {0, 1, -1}) {
        Call g{"diag", "", key + ",diagonal=" + std::to_string(k), layout_name(l), {{d, l, 0}}};
        run_call(
            tally, set, g, [=](const TsVec& in) { return ts::diag(in[0], k); },
            [=](const AtVec& in) { return at::diag(in[0], k); });
        if (l == Layout::Empty) continue;  // no row to select
        Call v{
            "diag", "", key + ",vector,diagonal=" + std::to_string(k), layout_name(l), {{d, l, 0}}};
        run_call(
            tally, set, v, [=](const TsVec& in) { return ts::diag(in[0].select(0, 0), k); },
            [=](const AtVec& in) { return at::diag(in[0].select(0, 0), k); });
      }
      Call p{"repeat", "", key + ",repeats=2,1,2", layout_name(l), {{d, l, 0}}};
      run_call(
          tally, set, p,
          [](const TsVec& in) {
            return in[0].repeat({2, 1, 2});
          },
          [](const AtVec& in) {
            return in[0].repeat({2, 1, 2});
          });
      Call i{"tile", "", key + ",dims=2", layout_name(l), {{d, l, 0}}};
      run_call(
          tally, set, i, [](const TsVec& in) { return ts::tile(in[0], {2}); },
          [](const AtVec& in) { return at::tile(in[0], {2}); });
      for (int64_t n : {1, 2}) {
        Call f{"diff", "", key + ",n=" + std::to_string(n), layout_name(l), {{d, l, 0}}};
        run_call(
            tally, set, f, [=](const TsVec& in) { return ts::diff(in[0], n, 0); },
            [=](const AtVec& in) { return at::diff(in[0], n, 0); });
      }
      Call fp{"diff", "", key + ",prepend", layout_name(l), {{d, l, 0}, {d, l, 1}}};
      run_call(
          tally, set, fp, [](const TsVec& in) { return ts::diff(in[0], 1, 1, in[1]); },
          [](const AtVec& in) { return at::diff(in[0], 1, 1, in[1]); });
      Call k{"kron", "", key, layout_name(l), {{d, l, 0}, {d, Layout::Contiguous, 1, {2, 2}}}};
      run_call(
          tally, set, k, [](const TsVec& in) { return ts::kron(in[0], in[1]); },
          [](const AtVec& in) { return at::kron(in[0], in[1]); });
    }
  }
}

// baddbmm, addbmm, addmv on small contiguous operands, with the defaults and beta = 0.5,
// alpha = 2 (integers: beta = 3), and beta = 0.
void run_add_products(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    const bool fl = is_floating_type(d);
    for (int form = 0; form < 3; ++form) {
      // ATen 1.13's baddbmm with beta = 0 gives NaN at one element in some runs and the product
      // in others (same inputs; bfloat16 and float32 seen): not a stable peer there, so its
      // beta = 0 form is skipped (touchstone ignores self, as PyTorch documents: test_shape's
      // NaN self). addbmm and addmv keep theirs.
      const bool skip_baddbmm = form == 2;
      const Scalar beta = form == 0   ? Scalar(1)
                          : form == 1 ? (fl ? Scalar(0.5) : Scalar(3))
                                      : Scalar(0);
      const Scalar alpha = form == 1 ? Scalar(2) : Scalar(1);
      const at::Scalar at_beta = to_aten(beta), at_alpha = to_aten(alpha);
      const std::string key = short_name(d) + (form == 0   ? ""
                                               : form == 1 ? ",beta_alpha"
                                                           : ",beta=0");
      const Input b1{d, Layout::Contiguous, 0, {2, 3, 4}}, b2{d, Layout::Contiguous, 1, {2, 4, 2}};
      Call bb{"baddbmm", "", key, "contiguous", {{d, Layout::Contiguous, 0, {2, 3, 2}}, b1, b2}};
      if (!skip_baddbmm) {
        run_call(
            tally, set, bb,
            [=](const TsVec& in) { return ts::baddbmm(in[0], in[1], in[2], beta, alpha); },
            [=](const AtVec& in) { return at::baddbmm(in[0], in[1], in[2], at_beta, at_alpha); });
      }
      Call ab{"addbmm", "", key, "contiguous", {{d, Layout::Contiguous, 0, {3, 2}}, b1, b2}};
      run_call(
          tally, set, ab,
          [=](const TsVec& in) { return ts::addbmm(in[0], in[1], in[2], beta, alpha); },
          [=](const AtVec& in) { return at::addbmm(in[0], in[1], in[2], at_beta, at_alpha); });
      Call mv{"addmv",
              "",
              key,
              "contiguous",
              {{d, Layout::Contiguous, 0, {3}},
               {d, Layout::Contiguous, 1, {3, 4}},
               {d, Layout::Contiguous, 0, {4}}}};
      run_call(
          tally, set, mv,
          [=](const TsVec& in) { return ts::addmv(in[0], in[1], in[2], beta, alpha); },
          [=](const AtVec& in) { return at::addmv(in[0], in[1], in[2], at_beta, at_alpha); });
    }
  }
}

// repeat_interleave's forms, the paddings (float32 and float64 for the kernel modes: ATen
// 1.13's CPU has no others, Note [ATen 1.13 padding dtypes]), meshgrid, einsum and tensordot.
void run_pads(Tally& tally, const std::string& set) {
  const Input reps{kLong, Layout::Contiguous, 0, {3}, {1, 0, 2}};
  Call ri{"repeat_interleave", "", "int64", "contiguous", {reps}};
  run_call(
      tally, set, ri, [](const TsVec& in) { return ts::repeat_interleave(in[0]); },
      [](const AtVec& in) { return at::repeat_interleave(in[0]); });
  for (ScalarType d : kDtypes) {
    for (Layout l : kShapeLayouts) {
      const std::string key = short_name(d);
      const Input x{d, l, 0};
      Call rt{"repeat_interleave_self", "", key + ",tensor,dim=1", layout_name(l), {x, reps}};
      run_call(
          tally, set, rt, [](const TsVec& in) { return in[0].repeat_interleave(in[1], 1); },
          [](const AtVec& in) { return in[0].repeat_interleave(in[1], 1); });
      Call rn{"repeat_interleave_self", "", key + ",int=2", layout_name(l), {x}};
      run_call(
          tally, set, rn, [](const TsVec& in) { return in[0].repeat_interleave(2); },
          [](const AtVec& in) { return in[0].repeat_interleave(2); });
      Call cp{"constant_pad_nd", "", key + ",pad=1,-1,2,0", layout_name(l), {x}};
      run_call(
          tally, set, cp,
          [](const TsVec& in) {
            return ts::constant_pad_nd(in[0], {1, -1, 2, 0}, 1);
          },
          [](const AtVec& in) {
            return at::constant_pad_nd(in[0], {1, -1, 2, 0}, 1);
          });
      Call pc{"pad", "", key + ",constant", layout_name(l), {x}};
      run_call(
          tally, set, pc,
          [](const TsVec& in) {
            return ts::pad(in[0], {2, 1}, "constant", 3.0);
          },
          [](const AtVec& in) {
            return at::pad(in[0], {2, 1}, "constant", 3.0);
          });
      if (l == Layout::Contiguous) {
        // ATen 1.13's _pad_circular needs a batch dim (current PyTorch: 1 or 2 leading dims).
        Call cc{"_pad_circular", "", key + ",pad=2,1", "contiguous", {{d, l, 0, {1, 2, 4}}}};
        run_call(
            tally, set, cc,
            [](const TsVec& in) {
              return ts::_pad_circular(in[0], {2, 1});
            },
            [](const AtVec& in) {
              return at::_pad_circular(in[0], {2, 1});
            });
      }
      if (l == Layout::Empty) continue;
      for (int k = 0; k < 2; ++k) {
        Call m{"meshgrid", "", key + ",xy,grid=" + std::to_string(k), layout_name(l), {x, x}};
        run_call(
            tally, set, m,
            [k](const TsVec& in) {
              return ts::meshgrid({in[0][0], in[1][1]}, "xy")[k];
            },
            [k](const AtVec& in) {
              return at::meshgrid({in[0][0], in[1][1]}, "xy")[k];
            });
      }
      if (d == kBool || d == kHalf) continue;  // ATen 1.13's CPU bmm and mm: no float16
      Call e{"einsum", "", key + ",ij,kj->ik", layout_name(l), {x, {d, l, 1}}};
      run_call(
          tally, set, e,
          [](const TsVec& in) {
            return ts::einsum("ij,kj->ik", {in[0], in[1]});
          },
          [](const AtVec& in) {
            return at::einsum("ij,kj->ik", {in[0], in[1]});
          });
      Call t{"tensordot", "", key + ",dims=1,0", layout_name(l), {x, {d, l, 1}}};
      run_forms(
          tally, set, t, d,
          [](const TsVec& in) {
            return ts::tensordot(in[0], in[1], {1, 0}, {1, 0});
          },
          [](const AtVec& in) {
            return at::tensordot(in[0], in[1], {1, 0}, {1, 0});
          },
          nullptr, nullptr,
          [](const TsT& o, const TsVec& in) {
            ts::tensordot_out(o, in[0], in[1], {1, 0}, {1, 0});
          },
          [](AtT& o, const AtVec& in) {
            at::tensordot_out(o, in[0], in[1], {1, 0}, {1, 0});
          });
    }
  }
  for (ScalarType d : {kFloat, kDouble}) {
    const std::string key = short_name(d);
    const Input x3{d, Layout::Contiguous, 0, {2, 3, 4}}, x4{d, Layout::Contiguous, 0, {1, 2, 3, 4}};
    const Input x5{d, Layout::Contiguous, 0, {1, 2, 3, 3, 4}};
    // torch.nn.functional.kl_div's "batchmean": ATen's sum over size(0).
    Call kb{"kl_div",
            "",
            key + ",batchmean",
            "contiguous",
            {x3, {d, Layout::Contiguous, 1, {2, 3, 4}}}};
    run_call(
        tally, set, kb, [](const TsVec& in) { return ts::kl_div(in[0], in[1].abs(), "batchmean"); },
        [](const AtVec& in) {
          return at::kl_div(in[0], in[1].abs(), at::Reduction::Sum) / in[0].size(0);
        });
    for (const bool reflect : {true, false}) {
      const std::string mode = reflect ? "reflect" : "replicate";
      Call k{reflect ? "reflection_pad" : "replication_pad",
             "",
             key + ",pad=2,-1",
             "contiguous",
             {x3}};
      run_call(
          tally, set, k,
          [=](const TsVec& in) {
            return reflect ? ts::reflection_pad(in[0], {2, -1})
                           : ts::replication_pad(in[0], {2, -1});
          },
          [=](const AtVec& in) {
            return reflect ? at::reflection_pad1d(in[0], {2, -1})
                           : at::replication_pad1d(in[0], {2, -1});
          });
      Call p1{reflect ? "reflection_pad1d" : "replication_pad1d", "", key, "contiguous", {x3}};
      run_call(
          tally, set, p1,
          [=](const TsVec& in) {
            return reflect ? ts::reflection_pad1d(in[0], {3, 1})
                           : ts::replication_pad1d(in[0], {3, 1});
          },
          [=](const AtVec& in) {
            return reflect ? at::reflection_pad1d(in[0], {3, 1})
                           : at::replication_pad1d(in[0], {3, 1});
          });
      Call p2{reflect ? "reflection_pad2d" : "replication_pad2d", "", key, "contiguous", {x4}};
      run_call(
          tally, set, p2,
          [=](const TsVec& in) {
            return reflect ? ts::reflection_pad2d(in[0], {1, 2, 2, 1})
                           : ts::replication_pad2d(in[0], {1, 2, 2, 1});
          },
          [=](const AtVec& in) {
            return reflect ? at::reflection_pad2d(in[0], {1, 2, 2, 1})
                           : at::replication_pad2d(in[0], {1, 2, 2, 1});
          });
      Call p3{reflect ? "reflection_pad3d" : "replication_pad3d", "", key, "contiguous", {x5}};
      run_call(
          tally, set, p3,
          [=](const TsVec& in) {
            return reflect ? ts::reflection_pad3d(in[0], {1, 2, 2, 1, 1, 1})
                           : ts::replication_pad3d(in[0], {1, 2, 2, 1, 1, 1});
          },
          [=](const AtVec& in) {
            return reflect ? at::reflection_pad3d(in[0], {1, 2, 2, 1, 1, 1})
                           : at::replication_pad3d(in[0], {1, 2, 2, 1, 1, 1});
          });
      Call pm{"pad", "", key + "," + mode, "contiguous", {x4}};
      run_call(
          tally, set, pm,
          [=](const TsVec& in) {
            return ts::pad(in[0], {1, 2, 2, 1}, mode);
          },
          [=](const AtVec& in) {
            return at::pad(in[0], {1, 2, 2, 1}, mode);
          });
    }
  }
}

void run_bad_shape(Tally& tally, const std::string& set) {
  const Input x{kFloat};
  run_bad(
      tally, set, "flip", "dims=0,0", {x},
      [](const TsVec& in) {
        return ts::flip(in[0], {0, 0});
      },
      [](const AtVec& in) {
        return at::flip(in[0], {0, 0});
      });
  run_bad(
      tally, set, "roll", "shifts=1,2", {x},
      [](const TsVec& in) {
        return ts::roll(in[0], {1, 2});
      },
      [](const AtVec& in) {
        return at::roll(in[0], {1, 2});
      });
  run_bad(
      tally, set, "tril", "vector", {x}, [](const TsVec& in) { return ts::tril(in[0][0]); },
      [](const AtVec& in) { return at::tril(in[0][0]); });
  run_bad(
      tally, set, "trace", "vector", {x}, [](const TsVec& in) { return ts::trace(in[0][0]); },
      [](const AtVec& in) { return at::trace(in[0][0]); });
  run_bad(
      tally, set, "diag", "3-D", {x}, [](const TsVec& in) { return ts::diag(in[0].unsqueeze(0)); },
      [](const AtVec& in) { return at::diag(in[0].unsqueeze(0)); });
  run_bad(
      tally, set, "repeat", "repeats=2", {x}, [](const TsVec& in) { return in[0].repeat({2}); },
      [](const AtVec& in) { return in[0].repeat({2}); });
  run_bad(
      tally, set, "repeat_interleave", "negative", {{kLong, Layout::Contiguous, 0, {2}, {1, -1}}},
      [](const TsVec& in) { return ts::repeat_interleave(in[0]); },
      [](const AtVec& in) { return at::repeat_interleave(in[0]); });
  run_bad(
      tally, set, "reflection_pad1d", "pad=3", {x},
      [](const TsVec& in) {
        return ts::reflection_pad1d(in[0], {3, 0});
      },
      [](const AtVec& in) {
        return at::reflection_pad1d(in[0], {3, 0});
      });
  run_bad(
      tally, set, "pad", "mode=wrap", {x},
      [](const TsVec& in) {
        return ts::pad(in[0], {1, 1}, "wrap");
      },
      [](const AtVec& in) {
        return at::pad(in[0], {1, 1}, "wrap");
      });
  run_bad(
      tally, set, "einsum", "ij->k", {x},
      [](const TsVec& in) { return ts::einsum("ij->k", {in[0]}); },
      [](const AtVec& in) { return at::einsum("ij->k", {in[0]}); });
  run_bad(
      tally, set, "tensordot", "sizes", {x, x},
      [](const TsVec& in) { return ts::tensordot(in[0], in[1], {0}, {1}); },
      [](const AtVec& in) { return at::tensordot(in[0], in[1], {0}, {1}); });
}

}  // namespace

void run_shape(Tally& tally, const std::string& set) {
  run_shape_copies(tally, set);
  run_composites(tally, set);
  run_add_products(tally, set);
  run_pads(tally, set);
  run_bad_shape(tally, set);
}

}  // namespace ts::parity
