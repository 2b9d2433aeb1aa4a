// repeat_interleave and padding (issue 16): meta and derivatives (at the end). KernelCall and
// params, per kernel op (compute_dtype is self's dtype, and so is the output's):
//   repeat_interleave: inputs {repeats} (1-D int32/int64, contiguous, each >= 0), outputs
//     {result (sum of repeats)}; NoParams. result[j] = i for the repeats[i] places of index i.
//   reflection_pad, replication_pad: inputs {self} (the padded dims are its last
//     padding.size() / 2, each output size >= 1); PadParams{padding} as the user gave it.
//
// Note [Padding kernel ops]
// ATen has one op per padded dim count (reflection_pad1d/2d/3d, replication_pad1d/2d/3d), each
// a kernel with a backward kernel. The computation is the same for 1, 2 or 3 dims, so touchstone
// has one kernel op per mode, reflection_pad and replication_pad, and the ATen forms as
// composites over them (as max_pool and max_pool1d/2d/3d). Output element j of a padded dim of
// input size n with left pad l reads input element index(j) + offset, offset = max(0, -l) -
// max(0, l): ATen's PaddingKernel.cpp, which also defines negative pads (a crop):
//   reflect:   j < l: 2l - j;   l <= j < n + l: j;   else 2(n + l - 1) - j
//   replicate: j < l: l;        l <= j < n + l: j;   else n + l - 1
// The gradient adds each output element's gradient into that input element, one padded dim at a
// time (index_add), as the dims map independently.
// Dtypes: both kernel ops take the floating dtypes (ATen 1.13: float32 and float64, with float16
// and bfloat16 for reflection_pad3d only); current PyTorch's CPU reflection_pad1d/2d also take
// the integer dtypes and its replication_pad has no float16, which touchstone does not follow.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

// The source index of output element j of a padded dim (Note [Padding kernel ops]).
int64_t pad_source(bool reflect, int64_t j, int64_t n, int64_t l) {
  const int64_t offset = std::max<int64_t>(0, -l) - std::max<int64_t>(0, l);
  int64_t i = j;
  if (j < l) {
    i = reflect ? 2 * l - j : l;
  } else if (j >= n + l) {
    i = reflect ? 2 * (n + l - 1) - j : n + l - 1;
  }
  return i + offset;
}

// Checks a reflection_pad / replication_pad call (ATen's checks of the per-dim forms) and gives
// the output's shape.
DimVector pad_kernel_shape(const char* op, bool reflect, const Tensor& self, IntArrayRef padding) {
  meta::check_defined(op, self, "self");
  TS_CHECK(padding.size() == 2 || padding.size() == 4 || padding.size() == 6, op,
           ": padding size is expected to be 2, 4 or 6, but got ", padding.size(),
           " (argument 'padding')");
  const int64_t nd = static_cast<int64_t>(padding.size() / 2);
  TS_CHECK(self.dim() == nd + 1 || self.dim() == nd + 2, op, ": Expected ", nd + 1, "D or ", nd + 2,
           "D (batch mode) tensor with possibly 0 batch size and other non-zero ",
           "dimensions for input, but got: ", self.sizes(), " (argument 'self')");
  for (int64_t d = self.dim() == nd + 2 ? 1 : 0; d < self.dim(); ++d) {
    TS_CHECK(self.size(d) != 0, op, ": Expected ", nd + 1, "D or ", nd + 2,
             "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for ",
             "input, but got: ", self.sizes(), " (argument 'self')");
  }
  meta::check_dtype_supported(op, self.dtype(), DTypeSet::floating(), "self");
  DimVector shape(self.sizes());
  for (int64_t k = 0; k < nd; ++k) {
    const int64_t d = self.dim() - 1 - k, n = self.size(d);
    const int64_t l = padding[2 * k], r = padding[2 * k + 1];
    TS_CHECK(!reflect || (l < n && r < n), op,
             ": Argument #4: Padding size should be less than the corresponding input dimension, ",
             "but got: padding (", l, ", ", r, ") at dimension ", d, " of input ", self.sizes(),
             " (argument 'padding')");
    shape[d] = n + l + r;
    TS_CHECK(shape[d] >= 1, op, ": input (dim ", d, ": ", n,
             ") is too small. Calculated output size: ", shape[d], " (argument 'padding')");
  }
  return shape;
}

