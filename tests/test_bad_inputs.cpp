// The bad-input catalogue: calls every op family must refuse, as data. Each entry names the op
// its ts::Error must start with ("op: "), a word naming the offending argument, and the call, made
// on a fresh fixture. The harness snapshots every fixture tensor (storage bytes, geometry, dtype,
// version counter, autograd state and grad) and checks that the refused call changed nothing.
// Every entry is a call ATen 1.13 refuses too, unless its `ts_only` says why touchstone alone
// refuses it: the catalogue was run against libtorch 1.13 (each call translated to at::), which
// refused every other entry but the device ones (no CUDA there) and accepted each ts_only one.
// See Note [Errors name the op the user called] for the composite prefixes.
// TS_BAD_INPUTS_PRINT=1 prints every entry's message.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "error_text.h"
#include "touchstone/autograd.h"
#include "touchstone/cuda.h"
#include "touchstone/op_scope.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace {

using ts::Tensor;

// ---- the stand-in device ----

// Note [Stand-in device]
// Without CUDA built in, host memory registered as the CUDA allocator gives tensors on cuda:0,
// enough for the device checks, which every meta makes before it looks a kernel up. With CUDA
// built in, the device entries are skipped.
class HostAllocator final : public ts::Allocator {
 public:
  void* allocate(size_t nbytes) override { return std::malloc(nbytes == 0 ? 1 : nbytes); }
  void deallocate(void* p) override { std::free(p); }
};

bool stand_in_device() {
#if defined(TS_HAVE_CUDA)
  return false;
#else
  static const bool installed = [] {
    static HostAllocator allocator;
    ts::set_allocator(ts::kCUDA, &allocator);
    return true;
  }();
  return installed;
#endif
}

// `t` copied to the stand-in cuda:0, or an undefined tensor when there is none.
Tensor on_device(const Tensor& t) {
  if (!stand_in_device()) return Tensor();
  const Tensor c = t.contiguous();
  Tensor d = ts::empty(c.sizes(), ts::TensorOptions(c.dtype()).device(ts::Device("cuda:0")));
  std::memcpy(d.data_ptr(), c.data_ptr(), c.nbytes());
  return d;
}

// ---- the fixture ----

// A loss whose backward meets a saved tensor modified in place (t), before any leaf's
// AccumulateGrad runs.
Tensor stale_loss(const Tensor& leaf) {
  Tensor t = leaf * 1;
  Tensor y = t * t;
  t.add_(1);
  return y.sum();
}

// A loss already backpropagated once without retain_graph.
Tensor used_loss(const Tensor& leaf) {
  Tensor s = leaf.exp().sum();
  s.backward();
  return s;
}

// Name and value of every fixture tensor; members may use earlier ones.
#define BAD_INPUTS_FIXTURE(X)                                              \
  X(f23, ts::arange(6, ts::kFloat).view({2, 3}))                           \
  X(g23, ts::ones({2, 3}))                                                 \
  X(f34, ts::arange(12, ts::kFloat).view({3, 4}))                          \
  X(f24, ts::arange(8, ts::kFloat).view({2, 4}))                           \
  X(f33, ts::eye(3))                                                       \
  X(f234, ts::arange(24, ts::kFloat).view({2, 3, 4}))                      \
  X(f245, ts::arange(40, ts::kFloat).view({2, 4, 5}))                      \
  X(f345, ts::arange(60, ts::kFloat).view({3, 4, 5}))                      \
  X(f3, ts::arange(3, ts::kFloat))                                         \
  X(f4, ts::arange(4, ts::kFloat))                                         \
  X(f5, ts::arange(5, ts::kFloat))                                         \
  X(f0, ts::scalar_tensor(1.5))                                            \
  X(f03, ts::zeros({0, 3}))                                                \
  X(d23, ts::arange(6, ts::kDouble).view({2, 3}))                          \
  X(d34, ts::arange(12, ts::kDouble).view({3, 4}))                         \
  X(d245, ts::arange(40, ts::kDouble).view({2, 4, 5}))                     \
  X(d3, ts::arange(3, ts::kDouble))                                        \
  X(d4, ts::arange(4, ts::kDouble))                                        \
  X(i23, ts::arange(6, ts::kLong).view({2, 3}))                            \
  X(i3, ts::arange(3, ts::kLong))                                          \
  X(n23, ts::arange(6, ts::kInt).view({2, 3}))                             \
  X(u23, ts::arange(6, ts::kByte).view({2, 3}))                            \
  X(b23, ts::arange(6, ts::kLong).view({2, 3}).remainder(2).to(ts::kBool)) \
  X(idx, ts::tensor({0, 2}, ts::kLong))                                    \
  X(idx_oob, ts::tensor({0, 3}, ts::kLong))                                \
  X(idx_neg, ts::tensor({-1, 0}, ts::kLong))                               \
  X(idx_f, ts::tensor({0.0, 1.0}, ts::kFloat))                             \
  X(idx22, ts::tensor({0, 1, 1, 0}, ts::kLong).view({2, 2}))               \
  X(gidx, ts::tensor({0, 1, 2, 2, 1, 0}, ts::kLong).view({2, 3}))          \
  X(gidx_oob, ts::tensor({0, 1, 2, 3, 1, 0}, ts::kLong).view({2, 3}))      \
  X(gidx_neg, ts::tensor({0, -1, 2, 2, 1, 0}, ts::kLong).view({2, 3}))     \
  X(gidx24, ts::zeros({2, 4}, ts::kLong))                                  \
  X(gidx_i32, ts::tensor({0, 1, 2, 2, 1, 0}, ts::kInt).view({2, 3}))       \
  X(tgt, ts::tensor({0, 2}, ts::kLong))                                    \
  X(tgt_oob, ts::tensor({0, 3}, ts::kLong))                                \
  X(tgt_neg, ts::tensor({-5, 0}, ts::kLong))                               \
  X(tgt_f, ts::tensor({0.0, 2.0}, ts::kFloat))                             \
  X(o23, ts::zeros({2, 3}))                                                \
  X(o_e, ts::zeros({0}))                                                   \
  X(o_e2, ts::zeros({0}))                                                  \
  X(o_ei, ts::zeros({0}, ts::kLong))                                       \
  X(e20i, ts::zeros({2, 0}, ts::kLong))                                    \
  X(f23_end, f23.narrow(1, 3, 0))                                          \
  X(o_i23, ts::zeros({2, 3}, ts::kLong))                                   \
  X(o_b23, ts::zeros({2, 3}, ts::kBool))                                   \
  X(o5, ts::zeros({5}))                                                    \
  X(o_ex, ts::zeros({3}).expand({2, 3}))                                   \
  X(base6, ts::arange(6, ts::kFloat))                                      \
  X(ov_a, base6.slice(0, 0, 4))                                            \
  X(ov_b, base6.slice(0, 2, 6))                                            \
  X(leaf, ts::ones({2, 3}).requires_grad_())                               \
  X(leafv, leaf.select(0, 0))                                              \
  X(nonleaf, leaf * 2)                                                     \
  X(stale, stale_loss(leaf))                                               \
  X(leaf2, ts::ones({3}).requires_grad_())                                 \
  X(used, used_loss(leaf2))                                                \
  X(c23, on_device(f23))                                                   \
  X(c34, on_device(f34))                                                   \
  X(c3, on_device(f3))                                                     \
  X(cidx, on_device(idx))                                                  \
  X(ctgt, on_device(tgt))                                                  \
  X(co23, on_device(o23))

struct Fx {
#define BAD_INPUTS_MEMBER(name, init) Tensor name = init;
  BAD_INPUTS_FIXTURE(BAD_INPUTS_MEMBER)
#undef BAD_INPUTS_MEMBER
  std::vector<std::pair<const char*, const Tensor*>> tensors() const {
    return {
#define BAD_INPUTS_ENTRY(name, init) {#name, &name},
        BAD_INPUTS_FIXTURE(BAD_INPUTS_ENTRY)
#undef BAD_INPUTS_ENTRY
    };
  }
};

// ---- the catalogue ----

struct BadCall {
  const char* family;
  const char* op;   // the message must start with "<op>: "
  const char* arg;  // the message must name the offending argument (case-insensitive)
  void (*call)(Fx&);
  const char* ts_only = nullptr;  // why ATen 1.13 accepts a call touchstone refuses
};

// Note [Refusals of touchstone alone]
// ATen resizes a non-empty out= tensor of the wrong shape (with a deprecation warning);
// touchstone refuses it (meta.h check_out). Its losses refuse reduction values outside
// None/Mean/Sum, and a few checks ATen 1.13 lacks are kept (each entry says which).
constexpr const char* kOutShape =
    "ATen resizes a non-empty out= of the wrong shape, with a deprecation warning";

std::vector<BadCall> unary_calls() {
  return {
      {"unary", "neg", "self", [](Fx& f) { ts::neg(f.b23); }},
      {"unary", "neg_", "self", [](Fx& f) { f.b23.neg_(); }},
      {"unary", "abs", "self", [](Fx& f) { ts::abs(f.b23); }},
      {"unary", "exp", "out", [](Fx& f) { ts::exp_out(f.o_ei, f.f23); }},
      {"unary", "exp_", "self", [](Fx& f) { f.i23.exp_(); }},
      {"unary", "log_", "self", [](Fx& f) { f.b23.log_(); }},
      {"unary", "sqrt", "out", [](Fx& f) { ts::sqrt_out(f.o5, f.f23); }, kOutShape},
      {"unary", "expm1", "out", [](Fx& f) { ts::expm1_out(f.o_b23, f.f23); }},
      {"unary", "sin", "out", [](Fx& f) { ts::sin_out(f.o_i23, f.f23); }},
      {"unary", "tanh", "out", [](Fx& f) { ts::tanh_out(f.o_ex, f.f23); }},
      {"unary", "reciprocal", "self", [](Fx& f) { ts::reciprocal_out(f.ov_a, f.ov_b); }},
      {"unary", "abs_", "self", [](Fx& f) { f.o_ex.abs_(); }},
      {"unary", "sigmoid_", "self", [](Fx& f) { f.n23.sigmoid_(); }},
      {"unary", "erf_", "self", [](Fx& f) { f.b23.erf_(); }},
      {"unary", "gelu", "approximate", [](Fx& f) { ts::gelu(f.f23, "bogus"); }},
      {"unary", "gelu_", "approximate", [](Fx& f) { ts::gelu_(f.f23, "sigmoid"); }},
      {"unary", "gelu", "self", [](Fx& f) { ts::gelu(f.i23); }},
      {"unary", "silu", "self", [](Fx& f) { ts::silu(f.i23); }},
      {"unary", "clamp", "min", [](Fx& f) { ts::clamp(f.f23, std::nullopt, std::nullopt); }},
      {"unary", "clamp_", "self", [](Fx& f) { f.i23.clamp_(0.5); }},
      {"unary", "clamp", "max", [](Fx& f) { ts::clamp(f.u23, 0, 300); }},
      {"unary", "clamp_", "min", [](Fx& f) { f.u23.clamp_(-300); }},
      {"unary", "bitwise_not", "self", [](Fx& f) { ts::bitwise_not(f.f23); }},
      {"unary", "bitwise_not_", "self", [](Fx& f) { f.d23.bitwise_not_(); }},
      {"unary", "relu_", "self", [](Fx& f) { f.leaf.relu_(); }},
      {"unary", "cos", "self", [](Fx&) { ts::cos(Tensor()); }},
      {"unary", "exp", "self", [](Fx& f) { ts::exp_out(f.o_e, f.leaf); }},
      {"unary", "logical_not_", "self", [](Fx& f) { f.o_ex.logical_not_(); }},
  };
}

