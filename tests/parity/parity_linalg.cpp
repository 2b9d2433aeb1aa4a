// The parity test's linalg family: mm, bmm, mv, dot, outer, addmm (beta, alpha, broadcast self)
// and matmul over its shape cases, over ten dtypes (and a mixed pair), contiguous and transposed
// operands, every form, and a few bad calls.
#include "parity.h"
#include "touchstone/promotion.h"

namespace ts::parity {
namespace {

using Shape = std::vector<int64_t>;

// A product of two operands of the given shapes, all three forms where the op has them.
struct Product {
  const char* op;
  Shape a, b;
  std::function<TsT(const TsT&, const TsT&)> ts_f;
  std::function<AtT(const AtT&, const AtT&)> at_f;
  std::function<void(const TsT&, const TsT&, const TsT&)> ts_o;
  std::function<void(AtT&, const AtT&, const AtT&)> at_o;
};

// clang-format off
#define PRODUCT(name, a, b)                                                        \
  {#name, a, b, [](const TsT& x, const TsT& y) { return ts::name(x, y); },         \
   [](const AtT& x, const AtT& y) { return at::name(x, y); },                      \
   [](const TsT& o, const TsT& x, const TsT& y) { ts::name##_out(o, x, y); },      \
   [](AtT& o, const AtT& x, const AtT& y) { at::name##_out(o, x, y); }}
#define MATMUL(a, b)                                                               \
  {"matmul", a, b, [](const TsT& x, const TsT& y) { return ts::matmul(x, y); },    \
   [](const AtT& x, const AtT& y) { return at::matmul(x, y); }, nullptr, nullptr}
// clang-format on

void run_products(Tally& tally, const std::string& set) {
  const Product kProducts[] = {
      PRODUCT(mm, Shape({2, 3}), Shape({3, 2})), PRODUCT(bmm, Shape({2, 2, 3}), Shape({2, 3, 2})),
      PRODUCT(mv, Shape({2, 3}), Shape({3})),    PRODUCT(dot, Shape({3}), Shape({3})),
      PRODUCT(outer, Shape({2}), Shape({3})),    MATMUL(Shape({3}), Shape({3})),
      MATMUL(Shape({2, 3}), Shape({3})),         MATMUL(Shape({3}), Shape({3, 2})),
      MATMUL(Shape({2, 3}), Shape({3, 2})),      MATMUL(Shape({2, 2, 3}), Shape({3, 2})),
      MATMUL(Shape({2, 3}), Shape({2, 3, 2})),   MATMUL(Shape({2, 1, 2, 3}), Shape({2, 3, 1})),
      PRODUCT(mm, Shape({0, 3}), Shape({3, 2})), PRODUCT(mm, Shape({2, 0}), Shape({0, 2})),
  };
  const auto shape_name = [](const Shape& s) {
    std::string n;
    for (int64_t d : s) n += (n.empty() ? "" : "x") + std::to_string(d);
    return n;
  };
  for (const Product& p : kProducts) {
    for (ScalarType d1 : kDtypes) {
      // The same dtype, and (contiguous only) mixed with float64.
      std::vector<ScalarType> others{d1};
      if (d1 != kDouble) others.push_back(kDouble);
      for (ScalarType d2 : others) {
        for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
          if (d1 != d2 && l != Layout::Contiguous) continue;
          Call c{p.op,
                 "",
                 short_name(d1) + "," + short_name(d2),
                 std::string(layout_name(l)) + "," + shape_name(p.a) + "@" + shape_name(p.b),
                 {{d1, l, 0, p.a}, {d2, l, 1, p.b}}};
          run_forms(
              tally, set, c, promote_types(d1, d2),
              [&](const TsVec& in) { return p.ts_f(in[0], in[1]); },
              [&](const AtVec& in) { return p.at_f(in[0], in[1]); }, nullptr, nullptr,
              p.ts_o ? std::function<void(const TsT&, const TsVec&)>(
                           [&](const TsT& o, const TsVec& in) { p.ts_o(o, in[0], in[1]); })
                     : nullptr,
              p.at_o ? std::function<void(AtT&, const AtVec&)>(
                           [&](AtT& o, const AtVec& in) { p.at_o(o, in[0], in[1]); })
                     : nullptr);
        }
      }
    }
  }
}

void run_addmm(Tally& tally, const std::string& set) {
  const std::pair<double, double> kCoefficients[] = {{1, 1}, {0.5, 2}, {0, 1}};
  for (ScalarType d : kDtypes) {
    for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
      for (const Shape& self : {Shape({2, 2}), Shape({2})}) {
        for (const auto& [beta, alpha] : kCoefficients) {
          Call c{
              "addmm",
              "",
              short_name(d) + ",beta=" + std::to_string(beta) + ",alpha=" + std::to_string(alpha),
              std::string(layout_name(l)) + ",self=" + std::to_string(self.size()) + "d",
              {{d, self.size() == 2 ? l : Layout::Contiguous, 0, self},
               {d, l, 1, {2, 3}},
               {d, l, 0, {3, 2}}}};
          const at::Scalar ab = to_aten(ts::Scalar(beta)), aa = to_aten(ts::Scalar(alpha));
          run_forms(
              tally, set, c, d,
              [=](const TsVec& in) { return ts::addmm(in[0], in[1], in[2], beta, alpha); },
              [=](const AtVec& in) { return at::addmm(in[0], in[1], in[2], ab, aa); },
              self.size() == 2 ? std::function<void(const TsVec&)>([=](const TsVec& in) {
                in[0].addmm_(in[1], in[2], beta, alpha);
              })
                               : nullptr,
              self.size() == 2 ? std::function<void(AtVec&)>(
                                     [=](AtVec& in) { in[0].addmm_(in[1], in[2], ab, aa); })
                               : nullptr,
              [=](const TsT& o, const TsVec& in) {
                ts::addmm_out(o, in[0], in[1], in[2], beta, alpha);
              },
              [=](AtT& o, const AtVec& in) { at::addmm_out(o, in[0], in[1], in[2], ab, aa); });
        }
      }
    }
  }
}

// Bad calls: inner sizes that differ, operands of the wrong rank.
void run_bad_linalg(Tally& tally, const std::string& set) {
  const Input a23{kFloat, Layout::Contiguous, 0, {2, 3}},
      b22{kFloat, Layout::Contiguous, 1, {2, 2}};
  const Input v2{kFloat, Layout::Contiguous, 1, {2}}, v3{kFloat, Layout::Contiguous, 1, {3}};
  const Input a223{kFloat, Layout::Contiguous, 0, {2, 2, 3}};
  const Product kBad[] = {PRODUCT(mm, {}, {}),  PRODUCT(bmm, {}, {}), PRODUCT(mv, {}, {}),
                          PRODUCT(dot, {}, {}), MATMUL({}, {}),       PRODUCT(outer, {}, {})};
  const std::vector<std::pair<std::string, std::vector<Input>>> kOperands[] = {
      {{"[2,3]@[2,2]", {a23, b22}}, {"[2,3]@[3]", {a23, v3}}},           // mm
      {{"[2,2,3]@[2,2,3]", {a223, a223}}, {"[2,3]@[2,3]", {a23, a23}}},  // bmm
      {{"[2,3]@[2]", {a23, v2}}, {"[3]@[3]", {v3, v3}}},                 // mv
      {{"[3]@[2]", {v3, v2}}, {"[2,3]@[3]", {a23, v3}}},                 // dot
      {{"[2,3]@[2]", {a23, v2}}, {"[2,3]@[2,2]", {a23, b22}}},           // matmul
      {{"[2,3]@[3]", {a23, v3}}, {"[3]@[2,2]", {v3, b22}}},              // outer
  };
  for (size_t i = 0; i < std::size(kBad); ++i) {
    const Product& p = kBad[i];
    for (const auto& [what, inputs] : kOperands[i]) {
      run_bad(
          tally, set, p.op, what, inputs, [&](const TsVec& in) { return p.ts_f(in[0], in[1]); },
          [&](const AtVec& in) { return p.at_f(in[0], in[1]); });
    }
  }
  run_bad(
      tally, set, "addmm", "self [3,3]",
      {{kFloat, Layout::Contiguous, 0, {3, 3}}, a23, {kFloat, Layout::Contiguous, 0, {3, 2}}},
      [](const TsVec& in) { return ts::addmm(in[0], in[1], in[2]); },
      [](const AtVec& in) { return at::addmm(in[0], in[1], in[2]); });
}

}  // namespace

void run_linalg(Tally& tally, const std::string& set) {
  run_products(tally, set);
  run_addmm(tally, set);
  run_bad_linalg(tally, set);
}

}  // namespace ts::parity
