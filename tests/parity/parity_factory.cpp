// The parity test's factory and copy family: zeros/ones/full/empty/empty_strided/eye/arange/
// linspace/tensor and the random factories over ten dtypes; the *_like factories over layouts
// (they keep the input's strides); copy_, clone, contiguous, to, fill_ and zero_ over every
// dtype pair and layout; and a few bad calls. Random and uninitialised values are not compared.
#include "parity.h"

namespace ts::parity {
namespace {

// A call without tensor inputs (or with `inputs`), function form only.
void run_factory_call(Tally& tally, const std::string& set, const std::string& op,
                      const std::string& dtypes, std::function<TsT(const TsVec&)> ts_f,
                      std::function<AtT(const AtVec&)> at_f, bool values = true,
                      std::vector<Input> inputs = {}, const std::string& layout = "-") {
  Call c{op, "f", dtypes, layout, std::move(inputs)};
  c.values = values;
  run_call(tally, set, c, std::move(ts_f), std::move(at_f));
}

void run_factories(Tally& tally, const std::string& set) {
  const std::pair<ts::Scalar, std::string> kFills[] = {{ts::Scalar(int64_t{2}), "int:2"},
                                                       {ts::Scalar(2.5), "float:2.5"},
                                                       {ts::Scalar(true), "bool:true"},
                                                       {ts::Scalar(int64_t{300}), "int:300"}};
  for (ScalarType d : kDtypes) {
    const at::ScalarType ad = to_aten(d);
    const std::string n = short_name(d);
    run_factory_call(
        tally, set, "zeros", n,
        [=](const TsVec&) {
          return ts::zeros({2, 3}, d);
        },
        [=](const AtVec&) {
          return at::zeros({2, 3}, ad);
        });
    run_factory_call(
        tally, set, "ones", n,
        [=](const TsVec&) {
          return ts::ones({2, 0}, d);
        },
        [=](const AtVec&) {
          return at::ones({2, 0}, ad);
        });
    run_factory_call(
        tally, set, "ones", n,
        [=](const TsVec&) {
          return ts::ones({2, 3}, d);
        },
        [=](const AtVec&) {
          return at::ones({2, 3}, ad);
        });
    run_factory_call(
        tally, set, "empty", n,
        [=](const TsVec&) {
          return ts::empty({2, 3}, d);
        },
        [=](const AtVec&) {
          return at::empty({2, 3}, ad);
        },
        false);
    run_factory_call(
        tally, set, "empty_strided", n,
        [=](const TsVec&) {
          return ts::empty_strided({2, 3}, {1, 2}, d);
        },
        [=](const AtVec&) {
          return at::empty_strided({2, 3}, {1, 2}, ad);
        },
        false);
    run_factory_call(
        tally, set, "eye", n, [=](const TsVec&) { return ts::eye(2, 3, d); },
        [=](const AtVec&) { return at::eye(2, 3, ad); });
    run_factory_call(
        tally, set, "arange", n + ",0:5:2", [=](const TsVec&) { return ts::arange(0, 5, 2, d); },
        [=](const AtVec&) { return at::arange(0, 5, 2, ad); });
    run_factory_call(
        tally, set, "arange", n + ",0.5:2.5:0.5",
        [=](const TsVec&) { return ts::arange(0.5, 2.5, 0.5, d); },
        [=](const AtVec&) { return at::arange(0.5, 2.5, 0.5, ad); });
    for (int64_t steps : {5, 1, 0}) {
      run_factory_call(
          tally, set, "linspace", n + ",0:4:" + std::to_string(steps),
          [=](const TsVec&) { return ts::linspace(0, 4, steps, d); },
          [=](const AtVec&) { return at::linspace(0, 4, steps, ad); });
    }
    run_factory_call(
        tally, set, "tensor", n,
        [=](const TsVec&) {
          return ts::tensor({1.5, -2.0, 0.0}, d);
        },
        [=](const AtVec&) {
          return at::tensor({1.5, -2.0, 0.0}, ad);
        });
    for (const auto& [fill, name] : kFills) {
      const at::Scalar af = to_aten(fill);
      run_factory_call(
          tally, set, "full", n + "," + name,
          [=](const TsVec&) {
            return ts::full({2, 3}, fill, d);
          },
          [=](const AtVec&) {
            return at::full({2, 3}, af, ad);
          });
    }
    run_factory_call(
        tally, set, "rand", n,
        [=](const TsVec&) {
          return ts::rand({2, 3}, d);
        },
        [=](const AtVec&) {
          return at::rand({2, 3}, ad);
        },
        false);
    run_factory_call(
        tally, set, "randn", n,
        [=](const TsVec&) {
          return ts::randn({2, 3}, d);
        },
        [=](const AtVec&) {
          return at::randn({2, 3}, ad);
        },
        false);
    run_factory_call(
        tally, set, "randint", n,
        [=](const TsVec&) {
          return ts::randint(0, 2, {2, 3}, d);
        },
        [=](const AtVec&) {
          return at::randint(0, 2, {2, 3}, ad);
        },
        false);
  }
  // Default dtypes: integral arange, full of a bool / int / float.
  run_factory_call(
      tally, set, "arange", "default,0:5", [](const TsVec&) { return ts::arange(0, 5); },
      [](const AtVec&) { return at::arange(0, 5); });
  for (const auto& [fill, name] : kFills) {
    const at::Scalar af = to_aten(fill);
    run_factory_call(
        tally, set, "full", "default," + name, [=](const TsVec&) { return ts::full({2}, fill); },
        [=](const AtVec&) { return at::full({2}, af); });
  }
}

// The *_like factories keep the input's layout (preserve_format) in ATen.
void run_like(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : kLayouts) {
      for (std::optional<ScalarType> dtype : {std::optional<ScalarType>(), {kFloat}}) {
        const c10::optional<at::ScalarType> ad =
            dtype ? c10::optional<at::ScalarType>(to_aten(*dtype)) : c10::nullopt;
        const std::string key = short_name(d) + (dtype ? ",dtype=f32" : "");
        const auto opts = [=] {
          return dtype ? std::optional<TensorOptions>(*dtype) : std::nullopt;
        };
        const auto aopts = [=] { return at::TensorOptions().dtype(ad); };
        const std::vector<Input> in{{d, l, 0}};
        const std::string ln = layout_name(l);
        run_factory_call(
            tally, set, "zeros_like", key,
            [=](const TsVec& i) { return ts::zeros_like(i[0], opts()); },
            [=](const AtVec& i) { return at::zeros_like(i[0], aopts()); }, true, in, ln);
        run_factory_call(
            tally, set, "ones_like", key,
            [=](const TsVec& i) { return ts::ones_like(i[0], opts()); },
            [=](const AtVec& i) { return at::ones_like(i[0], aopts()); }, true, in, ln);
        run_factory_call(
            tally, set, "full_like", key,
            [=](const TsVec& i) { return ts::full_like(i[0], 2, opts()); },
            [=](const AtVec& i) { return at::full_like(i[0], 2, aopts()); }, true, in, ln);
        run_factory_call(
            tally, set, "empty_like", key,
            [=](const TsVec& i) { return ts::empty_like(i[0], opts()); },
            [=](const AtVec& i) { return at::empty_like(i[0], aopts()); }, false, in, ln);
        run_factory_call(
            tally, set, "rand_like", key,
            [=](const TsVec& i) { return ts::rand_like(i[0], opts()); },
            [=](const AtVec& i) { return at::rand_like(i[0], aopts()); }, false, in, ln);
        run_factory_call(
            tally, set, "randn_like", key,
            [=](const TsVec& i) { return ts::randn_like(i[0], opts()); },
            [=](const AtVec& i) { return at::randn_like(i[0], aopts()); }, false, in, ln);
      }
    }
  }
}

