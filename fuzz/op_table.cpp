// The ops a program can call: one OpSpec per op and form (functional, in-place `op_`, `op_out`),
// with its signature (ArgKind letters, see program.h) and how it runs on the active kernel set.
// Covers every op of lib/include/touchstone/op_list.def, the view ops, and the fuzzer's own
// statements (input, index, requires_grad_, retain_grad, backward). The plain unary and binary
// ops come from the case catalog (Note [Plain ops from the catalog]).
#include <cstring>
#include <map>

#include "catalog/catalog.h"
#include "fuzz/program.h"
#include "fuzz/values.h"

namespace ts::fuzz {
namespace {

using C = const Call&;

class Table {
 public:
  void def(std::string family, std::string name, std::string_view sig, uint32_t flags, ExecFn fn,
           int results = 1, int num_outs = 0) {
    OpSpec s;
    s.family = std::move(family);
    s.name = std::move(name);
    s.params = parse_signature(sig);
    s.flags = flags;
    s.exec = std::move(fn);
    s.results = (flags & (kInPlace | kOut)) ? 0 : results;
    s.num_outs = (flags & kOut) ? (num_outs > 0 ? num_outs : 1) : 0;
    specs.push_back(std::move(s));
  }
  std::vector<OpSpec> specs;
};

TensorOptions opts(C c, size_t k) {
  return c.is_none(k) ? TensorOptions() : TensorOptions(c.dtype(k));
}
std::optional<TensorOptions> opt_opts(C c, size_t k) {
  if (c.is_none(k)) return std::nullopt;
  return TensorOptions(c.dtype(k));
}
std::optional<std::string_view> opt_str(C c, size_t k) {
  if (c.is_none(k)) return std::nullopt;
  return std::string_view(c.str(k));
}

// empty* leave values unspecified: the fuzzer zeroes the storage so programs stay deterministic.
Tensor zeroed(Tensor t) {
  if (t.storage()->nbytes() > 0) std::memset(t.storage()->data(), 0, t.storage()->nbytes());
  return t;
}

void factories(Table& T) {
  const uint32_t R = kRandom;
  T.def("factory", "empty", "size:IL dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{zeroed(ts::empty(c.ints(0), opts(c, 1)))}; });
  T.def("factory", "empty_strided", "size:IL stride:IL dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{zeroed(ts::empty_strided(c.ints(0), c.ints(1), opts(c, 2)))}; });
  T.def("factory", "zeros", "size:IL dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{ts::zeros(c.ints(0), opts(c, 1))}; });
  T.def("factory", "ones", "size:IL dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{ts::ones(c.ints(0), opts(c, 1))}; });
  T.def("factory", "full", "size:IL fill_value:S dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{ts::full(c.ints(0), c.s(1), opts(c, 2))}; });
  T.def("factory", "arange", "start:S end:S step:S=1 dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{ts::arange(c.s(0), c.s(1), c.s(2), opts(c, 3))}; });
  T.def("factory", "linspace", "start:S end:S steps:I dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{ts::linspace(c.s(0), c.s(1), c.i(2), opts(c, 3))}; });
  T.def("factory", "eye", "n:I m:I?=None dtype:D?=None", kNoFlags, [](C c) {
    return Tensors{c.is_none(1) ? ts::eye(c.i(0), opts(c, 2))
                                : ts::eye(c.i(0), c.i(1), opts(c, 2))};
  });
  T.def("factory", "empty_like", "self:T dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{zeroed(ts::empty_like(c.t(0), opt_opts(c, 1)))}; });
  T.def("factory", "zeros_like", "self:T dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{ts::zeros_like(c.t(0), opt_opts(c, 1))}; });
  T.def("factory", "ones_like", "self:T dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{ts::ones_like(c.t(0), opt_opts(c, 1))}; });
  T.def("factory", "full_like", "self:T fill_value:S dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{ts::full_like(c.t(0), c.s(1), opt_opts(c, 2))}; });
  T.def("factory", "tensor", "values:IL dtype:D?=None", kNoFlags,
        [](C c) { return Tensors{ts::tensor(ArrayRef<int64_t>(c.ints(0)), opts(c, 1))}; });
  T.def("factory", "rand", "size:IL dtype:D?=None seed:I=0", R, [](C c) {
    ts::manual_seed(c.i(2));
    return Tensors{ts::rand(c.ints(0), opts(c, 1))};
  });
  T.def("factory", "randn", "size:IL dtype:D?=None seed:I=0", R, [](C c) {
    ts::manual_seed(c.i(2));
    return Tensors{ts::randn(c.ints(0), opts(c, 1))};
  });
  T.def("factory", "randint", "low:I high:I size:IL dtype:D=int64 seed:I=0", R, [](C c) {
    ts::manual_seed(c.i(4));
    return Tensors{ts::randint(c.i(0), c.i(1), c.ints(2), TensorOptions(c.dtype(3)))};
  });
  T.def("factory", "rand_like", "self:T dtype:D?=None seed:I=0", R, [](C c) {
    ts::manual_seed(c.i(2));
    return Tensors{ts::rand_like(c.t(0), opt_opts(c, 1))};
  });
  T.def("factory", "randn_like", "self:T dtype:D?=None seed:I=0", R, [](C c) {
    ts::manual_seed(c.i(2));
    return Tensors{ts::randn_like(c.t(0), opt_opts(c, 1))};
  });
}

void copies(Table& T) {
  T.def("copy", "copy_", "self:T src:T", kInPlace,
        [](C c) { return Tensors{c.t(0).copy_(c.t(1))}; });
  T.def("copy", "clone", "self:T", kNoFlags, [](C c) { return Tensors{ts::clone(c.t(0))}; });
  T.def("copy", "contiguous", "self:T", kNoFlags,
        [](C c) { return Tensors{ts::contiguous(c.t(0))}; });
  T.def("copy", "to", "self:T dtype:D copy:B=false", kNoFlags,
        [](C c) { return Tensors{c.t(0).to(c.dtype(1), c.b(2))}; });
  T.def("copy", "fill_", "self:T value:S", kInPlace,
        [](C c) { return Tensors{c.t(0).fill_(c.s(1))}; });
  T.def("copy", "zero_", "self:T", kInPlace, [](C c) { return Tensors{c.t(0).zero_()}; });
}

// Note [Plain ops from the catalog]
// An op whose schema's arguments are exactly `Tensor self` (unary) or `Tensor self, Tensor other`
// (binary) has no argument the generator must choose, so its statements come from its catalog
// entry's calls: the functional form (Tensor-Tensor or Tensor-Scalar for binary ops), the
// in-place and out= forms where the entry has them (op_list.def's variants). A new plain op in
// the catalog is fuzzed with no edit here. The others (gelu's approximate, clamp's bounds, the
// activations' Scalars, add's alpha, div's rounding mode, pow's Scalar base) are written out below.
std::string_view arguments(std::string_view schema) {
  const size_t open = schema.find('('), close = schema.find(')');
  return schema.substr(open + 1, close - open - 1);
}

catalog::SampleArgs scalar_args(C c, size_t k) {
  catalog::SampleArgs a;
  if (!c.is_tensor(k)) a.scalar = c.s(k);
  return a;
}

void plain_unary(Table& T, const catalog::OpEntry& e) {
  T.def("unary", e.name, "self:T", kNoFlags, [run = e.run](C c) { return run({c.t(0)}, {}); });
  if (e.run_inplace) {
    T.def("unary", e.name + "_", "self:T", kInPlace, [run = e.run_inplace](C c) {
      const Tensor self = c.t(0);
      return Tensors{run(self, {self}, {})};
    });
  }
  if (e.run_out) {
    T.def("unary", e.name + "_out", "out:T self:T", kOut, [run = e.run_out](C c) {
      const Tensor out = c.t(0);
      run({out}, {c.t(1)}, {});
      return Tensors{out};
    });
  }
}

void plain_binary(Table& T, const catalog::OpEntry& e) {
  T.def("binary", e.name, "self:T other:TS", kNoFlags, [run = e.run](C c) {
    return run(c.is_tensor(1) ? Tensors{c.t(0), c.t(1)} : Tensors{c.t(0)}, scalar_args(c, 1));
  });
  if (e.run_out) {
    T.def("binary", e.name + "_out", "out:T self:T other:T", kOut, [run = e.run_out](C c) {
      const Tensor out = c.t(0);
      run({out}, {c.t(1), c.t(2)}, {});
      return Tensors{out};
    });
  }
  if (e.run_inplace) {
    T.def("binary", e.name + "_", "self:T other:TS", kInPlace, [run = e.run_inplace](C c) {
      const Tensor self = c.t(0);
      return Tensors{run(self, {self, c.is_tensor(1) ? c.t(1) : Tensor()}, scalar_args(c, 1))};
    });
  }
}

// The plain ops of `family` ("unary" or "binary"), in catalog order.
void plain_ops(Table& T, const std::string& family) {
  const bool unary = family == "unary";
  for (const catalog::OpEntry& e : catalog::entries()) {
    if (e.family != family || e.name != e.op_name()) continue;
    const std::string_view args = arguments(op_info(e.id).schema);
    if (unary && args == "Tensor self") plain_unary(T, e);
    if (!unary && args == "Tensor self, Tensor other") plain_binary(T, e);
  }
}

void unaries(Table& T) {
  plain_ops(T, "unary");
  T.def("unary", "gelu", "self:T approximate:STR='none'", kNoFlags,
        [](C c) { return Tensors{ts::gelu(c.t(0), c.str(1))}; });
  T.def("unary", "gelu_", "self:T approximate:STR='none'", kInPlace,
        [](C c) { return Tensors{ts::gelu_(c.t(0), c.str(1))}; });
  T.def("unary", "gelu_out", "out:T self:T approximate:STR='none'", kOut,
        [](C c) { return Tensors{ts::gelu_out(c.t(0), c.t(1), c.str(2))}; });
  T.def("unary", "clamp", "self:T min:S?=None max:S?=None", kNoFlags,
        [](C c) { return Tensors{ts::clamp(c.t(0), c.opt_s(1), c.opt_s(2))}; });
  T.def("unary", "clamp_", "self:T min:S?=None max:S?=None", kInPlace,
        [](C c) { return Tensors{ts::clamp_(c.t(0), c.opt_s(1), c.opt_s(2))}; });
  T.def("unary", "clamp_out", "out:T self:T min:S?=None max:S?=None", kOut,
        [](C c) { return Tensors{ts::clamp_out(c.t(0), c.t(1), c.opt_s(2), c.opt_s(3))}; });
  // math (issue 16): nan_to_num's float? replacements as optional Scalars.
  const auto opt_d = [](C c, size_t k) -> std::optional<double> {
    const std::optional<Scalar> v = c.opt_s(k);
    return v ? std::optional(v->to_double()) : std::nullopt;
  };
  T.def("unary", "nan_to_num", "self:T nan:S?=None posinf:S?=None neginf:S?=None", kNoFlags,
        [opt_d](C c) {
          return Tensors{ts::nan_to_num(c.t(0), opt_d(c, 1), opt_d(c, 2), opt_d(c, 3))};
        });
  T.def("unary", "nan_to_num_", "self:T nan:S?=None posinf:S?=None neginf:S?=None", kInPlace,
        [opt_d](C c) {
          return Tensors{ts::nan_to_num_(c.t(0), opt_d(c, 1), opt_d(c, 2), opt_d(c, 3))};
        });
  T.def("unary", "nan_to_num_out", "out:T self:T nan:S?=None posinf:S?=None neginf:S?=None", kOut,
        [opt_d](C c) {
          return Tensors{ts::nan_to_num_out(c.t(0), c.t(1), opt_d(c, 2), opt_d(c, 3), opt_d(c, 4))};
        });
  // activations (issue 16); selu and softsign take only self and come from the catalog.
  T.def("unary", "leaky_relu", "self:T negative_slope:S=0.01", kNoFlags,
        [](C c) { return Tensors{ts::leaky_relu(c.t(0), c.s(1))}; });
  T.def("unary", "leaky_relu_", "self:T negative_slope:S=0.01", kInPlace,
        [](C c) { return Tensors{ts::leaky_relu_(c.t(0), c.s(1))}; });
  T.def("unary", "leaky_relu_out", "out:T self:T negative_slope:S=0.01", kOut,
        [](C c) { return Tensors{ts::leaky_relu_out(c.t(0), c.t(1), c.s(2))}; });
  T.def("unary", "elu", "self:T alpha:S=1 scale:S=1 input_scale:S=1", kNoFlags,
        [](C c) { return Tensors{ts::elu(c.t(0), c.s(1), c.s(2), c.s(3))}; });
  T.def("unary", "elu_", "self:T alpha:S=1 scale:S=1 input_scale:S=1", kInPlace,
        [](C c) { return Tensors{ts::elu_(c.t(0), c.s(1), c.s(2), c.s(3))}; });
  T.def("unary", "elu_out", "out:T self:T alpha:S=1 scale:S=1 input_scale:S=1", kOut,
        [](C c) { return Tensors{ts::elu_out(c.t(0), c.t(1), c.s(2), c.s(3), c.s(4))}; });
  T.def("unary", "celu", "self:T alpha:S=1.0", kNoFlags,
        [](C c) { return Tensors{ts::celu(c.t(0), c.s(1))}; });
  T.def("unary", "celu_", "self:T alpha:S=1.0", kInPlace,
        [](C c) { return Tensors{ts::celu_(c.t(0), c.s(1))}; });
  T.def("unary", "softplus", "self:T beta:S=1 threshold:S=20", kNoFlags,
        [](C c) { return Tensors{ts::softplus(c.t(0), c.s(1), c.s(2))}; });
  T.def("unary", "softplus_out", "out:T self:T beta:S=1 threshold:S=20", kOut,
        [](C c) { return Tensors{ts::softplus_out(c.t(0), c.t(1), c.s(2), c.s(3))}; });
  T.def("unary", "hardtanh", "self:T min_val:S=-1 max_val:S=1", kNoFlags,
        [](C c) { return Tensors{ts::hardtanh(c.t(0), c.s(1), c.s(2))}; });
  T.def("unary", "hardtanh_", "self:T min_val:S=-1 max_val:S=1", kInPlace,
        [](C c) { return Tensors{ts::hardtanh_(c.t(0), c.s(1), c.s(2))}; });
  T.def("unary", "hardtanh_out", "out:T self:T min_val:S=-1 max_val:S=1", kOut,
        [](C c) { return Tensors{ts::hardtanh_out(c.t(0), c.t(1), c.s(2), c.s(3))}; });
  T.def("unary", "threshold", "self:T threshold:S value:S", kNoFlags,
        [](C c) { return Tensors{ts::threshold(c.t(0), c.s(1), c.s(2))}; });
  T.def("unary", "threshold_", "self:T threshold:S value:S", kInPlace,
        [](C c) { return Tensors{ts::threshold_(c.t(0), c.s(1), c.s(2))}; });
  T.def("unary", "threshold_out", "out:T self:T threshold:S value:S", kOut,
        [](C c) { return Tensors{ts::threshold_out(c.t(0), c.t(1), c.s(2), c.s(3))}; });
}

void binaries(Table& T) {
  for (const char* op : {"add", "sub"}) {
    const bool add = std::strcmp(op, "add") == 0;
    T.def("binary", op, "self:T other:TS alpha:S=1", kNoFlags, [add](C c) {
      if (c.is_tensor(1)) {
        return Tensors{add ? ts::add(c.t(0), c.t(1), c.s(2)) : ts::sub(c.t(0), c.t(1), c.s(2))};
      }
      return Tensors{add ? ts::add(c.t(0), c.s(1), c.s(2)) : ts::sub(c.t(0), c.s(1), c.s(2))};
    });
    T.def("binary", std::string(op) + "_", "self:T other:TS alpha:S=1", kInPlace, [add](C c) {
      const Tensor& s = c.t(0);
      if (c.is_tensor(1)) return Tensors{add ? s.add_(c.t(1), c.s(2)) : s.sub_(c.t(1), c.s(2))};
      return Tensors{add ? s.add_(c.s(1), c.s(2)) : s.sub_(c.s(1), c.s(2))};
    });
    T.def("binary", std::string(op) + "_out", "out:T self:T other:T alpha:S=1", kOut, [add](C c) {
      return Tensors{add ? ts::add_out(c.t(0), c.t(1), c.t(2), c.s(3))
                         : ts::sub_out(c.t(0), c.t(1), c.t(2), c.s(3))};
    });
  }
  T.def("binary", "div", "self:T other:TS rounding_mode:STR?=None", kNoFlags, [](C c) {
    return Tensors{c.is_tensor(1) ? ts::div(c.t(0), c.t(1), opt_str(c, 2))
                                  : ts::div(c.t(0), c.s(1), opt_str(c, 2))};
  });
  T.def("binary", "div_", "self:T other:T rounding_mode:STR?=None", kInPlace,
        [](C c) { return Tensors{c.t(0).div_(c.t(1), opt_str(c, 2))}; });
  T.def("binary", "div_out", "out:T self:T other:T rounding_mode:STR?=None", kOut,
        [](C c) { return Tensors{ts::div_out(c.t(0), c.t(1), c.t(2), opt_str(c, 3))}; });
  plain_ops(T, "binary");
  // math (issue 16): the ops whose second operand is not named `other`.
  for (const catalog::OpEntry& e : catalog::entries()) {
    if (e.name != "heaviside" && e.name != "clamp_min" && e.name != "clamp_max") continue;
    const std::string& op = e.name;
    T.def("binary", op, "self:T other:TS", kNoFlags, [run = e.run](C c) {
      return run(c.is_tensor(1) ? Tensors{c.t(0), c.t(1)} : Tensors{c.t(0)}, scalar_args(c, 1));
    });
    T.def("binary", op + "_", "self:T other:TS", kInPlace, [run = e.run_inplace](C c) {
      const Tensor self = c.t(0);
      return Tensors{run(self, {self, c.is_tensor(1) ? c.t(1) : Tensor()}, scalar_args(c, 1))};
    });
    T.def("binary", op + "_out", "out:T self:T other:T", kOut, [run = e.run_out](C c) {
      const Tensor out = c.t(0);
      run({out}, {c.t(1), c.t(2)}, {});
      return Tensors{out};
    });
  }
  T.def("binary", "isclose", "self:T other:T rtol:F=1e-05 atol:F=1e-08 equal_nan:B=false", kNoFlags,
        [](C c) { return Tensors{ts::isclose(c.t(0), c.t(1), c.d(2), c.d(3), c.b(4))}; });
  // pow also takes a Scalar base.
  T.def("binary", "pow", "self:TS exponent:TS", kNoFlags, [](C c) {
    if (!c.is_tensor(0)) return Tensors{ts::pow(c.s(0), c.t(1))};
    return Tensors{c.is_tensor(1) ? ts::pow(c.t(0), c.t(1)) : ts::pow(c.t(0), c.s(1))};
  });
  T.def("binary", "pow_", "self:T exponent:TS", kInPlace,
        [](C c) { return Tensors{c.is_tensor(1) ? c.t(0).pow_(c.t(1)) : c.t(0).pow_(c.s(1))}; });
  T.def("binary", "pow_out", "out:T self:T exponent:T", kOut,
        [](C c) { return Tensors{ts::pow_out(c.t(0), c.t(1), c.t(2))}; });
}

void ternaries(Table& T) {
  T.def("ternary", "where", "condition:T self:TS other:TS", kNoFlags, [](C c) {
    if (!c.is_tensor(1)) return Tensors{ts::where(c.t(0), c.s(1), c.t(2))};
    if (!c.is_tensor(2)) return Tensors{ts::where(c.t(0), c.t(1), c.s(2))};
    return Tensors{ts::where(c.t(0), c.t(1), c.t(2))};
  });
  T.def("ternary", "where_out", "out:T condition:T self:T other:T", kOut,
        [](C c) { return Tensors{ts::where_out(c.t(0), c.t(1), c.t(2), c.t(3))}; });
  T.def("ternary", "lerp", "self:T end:T weight:TS", kNoFlags, [](C c) {
    return Tensors{c.is_tensor(2) ? ts::lerp(c.t(0), c.t(1), c.t(2))
                                  : ts::lerp(c.t(0), c.t(1), c.s(2))};
  });
  T.def("ternary", "lerp_", "self:T end:T weight:TS", kInPlace, [](C c) {
    return Tensors{c.is_tensor(2) ? c.t(0).lerp_(c.t(1), c.t(2)) : c.t(0).lerp_(c.t(1), c.s(2))};
  });
  T.def("ternary", "lerp_out", "out:T self:T end:T weight:T", kOut,
        [](C c) { return Tensors{ts::lerp_out(c.t(0), c.t(1), c.t(2), c.t(3))}; });
  T.def("ternary", "addcmul", "self:T tensor1:T tensor2:T value:S=1", kNoFlags,
        [](C c) { return Tensors{ts::addcmul(c.t(0), c.t(1), c.t(2), c.s(3))}; });
  T.def("ternary", "addcmul_", "self:T tensor1:T tensor2:T value:S=1", kInPlace,
        [](C c) { return Tensors{c.t(0).addcmul_(c.t(1), c.t(2), c.s(3))}; });
  T.def("ternary", "addcmul_out", "out:T self:T tensor1:T tensor2:T value:S=1", kOut,
        [](C c) { return Tensors{ts::addcmul_out(c.t(0), c.t(1), c.t(2), c.t(3), c.s(4))}; });
  T.def("ternary", "masked_fill", "self:T mask:T value:S", kNoFlags,
        [](C c) { return Tensors{ts::masked_fill(c.t(0), c.t(1), c.s(2))}; });
  T.def("ternary", "masked_fill_", "self:T mask:T value:S", kInPlace,
        [](C c) { return Tensors{c.t(0).masked_fill_(c.t(1), c.s(2))}; });
}

void reductions(Table& T) {
  const uint32_t A = kAccumulates;
  // sum and mean: dim None reduces everything (the dtype-only overload unless keepdim).
  for (const char* op : {"sum", "mean"}) {
    const bool sum = std::strcmp(op, "sum") == 0;
    T.def("reduce", op, "self:T dim:IL?=None keepdim:B=false dtype:D?=None", A, [sum](C c) {
      const Tensor& x = c.t(0);
      if (c.is_none(1) && !c.b(2)) {
        return Tensors{sum ? ts::sum(x, c.opt_dtype(3)) : ts::mean(x, c.opt_dtype(3))};
      }
      const std::vector<int64_t> none;
      const auto& dims = c.is_none(1) ? none : c.ints(1);
      return Tensors{sum ? ts::sum(x, dims, c.b(2), c.opt_dtype(3))
                         : ts::mean(x, dims, c.b(2), c.opt_dtype(3))};
    });
    T.def("reduce", std::string(op) + "_out",
          "out:T self:T dim:IL=[] keepdim:B=false dtype:D?=None", kOut | A, [sum](C c) {
            return Tensors{sum ? ts::sum_out(c.t(0), c.t(1), c.ints(2), c.b(3), c.opt_dtype(4))
                               : ts::mean_out(c.t(0), c.t(1), c.ints(2), c.b(3), c.opt_dtype(4))};
          });
  }
  T.def("reduce", "prod", "self:T dim:I?=None keepdim:B=false dtype:D?=None", A, [](C c) {
    if (c.is_none(1)) return Tensors{ts::prod(c.t(0), c.opt_dtype(3))};
    return Tensors{ts::prod(c.t(0), c.i(1), c.b(2), c.opt_dtype(3))};
  });
  T.def("reduce", "prod_out", "out:T self:T dim:I keepdim:B=false dtype:D?=None", kOut | A,
        [](C c) { return Tensors{ts::prod_out(c.t(0), c.t(1), c.i(2), c.b(3), c.opt_dtype(4))}; });
  for (const char* op : {"amax", "amin"}) {
    const bool mx = std::strcmp(op, "amax") == 0;
    T.def("reduce", op, "self:T dim:IL=[] keepdim:B=false", kNoFlags, [mx](C c) {
      return Tensors{mx ? ts::amax(c.t(0), c.ints(1), c.b(2))
                        : ts::amin(c.t(0), c.ints(1), c.b(2))};
    });
    T.def("reduce", std::string(op) + "_out", "out:T self:T dim:IL=[] keepdim:B=false", kOut,
          [mx](C c) {
            return Tensors{mx ? ts::amax_out(c.t(0), c.t(1), c.ints(2), c.b(3))
                              : ts::amin_out(c.t(0), c.t(1), c.ints(2), c.b(3))};
          });
  }
  for (const char* op : {"max", "min"}) {
    const bool mx = std::strcmp(op, "max") == 0;
    T.def(
        "reduce", op, "self:T dim:I?=None keepdim:B=false", kNoFlags,
        [mx](C c) {
          if (c.is_none(1)) return Tensors{mx ? ts::max(c.t(0)) : ts::min(c.t(0))};
          auto [v, i] = mx ? ts::max(c.t(0), c.i(1), c.b(2)) : ts::min(c.t(0), c.i(1), c.b(2));
          return Tensors{v, i};
        },
        -1);
    T.def(
        "reduce", std::string(op) + "_out", "values:T indices:T self:T dim:I keepdim:B=false", kOut,
        [mx](C c) {
          const Tensor values = c.t(0), indices = c.t(1);  // the results refer to these
          auto r = mx ? ts::max_out(values, indices, c.t(2), c.i(3), c.b(4))
                      : ts::min_out(values, indices, c.t(2), c.i(3), c.b(4));
          return Tensors{std::get<0>(r), std::get<1>(r)};
        },
        0, 2);
  }
  for (const char* op : {"argmax", "argmin"}) {
    const bool mx = std::strcmp(op, "argmax") == 0;
    T.def("reduce", op, "self:T dim:I?=None keepdim:B=false", kNoFlags, [mx](C c) {
      return Tensors{mx ? ts::argmax(c.t(0), c.opt_i(1), c.b(2))
                        : ts::argmin(c.t(0), c.opt_i(1), c.b(2))};
    });
    T.def("reduce", std::string(op) + "_out", "out:T self:T dim:I?=None keepdim:B=false", kOut,
          [mx](C c) {
            return Tensors{mx ? ts::argmax_out(c.t(0), c.t(1), c.opt_i(2), c.b(3))
                              : ts::argmin_out(c.t(0), c.t(1), c.opt_i(2), c.b(3))};
          });
  }
  for (const char* op : {"var", "std"}) {
    const bool var = std::strcmp(op, "var") == 0;
    T.def("reduce", op, "self:T dim:IL=[] correction:F=1.0 keepdim:B=false", A, [var](C c) {
      return Tensors{var ? ts::var(c.t(0), c.ints(1), c.d(2), c.b(3))
                         : ts::std(c.t(0), c.ints(1), c.d(2), c.b(3))};
    });
    T.def("reduce", std::string(op) + "_out",
          "out:T self:T dim:IL=[] correction:F=1.0 keepdim:B=false", kOut | A, [var](C c) {
            return Tensors{var ? ts::var_out(c.t(0), c.t(1), c.ints(2), c.d(3), c.b(4))
                               : ts::std_out(c.t(0), c.t(1), c.ints(2), c.d(3), c.b(4))};
          });
  }
  T.def("reduce", "norm", "self:T p:S=2 dim:IL=[] keepdim:B=false", A,
        [](C c) { return Tensors{ts::norm(c.t(0), c.s(1), c.ints(2), c.b(3))}; });
  T.def("reduce", "norm_out", "out:T self:T p:S=2 dim:IL=[] keepdim:B=false", kOut | A,
        [](C c) { return Tensors{ts::norm_out(c.t(0), c.t(1), c.s(2), c.ints(3), c.b(4))}; });
  T.def("reduce", "logsumexp", "self:T dim:IL keepdim:B=false", A,
        [](C c) { return Tensors{ts::logsumexp(c.t(0), c.ints(1), c.b(2))}; });
  T.def("reduce", "logsumexp_out", "out:T self:T dim:IL keepdim:B=false", kOut | A,
        [](C c) { return Tensors{ts::logsumexp_out(c.t(0), c.t(1), c.ints(2), c.b(3))}; });
  for (const char* op : {"all", "any"}) {
    const bool all = std::strcmp(op, "all") == 0;
    T.def("reduce", op, "self:T dim:I?=None keepdim:B=false", kNoFlags, [all](C c) {
      if (c.is_none(1)) return Tensors{all ? ts::all(c.t(0)) : ts::any(c.t(0))};
      return Tensors{all ? ts::all(c.t(0), c.i(1), c.b(2)) : ts::any(c.t(0), c.i(1), c.b(2))};
    });
    T.def("reduce", std::string(op) + "_out", "out:T self:T dim:I keepdim:B=false", kOut,
          [all](C c) {
            return Tensors{all ? ts::all_out(c.t(0), c.t(1), c.i(2), c.b(3))
                               : ts::any_out(c.t(0), c.t(1), c.i(2), c.b(3))};
          });
  }
  T.def("reduce", "cumsum", "self:T dim:I dtype:D?=None", A,
        [](C c) { return Tensors{ts::cumsum(c.t(0), c.i(1), c.opt_dtype(2))}; });
  T.def("reduce", "cumsum_", "self:T dim:I dtype:D?=None", kInPlace | A,
        [](C c) { return Tensors{c.t(0).cumsum_(c.i(1), c.opt_dtype(2))}; });
  T.def("reduce", "cumsum_out", "out:T self:T dim:I dtype:D?=None", kOut | A,
        [](C c) { return Tensors{ts::cumsum_out(c.t(0), c.t(1), c.i(2), c.opt_dtype(3))}; });
}

void nn(Table& T) {
  const uint32_t A = kAccumulates;
  for (const char* op : {"softmax", "log_softmax"}) {
    const bool sm = std::strcmp(op, "softmax") == 0;
    T.def("nn", op, "self:T dim:I dtype:D?=None", A, [sm](C c) {
      return Tensors{sm ? ts::softmax(c.t(0), c.i(1), c.opt_dtype(2))
                        : ts::log_softmax(c.t(0), c.i(1), c.opt_dtype(2))};
    });
    T.def("nn", std::string(op) + "_out", "out:T self:T dim:I dtype:D?=None", kOut | A, [sm](C c) {
      return Tensors{sm ? ts::softmax_out(c.t(0), c.t(1), c.i(2), c.opt_dtype(3))
                        : ts::log_softmax_out(c.t(0), c.t(1), c.i(2), c.opt_dtype(3))};
    });
  }
  T.def("nn", "layer_norm", "input:T weight:T?=None bias:T?=None normalized_shape:IL eps:F=1e-05",
        A, [](C c) { return Tensors{ts::layer_norm(c.t(0), c.ints(3), c.t(1), c.t(2), c.d(4))}; });
  T.def("nn", "nll_loss", "self:T target:T weight:T?=None reduction:I=1 ignore_index:I=-100", A,
        [](C c) {
          return Tensors{
              ts::nll_loss(c.t(0), c.t(1), c.t(2), static_cast<Reduction>(c.i(3)), c.i(4))};
        });
  T.def("nn", "cross_entropy",
        "self:T target:T weight:T?=None reduction:I=1 ignore_index:I=-100 label_smoothing:F=0.0", A,
        [](C c) {
          return Tensors{ts::cross_entropy(c.t(0), c.t(1), c.t(2), static_cast<Reduction>(c.i(3)),
                                           c.i(4), c.d(5))};
        });
  T.def("nn", "mse_loss", "self:T target:T reduction:I=1", A,
        [](C c) { return Tensors{ts::mse_loss(c.t(0), c.t(1), static_cast<Reduction>(c.i(2)))}; });
  T.def("nn", "linear", "input:T weight:T bias:T?=None", A,
        [](C c) { return Tensors{ts::linear(c.t(0), c.t(1), c.t(2))}; });
  T.def("nn", "dropout", "input:T p:F train:B=true seed:I=0", kRandom, [](C c) {
    ts::manual_seed(c.i(3));
    return Tensors{ts::dropout(c.t(0), c.d(1), c.b(2))};
  });
}

// convolution (issue 16): the kernel op and its composites (family "conv"; the generator does
// not draw them yet, corpus programs call them).
void convolutions(Table& T) {
  const uint32_t A = kAccumulates;
  T.def("conv", "convolution",
        "input:T weight:T bias:T?=None stride:IL=[1] padding:IL=[0] dilation:IL=[1] "
        "transposed:B=false output_padding:IL=[0] groups:I=1",
        A, [](C c) {
          return Tensors{ts::convolution(c.t(0), c.t(1), c.t(2), c.ints(3), c.ints(4), c.ints(5),
                                         c.b(6), c.ints(7), c.i(8))};
        });
  using Conv = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef,
                          IntArrayRef, int64_t);
  // Not structured bindings: clang 14 (the ci-asan preset) cannot capture one in a lambda.
  for (const std::pair<const char*, Conv>& named :
       {std::pair<const char*, Conv>{"conv1d", &ts::conv1d},
        std::pair<const char*, Conv>{"conv2d", &ts::conv2d},
        std::pair<const char*, Conv>{"conv3d", &ts::conv3d}}) {
    const char* name = named.first;
    const Conv fn = named.second;
    T.def("conv", name,
          "input:T weight:T bias:T?=None stride:IL=[1] padding:IL=[0] dilation:IL=[1] groups:I=1",
          A, [fn](C c) {
            return Tensors{fn(c.t(0), c.t(1), c.t(2), c.ints(3), c.ints(4), c.ints(5), c.i(6))};
          });
  }
  using ConvT = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef,
                           IntArrayRef, int64_t, IntArrayRef);
  for (const std::pair<const char*, ConvT>& named :
       {std::pair<const char*, ConvT>{"conv_transpose1d", &ts::conv_transpose1d},
        std::pair<const char*, ConvT>{"conv_transpose2d", &ts::conv_transpose2d},
        std::pair<const char*, ConvT>{"conv_transpose3d", &ts::conv_transpose3d}}) {
    const char* name = named.first;
    const ConvT fn = named.second;
    T.def("conv", name,
          "input:T weight:T bias:T?=None stride:IL=[1] padding:IL=[0] output_padding:IL=[0] "
          "groups:I=1 dilation:IL=[1]",
          A, [fn](C c) {
            return Tensors{
                fn(c.t(0), c.t(1), c.t(2), c.ints(3), c.ints(4), c.ints(5), c.i(6), c.ints(7))};
          });
  }
}

// normalization, embedding, attention and gated activations (issue 16): family "norm", which
// the generator does not draw from yet (their arguments need shapes it does not build); programs
// and the corpus may call them.
void norms(Table& T) {
  const uint32_t A = kAccumulates;
  const auto opt_d = [](C c, size_t k) -> std::optional<double> {
    const std::optional<Scalar> v = c.opt_s(k);
    return v ? std::optional(v->to_double()) : std::nullopt;
  };
  T.def("norm", "batch_norm",
        "input:T weight:T?=None bias:T?=None running_mean:T?=None running_var:T?=None "
        "training:B=false momentum:F=0.1 eps:F=1e-05",
        A, [](C c) {
          return Tensors{
              ts::batch_norm(c.t(0), c.t(1), c.t(2), c.t(3), c.t(4), c.b(5), c.d(6), c.d(7))};
        });
  T.def("norm", "group_norm", "input:T num_groups:I weight:T?=None bias:T?=None eps:F=1e-05", A,
        [](C c) { return Tensors{ts::group_norm(c.t(0), c.i(1), c.t(2), c.t(3), c.d(4))}; });
  T.def("norm", "rms_norm", "input:T weight:T?=None normalized_shape:IL eps:S?=None", A,
        [opt_d](C c) { return Tensors{ts::rms_norm(c.t(0), c.ints(2), c.t(1), opt_d(c, 3))}; });
  T.def("norm", "instance_norm",
        "input:T weight:T?=None bias:T?=None running_mean:T?=None running_var:T?=None "
        "use_input_stats:B=true momentum:F=0.1 eps:F=1e-05",
        A, [](C c) {
          return Tensors{
              ts::instance_norm(c.t(0), c.t(1), c.t(2), c.t(3), c.t(4), c.b(5), c.d(6), c.d(7))};
        });
  T.def(
      "norm", "local_response_norm", "input:T size:I alpha:F=0.0001 beta:F=0.75 k:F=1.0", A,
      [](C c) { return Tensors{ts::local_response_norm(c.t(0), c.i(1), c.d(2), c.d(3), c.d(4))}; });
  T.def("norm", "embedding", "weight:T indices:T padding_idx:I=-1 scale_grad_by_freq:B=false",
        kNoFlags, [](C c) { return Tensors{ts::embedding(c.t(0), c.t(1), c.i(2), c.b(3))}; });
  T.def("norm", "one_hot", "self:T num_classes:I=-1", kNoFlags,
        [](C c) { return Tensors{ts::one_hot(c.t(0), c.i(1))}; });
  T.def("norm", "scaled_dot_product_attention",
        "query:T key:T value:T attn_mask:T?=None dropout_p:F=0.0 is_causal:B=false "
        "scale:S?=None seed:I=0",
        A | kRandom, [opt_d](C c) {
          ts::manual_seed(c.i(7));
          return Tensors{ts::scaled_dot_product_attention(c.t(0), c.t(1), c.t(2), c.t(3), c.d(4),
                                                          c.b(5), opt_d(c, 6))};
        });
  T.def("norm", "glu", "self:T dim:I=-1", kNoFlags,
        [](C c) { return Tensors{ts::glu(c.t(0), c.i(1))}; });
  T.def("norm", "prelu", "self:T weight:T", kNoFlags,
        [](C c) { return Tensors{ts::prelu(c.t(0), c.t(1))}; });
}

#define TS_FUZZ_LINALG(name)                                      \
  T.def("linalg", #name, "self:T other:T", A,                     \
        [](C c) { return Tensors{ts::name(c.t(0), c.t(1))}; });   \
  T.def("linalg", #name "_out", "out:T self:T other:T", kOut | A, \
        [](C c) { return Tensors{ts::name##_out(c.t(0), c.t(1), c.t(2))}; });

void linalg(Table& T) {
  const uint32_t A = kAccumulates;
  TS_FUZZ_LINALG(mm)
  TS_FUZZ_LINALG(bmm)
  TS_FUZZ_LINALG(dot)
  TS_FUZZ_LINALG(mv)
  TS_FUZZ_LINALG(outer)
  T.def("linalg", "matmul", "self:T other:T", A,
        [](C c) { return Tensors{ts::matmul(c.t(0), c.t(1))}; });
  T.def("linalg", "addmm", "self:T mat1:T mat2:T beta:S=1 alpha:S=1", A,
        [](C c) { return Tensors{ts::addmm(c.t(0), c.t(1), c.t(2), c.s(3), c.s(4))}; });
  T.def("linalg", "addmm_", "self:T mat1:T mat2:T beta:S=1 alpha:S=1", kInPlace | A,
        [](C c) { return Tensors{c.t(0).addmm_(c.t(1), c.t(2), c.s(3), c.s(4))}; });
  T.def("linalg", "addmm_out", "out:T self:T mat1:T mat2:T beta:S=1 alpha:S=1", kOut | A,
        [](C c) { return Tensors{ts::addmm_out(c.t(0), c.t(1), c.t(2), c.t(3), c.s(4), c.s(5))}; });
}
#undef TS_FUZZ_LINALG

void indexing(Table& T) {
  T.def("index", "index_select", "self:T index:T dim:I", kNoFlags,
        [](C c) { return Tensors{ts::index_select(c.t(0), c.i(2), c.t(1))}; });
  T.def("index", "index_select_out", "out:T self:T index:T dim:I", kOut,
        [](C c) { return Tensors{ts::index_select_out(c.t(0), c.t(1), c.i(3), c.t(2))}; });
  T.def("index", "gather", "self:T index:T dim:I", kNoFlags,
        [](C c) { return Tensors{ts::gather(c.t(0), c.i(2), c.t(1))}; });
  T.def("index", "gather_out", "out:T self:T index:T dim:I", kOut,
        [](C c) { return Tensors{ts::gather_out(c.t(0), c.t(1), c.i(3), c.t(2))}; });
  T.def("index", "scatter_add", "self:T index:T src:T dim:I", kAccumulates,
        [](C c) { return Tensors{ts::scatter_add(c.t(0), c.i(3), c.t(1), c.t(2))}; });
  T.def("index", "scatter_add_", "self:T index:T src:T dim:I", kInPlace | kAccumulates,
        [](C c) { return Tensors{c.t(0).scatter_add_(c.i(3), c.t(1), c.t(2))}; });
  T.def("index", "scatter_add_out", "out:T self:T index:T src:T dim:I", kOut | kAccumulates,
        [](C c) { return Tensors{ts::scatter_add_out(c.t(0), c.t(1), c.i(4), c.t(2), c.t(3))}; });
  T.def("index", "cat", "tensors:TL dim:I=0", kNoFlags,
        [](C c) { return Tensors{ts::cat(c.tensors(0), c.i(1))}; });
  T.def("index", "cat_out", "out:T tensors:TL dim:I=0", kOut,
        [](C c) { return Tensors{ts::cat_out(c.t(0), c.tensors(1), c.i(2))}; });
  T.def("index", "stack", "tensors:TL dim:I=0", kNoFlags,
        [](C c) { return Tensors{ts::stack(c.tensors(0), c.i(1))}; });
  T.def("index", "stack_out", "out:T tensors:TL dim:I=0", kOut,
        [](C c) { return Tensors{ts::stack_out(c.t(0), c.tensors(1), c.i(2))}; });
}

// Advanced indexing (issue 16): index lists are all tensors here (no None entries).
std::vector<std::optional<Tensor>> optional_list(const std::vector<Tensor>& ts) {
  return std::vector<std::optional<Tensor>>(ts.begin(), ts.end());
}

void advanced_indexing(Table& T) {
  const char* F = "advanced_index";
  T.def(F, "index", "self:T indices:TL", kNoFlags,
        [](C c) { return Tensors{ts::index(c.t(0), optional_list(c.tensors(1)))}; });
  T.def(F, "index_out", "out:T self:T indices:TL", kOut,
        [](C c) { return Tensors{ts::index_out(c.t(0), c.t(1), optional_list(c.tensors(2)))}; });
  T.def(F, "index_put", "self:T indices:TL values:T accumulate:B=false", kAccumulates, [](C c) {
    return Tensors{ts::index_put(c.t(0), optional_list(c.tensors(1)), c.t(2), c.b(3))};
  });
  T.def(
      F, "index_put_", "self:T indices:TL values:T accumulate:B=false", kInPlace | kAccumulates,
      [](C c) { return Tensors{c.t(0).index_put_(optional_list(c.tensors(1)), c.t(2), c.b(3))}; });
  T.def(F, "index_add", "self:T dim:I index:T source:T alpha:S=1", kAccumulates,
        [](C c) { return Tensors{ts::index_add(c.t(0), c.i(1), c.t(2), c.t(3), c.s(4))}; });
  T.def(F, "index_add_", "self:T dim:I index:T source:T alpha:S=1", kInPlace | kAccumulates,
        [](C c) { return Tensors{c.t(0).index_add_(c.i(1), c.t(2), c.t(3), c.s(4))}; });
  T.def(F, "index_add_out", "out:T self:T dim:I index:T source:T alpha:S=1", kOut | kAccumulates,
        [](C c) {
          return Tensors{ts::index_add_out(c.t(0), c.t(1), c.i(2), c.t(3), c.t(4), c.s(5))};
        });
  T.def(F, "scatter", "self:T dim:I index:T src:T", kNoFlags,
        [](C c) { return Tensors{ts::scatter(c.t(0), c.i(1), c.t(2), c.t(3))}; });
  T.def(F, "scatter_value", "self:T dim:I index:T value:S", kNoFlags,
        [](C c) { return Tensors{ts::scatter(c.t(0), c.i(1), c.t(2), c.s(3))}; });
  T.def(F, "scatter_with_reduce", "self:T dim:I index:T src:T reduce:STR='add'", kAccumulates,
        [](C c) { return Tensors{ts::scatter(c.t(0), c.i(1), c.t(2), c.t(3), c.str(4))}; });
  T.def(F, "scatter_", "self:T dim:I index:T src:T", kInPlace,
        [](C c) { return Tensors{c.t(0).scatter_(c.i(1), c.t(2), c.t(3))}; });
  T.def(F, "scatter_out", "out:T self:T dim:I index:T src:T", kOut,
        [](C c) { return Tensors{ts::scatter_out(c.t(0), c.t(1), c.i(2), c.t(3), c.t(4))}; });
  T.def(F, "scatter_reduce", "self:T dim:I index:T src:T reduce:STR='sum' include_self:B=true",
        kAccumulates, [](C c) {
          return Tensors{ts::scatter_reduce(c.t(0), c.i(1), c.t(2), c.t(3), c.str(4), c.b(5))};
        });
  T.def(F, "scatter_reduce_", "self:T dim:I index:T src:T reduce:STR='sum' include_self:B=true",
        kInPlace | kAccumulates, [](C c) {
          return Tensors{c.t(0).scatter_reduce_(c.i(1), c.t(2), c.t(3), c.str(4), c.b(5))};
        });
  T.def(F, "scatter_reduce_out",
        "out:T self:T dim:I index:T src:T reduce:STR='sum' include_self:B=true",
        kOut | kAccumulates, [](C c) {
          return Tensors{
              ts::scatter_reduce_out(c.t(0), c.t(1), c.i(2), c.t(3), c.t(4), c.str(5), c.b(6))};
        });
  T.def(F, "masked_select", "self:T mask:T", kNoFlags,
        [](C c) { return Tensors{ts::masked_select(c.t(0), c.t(1))}; });
  T.def(F, "masked_select_out", "out:T self:T mask:T", kOut,
        [](C c) { return Tensors{ts::masked_select_out(c.t(0), c.t(1), c.t(2))}; });
  T.def(F, "nonzero", "self:T", kNoFlags, [](C c) { return Tensors{ts::nonzero(c.t(0))}; });
  T.def(F, "nonzero_out", "out:T self:T", kOut,
        [](C c) { return Tensors{ts::nonzero_out(c.t(0), c.t(1))}; });
  T.def(F, "index_put_out", "out:T self:T indices:TL values:T accumulate:B=false",
        kOut | kAccumulates, [](C c) {
          return Tensors{
              ts::index_put_out(c.t(0), c.t(1), optional_list(c.tensors(2)), c.t(3), c.b(4))};
        });
  T.def(F, "take", "self:T index:T", kNoFlags,
        [](C c) { return Tensors{ts::take(c.t(0), c.t(1))}; });
  T.def(F, "take_out", "out:T self:T index:T", kOut,
        [](C c) { return Tensors{ts::take_out(c.t(0), c.t(1), c.t(2))}; });
  T.def(F, "put", "self:T index:T source:T accumulate:B=false", kAccumulates,
        [](C c) { return Tensors{ts::put(c.t(0), c.t(1), c.t(2), c.b(3))}; });
  T.def(F, "put_", "self:T index:T source:T accumulate:B=false", kInPlace | kAccumulates,
        [](C c) { return Tensors{c.t(0).put_(c.t(1), c.t(2), c.b(3))}; });
  T.def(F, "put_out", "out:T self:T index:T source:T accumulate:B=false", kOut | kAccumulates,
        [](C c) { return Tensors{ts::put_out(c.t(0), c.t(1), c.t(2), c.t(3), c.b(4))}; });
  T.def(F, "index_copy", "self:T dim:I index:T source:T", kNoFlags,
        [](C c) { return Tensors{ts::index_copy(c.t(0), c.i(1), c.t(2), c.t(3))}; });
  T.def(F, "index_copy_", "self:T dim:I index:T source:T", kInPlace,
        [](C c) { return Tensors{c.t(0).index_copy_(c.i(1), c.t(2), c.t(3))}; });
  T.def(F, "index_copy_out", "out:T self:T dim:I index:T source:T", kOut,
        [](C c) { return Tensors{ts::index_copy_out(c.t(0), c.t(1), c.i(2), c.t(3), c.t(4))}; });
  T.def(F, "index_fill", "self:T dim:I index:T value:TS", kNoFlags, [](C c) {
    return Tensors{c.is_tensor(3) ? ts::index_fill(c.t(0), c.i(1), c.t(2), c.t(3))
                                  : ts::index_fill(c.t(0), c.i(1), c.t(2), c.s(3))};
  });
  T.def(F, "index_fill_", "self:T dim:I index:T value:S", kInPlace,
        [](C c) { return Tensors{c.t(0).index_fill_(c.i(1), c.t(2), c.s(3))}; });
  T.def(F, "index_fill_out", "out:T self:T dim:I index:T value:S", kOut,
        [](C c) { return Tensors{ts::index_fill_out(c.t(0), c.t(1), c.i(2), c.t(3), c.s(4))}; });
  T.def(F, "masked_scatter", "self:T mask:T source:T", kNoFlags,
        [](C c) { return Tensors{ts::masked_scatter(c.t(0), c.t(1), c.t(2))}; });
  T.def(F, "masked_scatter_", "self:T mask:T source:T", kInPlace,
        [](C c) { return Tensors{c.t(0).masked_scatter_(c.t(1), c.t(2))}; });
  T.def(F, "masked_scatter_out", "out:T self:T mask:T source:T", kOut,
        [](C c) { return Tensors{ts::masked_scatter_out(c.t(0), c.t(1), c.t(2), c.t(3))}; });
}

// The i-th piece of a split or chunk (one statement defines one slot).
Tensor piece(const std::vector<Tensor>& parts, int64_t i, const char* op) {
  TS_CHECK(i >= 0 && i < static_cast<int64_t>(parts.size()), op, ": piece ", i, " of ",
           parts.size());
  return parts[i];
}

void views(Table& T) {
  const uint32_t V = kView;
  T.def("view", "view", "self:T size:IL", V, [](C c) { return Tensors{c.t(0).view(c.ints(1))}; });
  T.def("view", "reshape", "self:T size:IL", V,
        [](C c) { return Tensors{c.t(0).reshape(c.ints(1))}; });
  T.def("view", "as_strided", "self:T size:IL stride:IL storage_offset:I?=None", V,
        [](C c) { return Tensors{c.t(0).as_strided(c.ints(1), c.ints(2), c.opt_i(3))}; });
  T.def("view", "narrow", "self:T dim:I start:I length:I", V,
        [](C c) { return Tensors{c.t(0).narrow(c.i(1), c.i(2), c.i(3))}; });
  T.def("view", "slice", "self:T dim:I=0 start:I?=None end:I?=None step:I=1", V,
        [](C c) { return Tensors{c.t(0).slice(c.i(1), c.opt_i(2), c.opt_i(3), c.i(4))}; });
  T.def("view", "select", "self:T dim:I index:I", V,
        [](C c) { return Tensors{c.t(0).select(c.i(1), c.i(2))}; });
  T.def("view", "transpose", "self:T dim0:I dim1:I", V,
        [](C c) { return Tensors{c.t(0).transpose(c.i(1), c.i(2))}; });
  T.def("view", "t", "self:T", V, [](C c) { return Tensors{c.t(0).t()}; });
  T.def("view", "permute", "self:T dims:IL", V,
        [](C c) { return Tensors{c.t(0).permute(c.ints(1))}; });
  T.def("view", "expand", "self:T size:IL", V,
        [](C c) { return Tensors{c.t(0).expand(c.ints(1))}; });
  T.def("view", "expand_as", "self:T other:T", V,
        [](C c) { return Tensors{c.t(0).expand_as(c.t(1))}; });
  T.def("view", "squeeze", "self:T dim:I?=None", V,
        [](C c) { return Tensors{c.is_none(1) ? c.t(0).squeeze() : c.t(0).squeeze(c.i(1))}; });
  T.def("view", "unsqueeze", "self:T dim:I", V,
        [](C c) { return Tensors{c.t(0).unsqueeze(c.i(1))}; });
  T.def("view", "flatten", "self:T start_dim:I=0 end_dim:I=-1", V,
        [](C c) { return Tensors{c.t(0).flatten(c.i(1), c.i(2))}; });
  T.def("view", "unflatten", "self:T dim:I sizes:IL", V,
        [](C c) { return Tensors{c.t(0).unflatten(c.i(1), c.ints(2))}; });
  T.def("view", "movedim", "self:T source:IL destination:IL", V,
        [](C c) { return Tensors{c.t(0).movedim(c.ints(1), c.ints(2))}; });
  T.def("view", "diagonal", "self:T offset:I=0 dim1:I=0 dim2:I=1", V,
        [](C c) { return Tensors{c.t(0).diagonal(c.i(1), c.i(2), c.i(3))}; });
  T.def("view", "unfold", "self:T dimension:I size:I step:I", V,
        [](C c) { return Tensors{c.t(0).unfold(c.i(1), c.i(2), c.i(3))}; });
  T.def("view", "split", "self:T split_size:I dim:I=0 index:I=0", V,
        [](C c) { return Tensors{piece(c.t(0).split(c.i(1), c.i(2)), c.i(3), "split")}; });
  T.def("view", "chunk", "self:T chunks:I dim:I=0 index:I=0", V,
        [](C c) { return Tensors{piece(c.t(0).chunk(c.i(1), c.i(2)), c.i(3), "chunk")}; });
  T.def("view", "detach", "self:T", V, [](C c) { return Tensors{c.t(0).detach()}; });
}

void fuzzer_statements(Table& T) {
  T.def("input", "input", "shape:IL dtype:D=float32 seed:I=0 fill:STR='normal'", kMeta, [](C c) {
    Tensor t = ts::empty(c.ints(0), TensorOptions(c.dtype(1)));
    fill_input(t, static_cast<uint64_t>(c.i(2)), c.str(3));
    return Tensors{t};
  });
  T.def("input", "index", "shape:IL high:I low:I=0 seed:I=0", kMeta, [](C c) {
    Tensor t = ts::empty(c.ints(0), TensorOptions(kLong));
    fill_index(t, static_cast<uint64_t>(c.i(3)), c.i(2), c.i(1));
    return Tensors{t};
  });
  T.def(
      "autograd", "requires_grad_", "self:T", kMeta,
      [](C c) {
        c.t(0).requires_grad_();
        return Tensors{};
      },
      0);
  T.def(
      "autograd", "retain_grad", "self:T", kMeta,
      [](C c) {
        c.t(0).retain_grad();
        return Tensors{};
      },
      0);
  // The gradient of a non-scalar output: Philox(seed) values, the same on both sets.
  T.def(
      "autograd", "backward", "self:T seed:I=0", kMeta,
      [](C c) {
        const Tensor& y = c.t(0);
        Tensor g;
        if (y.defined() && y.numel() != 1) {
          g = ts::empty(y.sizes(), TensorOptions(y.dtype()));
          fill_input(g, static_cast<uint64_t>(c.i(1)), "normal");
        }
        y.backward(g);
        return Tensors{};
      },
      0);
}

// shape (issue 16)
void shapes(Table& T) {
  T.def("shape", "flip", "self:T dims:IL", kNoFlags,
        [](C c) { return Tensors{ts::flip(c.t(0), c.ints(1))}; });
  T.def("shape", "flip_out", "out:T self:T dims:IL", kOut,
        [](C c) { return Tensors{ts::flip_out(c.t(0), c.t(1), c.ints(2))}; });
  T.def("shape", "roll", "self:T shifts:IL dims:IL=[]", kNoFlags,
        [](C c) { return Tensors{ts::roll(c.t(0), c.ints(1), c.ints(2))}; });
  T.def("shape", "roll_out", "out:T self:T shifts:IL dims:IL=[]", kOut,
        [](C c) { return Tensors{ts::roll_out(c.t(0), c.t(1), c.ints(2), c.ints(3))}; });
  T.def("shape", "tril", "self:T diagonal:I=0", kNoFlags,
        [](C c) { return Tensors{ts::tril(c.t(0), c.i(1))}; });
  T.def("shape", "tril_", "self:T diagonal:I=0", kInPlace,
        [](C c) { return Tensors{c.t(0).tril_(c.i(1))}; });
  T.def("shape", "tril_out", "out:T self:T diagonal:I=0", kOut,
        [](C c) { return Tensors{ts::tril_out(c.t(0), c.t(1), c.i(2))}; });
  T.def("shape", "triu", "self:T diagonal:I=0", kNoFlags,
        [](C c) { return Tensors{ts::triu(c.t(0), c.i(1))}; });
  T.def("shape", "triu_", "self:T diagonal:I=0", kInPlace,
        [](C c) { return Tensors{c.t(0).triu_(c.i(1))}; });
  T.def("shape", "triu_out", "out:T self:T diagonal:I=0", kOut,
        [](C c) { return Tensors{ts::triu_out(c.t(0), c.t(1), c.i(2))}; });
  T.def("shape", "trace", "self:T", kAccumulates, [](C c) { return Tensors{ts::trace(c.t(0))}; });
  T.def("shape", "diag", "self:T diagonal:I=0", kNoFlags,
        [](C c) { return Tensors{ts::diag(c.t(0), c.i(1))}; });
  T.def("shape", "diag_out", "out:T self:T diagonal:I=0", kOut,
        [](C c) { return Tensors{ts::diag_out(c.t(0), c.t(1), c.i(2))}; });
  T.def("shape", "repeat", "self:T repeats:IL", kNoFlags,
        [](C c) { return Tensors{c.t(0).repeat(c.ints(1))}; });
  T.def("shape", "tile", "self:T dims:IL", kNoFlags,
        [](C c) { return Tensors{ts::tile(c.t(0), c.ints(1))}; });
  T.def("shape", "diff", "self:T n:I=1 dim:I=-1 prepend:T?=None append:T?=None", kNoFlags, [](C c) {
    return Tensors{ts::diff(c.t(0), c.i(1), c.i(2), c.is_none(3) ? Tensor() : c.t(3),
                            c.is_none(4) ? Tensor() : c.t(4))};
  });
  T.def("shape", "kron", "self:T other:T", kNoFlags,
        [](C c) { return Tensors{ts::kron(c.t(0), c.t(1))}; });
  T.def("shape", "baddbmm", "self:T batch1:T batch2:T beta:S=1 alpha:S=1", kAccumulates,
        [](C c) { return Tensors{ts::baddbmm(c.t(0), c.t(1), c.t(2), c.s(3), c.s(4))}; });
  T.def("shape", "addbmm", "self:T batch1:T batch2:T beta:S=1 alpha:S=1", kAccumulates,
        [](C c) { return Tensors{ts::addbmm(c.t(0), c.t(1), c.t(2), c.s(3), c.s(4))}; });
  T.def("shape", "addmv", "self:T mat:T vec:T beta:S=1 alpha:S=1", kAccumulates,
        [](C c) { return Tensors{ts::addmv(c.t(0), c.t(1), c.t(2), c.s(3), c.s(4))}; });
  // repeat_interleave, padding, meshgrid, einsum, tensordot (issue 16)
  T.def("shape", "repeat_interleave", "repeats:T output_size:I?=None", kNoFlags,
        [](C c) { return Tensors{ts::repeat_interleave(c.t(0), c.opt_i(1))}; });
  T.def("shape", "repeat_interleave_self", "self:T repeats:T dim:I?=None output_size:I?=None",
        kNoFlags,
        [](C c) { return Tensors{ts::repeat_interleave(c.t(0), c.t(1), c.opt_i(2), c.opt_i(3))}; });
  T.def("shape", "repeat_interleave_int", "self:T repeats:I dim:I?=None output_size:I?=None",
        kNoFlags,
        [](C c) { return Tensors{ts::repeat_interleave(c.t(0), c.i(1), c.opt_i(2), c.opt_i(3))}; });
  T.def("shape", "constant_pad_nd", "self:T pad:IL value:S=0", kNoFlags,
        [](C c) { return Tensors{ts::constant_pad_nd(c.t(0), c.ints(1), c.s(2))}; });
  T.def("shape", "reflection_pad", "self:T padding:IL", kNoFlags,
        [](C c) { return Tensors{ts::reflection_pad(c.t(0), c.ints(1))}; });
  T.def("shape", "replication_pad", "self:T padding:IL", kNoFlags,
        [](C c) { return Tensors{ts::replication_pad(c.t(0), c.ints(1))}; });
  using PadFn = Tensor (*)(const Tensor&, IntArrayRef);
  const std::pair<const char*, PadFn> pads[] = {
      {"reflection_pad1d", &ts::reflection_pad1d},   {"reflection_pad2d", &ts::reflection_pad2d},
      {"reflection_pad3d", &ts::reflection_pad3d},   {"replication_pad1d", &ts::replication_pad1d},
      {"replication_pad2d", &ts::replication_pad2d}, {"replication_pad3d", &ts::replication_pad3d},
      {"_pad_circular", &ts::_pad_circular}};
  for (const auto& [name, fn] : pads) {
    PadFn f = fn;
    T.def("shape", name, "self:T padding:IL", kNoFlags,
          [f](C c) { return Tensors{f(c.t(0), c.ints(1))}; });
  }
  T.def("shape", "pad", "self:T pad:IL mode:STR='constant' value:F=0", kNoFlags,
        [](C c) { return Tensors{ts::pad(c.t(0), c.ints(1), c.str(2), c.d(3))}; });
  T.def("shape", "meshgrid", "tensors:TL indexing:STR='ij' index:I=0", kNoFlags, [](C c) {
    return Tensors{piece(ts::meshgrid(c.tensors(0), c.str(1)), c.i(2), "meshgrid")};
  });
  T.def("shape", "einsum", "equation:STR tensors:TL", kAccumulates,
        [](C c) { return Tensors{ts::einsum(c.str(0), c.tensors(1))}; });
  T.def("shape", "tensordot", "self:T other:T dims_self:IL dims_other:IL", kAccumulates,
        [](C c) { return Tensors{ts::tensordot(c.t(0), c.t(1), c.ints(2), c.ints(3))}; });
  T.def("shape", "tensordot_out", "out:T self:T other:T dims_self:IL dims_other:IL",
        kOut | kAccumulates, [](C c) {
          return Tensors{ts::tensordot_out(c.t(0), c.t(1), c.t(2), c.ints(3), c.ints(4))};
        });
}

// The three results of a unique op.
Tensors unique_results(std::tuple<Tensor, Tensor, Tensor> r) {
  return Tensors{std::get<0>(r), std::get<1>(r), std::get<2>(r)};
}

// sorting and selection (issue 16)
void sorting(Table& T) {
  T.def(
      "sort", "sort", "self:T dim:I=-1 descending:B=false stable:B=false", kNoFlags,
      [](C c) {  // stable=true calls the stable overload
        auto [v, i] = c.b(3) ? ts::sort(c.t(0), std::optional<bool>(true), c.i(1), c.b(2))
                             : ts::sort(c.t(0), c.i(1), c.b(2));
        return Tensors{v, i};
      },
      2);
  T.def(
      "sort", "sort_out", "values:T indices:T self:T dim:I=-1 descending:B=false", kOut,
      [](C c) {
        const Tensor values = c.t(0), indices = c.t(1);
        auto r = ts::sort_out(values, indices, c.t(2), c.i(3), c.b(4));
        return Tensors{std::get<0>(r), std::get<1>(r)};
      },
      0, 2);
  T.def("sort", "argsort", "self:T dim:I=-1 descending:B=false stable:B=false", kNoFlags,
        [](C c) { return Tensors{ts::argsort(c.t(0), c.b(3), c.i(1), c.b(2))}; });
  T.def(
      "sort", "topk", "self:T k:I dim:I=-1 largest:B=true sorted:B=true", kNoFlags,
      [](C c) {
        auto [v, i] = ts::topk(c.t(0), c.i(1), c.i(2), c.b(3), c.b(4));
        return Tensors{v, i};
      },
      2);
  T.def(
      "sort", "topk_out", "values:T indices:T self:T k:I dim:I=-1 largest:B=true sorted:B=true",
      kOut,
      [](C c) {
        const Tensor values = c.t(0), indices = c.t(1);
        auto r = ts::topk_out(values, indices, c.t(2), c.i(3), c.i(4), c.b(5), c.b(6));
        return Tensors{std::get<0>(r), std::get<1>(r)};
      },
      0, 2);
  T.def(
      "sort", "kthvalue", "self:T k:I dim:I=-1 keepdim:B=false", kNoFlags,
      [](C c) {
        auto [v, i] = ts::kthvalue(c.t(0), c.i(1), c.i(2), c.b(3));
        return Tensors{v, i};
      },
      2);
  T.def(
      "sort", "kthvalue_out", "values:T indices:T self:T k:I dim:I=-1 keepdim:B=false", kOut,
      [](C c) {
        const Tensor values = c.t(0), indices = c.t(1);
        auto r = ts::kthvalue_out(values, indices, c.t(2), c.i(3), c.i(4), c.b(5));
        return Tensors{std::get<0>(r), std::get<1>(r)};
      },
      0, 2);
  T.def(
      "sort", "median", "self:T dim:I?=None keepdim:B=false", kNoFlags,
      [](C c) {
        if (c.is_none(1)) return Tensors{ts::median(c.t(0))};
        auto [v, i] = ts::median(c.t(0), c.i(1), c.b(2));
        return Tensors{v, i};
      },
      -1);
  T.def(
      "sort", "median_out", "values:T indices:T self:T dim:I keepdim:B=false", kOut,
      [](C c) {
        const Tensor values = c.t(0), indices = c.t(1);
        auto r = ts::median_out(values, indices, c.t(2), c.i(3), c.b(4));
        return Tensors{std::get<0>(r), std::get<1>(r)};
      },
      0, 2);
  T.def(
      "sort", "mode", "self:T dim:I=-1 keepdim:B=false", kNoFlags,
      [](C c) {
        auto [v, i] = ts::mode(c.t(0), c.i(1), c.b(2));
        return Tensors{v, i};
      },
      2);
  T.def(
      "sort", "mode_out", "values:T indices:T self:T dim:I=-1 keepdim:B=false", kOut,
      [](C c) {
        const Tensor values = c.t(0), indices = c.t(1);
        auto r = ts::mode_out(values, indices, c.t(2), c.i(3), c.b(4));
        return Tensors{std::get<0>(r), std::get<1>(r)};
      },
      0, 2);
  // searches and unique (issue 16): not differentiable
  T.def("sort", "searchsorted",
        "sorted_sequence:T self:TS out_int32:B=false right:B=false side:STR?=None sorter:T?=None",
        kNoFlags, [](C c) {
          return Tensors{
              c.is_tensor(1)
                  ? ts::searchsorted(c.t(0), c.t(1), c.b(2), c.b(3), opt_str(c, 4), c.t(5))
                  : ts::searchsorted(c.t(0), c.s(1), c.b(2), c.b(3), opt_str(c, 4), c.t(5))};
        });
  T.def("sort", "searchsorted_out",
        "out:T sorted_sequence:T self:T out_int32:B=false right:B=false side:STR?=None "
        "sorter:T?=None",
        kOut, [](C c) {
          return Tensors{
              ts::searchsorted_out(c.t(0), c.t(1), c.t(2), c.b(3), c.b(4), opt_str(c, 5), c.t(6))};
        });
  T.def("sort", "bucketize", "self:TS boundaries:T out_int32:B=false right:B=false", kNoFlags,
        [](C c) {
          return Tensors{c.is_tensor(0) ? ts::bucketize(c.t(0), c.t(1), c.b(2), c.b(3))
                                        : ts::bucketize(c.s(0), c.t(1), c.b(2), c.b(3))};
        });
  T.def("sort", "bucketize_out", "out:T self:T boundaries:T out_int32:B=false right:B=false", kOut,
        [](C c) { return Tensors{ts::bucketize_out(c.t(0), c.t(1), c.t(2), c.b(3), c.b(4))}; });
  T.def(
      "sort", "_unique2", "self:T sorted:B=true return_inverse:B=false return_counts:B=false",
      kNoFlags, [](C c) { return unique_results(ts::_unique2(c.t(0), c.b(1), c.b(2), c.b(3))); },
      3);
  T.def(
      "sort", "unique_dim",
      "self:T dim:I sorted:B=true return_inverse:B=false return_counts:B=false", kNoFlags,
      [](C c) { return unique_results(ts::unique_dim(c.t(0), c.i(1), c.b(2), c.b(3), c.b(4))); },
      3);
  T.def(
      "sort", "unique_consecutive",
      "self:T return_inverse:B=false return_counts:B=false dim:I?=None", kNoFlags,
      [](C c) {
        return unique_results(ts::unique_consecutive(c.t(0), c.b(1), c.b(2), c.opt_i(3)));
      },
      3);
  // scans (issue 16)
  const uint32_t A = kAccumulates;
  T.def("sort", "cumprod", "self:T dim:I dtype:D?=None", A,
        [](C c) { return Tensors{ts::cumprod(c.t(0), c.i(1), c.opt_dtype(2))}; });
  T.def("sort", "cumprod_", "self:T dim:I dtype:D?=None", kInPlace | A,
        [](C c) { return Tensors{c.t(0).cumprod_(c.i(1), c.opt_dtype(2))}; });
  T.def("sort", "cumprod_out", "out:T self:T dim:I dtype:D?=None", kOut | A,
        [](C c) { return Tensors{ts::cumprod_out(c.t(0), c.t(1), c.i(2), c.opt_dtype(3))}; });
  T.def("sort", "logcumsumexp", "self:T dim:I", A,
        [](C c) { return Tensors{ts::logcumsumexp(c.t(0), c.i(1))}; });
  T.def("sort", "logcumsumexp_out", "out:T self:T dim:I", kOut | A,
        [](C c) { return Tensors{ts::logcumsumexp_out(c.t(0), c.t(1), c.i(2))}; });
  for (const char* op : {"cummax", "cummin"}) {
    const bool mx = std::strcmp(op, "cummax") == 0;
    T.def(
        "sort", op, "self:T dim:I", kNoFlags,
        [mx](C c) {
          auto [v, i] = mx ? ts::cummax(c.t(0), c.i(1)) : ts::cummin(c.t(0), c.i(1));
          return Tensors{v, i};
        },
        2);
    T.def(
        "sort", std::string(op) + "_out", "values:T indices:T self:T dim:I", kOut,
        [mx](C c) {
          const Tensor values = c.t(0), indices = c.t(1);
          auto r = mx ? ts::cummax_out(values, indices, c.t(2), c.i(3))
                      : ts::cummin_out(values, indices, c.t(2), c.i(3));
          return Tensors{std::get<0>(r), std::get<1>(r)};
        },
        0, 2);
  }
}

// losses (issue 16): family "loss", which the generator does not draw from yet (targets, lengths
// and value ranges need inputs it does not build); programs and the corpus may call them.
void losses(Table& T) {
  const uint32_t A = kAccumulates;
  const auto red = [](C c, size_t k) { return static_cast<Reduction>(c.i(k)); };
  T.def(
      "loss", "binary_cross_entropy", "self:T target:T weight:T?=None reduction:I=1", A,
      [red](C c) { return Tensors{ts::binary_cross_entropy(c.t(0), c.t(1), c.t(2), red(c, 3))}; });
  T.def("loss", "binary_cross_entropy_with_logits",
        "self:T target:T weight:T?=None pos_weight:T?=None reduction:I=1", A, [red](C c) {
          return Tensors{
              ts::binary_cross_entropy_with_logits(c.t(0), c.t(1), c.t(2), c.t(3), red(c, 4))};
        });
  T.def("loss", "l1_loss", "self:T target:T reduction:I=1", A,
        [red](C c) { return Tensors{ts::l1_loss(c.t(0), c.t(1), red(c, 2))}; });
  T.def("loss", "smooth_l1_loss", "self:T target:T reduction:I=1 beta:F=1.0", A,
        [red](C c) { return Tensors{ts::smooth_l1_loss(c.t(0), c.t(1), red(c, 2), c.d(3))}; });
  T.def("loss", "huber_loss", "self:T target:T reduction:I=1 delta:F=1.0", A,
        [red](C c) { return Tensors{ts::huber_loss(c.t(0), c.t(1), red(c, 2), c.d(3))}; });
  T.def("loss", "kl_div", "self:T target:T reduction:I=1 log_target:B=false", A,
        [red](C c) { return Tensors{ts::kl_div(c.t(0), c.t(1), red(c, 2), c.b(3))}; });
  T.def("loss", "kl_div_str", "self:T target:T reduction:STR='batchmean' log_target:B=false", A,
        [](C c) { return Tensors{ts::kl_div(c.t(0), c.t(1), c.str(2), c.b(3))}; });
  T.def("loss", "cosine_similarity", "x1:T x2:T dim:I=1 eps:F=1e-08", A,
        [](C c) { return Tensors{ts::cosine_similarity(c.t(0), c.t(1), c.i(2), c.d(3))}; });
  T.def("loss", "pairwise_distance", "x1:T x2:T p:F=2 eps:F=1e-06 keepdim:B=false", A,
        [](C c) { return Tensors{ts::pairwise_distance(c.t(0), c.t(1), c.d(2), c.d(3), c.b(4))}; });
  T.def("loss", "cosine_embedding_loss", "input1:T input2:T target:T margin:F=0.0 reduction:I=1", A,
        [red](C c) {
          return Tensors{ts::cosine_embedding_loss(c.t(0), c.t(1), c.t(2), c.d(3), red(c, 4))};
        });
  T.def("loss", "margin_ranking_loss", "input1:T input2:T target:T margin:F=0.0 reduction:I=1", A,
        [red](C c) {
          return Tensors{ts::margin_ranking_loss(c.t(0), c.t(1), c.t(2), c.d(3), red(c, 4))};
        });
  T.def("loss", "triplet_margin_loss",
        "anchor:T positive:T negative:T margin:F=1.0 p:F=2 eps:F=1e-06 swap:B=false "
        "reduction:I=1",
        A, [red](C c) {
          return Tensors{ts::triplet_margin_loss(c.t(0), c.t(1), c.t(2), c.d(3), c.d(4), c.d(5),
                                                 c.b(6), red(c, 7))};
        });
  T.def("loss", "ctc_loss",
        "log_probs:T targets:T input_lengths:IL target_lengths:IL blank:I=0 reduction:I=1 "
        "zero_infinity:B=false",
        A, [red](C c) {
          return Tensors{
              ts::ctc_loss(c.t(0), c.t(1), c.ints(2), c.ints(3), c.i(4), red(c, 5), c.b(6))};
        });
}

// pooling (issue 16): the kernel ops max_pool, avg_pool, adaptive_avg_pool2d and
// adaptive_max_pool2d and the per-dim composites (family "pool"; corpus programs call them).
void pooling(Table& T) {
  const uint32_t A = kAccumulates;
  T.def(
      "pool", "max_pool",
      "self:T kernel_size:IL stride:IL=[] padding:IL=[0] dilation:IL=[1] ceil_mode:B=false",
      kNoFlags,
      [](C c) {
        auto r = ts::max_pool(c.t(0), c.ints(1), c.ints(2), c.ints(3), c.ints(4), c.b(5));
        return Tensors{std::get<0>(r), std::get<1>(r)};
      },
      2);
  using MaxFn = Tensor (*)(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef, bool);
  using MaxIdxFn = std::tuple<Tensor, Tensor> (*)(const Tensor&, IntArrayRef, IntArrayRef,
                                                  IntArrayRef, IntArrayRef, bool);
  const char* max_sig =
      "self:T kernel_size:IL stride:IL=[] padding:IL=[0] dilation:IL=[1] ceil_mode:B=false";
  const std::pair<const char*, MaxFn> max_fns[] = {{"max_pool1d", &ts::max_pool1d},
                                                   {"max_pool2d", &ts::max_pool2d},
                                                   {"max_pool3d", &ts::max_pool3d}};
  for (const auto& entry : max_fns) {
    const MaxFn fn = entry.second;
    T.def("pool", entry.first, max_sig, kNoFlags, [fn](C c) {
      return Tensors{fn(c.t(0), c.ints(1), c.ints(2), c.ints(3), c.ints(4), c.b(5))};
    });
  }
  const std::pair<const char*, MaxIdxFn> idx_fns[] = {
      {"max_pool1d_with_indices", &ts::max_pool1d_with_indices},
      {"max_pool2d_with_indices", &ts::max_pool2d_with_indices},
      {"max_pool3d_with_indices", &ts::max_pool3d_with_indices}};
  for (const auto& entry : idx_fns) {
    const MaxIdxFn fn = entry.second;
    T.def(
        "pool", entry.first, max_sig, kNoFlags,
        [fn](C c) {
          auto r = fn(c.t(0), c.ints(1), c.ints(2), c.ints(3), c.ints(4), c.b(5));
          return Tensors{std::get<0>(r), std::get<1>(r)};
        },
        2);
  }
  T.def("pool", "avg_pool",
        "self:T kernel_size:IL stride:IL=[] padding:IL=[0] ceil_mode:B=false "
        "count_include_pad:B=true divisor_override:I?=None",
        A, [](C c) {
          return Tensors{
              ts::avg_pool(c.t(0), c.ints(1), c.ints(2), c.ints(3), c.b(4), c.b(5), c.opt_i(6))};
        });
  T.def("pool", "avg_pool1d",
        "self:T kernel_size:IL stride:IL=[] padding:IL=[0] ceil_mode:B=false "
        "count_include_pad:B=true",
        A, [](C c) {
          return Tensors{ts::avg_pool1d(c.t(0), c.ints(1), c.ints(2), c.ints(3), c.b(4), c.b(5))};
        });
  const char* avg_sig =
      "self:T kernel_size:IL stride:IL=[] padding:IL=[0] ceil_mode:B=false "
      "count_include_pad:B=true divisor_override:I?=None";
  T.def("pool", "avg_pool2d", avg_sig, A, [](C c) {
    return Tensors{
        ts::avg_pool2d(c.t(0), c.ints(1), c.ints(2), c.ints(3), c.b(4), c.b(5), c.opt_i(6))};
  });
  T.def("pool", "avg_pool3d", avg_sig, A, [](C c) {
    return Tensors{
        ts::avg_pool3d(c.t(0), c.ints(1), c.ints(2), c.ints(3), c.b(4), c.b(5), c.opt_i(6))};
  });
  T.def("pool", "adaptive_avg_pool2d", "self:T output_size:IL", A,
        [](C c) { return Tensors{ts::adaptive_avg_pool2d(c.t(0), c.ints(1))}; });
  T.def(
      "pool", "adaptive_max_pool2d", "self:T output_size:IL", kNoFlags,
      [](C c) {
        auto r = ts::adaptive_max_pool2d(c.t(0), c.ints(1));
        return Tensors{std::get<0>(r), std::get<1>(r)};
      },
      2);
  // embedding_bag (issue 16)
  T.def("pool", "embedding_bag",
        "weight:T indices:T offsets:T?=None scale_grad_by_freq:B=false mode:I=0 sparse:B=false "
        "per_sample_weights:T?=None include_last_offset:B=false padding_idx:I?=None",
        A, [](C c) {
          return Tensors{ts::embedding_bag(c.t(0), c.t(1), c.t(2), c.b(3), c.i(4), c.b(5), c.t(6),
                                           c.b(7), c.opt_i(8))};
        });
}

// interpolation (issue 16): the kernel ops, ATen's per-dim forms, interpolate and affine_grid
// (family "interpolate"; corpus programs call them). The optional float scales are optional
// Scalars, interpolate's bool? arguments optional ints (0 false, else true); the kernel ops'
// scale lists are not drawn (None).
void interpolation(Table& T) {
  const uint32_t A = kAccumulates;
  const auto opt_d = [](C c, size_t k) -> std::optional<double> {
    const std::optional<Scalar> v = c.opt_s(k);
    return v ? std::optional(v->to_double()) : std::nullopt;
  };
  const auto opt_b = [](C c, size_t k) -> std::optional<bool> {
    const std::optional<int64_t> v = c.opt_i(k);
    return v ? std::optional<bool>(*v != 0) : std::nullopt;
  };
  T.def("interpolate", "upsample_nearest", "self:T output_size:IL", kNoFlags,
        [](C c) { return Tensors{ts::upsample_nearest(c.t(0), c.ints(1))}; });
  T.def("interpolate", "_upsample_nearest_exact", "self:T output_size:IL", kNoFlags,
        [](C c) { return Tensors{ts::_upsample_nearest_exact(c.t(0), c.ints(1))}; });
  T.def("interpolate", "upsample_linear", "self:T output_size:IL align_corners:B", A,
        [](C c) { return Tensors{ts::upsample_linear(c.t(0), c.ints(1), c.b(2))}; });
  T.def(
      "interpolate", "upsample_bicubic2d",
      "self:T output_size:IL align_corners:B scales_h:S?=None scales_w:S?=None", A, [opt_d](C c) {
        return Tensors{ts::upsample_bicubic2d(c.t(0), c.ints(1), c.b(2), opt_d(c, 3), opt_d(c, 4))};
      });
  T.def("interpolate", "upsample_nearest1d", "self:T output_size:IL scales:S?=None", kNoFlags,
        [opt_d](C c) { return Tensors{ts::upsample_nearest1d(c.t(0), c.ints(1), opt_d(c, 2))}; });
  T.def("interpolate", "upsample_nearest2d",
        "self:T output_size:IL scales_h:S?=None scales_w:S?=None", kNoFlags, [opt_d](C c) {
          return Tensors{ts::upsample_nearest2d(c.t(0), c.ints(1), opt_d(c, 2), opt_d(c, 3))};
        });
  T.def("interpolate", "upsample_nearest3d",
        "self:T output_size:IL scales_d:S?=None scales_h:S?=None scales_w:S?=None", kNoFlags,
        [opt_d](C c) {
          return Tensors{
              ts::upsample_nearest3d(c.t(0), c.ints(1), opt_d(c, 2), opt_d(c, 3), opt_d(c, 4))};
        });
  T.def("interpolate", "_upsample_nearest_exact1d", "self:T output_size:IL scales:S?=None",
        kNoFlags, [opt_d](C c) {
          return Tensors{ts::_upsample_nearest_exact1d(c.t(0), c.ints(1), opt_d(c, 2))};
        });
  T.def(
      "interpolate", "_upsample_nearest_exact2d",
      "self:T output_size:IL scales_h:S?=None scales_w:S?=None", kNoFlags, [opt_d](C c) {
        return Tensors{ts::_upsample_nearest_exact2d(c.t(0), c.ints(1), opt_d(c, 2), opt_d(c, 3))};
      });
  T.def("interpolate", "_upsample_nearest_exact3d",
        "self:T output_size:IL scales_d:S?=None scales_h:S?=None scales_w:S?=None", kNoFlags,
        [opt_d](C c) {
          return Tensors{ts::_upsample_nearest_exact3d(c.t(0), c.ints(1), opt_d(c, 2), opt_d(c, 3),
                                                       opt_d(c, 4))};
        });
  T.def("interpolate", "upsample_linear1d", "self:T output_size:IL align_corners:B scales:S?=None",
        A, [opt_d](C c) {
          return Tensors{ts::upsample_linear1d(c.t(0), c.ints(1), c.b(2), opt_d(c, 3))};
        });
  T.def("interpolate", "upsample_bilinear2d",
        "self:T output_size:IL align_corners:B scales_h:S?=None scales_w:S?=None", A, [opt_d](C c) {
          return Tensors{
              ts::upsample_bilinear2d(c.t(0), c.ints(1), c.b(2), opt_d(c, 3), opt_d(c, 4))};
        });
  T.def("interpolate", "upsample_trilinear3d",
        "self:T output_size:IL align_corners:B scales_d:S?=None scales_h:S?=None "
        "scales_w:S?=None",
        A, [opt_d](C c) {
          return Tensors{ts::upsample_trilinear3d(c.t(0), c.ints(1), c.b(2), opt_d(c, 3),
                                                  opt_d(c, 4), opt_d(c, 5))};
        });
  T.def("interpolate", "interpolate",
        "input:T size:IL=[] scale_factor:S?=None mode:STR='nearest' align_corners:I?=None "
        "recompute_scale_factor:I?=None antialias:B=false",
        A, [opt_d, opt_b](C c) {
          const std::optional<double> sf = opt_d(c, 2);
          const std::vector<double> scale = sf ? std::vector<double>{*sf} : std::vector<double>{};
          return Tensors{ts::interpolate(c.t(0), c.ints(1), scale, c.str(3), opt_b(c, 4),
                                         opt_b(c, 5), c.b(6))};
        });
  T.def("interpolate", "grid_sampler",
        "input:T grid:T interpolation_mode:I padding_mode:I align_corners:B", A,
        [](C c) { return Tensors{ts::grid_sampler(c.t(0), c.t(1), c.i(2), c.i(3), c.b(4))}; });
  T.def(
      "interpolate", "grid_sampler_backward",
      "grad_output:T input:T grid:T interpolation_mode:I padding_mode:I align_corners:B", A,
      [](C c) {
        auto r = ts::grid_sampler_backward(c.t(0), c.t(1), c.t(2), c.i(3), c.i(4), c.b(5));
        return Tensors{std::get<0>(r), std::get<1>(r)};
      },
      2);
  T.def("interpolate", "grid_sample",
        "input:T grid:T mode:STR='bilinear' padding_mode:STR='zeros' align_corners:I?=None", A,
        [opt_b](C c) {
          return Tensors{ts::grid_sample(c.t(0), c.t(1), c.str(2), c.str(3), opt_b(c, 4))};
        });
  T.def("interpolate", "affine_grid", "theta:T size:IL align_corners:I?=None", A,
        [opt_b](C c) { return Tensors{ts::affine_grid(c.t(0), c.ints(1), opt_b(c, 2))}; });
}

std::vector<OpSpec> build() {
  Table T;
  fuzzer_statements(T);
  factories(T);
  copies(T);
  views(T);
  unaries(T);
  binaries(T);
  ternaries(T);
  reductions(T);
  nn(T);
  norms(T);
  linalg(T);
  indexing(T);
  convolutions(T);       // convolution (issue 16)
  shapes(T);             // shape (issue 16)
  sorting(T);            // sorting and selection (issue 16)
  losses(T);             // losses (issue 16)
  pooling(T);            // pooling (issue 16)
  advanced_indexing(T);  // advanced indexing (issue 16)
  interpolation(T);      // interpolation (issue 16)
  return std::move(T.specs);
}

}  // namespace

const std::vector<OpSpec>& op_table() {
  static const std::vector<OpSpec> table = build();
  return table;
}

const OpSpec* find_spec(std::string_view name) {
  static const std::map<std::string, const OpSpec*, std::less<>> index = [] {
    std::map<std::string, const OpSpec*, std::less<>> m;
    for (const OpSpec& s : op_table()) m.emplace(s.name, &s);
    return m;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace ts::fuzz
