// Catalog entries of the factories: fills, ranges, eye, tensor, random. A case's dtype is the
// dtype it creates (args.dtype); the *_like ops' input has that dtype too.
// Benchmark: allocation plus fill (the output is the only traffic), the ranges and the random
// fills, on a vector of the run's length; eye and the *_like forms on a square matrix.
#include <limits>
#include <string_view>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), "factory", std::move(samples), std::move(run));
}

const std::vector<std::pair<std::string, Shape>>& shapes() {
  static const std::vector<std::pair<std::string, Shape>> all = {
      {"scalar", {}},      {"empty", {0}},         {"vec7", {7}},     {"mat3x4", {3, 4}},
      {"cube", {2, 3, 5}}, {"empty3d", {2, 0, 3}}, {"big", {37, 53}}, {"vec2053", {2053}}};
  return all;
}

// One sample per shape, no inputs: args.shape and args.dtype (the case's dtype).
std::vector<Sample> shape_samples(const SampleContext& ctx) {
  std::vector<Sample> out;
  for (const auto& [name, shape] : shapes()) {
    Sample s;
    s.name = name;
    s.args.shape = shape;
    s.args.dtype = ctx.dtype();
    out.push_back(std::move(s));
  }
  return out;
}

// One sample per shape with a contiguous input of that shape (the harness relayouts it).
std::vector<Sample> like_samples(const SampleContext& ctx) {
  std::vector<Sample> out;
  for (const auto& [name, shape] : shapes()) {
    Sample s;
    s.name = name;
    s.inputs = {ctx.input(name, 0, shape)};
    out.push_back(std::move(s));
  }
  // The dtype= option: a float64 result from any input.
  Sample s;
  s.name = "dtype_float64";
  s.inputs = {ctx.input(s.name, 0, {3, 4})};
  s.args.dtype = kDouble;
  out.push_back(std::move(s));
  return out;
}

std::optional<TensorOptions> like_options(const SampleArgs& a) {
  if (!a.dtype) return std::nullopt;
  return TensorOptions(*a.dtype);  // the input's device (TensorOptions::has_device)
}

// The dtype= and device= arguments of a factory without an input.
TensorOptions options(const SampleArgs& a) {
  return TensorOptions(*a.dtype).device(a.device);
}

// Note [Unspecified values]
// empty, empty_strided and empty_like leave the values unspecified: their cases compare what is
// specified, as an int64 tensor [sizes..., dtype, storage offset, strides...]. empty_like leaves
// the strides out: they follow the input's layout, which the layout variants change while the
// reference runs on the contiguous sample.
Tensor describe(const Tensor& t, bool strides = true) {
  std::vector<int64_t> v(t.sizes().begin(), t.sizes().end());
  v.push_back(static_cast<int64_t>(t.dtype()));
  v.push_back(t.storage_offset());
  if (strides) v.insert(v.end(), t.strides().begin(), t.strides().end());
  return tensor(ArrayRef<int64_t>(v), TensorOptions(kLong).device(t.device()));
}

// Note [Random samples]
// Random ops draw from the default Philox generator: the run function sets its state to
// {args.seed, 0} (the hash of "op/dtype/sample"), so the reference and the candidate draw the
// same counters and must agree (bitwise for integers, within tolerance for floats). seeded()
// gives each sample its seed.
std::vector<Sample> seeded(std::vector<Sample> samples, const std::string& op, ScalarType dt) {
  for (Sample& s : samples) {
    s.args.seed = hash_name(op + "/" + std::string(dtype_name(dt)) + "/" + s.name);
  }
  return samples;
}

// ---- fills ----