std::vector<BadCall> binary_calls() {
  return {
      {"binary", "add", "other", [](Fx& f) { ts::add(f.f23, f.f34); }},
      {"binary", "add_", "self", [](Fx& f) { f.f3.add_(f.f23); }},
      {"binary", "add", "alpha", [](Fx& f) { ts::add(f.f23, f.f23, true); }},
      {"binary", "add", "alpha", [](Fx& f) { ts::add(f.i23, f.i23, 1.5); }},
      {"binary", "add", "out", [](Fx& f) { ts::add_out(f.o_ei, f.f23, f.f23); }},
      {"binary", "add", "out", [](Fx& f) { ts::add_out(f.o_ex, f.f23, f.f23); }},
      {"binary", "add", "out", [](Fx& f) { ts::add_out(f.ov_a, f.ov_b, f.ov_b); }},
      {"binary", "add_", "self", [](Fx& f) { f.i23.add_(f.f23); }},
      {"binary", "add_", "self", [](Fx& f) { f.b23.add_(f.i23); }},
      {"binary", "add_", "self", [](Fx& f) { f.ov_a.add_(f.ov_b); }},
      {"binary", "add", "self", [](Fx& f) { ts::add(Tensor(), f.f23); }},
      {"binary", "add", "other", [](Fx& f) { ts::add_out(f.o_e, f.f23, f.leaf); }},
      {"binary", "add_", "self", [](Fx& f) { f.leaf.add_(1); }},
      {"binary", "sub", "self", [](Fx& f) { ts::sub(f.b23, f.b23); }},
      {"binary", "sub_", "alpha", [](Fx& f) { f.i23.sub_(f.i23, 0.5); }},
      {"binary", "sub", "other", [](Fx& f) { ts::sub(f.f24, f.f23); }},
      {"binary", "mul", "other", [](Fx& f) { ts::mul(f.f23, f.f34); }},
      {"binary", "mul", "out", [](Fx& f) { ts::mul_out(f.o_b23, f.f23, f.f23); }},
      {"binary", "mul_", "self", [](Fx& f) { f.b23.mul_(1.5); }},
      {"binary", "mul_", "self", [](Fx& f) { f.leafv.mul_(2); }},
      {"binary", "div", "rounding_mode", [](Fx& f) { ts::div(f.f23, f.f23, "bogus"); }},
      {"binary", "div_", "self", [](Fx& f) { f.i23.div_(f.i23); }},
      {"binary", "div", "self", [](Fx& f) { ts::div(f.b23, f.b23, "floor"); }},
      {"binary", "div", "out", [](Fx& f) { ts::div_out(f.o_ei, f.i23, f.i23); }},
      {"binary", "remainder", "self", [](Fx& f) { ts::remainder(f.b23, f.b23); }},
      {"binary", "remainder", "other", [](Fx& f) { ts::remainder(f.f23, f.f4); }},
      {"binary", "pow", "exponent", [](Fx& f) { ts::pow(f.i23, -1); }},
      {"binary", "pow_", "exponent", [](Fx& f) { f.i23.pow_(-2); }},
      {"binary", "pow", "self", [](Fx& f) { ts::pow(f.b23, f.b23); }},
      {"binary", "pow_", "self", [](Fx& f) { f.i23.pow_(f.f23); }},
      {"binary", "maximum", "other", [](Fx& f) { ts::maximum(f.f23, f.f34); }},
      {"binary", "maximum", "out", [](Fx& f) { ts::maximum_out(f.o_i23, f.f23, f.f23); }},
      {"binary", "minimum", "other", [](Fx& f) { ts::minimum(f.f3, f.f4); }},
      {"binary", "minimum", "out", [](Fx& f) { ts::minimum_out(f.o_ex, f.f23, f.f23); }},
      {"binary", "atan2_", "self", [](Fx& f) { f.i23.atan2_(f.i23); }},
      {"binary", "atan2", "other", [](Fx& f) { ts::atan2(f.f23, f.f34); }},
      {"binary", "bitwise_and", "self", [](Fx& f) { ts::bitwise_and(f.f23, f.f23); }},
      {"binary", "bitwise_or", "self", [](Fx& f) { ts::bitwise_or(f.f23, f.i23); }},
      {"binary", "bitwise_xor", "self", [](Fx& f) { ts::bitwise_xor(f.d23, f.d23); }},
      {"binary", "bitwise_and_", "other", [](Fx& f) { f.i23.bitwise_and_(f.f23); }},
      {"binary", "bitwise_or", "other",
       [](Fx& f) {
         ts::bitwise_or(f.i23, f.i3.view({3, 1}));
       }},
      {"binary", "logical_and", "other", [](Fx& f) { ts::logical_and(f.f23, f.f34); }},
      {"binary", "logical_or", "out", [](Fx& f) { ts::logical_or_out(f.o_ex, f.b23, f.b23); }},
      {"binary", "logical_or_", "self", [](Fx& f) { f.f3.logical_or_(f.b23); }},
  };
}

std::vector<BadCall> compare_calls() {
  return {
      {"compare", "eq", "other", [](Fx& f) { ts::eq(f.f23, f.f34); }},
      {"compare", "ne", "other", [](Fx& f) { ts::ne(f.f23, f.f4); }},
      {"compare", "lt", "other", [](Fx& f) { ts::lt(f.f24, f.f3); }},
      {"compare", "le", "other", [](Fx& f) { ts::le(f.f234, f.f24); }},
      {"compare", "gt", "other",
       [](Fx& f) {
         ts::gt(f.i23, f.i3.view({3, 1}));
       }},
      {"compare", "ge", "other", [](Fx& f) { ts::ge(f.f34, f.f23); }},
      {"compare", "eq_", "self", [](Fx& f) { f.f3.eq_(f.f23); }},
      {"compare", "lt_", "self", [](Fx& f) { f.o_ex.lt_(f.f23); }},
      {"compare", "gt", "out", [](Fx& f) { ts::gt_out(f.o_ex, f.f23, f.f23); }},
      {"compare", "ne", "out", [](Fx& f) { ts::ne_out(f.ov_a, f.ov_b, f.ov_b); }},
      {"compare", "le", "other", [](Fx& f) { ts::le(f.f23, Tensor()); }},
      {"compare", "ge_", "self", [](Fx& f) { f.ov_a.ge_(f.ov_b); }},
  };
}

std::vector<BadCall> ternary_calls() {
  return {
      {"ternary", "where", "condition", [](Fx& f) { ts::where(f.f23, f.f23, f.f23); }},
      {"ternary", "where", "other", [](Fx& f) { ts::where(f.b23, f.f23, f.f34); }},
      {"ternary", "where", "out", [](Fx& f) { ts::where_out(f.o_i23, f.b23, f.f23, f.f23); }},
      {"ternary", "where", "out", [](Fx& f) { ts::where_out(f.o_ex, f.b23, f.f23, f.f23); }},
      {"ternary", "where", "self", [](Fx& f) { ts::where_out(f.o_e, f.b23, f.leaf, f.f23); }},
      {"ternary", "lerp", "end", [](Fx& f) { ts::lerp(f.f23, f.d23, 0.5); }},
      {"ternary", "lerp", "weight", [](Fx& f) { ts::lerp(f.f23, f.f23, f.d23); }},
      {"ternary", "lerp", "self", [](Fx& f) { ts::lerp(f.i23, f.i23, 0.5); }},
      {"ternary", "lerp", "end", [](Fx& f) { ts::lerp(f.f23, f.f34, 0.5); }},
      {"ternary", "lerp_", "self", [](Fx& f) { f.f3.lerp_(f.f23, 0.5); }},
      {"ternary", "lerp", "out", [](Fx& f) { ts::lerp_out(f.o_i23, f.f23, f.f23, f.f23); }},
      {"ternary", "lerp_", "self", [](Fx& f) { f.leaf.lerp_(f.f23, 0.5); }},
      {"ternary", "addcmul", "self", [](Fx& f) { ts::addcmul(f.b23, f.b23, f.b23); }},
      {"ternary", "addcmul", "tensor2", [](Fx& f) { ts::addcmul(f.f23, f.f23, f.f34); }},
      {"ternary", "addcmul", "out", [](Fx& f) { ts::addcmul_out(f.o_b23, f.f23, f.f23, f.f23); }},
      {"ternary", "addcmul", "value", [](Fx& f) { ts::addcmul(f.u23, f.u23, f.u23, 300); }},
      {"ternary", "addcmul_", "self", [](Fx& f) { f.i23.addcmul_(f.f23, f.f23); }},
      {"ternary", "masked_fill", "mask", [](Fx& f) { ts::masked_fill(f.f23, f.f23, 0); },
       "ATen 1.13's CPU masked_fill takes a float mask unchecked (later PyTorch refuses it)"},
      {"ternary", "masked_fill", "mask", [](Fx& f) { ts::masked_fill(f.f34, f.b23, 0); }},
      {"ternary", "masked_fill_", "self", [](Fx& f) { f.f3.masked_fill_(f.b23, 0); }},
      {"ternary", "masked_fill", "value", [](Fx& f) { ts::masked_fill(f.u23, f.b23, 300); }},
      {"ternary", "masked_fill_", "self", [](Fx& f) { f.leaf.masked_fill_(f.b23, 0); }},
  };
}

std::vector<BadCall> reduce_calls() {
  return {
      {"reduce", "sum", "dim", [](Fx& f) { ts::sum(f.f23, {2}); }},
      {"reduce", "sum", "dim",
       [](Fx& f) {
         ts::sum(f.f23, {0, 0});
       }},
      {"reduce", "sum", "dim", [](Fx& f) { ts::sum(f.f23, {-3}); }},
      {"reduce", "sum", "out", [](Fx& f) { ts::sum_out(f.o_e, f.f23, {0}, false, ts::kDouble); }},
      {"reduce", "sum", "self", [](Fx& f) { ts::sum_out(f.o_e, f.leaf, {0}); }},
      {"reduce", "mean", "dtype", [](Fx& f) { ts::mean(f.i23); }},
      {"reduce", "mean", "dtype", [](Fx& f) { ts::mean(f.f23, {0}, false, ts::kLong); }},
      {"reduce", "mean", "dim", [](Fx& f) { ts::mean(f.f23, {5}); }},
      {"reduce", "prod", "dim", [](Fx& f) { ts::prod(f.f23, 2); }},
      {"reduce", "prod", "out", [](Fx& f) { ts::prod_out(f.o_e, f.f23, 0, false, ts::kDouble); }},
      {"reduce", "amax", "dim", [](Fx& f) { ts::amax(f.f23, {3}); }},
      {"reduce", "amax", "dim",
       [](Fx& f) {
         ts::amax(f.f23, {1, -1});
       }},
      {"reduce", "amax", "dim", [](Fx& f) { ts::amax(f.f03, {0}); }},
      {"reduce", "amax", "out", [](Fx& f) { ts::amax_out(f.o_ei, f.f23, {0}); }},
      {"reduce", "amin", "dim", [](Fx& f) { ts::amin(f.f03); }},
      {"reduce", "amin", "out", [](Fx& f) { ts::amin_out(f.o_e, f.d23, {0}); }},
      {"reduce", "max", "dim", [](Fx& f) { ts::max(f.f03); }},
      {"reduce", "max", "dim", [](Fx& f) { ts::max(f.f23, 2); }},
      {"reduce", "max", "dim", [](Fx& f) { ts::max(f.f03, 0); }},
      {"reduce", "max", "values", [](Fx& f) { ts::max_out(f.o_ei, f.o_ei, f.f23, 0); }},
      {"reduce", "max", "indices", [](Fx& f) { ts::max_out(f.o_e, f.o_e2, f.f23, 0); }},
      {"reduce", "min", "dim", [](Fx& f) { ts::min(f.f23, -3); }},
      {"reduce", "min", "self", [](Fx& f) { ts::min_out(f.o_e, f.o_ei, f.leaf, 0); }},
      // Fuzz findings: an out= refused after another was resized, or overlapping once resized.
      {"reduce", "min", "indices", [](Fx& f) { ts::min_out(f.o_ei, f.e20i, f.e20i, 0); },
       "ATen resizes an out= that is also the input"},
      {"reduce", "max", "values", [](Fx& f) { ts::max_out(f.f23_end, f.o_ei, f.f23, 0); }},
      {"reduce", "max", "indices", [](Fx& f) { ts::max_out(f.o_ei, f.o_ei, f.i23, 0); },
       "ATen resizes values and indices into one storage"},
      {"binary", "add", "out", [](Fx& f) { ts::add_out(f.f23_end, f.f23, f.f23); },
       "ATen resizes an out= over its input's elements (and computes wrong values)"},
      {"reduce", "argmax", "dim", [](Fx& f) { ts::argmax(f.f23, 2); }},
      {"reduce", "argmax", "dim", [](Fx& f) { ts::argmax(f.f03); }},
      {"reduce", "argmax", "out", [](Fx& f) { ts::argmax_out(f.o_e, f.f23, 0); }},
      {"reduce", "argmin", "dim", [](Fx& f) { ts::argmin(f.f03, 0); }},
      {"reduce", "argmin", "self", [](Fx& f) { ts::argmin(f.b23); }},
      {"reduce", "var", "self", [](Fx& f) { ts::var(f.i23); }},
      {"reduce", "var", "dim", [](Fx& f) { ts::var(f.f23, {2}); }},
      {"reduce", "var", "out", [](Fx& f) { ts::var_out(f.o_ei, f.f23, {0}); }},
      {"reduce", "std", "self", [](Fx& f) { ts::std(f.i23); }},
      {"reduce", "std", "dim",
       [](Fx& f) {
         ts::std(f.f23, {0, 0});
       }},
      {"reduce", "norm", "self", [](Fx& f) { ts::norm(f.i23); }},
      {"reduce", "norm", "dim", [](Fx& f) { ts::norm(f.f23, 2, {2}); }},
      {"reduce", "norm", "p", [](Fx& f) { ts::norm(f.f23, true); }},
      {"reduce", "logsumexp", "dim", [](Fx& f) { ts::logsumexp(f.f23, {2}); }},
      {"reduce", "logsumexp", "out", [](Fx& f) { ts::logsumexp_out(f.o_ei, f.f23, {0}); }},
      {"reduce", "all", "dim", [](Fx& f) { ts::all(f.b23, 2); }},
      {"reduce", "all", "out", [](Fx& f) { ts::all_out(f.o_e, f.b23, 0); }},
      {"reduce", "any", "dim", [](Fx& f) { ts::any(f.b23, -3); }},
      {"reduce", "any", "out", [](Fx& f) { ts::any_out(f.o_ei, f.b23, 0); }},
      {"reduce", "cumsum", "dim", [](Fx& f) { ts::cumsum(f.f23, 2); }},
      {"reduce", "cumsum_", "dtype", [](Fx& f) { f.i23.cumsum_(0, ts::kFloat); }},
      {"reduce", "cumsum", "out", [](Fx& f) { ts::cumsum_out(f.o_e, f.f23, 0, ts::kDouble); }},
      {"reduce", "cumsum", "out", [](Fx& f) { ts::cumsum_out(f.o_ex, f.f23, 1); }},
      {"reduce", "cumsum", "self", [](Fx& f) { ts::cumsum_out(f.o_e, f.leaf, 0); }},
      {"reduce", "cumsum_", "self", [](Fx& f) { f.leaf.cumsum_(0); }},
  };
}

