// Factory cases: allocation plus fill (the output is the only traffic), and the random fills.
#include "perf/catalog.h"

namespace ts::perf {
namespace {

using Factory = void (*)(const std::vector<int64_t>& shape, ScalarType t);

struct FactorySpec {
  const char* op;
  std::vector<OpId> ops;  // kernel ops it runs (composites: their parts)
  double flops;           // per element
  DTypeSet allowed;
  Factory make;
};

}  // namespace

void add_factories_cases(CaseList& list) {
  const int64_t n = list.numel(), s = list.side();
  const DTypeSet fl = DTypeSet::floating();
  const DTypeSet num = fl | DTypeSet::integral(false);
  const DTypeSet all = DTypeSet::all();
  using V = const std::vector<int64_t>&;
  // clang-format off
  const FactorySpec specs[] = {
    {"empty", {}, 0, all, [](V sh, ScalarType t) { (void)empty(sh, t); }},
    {"empty_strided", {}, 0, all, [](V sh, ScalarType t) { (void)empty_strided(sh, {1}, t); }},
    {"zeros", {OpId::fill_}, 0, all, [](V sh, ScalarType t) { (void)zeros(sh, t); }},
    {"ones", {OpId::fill_}, 0, all, [](V sh, ScalarType t) { (void)ones(sh, t); }},
    {"full", {OpId::fill_}, 0, all, [](V sh, ScalarType t) { (void)full(sh, 3, t); }},
    {"arange", {OpId::arange}, 1, num, [](V sh, ScalarType t) { (void)arange(0, sh[0], 1, t); }},
    {"linspace", {OpId::linspace}, 2, fl, [](V sh, ScalarType t) { (void)linspace(-1, 1, sh[0], t); }},
    {"rand", {OpId::rand}, 1, fl, [](V sh, ScalarType t) { (void)rand(sh, t); }},
    {"randn", {OpId::randn}, 1, fl, [](V sh, ScalarType t) { (void)randn(sh, t); }},
    {"randint", {OpId::randint}, 1, num, [](V sh, ScalarType t) { (void)randint(-50, 50, sh, t); }},
  };
  // clang-format on
  for (const FactorySpec& f : specs) {
    for (ScalarType t : list.dtypes(f.allowed)) {
      BenchCase c;
      c.family = "factories";
      c.op = f.op;
      c.shape = std::to_string(n);
      c.layout = "contiguous";
      c.dtype = t;
      c.bytes = std::string_view(f.op).starts_with("empty") ? 0 : nbytes(n, t);
      c.flops = f.flops * static_cast<double>(n);
      c.ops = f.ops;
      Factory make = f.make;
      c.setup = [=]() -> std::function<void()> {
        const std::vector<int64_t> shape{n};
        return [=] { make(shape, t); };
      };
      list.add(std::move(c));
    }
  }
  // eye and the *_like forms, on a square matrix.
  for (ScalarType t : list.dtypes(num)) {
    struct Like {
      const char* op;
      std::vector<OpId> ops;
      Tensor (*make)(const Tensor&);
    };
    const Like likes[] = {
        {"eye", {OpId::eye}, [](const Tensor& x) { return eye(x.size(0), x.size(1), x.dtype()); }},
        {"empty_like", {}, [](const Tensor& x) { return empty_like(x); }},
        {"zeros_like", {OpId::fill_}, [](const Tensor& x) { return zeros_like(x); }},
        {"ones_like", {OpId::fill_}, [](const Tensor& x) { return ones_like(x); }},
        {"full_like", {OpId::fill_}, [](const Tensor& x) { return full_like(x, 2); }},
        {"rand_like", {OpId::rand}, [](const Tensor& x) { return rand_like(x); }},
        {"randn_like", {OpId::randn}, [](const Tensor& x) { return randn_like(x); }},
    };
    for (const Like& l : likes) {
      if (std::string_view(l.op).starts_with("rand") && !DTypeSet::floating().has(t)) continue;
      BenchCase c;
      c.family = "factories";
      c.op = l.op;
      c.shape = shape_str({s, s});
      c.layout = "contiguous";
      c.dtype = t;
      c.bytes = std::string_view(l.op) == "empty_like" ? 0 : nbytes(s * s, t);
      c.flops = std::string_view(l.op).starts_with("rand") ? static_cast<double>(s * s) : 0;
      c.ops = l.ops;
      auto make = l.make;
      c.setup = [=]() -> std::function<void()> {
        Tensor x = empty({s, s}, t);
        return [=] { (void)make(x); };
      };
      list.add(std::move(c));
    }
  }
  // tensor(): from a host vector (a copy of 4096 values).
  for (ScalarType t : list.dtypes(DTypeSet{kFloat, kDouble})) {
    BenchCase c;
    c.family = "factories";
    c.op = "tensor";
    c.shape = "4096";
    c.layout = "from_host";
    c.dtype = t;
    c.bytes = 8.0 * 4096 + nbytes(4096, t);
    c.setup = [=]() -> std::function<void()> {
      auto values = std::make_shared<std::vector<double>>(4096, 0.25);
      return [=] { (void)tensor(ArrayRef<double>(*values), t); };
    };
    list.add(std::move(c));
  }
}

}  // namespace ts::perf