std::vector<OpEntry> fill_entries() {
  std::vector<OpEntry> v;
  v.push_back(entry("zeros", shape_samples, [](const In&, const SampleArgs& a) {
    return In{ts::zeros(a.shape, options(a))};
  }));
  v.push_back(entry("ones", shape_samples, [](const In&, const SampleArgs& a) {
    return In{ts::ones(a.shape, options(a))};
  }));
  // full: the dtype's Scalar, and for floating dtypes NaN, -inf and a value to round.
  v.push_back(entry(
      "full",
      [](const SampleContext& ctx) {
        std::vector<Sample> out = shape_samples(ctx);
        for (Sample& s : out) s.args.scalars = {ctx.scalar()};
        if (is_floating_type(ctx.dtype())) {
          for (const auto& [name, value] : std::vector<std::pair<std::string, double>>{
                   {"nan", kNaN}, {"neg_inf", -kInf}, {"third", 1.0 / 3}}) {
            Sample s;
            s.name = "value_" + name;
            s.args.shape = {3, 4};
            s.args.dtype = ctx.dtype();
            s.args.scalars = {value};
            out.push_back(std::move(s));
          }
        }
        return out;
      },
      [](const In&, const SampleArgs& a) {
        return In{ts::full(a.shape, a.scalars[0], options(a))};
      }));
  v.push_back(entry("empty", shape_samples, [](const In&, const SampleArgs& a) {
    return In{describe(ts::empty(a.shape, options(a)))};
  }));
  // empty_strided: args.ints holds the strides (column-major, padded, broadcast).
  v.push_back(entry(
      "empty_strided",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const auto& [name, size, stride] :
             std::vector<std::tuple<std::string, Shape, Shape>>{{"col_major", {3, 4}, {1, 3}},
                                                                {"padded", {3, 4}, {8, 1}},
                                                                {"zero_stride", {3, 4}, {0, 1}},
                                                                {"empty", {0, 4}, {4, 1}},
                                                                {"scalar", {}, {}}}) {
          Sample s;
          s.name = name;
          s.args.shape = size;
          s.args.ints = stride;
          s.args.dtype = ctx.dtype();
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In&, const SampleArgs& a) {
        return In{describe(ts::empty_strided(a.shape, a.ints, options(a)))};
      }));
  v.push_back(entry("zeros_like", like_samples, [](const In& in, const SampleArgs& a) {
    return In{ts::zeros_like(in[0], like_options(a))};
  }));
  v.push_back(entry("ones_like", like_samples, [](const In& in, const SampleArgs& a) {
    return In{ts::ones_like(in[0], like_options(a))};
  }));
  v.push_back(entry(
      "full_like",
      [](const SampleContext& ctx) {
        std::vector<Sample> out = like_samples(ctx);
        for (Sample& s : out) s.args.scalars = {ctx.scalar()};
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::full_like(in[0], a.scalars[0], like_options(a))};
      }));
  v.push_back(entry("empty_like", like_samples, [](const In& in, const SampleArgs& a) {
    return In{describe(ts::empty_like(in[0], like_options(a)), /*strides=*/false)};
  }));
  // Note [Constant by definition]
  for (const char* name : {"zeros_like", "ones_like", "full_like"}) {
    entry_named(v, name).constant_output = DTypeSet::all();
  }
  return v;
}

// ---- arange, linspace, eye, tensor ----

std::vector<OpEntry> range_entries() {
  std::vector<OpEntry> v;
  // arange(start, end, step) = args.scalars; fractional arguments only for floating dtypes
  // (integral dtypes truncate them, as ATen, which one sample checks).
  v.push_back(entry(
      "arange",
      [](const SampleContext& ctx) {
        const bool floating = is_floating_type(ctx.dtype());
        std::vector<std::pair<std::string, std::vector<Scalar>>> cases = {
            {"upto10", {int64_t{0}, int64_t{10}, int64_t{1}}},
            {"step3", {int64_t{2}, int64_t{11}, int64_t{3}}},
            {"down", {int64_t{10}, int64_t{0}, int64_t{-1}}},
            {"empty", {int64_t{5}, int64_t{5}, int64_t{1}}},
            {"upto127", {int64_t{0}, int64_t{127}, int64_t{1}}},
            {"truncated_args", {0.5, 7.9, 1.5}},
        };
        if (floating) {
          cases.push_back({"fraction", {-3.5, 4.0, 0.5}});
          cases.push_back({"tenths", {0.0, 1.0, 0.1}});
          cases.push_back({"big", {-50.0, 50.0, 0.037}});
        }
        std::vector<Sample> out;
        for (const auto& [name, args] : cases) {
          Sample s;
          s.name = name;
          s.args.scalars = args;
          s.args.dtype = ctx.dtype();
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In&, const SampleArgs& a) {
        return In{ts::arange(a.scalars[0], a.scalars[1], a.scalars[2], options(a))};
      }));
  // linspace(start, end, steps): args.scalars = {start, end}, args.ints = {steps}.
  v.push_back(entry(
      "linspace",
      [](const SampleContext& ctx) {
        const std::vector<std::tuple<std::string, double, double, int64_t>> cases = {
            {"unit", 0, 1, 5},  {"one_step", -2, 3, 1}, {"no_steps", 1, 0, 0},   {"down", 5, -5, 7},
            {"ints", 0, 10, 4}, {"big", -10, 10, 2053}, {"upto100", 0, 100, 101}};
        std::vector<Sample> out;
        for (const auto& [name, start, end, steps] : cases) {
          if (ctx.dtype() == kByte && (start < 0 || end < 0)) continue;  // not representable
          Sample s;
          s.name = name;
          s.args.scalars = {start, end};
          s.args.ints = {steps};
          s.args.dtype = ctx.dtype();
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In&, const SampleArgs& a) {
        return In{ts::linspace(a.scalars[0], a.scalars[1], a.ints[0], options(a))};
      }));
  // eye(n) or eye(n, m): args.ints.
  v.push_back(entry(
      "eye",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const auto& [name, nm] :
             std::vector<std::pair<std::string, Shape>>{{"square", {3, 3}},
                                                        {"wide", {3, 5}},
                                                        {"tall", {5, 3}},
                                                        {"empty", {0, 4}},
                                                        {"one", {1, 1}},
                                                        {"n_only", {4}},
                                                        {"big", {37, 53}}}) {
          Sample s;
          s.name = name;
          s.args.ints = nm;
          s.args.dtype = ctx.dtype();
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In&, const SampleArgs& a) {
        return In{a.ints.size() == 1 ? ts::eye(a.ints[0], options(a))
                                     : ts::eye(a.ints[0], a.ints[1], options(a))};
      }));
  // tensor(values, dtype): args.reals, or args.ints for integer values.
  v.push_back(entry(
      "tensor",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        Sample ints;
        ints.name = "ints";
        ints.args.ints = {0, 1, 7, 100};
        if (is_signed_type(ctx.dtype())) ints.args.ints.push_back(-3);
        out.push_back(ints);
        Sample none = ints;
        none.name = "no_values";
        none.args.ints.clear();
        out.push_back(none);
        Sample reals;
        reals.name = "reals";
        reals.args.reals = {0.5, 2.0, 1.0 / 3, 100.25};
        if (is_floating_type(ctx.dtype())) {
          reals.args.reals.insert(reals.args.reals.end(), {-1.5, kNaN, kInf, -kInf, 1e-40});
        }
        out.push_back(reals);
        for (Sample& s : out) s.args.dtype = ctx.dtype();
        return out;
      },
      [](const In&, const SampleArgs& a) {
        if (!a.reals.empty()) return In{ts::tensor(ArrayRef<double>(a.reals), options(a))};
        return In{ts::tensor(ArrayRef<int64_t>(a.ints), options(a))};
      }));
  return v;
}

