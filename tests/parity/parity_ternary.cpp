// The parity test's ternary family: where, lerp, addcmul, masked_fill, and the unary ops with
// parameters (clamp, gelu, the activations of issue 16), over their dtypes and layouts, every
// form, and a few bad calls.
#include <optional>

#include "parity.h"
#include "touchstone/promotion.h"

namespace ts::parity {
namespace {

using OptScalar = std::optional<double>;

const std::vector<double> kMask = {1, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1};

at::Scalar at_scalar(double v) {
  return to_aten(ts::Scalar(v));
}

c10::optional<at::Scalar> at_opt(OptScalar v) {
  return v ? c10::optional<at::Scalar>(at_scalar(*v)) : c10::nullopt;
}
std::optional<ts::Scalar> ts_opt(OptScalar v) {
  return v ? std::optional<ts::Scalar>(ts::Scalar(*v)) : std::nullopt;
}

void run_where(Tally& tally, const std::string& set) {
  for (ScalarType d1 : kDtypes) {
    for (ScalarType d2 : kDtypes) {
      for (Layout l : kLayouts) {
        if (d1 != d2 && l != Layout::Contiguous) continue;
        const Layout lc = l == Layout::ZeroDim || l == Layout::Empty ? l : Layout::Contiguous;
        Call c{"where",
               "",
               short_name(d1) + "," + short_name(d2),
               layout_name(l),
               {{kBool, lc, 0, {}, kMask}, {d1, l, 0}, {d2, lc, 1}}};
        run_forms(
            tally, set, c, promote_types(d1, d2),
            [](const TsVec& in) { return ts::where(in[0], in[1], in[2]); },
            [](const AtVec& in) { return at::where(in[0], in[1], in[2]); }, nullptr, nullptr,
            [](const TsT& o, const TsVec& in) { ts::where_out(o, in[0], in[1], in[2]); },
            [](AtT& o, const AtVec& in) { at::where_out(o, in[0], in[1], in[2]); });
      }
    }
  }
  // A uint8 condition (deprecated in ATen).
  Call c{"where",
         "f",
         "cond=u8",
         "contiguous",
         {{kByte, Layout::Contiguous, 0, {}, kMask}, {kFloat}, {kFloat, Layout::Contiguous, 1}}};
  run_call(
      tally, set, c, [](const TsVec& in) { return ts::where(in[0], in[1], in[2]); },
      [](const AtVec& in) { return at::where(in[0], in[1], in[2]); });
}

void run_lerp(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : kLayouts) {
      const Layout lc = l == Layout::ZeroDim || l == Layout::Empty ? l : Layout::Contiguous;
      Call c{"lerp", "", short_name(d), layout_name(l), {{d, l, 0}, {d, lc, 1}, {d, lc, 1}}};
      run_forms(
          tally, set, c, d, [](const TsVec& in) { return ts::lerp(in[0], in[1], in[2]); },
          [](const AtVec& in) { return at::lerp(in[0], in[1], in[2]); },
          [](const TsVec& in) { in[0].lerp_(in[1], in[2]); },
          [](AtVec& in) { in[0].lerp_(in[1], in[2]); },
          [](const TsT& o, const TsVec& in) { ts::lerp_out(o, in[0], in[1], in[2]); },
          [](AtT& o, const AtVec& in) { at::lerp_out(o, in[0], in[1], in[2]); });
      c.dtypes += ",weight=0.25";
      c.inputs.pop_back();
      run_forms(
          tally, set, c, d, [](const TsVec& in) { return ts::lerp(in[0], in[1], 0.25); },
          [](const AtVec& in) { return at::lerp(in[0], in[1], 0.25); },
          [](const TsVec& in) { in[0].lerp_(in[1], 0.25); },
          [](AtVec& in) { in[0].lerp_(in[1], 0.25); }, nullptr, nullptr);
    }
  }
}

