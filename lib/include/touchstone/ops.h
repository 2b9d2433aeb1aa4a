#pragma once
// The foundation op set: functional, in-place (Tensor methods) and out= forms, named as in ATen.
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "touchstone/op_params.h"
#include "touchstone/plain_ops.h"
#include "touchstone/tensor.h"

namespace ts {

// ---- factories ----
Tensor empty(IntArrayRef size, TensorOptions options = {});
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options = {});
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});
// Without a dtype, full() takes it from the value: bool, int64 or the default float dtype.
Tensor full(IntArrayRef size, const Scalar& fill_value, TensorOptions options = {});
Tensor scalar_tensor(const Scalar& value, TensorOptions options = {});
Tensor arange(const Scalar& end, TensorOptions options = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step = 1,
              TensorOptions options = {});
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, TensorOptions options = {});
Tensor eye(int64_t n, TensorOptions options = {});
Tensor eye(int64_t n, int64_t m, TensorOptions options = {});
Tensor empty_like(const Tensor& self, std::optional<TensorOptions> options = std::nullopt);
Tensor zeros_like(const Tensor& self, std::optional<TensorOptions> options = std::nullopt);
Tensor ones_like(const Tensor& self, std::optional<TensorOptions> options = std::nullopt);
Tensor full_like(const Tensor& self, const Scalar& fill_value,
                 std::optional<TensorOptions> options = std::nullopt);
// From values: floating values give the default dtype, integers int64, bools bool.
Tensor tensor(ArrayRef<double> values, TensorOptions options = {});
Tensor tensor(ArrayRef<float> values, TensorOptions options = {});
Tensor tensor(ArrayRef<int64_t> values, TensorOptions options = {});
Tensor tensor(ArrayRef<int> values, TensorOptions options = {});
Tensor tensor(ArrayRef<bool> values, TensorOptions options = {});
inline Tensor tensor(std::initializer_list<double> v, TensorOptions o = {}) {
  return tensor(ArrayRef<double>(v), o);
}
inline Tensor tensor(std::initializer_list<float> v, TensorOptions o = {}) {
  return tensor(ArrayRef<float>(v), o);
}
inline Tensor tensor(std::initializer_list<int64_t> v, TensorOptions o = {}) {
  return tensor(ArrayRef<int64_t>(v), o);
}
inline Tensor tensor(std::initializer_list<int> v, TensorOptions o = {}) {
  return tensor(ArrayRef<int>(v), o);
}
inline Tensor tensor(std::initializer_list<bool> v, TensorOptions o = {}) {
  return tensor(ArrayRef<bool>(v), o);
}

// ---- random (Philox4x32-10; same values for a seed on every kernel set and thread count) ----
void manual_seed(uint64_t seed);
Tensor rand(IntArrayRef size, TensorOptions options = {});
Tensor randn(IntArrayRef size, TensorOptions options = {});
Tensor randint(int64_t low, int64_t high, IntArrayRef size, TensorOptions options = kLong);
Tensor randint(int64_t high, IntArrayRef size, TensorOptions options = kLong);
Tensor rand_like(const Tensor& self, std::optional<TensorOptions> options = std::nullopt);
Tensor randn_like(const Tensor& self, std::optional<TensorOptions> options = std::nullopt);

// ---- copy and convert ----
Tensor clone(const Tensor& self);
Tensor contiguous(const Tensor& self);

// ---- plain elementwise ops: every form of the unary and binary ops without parameters, from
// op_list.def (Note [Generated declarations] in touchstone/plain_ops.h). A binary op's `other`
// is a Tensor or a Scalar (a wrapped number). ----
// clang-format off
#define TS_DECLARE_None(...)
#define TS_DECLARE_Unary(name, m, i, o)                                   \
  Tensor name(const Tensor& self);                                        \
  TS_PP_IF_##i(Tensor& name##_(const Tensor& self);)                      \
  TS_PP_IF_##o(Tensor& name##_out(const Tensor& out, const Tensor& self);)
#define TS_DECLARE_Binary(name, m, i, o)                                                      \
  Tensor name(const Tensor& self, const Tensor& other);                                       \
  Tensor name(const Tensor& self, const Scalar& other);                                       \
  TS_PP_IF_##o(Tensor& name##_out(const Tensor& out, const Tensor& self, const Tensor& other);)
// clang-format on
#define TS_OP(name, kind, sig, params, variants, diff, dtypes, parts, schema) \
  TS_PLAIN_OP(TS_DECLARE_, name, kind, sig, params, variants)
#include "touchstone/op_list.def"
#undef TS_OP
#undef TS_DECLARE_Binary
#undef TS_DECLARE_Unary
#undef TS_DECLARE_None