void run_copy(Tally& tally, const std::string& set) {
  for (ScalarType d1 : kDtypes) {
    for (ScalarType d2 : kDtypes) {
      for (Layout l : kLayouts) {
        if (d1 != d2 && l != Layout::Contiguous && l != Layout::Transposed) continue;
        const std::string key = short_name(d1) + "," + short_name(d2);
        // copy_ into a fresh (non-leaf) tensor, so the gradient flows to the source.
        Call c{"copy_", "inplace", key, layout_name(l), {{d1, l, 0}, {d2, l, 1}}};
        c.grad = true;
        run_call(
            tally, set, c, [](const TsVec& in) { return (in[0] * 1).copy_(in[1]); },
            [](const AtVec& in) { return (in[0] * 1).copy_(in[1]); });
        Call t{"to", "f", key, layout_name(l), {{d1, l, 0}}};
        t.grad = true;
        run_call(
            tally, set, t, [=](const TsVec& in) { return in[0].to(d2); },
            [=](const AtVec& in) { return in[0].to(to_aten(d2)); });
      }
    }
    for (Layout l : kLayouts) {
      Call c{"clone", "f", short_name(d1), layout_name(l), {{d1, l, 0}}};
      c.grad = true;
      run_call(
          tally, set, c, [](const TsVec& in) { return ts::clone(in[0]); },
          [](const AtVec& in) { return at::clone(in[0]); });
      c.op = "contiguous";
      run_call(
          tally, set, c, [](const TsVec& in) { return ts::contiguous(in[0]); },
          [](const AtVec& in) { return in[0].contiguous(); });
      c.op = "zero_";
      c.form = "inplace";
      c.grad = false;
      run_call(
          tally, set, c, [](const TsVec& in) { return in[0].zero_(); },
          [](const AtVec& in) { return in[0].zero_(); });
      c.op = "fill_";
      for (const auto& [v, name] :
           {std::pair{ts::Scalar(int64_t{300}), "int:300"},
            std::pair{ts::Scalar(-1.5), "float:-1.5"}, std::pair{ts::Scalar(true), "bool:true"}}) {
        c.dtypes = short_name(d1) + "," + name;
        const at::Scalar av = to_aten(v);
        run_call(
            tally, set, c, [v = v](const TsVec& in) { return in[0].fill_(v); },
            [=](const AtVec& in) { return in[0].fill_(av); });
      }
    }
  }
}