void run_addcmul(Tally& tally, const std::string& set) {
  for (ScalarType d1 : kDtypes) {
    for (ScalarType d2 : kDtypes) {
      for (Layout l : kLayouts) {
        if (d1 != d2 && l != Layout::Contiguous) continue;
        const Layout lc = l == Layout::ZeroDim || l == Layout::Empty ? l : Layout::Contiguous;
        for (double value : {1.0, 0.5}) {
          if (d1 != d2 && value != 1.0) continue;
          Call c{"addcmul",
                 "",
                 short_name(d1) + "," + short_name(d2) + ",value=" + (value == 1 ? "1" : "0.5"),
                 layout_name(l),
                 {{d1, l, 0}, {d2, lc, 1}, {d2, lc, 0}}};
          const at::Scalar av = at_scalar(value);
          run_forms(
              tally, set, c, promote_types(d1, d2),
              [=](const TsVec& in) { return ts::addcmul(in[0], in[1], in[2], value); },
              [=](const AtVec& in) { return at::addcmul(in[0], in[1], in[2], av); },
              [=](const TsVec& in) { in[0].addcmul_(in[1], in[2], value); },
              [=](AtVec& in) { in[0].addcmul_(in[1], in[2], av); },
              [=](const TsT& o, const TsVec& in) {
                ts::addcmul_out(o, in[0], in[1], in[2], value);
              },
              [=](AtT& o, const AtVec& in) { at::addcmul_out(o, in[0], in[1], in[2], av); });
        }
      }
    }
  }
}

void run_masked_fill(Tally& tally, const std::string& set) {
  const std::pair<ts::Scalar, std::string> kValues[] = {{ts::Scalar(int64_t{2}), "int:2"},
                                                        {ts::Scalar(2.5), "float:2.5"},
                                                        {ts::Scalar(true), "bool:true"},
                                                        {ts::Scalar(int64_t{300}), "int:300"}};
  for (ScalarType d : kDtypes) {
    for (Layout l : kLayouts) {
      for (const auto& v : kValues) {
        const ts::Scalar s = v.first;
        const at::Scalar as = to_aten(s);
        const Layout lc = l == Layout::ZeroDim || l == Layout::Empty ? l : Layout::Contiguous;
        Call c{"masked_fill",
               "",
               short_name(d) + "," + v.second,
               layout_name(l),
               {{d, l, 0}, {kBool, lc, 0, {}, kMask}}};
        run_forms(
            tally, set, c, d, [=](const TsVec& in) { return ts::masked_fill(in[0], in[1], s); },
            [=](const AtVec& in) { return at::masked_fill(in[0], in[1], as); },
            [=](const TsVec& in) { in[0].masked_fill_(in[1], s); },
            [=](AtVec& in) { in[0].masked_fill_(in[1], as); }, nullptr, nullptr);
      }
    }
  }
}

void run_clamp_gelu(Tally& tally, const std::string& set) {
  const std::pair<OptScalar, OptScalar> kBounds[] = {
      {-1.0, 2.0}, {std::nullopt, 1.5}, {0.5, std::nullopt}, {2.0, -1.0}};
  for (ScalarType d : kDtypes) {
    for (Layout l : kLayouts) {
      for (const auto& [lo, hi] : kBounds) {
        const std::string name =
            (lo ? std::to_string(*lo) : "none") + ":" + (hi ? std::to_string(*hi) : "none");
        Call c{"clamp", "", short_name(d) + "," + name, layout_name(l), {{d, l, 0}}};
        run_forms(
            tally, set, c, d,
            [=](const TsVec& in) { return ts::clamp(in[0], ts_opt(lo), ts_opt(hi)); },
            [=](const AtVec& in) { return at::clamp(in[0], at_opt(lo), at_opt(hi)); },
            [=](const TsVec& in) { ts::clamp_(in[0], ts_opt(lo), ts_opt(hi)); },
            [=](AtVec& in) { at::clamp_(in[0], at_opt(lo), at_opt(hi)); },
            [=](const TsT& o, const TsVec& in) { ts::clamp_out(o, in[0], ts_opt(lo), ts_opt(hi)); },
            [=](AtT& o, const AtVec& in) { at::clamp_out(o, in[0], at_opt(lo), at_opt(hi)); });
      }
      for (const char* approximate : {"none", "tanh"}) {
        Call c{"gelu", "", short_name(d) + "," + approximate, layout_name(l), {{d, l, 0}}};
        run_forms(
            tally, set, c, d, [=](const TsVec& in) { return ts::gelu(in[0], approximate); },
            [=](const AtVec& in) { return at::gelu(in[0], approximate); },
            [=](const TsVec& in) { ts::gelu_(in[0], approximate); },
            [=](AtVec& in) { at::gelu_(in[0], approximate); },
            [=](const TsT& o, const TsVec& in) { ts::gelu_out(o, in[0], approximate); },
            [=](AtT& o, const AtVec& in) { at::gelu_out(o, in[0], approximate); });
      }
    }
  }
}