// ---- unary and binary ops with parameters ----
// approximate: "none" or "tanh".
Tensor gelu(const Tensor& self, std::string_view approximate = "none");
Tensor& gelu_(const Tensor& self, std::string_view approximate = "none");
Tensor& gelu_out(const Tensor& out, const Tensor& self, std::string_view approximate = "none");
Tensor clamp(const Tensor& self, std::optional<Scalar> min,
             std::optional<Scalar> max = std::nullopt);
Tensor& clamp_(const Tensor& self, std::optional<Scalar> min,
               std::optional<Scalar> max = std::nullopt);
Tensor& clamp_out(const Tensor& out, const Tensor& self, std::optional<Scalar> min,
                  std::optional<Scalar> max = std::nullopt);
// activations (issue 16), ATen's defaults; selu, celu and softsign are composites.
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope = 0.01);
Tensor& leaky_relu_(const Tensor& self, const Scalar& negative_slope = 0.01);
Tensor& leaky_relu_out(const Tensor& out, const Tensor& self, const Scalar& negative_slope = 0.01);
Tensor elu(const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1,
           const Scalar& input_scale = 1);
Tensor& elu_(const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1,
             const Scalar& input_scale = 1);
Tensor& elu_out(const Tensor& out, const Tensor& self, const Scalar& alpha = 1,
                const Scalar& scale = 1, const Scalar& input_scale = 1);