// Bad calls: a negative size, a zero step, a bad range, mismatched copy shapes.
void run_bad_factory(Tally& tally, const std::string& set) {
  run_bad(
      tally, set, "zeros", "size -1", {}, [](const TsVec&) { return ts::zeros({-1}); },
      [](const AtVec&) { return at::zeros({-1}); });
  run_bad(
      tally, set, "arange", "step 0", {}, [](const TsVec&) { return ts::arange(0, 5, 0); },
      [](const AtVec&) { return at::arange(0, 5, 0); });
  run_bad(
      tally, set, "arange", "5:0:1", {}, [](const TsVec&) { return ts::arange(5, 0, 1); },
      [](const AtVec&) { return at::arange(5, 0, 1); });
  run_bad(
      tally, set, "linspace", "steps -1", {}, [](const TsVec&) { return ts::linspace(0, 1, -1); },
      [](const AtVec&) { return at::linspace(0, 1, -1); });
  run_bad(
      tally, set, "eye", "n -1", {}, [](const TsVec&) { return ts::eye(-1, 2); },
      [](const AtVec&) { return at::eye(-1, 2); });
  run_bad(
      tally, set, "copy_", "shapes [2,3] <- [4]", {{kFloat}, {kFloat, Layout::Contiguous, 1, {4}}},
      [](const TsVec& in) { return in[0].copy_(in[1]); },
      [](const AtVec& in) { return in[0].copy_(in[1]); });
  run_bad(
      tally, set, "empty_strided", "size/stride ranks", {},
      [](const TsVec&) {
        return ts::empty_strided({2, 3}, {1});
      },
      [](const AtVec&) {
        return at::empty_strided({2, 3}, {1});
      });
  run_bad(
      tally, set, "randint", "low >= high", {}, [](const TsVec&) { return ts::randint(3, 3, {2}); },
      [](const AtVec&) { return at::randint(3, 3, {2}); });
}

}  // namespace

void run_factory(Tally& tally, const std::string& set) {
  run_factories(tally, set);
  run_like(tally, set);
  run_copy(tally, set);
  run_bad_factory(tally, set);
}

}  // namespace ts::parity