// ---- random ----

std::vector<OpEntry> random_entries() {
  std::vector<OpEntry> v;
  for (const bool normal : {false, true}) {
    const std::string name = normal ? "randn" : "rand";
    v.push_back(entry(
        name,
        [name](const SampleContext& ctx) { return seeded(shape_samples(ctx), name, ctx.dtype()); },
        [normal](const In&, const SampleArgs& a) {
          SeedScope seed(a);
          return In{normal ? ts::randn(a.shape, options(a)) : ts::rand(a.shape, options(a))};
        }));
    v.push_back(entry(
        name + "_like",
        [name](const SampleContext& ctx) {
          return seeded(like_samples(ctx), name + "_like", ctx.dtype());
        },
        [normal](const In& in, const SampleArgs& a) {
          SeedScope seed(a);
          return In{normal ? ts::randn_like(in[0], like_options(a))
                           : ts::rand_like(in[0], like_options(a))};
        }));
  }
  // randint(low, high, size): args.ints = {low, high}; negative lows for signed dtypes.
  v.push_back(entry(
      "randint",
      [](const SampleContext& ctx) {
        std::vector<Sample> out = shape_samples(ctx);
        for (Sample& s : out) s.args.ints = {0, ctx.dtype() == kBool ? 2 : 10};
        const std::vector<std::pair<std::string, std::vector<int64_t>>> ranges = {
            {"signed", {-5, 5}}, {"one_value", {3, 4}}, {"wide", {-100, 100}}};
        for (const auto& [name, lh] : ranges) {
          if (lh[0] < 0 && !is_signed_type(ctx.dtype())) continue;
          Sample s;
          s.name = "range_" + name;
          s.args.shape = {37, 53};
          s.args.ints = lh;
          s.args.dtype = ctx.dtype();
          out.push_back(std::move(s));
        }
        return seeded(std::move(out), "randint", ctx.dtype());
      },
      [](const In&, const SampleArgs& a) {
        SeedScope seed(a);
        return In{ts::randint(a.ints[0], a.ints[1], a.shape, options(a))};
      }));
  return v;
}

// ---- benchmark ----

using Factory = void (*)(const std::vector<int64_t>& shape, TensorOptions options);
using LikeFactory = Tensor (*)(const Tensor& like);

// `make` on a vector of the run's length in each `allowed` dtype (the run's, default float32).
BenchFn vector_bench(const char* op, std::vector<OpId> ops, double flops, DTypeSet allowed,
                     Factory make) {
  return each_dtype(allowed, [=](CaseList& list, ScalarType t) {
    const int64_t n = list.numel();
    const double bytes = std::string_view(op).starts_with("empty") ? 0 : nbytes(n, t);
    BenchCase c = make_case("factories", op, t, std::to_string(n), "contiguous", bytes,
                            flops * static_cast<double>(n), ops);
    c.setup = [=](Device d) -> std::function<void()> {
      const std::vector<int64_t> shape{n};
      return [=] { make(shape, TensorOptions(t).device(d)); };
    };
    list.add(std::move(c));
  });
}

