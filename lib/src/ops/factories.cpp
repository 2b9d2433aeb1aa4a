// Factories: fills (zeros, ones, full and the *_like forms), tensors from values, and meta for the
// kernel factories (arange, linspace, eye, rand, randn, randint).
// Params (compute_dtype is always the output dtype; the output is a fresh contiguous tensor):
//   arange:   ArangeParams{start, end, step}: int64 Scalars (truncated, as ATen) for integral
//             dtypes, doubles for floating ones; end is unused by kernels (the size is the
//             output's).
//   linspace: LinspaceParams{start, end (as given), steps}.
//   eye:      NoParams (n and m are the output's sizes).
//   rand, randn: RandomParams{seed, offset} (see Note [Philox streams] in touchstone/random.h).
//   randint:  RandintParams{seed, offset, low, high}.
#include <cmath>
#include <limits>
#include <utility>

#include "meta.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/ops.h"
#include "touchstone/random.h"

namespace ts {
namespace {

// The dtypes op_list.def defines a factory for, named as the `dtype` argument.
void check_dtype(OpId op, ScalarType dtype) {
  meta::check_dtype_supported(op_info(op).name.data(), dtype, op_info(op).dtypes, "dtype");
}

// The Philox state of a random factory's call (RandintParams extends RandomParams), or null.
RandomParams* random_params(OpParams& p) {
  if (auto* r = std::get_if<RandintParams>(&p.args)) return r;
  return std::get_if<RandomParams>(&p.args);
}

// Checks, looks the kernel up, allocates, reserves Philox counters for a random op (one whose
// params are RandomParams), then runs it. Nothing is allocated or reserved when a check or the
// lookup fails.
Tensor run_factory(OpId op, IntArrayRef shape, ScalarType dtype, Device device, OpParams& p) {
  const char* name = op_info(op).name.data();
  const UserOpScope scope(name);
  for (int64_t s : shape) {
    TS_CHECK(s >= 0, name, ": Trying to create tensor with negative dimension ", s, ": ", shape);
  }
  p.compute_dtype = dtype;
  const KernelFn fn = lookup_kernel(op, dtype, device);
  Tensor out = empty(shape, TensorOptions(dtype).device(device));
  if (RandomParams* r = random_params(p)) {
    const PhiloxState s = reserve_philox_counters(static_cast<uint64_t>(out.numel()));
    r->seed = s.seed;
    r->offset = s.offset;
  }
  run_kernel(fn, KernelCall{op, ArrayRef<Tensor>(&out, 1), {}, p});
  return out;
}

// The options of a *_like factory, as empty_like resolves them.
TensorOptions like_options(const Tensor& self, const std::optional<TensorOptions>& options) {
  TensorOptions o = self.options();
  if (options && options->has_dtype()) o = o.dtype(options->dtype());
  if (options && options->has_device()) o = o.device(options->device());
  return o;
}

Tensor filled(Tensor t, const Scalar& value) {
  meta::fill_new(t, value);  // a fresh tensor: a Functional call
  return t;
}

// ---- arange ----

// A bound truncated to int64 for an integral dtype (as ATen's Scalar::to<int64_t>); doubles
// outside int64 are refused before the conversion could overflow.
int64_t arange_bound(const Scalar& s, const Scalar& start, const Scalar& end) {
  if (!s.is_floating_point()) return s.to_long();
  const double v = s.to_double();
  TS_CHECK(v >= -9223372036854775808.0 && v < 9223372036854775808.0,
           "arange: unsupported range: ", start, " -> ", end);
  return static_cast<int64_t>(v);
}

// Note [arange size]
// As current ATen: the bounds are checked in double; the size is ceil((end - start) / step),
// counted exactly in integers when start, end and step are all integral (int64 has more
// precision than double), else in double. The values are start + i * step in double, or for an
// integral dtype in int64 with each bound truncated first, so a fractional step must not
// truncate to 0 there (ATen would repeat start; we refuse, as ATen's int64 path does).
int64_t arange_size_int64(int64_t start, int64_t end, int64_t step) {
  const bool up = step > 0;
  const uint64_t diff = up ? static_cast<uint64_t>(end) - static_cast<uint64_t>(start)
                           : static_cast<uint64_t>(start) - static_cast<uint64_t>(end);
  const uint64_t astep = up ? static_cast<uint64_t>(step) : 0 - static_cast<uint64_t>(step);
  const uint64_t n = diff / astep + (diff % astep != 0 ? 1 : 0);
  TS_CHECK(n <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
           "arange: invalid size, possible overflow?");
  return static_cast<int64_t>(n);
}

}  // namespace

Tensor zeros(IntArrayRef size, TensorOptions options) {
  const UserOpScope scope("zeros");
  return filled(empty(size, options), 0);
}

Tensor ones(IntArrayRef size, TensorOptions options) {
  const UserOpScope scope("ones");
  return filled(empty(size, options), 1);
}

Tensor full(IntArrayRef size, const Scalar& fill_value, TensorOptions options) {
  const UserOpScope scope("full");
  if (!options.has_dtype()) {
    options = options.dtype(fill_value.is_bool()            ? kBool
                            : fill_value.is_integral(false) ? kLong
                                                            : kDefaultDtype);
  }
  return filled(empty(size, options), fill_value);
}

// Unlike full(), scalar_tensor's dtype defaults to the default float dtype (as in PyTorch).
Tensor scalar_tensor(const Scalar& value, TensorOptions options) {
  const UserOpScope scope("scalar_tensor");
  return filled(empty({}, options), value);
}

Tensor zeros_like(const Tensor& self, std::optional<TensorOptions> options) {
  const UserOpScope scope("zeros_like");
  return filled(empty_like(self, options), 0);
}

Tensor ones_like(const Tensor& self, std::optional<TensorOptions> options) {
  const UserOpScope scope("ones_like");
  return filled(empty_like(self, options), 1);
}

Tensor full_like(const Tensor& self, const Scalar& fill_value,
                 std::optional<TensorOptions> options) {
  const UserOpScope scope("full_like");
  return filled(empty_like(self, options), fill_value);
}

Tensor arange(const Scalar& end, TensorOptions options) {
  return arange(0, end, 1, options);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options) {
  const bool all_integral =
      start.is_integral(true) && end.is_integral(true) && step.is_integral(true);
  const ScalarType dtype = options.dtype_or(all_integral ? kLong : kDefaultDtype);
  check_dtype(OpId::arange, dtype);
  const double dstart = start.to_double(), dend = end.to_double(), dstep = step.to_double();
  TS_CHECK(dstep > 0 || dstep < 0, "arange: step must be nonzero");
  TS_CHECK(std::isfinite(dstart) && std::isfinite(dend), "arange: unsupported range: ", start,
           " -> ", end);
  TS_CHECK((dstep > 0 && dend >= dstart) || (dstep < 0 && dend <= dstart),
           "arange: upper bound and larger bound inconsistent with step sign");
  int64_t size = 0;  // see Note [arange size]
  if (all_integral) {
    size = arange_size_int64(start.to_long(), end.to_long(), step.to_long());
  } else {
    const double size_d = std::ceil((dend - dstart) / dstep);
    TS_CHECK(size_d >= 0 && size_d < 9223372036854775808.0,
             "arange: invalid size, possible overflow?");
    size = static_cast<int64_t>(size_d);
  }
  OpParams p;
  if (is_integral_type(dtype, false)) {
    const ArangeParams& a =
        p.set(ArangeParams{arange_bound(start, start, end), arange_bound(end, start, end),
                           arange_bound(step, start, end)});
    TS_CHECK(a.step.to_long() != 0, "arange: step must be nonzero");
  } else {
    p.set(ArangeParams{dstart, dend, dstep});
  }
  return run_factory(OpId::arange, {size}, dtype, options.device(), p);
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, TensorOptions options) {
  TS_CHECK(steps >= 0, "linspace: number of steps must be non-negative, but got ", steps);
  const ScalarType dtype = options.dtype();
  // 0 or 1 steps reach no kernel: a bool result is empty or start (Note [Nothing to compute]).
  if (meta::needs_no_kernel(OpId::linspace, dtype, steps <= 1)) {
    const UserOpScope scope("linspace");
    Tensor t = empty({steps}, options);
    if (steps == 1) meta::fill_new(t, start);
    return t;
  }
  check_dtype(OpId::linspace, dtype);
  // An integer dtype would convert a NaN or infinite bound to an unspecified integer.
  if (!is_floating_type(dtype)) {
    for (const auto& [bound, arg] : {std::pair{&start, "start"}, std::pair{&end, "end"}}) {
      TS_CHECK(!bound->is_floating_point() || std::isfinite(bound->to_double()), "linspace: ", arg,
               " must be finite for the integer dtype ", dtype, ", but got ", bound->to_double(),
               " (argument '", arg, "')");
    }
  }
  OpParams p;
  p.set(LinspaceParams{start, end, steps});
  return run_factory(OpId::linspace, {steps}, dtype, options.device(), p);
}

Tensor eye(int64_t n, TensorOptions options) {
  return eye(n, n, options);
}

Tensor eye(int64_t n, int64_t m, TensorOptions options) {
  TS_CHECK(n >= 0, "eye: n must be greater or equal to 0, got ", n);
  TS_CHECK(m >= 0, "eye: m must be greater or equal to 0, got ", m);
  OpParams p;
  return run_factory(OpId::eye, {n, m}, options.dtype(), options.device(), p);
}

// ---- tensor(values) ----
namespace {

// Note [tensor() integer conversion]
// A floating value converts to an integral dtype as a cast: truncated, then kept modulo 2^bits
// (ATen 1.13: tensor(-2.0, uint8) is 254, tensor(-129.7, int8) 127). 1.13 casts straight to a
// 32-bit int (1e10 as int32 is INT_MIN there; here 10^10 mod 2^32), an undefined C++ conversion:
// touchstone goes through int64 and refuses a value outside it, or NaN. An integer value that
// does not fit is refused, as torch.tensor([300], dtype=torch.uint8) does (at::tensor wraps).
template <typename Out, typename In>
Out convert_value(In v, ScalarType dtype) {
  if constexpr (std::is_same_v<Out, bool>) {
    return v != In(0);
  } else if constexpr (std::is_integral_v<Out>) {
    bool ok;
    int64_t i;
    if constexpr (std::is_floating_point_v<In>) {
      const double t = std::trunc(static_cast<double>(v));
      ok = t >= -0x1p63 && t < 0x1p63;
      i = ok ? static_cast<int64_t>(t) : 0;
    } else {
      i = static_cast<int64_t>(v);
      ok = i >= static_cast<int64_t>(std::numeric_limits<Out>::lowest()) &&
           (i < 0 ||
            static_cast<uint64_t>(i) <= static_cast<uint64_t>(std::numeric_limits<Out>::max()));
    }
    TS_CHECK(ok, "tensor: value cannot be converted to type ", dtype, " without overflow");
    return static_cast<Out>(i);  // modulo 2^bits (C++20)
  } else if constexpr (std::is_same_v<Out, Half> || std::is_same_v<Out, BFloat16>) {
    return Out(static_cast<float>(v));
  } else {
    return static_cast<Out>(v);
  }
}

template <typename T>
Tensor tensor_from(ArrayRef<T> values, TensorOptions options, ScalarType inferred) {
  const UserOpScope scope("tensor");
  const ScalarType dtype = options.dtype_or(inferred);
  const int64_t n = static_cast<int64_t>(values.size());
  Tensor cpu = empty({n}, dtype);
  TS_DISPATCH_ALL_DTYPES(dtype, "tensor", [&] {
    scalar_t* out = static_cast<scalar_t*>(cpu.data_ptr());
    for (size_t i = 0; i < values.size(); ++i) out[i] = convert_value<scalar_t>(values[i], dtype);
  });
  if (options.device().is_cpu()) return cpu;
  Tensor t = empty({n}, TensorOptions(dtype).device(options.device()));
  meta::copy_into_new(t, cpu);
  return t;
}

}  // namespace

Tensor tensor(ArrayRef<double> values, TensorOptions options) {
  return tensor_from(values, options, kDefaultDtype);
}
Tensor tensor(ArrayRef<float> values, TensorOptions options) {
  return tensor_from(values, options, kDefaultDtype);
}
Tensor tensor(ArrayRef<int64_t> values, TensorOptions options) {
  return tensor_from(values, options, kLong);
}
Tensor tensor(ArrayRef<int> values, TensorOptions options) {
  return tensor_from(values, options, kLong);
}
Tensor tensor(ArrayRef<bool> values, TensorOptions options) {
  return tensor_from(values, options, kBool);
}

// ---- random ----

Tensor rand(IntArrayRef size, TensorOptions options) {
  check_dtype(OpId::rand, options.dtype());
  OpParams p;
  p.set(RandomParams{});
  return run_factory(OpId::rand, size, options.dtype(), options.device(), p);
}

Tensor randn(IntArrayRef size, TensorOptions options) {
  check_dtype(OpId::randn, options.dtype());
  OpParams p;
  p.set(RandomParams{});
  return run_factory(OpId::randn, size, options.dtype(), options.device(), p);
}

namespace {

// ATen's check_from_to_in_range: low and high - 1 must be values of the dtype; for floating
// dtypes, within +-2^digits, where every integer is exact (ATen warns; we refuse).
void check_randint_bounds(int64_t low, int64_t high, ScalarType dtype) {
  const int64_t last = high - 1;  // high > low, so no overflow
  if (is_floating_type(dtype)) {
    const int digits = dtype == kHalf ? 11 : dtype == kBFloat16 ? 8 : dtype == kFloat ? 24 : 53;
    const int64_t lim = int64_t{1} << digits;
    for (auto [v, name] : {std::pair{low, "from"}, std::pair{last, "to - 1"}}) {
      TS_CHECK(v >= -lim && v <= lim, "randint: ", name, " is out of bounds [-(2^", digits, "), 2^",
               digits, "]. Due to precision limitations ", dtype,
               " can support discrete uniform distribution only within this range.");
    }
    return;
  }
  const auto [min, max] = TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(dtype, "randint", [] {
    return std::pair{static_cast<int64_t>(std::numeric_limits<scalar_t>::lowest()),
                     static_cast<int64_t>(std::numeric_limits<scalar_t>::max())};
  });
  TS_CHECK(low >= min && low <= max, "randint: from is out of bounds for ", dtype);
  TS_CHECK(last >= min && last <= max, "randint: to - 1 is out of bounds for ", dtype);
}

}  // namespace

Tensor randint(int64_t low, int64_t high, IntArrayRef size, TensorOptions options) {
  const ScalarType dtype = options.dtype_or(kLong);
  TS_CHECK(low < high, "randint: random_ expects 'from' to be less than 'to', but got from=", low,
           " >= to=", high);
  check_randint_bounds(low, high, dtype);
  OpParams p;
  RandintParams& r = p.set(RandintParams{});
  r.low = low;
  r.high = high;
  return run_factory(OpId::randint, size, dtype, options.device(), p);
}

Tensor randint(int64_t high, IntArrayRef size, TensorOptions options) {
  return randint(0, high, size, options);
}

// The *_like random factories give a contiguous tensor of self's shape.
namespace {

// rand_like, randn_like: `values` (contiguous) laid out as empty_like(self) lays out its result,
// ATen's preserve_format (a transposed self gets a transposed result). The element at each index
// is the one the contiguous result has there.
Tensor keep_layout(const Tensor& self, const Tensor& values) {
  if (self.is_contiguous()) return values;
  Tensor out = empty_like(self, values.options());
  meta::copy_into_new(out, values);
  return out;
}

}  // namespace

Tensor rand_like(const Tensor& self, std::optional<TensorOptions> options) {
  const UserOpScope scope("rand_like");
  return keep_layout(self, rand(self.sizes(), like_options(self, options)));
}

Tensor randn_like(const Tensor& self, std::optional<TensorOptions> options) {
  const UserOpScope scope("randn_like");
  return keep_layout(self, randn(self.sizes(), like_options(self, options)));
}

}  // namespace ts