std::vector<BadCall> nn_calls() {
  return {
      {"nn", "softmax", "dim", [](Fx& f) { ts::softmax(f.f23, 2); }},
      {"nn", "log_softmax", "dim", [](Fx& f) { ts::log_softmax(f.f23, -3); }},
      {"nn", "softmax", "self", [](Fx& f) { ts::softmax(f.i23, 0); }},
      {"nn", "softmax", "dtype", [](Fx& f) { ts::softmax(f.f23, 0, ts::kLong); }},
      {"nn", "softmax", "out", [](Fx& f) { ts::softmax_out(f.o_ei, f.f23, 1); }},
      {"nn", "log_softmax", "out", [](Fx& f) { ts::log_softmax_out(f.o_ex, f.f23, 1); }},
      {"nn", "softmax", "self", [](Fx& f) { ts::softmax_out(f.o_e, f.leaf, 1); },
       "ATen's softmax and log_softmax out= forms skip the out= autograd check"},
      {"nn", "layer_norm", "normalized_shape", [](Fx& f) { ts::layer_norm(f.f23, {4}); }},
      {"nn", "layer_norm", "normalized_shape", [](Fx& f) { ts::layer_norm(f.f23, {}); }},
      {"nn", "layer_norm", "weight", [](Fx& f) { ts::layer_norm(f.f23, {3}, f.f4); }},
      {"nn", "layer_norm", "bias", [](Fx& f) { ts::layer_norm(f.f23, {3}, f.f3, f.f4); }},
      {"nn", "layer_norm", "input", [](Fx& f) { ts::layer_norm(f.i23, {3}); }},
      {"nn", "layer_norm", "weight", [](Fx& f) { ts::layer_norm(f.f23, {3}, f.d3); }},
  };
}

// convolution (issue 16): errors raised by convolution under conv2d read "conv2d: convolution:
// ...".
std::vector<BadCall> conv_calls() {
  return {
      {"conv", "conv2d", "input",
       [](Fx& f) {
         ts::conv2d(f.f23, ts::zeros({4, 3, 1, 1}));
       }},
      {"conv", "conv2d", "input",
       [](Fx& f) {
         ts::conv2d(f.f234, ts::zeros({4, 3, 1, 1}));
       }},
      {"conv", "conv2d", "stride",
       [](Fx& f) {
         ts::conv2d(f.f234, ts::zeros({4, 2, 1, 1}), {}, 0);
       }},
      {"conv", "conv2d", "padding",
       [](Fx& f) {
         ts::conv2d(f.f234, ts::zeros({4, 2, 1, 1}), {}, 1, -1);
       }},
      {"conv", "conv2d", "dilation",
       [](Fx& f) {
         ts::conv2d(f.f234, ts::zeros({4, 2, 1, 1}), {}, 1, ts::IntArrayRef(int64_t{0}), 0);
       }},
      {"conv", "conv2d", "bias",
       [](Fx& f) {
         ts::conv2d(f.f234, ts::zeros({4, 2, 1, 1}), f.f3);
       }},
      {"conv", "conv2d", "weight",
       [](Fx& f) {
         ts::conv2d(f.f234, ts::zeros({4, 2, 1, 1}, ts::kDouble));
       }},
      {"conv", "conv2d", "padding",
       [](Fx& f) {
         ts::conv2d(f.f234, ts::zeros({4, 2, 1, 1}), {}, 1, "full");
       }},
      {"conv", "conv2d", "stride",
       [](Fx& f) {
         ts::conv2d(f.f234, ts::zeros({4, 2, 1, 1}), {}, 2, "same");
       }},
      {"conv", "conv1d", "input",
       [](Fx& f) {
         ts::conv1d(f.f234, ts::zeros({4, 3, 5}));
       }},
      {"conv", "conv_transpose1d", "output_padding",
       [](Fx& f) {
         ts::conv_transpose1d(f.f234, ts::zeros({3, 2, 2}), {}, 1, 0, 1);
       }},
  };
}

std::vector<BadCall> norm_calls() {
  constexpr const char* kNoOp = "ATen 1.13 has no op of this name (current PyTorch refuses it)";
  return {
      {"norm", "batch_norm", "weight",
       [](Fx& f) { ts::batch_norm(f.f23, f.f4, {}, {}, {}, true); }},
      {"norm", "batch_norm", "running_mean",
       [](Fx& f) { ts::batch_norm(f.f23, {}, {}, f.f4, f.f3, true); }},
      {"norm", "batch_norm", "input", [](Fx& f) { ts::batch_norm(f.i23, {}, {}, {}, {}, true); }},
      {"norm", "group_norm", "num_groups", [](Fx& f) { ts::group_norm(f.f23, 2); }},
      {"norm", "group_norm", "weight", [](Fx& f) { ts::group_norm(f.f23, 3, f.f4); }},
      {"norm", "rms_norm", "normalized_shape", [](Fx& f) { ts::rms_norm(f.f23, {4}); }, kNoOp},
      {"norm", "embedding", "indices", [](Fx& f) { ts::embedding(f.f23, f.idx_oob); }},
      {"norm", "embedding", "indices", [](Fx& f) { ts::embedding(f.f23, f.idx_f); }},
      {"norm", "one_hot", "self", [](Fx& f) { ts::one_hot(f.f3); }},
      {"norm", "scaled_dot_product_attention", "key",
       [](Fx& f) { ts::scaled_dot_product_attention(f.f23, f.f34, f.f34); }, kNoOp},
      {"norm", "prelu", "weight", [](Fx& f) { ts::prelu(f.f23, f.f4); }},
  };
}

std::vector<BadCall> loss_calls() {
  constexpr const char* kReduction = "ATen 1.13 does not check nll_loss's reduction";
  return {
      {"losses", "nll_loss", "target", [](Fx& f) { ts::nll_loss(f.f23, f.tgt_oob); }},
      {"losses", "nll_loss", "target", [](Fx& f) { ts::nll_loss(f.f23, f.tgt_neg); }},
      {"losses", "nll_loss", "target", [](Fx& f) { ts::nll_loss(f.f23, f.tgt_f); }},
      {"losses", "nll_loss", "target", [](Fx& f) { ts::nll_loss(f.f23, f.i3); }},
      {"losses", "nll_loss", "weight", [](Fx& f) { ts::nll_loss(f.f23, f.tgt, f.f4); }},
      {"losses", "nll_loss", "weight", [](Fx& f) { ts::nll_loss(f.d23, f.tgt, f.f3); }},
      {"losses", "nll_loss", "self", [](Fx& f) { ts::nll_loss(f.f0, f.tgt); }},
      {"losses", "nll_loss", "self", [](Fx& f) { ts::nll_loss(f.i23, f.tgt); }},
      {"losses", "nll_loss", "reduction",
       [](Fx& f) { ts::nll_loss(f.f23, f.tgt, {}, static_cast<ts::Reduction>(5)); }, kReduction},
      {"losses", "cross_entropy", "target", [](Fx& f) { ts::cross_entropy(f.f23, f.tgt_oob); }},
      {"losses", "cross_entropy", "label_smoothing",
       [](Fx& f) { ts::cross_entropy(f.f23, f.tgt, {}, ts::Reduction::Mean, -100, 1.5); }},
      {"losses", "cross_entropy", "target", [](Fx& f) { ts::cross_entropy(f.f23, f.tgt_f); }},
      {"losses", "cross_entropy", "ignore_index",
       [](Fx& f) { ts::cross_entropy(f.f23, f.f23, {}, ts::Reduction::Mean, 1); }},
      {"losses", "cross_entropy", "target", [](Fx& f) { ts::cross_entropy(f.f23, f.i23); }},
      {"losses", "cross_entropy", "weight", [](Fx& f) { ts::cross_entropy(f.f23, f.tgt, f.f4); }},
      {"losses", "cross_entropy", "weight",
       [](Fx& f) { ts::cross_entropy(f.f23, f.tgt, f.f4, ts::Reduction::Mean, -100, 0.1); }},
      {"losses", "cross_entropy", "target",
       [](Fx& f) { ts::cross_entropy(f.f23, f.tgt_oob, {}, ts::Reduction::Sum, -100, 0.2); }},
      {"losses", "cross_entropy", "self", [](Fx& f) { ts::cross_entropy(f.f0, f.tgt); }},
      {"losses", "cross_entropy", "reduction",
       [](Fx& f) { ts::cross_entropy(f.f23, f.tgt, {}, static_cast<ts::Reduction>(-1)); },
       kReduction},
      {"losses", "mse_loss", "target", [](Fx& f) { ts::mse_loss(f.f23, f.f34); }},
      {"losses", "mse_loss", "self", [](Fx& f) { ts::mse_loss(f.i23, f.i23); }},
      // ATen refuses this one through an internal assert.
      {"losses", "mse_loss", "reduction",
       [](Fx& f) { ts::mse_loss(f.f23, f.f23, static_cast<ts::Reduction>(7)); }},
      {"nn", "linear", "weight", [](Fx& f) { ts::linear(f.f23, f.f34); }},
      {"nn", "linear", "weight", [](Fx& f) { ts::linear(f.f23, f.f234); }},
      {"nn", "linear", "weight", [](Fx& f) { ts::linear(f.f23, f.d34.t()); }},
      {"nn", "linear", "bias", [](Fx& f) { ts::linear(f.f23, f.f34.t(), f.f5); }},
      {"nn", "linear", "bias", [](Fx& f) { ts::linear(f.f23, f.f34.t(), f.d4); }},
      {"nn", "linear", "input", [](Fx& f) { ts::linear(f.f0, f.f34.t()); }},
      {"nn", "dropout", "probability", [](Fx& f) { ts::dropout(f.f23, 1.5, true); }},
      {"nn", "dropout", "probability", [](Fx& f) { ts::dropout(f.f23, -0.5, false); }},
      {"nn", "dropout", "input", [](Fx& f) { ts::dropout(f.i23, 0.5, true); }},
  };
}

std::vector<BadCall> linalg_calls() {
  return {
      {"linalg", "mm", "mat2", [](Fx& f) { ts::mm(f.f23, f.f24); }},
      {"linalg", "mm", "self", [](Fx& f) { ts::mm(f.f3, f.f34); }},
      {"linalg", "mm", "mat2", [](Fx& f) { ts::mm(f.f23, f.f3); }},
      {"linalg", "mm", "mat2", [](Fx& f) { ts::mm(f.f23, f.d34); }},
      {"linalg", "mm", "self", [](Fx& f) { ts::mm(f.b23, f.b23.t()); }},
      {"linalg", "mm", "out", [](Fx& f) { ts::mm_out(f.o_ei, f.f23, f.f34); }},
      {"linalg", "mm", "out", [](Fx& f) { ts::mm_out(f.o5, f.f23, f.f34); }, kOutShape},
      {"linalg", "mm", "self", [](Fx& f) { ts::mm_out(f.o_e, f.leaf, f.f33); }},
      {"linalg", "bmm", "batch1", [](Fx& f) { ts::bmm(f.f23, f.f245); }},
      {"linalg", "bmm", "batch2", [](Fx& f) { ts::bmm(f.f234, f.f345); }},
      {"linalg", "bmm", "batch2", [](Fx& f) { ts::bmm(f.f234, f.d245); }},
      {"linalg", "bmm", "out", [](Fx& f) { ts::bmm_out(f.o_ei, f.f234, f.f245); }},
      {"linalg", "matmul", "self", [](Fx& f) { ts::matmul(f.f0, f.f3); }},
      {"linalg", "matmul", "other", [](Fx& f) { ts::matmul(f.f23, f.f24); }},
      {"linalg", "matmul", "other", [](Fx& f) { ts::matmul(f.f234, f.f3); }},
      {"linalg", "matmul", "other", [](Fx& f) { ts::matmul(f.f3, f.d34); }},
      {"linalg", "matmul", "other", [](Fx& f) { ts::matmul(f.f234, f.f345); }},
      {"linalg", "matmul", "other", [](Fx& f) { f.f23.matmul(Tensor()); }},
      {"linalg", "addmm", "self", [](Fx& f) { ts::addmm(f.f3, f.f23, f.f34); }},
      {"linalg", "addmm", "mat2", [](Fx& f) { ts::addmm(f.f24, f.f23, f.f24); }},
      {"linalg", "addmm", "self", [](Fx& f) { ts::addmm(f.d23.narrow(1, 0, 2), f.f23, f.f33); }},
      {"linalg", "addmm", "mat1", [](Fx& f) { ts::addmm(f.f24, f.f3, f.f34); }},
      {"linalg", "addmm_", "self", [](Fx& f) { f.f3.addmm_(f.f23, f.f34); }},
      {"linalg", "addmm", "out", [](Fx& f) { ts::addmm_out(f.o_ei, f.f24, f.f23, f.f34); }},
      {"linalg", "addmm_", "self", [](Fx& f) { f.leaf.addmm_(f.f23, f.f33); }},
      {"linalg", "dot", "tensor", [](Fx& f) { ts::dot(f.f3, f.f4); }},
      {"linalg", "dot", "self", [](Fx& f) { ts::dot(f.f23, f.f3); }},
      {"linalg", "dot", "tensor", [](Fx& f) { ts::dot(f.f3, f.d3); }},
      {"linalg", "dot", "out", [](Fx& f) { ts::dot_out(f.o_ei, f.f3, f.f3); }},
      {"linalg", "mv", "vec", [](Fx& f) { ts::mv(f.f23, f.f4); }},
      {"linalg", "mv", "self", [](Fx& f) { ts::mv(f.f3, f.f3); }},
      {"linalg", "mv", "vec", [](Fx& f) { ts::mv(f.f23, f.d3); }},
      {"linalg", "outer", "self", [](Fx& f) { ts::outer(f.f23, f.f3); }},
      {"linalg", "outer", "vec2", [](Fx& f) { ts::outer(f.f3, f.f23); }},
      {"linalg", "outer", "out", [](Fx& f) { ts::outer_out(f.o_ei, f.f3, f.f4); }},
  };
}