Tensor selu(const Tensor& self);
Tensor& selu_(const Tensor& self);
Tensor celu(const Tensor& self, const Scalar& alpha = 1.0);
Tensor& celu_(const Tensor& self, const Scalar& alpha = 1.0);
Tensor softplus(const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
Tensor& softplus_out(const Tensor& out, const Tensor& self, const Scalar& beta = 1,
                     const Scalar& threshold = 20);
Tensor softsign(const Tensor& self);
Tensor hardtanh(const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
Tensor& hardtanh_(const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
Tensor& hardtanh_out(const Tensor& out, const Tensor& self, const Scalar& min_val = -1,
                     const Scalar& max_val = 1);
Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value);
Tensor& threshold_(const Tensor& self, const Scalar& threshold, const Scalar& value);
Tensor& threshold_out(const Tensor& out, const Tensor& self, const Scalar& threshold,
                      const Scalar& value);

// math (issue 16)
// square: pow(self, 2), as ATen's composite (integers stay integers, bool gives int64).
Tensor square(const Tensor& self);
Tensor& square_(const Tensor& self);
Tensor& square_out(const Tensor& out, const Tensor& self);
// nan_to_num: NaN, +inf and -inf replaced; None gives 0, the dtype's largest and lowest values.
Tensor nan_to_num(const Tensor& self, std::optional<double> nan = std::nullopt,
                  std::optional<double> posinf = std::nullopt,
                  std::optional<double> neginf = std::nullopt);
Tensor& nan_to_num_(const Tensor& self, std::optional<double> nan = std::nullopt,
                    std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt);
Tensor& nan_to_num_out(const Tensor& out, const Tensor& self,
                       std::optional<double> nan = std::nullopt,
                       std::optional<double> posinf = std::nullopt,
                       std::optional<double> neginf = std::nullopt);
// isclose: self == other, or |self - other| <= atol + rtol * |other| where that is finite
// (ATen's composite); equal_nan counts NaN as equal to NaN.
Tensor isclose(const Tensor& self, const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
               bool equal_nan = false);

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_out(const Tensor& out, const Tensor& self, const Tensor& other,
                const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_out(const Tensor& out, const Tensor& self, const Tensor& other,
                const Scalar& alpha = 1);
// rounding_mode: nullopt (true division), "trunc" or "floor".
Tensor div(const Tensor& self, const Tensor& other,
           std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor div(const Tensor& self, const Scalar& other,
           std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor& div_out(const Tensor& out, const Tensor& self, const Tensor& other,
                std::optional<std::string_view> rounding_mode = std::nullopt);
// pow with a Scalar base (the Tensor-Tensor and Tensor-Scalar forms are plain).
Tensor pow(const Scalar& self, const Tensor& exponent);

Tensor operator-(const Tensor& a);
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, const Scalar& b);
Tensor operator-(const Tensor& a, const Scalar& b);
Tensor operator*(const Tensor& a, const Scalar& b);
Tensor operator/(const Tensor& a, const Scalar& b);

// ---- ternary ----
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other);
Tensor& where_out(const Tensor& out, const Tensor& condition, const Tensor& self,
                  const Tensor& other);
Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight);
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor& lerp_out(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value = 1);
Tensor& addcmul_out(const Tensor& out, const Tensor& self, const Tensor& t1, const Tensor& t2,
                    const Scalar& value = 1);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);

// ---- reductions (an empty dim list reduces every dim) ----
Tensor sum(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim = false,
           std::optional<ScalarType> dtype = std::nullopt);
Tensor& sum_out(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false,
                std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor& self, IntArrayRef dim, bool keepdim = false,
            std::optional<ScalarType> dtype = std::nullopt);
Tensor& mean_out(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false,
                 std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor& self, int64_t dim, bool keepdim = false,
            std::optional<ScalarType> dtype = std::nullopt);
Tensor& prod_out(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim = false,
                 std::optional<ScalarType> dtype = std::nullopt);
Tensor amax(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
Tensor& amax_out(const Tensor& out, const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
Tensor amin(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
Tensor& amin_out(const Tensor& out, const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
Tensor max(const Tensor& self);
Tensor min(const Tensor& self);
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor&, Tensor&> max_out(const Tensor& values, const Tensor& indices,
                                     const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor&, Tensor&> min_out(const Tensor& values, const Tensor& indices,
                                     const Tensor& self, int64_t dim, bool keepdim = false);
Tensor argmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor& argmax_out(const Tensor& out, const Tensor& self, std::optional<int64_t> dim = std::nullopt,
                   bool keepdim = false);
Tensor& argmin_out(const Tensor& out, const Tensor& self, std::optional<int64_t> dim = std::nullopt,
                   bool keepdim = false);
Tensor var(const Tensor& self, IntArrayRef dim = {}, double correction = 1, bool keepdim = false);
Tensor& var_out(const Tensor& out, const Tensor& self, IntArrayRef dim = {}, double correction = 1,
                bool keepdim = false);
Tensor std(const Tensor& self, IntArrayRef dim = {}, double correction = 1, bool keepdim = false);
Tensor& std_out(const Tensor& out, const Tensor& self, IntArrayRef dim = {}, double correction = 1,
                bool keepdim = false);
// Any p but a bool, as ATen (p = 0 counts nonzeros, +-inf: max/min of |x|).
Tensor norm(const Tensor& self, const Scalar& p = 2, IntArrayRef dim = {}, bool keepdim = false);
Tensor& norm_out(const Tensor& out, const Tensor& self, const Scalar& p = 2, IntArrayRef dim = {},
                 bool keepdim = false);
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim = false);
Tensor& logsumexp_out(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false);
Tensor all(const Tensor& self);
Tensor all(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor& all_out(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim = false);
Tensor any(const Tensor& self);
Tensor any(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor& any_out(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim = false);
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& cumsum_out(const Tensor& out, const Tensor& self, int64_t dim,
                   std::optional<ScalarType> dtype = std::nullopt);
// scans (issue 16)
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& cumprod_out(const Tensor& out, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype = std::nullopt);
Tensor logcumsumexp(const Tensor& self, int64_t dim);
Tensor& logcumsumexp_out(const Tensor& out, const Tensor& self, int64_t dim);

// ---- nn ----
Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& softmax_out(const Tensor& out, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& log_softmax_out(const Tensor& out, const Tensor& self, int64_t dim,
                        std::optional<ScalarType> dtype = std::nullopt);
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight = {},
                  const Tensor& bias = {}, double eps = 1e-5);
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                Reduction reduction = Reduction::Mean, int64_t ignore_index = -100);
Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                     Reduction reduction = Reduction::Mean, int64_t ignore_index = -100,
                     double label_smoothing = 0.0);
Tensor mse_loss(const Tensor& self, const Tensor& target, Reduction reduction = Reduction::Mean);
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});
Tensor dropout(const Tensor& input, double p, bool train);

// ---- convolution (issue 16) ----
// As ATen: stride, padding, dilation and output_padding give one value per spatial dim or one
// for all; convNd and conv_transposeNd take a batched (N, C, *) or an unbatched (C, *) input.
Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias,
                   IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                   IntArrayRef output_padding, int64_t groups);
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
              int64_t groups = 1);
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
              int64_t groups = 1);
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
              int64_t groups = 1);
// conv1d.padding etc.: padding "valid" (none) or "same" (output size = input size; stride 1).
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation = 1, int64_t groups = 1);
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation = 1, int64_t groups = 1);
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation = 1, int64_t groups = 1);
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        IntArrayRef stride = 1, IntArrayRef padding = 0,
                        IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        IntArrayRef stride = 1, IntArrayRef padding = 0,
                        IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        IntArrayRef stride = 1, IntArrayRef padding = 0,
                        IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);
// ---- normalization, embedding, attention, activations (issue 16) ----
Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const Tensor& running_mean, const Tensor& running_var, bool training,
                  double momentum = 0.1, double eps = 1e-5, bool cudnn_enabled = true);
