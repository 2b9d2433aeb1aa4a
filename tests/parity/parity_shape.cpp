// The parity test's shape family (issue 16): flip, roll, tril, triu (every form), trace, diag,
// repeat, tile, diff and kron over every dtype and the layouts of a 2x3 input; baddbmm, addbmm
// and addmv with and without beta and alpha; and a few bad calls.
#include "parity.h"

namespace ts::parity {
namespace {

constexpr Layout kShapeLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Strided,
                                    Layout::Expanded, Layout::Empty};

void run_copies(Tally& tally, const std::string& set) {
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
}

}  // namespace

void run_shape(Tally& tally, const std::string& set) {
  run_copies(tally, set);
  run_composites(tally, set);
  run_add_products(tally, set);
  run_bad_shape(tally, set);
}

}  // namespace ts::parity