// `make` like a square matrix in each `allowed` dtype.
BenchFn like_bench(const char* op, std::vector<OpId> ops, DTypeSet allowed, LikeFactory make) {
  return each_dtype(allowed, [=](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    const bool random = std::string_view(op).starts_with("rand");
    BenchCase c = make_case("factories", op, t, shape_str({s, s}), "contiguous",
                            std::string_view(op) == "empty_like" ? 0 : nbytes(s * s, t),
                            random ? static_cast<double>(s * s) : 0, ops);
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = empty({s, s}, TensorOptions(t).device(d));
      return [=] { (void)make(x); };
    };
    list.add(std::move(c));
  });
}

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet fl = DTypeSet::floating();
  const DTypeSet num = fl | DTypeSet::integral(false);
  const DTypeSet all = DTypeSet::all();
  using V = const std::vector<int64_t>&;
  using O = TensorOptions;
  const std::vector<OpId> fill{OpId::fill_};
  entry_named(v, "empty").bench =
      vector_bench("empty", {}, 0, all, [](V sh, O o) { (void)empty(sh, o); });
  entry_named(v, "empty_strided").bench =
      vector_bench("empty_strided", {}, 0, all, [](V sh, O o) { (void)empty_strided(sh, {1}, o); });
  entry_named(v, "zeros").bench =
      vector_bench("zeros", fill, 0, all, [](V sh, O o) { (void)zeros(sh, o); });
  entry_named(v, "ones").bench =
      vector_bench("ones", fill, 0, all, [](V sh, O o) { (void)ones(sh, o); });
  entry_named(v, "full").bench =
      vector_bench("full", fill, 0, all, [](V sh, O o) { (void)full(sh, 3, o); });
  entry_named(v, "arange").bench = vector_bench("arange", {OpId::arange}, 1, num,
                                                [](V sh, O o) { (void)arange(0, sh[0], 1, o); });
  entry_named(v, "linspace").bench = vector_bench(
      "linspace", {OpId::linspace}, 2, fl, [](V sh, O o) { (void)linspace(-1, 1, sh[0], o); });
  entry_named(v, "rand").bench =
      vector_bench("rand", {OpId::rand}, 1, fl, [](V sh, O o) { (void)rand(sh, o); });
  entry_named(v, "randn").bench =
      vector_bench("randn", {OpId::randn}, 1, fl, [](V sh, O o) { (void)randn(sh, o); });
  entry_named(v, "randint").bench = vector_bench("randint", {OpId::randint}, 1, num,
                                                 [](V sh, O o) { (void)randint(-50, 50, sh, o); });
  entry_named(v, "eye").bench = like_bench("eye", {OpId::eye}, num, [](const Tensor& x) {
    return eye(x.size(0), x.size(1), x.options());
  });
  entry_named(v, "empty_like").bench =
      like_bench("empty_like", {}, num, [](const Tensor& x) { return empty_like(x); });
  entry_named(v, "zeros_like").bench =
      like_bench("zeros_like", fill, num, [](const Tensor& x) { return zeros_like(x); });
  entry_named(v, "ones_like").bench =
      like_bench("ones_like", fill, num, [](const Tensor& x) { return ones_like(x); });
  entry_named(v, "full_like").bench =
      like_bench("full_like", fill, num, [](const Tensor& x) { return full_like(x, 2); });
  entry_named(v, "rand_like").bench =
      like_bench("rand_like", {OpId::rand}, fl, [](const Tensor& x) { return rand_like(x); });
  entry_named(v, "randn_like").bench =
      like_bench("randn_like", {OpId::randn}, fl, [](const Tensor& x) { return randn_like(x); });
  // tensor(): from a host vector (a copy of 4096 values).
  entry_named(v, "tensor").bench =
      each_dtype(DTypeSet{kFloat, kDouble}, [](CaseList& list, ScalarType t) {
        BenchCase c = make_case("factories", "tensor", t, "4096", "from_host",
                                8.0 * 4096 + nbytes(4096, t), 0, {});
        c.setup = [=](Device d) -> std::function<void()> {
          auto values = std::make_shared<std::vector<double>>(4096, 0.25);
          return [=] { (void)tensor(ArrayRef<double>(*values), TensorOptions(t).device(d)); };
        };
        list.add(std::move(c));
      });
}

}  // namespace

std::vector<OpEntry> factory_entries() {
  std::vector<OpEntry> v;
  for (auto* part : {&fill_entries, &range_entries, &random_entries}) {
    for (OpEntry& e : part()) v.push_back(std::move(e));
  }
  add_bench(v);
  return v;
}

}  // namespace ts::catalog