Tensor group_norm(const Tensor& input, int64_t num_groups, const Tensor& weight = {},
                  const Tensor& bias = {}, double eps = 1e-5, bool cudnn_enabled = true);
// eps nullopt: the epsilon of input's dtype (std::numeric_limits<T>::epsilon()), as PyTorch.
Tensor rms_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight = {},
                std::optional<double> eps = std::nullopt);
Tensor instance_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     const Tensor& running_mean, const Tensor& running_var, bool use_input_stats,
                     double momentum = 0.1, double eps = 1e-5, bool cudnn_enabled = true);
Tensor local_response_norm(const Tensor& input, int64_t size, double alpha = 1e-4,
                           double beta = 0.75, double k = 1.0);
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1,
                 bool scale_grad_by_freq = false, bool sparse = false);
Tensor one_hot(const Tensor& self, int64_t num_classes = -1);
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask = {}, double dropout_p = 0.0,
                                    bool is_causal = false,
                                    std::optional<double> scale = std::nullopt);
Tensor glu(const Tensor& self, int64_t dim = -1);
Tensor prelu(const Tensor& self, const Tensor& weight);

// ---- linalg ----
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor& mm_out(const Tensor& out, const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor& bmm_out(const Tensor& out, const Tensor& self, const Tensor& mat2);
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
             const Scalar& alpha = 1);
Tensor& addmm_out(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                  const Scalar& beta = 1, const Scalar& alpha = 1);
Tensor dot(const Tensor& self, const Tensor& other);
Tensor& dot_out(const Tensor& out, const Tensor& self, const Tensor& other);
Tensor mv(const Tensor& self, const Tensor& vec);
Tensor& mv_out(const Tensor& out, const Tensor& self, const Tensor& vec);
Tensor outer(const Tensor& self, const Tensor& vec2);
Tensor& outer_out(const Tensor& out, const Tensor& self, const Tensor& vec2);

// ---- indexing and joining ----
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor& index_select_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index);
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
Tensor& gather_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index);
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor& scatter_add_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& src);
Tensor cat(TensorList tensors, int64_t dim = 0);
Tensor& cat_out(const Tensor& out, TensorList tensors, int64_t dim = 0);
Tensor stack(TensorList tensors, int64_t dim = 0);
Tensor& stack_out(const Tensor& out, TensorList tensors, int64_t dim = 0);

// ---- advanced indexing (issue 16; lib/src/ops/advanced_index.cpp) ----
// indices: one entry per leading dim of self (std::nullopt: the whole dim), int64 or int32
// index tensors broadcast together, or bool/uint8 masks (each as its nonzero() columns).
using OptionalTensorList = ArrayRef<std::optional<Tensor>>;
Tensor index(const Tensor& self, OptionalTensorList indices);
Tensor& index_out(const Tensor& out, const Tensor& self, OptionalTensorList indices);
Tensor index_put(const Tensor& self, OptionalTensorList indices, const Tensor& values,
                 bool accumulate = false);
Tensor& index_put_(const Tensor& self, OptionalTensorList indices, const Tensor& values,
                   bool accumulate = false);
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha = 1);
Tensor& index_add_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                      const Tensor& source, const Scalar& alpha = 1);
// scatter: src (or value) written at index along dim; reduce "add" or "multiply" combines.
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
               std::string_view reduce);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
               std::string_view reduce);
Tensor& scatter_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Tensor& src);
Tensor& scatter_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Scalar& value);
Tensor& scatter_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Tensor& src, std::string_view reduce);
Tensor& scatter_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Scalar& value, std::string_view reduce);
// reduce: "sum", "prod", "mean", "amax" or "amin".
Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                      std::string_view reduce, bool include_self = true);
Tensor& scatter_reduce_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor& src, std::string_view reduce, bool include_self = true);
Tensor masked_select(const Tensor& self, const Tensor& mask);
Tensor& masked_select_out(const Tensor& out, const Tensor& self, const Tensor& mask);
Tensor nonzero(const Tensor& self);
Tensor& nonzero_out(const Tensor& out, const Tensor& self);
// nonzero(self, as_tuple=True): one int64 tensor per dim (a 0-dim self counts as 1-D).
std::vector<Tensor> nonzero_numpy(const Tensor& self);
Tensor& index_put_out(const Tensor& out, const Tensor& self, OptionalTensorList indices,
                      const Tensor& values, bool accumulate = false);