Tensor pad_kernel(OpId op, const char* name, const Tensor& self, IntArrayRef padding) {
  const UserOpScope scope(name);
  const bool reflect = op == OpId::reflection_pad;
  const DimVector shape = pad_kernel_shape(name, reflect, self, padding);
  OpParams p;
  p.compute_dtype = self.dtype();
  p.set(PadParams{DimVector(padding)});
  const KernelFn fn = lookup_kernel(op, self.dtype(), self.device());
  // A contiguous result, as ATen's reflection_pad1d/replication_pad1d allocate it.
  const Tensor result = empty(shape, self.options());
  run_kernel(fn, KernelCall{op, ArrayRef<Tensor>(&result, 1), ArrayRef<Tensor>(&self, 1), p});
  return result;
}

Tensor per_dim_pad(OpId op, const char* name, size_t nd, const Tensor& self, IntArrayRef padding) {
  const UserOpScope scope(name);
  TS_CHECK(padding.size() == 2 * nd, name, ": padding size is expected to be ", 2 * nd,
           ", but got ", padding.size(), " (argument 'padding')");
  return pad_kernel(op, name, self, padding);
}

// ATen's pad length checks, shared by constant_pad_nd and pad.
void check_pad_length(const char* op, const Tensor& self, IntArrayRef pad) {
  TS_CHECK(pad.size() % 2 == 0, op, ": Length of pad must be even but instead it equals ",
           pad.size(), " (argument 'pad')");
  TS_CHECK(static_cast<int64_t>(pad.size() / 2) <= self.dim(), op,
           ": Length of pad should be no more than twice the number of dimensions of the input. ",
           "Pad length is ", pad.size(), " while the input has ", self.dim(),
           " dimensions (argument 'pad')");
}

}  // namespace

// ---- repeat_interleave ----
// Note [repeat_interleave]
// The Tensor overload is ATen's kernel: the sizes come from the values, so meta reads repeats
// (its cumulative sum is the result's size) and checks them before any allocation. The self
// forms are current PyTorch's composites: index_select by the Tensor overload's indices
// (IndexSelectBackward0), and for an int, self with a new dim of `repeats` after dim, expanded
// and copied (the gradient sums the repeated slices through the expand). Their errors name
// repeat_interleave_self, op_list.def's name of the self overloads.
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size) {
  const char* op = "repeat_interleave";
  const UserOpScope scope(op);
  meta::check_defined(op, repeats, "repeats");
  TS_CHECK(repeats.dim() == 1, op, ": repeat_interleave only accept 1D vector as repeat ",
           "(argument 'repeats' is ", repeats.dim(), "-D)");
  TS_CHECK(repeats.dtype() == kLong || repeats.dtype() == kInt, op,
           ": repeats has to be Long or Int tensor, but got ", repeats.dtype(),
           " (argument 'repeats')");
  const Tensor r = repeats.contiguous();
  const Tensor r64 = meta::on_host(r.to(kLong));  // the output's size, read on the host
  const int64_t* p = r64.data_ptr<int64_t>();
  int64_t total = 0;
  for (int64_t i = 0; i < r64.numel(); ++i) {
    TS_CHECK(p[i] >= 0, op, ": repeats can not be negative (argument 'repeats')");
    TS_CHECK(!__builtin_add_overflow(total, p[i], &total), op,
             ": the sum of repeats overflows int64 (argument 'repeats')");
  }
  TS_CHECK(!output_size.has_value() || *output_size == total, op,
           ": allocated size does not match required size: output_size is ",
           output_size.value_or(0), " but repeats sum to ", total, " (argument 'output_size')");
  OpParams params;
  params.compute_dtype = r.dtype();
  const KernelFn fn = lookup_kernel(OpId::repeat_interleave, r.dtype(), r.device());
  const Tensor result = empty({total}, r.options());
  run_kernel(fn, KernelCall{OpId::repeat_interleave, ArrayRef<Tensor>(&result, 1),
                            ArrayRef<Tensor>(&r, 1), params});
  return result;
}

Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  const char* op = "repeat_interleave_self";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, repeats, "repeats");
  const Tensor input = dim.has_value() ? self : self.reshape({-1});
  const int64_t d = wrap_dim(dim.value_or(0), self.dim(), op);
  TS_CHECK(input.dim() > 0, op, ": dimension specified as ", d,
           " but tensor has no dimensions (argument 'dim')");
  Tensor reps = repeats;
  if (repeats.dim() == 0 || (repeats.dim() == 1 && repeats.size(0) == 1)) {
    reps = repeats.reshape({1}).expand({input.size(d)}).contiguous();
  } else {
    TS_CHECK(repeats.dim() == 1, op, ": repeats must be 0-dim or 1-dim tensor (argument ",
             "'repeats' is ", repeats.dim(), "-D)");
    TS_CHECK(repeats.size(0) == input.size(d), op,
             ": repeats must have the same size as input along dim, but got repeats.size(0) = ",
             repeats.size(0), " and input.size(", d, ") = ", input.size(d),
             " (argument 'repeats')");
  }
  return input.index_select(d, repeat_interleave(reps, output_size));
}

Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  const char* op = "repeat_interleave_self";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  Tensor input = dim.has_value() ? self : self.reshape({-1});
  const int64_t d = wrap_dim(dim.value_or(0), self.dim(), op);
  TS_CHECK(repeats >= 0, op, ": Repeats must be non-negative (argument 'repeats')");
  TS_CHECK(input.dim() > 0, op, ": dimension specified as ", d,
           " but tensor has no dimensions (argument 'dim')");
  DimVector shape(input.sizes());
  input = input.unsqueeze(d + 1);
  DimVector expanded(input.sizes());
  expanded[d + 1] = repeats;
  TS_CHECK(!__builtin_mul_overflow(repeats, shape[d], &shape[d]), op,
           ": the repeated size overflows int64 (argument 'repeats')");
  TS_CHECK(!output_size.has_value() || *output_size == shape[d], op,
           ": Invalid output_size, expected ", shape[d], " but got ", output_size.value_or(0),
           " (argument 'output_size')");
  // A new tensor always: contiguous() alone would return an already contiguous view of self.
  const Tensor src = input.expand(expanded);
  return (src.is_contiguous() ? src.clone() : src.contiguous()).view(shape);
}

