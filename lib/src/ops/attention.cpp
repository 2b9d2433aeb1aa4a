// Attention and gated activations (issue 16), all composites: scaled_dot_product_attention
// (ATen's math path), glu and prelu. Their derivatives come from their parts.
#include <cmath>
#include <limits>

#include "meta.h"
#include "touchstone/ops.h"

namespace ts {

// ---- scaled_dot_product_attention (composite) ----

// Note [scaled_dot_product_attention's math path]
// As current PyTorch's _scaled_dot_product_attention_math (ATen 1.13 has no public op of this
// name): float16/bfloat16 compute in float32; q and k^T are each scaled by sqrt(scale) (scale
// defaults to 1 / sqrt(E)); a bool mask (or is_causal's lower triangle) becomes 0 where true and
// -inf where false; the mask is added to q k^T; softmax over the last dim is _safe_softmax (a
// row that is -inf everywhere gives zeros, not NaN: PyTorch 2.5+); dropout (training mode, the
// counter-based RNG, as ts::dropout) then the product with v.
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask, double dropout_p, bool is_causal,
                                    std::optional<double> scale) {
  const char* op = "scaled_dot_product_attention";
  const UserOpScope scope(op);
  meta::check_defined(op, query, "query");
  meta::check_defined(op, key, "key");
  meta::check_defined(op, value, "value");
  TS_CHECK(query.dtype() == key.dtype() && query.dtype() == value.dtype(), op,
           ": Expected query, key, and value to have the same dtype, but got query.dtype: ",
           query.dtype(), " key.dtype: ", key.dtype(), " and value.dtype: ", value.dtype(),
           " instead.");
  meta::check_dtype_supported(op, query.dtype(), op_info(OpId::scaled_dot_product_attention).dtypes,
                              "query");
  for (const auto& [t, arg] :
       {std::pair{&query, "query"}, std::pair{&key, "key"}, std::pair{&value, "value"}}) {
    TS_CHECK(t->dim() >= 2, op, ": Expected ", arg, " to have at least 2 dimensions (..., L, E), ",
             "but got ", arg, " of size ", t->sizes());
  }
  TS_CHECK(key.size(-1) == query.size(-1), op, ": Expected key's last dim (", key.size(-1),
           ") to equal query's (", query.size(-1), ") (argument 'key')");
  TS_CHECK(value.size(-2) == key.size(-2), op, ": Expected value's sequence length (",
           value.size(-2), ") to equal key's (", key.size(-2), ") (argument 'value')");
  TS_CHECK(dropout_p >= 0 && dropout_p <= 1, op,
           ": dropout probability has to be between 0 and 1, but got ", dropout_p,
           " (argument 'dropout_p')");
  if (attn_mask.defined()) {
    TS_CHECK(!is_causal, op,
             ": Explicit attn_mask should not be set when is_causal=True (argument 'attn_mask')");
    TS_CHECK(attn_mask.dtype() == kBool || attn_mask.dtype() == query.dtype(), op,
             ": Expected attn_mask dtype to be bool or float or to match query dtype, but got "
             "attn_mask.dtype: ",
             attn_mask.dtype(), " and query.dtype: ", query.dtype(), " instead.");
  }
  meta::common_device(op, std::vector<Tensor>{query, key, value, attn_mask});
  const ScalarType dtype = query.dtype();
  const bool reduced = dtype == kHalf || dtype == kBFloat16;
  const auto acc = [&](const Tensor& t) { return reduced ? t.to(kFloat) : t; };
  const int64_t l = query.size(-2), s = key.size(-2);
  const double factor =
      std::sqrt(scale ? std::abs(*scale) : 1.0 / std::sqrt(static_cast<double>(query.size(-1))));
  const Tensor q = acc(query) * (scale && *scale < 0 ? -factor : factor);
  Tensor attn = matmul(q, acc(key).transpose(-2, -1) * factor);
  const double inf = std::numeric_limits<double>::infinity();
  Tensor mask = attn_mask;
  if (is_causal) {
    const TensorOptions longs = TensorOptions(kLong).device(query.device());
    mask = ge(arange(l, longs).unsqueeze(1), arange(s, longs).unsqueeze(0));
  }
  if (mask.defined()) {
    // A bool mask becomes 0 where true, -inf where false; the mask then broadcasts with q k^T
    // (add checks and names a mismatch).
    if (mask.dtype() == kBool) {
      mask = where(mask, 0.0, full({}, -inf, TensorOptions(attn.dtype()).device(attn.device())));
    }
    attn = attn + acc(mask);
  }
  // _safe_softmax: rows with no position left are zeros.
  const Tensor empty_rows = eq(attn.amax({-1}, /*keepdim=*/true), -inf);
  attn = softmax(attn, -1).masked_fill(empty_rows, 0.0);
  if (dropout_p > 0) attn = dropout(attn, dropout_p, /*train=*/true);
  const Tensor out = matmul(attn, acc(value));
  return reduced ? out.to(dtype) : out;
}

// ---- glu (composite) ----

// glu(a, b) = a * sigmoid(b), a and b the halves of self along dim (ATen's kernel; here its
// parts, which give derivatives.yaml's glu_backward).
Tensor glu(const Tensor& self, int64_t dim) {
  const char* op = "glu";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  TS_CHECK(self.dim() > 0, op, ": glu does not support scalars because halving size must be even");
  const int64_t d = wrap_dim(dim, self.dim(), op);
  const int64_t n = self.size(d);
  TS_CHECK(n % 2 == 0, op, ": Halving dimension must be even, but dimension ", d, " is size ", n);
  meta::check_dtype_supported(op, self.dtype(), op_info(OpId::glu).dtypes, "self");
  return self.narrow(d, 0, n / 2) * sigmoid(self.narrow(d, n / 2, n / 2));
}

// ---- prelu (composite) ----

// Current PyTorch's prelu: where(self > 0, self, weight * self), weight (1 or C elements)
// broadcast over the channel dim 1 (the only dim of a 1-D input is not a channel dim).
Tensor prelu(const Tensor& self, const Tensor& weight) {
  const char* op = "prelu";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, weight, "weight");
  TS_CHECK(
      weight.dim() <= 1, op,
      ": prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = ", weight.dim());
  const int64_t channels = self.dim() >= 2 ? self.size(1) : 1;
  const int64_t n = weight.numel();
  TS_CHECK(n == 1 || n == channels, op,
           ": Mismatch of parameter numbers and input channel size. Found parameter numbers = ", n,
           " and channel size = ", channels, ". (argument 'weight')");
  TS_CHECK(self.dtype() == weight.dtype(), op, ": expected weight to have self's dtype ",
           self.dtype(), ", but got ", weight.dtype(), " (argument 'weight')");
  meta::check_dtype_supported(op, self.dtype(), op_info(OpId::prelu).dtypes, "self");
  meta::common_device(op, std::vector<Tensor>{self, weight}, OpId::prelu);
  Tensor w = weight;
  if (self.dim() >= 2 && n > 1) {
    DimVector shape(static_cast<size_t>(self.dim()), 1);
    shape[1] = n;
    w = weight.reshape(shape);
  } else if (weight.dim() == 1 && self.dim() < 1) {
    w = weight.reshape({});  // a 0-dim self keeps its shape
  }
  return where(gt(self, 0), self, w * self);
}

}  // namespace ts