// take, put: self read and written as if flattened (row-major), index int64 (negative wraps).
Tensor take(const Tensor& self, const Tensor& index);
Tensor& take_out(const Tensor& out, const Tensor& self, const Tensor& index);
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);
Tensor& put_out(const Tensor& out, const Tensor& self, const Tensor& index, const Tensor& source,
                bool accumulate = false);
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Tensor& index_copy_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                       const Tensor& source);
// index_fill: value a Scalar or a 0-dim tensor (differentiable, as ATen's int_Tensor overload).
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value);
Tensor& index_fill_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                       const Scalar& value);
Tensor& index_fill_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                       const Tensor& value);
// masked_scatter: source's elements, in row-major order, written where mask (bool) is true.
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);
Tensor& masked_scatter_out(const Tensor& out, const Tensor& self, const Tensor& mask,
                           const Tensor& source);

// ---- shape (issue 16) ----
// Views, as the Tensor methods (lib/src/views.cpp): share self's storage.
Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes);
Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination);
Tensor movedim(const Tensor& self, int64_t source, int64_t destination);
Tensor diagonal(const Tensor& self, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);
std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);
std::vector<Tensor> unbind(const Tensor& self, int64_t dim = 0);
// Copies (lib/src/ops/shape.cpp). roll with no dims rolls the flattened tensor.
Tensor flip(const Tensor& self, IntArrayRef dims);
Tensor& flip_out(const Tensor& out, const Tensor& self, IntArrayRef dims);
Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims = {});
Tensor& roll_out(const Tensor& out, const Tensor& self, IntArrayRef shifts, IntArrayRef dims = {});
Tensor tril(const Tensor& self, int64_t diagonal = 0);
Tensor& tril_out(const Tensor& out, const Tensor& self, int64_t diagonal = 0);
Tensor triu(const Tensor& self, int64_t diagonal = 0);
Tensor& triu_out(const Tensor& out, const Tensor& self, int64_t diagonal = 0);
// trace: the sum of a matrix's main diagonal (integers give int64, as sum).
Tensor trace(const Tensor& self);
// diag: a 1-D self gives the matrix with self on its `diagonal`; a 2-D self that diagonal.
Tensor diag(const Tensor& self, int64_t diagonal = 0);
Tensor& diag_out(const Tensor& out, const Tensor& self, int64_t diagonal = 0);
Tensor tile(const Tensor& self, IntArrayRef dims);
// diff: the n-th forward difference along dim (bool: xor), after prepend and append join.
Tensor diff(const Tensor& self, int64_t n = 1, int64_t dim = -1, const Tensor& prepend = {},
            const Tensor& append = {});
// kron: the Kronecker product (the shorter shape padded with leading 1s).
Tensor kron(const Tensor& self, const Tensor& other);
// beta * self + alpha * (batch1 @ batch2) (baddbmm), summed over the batch (addbmm), and
// beta * self + alpha * (mat @ vec) (addmv); a beta of zero ignores self (NaN included).
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
               const Scalar& beta = 1, const Scalar& alpha = 1);
Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
              const Scalar& beta = 1, const Scalar& alpha = 1);
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta = 1,
             const Scalar& alpha = 1);
// repeat_interleave(repeats): each index i repeated repeats[i] times (1-D int32/int64 repeats,
// a result of their dtype); output_size, when given, must be their sum. The self forms repeat
// each slice of self along dim (self flattened when dim is None) repeats[i] times (a 0-dim or
// one-element repeats, or an int, repeats every slice alike) (lib/src/ops/pad.cpp).
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size = std::nullopt);
Tensor repeat_interleave(const Tensor& self, const Tensor& repeats,
                         std::optional<int64_t> dim = std::nullopt,
                         std::optional<int64_t> output_size = std::nullopt);
Tensor repeat_interleave(const Tensor& self, int64_t repeats,
                         std::optional<int64_t> dim = std::nullopt,
                         std::optional<int64_t> output_size = std::nullopt);
// Padding, as ATen: `pad` holds (left, right) pairs, the last dim's first; negative pads crop.
// pad (torch.nn.functional.pad): mode "constant" (value, default 0), "reflect", "replicate" or
// "circular" (1-3 trailing dims of a batched or unbatched input for the last three).
Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode = "constant",
           std::optional<double> value = std::nullopt);
Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value = 0);
Tensor _pad_circular(const Tensor& self, IntArrayRef pad);
// The kernel ops under the per-dim forms: 1 to 3 padded dims (padding's length / 2).
Tensor reflection_pad(const Tensor& self, IntArrayRef padding);
Tensor replication_pad(const Tensor& self, IntArrayRef padding);
Tensor reflection_pad1d(const Tensor& self, IntArrayRef padding);
Tensor reflection_pad2d(const Tensor& self, IntArrayRef padding);
Tensor reflection_pad3d(const Tensor& self, IntArrayRef padding);
Tensor replication_pad1d(const Tensor& self, IntArrayRef padding);
Tensor replication_pad2d(const Tensor& self, IntArrayRef padding);
Tensor replication_pad3d(const Tensor& self, IntArrayRef padding);
// meshgrid: views of 0-dim or 1-D tensors expanded to the grid; indexing "ij" or "xy".
std::vector<Tensor> meshgrid(ArrayRef<Tensor> tensors, std::string_view indexing = "ij");
// einsum: "ij,jk->ik" style equations with '...' and repeated indices; the output, when not
// given after "->", is the indices seen once, in alphabetical order (lib/src/ops/einsum.cpp).
Tensor einsum(std::string_view equation, ArrayRef<Tensor> tensors);
// tensordot: the sum over dims_self of self and dims_other of other; an int `dims` contracts
// self's last `dims` dims with other's first (torch.tensordot's int form).
Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self,
                 IntArrayRef dims_other);