Tensor Tensor::repeat_interleave(const Tensor& repeats, std::optional<int64_t> dim,
                                 std::optional<int64_t> output_size) const {
  return ts::repeat_interleave(*this, repeats, dim, output_size);
}
Tensor Tensor::repeat_interleave(int64_t repeats, std::optional<int64_t> dim,
                                 std::optional<int64_t> output_size) const {
  return ts::repeat_interleave(*this, repeats, dim, output_size);
}

// ---- padding ----
Tensor reflection_pad(const Tensor& self, IntArrayRef padding) {
  return pad_kernel(OpId::reflection_pad, "reflection_pad", self, padding);
}
Tensor replication_pad(const Tensor& self, IntArrayRef padding) {
  return pad_kernel(OpId::replication_pad, "replication_pad", self, padding);
}
#define TS_PAD_FORM(mode, n)                                                     \
  Tensor mode##_pad##n##d(const Tensor& self, IntArrayRef padding) {             \
    return per_dim_pad(OpId::mode##_pad, #mode "_pad" #n "d", n, self, padding); \
  }
TS_PAD_FORM(reflection, 1)
TS_PAD_FORM(reflection, 2)
TS_PAD_FORM(reflection, 3)
TS_PAD_FORM(replication, 1)
TS_PAD_FORM(replication, 2)
TS_PAD_FORM(replication, 3)
#undef TS_PAD_FORM