std::vector<BadCall> index_calls() {
  return {
      {"index", "index_select", "dim", [](Fx& f) { ts::index_select(f.f23, 2, f.idx); }},
      {"index", "index_select", "index", [](Fx& f) { ts::index_select(f.f23, 1, f.idx_oob); }},
      {"index", "index_select", "index", [](Fx& f) { ts::index_select(f.f23, 1, f.idx_neg); }},
      {"index", "index_select", "index", [](Fx& f) { ts::index_select(f.f23, 1, f.idx_f); }},
      {"index", "index_select", "index", [](Fx& f) { ts::index_select(f.f23, 1, f.idx22); }},
      {"index", "index_select", "out",
       [](Fx& f) { ts::index_select_out(f.o_ei, f.f23, 1, f.idx); }},
      {"index", "index_select", "self",
       [](Fx& f) { ts::index_select_out(f.base6.narrow(0, 0, 2), f.base6, 0, f.idx); }},
      {"index", "index_select", "self",
       [](Fx& f) { ts::index_select_out(f.o_e, f.leaf, 0, f.idx.narrow(0, 0, 1)); }},
      {"index", "gather", "index", [](Fx& f) { ts::gather(f.f23, 1, f.gidx_oob); }},
      {"index", "gather", "index", [](Fx& f) { ts::gather(f.f23, 1, f.gidx_neg); }},
      {"index", "gather", "dim", [](Fx& f) { ts::gather(f.f23, 2, f.gidx); }},
      {"index", "gather", "index", [](Fx& f) { ts::gather(f.f23, 1, f.gidx_i32); }},
      {"index", "gather", "index", [](Fx& f) { ts::gather(f.f23, 1, f.i3); }},
      {"index", "gather", "index", [](Fx& f) { ts::gather(f.f23, 0, f.gidx24); }},
      {"index", "gather", "out", [](Fx& f) { ts::gather_out(f.o_ei, f.f23, 1, f.gidx); }},
      {"index", "gather", "self", [](Fx& f) { ts::gather_out(f.f23, f.f23, 1, f.gidx); }},
      {"index", "scatter_add", "index",
       [](Fx& f) { ts::scatter_add(f.f23, 1, f.gidx_oob, f.f23); }},
      {"index", "scatter_add", "src", [](Fx& f) { ts::scatter_add(f.f23, 1, f.gidx, f.d23); }},
      {"index", "scatter_add", "index",
       [](Fx& f) { ts::scatter_add(f.f23, 1, f.gidx_i32, f.f23); }},
      {"index", "scatter_add", "dim", [](Fx& f) { ts::scatter_add(f.f23, 3, f.gidx, f.f23); }},
      {"index", "scatter_add", "src", [](Fx& f) { ts::scatter_add(f.f23, 0, f.gidx, f.f3); }},
      {"index", "scatter_add_", "index", [](Fx& f) { f.f23.scatter_add_(1, f.gidx_oob, f.g23); }},
      {"index", "scatter_add_", "index", [](Fx& f) { f.f23.scatter_add_(0, f.gidx_neg, f.g23); }},
      {"index", "scatter_add_", "src", [](Fx& f) { f.f23.scatter_add_(1, f.gidx, f.f23); }},
      {"index", "scatter_add_", "self", [](Fx& f) { f.leaf.scatter_add_(1, f.gidx, f.f23); }},
      {"index", "scatter_add", "out",
       [](Fx& f) { ts::scatter_add_out(f.o_ei, f.f23, 1, f.gidx, f.f23); }},
      {"index", "cat", "tensor number",
       [](Fx& f) {
         ts::cat({f.f23, f.f34}, 0);
       }},
      {"index", "cat", "tensors", [](Fx&) { ts::cat(std::vector<Tensor>{}, 0); }},
      {"index", "cat", "tensors",
       [](Fx& f) {
         ts::cat({f.f23, f.f234}, 0);
       }},
      {"index", "cat", "dim",
       [](Fx& f) {
         ts::cat({f.f23, f.f23}, 2);
       }},
      {"index", "cat", "tensors",
       [](Fx& f) {
         ts::cat({f.f0, f.f0}, 0);
       }},
      {"index", "cat", "out",
       [](Fx& f) {
         ts::cat_out(f.o_ei, {f.f23, f.f23}, 0);
       }},
      {"index", "cat", "tensors",
       [](Fx& f) {
         ts::cat_out(f.base6, {f.base6.narrow(0, 0, 3), f.base6.narrow(0, 3, 3)});
       }},
      {"index", "cat", "tensors",
       [](Fx& f) {
         ts::cat_out(f.o_e, {f.leaf, f.f23}, 0);
       }},
      {"index", "stack", "entry",
       [](Fx& f) {
         ts::stack({f.f23, f.f34});
       }},
      {"index", "stack", "dim",
       [](Fx& f) {
         ts::stack({f.f23, f.f23}, 4);
       }},
      {"index", "stack", "tensors", [](Fx&) { ts::stack(std::vector<Tensor>{}); }},
      {"index", "stack", "out",
       [](Fx& f) {
         ts::stack_out(f.o_ei, {f.f23, f.f23});
       }},
  };
}

// shape (issue 16)
std::vector<BadCall> shape_calls() {
  return {
      {"shape", "flip", "dims",
       [](Fx& f) {
         ts::flip(f.f23, {0, -2});
       }},
      {"shape", "flip", "dim", [](Fx& f) { ts::flip(f.f23, {2}); }},
      {"shape", "roll", "shifts",
       [](Fx& f) {
         ts::roll(f.f23, {1, 2});
       }},
      {"shape", "roll", "shifts",
       [](Fx& f) {
         ts::roll(f.f23, {1}, {0, 1});
       }},
      {"shape", "roll", "dim", [](Fx& f) { ts::roll(f.f23, {1}, {2}); }},
      {"shape", "tril", "self", [](Fx& f) { ts::tril(f.f3); }},
      {"shape", "triu_", "self", [](Fx& f) { f.f3.triu_(); }},
      {"shape", "tril", "out", [](Fx& f) { ts::tril_out(f.o_ei, f.f23); }},
      {"shape", "triu_", "self", [](Fx& f) { f.o_ex.triu_(); }},
      {"shape", "trace", "self", [](Fx& f) { ts::trace(f.f3); }},
      {"shape", "trace", "self", [](Fx& f) { ts::trace(f.b23); }},
      {"shape", "diag", "self", [](Fx& f) { ts::diag(f.f234); }},
      {"shape", "repeat", "repeats", [](Fx& f) { f.f23.repeat({2}); }},
      {"shape", "repeat", "repeats",
       [](Fx& f) {
         f.f23.repeat({2, -1});
       }},
      {"shape", "tile", "repeats", [](Fx& f) { ts::tile(f.f23, {-1}); }},
      {"shape", "diff", "order", [](Fx& f) { ts::diff(f.f23, -1); }},
      {"shape", "diff", "prepend", [](Fx& f) { ts::diff(f.f23, 1, 1, f.f34); }},
      {"shape", "baddbmm", "dtype", [](Fx& f) { ts::baddbmm(f.d245, f.f234, f.f245); }},
      {"shape", "addmv", "vec", [](Fx& f) { ts::addmv(f.f3, f.f34, f.f3); }},
      {"shape", "repeat_interleave", "repeats", [](Fx& f) { ts::repeat_interleave(f.f3); }},
      {"shape", "repeat_interleave", "repeats", [](Fx& f) { ts::repeat_interleave(f.idx_neg); }},
      {"shape", "repeat_interleave_self", "repeats",
       [](Fx& f) { f.f23.repeat_interleave(f.i3, 0); }},
      {"shape", "constant_pad_nd", "pad", [](Fx& f) { ts::constant_pad_nd(f.f23, {1}); }},
      {"shape", "constant_pad_nd", "pad",
       [](Fx& f) {
         ts::constant_pad_nd(f.f23, {-2, -2});
       }},
      {"shape", "reflection_pad1d", "padding",
       [](Fx& f) {
         ts::reflection_pad1d(f.f23, {3, 0});
       }},
      {"shape", "replication_pad2d", "self",
       [](Fx& f) {
         ts::replication_pad2d(f.f3, {1, 1, 1, 1});
       }},
      {"shape", "replication_pad3d", "self",
       [](Fx& f) {
         ts::replication_pad3d(f.i23.view({1, 1, 1, 2, 3}), {1, 1, 1, 1, 1, 1});
       }},
      {"shape", "_pad_circular", "pad",
       [](Fx& f) {
         ts::_pad_circular(f.f234, {5, 0});
       }},
      {"shape", "pad", "mode",
       [](Fx& f) {
         ts::pad(f.f23, {1, 1}, "wrap");
       }},
      {"shape", "pad", "value",
       [](Fx& f) {
         ts::pad(f.f234, {1, 1}, "reflect", 2.0);
       }},
      {"shape", "meshgrid", "indexing",
       [](Fx& f) {
         ts::meshgrid({f.f3, f.f4}, "yx");
       }},
      {"shape", "meshgrid", "tensors", [](Fx& f) { ts::meshgrid({f.f23}); }},
      {"shape", "einsum", "tensors", [](Fx& f) { ts::einsum("ij,jk", {f.f23}); }},
      {"shape", "einsum", "equation", [](Fx& f) { ts::einsum("i1", {f.f3}); }},
      {"shape", "tensordot", "other", [](Fx& f) { ts::tensordot(f.f23, f.f34, {0}, {0}); }},
      {"shape", "tensordot", "out",
       [](Fx& f) { ts::tensordot_out(f.o_i23, f.f23, f.f34, {1}, {0}); }},
  };
}

std::vector<BadCall> factory_calls() {
  return {
      {"factories", "empty", "dimension", [](Fx&) { ts::empty({-1}); }},
      {"factories", "empty_strided", "stride",
       [](Fx&) {
         ts::empty_strided({2}, {1, 1});
       }},
      {"factories", "zeros", "dimension",
       [](Fx&) {
         ts::zeros({2, -3});
       }},
      {"factories", "ones", "dimension", [](Fx&) { ts::ones({-1}); }},
      {"factories", "full", "dimension", [](Fx&) { ts::full({-1}, 1.0); }},
      {"factories", "full", "value", [](Fx&) { ts::full({2}, 300, ts::kByte); }},
      {"factories", "full_like", "value", [](Fx& f) { ts::full_like(f.f23, 1e40); }},
      {"factories", "arange", "step", [](Fx&) { ts::arange(0, 10, 0); }},
      {"factories", "arange", "bound", [](Fx&) { ts::arange(10, 0, 1); }},
      {"factories", "arange", "range", [](Fx&) { ts::arange(0, INFINITY); }},
      {"factories", "arange", "dtype", [](Fx&) { ts::arange(0, 10, 1, ts::kBool); }},
      {"factories", "linspace", "steps", [](Fx&) { ts::linspace(0, 1, -1); }},
      {"factories", "eye", "n", [](Fx&) { ts::eye(-1); }},
      {"factories", "eye", "m", [](Fx&) { ts::eye(2, -1); }},
      {"factories", "rand", "dtype", [](Fx&) { ts::rand({2}, ts::kLong); }},
      {"factories", "randn", "dimension", [](Fx&) { ts::randn({-1}); }},
      {"factories", "randint", "from", [](Fx&) { ts::randint(5, 2, {3}); }},
      {"factories", "randint", "to", [](Fx&) { ts::randint(0, 300, {3}, ts::kByte); }},
      {"factories", "rand_like", "dtype", [](Fx& f) { ts::rand_like(f.i23); }},
      {"factories", "randn_like", "dtype", [](Fx& f) { ts::randn_like(f.b23); }},
      {"factories", "tensor", "type", [](Fx&) { ts::tensor({300}, ts::kByte); },
       "ATen's C++ at::tensor wraps the value; torch.tensor([300], dtype=torch.uint8) refuses"},
  };
}