Tensor tensordot(const Tensor& self, const Tensor& other, int64_t dims = 2);
Tensor& tensordot_out(const Tensor& out, const Tensor& self, const Tensor& other,
                      IntArrayRef dims_self, IntArrayRef dims_other);
// ---- sorting and selection (issue 16) ----
// As ATen's C++ API, sort's stable overload takes std::optional<bool> (sort(x, true) is dim 1).
std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim = -1, bool descending = false);
std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                bool descending = false);
std::tuple<Tensor&, Tensor&> sort_out(const Tensor& values, const Tensor& indices,
                                      const Tensor& self, int64_t dim = -1,
                                      bool descending = false);
std::tuple<Tensor&, Tensor&> sort_out(const Tensor& values, const Tensor& indices,
                                      const Tensor& self, std::optional<bool> stable, int64_t dim,
                                      bool descending = false);
Tensor argsort(const Tensor& self, int64_t dim = -1, bool descending = false);
Tensor argsort(const Tensor& self, bool stable, int64_t dim, bool descending = false);
std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim = -1,
                                bool largest = true, bool sorted = true);
std::tuple<Tensor&, Tensor&> topk_out(const Tensor& values, const Tensor& indices,
                                      const Tensor& self, int64_t k, int64_t dim = -1,
                                      bool largest = true, bool sorted = true);
std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim = -1,
                                    bool keepdim = false);
std::tuple<Tensor&, Tensor&> kthvalue_out(const Tensor& values, const Tensor& indices,
                                          const Tensor& self, int64_t k, int64_t dim = -1,
                                          bool keepdim = false);
Tensor median(const Tensor& self);
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor&, Tensor&> median_out(const Tensor& values, const Tensor& indices,
                                        const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim = -1, bool keepdim = false);
std::tuple<Tensor&, Tensor&> mode_out(const Tensor& values, const Tensor& indices,
                                      const Tensor& self, int64_t dim = -1, bool keepdim = false);
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim);
std::tuple<Tensor&, Tensor&> cummax_out(const Tensor& values, const Tensor& indices,
                                        const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim);
std::tuple<Tensor&, Tensor&> cummin_out(const Tensor& values, const Tensor& indices,
                                        const Tensor& self, int64_t dim);
// searches and unique (issue 16; lib/src/ops/sorted.cpp). side: "left" or "right"; sorter: the
// int64 positions that sort each row of sorted_sequence (undefined: none).
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32 = false,
                    bool right = false, std::optional<std::string_view> side = std::nullopt,
                    const Tensor& sorter = {});
Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& self, bool out_int32 = false,
                    bool right = false, std::optional<std::string_view> side = std::nullopt,
                    const Tensor& sorter = {});
Tensor& searchsorted_out(const Tensor& out, const Tensor& sorted_sequence, const Tensor& self,
                         bool out_int32 = false, bool right = false,
                         std::optional<std::string_view> side = std::nullopt,
                         const Tensor& sorter = {});
Tensor& searchsorted_out(const Tensor& out, const Tensor& sorted_sequence, const Scalar& self,
                         bool out_int32 = false, bool right = false,
                         std::optional<std::string_view> side = std::nullopt,
                         const Tensor& sorter = {});
Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32 = false,
                 bool right = false);
Tensor bucketize(const Scalar& self, const Tensor& boundaries, bool out_int32 = false,
                 bool right = false);
Tensor& bucketize_out(const Tensor& out, const Tensor& self, const Tensor& boundaries,
                      bool out_int32 = false, bool right = false);
Tensor& bucketize_out(const Tensor& out, const Scalar& self, const Tensor& boundaries,
                      bool out_int32 = false, bool right = false);
// (values, inverse indices, counts); inverse and counts are empty unless asked for, as ATen's.
std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor& self, bool sorted = true,
                                            bool return_inverse = false,
                                            bool return_counts = false);