// Note [constant_pad_nd]
// ATen's composite (current PyTorch): negative pads narrow self, and when no pad is positive
// that narrowed view, copied, is the result; otherwise the narrowed self is copied into the
// middle of a tensor of the padded shape, whose border is filled with value (cast to self's
// dtype, as fill_). ATen fills the whole tensor first, which writes the middle twice; the
// border alone, slab by slab from the outermost dim in, writes each element once.
// ATen 1.13 refuses an empty result dim (new_dim > 0); current PyTorch allows it (>= 0).
Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  const char* op = "constant_pad_nd";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  check_pad_length(op, self, pad);
  const int64_t nd = self.dim(), np = static_cast<int64_t>(pad.size() / 2);
  DimVector shape(self.sizes());
  for (int64_t k = 0; k < np; ++k) {
    const int64_t d = nd - 1 - k, l = pad[2 * k], r = pad[2 * k + 1];
    const int64_t n = self.size(d);
    shape[d] = n + l + r;
    TS_CHECK(shape[d] >= 0, op, ": The input size ", n, ", plus negative padding ", l, " and ", r,
             " resulted in a negative output size, which is invalid. Check dimension ", d,
             " of your input (argument 'pad')");
    TS_CHECK(std::max<int64_t>(0, -l) + std::max<int64_t>(0, -r) <= n, op,
             ": the negative padding (", l, ", ", r, ") crops more than the ", n,
             " elements of dimension ", d, " (argument 'pad')");
  }
  Tensor src = self;
  bool any_positive = false;
  for (int64_t k = 0; k < np; ++k) {
    const int64_t d = nd - 1 - k, l = pad[2 * k], r = pad[2 * k + 1];
    if (l < 0) src = src.narrow(d, -l, src.size(d) + l);
    if (r < 0) src = src.narrow(d, 0, src.size(d) + r);
    any_positive = any_positive || l > 0 || r > 0;
  }
  if (!any_positive) return src.clone();
  Tensor result = empty(shape, self.options());
  Tensor dst = result;
  for (int64_t k = np - 1; k >= 0; --k) {  // the outermost padded dim first: the largest slabs
    const int64_t d = nd - 1 - k, l = pad[2 * k], r = pad[2 * k + 1];
    if (l > 0) dst.narrow(d, 0, l).fill_(value);
    if (r > 0) dst.narrow(d, dst.size(d) - r, r).fill_(value);
    if (l > 0) dst = dst.narrow(d, l, dst.size(d) - l);
    if (r > 0) dst = dst.narrow(d, 0, dst.size(d) - r);
  }
  dst.copy_(src);
  return result;
}

// Note [_pad_circular]
// Current PyTorch's composite: self with 1 or 2 leading dims not padded; negative pads crop
// first, then each padded dim wraps around what is left: output element j of a dim reads element
// (j - max(l, 0)) mod n' of the cropped dim (n' elements). PyTorch writes those by slice copies
// within the result; here each dim is one index_select of the wrapped indices (the same
// elements; the gradient adds them back through index_select's backward).
Tensor _pad_circular(const Tensor& self, IntArrayRef pad) {
  const char* op = "_pad_circular";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  TS_CHECK(pad.size() % 2 == 0, op, ": Length of pad must be even but instead it equals ",
           pad.size(), " (argument 'pad')");
  const int64_t nd = self.dim(), np = static_cast<int64_t>(pad.size() / 2);
  const int64_t kept = nd - np;
  TS_CHECK(kept == 1 || kept == 2, op,
           ": Invalid padding size, expected 1 or 2 non-padded dimensions, which would be ",
           "equivalent to padding of length ", (nd - 1) * 2, " or ", (nd - 2) * 2,
           " respectively but got ", pad.size(), " (argument 'pad')");
  for (int64_t k = 0; k < np; ++k) {
    const int64_t d = nd - 1 - k, l = pad[2 * k], r = pad[2 * k + 1], n = self.size(d);
    TS_CHECK(l <= n && r <= n, op,
             ": Padding value causes wrapping around more than once (argument 'pad')");
    TS_CHECK(n + l + r >= 0, op,
             ": Negative padding value is resulting in an empty dimension (argument 'pad')");
    const int64_t cropped = n - std::max<int64_t>(0, -l) - std::max<int64_t>(0, -r);
    TS_CHECK(std::max<int64_t>(l, 0) <= cropped && std::max<int64_t>(r, 0) <= cropped, op,
             ": Padding value causes wrapping around more than once (argument 'pad')");
  }
  Tensor result = self;
  for (int64_t k = 0; k < np; ++k) {
    const int64_t d = nd - 1 - k, l = pad[2 * k], r = pad[2 * k + 1], n = self.size(d);
    const int64_t start = std::max<int64_t>(0, -l);
    const int64_t cropped = n - start - std::max<int64_t>(0, -r);
    const int64_t left = std::max<int64_t>(l, 0), size = n + l + r;
    std::vector<int64_t> idx(static_cast<size_t>(size));
    for (int64_t j = 0; j < size; ++j) {
      idx[static_cast<size_t>(j)] = start + ((j - left) % cropped + cropped) % cropped;
    }
    result = result.index_select(
        d, tensor(ArrayRef<int64_t>(idx), TensorOptions(kLong).device(result.device())));
  }
  return np == 0 ? self.clone() : result;
}