std::vector<BadCall> copy_view_calls() {
  return {
      {"copy", "copy_", "src", [](Fx& f) { f.f23.copy_(f.f34); }},
      {"copy", "copy_", "self", [](Fx& f) { f.f3.copy_(f.f23); }},
      {"copy", "copy_", "self", [](Fx& f) { f.o_ex.copy_(f.f23); }},
      {"copy", "copy_", "src", [](Fx& f) { f.ov_a.copy_(f.ov_b); }},
      {"copy", "copy_", "src", [](Fx& f) { f.f23.copy_(Tensor()); }},
      {"copy", "copy_", "self", [](Fx& f) { f.leaf.copy_(f.f23); }},
      {"copy", "fill_", "value", [](Fx& f) { f.u23.fill_(256); }},
      {"copy", "fill_", "value", [](Fx& f) { f.f23.fill_(1e40); }},
      {"copy", "fill_", "self", [](Fx& f) { f.leaf.fill_(0); }},
      {"copy", "zero_", "self", [](Fx& f) { f.leafv.zero_(); }},
      {"copy", "clone", "self", [](Fx&) { ts::clone(Tensor()); }},
      {"views", "view", "shape", [](Fx& f) { f.f23.view({4}); }},
      {"views", "view", "dimension",
       [](Fx& f) {
         f.f23.view({-1, -1});
       }},
      {"views", "view", "size", [](Fx& f) { f.f23.t().view({6}); }},
      {"views", "reshape", "shape", [](Fx& f) { f.f23.reshape({5}); }},
      {"views", "reshape", "shape",
       [](Fx& f) {
         f.f23.reshape({2, -2});
       }},
      {"views", "t", "self", [](Fx& f) { f.f234.t(); }},
      {"views", "transpose", "dim", [](Fx& f) { f.f23.transpose(0, 2); }},
      {"views", "permute", "dims", [](Fx& f) { f.f23.permute({0}); }},
      {"views", "permute", "dims",
       [](Fx& f) {
         f.f23.permute({1, 1});
       }},
      {"views", "expand", "size",
       [](Fx& f) {
         f.f23.expand({3, 3});
       }},
      {"views", "expand", "size", [](Fx& f) { f.f23.expand({3}); }},
      {"views", "narrow", "start", [](Fx& f) { f.f23.narrow(1, 2, 2); }},
      {"views", "narrow", "length", [](Fx& f) { f.f23.narrow(0, 0, -1); }},
      {"views", "select", "index", [](Fx& f) { f.f23.select(1, 3); }},
      {"views", "select", "self", [](Fx& f) { f.f0.select(0, 0); }},
      {"views", "slice", "step", [](Fx& f) { f.f23.slice(1, 0, 2, 0); }},
      {"views", "unfold", "size", [](Fx& f) { f.f23.unfold(1, 4, 1); }},
      {"views", "unfold", "step", [](Fx& f) { f.f23.unfold(1, 2, 0); }},
      {"views", "split", "split_size", [](Fx& f) { f.f23.split(-1); }},
      {"views", "split_with_sizes", "split_sizes",
       [](Fx& f) {
         f.f23.split_with_sizes({1, 1}, 1);
       }},
      {"views", "chunk", "chunks", [](Fx& f) { f.f23.chunk(0); }},
      {"views", "squeeze", "dim", [](Fx& f) { f.f23.squeeze(2); }},
      {"views", "unsqueeze", "dim", [](Fx& f) { f.f23.unsqueeze(4); }},
      {"views", "flatten", "start_dim", [](Fx& f) { f.f234.flatten(2, 0); }},
      {"views", "movedim", "destination",
       [](Fx& f) {
         f.f23.movedim({0}, {0, 1});
       }},
      {"views", "as_strided", "stride",
       [](Fx& f) {
         f.f23.as_strided({2, 3}, {3});
       }},
      {"views", "as_strided", "storage", [](Fx& f) { f.f23.as_strided({10}, {1}); }},
      {"views", "diagonal", "dim", [](Fx& f) { f.f23.diagonal(0, 1, 1); }},
      {"views", "unflatten", "sizes",
       [](Fx& f) {
         f.f23.unflatten(1, {2, 2});
       }},
  };
}

std::vector<BadCall> autograd_calls() {
  return {
      {"autograd", "backward", "gradient", [](Fx& f) { f.nonleaf.backward(); }},
      {"autograd", "backward", "tensors", [](Fx& f) { f.f23.backward(); }},
      {"autograd", "backward", "grad_output", [](Fx& f) { f.nonleaf.backward(f.f3); }},
      {"autograd", "backward", "inplace", [](Fx& f) { f.stale.backward(); }},
      {"autograd", "backward", "retain_graph", [](Fx& f) { f.used.backward(); }},
      {"autograd", "requires_grad_", "dtype", [](Fx& f) { f.i23.requires_grad_(); }},
      {"autograd", "requires_grad_", "requires_grad",
       [](Fx& f) { f.nonleaf.requires_grad_(false); }},
      {"autograd", "detach_", "view", [](Fx& f) { f.leafv.detach_(); }},
      {"autograd", "retain_grad", "requires_grad", [](Fx& f) { f.f23.retain_grad(); }},
      {"autograd", "grad", "inputs", [](Fx& f) { ts::autograd::grad({f.nonleaf.sum()}, {f.f23}); }},
      {"autograd", "grad", "allow_unused",
       [](Fx& f) { ts::autograd::grad({f.nonleaf.sum()}, {f.leaf2}); }},
      {"autograd", "exp_", "self", [](Fx& f) { f.leaf.exp_(); }},
      {"autograd", "copy_", "self", [](Fx& f) { f.leafv.copy_(f.f3); }},
  };
}

std::vector<BadCall> device_calls() {
  return {
      {"device", "add", "other", [](Fx& f) { ts::add(f.f23, f.c23); }},
      {"device", "add", "out", [](Fx& f) { ts::add_out(f.co23, f.f23, f.f23); }},
      {"device", "mul_", "other", [](Fx& f) { f.f23.mul_(f.c23); }},
      {"device", "where", "other", [](Fx& f) { ts::where(f.b23, f.f23, f.c23); }},
      {"device", "mm", "mat2", [](Fx& f) { ts::mm(f.f23, f.c34); }},
      {"device", "index_select", "index", [](Fx& f) { ts::index_select(f.f23, 1, f.cidx); }},
      {"device", "cat", "tensors",
       [](Fx& f) {
         ts::cat({f.f23, f.c23});
       }},
      {"device", "nll_loss", "target", [](Fx& f) { ts::nll_loss(f.f23, f.ctgt); }},
      {"device", "layer_norm", "weight", [](Fx& f) { ts::layer_norm(f.f23, {3}, f.c3); }},
      {"device", "mse_loss", "target", [](Fx& f) { ts::mse_loss(f.f23, f.c23); }},
  };
}

// sorting and selection (issue 16)
std::vector<BadCall> sort_calls() {
  return {
      {"sort", "sort", "dim", [](Fx& f) { ts::sort(f.f23, 2); }},
      {"sort", "sort", "indices", [](Fx& f) { ts::sort_out(f.o_e, f.o_e2, f.f23); }},
      {"sort", "sort", "values", [](Fx& f) { ts::sort_out(f.o_ei, f.o_ei, f.f23); }},
      {"sort", "topk", "k", [](Fx& f) { ts::topk(f.f23, 4); }},
      {"sort", "topk", "self", [](Fx& f) { ts::topk(f.b23, 1); }},
      {"sort", "kthvalue", "k", [](Fx& f) { ts::kthvalue(f.f23, 0); }},
      {"sort", "median", "dim", [](Fx& f) { ts::median(f.f03, 0); }},
      {"sort", "mode", "dim", [](Fx& f) { ts::mode(f.f03, 0); }},
      // scans (issue 16)
      {"sort", "cumprod", "dim", [](Fx& f) { ts::cumprod(f.f23, 2); }},
      {"sort", "cumprod", "out", [](Fx& f) { ts::cumprod_out(f.o_b23, f.f23, 1); }},
      {"sort", "logcumsumexp", "self", [](Fx& f) { ts::logcumsumexp(f.i23, 1); }},
      {"sort", "logcumsumexp", "dim", [](Fx& f) { ts::logcumsumexp(f.f23, -3); }},
      {"sort", "cummax", "dim", [](Fx& f) { ts::cummax(f.f23, 2); }},
      {"sort", "cummin", "indices", [](Fx& f) { ts::cummin_out(f.o_e, f.o_e2, f.f23, 0); }},
      // searches and unique (issue 16)
      {"sort", "searchsorted", "sorted_sequence", [](Fx& f) { ts::searchsorted(f.f0, f.f3); }},
      {"sort", "searchsorted", "sorted_sequence", [](Fx& f) { ts::searchsorted(f.f23, f.f34); }},
      {"sort", "searchsorted", "side",
       [](Fx& f) { ts::searchsorted(f.f3, f.f3, false, false, "middle"); }},
      {"sort", "searchsorted", "side",
       [](Fx& f) { ts::searchsorted(f.f3, f.f3, false, true, "left"); }},
      {"sort", "searchsorted", "sorter",
       [](Fx& f) { ts::searchsorted(f.f3, f.f3, false, false, std::nullopt, f.idx); }},
      {"sort", "searchsorted", "sorter",
       [](Fx& f) { ts::searchsorted(f.f3, f.f3, false, false, std::nullopt, f.f3); }},
      {"sort", "searchsorted", "out", [](Fx& f) { ts::searchsorted_out(f.o23, f.f3, f.f23); }},
      {"sort", "bucketize", "boundaries", [](Fx& f) { ts::bucketize(f.f3, f.f23); }},
      {"sort", "bucketize", "self", [](Fx& f) { ts::bucketize(f.b23, f.b23.select(0, 0)); }},
      {"sort", "unique_dim", "dim", [](Fx& f) { ts::unique_dim(f.f23, 2); }},
      {"sort", "unique_dim", "self", [](Fx& f) { ts::unique_dim(f.f03, 1); }},
      {"sort", "unique_consecutive", "dim",
       [](Fx& f) { ts::unique_consecutive(f.f23, false, false, 3); }},
  };
}

// losses (issue 16)
std::vector<BadCall> loss16_calls() {
  constexpr const char* kReduction = "ATen 1.13 does not check this op's reduction";
  constexpr const char* kTargets = "ATen 1.13's CPU ctc_loss reads out-of-range targets unchecked";
  return {
      {"losses", "binary_cross_entropy", "target",
       [](Fx& f) { ts::binary_cross_entropy(f.f23, f.f34); }},
      {"losses", "binary_cross_entropy", "input",
       [](Fx& f) {
         ts::binary_cross_entropy(f.f23, ts::zeros({2, 3}));
       }},
      {"losses", "binary_cross_entropy", "weight",
       [](Fx& f) {
         ts::binary_cross_entropy(ts::zeros({2, 3}), ts::zeros({2, 3}), f.f4);
       }},
      {"losses", "binary_cross_entropy", "self",
       [](Fx& f) { ts::binary_cross_entropy(f.i23, f.i23); }},
      {"losses", "binary_cross_entropy", "reduction",
       [](Fx&) {
         ts::binary_cross_entropy(ts::zeros({2}), ts::zeros({2}), {},
                                  static_cast<ts::Reduction>(7));
       },
       kReduction},
      {"losses", "binary_cross_entropy_with_logits", "target",
       [](Fx& f) { ts::binary_cross_entropy_with_logits(f.f23, f.f34); }},
      {"losses", "l1_loss", "target", [](Fx& f) { ts::l1_loss(f.f23, f.f34); }},
      {"losses", "l1_loss", "self", [](Fx& f) { ts::l1_loss(f.i23, f.i23); }},
      {"losses", "smooth_l1_loss", "beta",
       [](Fx& f) { ts::smooth_l1_loss(f.f23, f.f23, ts::Reduction::Mean, -1.0); }},
      {"losses", "huber_loss", "delta",
       [](Fx& f) { ts::huber_loss(f.f23, f.f23, ts::Reduction::Mean, 0.0); }},
      {"losses", "kl_div", "self", [](Fx& f) { ts::kl_div(f.i23, f.i23); }},
      {"losses", "kl_div", "reduction", [](Fx& f) { ts::kl_div(f.f23, f.f23, "batch"); },
       "torch.nn.functional.kl_div refuses it; ATen's kl_div takes an int reduction"},
      {"losses", "kl_div", "target", [](Fx& f) { ts::kl_div(f.f23, f.f34); }},
      {"losses", "cosine_similarity", "x2", [](Fx& f) { ts::cosine_similarity(f.f23, f.f34); }},
      {"losses", "cosine_similarity", "dim", [](Fx& f) { ts::cosine_similarity(f.f23, f.f23, 2); }},
      {"losses", "pairwise_distance", "x2", [](Fx& f) { ts::pairwise_distance(f.f23, f.f34); }},
      {"losses", "cosine_embedding_loss", "target",
       [](Fx& f) { ts::cosine_embedding_loss(f.f23, f.f23, f.f23); }},
      {"losses", "cosine_embedding_loss", "input1",
       [](Fx& f) { ts::cosine_embedding_loss(f.f234, f.f234, f.f3); }},
      {"losses", "margin_ranking_loss", "input2",
       [](Fx& f) { ts::margin_ranking_loss(f.f23, f.f34, f.f23); }},
      {"losses", "triplet_margin_loss", "positive",
       [](Fx& f) { ts::triplet_margin_loss(f.f23, f.f3, f.f23); }},
      {"losses", "ctc_loss", "log_probs", [](Fx& f) { ts::ctc_loss(f.f3, f.i3, {3}, {1}); }},
      {"losses", "ctc_loss", "input_lengths",
       [](Fx&) {
         ts::ctc_loss(ts::zeros({4, 2, 3}), ts::ones({2, 2}, ts::kLong), {4}, {2, 2});
       }},
      {"losses", "ctc_loss", "input_lengths",
       [](Fx&) {
         ts::ctc_loss(ts::zeros({4, 2, 3}), ts::ones({2, 2}, ts::kLong), {4, 5}, {2, 2});
       }},
      {"losses", "ctc_loss", "target_lengths",
       [](Fx&) {
         ts::ctc_loss(ts::zeros({4, 2, 3}), ts::ones({2, 2}, ts::kLong), {4, 4}, {2});
       }},
      {"losses", "ctc_loss", "blank",
       [](Fx&) {
         ts::ctc_loss(ts::zeros({4, 2, 3}), ts::ones({2, 2}, ts::kLong), {4, 4}, {2, 2}, 3);
       }},
      {"losses", "ctc_loss", "targets",
       [](Fx&) {
         ts::ctc_loss(ts::zeros({4, 2, 3}), ts::ones({2, 1}, ts::kLong), {4, 4}, {2, 2});
       }},
      {"losses", "ctc_loss", "targets",
       [](Fx&) {
         ts::ctc_loss(ts::zeros({4, 2, 3}), ts::zeros({2, 2}, ts::kLong), {4, 4}, {2, 2});
       },
       kTargets},
      {"losses", "ctc_loss", "targets",
       [](Fx&) {
         ts::ctc_loss(ts::zeros({4, 2, 3}), ts::ones({2, 2}), {4, 4}, {2, 2});
       },
       "ATen 1.13 converts floating targets to int64"},
      {"losses", "ctc_loss", "reduction",
       [](Fx&) {
         ts::ctc_loss(ts::zeros({4, 2, 3}), ts::ones({2, 2}, ts::kLong), {4, 4}, {2, 2}, 0,
                      static_cast<ts::Reduction>(4));
       },
       kReduction},
  };
}