// The activations of issue 16, with parameters off their defaults (softsign: ATen has no op;
// torch.nn.functional.softsign is self / (self.abs() + 1)).
void run_activations(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : kLayouts) {
      const auto call = [&](const char* op, const char* args) {
        return Call{op, "", short_name(d) + "," + args, layout_name(l), {{d, l, 0}}};
      };
      run_forms(
          tally, set, call("leaky_relu", "0.2"), d,
          [](const TsVec& in) { return ts::leaky_relu(in[0], 0.2); },
          [](const AtVec& in) { return at::leaky_relu(in[0], 0.2); },
          [](const TsVec& in) { ts::leaky_relu_(in[0], 0.2); },
          [](AtVec& in) { at::leaky_relu_(in[0], 0.2); },
          [](const TsT& o, const TsVec& in) { ts::leaky_relu_out(o, in[0], 0.2); },
          [](AtT& o, const AtVec& in) { at::leaky_relu_out(o, in[0], 0.2); });
      run_forms(
          tally, set, call("elu", "0.5,2,1.5"), d,
          [](const TsVec& in) { return ts::elu(in[0], 0.5, 2, 1.5); },
          [](const AtVec& in) { return at::elu(in[0], 0.5, 2, 1.5); },
          [](const TsVec& in) { ts::elu_(in[0], 0.5, 2, 1.5); },
          [](AtVec& in) { at::elu_(in[0], 0.5, 2, 1.5); },
          [](const TsT& o, const TsVec& in) { ts::elu_out(o, in[0], 0.5, 2, 1.5); },
          [](AtT& o, const AtVec& in) { at::elu_out(o, in[0], 0.5, 2, 1.5); });
      run_forms(
          tally, set, call("selu", ""), d, [](const TsVec& in) { return ts::selu(in[0]); },
          [](const AtVec& in) { return at::selu(in[0]); },
          [](const TsVec& in) { ts::selu_(in[0]); }, [](AtVec& in) { at::selu_(in[0]); }, nullptr,
          nullptr);
      run_forms(
          tally, set, call("celu", "2"), d, [](const TsVec& in) { return ts::celu(in[0], 2.0); },
          [](const AtVec& in) { return at::celu(in[0], 2.0); },
          [](const TsVec& in) { ts::celu_(in[0], 2.0); }, [](AtVec& in) { at::celu_(in[0], 2.0); },
          nullptr, nullptr);
      run_forms(
          tally, set, call("softplus", "2,3"), d,
          [](const TsVec& in) { return ts::softplus(in[0], 2, 3); },
          [](const AtVec& in) { return at::softplus(in[0], 2, 3); }, nullptr, nullptr,
          [](const TsT& o, const TsVec& in) { ts::softplus_out(o, in[0], 2, 3); },
          [](AtT& o, const AtVec& in) { at::softplus_out(o, in[0], 2, 3); });
      run_forms(
          tally, set, call("softsign", ""), d, [](const TsVec& in) { return ts::softsign(in[0]); },
          [](const AtVec& in) { return in[0] / (in[0].abs() + 1); }, nullptr, nullptr, nullptr,
          nullptr);
      run_forms(
          tally, set, call("hardtanh", "-0.5,2"), d,
          [](const TsVec& in) { return ts::hardtanh(in[0], -0.5, 2); },
          [](const AtVec& in) { return at::hardtanh(in[0], -0.5, 2); },
          [](const TsVec& in) { ts::hardtanh_(in[0], -0.5, 2); },
          [](AtVec& in) { at::hardtanh_(in[0], -0.5, 2); },
          [](const TsT& o, const TsVec& in) { ts::hardtanh_out(o, in[0], -0.5, 2); },
          [](AtT& o, const AtVec& in) { at::hardtanh_out(o, in[0], -0.5, 2); });
      run_forms(
          tally, set, call("threshold", "0.5,3"), d,
          [](const TsVec& in) { return ts::threshold(in[0], 0.5, 3); },
          [](const AtVec& in) { return at::threshold(in[0], 0.5, 3); },
          [](const TsVec& in) { ts::threshold_(in[0], 0.5, 3); },
          [](AtVec& in) { at::threshold_(in[0], 0.5, 3); },
          [](const TsT& o, const TsVec& in) { ts::threshold_out(o, in[0], 0.5, 3); },
          [](AtT& o, const AtVec& in) { at::threshold_out(o, in[0], 0.5, 3); });
    }
  }
}