// Note [pad]
// torch.nn.functional.pad, as current PyTorch's ATen `pad` (_pad_enum): constant mode is
// constant_pad_nd with value (default 0); the others take no value but 0 and pad the last 1, 2 or
// 3 dims of an unbatched or batched input (pad of length 2 on a 2-D or 3-D input, 4 on 3-D or
// 4-D, 6 on 4-D or 5-D), by reflection_pad, replication_pad or _pad_circular.
Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode,
           std::optional<double> value) {
  const char* op = "pad";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  TS_CHECK(mode == "constant" || mode == "reflect" || mode == "replicate" || mode == "circular", op,
           ": Unrecognised padding mode ", mode, " (argument 'mode')");
  TS_CHECK(pad.size() % 2 == 0, op, ": Padding length must be divisible by 2 (argument 'pad')");
  TS_CHECK(static_cast<int64_t>(pad.size()) <= self.dim() * 2, op,
           ": Padding length should be less than or equal to two times the input dimension but ",
           "got padding length ", pad.size(), " and input of dimension ", self.dim(),
           " (argument 'pad')");
  if (mode == "constant") return constant_pad_nd(self, pad, value.value_or(0.0));
  TS_CHECK(!value.has_value() || *value == 0, op, ": Padding mode \"", mode,
           "\" doesn't take in value argument (argument 'value')");
  const int64_t np = static_cast<int64_t>(pad.size() / 2);
  TS_CHECK(np >= 1 && np <= 3 && (self.dim() == np + 1 || self.dim() == np + 2), op,
           ": Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now ",
           "(argument 'pad' has length ", pad.size(), ", 'self' is ", self.dim(), "-D)");
  if (mode == "reflect") return pad_kernel(OpId::reflection_pad, op, self, pad);
  if (mode == "replicate") return pad_kernel(OpId::replication_pad, op, self, pad);
  return _pad_circular(self, pad);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative]) ----
namespace ts::autograd {
namespace {

// reflection_pad{1,2,3}d_backward, replication_pad{1,2,3}d_backward: each padded dim in turn,
// the gradient of every output element added into its source (Note [Padding kernel ops]).
Tensor pad_backward(const BackwardArgs& a, bool reflect) {
  const IntArrayRef padding = a.p.get<PadParams>().padding;
  const IntArrayRef in_sizes = a.input_sizes(0);
  Tensor g = a.grad();
  const int64_t nd = static_cast<int64_t>(in_sizes.size());
  for (size_t k = 0; k < padding.size() / 2; ++k) {
    const int64_t d = nd - 1 - static_cast<int64_t>(k), n = in_sizes[d];
    std::vector<int64_t> idx(static_cast<size_t>(g.size(d)));
    for (size_t j = 0; j < idx.size(); ++j) {
      idx[j] = pad_source(reflect, static_cast<int64_t>(j), n, padding[2 * k]);
    }
    DimVector shape(g.sizes());
    shape[d] = n;
    g = zeros(shape, g.options())
            .index_add(d, tensor(ArrayRef<int64_t>(idx), TensorOptions(kLong).device(g.device())),
                       g);
  }
  return g;
}

}  // namespace

TS_REGISTER_DERIVATIVES(pad) {
  // reflection_pad2d(Tensor self, SymInt[4] padding) -> Tensor
  //   self: reflection_pad2d_backward_symint(grad, self, padding)
  m.def(
      OpId::reflection_pad, save_nothing(),
      [](const BackwardArgs& a) -> Grads { return {pad_backward(a, true)}; },
      "ReflectionPadBackward0");
  // replication_pad2d(Tensor self, SymInt[4] padding) -> Tensor
  //   self: replication_pad2d_backward_symint(grad, self, padding)
  m.def(
      OpId::replication_pad, save_nothing(),
      [](const BackwardArgs& a) -> Grads { return {pad_backward(a, false)}; },
      "ReplicationPadBackward0");
}

}  // namespace ts::autograd