// pooling (issue 16): errors of the per-dim composites name the composite.
std::vector<BadCall> pool_calls() {
  return {
      {"pool", "max_pool2d", "self", [](Fx& f) { ts::max_pool2d(f.f23, 2); }},
      {"pool", "max_pool2d", "kernel_size",
       [](Fx& f) {
         ts::max_pool2d(f.f234, {1, 1, 1});
       }},
      {"pool", "max_pool2d", "kernel_size", [](Fx& f) { ts::max_pool2d(f.f234, 0); }},
      {"pool", "max_pool2d", "stride", [](Fx& f) { ts::max_pool2d(f.f234, 2, 0); }},
      {"pool", "max_pool2d", "padding", [](Fx& f) { ts::max_pool2d(f.f234, 2, 1, 2); }},
      {"pool", "max_pool2d", "padding", [](Fx& f) { ts::max_pool2d(f.f234, 2, 1, -1); }},
      {"pool", "max_pool2d", "dilation",
       [](Fx& f) { ts::max_pool2d(f.f234, 2, 1, 0, ts::IntArrayRef(int64_t{0})); }},
      {"pool", "max_pool2d", "self", [](Fx& f) { ts::max_pool2d(f.f234, 5); }},
      {"pool", "max_pool1d", "self", [](Fx& f) { ts::max_pool1d(f.f3, 2); }},
      {"pool", "max_pool3d_with_indices", "self",
       [](Fx& f) { ts::max_pool3d_with_indices(f.f234, 2); }},
      {"pool", "max_pool2d", "self",
       [](Fx&) {
         ts::max_pool2d(ts::zeros({2, 3, 4}, ts::kLong), 2);
       }},
      {"pool", "avg_pool2d", "divisor_override",
       [](Fx& f) { ts::avg_pool2d(f.f234, 2, {}, 0, false, true, 0); }},
      {"pool", "avg_pool2d", "padding", [](Fx& f) { ts::avg_pool2d(f.f234, 2, 1, 3); }},
      {"pool", "avg_pool1d", "stride",
       [](Fx& f) {
         ts::avg_pool1d(f.f234, 2, {1, 1});
       }},
      {"pool", "adaptive_avg_pool2d", "output_size",
       [](Fx& f) {
         ts::adaptive_avg_pool2d(f.f234, {1, 1, 1});
       }},
      {"pool", "adaptive_avg_pool2d", "output_size",
       [](Fx& f) {
         ts::adaptive_avg_pool2d(f.f234, {-1, 1});
       }},
      {"pool", "adaptive_max_pool2d", "self",
       [](Fx& f) {
         ts::adaptive_max_pool2d(f.f3, {1, 1});
       }},
      {"pool", "adaptive_max_pool2d", "self",
       [](Fx&) {
         ts::adaptive_max_pool2d(ts::zeros({2, 0, 4}), {1, 1});
       }},
      // embedding_bag (issue 16)
      {"pool", "embedding_bag", "weight", [](Fx& f) { ts::embedding_bag(f.f3, f.idx, f.idx); }},
      {"pool", "embedding_bag", "offsets", [](Fx& f) { ts::embedding_bag(f.f34, f.idx); }},
      {"pool", "embedding_bag", "offsets",
       [](Fx& f) { ts::embedding_bag(f.f34, f.idx, ts::tensor({1}, ts::kLong)); }},
      {"pool", "embedding_bag", "mode",
       [](Fx& f) { ts::embedding_bag(f.f34, f.idx, ts::tensor({0}, ts::kLong), false, 3); }},
      {"pool", "embedding_bag", "per_sample_weights",
       [](Fx& f) {
         ts::embedding_bag(f.f34, f.idx, ts::tensor({0}, ts::kLong), false, 1, false,
                           ts::ones({2}));
       }},
      {"pool", "embedding_bag", "indices",
       [](Fx& f) { ts::embedding_bag(f.f34, f.idx_f, ts::tensor({0}, ts::kLong)); }},
  };
}

// Advanced indexing (issue 16): indices out of range (negative ones too), wrong index dtypes,
// masks of the wrong shape, mismatched dtypes and shapes of values, source and src.
std::vector<BadCall> advanced_index_calls() {
  using L = std::vector<std::optional<Tensor>>;
  const char* A = "advanced_index";
  return {
      {A, "index", "indices", [](Fx& f) { ts::index(f.f23, L{f.idx_oob}); }},
      {A, "index", "indices",
       [](Fx& f) {
         ts::index(f.f23, L{std::nullopt, f.tgt_neg});
       }},
      {A, "index", "indices", [](Fx& f) { ts::index(f.f23, L{f.idx_f}); }},
      {A, "index", "indices",
       [](Fx& f) {
         ts::index(f.f23, L{f.idx, f.idx, f.idx});
       }},
      {A, "index", "indices",
       [](Fx& f) {
         ts::index(f.f23, L{f.idx, f.i3});
       }},
      {A, "index", "indices", [](Fx& f) { ts::index(f.f34, L{f.b23}); }},
      {A, "index", "out", [](Fx& f) { ts::index_out(f.o_ei, f.f23, L{f.idx}); }},
      {A, "index_put_", "indices", [](Fx& f) { f.f23.index_put_(L{f.idx_oob}, f.f3); }},
      {A, "index_put_", "values", [](Fx& f) { f.f23.index_put_(L{f.idx}, f.d23); }},
      {A, "index_put_", "values", [](Fx& f) { f.f34.index_put_(L{f.idx}, f.f3, true); }},
      {A, "index_put_", "indices", [](Fx& f) { f.f23.index_put_(L{f.b23.select(0, 0)}, f.f3); }},
      {A, "index_put", "indices", [](Fx& f) { ts::index_put(f.f23, L{f.idx_f}, f.f3); }},
      {A, "index_add", "index",
       [](Fx& f) { ts::index_add(f.f23, 1, f.idx_oob, f.f23.narrow(1, 0, 2)); }},
      {A, "index_add_", "index",
       [](Fx& f) { f.f23.index_add_(1, f.idx_neg, f.g23.narrow(1, 0, 2)); }},
      {A, "index_add_", "index",
       [](Fx& f) { f.f23.index_add_(1, f.idx_f, f.g23.narrow(1, 0, 2)); }},
      {A, "index_add_", "source", [](Fx& f) { f.f23.index_add_(1, f.idx, f.d23.narrow(1, 0, 2)); }},
      {A, "index_add_", "source", [](Fx& f) { f.f23.index_add_(1, f.idx, f.g23); }},
      {A, "index_add_", "alpha",
       [](Fx& f) { f.i23.index_add_(1, f.idx, f.i23.narrow(1, 0, 2), 1.5); }},
      {A, "index_add", "dim", [](Fx& f) { ts::index_add(f.f23, 2, f.idx, f.f23); }},
      {A, "scatter", "index", [](Fx& f) { ts::scatter(f.f23, 1, f.gidx_oob, f.f23); }},
      {A, "scatter_", "index", [](Fx& f) { f.f23.scatter_(1, f.gidx_neg, f.g23); }},
      {A, "scatter_", "index", [](Fx& f) { f.f23.scatter_(1, f.gidx_i32, f.g23); }},
      {A, "scatter_", "src", [](Fx& f) { f.f23.scatter_(1, f.gidx, f.d23); }},
      {A, "scatter_", "value", [](Fx& f) { f.i23.scatter_(1, f.gidx, ts::Scalar(1e30)); }},
      {A, "scatter_", "reduce", [](Fx& f) { f.f23.scatter_(1, f.gidx, f.g23, "max"); }},
      {A, "scatter", "dim", [](Fx& f) { ts::scatter(f.f23, 2, f.gidx, f.f23); }},
      {A, "scatter_reduce", "reduce",
       [](Fx& f) { ts::scatter_reduce(f.f23, 1, f.gidx, f.f23, "add"); }},
      {A, "scatter_reduce_", "index",
       [](Fx& f) { f.f23.scatter_reduce_(1, f.gidx_oob, f.g23, "amax"); }},
      {A, "scatter_reduce_", "src", [](Fx& f) { f.f23.scatter_reduce_(1, f.gidx, f.d23, "prod"); }},
      {A, "masked_select", "mask", [](Fx& f) { ts::masked_select(f.f23, f.i23); }},
      {A, "masked_select", "mask", [](Fx& f) { ts::masked_select(f.f34, f.b23); }},
      {A, "masked_select", "out", [](Fx& f) { ts::masked_select_out(f.o_ei, f.f23, f.b23); }},
      {A, "nonzero", "out", [](Fx& f) { ts::nonzero_out(f.o_e, f.f23); }},
      {A, "index_put", "out", [](Fx& f) { ts::index_put_out(f.o_ei, f.f23, L{f.idx}, f.f3); },
       "ATen 1.13's index_put.out (autogenerated) copies the float result into an int64 out"},
      {A, "take", "index", [](Fx& f) { ts::take(f.f3, f.idx_oob); }},
      {A, "take", "index", [](Fx& f) { ts::take(f.f23, f.idx_f); }},
      {A, "take", "self", [](Fx& f) { ts::take(f.f03, f.idx); }},
      {A, "put_", "index", [](Fx& f) { f.f3.put_(f.idx_oob, f.f4.narrow(0, 0, 2)); }},
      {A, "put_", "source", [](Fx& f) { f.f23.put_(f.idx, f.d3.narrow(0, 0, 2)); }},
      {A, "put_", "source", [](Fx& f) { f.f23.put_(f.idx, f.f3); }},
      {A, "put", "index", [](Fx& f) { ts::put(f.f23, f.gidx_i32, f.g23); }},
      {A, "index_copy_", "index",
       [](Fx& f) { f.f23.index_copy_(1, f.idx_oob, f.g23.narrow(1, 0, 2)); }},
      {A, "index_copy_", "index",
       [](Fx& f) { f.f23.index_copy_(1, f.idx_neg, f.g23.narrow(1, 0, 2)); }},
      {A, "index_copy_", "index", [](Fx& f) { f.f23.index_copy_(1, f.idx, f.g23); }},
      {A, "index_copy", "source",
       [](Fx& f) { ts::index_copy(f.f23, 1, f.idx, f.d23.narrow(1, 0, 2)); }},
      {A, "index_copy", "index",
       [](Fx& f) { ts::index_copy(f.f23, 1, f.idx22, f.g23.narrow(1, 0, 2)); }},
      {A, "index_fill_", "index", [](Fx& f) { f.f23.index_fill_(1, f.idx_oob, 1.0); }},
      {A, "index_fill_", "index", [](Fx& f) { f.f23.index_fill_(1, f.idx_f, 1.0); }},
      {A, "index_fill", "index", [](Fx& f) { ts::index_fill(f.f23, 1, f.idx22, 1.0); }},
      {A, "index_fill_", "value", [](Fx& f) { f.f23.index_fill_(1, f.idx, f.f3); }},
      {A, "index_fill", "dim", [](Fx& f) { ts::index_fill(f.f23, 2, f.idx, 1.0); }},
      {A, "masked_scatter_", "mask", [](Fx& f) { f.f23.masked_scatter_(f.i23, f.g23); }},
      {A, "masked_scatter_", "source", [](Fx& f) { f.f23.masked_scatter_(f.b23, f.d23); }},
      {A, "masked_scatter_", "source",
       [](Fx& f) { f.f23.masked_scatter_(f.b23, f.f4.narrow(0, 0, 2)); }},
      {A, "masked_scatter_", "mask", [](Fx& f) { f.f3.masked_scatter_(f.b23, f.f23); }},
  };
}

