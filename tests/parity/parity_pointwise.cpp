// The parity test's pointwise family: every plain unary and binary op of op_list.def (and add,
// sub, div with their defaults) over ten dtypes, every dtype pair, six layouts, Tensor-Scalar
// forms, add/sub with an alpha; the function, in-place and out= forms.
#include <cmath>

#include "parity.h"
#include "touchstone/promotion.h"

namespace ts::parity {
namespace {

// ---- the op table: each op's ts:: and at:: forms (null where a library has none) ----

struct UnaryRow {
  ts::OpId op;
  const char* name;
  TsT (*ts_f)(const TsT&);
  void (*ts_i)(const TsT&);
  void (*ts_o)(const TsT&, const TsT&);
  AtT (*at_f)(const AtT&);
  void (*at_i)(AtT&);
  void (*at_o)(AtT&, const AtT&);
};

// clang-format off
#define TS_F(name) [](const TsT& a) { return ts::name(a); }, \
                   [](const TsT& a) { ts::name##_(a); }, \
                   [](const TsT& o, const TsT& a) { ts::name##_out(o, a); }
#define AT_F(name) [](const AtT& a) { return at::name(a); }, \
                   [](AtT& a) { a.name##_(); }, \
                   [](AtT& o, const AtT& a) { at::name##_out(o, a); }
#define UNARY(name) {ts::OpId::name, #name, TS_F(name), AT_F(name)}
const UnaryRow kUnary[] = {
    UNARY(neg), UNARY(abs), UNARY(sign), UNARY(exp), UNARY(expm1), UNARY(log), UNARY(log1p),
    UNARY(sqrt), UNARY(rsqrt), UNARY(reciprocal), UNARY(sin), UNARY(cos), UNARY(tan),
    UNARY(tanh), UNARY(sigmoid), UNARY(erf), UNARY(floor), UNARY(ceil),
    UNARY(round), UNARY(trunc), UNARY(logical_not), UNARY(bitwise_not),
    UNARY(exp2), UNARY(log2), UNARY(log10), UNARY(asin), UNARY(acos), UNARY(atan), UNARY(sinh),
    UNARY(cosh), UNARY(asinh), UNARY(acosh), UNARY(atanh), UNARY(sinc), UNARY(erfc),
    UNARY(erfinv), UNARY(frac),
    // silu_ is not a method in ATen 1.13.
    {ts::OpId::silu, "silu", TS_F(silu), [](const AtT& a) { return at::silu(a); },
     [](AtT& a) { at::silu_(a); }, [](AtT& o, const AtT& a) { at::silu_out(o, a); }},
    // hardsigmoid_, hardswish_, mish_: in-place functions, no methods (ATen 1.13 and today).
#define ACTIVATION(name) \
    {ts::OpId::name, #name, TS_F(name), [](const AtT& a) { return at::name(a); }, \
     [](AtT& a) { at::name##_(a); }, [](AtT& o, const AtT& a) { at::name##_out(o, a); }}
    ACTIVATION(hardsigmoid), ACTIVATION(hardswish), ACTIVATION(mish),
#undef ACTIVATION
    // log_sigmoid has no in-place form in either library.
    {ts::OpId::log_sigmoid, "log_sigmoid", [](const TsT& a) { return ts::log_sigmoid(a); }, nullptr,
     [](const TsT& o, const TsT& a) { ts::log_sigmoid_out(o, a); },
     [](const AtT& a) { return at::log_sigmoid(a); }, nullptr,
     [](AtT& o, const AtT& a) { at::log_sigmoid_out(o, a); }},
    // ATen 1.13 has no relu_out; isnan has only the functional form in both.
    {ts::OpId::relu, "relu", [](const TsT& a) { return ts::relu(a); },
     [](const TsT& a) { ts::relu_(a); }, nullptr,
     [](const AtT& a) { return at::relu(a); }, [](AtT& a) { a.relu_(); }, nullptr},
    {ts::OpId::isnan, "isnan", [](const TsT& a) { return ts::isnan(a); }, nullptr, nullptr,
     [](const AtT& a) { return at::isnan(a); }, nullptr, nullptr},
    // math (issue 16); isinf and isfinite are functional and methods only (as isnan).
    UNARY(lgamma), UNARY(digamma), UNARY(square),
    {ts::OpId::nan_to_num, "nan_to_num", [](const TsT& a) { return ts::nan_to_num(a); },
     [](const TsT& a) { ts::nan_to_num_(a); },
     [](const TsT& o, const TsT& a) { ts::nan_to_num_out(o, a); },
     [](const AtT& a) { return at::nan_to_num(a); }, [](AtT& a) { at::nan_to_num_(a); },
     [](AtT& o, const AtT& a) { at::nan_to_num_out(o, a); }},
    {ts::OpId::isinf, "isinf", [](const TsT& a) { return ts::isinf(a); }, nullptr, nullptr,
     [](const AtT& a) { return at::isinf(a); }, nullptr, nullptr},
    {ts::OpId::isfinite, "isfinite", [](const TsT& a) { return ts::isfinite(a); }, nullptr, nullptr,
     [](const AtT& a) { return at::isfinite(a); }, nullptr, nullptr},
};
#undef UNARY
#undef AT_F
#undef TS_F
// clang-format on

struct BinaryRow {
  ts::OpId op;
  const char* name;
  TsT (*ts_f)(const TsT&, const TsT&);
  TsT (*ts_fs)(const TsT&, const ts::Scalar&);
  void (*ts_i)(const TsT&, const TsT&);
  void (*ts_is)(const TsT&, const ts::Scalar&);
  void (*ts_o)(const TsT&, const TsT&, const TsT&);
  AtT (*at_f)(const AtT&, const AtT&);
  AtT (*at_fs)(const AtT&, const at::Scalar&);
  void (*at_i)(AtT&, const AtT&);
  void (*at_is)(AtT&, const at::Scalar&);
  void (*at_o)(AtT&, const AtT&, const AtT&);
};

// clang-format off
#define TS_F(name) [](const TsT& a, const TsT& b) { return ts::name(a, b); }
#define TS_FS(name) [](const TsT& a, const ts::Scalar& b) { return ts::name(a, b); }
#define TS_I(name) [](const TsT& a, const TsT& b) { a.name##_(b); }, \
                   [](const TsT& a, const ts::Scalar& b) { a.name##_(b); }
#define TS_O(name) [](const TsT& o, const TsT& a, const TsT& b) { ts::name##_out(o, a, b); }
#define AT_F(name) [](const AtT& a, const AtT& b) { return at::name(a, b); }
#define AT_FS(name) [](const AtT& a, const at::Scalar& b) { return at::name(a, b); }
#define AT_I(name) [](AtT& a, const AtT& b) { a.name##_(b); }
#define AT_IS(name) [](AtT& a, const at::Scalar& b) { a.name##_(b); }
#define AT_O(name) [](AtT& o, const AtT& a, const AtT& b) { at::name##_out(o, a, b); }
#define BINARY(name) {ts::OpId::name, #name, TS_F(name), TS_FS(name), TS_I(name), TS_O(name), \
                      AT_F(name), AT_FS(name), AT_I(name), AT_IS(name), AT_O(name)}
// ATen 1.13 has no Scalar overload of these (torch.atan2(t, 2) is refused too).
#define BINARY_NO_AT_SCALAR(name) {ts::OpId::name, #name, TS_F(name), TS_FS(name), TS_I(name), \
                                   TS_O(name), AT_F(name), nullptr, AT_I(name), nullptr, AT_O(name)}
const BinaryRow kBinary[] = {
    BINARY(mul), BINARY(remainder), BINARY(pow), BINARY(eq), BINARY(ne), BINARY(lt),
    BINARY(le), BINARY(gt), BINARY(ge), BINARY(bitwise_and), BINARY(bitwise_or),
    BINARY(bitwise_xor), BINARY_NO_AT_SCALAR(atan2), BINARY_NO_AT_SCALAR(logical_and),
    BINARY_NO_AT_SCALAR(logical_or),
    // No in-place form in either library, no Scalar form in ATen.
    {ts::OpId::maximum, "maximum", TS_F(maximum), TS_FS(maximum), nullptr, nullptr,
     TS_O(maximum), AT_F(maximum), nullptr, nullptr, nullptr, AT_O(maximum)},
    {ts::OpId::minimum, "minimum", TS_F(minimum), TS_FS(minimum), nullptr, nullptr,
     TS_O(minimum), AT_F(minimum), nullptr, nullptr, nullptr, AT_O(minimum)},
    // math (issue 16); ATen has no Scalar overload of hypot, nextafter and heaviside, and no
    // in-place form of logaddexp and logaddexp2.
    BINARY(copysign), BINARY(fmod), BINARY(floor_divide), BINARY(xlogy), BINARY(clamp_min),
    BINARY(clamp_max), BINARY_NO_AT_SCALAR(hypot), BINARY_NO_AT_SCALAR(nextafter),
    BINARY_NO_AT_SCALAR(heaviside),
    {ts::OpId::logaddexp, "logaddexp", TS_F(logaddexp), TS_FS(logaddexp), nullptr, nullptr,
     TS_O(logaddexp), AT_F(logaddexp), nullptr, nullptr, nullptr, AT_O(logaddexp)},
    {ts::OpId::logaddexp2, "logaddexp2", TS_F(logaddexp2), TS_FS(logaddexp2), nullptr, nullptr,
     TS_O(logaddexp2), AT_F(logaddexp2), nullptr, nullptr, nullptr, AT_O(logaddexp2)},
    // Not plain (they take alpha or a rounding mode), called with the defaults.
    BINARY(add), BINARY(sub), BINARY(div),
};
#undef BINARY_NO_AT_SCALAR
#undef BINARY
#undef AT_O
#undef AT_IS
#undef AT_I
#undef AT_FS
#undef AT_F
#undef TS_O
#undef TS_I
#undef TS_FS
#undef TS_F
// clang-format on

// ---- the call generators ----

void run_unary(Tally& tally, const std::string& set) {
  for (const UnaryRow& r : kUnary) {
    for (ScalarType d : kDtypes) {
      for (Layout l : kLayouts) {
        Call c{r.name, "", short_name(d), layout_name(l), {{d, l, 0}}};
        run_forms(
            tally, set, c, d, [&](const TsVec& in) { return r.ts_f(in[0]); },
            [&](const AtVec& in) { return r.at_f(in[0]); },
            r.ts_i ? std::function<void(const TsVec&)>([&](const TsVec& in) { r.ts_i(in[0]); })
                   : nullptr,
            r.at_i ? std::function<void(AtVec&)>([&](AtVec& in) { r.at_i(in[0]); }) : nullptr,
            r.ts_o ? std::function<void(const TsT&, const TsVec&)>(
                         [&](const TsT& o, const TsVec& in) { r.ts_o(o, in[0]); })
                   : nullptr,
            r.at_o ? std::function<void(AtT&, const AtVec&)>(
                         [&](AtT& o, const AtVec& in) { r.at_o(o, in[0]); })
                   : nullptr);
      }
    }
  }
}

// other gets self's shape, contiguous (0-dim and empty stay so): the output layout follows
// self's in ATen's TensorIterator when self is the one with a layout.
Layout other_layout(Layout l) {
  return l == Layout::ZeroDim || l == Layout::Empty ? l : Layout::Contiguous;
}

void run_binary(Tally& tally, const std::string& set) {
  for (const BinaryRow& r : kBinary) {
    for (ScalarType d1 : kDtypes) {
      for (ScalarType d2 : kDtypes) {
        for (Layout l : kLayouts) {
          // Mixed dtypes over the contiguous and transposed layouts only.
          if (d1 != d2 && l != Layout::Contiguous && l != Layout::Transposed) continue;
          Call c{r.name,
                 "",
                 short_name(d1) + "," + short_name(d2),
                 layout_name(l),
                 {{d1, l, 0}, {d2, other_layout(l), 1}}};
          run_forms(
              tally, set, c, ts::promote_types(d1, d2),
              [&](const TsVec& in) { return r.ts_f(in[0], in[1]); },
              [&](const AtVec& in) { return r.at_f(in[0], in[1]); },
              r.ts_i ? std::function<void(const TsVec&)>(
                           [&](const TsVec& in) { r.ts_i(in[0], in[1]); })
                     : nullptr,
              r.at_i ? std::function<void(AtVec&)>([&](AtVec& in) { r.at_i(in[0], in[1]); })
                     : nullptr,
              [&](const TsT& o, const TsVec& in) { r.ts_o(o, in[0], in[1]); },
              [&](AtT& o, const AtVec& in) { r.at_o(o, in[0], in[1]); });
        }
      }
    }
  }
}

// Tensor-Scalar forms: the Scalar is a wrapped number (int, float, bool; 300 and 1e10 overflow
// the narrow dtypes).
void run_binary_scalar(Tally& tally, const std::string& set) {
  const std::pair<ts::Scalar, std::string> kScalars[] = {{ts::Scalar(int64_t{2}), "int:2"},
                                                         {ts::Scalar(2.5), "float:2.5"},
                                                         {ts::Scalar(true), "bool:true"},
                                                         {ts::Scalar(int64_t{300}), "int:300"},
                                                         {ts::Scalar(1e10), "float:1e10"}};
  for (const BinaryRow& r : kBinary) {
    if (!r.at_fs) continue;
    for (ScalarType d : kDtypes) {
      for (const auto& scalar : kScalars) {
        const ts::Scalar s = scalar.first;
        const std::string& s_name = scalar.second;
        for (Layout l : {Layout::Contiguous, Layout::ZeroDim}) {
          const at::Scalar as = to_aten(s);
          Call c{r.name, "f_scalar", short_name(d) + "," + s_name, layout_name(l), {{d, l, 0}}};
          c.grad = true;
          c.ts_fn = [&](const TsVec& in) { return r.ts_fs(in[0], s); };
          c.at_fn = [&](const AtVec& in) { return r.at_fs(in[0], as); };
          tally.run(set, c);
          if (!r.ts_is || !r.at_is) continue;
          c.form = "inplace_scalar";
          c.grad = false;
          c.ts_fn = [&](const TsVec& in) {
            r.ts_is(in[0], s);
            return in[0];
          };
          c.at_fn = [&](const AtVec& in) {
            AtT self = in[0];
            r.at_is(self, as);
            return self;
          };
          tally.run(set, c);
        }
      }
    }
  }
}

// add and sub with an alpha (an int, a negative int, a float, a bool) on same-dtype operands.
void run_alpha(Tally& tally, const std::string& set) {
  const std::pair<ts::Scalar, std::string> kAlphas[] = {{ts::Scalar(int64_t{2}), "int:2"},
                                                        {ts::Scalar(int64_t{-1}), "int:-1"},
                                                        {ts::Scalar(0.5), "float:0.5"},
                                                        {ts::Scalar(true), "bool:true"}};
  for (const bool add : {true, false}) {
    for (ScalarType d : kDtypes) {
      for (const auto& alpha : kAlphas) {
        const ts::Scalar ts_a = alpha.first;
        const at::Scalar at_a = to_aten(ts_a);
        const std::string dtypes = short_name(d) + "," + short_name(d) + ",alpha=" + alpha.second;
        const Layout l = Layout::Contiguous;
        Call c{add ? "add" : "sub", "", dtypes, layout_name(l), {{d, l, 0}, {d, l, 1}}};
        run_forms(
            tally, set, c, d,
            [&](const TsVec& in) {
              return add ? ts::add(in[0], in[1], ts_a) : ts::sub(in[0], in[1], ts_a);
            },
            [&](const AtVec& in) {
              return add ? at::add(in[0], in[1], at_a) : at::sub(in[0], in[1], at_a);
            },
            [&](const TsVec& in) { add ? in[0].add_(in[1], ts_a) : in[0].sub_(in[1], ts_a); },
            [&](AtVec& in) { add ? in[0].add_(in[1], at_a) : in[0].sub_(in[1], at_a); },
            [&](const TsT& o, const TsVec& in) {
              add ? ts::add_out(o, in[0], in[1], ts_a) : ts::sub_out(o, in[0], in[1], ts_a);
            },
            [&](AtT& o, const AtVec& in) {
              add ? at::add_out(o, in[0], in[1], at_a) : at::sub_out(o, in[0], in[1], at_a);
            });
      }
    }
  }
}

}  // namespace

// math (issue 16): isclose (a composite; functional only) with its default tolerances, on pairs
// of one dtype (ATen refuses two).
void run_isclose(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : kLayouts) {
      Call c{"isclose",
             "",
             short_name(d) + "," + short_name(d),
             layout_name(l),
             {{d, l, 0}, {d, other_layout(l), 1}}};
      run_forms(
          tally, set, c, kBool, [](const TsVec& in) { return ts::isclose(in[0], in[1]); },
          [](const AtVec& in) { return at::isclose(in[0], in[1]); }, nullptr, nullptr, nullptr,
          nullptr);
    }
  }
}

void run_pointwise(Tally& tally, const std::string& set) {
  run_isclose(tally, set);
  run_unary(tally, set);
  run_binary(tally, set);
  run_binary_scalar(tally, set);
  run_alpha(tally, set);
}

}  // namespace ts::parity