std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& self, int64_t dim, bool sorted = true,
                                              bool return_inverse = false,
                                              bool return_counts = false);
std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& self,
                                                      bool return_inverse = false,
                                                      bool return_counts = false,
                                                      std::optional<int64_t> dim = std::nullopt);
// torch.unique: _unique2, or unique_dim when dim is given (torch/functional.py).
std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& self, bool sorted = true,
                                          bool return_inverse = false, bool return_counts = false,
                                          std::optional<int64_t> dim = std::nullopt);

// ---- losses (issue 16) ----
// ATen's arguments, order and defaults; reduction as nll_loss's. binary_cross_entropy and
// ctc_loss are kernels, the others composites (lib/src/ops/loss.cpp).
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                            Reduction reduction = Reduction::Mean);
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const Tensor& weight = {}, const Tensor& pos_weight = {},
                                        Reduction reduction = Reduction::Mean);
Tensor l1_loss(const Tensor& self, const Tensor& target, Reduction reduction = Reduction::Mean);
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target,
                      Reduction reduction = Reduction::Mean, double beta = 1.0);
Tensor huber_loss(const Tensor& self, const Tensor& target, Reduction reduction = Reduction::Mean,
                  double delta = 1.0);
Tensor kl_div(const Tensor& self, const Tensor& target, Reduction reduction = Reduction::Mean,
              bool log_target = false);
// torch.nn.functional.kl_div's string reduction: "none", "mean", "sum" or "batchmean" (the sum
// divided by self.size(0), a 0-dim self's sum as is), as current PyTorch.
Tensor kl_div(const Tensor& self, const Tensor& target, std::string_view reduction,
              bool log_target = false);
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim = 1, double eps = 1e-8);
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p = 2, double eps = 1e-6,
                         bool keepdim = false);
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                             double margin = 0.0, Reduction reduction = Reduction::Mean);
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           double margin = 0.0, Reduction reduction = Reduction::Mean);
Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                           double margin = 1.0, double p = 2, double eps = 1e-6, bool swap = false,
                           Reduction reduction = Reduction::Mean);
// log_probs (T, N, C) or (T, C); targets padded (N, S) or concatenated (sum(target_lengths)),
// (S) for an unbatched call. The Tensor overload takes int64 lengths (ctc_loss.Tensor).
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                IntArrayRef target_lengths, int64_t blank = 0,
                Reduction reduction = Reduction::Mean, bool zero_infinity = false);
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank = 0,
                Reduction reduction = Reduction::Mean, bool zero_infinity = false);
// ---- pooling (issue 16) ----
// As ATen: kernel_size, stride, padding and dilation give one value for every spatial dim or one
// per dim; an empty stride is kernel_size. Inputs (C, *) or (N, C, *). Indices (int64) count over
// each plane's spatial elements, row-major. max_pool and avg_pool take any 1 to 3 spatial dims
// (kernel_size's length): touchstone's kernel ops under the per-dim forms.
std::tuple<Tensor, Tensor> max_pool(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                    IntArrayRef padding, IntArrayRef dilation, bool ceil_mode);
Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = 0, IntArrayRef dilation = 1, bool ceil_mode = false);
Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = 0, IntArrayRef dilation = 1, bool ceil_mode = false);
Tensor max_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = 0, IntArrayRef dilation = 1, bool ceil_mode = false);
std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride = {}, IntArrayRef padding = 0,
                                                   IntArrayRef dilation = 1,
                                                   bool ceil_mode = false);
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride = {}, IntArrayRef padding = 0,
                                                   IntArrayRef dilation = 1,
                                                   bool ceil_mode = false);
std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride = {}, IntArrayRef padding = 0,
                                                   IntArrayRef dilation = 1,
                                                   bool ceil_mode = false);
Tensor avg_pool(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                std::optional<int64_t> divisor_override);
Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = 0, bool ceil_mode = false, bool count_include_pad = true);
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = 0, bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
Tensor avg_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = 0, bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntArrayRef output_size);

// ---- embedding_bag (issue 16) ----
// ATen's argument order and its first result (the output): mode 0 sum, 1 mean, 2 max; bags
// [offsets[b], offsets[b + 1]) of a 1-D `indices` (the last bag ends at indices' end unless
// include_last_offset), or the rows of a 2-D `indices` when offsets is undefined (fixed-length
// bags, as torch.nn.functional.embedding_bag). Entries equal to padding_idx are left out.
Tensor embedding_bag(const Tensor& weight, const Tensor& indices, const Tensor& offsets = {},
                     bool scale_grad_by_freq = false, int64_t mode = 0, bool sparse = false,
                     const Tensor& per_sample_weights = {}, bool include_last_offset = false,
                     std::optional<int64_t> padding_idx = std::nullopt);