// interpolation (issue 16): the kernel ops' and the composites' checks name the op called.
std::vector<BadCall> interpolate_calls() {
  return {
      {"interpolate", "upsample_nearest2d", "self",
       [](Fx& f) {
         ts::upsample_nearest2d(f.f234, {4, 4});
       }},
      {"interpolate", "upsample_nearest1d", "output_size",
       [](Fx& f) {
         ts::upsample_nearest1d(f.f234, {4, 4});
       }},
      {"interpolate", "upsample_nearest1d", "output_size",
       [](Fx& f) { ts::upsample_nearest1d(f.f234, {0}); }},
      {"interpolate", "upsample_linear1d", "self",
       [](Fx&) {
         ts::upsample_linear1d(ts::zeros({2, 0, 4}), {4}, false);
       }},
      {"interpolate", "upsample_bilinear2d", "self",
       [](Fx& f) {
         ts::upsample_bilinear2d(f.f234.to(ts::kLong).unsqueeze(0), {4, 4}, false);
       }},
      {"interpolate", "upsample_bicubic2d", "output_size",
       [](Fx& f) { ts::upsample_bicubic2d(f.f234.unsqueeze(0), {4}, false); }},
      {"interpolate", "_upsample_nearest_exact3d", "self",
       [](Fx& f) {
         ts::_upsample_nearest_exact3d(f.f234, {1, 1, 1});
       }},
      {"interpolate", "upsample_trilinear3d", "output_size",
       [](Fx& f) {
         ts::upsample_trilinear3d(f.f234.view({1, 1, 2, 3, 4}), {1, -1, 1}, false);
       }},
      {"interpolate", "interpolate", "scale_factor",
       [](Fx& f) { ts::interpolate(f.f234, 4, 2.0); }},
      {"interpolate", "interpolate", "align_corners",
       [](Fx& f) { ts::interpolate(f.f234, 4, {}, "nearest", false); }},
      {"interpolate", "interpolate", "input",
       [](Fx& f) { ts::interpolate(f.f234, 4, {}, "bilinear"); }},
      {"interpolate", "interpolate", "mode",
       [](Fx& f) { ts::interpolate(f.f234, 4, {}, "cubic"); }},
      {"interpolate", "interpolate", "size",
       [](Fx& f) {
         ts::interpolate(f.f234, {4, 4});
       }},
      {"interpolate", "interpolate", "recompute_scale_factor",
       [](Fx& f) { ts::interpolate(f.f234, 4, {}, "nearest", std::nullopt, true); }},
      {"interpolate", "grid_sampler", "grid",
       [](Fx& f) { ts::grid_sampler(f.f234.unsqueeze(0), f.f234.unsqueeze(0), 0, 0, false); }},
      {"interpolate", "grid_sampler", "input",
       [](Fx& f) { ts::grid_sampler(f.f234, f.f234, 0, 0, false); }},
      {"interpolate", "grid_sampler", "grid",
       [](Fx& f) {
         ts::grid_sampler(f.f234.unsqueeze(0), f.f234.unsqueeze(0).narrow(3, 0, 2).to(ts::kDouble),
                          0, 0, false);
       }},
      {"interpolate", "grid_sampler", "interpolation_mode",
       [](Fx& f) {
         ts::grid_sampler(f.f234.view({1, 2, 3, 4, 1}), ts::zeros({1, 1, 1, 1, 3}), 2, 0, false);
       }},
      {"interpolate", "grid_sampler_backward", "grad_output",
       [](Fx& f) {
         ts::grid_sampler_backward(f.f234.unsqueeze(0), f.f234.unsqueeze(0),
                                   ts::zeros({1, 2, 2, 2}), 0, 0, false);
       }},
      {"interpolate", "grid_sample", "mode",
       [](Fx& f) {
         ts::grid_sample(f.f234.unsqueeze(0), ts::zeros({1, 2, 2, 2}), "linear");
       }},
      {"interpolate", "grid_sample", "padding_mode",
       [](Fx& f) {
         ts::grid_sample(f.f234.unsqueeze(0), ts::zeros({1, 2, 2, 2}), "bilinear", "circular");
       }},
      {"interpolate", "affine_grid", "size",
       [](Fx& f) {
         ts::affine_grid(f.f234.narrow(1, 0, 2), {2, 1, 4});
       }},
      {"interpolate", "affine_grid", "theta",
       [](Fx& f) {
         ts::affine_grid(f.f234, {2, 1, 4, 4});
       }},
  };
}

std::vector<BadCall> catalogue() {
  std::vector<BadCall> all;
  for (auto family :
       {unary_calls,      binary_calls,  compare_calls,   ternary_calls,  reduce_calls,
        nn_calls,         norm_calls,    loss_calls,      linalg_calls,   index_calls,
        shape_calls,      factory_calls, copy_view_calls, autograd_calls, device_calls,
        conv_calls,       sort_calls,    loss16_calls,    pool_calls,     advanced_index_calls,
        interpolate_calls}) {
    for (BadCall& c : family()) all.push_back(c);
  }
  return all;
}

// ---- the snapshot ----

// Everything a refused call must leave as it was: the storage (identity, size, every byte), the
// geometry, dtype, device, version counter and autograd state, and the gradient's own state.
struct TensorState {
  bool defined = false;
  const void* storage = nullptr;
  std::vector<char> bytes;
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
  ts::ScalarType dtype = ts::ScalarType::Undefined;
  std::string device;
  uint32_t version = 0;
  bool requires_grad = false;
  const void* grad_fn = nullptr;
  std::vector<TensorState> grad;  // none or one

  static TensorState of(const Tensor& t, bool with_grad = true) {
    TensorState s;
    s.defined = t.defined();
    if (!s.defined) return s;
    s.storage = t.storage().get();
    const char* data = static_cast<const char*>(t.storage()->data());
    s.bytes.assign(data, data + t.storage()->nbytes());  // host memory, stand-in device too
    s.sizes = t.sizes().vec();
    s.strides = t.strides().vec();
    s.offset = t.storage_offset();
    s.dtype = t.dtype();
    std::ostringstream dev;
    dev << t.device();
    s.device = dev.str();
    s.version = t._version();
    s.requires_grad = t.requires_grad();
    s.grad_fn = t.grad_fn().get();
    if (with_grad && t.grad().defined()) s.grad.push_back(of(t.grad(), false));
    return s;
  }