// Bad calls: shapes that do not broadcast, a non-bool mask, no clamp bound, an unknown gelu mode.
void run_bad_ternary(Tally& tally, const std::string& set) {
  const Input x{kFloat}, y4{kFloat, Layout::Contiguous, 1, {4}};
  run_bad(
      tally, set, "where", "shapes [2,3],[4]", {{kBool, Layout::Contiguous, 0, {}, kMask}, x, y4},
      [](const TsVec& in) { return ts::where(in[0], in[1], in[2]); },
      [](const AtVec& in) { return at::where(in[0], in[1], in[2]); });
  run_bad(
      tally, set, "lerp", "shapes [2,3],[4]", {x, y4, x},
      [](const TsVec& in) { return ts::lerp(in[0], in[1], in[2]); },
      [](const AtVec& in) { return at::lerp(in[0], in[1], in[2]); });
  run_bad(
      tally, set, "addcmul", "shapes [2,3],[4]", {x, y4, x},
      [](const TsVec& in) { return ts::addcmul(in[0], in[1], in[2]); },
      [](const AtVec& in) { return at::addcmul(in[0], in[1], in[2]); });
  run_bad(
      tally, set, "masked_fill", "mask f32", {x, x},
      [](const TsVec& in) { return ts::masked_fill(in[0], in[1], 1.0); },
      [](const AtVec& in) { return at::masked_fill(in[0], in[1], 1.0); });
  run_bad(
      tally, set, "masked_fill", "mask shape [4]", {x, y4},
      [](const TsVec& in) { return ts::masked_fill(in[0], in[1].gt(0), 1.0); },
      [](const AtVec& in) { return at::masked_fill(in[0], in[1].gt(0), 1.0); });
  run_bad(
      tally, set, "clamp", "no bound", {x},
      [](const TsVec& in) { return ts::clamp(in[0], std::nullopt, std::nullopt); },
      [](const AtVec& in) {
        return at::clamp(in[0], c10::optional<at::Scalar>(), c10::optional<at::Scalar>());
      });
  run_bad(
      tally, set, "gelu", "approximate=bad", {x},
      [](const TsVec& in) { return ts::gelu(in[0], "bad"); },
      [](const AtVec& in) { return at::gelu(in[0], "bad"); });
}

}  // namespace

void run_ternary(Tally& tally, const std::string& set) {
  run_where(tally, set);
  run_lerp(tally, set);
  run_addcmul(tally, set);
  run_masked_fill(tally, set);
  run_clamp_gelu(tally, set);
  run_activations(tally, set);
  run_bad_ternary(tally, set);
}

}  // namespace ts::parity