// ---- interpolation (issue 16) ----
// As ATen: inputs (N, C, *) (also (C, *) for the kernel ops and interpolate), output (*,
// output_size...). A scale (scale_factor as given, or none) replaces input / output in the
// source-index formulas (Note [compute_scales_value] of ATen's UpSample.h); a scale <= 0 is none.
// upsample_nearest, _upsample_nearest_exact and upsample_linear take 1 to 3 spatial dims
// (output_size's length): touchstone's kernel ops under the per-dim forms.
using ScaleList = ArrayRef<std::optional<double>>;
Tensor upsample_nearest(const Tensor& self, IntArrayRef output_size, ScaleList scales = {});
Tensor _upsample_nearest_exact(const Tensor& self, IntArrayRef output_size, ScaleList scales = {});
Tensor upsample_linear(const Tensor& self, IntArrayRef output_size, bool align_corners,
                       ScaleList scales = {});
Tensor upsample_bicubic2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                          std::optional<double> scales_h = std::nullopt,
                          std::optional<double> scales_w = std::nullopt);
Tensor upsample_nearest1d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales = std::nullopt);
Tensor upsample_nearest2d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales_h = std::nullopt,
                          std::optional<double> scales_w = std::nullopt);
Tensor upsample_nearest3d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales_d = std::nullopt,
                          std::optional<double> scales_h = std::nullopt,
                          std::optional<double> scales_w = std::nullopt);
Tensor _upsample_nearest_exact1d(const Tensor& self, IntArrayRef output_size,
                                 std::optional<double> scales = std::nullopt);
Tensor _upsample_nearest_exact2d(const Tensor& self, IntArrayRef output_size,
                                 std::optional<double> scales_h = std::nullopt,
                                 std::optional<double> scales_w = std::nullopt);
Tensor _upsample_nearest_exact3d(const Tensor& self, IntArrayRef output_size,
                                 std::optional<double> scales_d = std::nullopt,
                                 std::optional<double> scales_h = std::nullopt,
                                 std::optional<double> scales_w = std::nullopt);
Tensor upsample_linear1d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                         std::optional<double> scales = std::nullopt);
Tensor upsample_bilinear2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                           std::optional<double> scales_h = std::nullopt,
                           std::optional<double> scales_w = std::nullopt);
Tensor upsample_trilinear3d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                            std::optional<double> scales_d = std::nullopt,
                            std::optional<double> scales_h = std::nullopt,
                            std::optional<double> scales_w = std::nullopt);
// torch.nn.functional.interpolate: size or scale_factor (one value for every spatial dim, or
// one per dim; empty: None); mode "nearest", "nearest-exact", "linear", "bilinear", "trilinear",
// "bicubic" or "area". antialias=True is refused (not implemented).
Tensor interpolate(const Tensor& input, IntArrayRef size = {}, ArrayRef<double> scale_factor = {},
                   std::string_view mode = "nearest",
                   std::optional<bool> align_corners = std::nullopt,
                   std::optional<bool> recompute_scale_factor = std::nullopt,
                   bool antialias = false);
// grid_sampler (ATen's): input (N, C, H, W) with grid (N, H_out, W_out, 2), or (N, C, D, H, W)
// with (N, D_out, H_out, W_out, 3) (bilinear and nearest only); grid (x, y[, z]) in [-1, 1]
// spans the input (pixel centers, or corners with align_corners). interpolation_mode 0
// bilinear, 1 nearest, 2 bicubic; padding_mode 0 zeros, 1 border, 2 reflection.
Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                    int64_t padding_mode, bool align_corners);
// Its gradients (grad_input, grad_grid) for grad_output (ATen's grid_sampler_{2,3}d_backward).
std::tuple<Tensor, Tensor> grid_sampler_backward(const Tensor& grad_output, const Tensor& input,
                                                 const Tensor& grid, int64_t interpolation_mode,
                                                 int64_t padding_mode, bool align_corners);
// torch.nn.functional.grid_sample: mode "bilinear", "nearest" or "bicubic", padding_mode
// "zeros", "border" or "reflection"; align_corners None is False.
Tensor grid_sample(const Tensor& input, const Tensor& grid, std::string_view mode = "bilinear",
                   std::string_view padding_mode = "zeros",
                   std::optional<bool> align_corners = std::nullopt);
// torch.nn.functional.affine_grid: theta (N, 2, 3) with size (N, C, H, W) -> (N, H, W, 2), or
// theta (N, 3, 4) with size (N, C, D, H, W) -> (N, D, H, W, 3); align_corners None is False.
Tensor affine_grid(const Tensor& theta, IntArrayRef size,
                   std::optional<bool> align_corners = std::nullopt);

}  // namespace ts