  // What differs from `after`, or "" when nothing does.
  std::string diff(const TensorState& after) const {
    std::ostringstream d;
    if (defined != after.defined) return "defined changed";
    if (!defined) return "";
    if (storage != after.storage) d << " storage replaced;";
    if (bytes != after.bytes) d << " storage bytes changed;";
    if (sizes != after.sizes) d << " sizes changed;";
    if (strides != after.strides) d << " strides changed;";
    if (offset != after.offset) d << " offset changed;";
    if (dtype != after.dtype) d << " dtype changed;";
    if (device != after.device) d << " device changed;";
    if (version != after.version) d << " version " << version << " -> " << after.version << ";";
    if (requires_grad != after.requires_grad) d << " requires_grad changed;";
    if (grad_fn != after.grad_fn) d << " grad_fn changed;";
    if (grad.size() != after.grad.size()) {
      d << " grad defined changed;";
    } else if (!grad.empty()) {
      const std::string g = grad[0].diff(after.grad[0]);
      if (!g.empty()) d << " grad:" << g;
    }
    return d.str();
  }
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Runs one entry on a fresh fixture; returns what is wrong with it, or "".
std::string check(const BadCall& c) {
  Fx f;
  std::vector<TensorState> before;
  for (const auto& [name, t] : f.tensors()) before.push_back(TensorState::of(*t));
  std::string message;
  try {
    c.call(f);
    return "no error was thrown";
  } catch (const ts::Error& e) {
    message = e.what();
  } catch (const std::exception& e) {
    return std::string("threw a non-ts::Error: ") + e.what();
  }
  if (std::getenv("TS_BAD_INPUTS_PRINT") != nullptr) {
    std::cout << c.family << " " << c.op << " (" << c.arg << "): " << message << "\n";
  }
  std::string problems;
  const std::string prefix = std::string(c.op) + ": ";
  if (!message.starts_with(prefix)) {
    problems += "\n  the message does not start with '" + prefix + "'";
  }
  if (lower(message.substr(std::min(prefix.size(), message.size()))).find(lower(c.arg)) ==
      std::string::npos) {
    problems += "\n  the message does not name '" + std::string(c.arg) + "'";
  }
  if (message.find("torch.") != std::string::npos) problems += "\n  the message says 'torch.'";
  size_t i = 0;
  for (const auto& [name, t] : f.tensors()) {
    const std::string d = before[i++].diff(TensorState::of(*t));
    if (!d.empty()) problems += "\n  fixture tensor '" + std::string(name) + "':" + d;
  }
  return problems.empty() ? "" : problems + "\n  message: " + message;
}

class BadInputs : public ::testing::TestWithParam<const char*> {};

// Every entry, under each kernel set (the checks are shared meta, so both must refuse alike).
TEST_P(BadInputs, EveryCallIsRefusedAndChangesNothing) {
  ts::KernelSetGuard guard(GetParam());
  int checked = 0;
  for (const BadCall& c : catalogue()) {
    if (std::string_view(c.family) == "device" && !stand_in_device()) continue;
    const std::string problem = check(c);
    EXPECT_EQ(problem, "") << c.family << " entry " << c.op << " (" << c.arg << ")";
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(KernelSets, BadInputs, ::testing::Values("reference", "optimized"));

// The catalogue covers every family with at least 200 calls; the counts are printed.
TEST(BadInputCatalogue, CoversEveryFamily) {
  std::map<std::string, int> per_family;
  int ts_only = 0;
  for (const BadCall& c : catalogue()) {
    ++per_family[c.family];
    ts_only += c.ts_only != nullptr;
  }
  int total = 0;
  for (const auto& [family, n] : per_family) {
    std::cout << "  " << family << ": " << n << "\n";
    total += n;
  }
  std::cout << "  total: " << total << " (" << ts_only << " refused by touchstone alone)\n";
  EXPECT_GE(total, 200);
  for (const char* family :
       {"unary", "binary", "compare", "ternary", "reduce", "nn", "losses", "linalg", "index",
        "factories", "copy", "views", "autograd", "device", "conv"}) {
    EXPECT_GE(per_family[family], 5) << family;
  }
}

// ---- calls ATen accepts are accepted ----

// ATen converts any Scalar to bool as value != 0; touchstone used to refuse values other than
// 0 and 1 ("fill_: value cannot be converted to type bool without overflow").
TEST(ScalarArguments, AnyValueConvertsToBool) {
  const Tensor b = ts::zeros({3}, ts::kBool);
  b.fill_(2);
  EXPECT_TRUE(ts::all(b).item<bool>());
  b.fill_(0);
  b.fill_(std::nan(""));
  EXPECT_TRUE(ts::all(b).item<bool>());
  EXPECT_TRUE(ts::all(ts::full({2}, -1, ts::kBool)).item<bool>());
  const Tensor m = ts::masked_fill(ts::zeros({2}, ts::kBool), ts::ones({2}, ts::kBool), 0.5);
  EXPECT_TRUE(ts::all(m).item<bool>());
  EXPECT_FALSE(ts::any(ts::full({2}, 0.0, ts::kBool)).item<bool>());
}

// ---- Note [Errors name the op the user called] ----

using ts::testing::error_text;

TEST(UserOpScope, OutermostScopePrefixesInnerErrors) {
  EXPECT_EQ(error_text([] {
              const ts::UserOpScope outer("outer");
              const ts::UserOpScope inner("inner");
              TS_ERROR("add: something");
            }),
            "outer: add: something");
}

TEST(UserOpScope, MessageNamingTheScopeIsLeftAlone) {
  EXPECT_EQ(error_text([] {
              const ts::UserOpScope scope("linear");
              TS_ERROR("linear: bad weight");
            }),
            "linear: bad weight");
  // A longer op name that merely starts with the scope's is still prefixed.
  EXPECT_EQ(error_text([] {
              const ts::UserOpScope scope("add");
              TS_ERROR("add_: x");
            }),
            "add: add_: x");
}

TEST(UserOpScope, ScopeEndsWithItsOpEvenWhenUnwound) {
  EXPECT_EQ(error_text([] {
              const ts::UserOpScope scope("zeros");
              TS_ERROR("empty: x");
            }),
            "zeros: empty: x");
  EXPECT_EQ(error_text([] { TS_ERROR("empty: x"); }), "empty: x");
}

// parallel_for's worker threads inherit the caller's op.
TEST(UserOpScope, WorkerThreadErrorsNameTheOp) {
  const int threads = ts::get_num_threads();
  ts::set_num_threads(2);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> worker_threw{false};
  std::string message;
  try {
    const ts::UserOpScope scope("outer");
    ts::parallel_for(0, 2, 1, [&](int64_t, int64_t) {
      if (std::this_thread::get_id() == caller) {
        // Hold the caller's piece until the worker has claimed the other one (Note [Claimed
        // pieces]: otherwise the caller may run both).
        const auto start = std::chrono::steady_clock::now();
        while (!worker_threw &&
               std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
          std::this_thread::yield();
        }
        return;
      }
      worker_threw = true;
      TS_ERROR("inner: boom");
    });
  } catch (const ts::Error& e) {
    message = e.what();
  }
  ts::set_num_threads(threads);
  EXPECT_TRUE(worker_threw.load()) << "no worker thread ran a piece within 10 s";
  EXPECT_EQ(message, "outer: inner: boom");
}

// Composites keep the inner op as context; before the scopes these errors named the inner op.
TEST(UserOpScope, CompositesNameTheOpTheUserCalled) {
  EXPECT_EQ(error_text([] {
              ts::zeros({2, -3});
            }),
            "zeros: empty: Trying to create tensor with negative dimension -3: [2, -3]");
  EXPECT_EQ(error_text([] {
              ts::cross_entropy(ts::zeros({2, 3}), ts::tensor({0, 3}, ts::kLong));
            }),
            "cross_entropy: nll_loss: Target 3 is out of bounds.");
  EXPECT_EQ(error_text([] {
              ts::stack_out(ts::zeros({0}, ts::kLong), {ts::zeros({2}), ts::zeros({2})});
            }),
            "stack: cat: result type float32 can't be cast to the desired output type int64 "
            "(argument 'out')");
  EXPECT_EQ(error_text([] { ts::ones({3}).requires_grad_().zero_(); }),
            "zero_: fill_: a leaf Variable that requires grad is being used in an in-place "
            "operation (argument 'self').");
}

// Every Composite op of op_list.def, each provoking an error inside one of its parts (or the
// allocator, which names nothing): the message starts with the composite, then the part.
struct CompositeError {
  const char* op;
  const char* inner;  // the part named after the op ("" for the allocator)
  std::function<void()> call;
};

// A float32 [2^61, 2] view of one element: a contiguous copy's 2^64 bytes overflow.
Tensor huge_view() {
  return ts::zeros({1, 1}).expand({int64_t{1} << 61, 2});
}

TEST(UserOpScope, EveryCompositeNamesItselfBeforeItsParts) {
  const Tensor f = ts::zeros({2, 3});
  const Tensor longs = ts::zeros({2}, ts::kLong);
  const std::vector<CompositeError> cases = {
      {"empty", "", [] { ts::empty({-1}); }},
      {"empty_strided", "", [] { ts::empty_strided({2}, {-1}); }},
      {"zeros", "empty",
       [] {
         ts::zeros({2, -3});
       }},
      {"ones", "empty", [] { ts::ones({-2}); }},
      {"full", "fill_", [] { ts::full({2}, 1e300, ts::kHalf); }},
      {"empty_like", "empty", [] { ts::empty_like(huge_view()); }},
      {"zeros_like", "empty", [] { ts::zeros_like(huge_view()); }},
      {"ones_like", "empty", [] { ts::ones_like(huge_view()); }},
      {"full_like", "fill_", [&] { ts::full_like(f, 1e300, ts::TensorOptions(ts::kHalf)); }},
      {"tensor", "", [] { ts::tensor({300}, ts::kByte); }},
      {"rand_like", "rand", [&] { ts::rand_like(longs); }},
      {"randn_like", "randn", [&] { ts::randn_like(longs); }},
      {"clone", "empty", [] { huge_view().clone(); }},
      {"contiguous", "empty", [] { huge_view().contiguous(); }},
      {"to", "empty", [] { huge_view().to(ts::kDouble); }},
      {"zero_", "fill_", [] { ts::ones({3}).requires_grad_().zero_(); }},
      {"cross_entropy", "nll_loss",
       [&] {
         ts::cross_entropy(f, ts::tensor({0, 1}, ts::kLong), ts::zeros({2}));
       }},
      {"linear", "empty",
       [] {
         ts::linear(huge_view(), ts::zeros({4, 2}));
       }},
      {"dropout", "empty", [] { ts::dropout(huge_view(), 0.5, true); }},
      {"matmul", "empty",
       [] {
         ts::matmul(huge_view(), ts::zeros({2, 4}));
       }},
      {"stack", "cat",
       [] {
         ts::stack_out(ts::zeros({0}, ts::kLong), {ts::zeros({2}), ts::zeros({2})});
       }},
      // math (issue 16)
      {"square", "empty_strided", [] { huge_view().square(); }},
      {"isclose", "eq", [] { ts::isclose(ts::zeros({2}), ts::zeros({3})); }},
      // activations (issue 16)
      {"selu", "elu", [&] { ts::selu(longs); }},
      {"celu", "elu", [&] { ts::celu(longs); }},
      {"softsign", "abs", [] { ts::softsign(ts::zeros({2}, ts::kBool)); }},
      // convolution (issue 16)
      {"conv1d", "convolution",
       [] {
         ts::conv1d(ts::zeros({1, 2, 5}), ts::zeros({3, 1, 3}));
       }},
      {"conv2d", "convolution",
       [] {
         ts::conv2d(ts::zeros({1, 2, 5, 5}), ts::zeros({3, 1, 3, 3}));
       }},
      {"conv3d", "convolution",
       [] {
         ts::conv3d(ts::zeros({1, 2, 5, 5, 5}), ts::zeros({3, 1, 3, 3, 3}));
       }},
      {"conv_transpose1d", "convolution",
       [] {
         ts::conv_transpose1d(ts::zeros({1, 2, 5}), ts::zeros({3, 1, 3}));
       }},
      {"conv_transpose2d", "convolution",
       [] {
         ts::conv_transpose2d(ts::zeros({1, 2, 5, 5}), ts::zeros({3, 1, 3, 3}));
       }},
      {"conv_transpose3d", "convolution",
       [] {
         ts::conv_transpose3d(ts::zeros({1, 2, 5, 5, 5}), ts::zeros({3, 1, 3, 3, 3}));
       }},
      // normalization, embedding, attention, gated activations (issue 16)
      {"rms_norm", "empty_strided", [] { ts::rms_norm(huge_view(), {2}); }},
      {"instance_norm", "batch_norm",
       [] {
         ts::instance_norm(ts::zeros({1, 2, 1}), {}, {}, {}, {}, true);
       }},
      {"local_response_norm", "empty_strided",
       [] { ts::local_response_norm(huge_view().unsqueeze(2), 2); }},
      {"one_hot", "empty", [] { ts::one_hot(ts::zeros({2}, ts::kLong), int64_t{1} << 62); }},
      {"scaled_dot_product_attention", "add",
       [&] { ts::scaled_dot_product_attention(f, f, f, ts::zeros({4})); }},
      {"glu", "empty_strided", [] { ts::glu(huge_view(), 1); }},
      // The output is allocated through empty_strided or resized in place, by kernel set.
      {"prelu", "", [] { ts::prelu(huge_view(), ts::zeros({1})); }},
      // shape (issue 16)
      {"trace", "", [] { ts::trace(ts::zeros({3})); }},
      {"diag", "",
       [] {
         ts::diag(ts::zeros({2, 2, 2}));
       }},
      {"repeat", "",
       [] {
         huge_view().repeat({1, 1});
       }},
      {"tile", "", [] { ts::tile(huge_view(), {1}); }},
      {"diff", "", [] { ts::diff(huge_view(), 1, 0); }},
      {"kron", "", [] { ts::kron(huge_view(), ts::zeros({2})); }},
      {"baddbmm", "bmm",
       [] {
         ts::baddbmm(ts::zeros({1, 2, 2}), ts::zeros({1, 2, 3}), ts::zeros({1, 2, 2}));
       }},
      {"addbmm", "addmm",
       [] {
         const Tensor b = ts::zeros({1, 2, 2}, ts::kByte);
         ts::addbmm(ts::zeros({2, 2}, ts::kByte), b, b, 300);
       }},
      {"addmv", "addmm",
       [] {
         ts::addmv(ts::zeros({2}, ts::kByte), ts::zeros({2, 2}, ts::kByte),
                   ts::zeros({2}, ts::kByte), 300);
       }},
      // sorting and selection (issue 16)
      {"argsort", "sort", [] { ts::argsort(ts::zeros({2}), 3); }},
      // losses (issue 16)
      {"binary_cross_entropy_with_logits", "",
       [] { ts::binary_cross_entropy_with_logits(huge_view(), huge_view()); }},
      {"l1_loss", "", [] { ts::l1_loss(huge_view(), huge_view()); }},
      {"smooth_l1_loss", "", [] { ts::smooth_l1_loss(huge_view(), huge_view()); }},
      {"huber_loss", "", [] { ts::huber_loss(huge_view(), huge_view()); }},
      {"kl_div", "", [] { ts::kl_div(huge_view(), huge_view()); }},
      {"cosine_similarity", "", [] { ts::cosine_similarity(huge_view(), huge_view()); }},
      {"pairwise_distance", "", [] { ts::pairwise_distance(huge_view(), huge_view()); }},
      {"cosine_embedding_loss", "",
       [] {
         ts::cosine_embedding_loss(huge_view(), huge_view(),
                                   ts::ones({1}).expand({int64_t{1} << 61}));
       }},
      {"margin_ranking_loss", "",
       [] { ts::margin_ranking_loss(huge_view(), huge_view(), huge_view()); }},
      {"triplet_margin_loss", "",
       [] { ts::triplet_margin_loss(huge_view(), huge_view(), huge_view()); }},
      // pooling (issue 16): the composites check their arguments themselves and run the kernel
      // op's kernel; the allocator's refusal of the output names the composite alone.
      {"max_pool1d", "", [] { ts::max_pool1d(huge_view(), 1); }},
      {"max_pool2d", "", [] { ts::max_pool2d(huge_view().unsqueeze(0), 1); }},
      {"max_pool3d", "", [] { ts::max_pool3d(huge_view().unsqueeze(0).unsqueeze(0), 1); }},
      {"max_pool1d_with_indices", "", [] { ts::max_pool1d_with_indices(huge_view(), 1); }},
      {"max_pool2d_with_indices", "",
       [] { ts::max_pool2d_with_indices(huge_view().unsqueeze(0), 1); }},
      {"max_pool3d_with_indices", "",
       [] { ts::max_pool3d_with_indices(huge_view().unsqueeze(0).unsqueeze(0), 1); }},
      {"avg_pool1d", "", [] { ts::avg_pool1d(huge_view(), 1); }},
      {"avg_pool2d", "", [] { ts::avg_pool2d(huge_view().unsqueeze(0), 1); }},
      {"avg_pool3d", "", [] { ts::avg_pool3d(huge_view().unsqueeze(0).unsqueeze(0), 1); }},
      // interpolation (issue 16): ATen's per-dim forms check their arguments themselves;
      // interpolate's kernel op names itself after it, affine_grid checks theta and size.
      {"upsample_nearest1d", "", [] { ts::upsample_nearest1d(huge_view(), {4}); }},
      {"upsample_nearest2d", "",
       [] {
         ts::upsample_nearest2d(huge_view(), {4, 4});
       }},
      {"upsample_nearest3d", "",
       [] {
         ts::upsample_nearest3d(huge_view(), {4, 4, 4});
       }},
      {"_upsample_nearest_exact1d", "", [] { ts::_upsample_nearest_exact1d(huge_view(), {4}); }},
      {"_upsample_nearest_exact2d", "",
       [] {
         ts::_upsample_nearest_exact2d(huge_view(), {4, 4});
       }},
      {"_upsample_nearest_exact3d", "",
       [] {
         ts::_upsample_nearest_exact3d(huge_view(), {4, 4, 4});
       }},
      {"upsample_linear1d", "", [] { ts::upsample_linear1d(huge_view(), {4}, false); }},
      {"upsample_bilinear2d", "",
       [] {
         ts::upsample_bilinear2d(huge_view(), {4, 4}, false);
       }},
      {"upsample_trilinear3d", "",
       [] {
         ts::upsample_trilinear3d(huge_view(), {4, 4, 4}, false);
       }},
      {"interpolate", "upsample_nearest",
       [] {
         ts::interpolate(ts::zeros({1, 1, 4}), std::vector<int64_t>{0});
       }},
      {"affine_grid", "",
       [] {
         ts::affine_grid(ts::zeros({1, 2, 3}), {1, 1, 2});
       }},
      {"grid_sample", "",
       [] {
         ts::grid_sample(ts::zeros({1, 1, 2, 2}), ts::zeros({1, 2, 2, 3}));
       }},
      // repeat_interleave, padding, meshgrid, einsum, tensordot (issue 16)
      {"repeat_interleave_self", "repeat_interleave",
       [] {
         ts::repeat_interleave(ts::zeros({3}), ts::tensor({1, -1, 0}, ts::kLong), 0);
       }},
      {"constant_pad_nd", "fill_",
       [] {
         ts::constant_pad_nd(ts::zeros({2}, ts::kHalf), {1, 1}, 1e300);
       }},
      {"reflection_pad1d", "",
       [] {
         ts::reflection_pad1d(ts::zeros({2}), {1, 1});
       }},
      {"reflection_pad2d", "",
       [] {
         ts::reflection_pad2d(ts::zeros({2}), {1, 1, 1, 1});
       }},
      {"reflection_pad3d", "",
       [] {
         ts::reflection_pad3d(ts::zeros({2}), {1, 1, 1, 1, 1, 1});
       }},
      {"replication_pad1d", "",
       [] {
         ts::replication_pad1d(ts::zeros({2}), {1, 1});
       }},
      {"replication_pad2d", "",
       [] {
         ts::replication_pad2d(ts::zeros({2}), {1, 1, 1, 1});
       }},
      {"replication_pad3d", "",
       [] {
         ts::replication_pad3d(ts::zeros({2}), {1, 1, 1, 1, 1, 1});
       }},
      {"_pad_circular", "",
       [] {
         ts::_pad_circular(ts::zeros({2, 3}), {5, 0});
       }},
      {"pad", "constant_pad_nd",
       [] {
         ts::pad(ts::zeros({2, 3}), {-4, 0});
       }},
      {"meshgrid", "",
       [] {
         ts::meshgrid({ts::zeros({2, 2})});
       }},
      {"einsum", "", [] { ts::einsum("ij", {ts::zeros({2})}); }},
      {"tensordot", "mm",
       [] {
         ts::tensordot(ts::zeros({2, 2}, ts::kBool), ts::zeros({2, 2}, ts::kBool), 1);
       }},
  };
  std::set<std::string> composites;
#define TS_OP(name, kind, ...) \
  if (std::string_view(#kind) == "Composite") composites.insert(#name);
#include "touchstone/op_list.def"
#undef TS_OP
  std::set<std::string> covered;
  for (const CompositeError& c : cases) {
    SCOPED_TRACE(c.op);
    covered.insert(c.op);
    const std::string message = error_text(c.call);
    const std::string prefix =
        std::string(c.op) + ": " + (*c.inner ? std::string(c.inner) + ": " : "");
    EXPECT_TRUE(message.starts_with(prefix)) << message;
  }
  EXPECT_EQ(covered, composites);
}

// The autograd engine's messages name the call the user made; ATen 1.13's text follows it
// (ATen: "only Tensors of floating point and complex dtype can require gradients", "grad can be
// implicitly created only for scalar outputs", "a leaf Variable that requires grad is being used
// in an in-place operation.").
TEST(UserOpScope, AutogradEngineErrorsNameTheCall) {
  const Tensor longs = ts::zeros({2}, ts::kLong);
  EXPECT_EQ(error_text([&] { longs.requires_grad_(); }),
            "requires_grad_: only Tensors of floating point dtype can require gradients (got "
            "int64)");
  const Tensor x = ts::ones({2}).requires_grad_();
  EXPECT_EQ(error_text([&] { (x * 2).backward(); }),
            "backward: grad can be implicitly created only for scalar outputs; pass a gradient "
            "for output 0 of shape [2]");
  EXPECT_EQ(error_text([&] { x.add_(1); }),
            "add_: a leaf Variable that requires grad is being used in an in-place operation "
            "(argument 'self').");
  EXPECT_EQ(error_text([] { ts::ones({2}).sum().backward(); }),
            "backward: element 0 of tensors does not require grad and does not have a grad_fn");
  const Tensor h = x * 1;
  const Tensor y = (h * h).sum();
  h.add_(1);
  EXPECT_TRUE(error_text([&] { y.backward(); })
                  .starts_with("backward: one of the variables needed for gradient computation "
                               "has been modified by an inplace operation"));
}

}  // namespace
