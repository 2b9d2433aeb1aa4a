#pragma once
// Typed kernel parameters: the non-tensor arguments of a call, already checked by the op's meta
// function. Each op's line in op_list.def names its struct; meta fills it, kernels, derivatives
// and plug-ins read it by name (call.params<ReduceParams>().keepdim).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "touchstone/array_ref.h"
#include "touchstone/scalar.h"

namespace ts {

enum class Reduction : int64_t { None = 0, Mean = 1, Sum = 2 };  // as at::Reduction
enum class RoundingMode : uint8_t { None, Trunc, Floor };        // div: true, "trunc", "floor"
enum class GeluApproximation : uint8_t { None, Tanh };           // gelu: "none", "tanh"

struct NoParams {};
// add, sub: self + alpha * other (alpha checked to fit the result's category).
struct AlphaParams {
  Scalar alpha = 1;
};
struct DivParams {
  RoundingMode rounding_mode = RoundingMode::None;
};
struct GeluParams {
  GeluApproximation approximate = GeluApproximation::None;
};
// clamp's bounds arrive as wrapped-scalar inputs after self (min first); these say which.
struct ClampParams {
  bool has_min = false;
  bool has_max = false;
};
// nan_to_num's replacements, resolved by meta in the result dtype (None: 0 for NaN, the dtype's
// largest and lowest finite values for +inf and -inf).
struct NanToNumParams {
  double nan = 0, posinf = 0, neginf = 0;
};
// activations (issue 16): ATen's Scalar arguments, as given (kernels convert them to the compute
// dtype, as ATen's Scalar::to<scalar_t>; Note [Activation parameters] in lib/src/ops/unary.cpp).
struct LeakyReluParams {
  Scalar negative_slope = 0.01;
};
// elu: scale * x for x > 0, else alpha * scale * (exp(input_scale * x) - 1); selu and celu too.
struct EluParams {
  Scalar alpha = 1, scale = 1, input_scale = 1;
};
struct SoftplusParams {
  Scalar beta = 1, threshold = 20;
};
struct HardtanhParams {
  Scalar min_val = -1, max_val = 1;
};
struct ThresholdParams {
  Scalar threshold, value;
};
// fill_, masked_fill and addcmul's value (checked to fit the dtype it is written in).
struct ValueParams {
  Scalar value;
};
// lerp: a Scalar weight; absent when the weight is the third input.
struct LerpParams {
  std::optional<Scalar> weight;
};
// addmm: beta * self + alpha * (mat1 @ mat2); a beta of zero means self is not read.
struct AddmmParams {
  Scalar beta = 1, alpha = 1;
};
// The input's reduced dims (wrapped, sorted, unique; empty for a 0-dim input) and whether the
// output keeps them as size 1 (Note [Reduction outputs] in lib/src/ops/reduce.cpp).
struct ReduceParams {
  DimVector dims;
  bool keepdim = false;
  bool dim_overload = false;  // the per-dim overload ran: ATen names its node ...Backward1
};
struct VarParams : ReduceParams {
  double correction = 1;  // var, std: divide by N - correction
};
struct NormParams : ReduceParams {
  double p = 2;
};
// One wrapped dim: softmax, log_softmax, cumsum, index_select, gather, scatter_add, cat.
struct DimParams {
  int64_t dim = 0;
};
struct LayerNormParams {
  DimVector dims;  // the normalized (trailing) dims of the input
  double eps = 1e-5;
};
struct LossParams {
  Reduction reduction = Reduction::Mean;
};
struct NllLossParams : LossParams {
  int64_t ignore_index = -100;
  int64_t class_dim = 0;  // 0 for a 1-D input, else 1
};
// ctc_loss (issue 16): lengths per sample, the blank class, whether targets are concatenated
// (1-D) rather than padded (N, S), and whether the kernel also writes d nll_n / d log_probs as
// output 1 (Note [ctc_loss gradient] in lib/src/ops/loss.cpp).
struct CtcLossParams : LossParams {
  DimVector input_lengths;
  DimVector target_lengths;
  int64_t blank = 0;
  bool zero_infinity = false;
  bool concatenated = false;
  bool with_grad = false;
};
// arange: integral dtypes get int64 Scalars (truncated, as ATen), floating ones doubles; the
// output's size is the element count (end is for messages and plug-ins).
struct ArangeParams {
  Scalar start, end, step;
};
struct LinspaceParams {
  Scalar start, end;  // as given
  int64_t steps = 0;
};
// Philox key and first counter (Note [Philox streams] in touchstone/random.h).
struct RandomParams {
  uint64_t seed = 0, offset = 0;
};
struct RandintParams : RandomParams {
  int64_t low = 0, high = 0;
};
// normalization and embedding (issue 16)
// batch_norm: training normalizes with the batch's statistics and updates running_mean and
// running_var (when given) in place, with the unbiased variance, as ATen.
struct BatchNormParams {
  bool training = false;
  double momentum = 0.1;
  double eps = 1e-5;
};
struct GroupNormParams {
  int64_t num_groups = 1;
  double eps = 1e-5;
};
struct EmbeddingParams {
  int64_t padding_idx = -1;  // wrapped: -1 means none
  bool scale_grad_by_freq = false;
};

// convolution (issue 16): one entry per spatial dim each, checked by meta (stride, dilation >= 1,
// padding >= 0, output_padding < max(stride, dilation)); the input is batched (N, C, *).
struct ConvParams {
  DimVector stride, padding, dilation;
  bool transposed = false;
  DimVector output_padding;
  int64_t groups = 1;
};

// shape (issue 16)
// flip: the flipped dims (wrapped, unique; empty flips nothing).
struct FlipParams {
  DimVector dims;
};
// roll: one shift per dim, each wrapped into [0, size) of its dim; empty dims roll the
// flattened tensor by shifts[0] (Note [roll without dims] in lib/src/ops/shape.cpp).
struct RollParams {
  DimVector shifts, dims;
};
// tril, triu: the diagonal (0 the main one, > 0 above it, < 0 below).
struct TriParams {
  int64_t diagonal = 0;
};
// reflection_pad, replication_pad: (left, right) for each padded dim, the last dim's first (ATen's
// `padding` order); 1 to 3 padded dims, the trailing ones (Note [Padding kernel ops]).
struct PadParams {
  DimVector padding;
};

// sorting and selection (issue 16): the wrapped dim (0 for a 0-dim input) and each op's flags.
// sort: descending, stable; topk: k, descending (ATen's largest), sorted; kthvalue: k, keepdim;
// median, mode: keepdim; cummax, cummin: dim only. median() over all elements runs on the flattened
// input with dim_overload false (its derivative differs: Note [median over all elements]).
struct SortParams {
  int64_t dim = 0;
  int64_t k = 0;
  bool descending = false;
  bool stable = false;
  bool sorted = true;
  bool keepdim = false;
  bool dim_overload = true;
};

// pooling (issue 16): one entry per spatial dim each (the input's last kernel_size.size() dims;
// the dims before them are planes), checked by meta; stride never empty (meta fills ATen's
// default, kernel_size). avg_pool: dilation all 1; divisor_override 0 means none.
struct PoolParams {
  DimVector kernel_size, stride, padding, dilation;
  bool ceil_mode = false;
  bool count_include_pad = true;
  int64_t divisor_override = 0;
};
// adaptive pooling (issue 16): the output's spatial size (each >= 1, or 0 for an empty input).
struct AdaptivePoolParams {
  DimVector output_size;
};

// interpolation (issue 16): one entry per spatial dim each (the input's last output_size.size()
// dims); scales as ATen's optional scales, 0 meaning none (ATen treats any value <= 0 as none).
// align_corners: upsample_linear and upsample_bicubic2d only.
struct UpsampleParams {
  DimVector output_size;
  SmallVector<double, 3> scales;
  bool align_corners = false;
};
// grid_sampler (issue 16): ATen's enums, interpolation_mode 0 bilinear, 1 nearest, 2 bicubic;
// padding_mode 0 zeros, 1 border, 2 reflection.
struct GridSampleParams {
  int64_t interpolation_mode = 0;
  int64_t padding_mode = 0;
  bool align_corners = false;
};

// embedding_bag (issue 16): mode 0 sum, 1 mean, 2 max; padding_idx wrapped (-1: none);
// scale_grad_by_freq divides each index's gradient by its count in `indices` (sum and mean).
struct EmbeddingBagParams {
  int64_t mode = 0;
  int64_t padding_idx = -1;
  bool scale_grad_by_freq = false;  // the gradient only (Note [embedding_bag gradients])
};

// advanced indexing (issue 16)
// index_put: whether values add into self (duplicates sum) or are written (the last one wins).
struct IndexPutParams {
  bool accumulate = false;
};
// scatter: None writes src (or value); Sum and Prod are its reduce="add" / "multiply".
// scatter_reduce: every reduction, with include_self.
enum class ScatterReduce : uint8_t { None, Sum, Prod, Mean, Amax, Amin };
// scatter, scatter_reduce and index_add: the wrapped dim (0 for a 0-dim self) and each op's flags;
// scatter's value form has no src input and carries value; index_add adds alpha * source.
struct ScatterParams {
  int64_t dim = 0;
  ScatterReduce reduce = ScatterReduce::None;
  bool include_self = true;
  std::optional<Scalar> value;
  Scalar alpha = 1;
};

// searchsorted, bucketize (issue 16): right is ATen's right=True or side="right"; out_int32
// gives an int32 result.
struct SearchParams {
  bool right = false;
  bool out_int32 = false;
};
// _unique2, unique_dim, unique_consecutive (issue 16): dim wrapped (-1: the flattened forms).
struct UniqueParams {
  int64_t dim = -1;
  bool sorted = true;
  bool return_inverse = false;
  bool return_counts = false;
};

// Every parameter struct, in the order of ParamsVariant (NoParams first).
// clang-format off
#define TS_FOR_EACH_OP_PARAMS(_)                                                          \
  _(AlphaParams) _(DivParams) _(GeluParams) _(ClampParams) _(ValueParams) _(LerpParams)   \
  _(AddmmParams) _(ReduceParams) _(VarParams) _(NormParams) _(DimParams)                  \
  _(LayerNormParams) _(LossParams) _(NllLossParams) _(ArangeParams) _(LinspaceParams)     \
  _(RandomParams) _(RandintParams) _(NanToNumParams)                                      \
  _(LeakyReluParams) _(EluParams) _(SoftplusParams) _(HardtanhParams) _(ThresholdParams)  \
  /* convolution (issue 16) */ _(ConvParams)                                               \
  /* normalization, embedding (issue 16) */ _(BatchNormParams) _(GroupNormParams) _(EmbeddingParams)\
  /* shape (issue 16) */ _(FlipParams) _(RollParams) _(TriParams) _(PadParams)             \
  /* sorting and selection (issue 16) */ _(SortParams)                                     \
  /* losses (issue 16) */ _(CtcLossParams)                                                 \
  /* pooling (issue 16) */ _(PoolParams) _(AdaptivePoolParams)                             \
  /* embedding_bag (issue 16) */ _(EmbeddingBagParams)                                     \
  /* advanced indexing (issue 16) */ _(IndexPutParams) _(ScatterParams)                    \
  /* searchsorted, bucketize, unique (issue 16) */ _(SearchParams) _(UniqueParams)         \
  /* interpolation (issue 16) */ _(UpsampleParams) _(GridSampleParams)
// clang-format on
#define TS_PARAMS_ALTERNATIVE(P) , P
using ParamsVariant = std::variant<NoParams TS_FOR_EACH_OP_PARAMS(TS_PARAMS_ALTERNATIVE)>;
#undef TS_PARAMS_ALTERNATIVE

namespace detail {
template <class P, class... Ts>
constexpr size_t params_index(std::variant<Ts...>*) {
  size_t i = 0;
  (void)((std::is_same_v<P, Ts> ? true : (++i, false)) || ...);
  return i;
}
// Throws: a kernel asked for parameters its op's meta did not pass (a bug, named in full).
[[noreturn]] void params_mismatch(size_t wanted, size_t held, const char* op = nullptr);
}  // namespace detail

// The index of P in ParamsVariant.
template <class P>
inline constexpr size_t kParamsIndex =
    detail::params_index<P>(static_cast<ParamsVariant*>(nullptr));
// The name of the struct at `index` of ParamsVariant ("ReduceParams").
const char* params_name(size_t index);

struct OpParams {
  ScalarType compute_dtype = ScalarType::Undefined;  // the dtype the kernel computes in
  ParamsVariant args;                                // the op's struct (op_list.def)

  template <class P>
  const P& get() const {
    if (const P* p = std::get_if<P>(&args)) [[likely]] {
      return *p;
    }
    detail::params_mismatch(kParamsIndex<P>, args.index());
  }
  template <class P>
  P& set(P value) {
    return args.emplace<P>(std::move(value));
  }
};

// The ReduceParams of any reduction's struct (var's and std's VarParams, norm's NormParams
// included), for code shared by every reduction (output geometry, gradient shapes).
inline const ReduceParams& reduce_params(const OpParams& p) {
  if (const auto* r = std::get_if<ReduceParams>(&p.args)) return *r;
  if (const auto* v = std::get_if<VarParams>(&p.args)) return *v;
  if (const auto* n = std::get_if<NormParams>(&p.args)) return *n;
  detail::params_mismatch(kParamsIndex<ReduceParams>, p.args.index());
}

}  // namespace ts
