// Losses of issue 16: meta for binary_cross_entropy and ctc_loss (kernels), the composites
// binary_cross_entropy_with_logits, l1_loss, smooth_l1_loss, huber_loss, kl_div,
// cosine_similarity, pairwise_distance, cosine_embedding_loss, margin_ranking_loss and
// triplet_margin_loss, and the kernels' derivatives (at the end).
// Params (touchstone/op_params.h; compute_dtype is self's dtype, the result's):
//   binary_cross_entropy: inputs {self, target, weight}, target of self's shape, weight expanded
//     to it (undefined when absent); LossParams: reduction. The meta has checked every CPU
//     element of self and target is in [0, 1].
//   ctc_loss: inputs {log_probs (T, N, C), targets (N, S) padded or 1-D concatenated, int64 or
//     int32}; an unbatched (T, C) call arrives as (T, 1, C). CtcLossParams: reduction, lengths
//     (N each), blank, zero_infinity, concatenated, with_grad. Outputs {result (N) or 0-dim} and,
//     with with_grad, {d nll_n / d log_probs (T, N, C), contiguous} (Note [ctc_loss gradient]).
//     The meta has checked every length and every CPU target value.
#include <cmath>
#include <limits>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/autograd.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

void check_reduction(const char* op, Reduction reduction) {
  const auto r = static_cast<int64_t>(reduction);
  TS_CHECK(r >= 0 && r <= 2, op, ": reduction must be None (0), Mean (1) or Sum (2), but got ", r,
           " (argument 'reduction')");
}

// ATen's apply_loss_reduction.
Tensor apply_loss_reduction(const Tensor& loss, Reduction reduction) {
  if (reduction == Reduction::Mean) return loss.mean();
  if (reduction == Reduction::Sum) return loss.sum();
  return loss;
}

// The common floating dtype of a loss's inputs, checked against the op's dtypes.
ScalarType floating_result(const char* op, OpId id, TensorList inputs, const char* arg) {
  ScalarType common = inputs[0].dtype();
  for (size_t i = 1; i < inputs.size(); ++i) common = promote_types(common, inputs[i].dtype());
  meta::check_dtype_supported(op, common, op_info(id).dtypes, arg);
  return common;
}

// Checks that a composite's inputs are defined and broadcast together (naming the argument).
void check_pair(const char* op, OpId id, const Tensor& a, const char* a_name, const Tensor& b,
                const char* b_name) {
  meta::check_defined(op, a, a_name);
  meta::check_defined(op, b, b_name);
  const Tensor inputs[] = {a, b};
  (void)meta::broadcast_shapes(op, inputs, id);
  (void)floating_result(op, id, inputs, a_name);
}

}  // namespace

// ---- binary_cross_entropy ----

// Note [binary_cross_entropy range check]
// ATen's CPU kernel refuses an input outside [0, 1] ("all elements of input should be between 0
// and 1"; NaN included) and, in current PyTorch (not 1.13), a target outside it. The meta checks
// both once for every set (amin/amax under no grad), so every set refuses the same calls.
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight,
                            Reduction reduction) {
  const char* op = "binary_cross_entropy";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, target, "target");
  check_reduction(op, reduction);
  TS_CHECK(target.sizes() == self.sizes(), op, ": Using a target size (", target.sizes(),
           ") that is different to the input size (", self.sizes(),
           ") is not supported (argument 'target')");
  meta::check_dtype_supported(op, self.dtype(), op_info(OpId::binary_cross_entropy).dtypes, "self");
  TS_CHECK(target.dtype() == self.dtype(), op, ": expected target to have the input's dtype ",
           self.dtype(), ", but got ", target.dtype(), " (argument 'target')");
  Tensor w;
  if (weight.defined()) {
    TS_CHECK(weight.dtype() == self.dtype(), op, ": expected weight to have the input's dtype ",
             self.dtype(), ", but got ", weight.dtype(), " (argument 'weight')");
    bool fits = weight.dim() <= self.dim();
    for (int64_t k = 1; fits && k <= weight.dim(); ++k) {
      const int64_t w = weight.size(weight.dim() - k);
      fits = w == 1 || w == self.size(self.dim() - k);
    }
    TS_CHECK(fits, op, ": weight of shape ", weight.sizes(),
             " does not broadcast to the input's shape ", self.sizes(), " (argument 'weight')");
    // As nll_loss's: ATen has no derivative for the weight and refuses it up front.
    TS_CHECK(!weight.requires_grad() || !GradMode::is_enabled(), op,
             ": not differentiable with respect to argument 'weight'. This input cannot have "
             "requires_grad True.");
    w = weight.expand(self.sizes());
  }
  const Tensor inputs[] = {self, target, w};
  const Device device = meta::common_device(op, inputs, OpId::binary_cross_entropy);
  if (self.is_cpu() && self.numel() > 0) {
    const NoGradGuard no_grad;
    const auto in_range = [](const Tensor& t) {
      return t.amin().item<double>() >= 0 && t.amax().item<double>() <= 1;
    };
    TS_CHECK(in_range(self), op, ": all elements of input should be between 0 and 1");
    TS_CHECK(in_range(target), op, ": all elements of target should be between 0 and 1");
  }

  OpParams p;
  p.compute_dtype = self.dtype();
  p.set(LossParams{reduction});
  const KernelFn fn = lookup_kernel(OpId::binary_cross_entropy, p.compute_dtype, device);
  // Reduction none: laid out as self (ATen's empty_like(input)); a reduced result is 0-dim.
  Tensor result = reduction == Reduction::None
                      ? meta::allocate_like(self.sizes(), p.compute_dtype, device, {self})
                      : empty({}, TensorOptions(p.compute_dtype).device(device));
  run_kernel(fn, KernelCall{OpId::binary_cross_entropy, result, inputs, p});
  return result;
}

// ---- ctc_loss ----

namespace {

DimVector lengths_of(const char* op, const Tensor& t, const char* arg) {
  TS_CHECK(t.defined() && t.dim() <= 1 && (t.dtype() == kLong || t.dtype() == kInt), op, ": ", arg,
           " must be a 0-D or 1-D int64 or int32 tensor (argument '", arg, "')");
  const Tensor c = t.to(kLong).contiguous().reshape({-1});
  const auto* p = static_cast<const int64_t*>(c.data_ptr());
  return DimVector(p, p + c.numel());
}

// Calls f(value) for each target a sample reads: the first target_lengths[n] of row n (padded)
// or of the concatenation; padding is never read, as in ATen.
template <typename F>
void for_each_target(const Tensor& targets, IntArrayRef target_lengths, bool concatenated, F&& f) {
  const Tensor c = targets.to(kLong).contiguous();
  const auto* p = static_cast<const int64_t*>(c.data_ptr());
  const int64_t row = concatenated || c.dim() < 2 ? 0 : c.size(1);
  int64_t offset = 0;
  for (size_t n = 0; n < target_lengths.size(); ++n) {
    for (int64_t i = 0; i < target_lengths[n]; ++i) f(p[offset + i]);
    offset += concatenated ? target_lengths[n] : row;
  }
}

}  // namespace

// Note [ctc_loss gradient]
// ATen's _ctc_loss saves log_alpha and its backward computes beta, then
// d nll / d lp[t, c] = exp(lp[t, c]) - exp(log sum_{s: l'(s) = c} alpha_t(s) beta_t(s) + nll -
// lp[t, c]) for t < input_length (0 after; 0 everywhere for an infinite nll with
// zero_infinity). Here the kernel writes that gradient (for an incoming gradient of 1 per
// sample) as a second output when the call is recorded, and the formula scales it by each
// sample's incoming gradient: written in ts ops, as every formula, but with beta's recursion in
// the kernels. As in ATen, the result is not twice differentiable.
//
// Note [ctc_loss impossible alignments]
// As ATen, a target that no alignment of the input can produce (target longer than the input,
// or too few frames for the blanks between repeated labels) is not an error: its loss is
// infinite (0 with zero_infinity, which exists for them), and so are Mean and Sum.
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                IntArrayRef target_lengths, int64_t blank, Reduction reduction,
                bool zero_infinity) {
  const char* op = "ctc_loss";
  const UserOpScope scope(op);
  meta::check_defined(op, log_probs, "log_probs");
  meta::check_defined(op, targets, "targets");
  check_reduction(op, reduction);
  TS_CHECK(log_probs.dim() == 3 || log_probs.dim() == 2, op,
           ": expected log_probs to be (T, N, C) or (T, C), but got shape ", log_probs.sizes(),
           " (argument 'log_probs')");
  meta::check_dtype_supported(op, log_probs.dtype(), op_info(OpId::ctc_loss).dtypes, "log_probs");
  TS_CHECK(targets.dtype() == kLong || targets.dtype() == kInt, op,
           ": targets must be int64 or int32, but got ", targets.dtype(), " (argument 'targets')");
  const bool batched = log_probs.dim() == 3;
  const Tensor lp = batched ? log_probs : log_probs.unsqueeze(1);
  const int64_t T = lp.size(0), N = lp.size(1), C = lp.size(2);
  TS_CHECK(blank >= 0 && blank < C, op, ": blank must be in label range [0, ", C, "), but got ",
           blank, " (argument 'blank')");
  TS_CHECK(static_cast<int64_t>(input_lengths.size()) == N, op,
           ": input_lengths must be of size batch_size ", N, ", but got ", input_lengths.size(),
           " (argument 'input_lengths')");
  TS_CHECK(static_cast<int64_t>(target_lengths.size()) == N, op,
           ": target_lengths must be of size batch_size ", N, ", but got ", target_lengths.size(),
           " (argument 'target_lengths')");
  int64_t total = 0, max_target = 0;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t il = input_lengths[n], tl = target_lengths[n];
    TS_CHECK(il >= 0 && il <= T, op, ": Expected input_lengths to have value at most ", T,
             " and at least 0, but got value ", il, " at index ", n, " (argument 'input_lengths')");
    TS_CHECK(tl >= 0, op, ": Expected target_lengths to be non-negative, but got value ", tl,
             " at index ", n, " (argument 'target_lengths')");
    total += tl;
    max_target = std::max(max_target, tl);
  }
  const bool concatenated = targets.dim() == 1 && batched;
  if (concatenated) {
    TS_CHECK(targets.numel() >= total, op, ": Expected targets of at least ", total,
             " elements (the sum of target_lengths), but got ", targets.numel(),
             " (argument 'targets')");
  } else if (batched) {
    TS_CHECK(targets.dim() == 2 && targets.size(0) == N && targets.size(1) >= max_target, op,
             ": Expected targets of shape (", N, ", S) with S at least ", max_target,
             " (the largest target length), but got ", targets.sizes(), " (argument 'targets')");
  } else {
    TS_CHECK(targets.dim() == 1 && targets.numel() >= max_target, op,
             ": Expected unbatched targets of shape (S) with S at least ", max_target, ", but got ",
             targets.sizes(), " (argument 'targets')");
  }
  const Tensor t2 = batched ? targets : targets.unsqueeze(0);
  const Tensor inputs[] = {lp, t2};
  const Device device = meta::common_device(op, inputs, OpId::ctc_loss);
  if (targets.is_cpu()) {
    for_each_target(t2, target_lengths, concatenated, [&](int64_t v) {
      TS_CHECK(v >= 0 && v < C && v != blank, op, ": target value ", v,
               " is out of range: targets are classes in [0, ", C, ") other than blank (", blank,
               ") (argument 'targets')");
    });
  }

  OpParams p;
  p.compute_dtype = log_probs.dtype();
  CtcLossParams& params = p.set(CtcLossParams{});
  params.reduction = reduction;
  params.input_lengths = DimVector(input_lengths.begin(), input_lengths.end());
  params.target_lengths = DimVector(target_lengths.begin(), target_lengths.end());
  params.blank = blank;
  params.zero_infinity = zero_infinity;
  params.concatenated = concatenated;
  params.with_grad = GradMode::is_enabled() && log_probs.requires_grad();
  const KernelFn fn = lookup_kernel(OpId::ctc_loss, p.compute_dtype, device);
  const TensorOptions options = TensorOptions(p.compute_dtype).device(device);
  std::vector<Tensor> outputs = {
      empty(reduction == Reduction::None ? IntArrayRef({N}) : IntArrayRef(), options)};
  if (params.with_grad) outputs.push_back(empty({T, N, C}, options));
  run_kernel(fn, KernelCall{OpId::ctc_loss, outputs, inputs, p});
  return batched || reduction != Reduction::None ? outputs[0] : outputs[0].squeeze(0);
}

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank, Reduction reduction,
                bool zero_infinity) {
  const char* op = "ctc_loss";
  const UserOpScope scope(op);
  const DimVector il = lengths_of(op, input_lengths, "input_lengths");
  const DimVector tl = lengths_of(op, target_lengths, "target_lengths");
  return ctc_loss(log_probs, targets, il, tl, blank, reduction, zero_infinity);
}

// ---- composites ----

// Note [Loss composites]
// As current PyTorch's ATen (Loss.cpp, Distance.cpp), each written in terms of other ops, so its
// derivative comes from its parts. Where ATen 1.13 computed differently, the Note of the op says
// so; touchstone follows current PyTorch.

// binary_cross_entropy_with_logits: (1 - target) * self - log_weight * log_sigmoid(self), with
// log_weight = (pos_weight - 1) * target + 1 (current PyTorch; 1.13 spelled log_sigmoid as
// max_val + log(exp(-max_val) + exp(-self - max_val)), the same function).
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const Tensor& weight, const Tensor& pos_weight,
                                        Reduction reduction) {
  const char* op = "binary_cross_entropy_with_logits";
  const UserOpScope scope(op);
  check_pair(op, OpId::binary_cross_entropy_with_logits, self, "self", target, "target");
  check_reduction(op, reduction);
  // torch.nn.functional's check; ATen itself would broadcast.
  TS_CHECK(target.sizes() == self.sizes(), op, ": Target size (", target.sizes(),
           ") must be the same as input size (", self.sizes(), ") (argument 'target')");
  // ATen (1.13 and current) has no derivative for weight and pos_weight and refuses them.
  for (const auto& [t, name] :
       {std::pair{&weight, "weight"}, std::pair{&pos_weight, "pos_weight"}}) {
    TS_CHECK(!t->defined() || !t->requires_grad() || !GradMode::is_enabled(), op,
             ": not differentiable with respect to argument '", name,
             "'. This input cannot have requires_grad True.");
  }
  Tensor log_sigmoid_input = log_sigmoid(self);
  if (pos_weight.defined()) {
    log_sigmoid_input = log_sigmoid_input * ((pos_weight - 1) * target + 1);
  }
  Tensor loss = (target - 1).neg() * self - log_sigmoid_input;
  if (weight.defined()) loss = loss * weight;
  return apply_loss_reduction(loss, reduction);
}

Tensor l1_loss(const Tensor& self, const Tensor& target, Reduction reduction) {
  const char* op = "l1_loss";
  const UserOpScope scope(op);
  check_pair(op, OpId::l1_loss, self, "self", target, "target");
  check_reduction(op, reduction);
  return apply_loss_reduction((self - target).abs(), reduction);
}

// smooth_l1_loss: z = |self - target|, 0.5 z^2 / beta where z < beta, else z - 0.5 beta; beta 0
// is l1_loss (as ATen). ATen's kernel computes this elementwise; here where() over its branches
// gives the same values and ATen's backward (x / beta inside, sign(x) outside).
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, Reduction reduction, double beta) {
  const char* op = "smooth_l1_loss";
  const UserOpScope scope(op);
  check_pair(op, OpId::smooth_l1_loss, self, "self", target, "target");
  check_reduction(op, reduction);
  TS_CHECK(beta >= 0, op, ": smooth_l1_loss does not support negative values for beta. (argument ",
           "'beta', got ", beta, ")");
  if (beta == 0) return l1_loss(self, target, reduction);
  const Tensor z = (self - target).abs();
  return apply_loss_reduction(where(lt(z, beta), z * z * 0.5 / beta, z - 0.5 * beta), reduction);
}

// huber_loss: 0.5 z^2 where z < delta, else delta * (z - 0.5 delta).
Tensor huber_loss(const Tensor& self, const Tensor& target, Reduction reduction, double delta) {
  const char* op = "huber_loss";
  const UserOpScope scope(op);
  check_pair(op, OpId::huber_loss, self, "self", target, "target");
  check_reduction(op, reduction);
  TS_CHECK(delta > 0, op, ": huber_loss does not support non-positive values for delta. ",
           "(argument 'delta', got ", delta, ")");
  const Tensor z = (self - target).abs();
  return apply_loss_reduction(where(lt(z, delta), z * z * 0.5, (z - 0.5 * delta) * delta),
                              reduction);
}

// kl_div: exp(target) * (target - self) with log_target, else xlogy(target, target) - target *
// self; xlogy(t, t) is where(t == 0, 0, t * log(t)) (NaN stays NaN). Mean is over every element
// (torch.nn.functional's 'batchmean' is not an ATen reduction: the string form below).
Tensor kl_div(const Tensor& self, const Tensor& target, Reduction reduction, bool log_target) {
  const char* op = "kl_div";
  const UserOpScope scope(op);
  check_pair(op, OpId::kl_div, self, "self", target, "target");
  check_reduction(op, reduction);
  TS_CHECK(self.is_floating_point() && target.is_floating_point(), op,
           ": Integral inputs not supported.");
  const Tensor output = log_target
                            ? target.exp() * (target - self)
                            : where(eq(target, 0), 0.0, target * target.log()) - target * self;
  return apply_loss_reduction(output, reduction);
}

// Note [kl_div batchmean]
// torch.nn.functional.kl_div (current PyTorch): "batchmean" is ATen's kl_div with reduction sum
// divided by self.size(0) (a 0-dim self's sum as is); "none", "mean" and "sum" are ATen's.
// PyTorch warns that "mean" divides by every element, not the batch; touchstone does not warn.
Tensor kl_div(const Tensor& self, const Tensor& target, std::string_view reduction,
              bool log_target) {
  const char* op = "kl_div";
  const UserOpScope scope(op);
  Reduction r = Reduction::Mean;
  if (reduction == "none") {
    r = Reduction::None;
  } else if (reduction == "sum" || reduction == "batchmean") {
    r = Reduction::Sum;
  } else {
    TS_CHECK(reduction == "mean", op, ": ", reduction,
             " is not a valid value for reduction (argument 'reduction')");
  }
  const Tensor reduced = kl_div(self, target, r, log_target);
  if (reduction == "batchmean" && self.dim() != 0) return reduced / self.size(0);
  return reduced;
}

// Note [cosine_similarity]
// Current PyTorch (2.0+): each input divided by its 2-norm along dim, the norm clamped at eps
// under no grad (so the gradient flows through the unclamped norm), then the products summed.
// ATen 1.13 divided sum(x1 * x2) by sqrt(clamp_min(w1 * w2, eps^2)) instead: the values agree
// unless a norm is below eps, the gradients then differ.
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim, double eps) {
  const char* op = "cosine_similarity";
  const UserOpScope scope(op);
  check_pair(op, OpId::cosine_similarity, x1, "x1", x2, "x2");
  const Tensor pair[] = {x1, x2};
  const DimVector shape = meta::broadcast_shapes(op, pair, OpId::cosine_similarity);
  TS_CHECK(!shape.empty(), op, ": expected inputs of at least 1 dimension (argument 'x1')");
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(shape.size()), op);
  const Tensor a = x1.expand(shape), b = x2.expand(shape);
  Tensor n1 = a.norm(2, {d}, true).clone();
  Tensor n2 = b.norm(2, {d}, true).clone();
  {
    const NoGradGuard no_grad;
    n1.clamp_(eps);
    n2.clamp_(eps);
  }
  return ((a / n1) * (b / n2)).sum({d});
}

// pairwise_distance: the p-norm of x1 - x2 + eps over the last dim of the broadcast shape.
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  const char* op = "pairwise_distance";
  const UserOpScope scope(op);
  check_pair(op, OpId::pairwise_distance, x1, "x1", x2, "x2");
  const int64_t ndim = std::max(x1.dim(), x2.dim());
  const Tensor diff = x1 - x2 + eps;
  if (ndim == 0) return diff.norm(p, {}, keepdim);
  return diff.norm(p, {ndim - 1}, keepdim);
}

// cosine_embedding_loss: cos = sum(x1 x2) / sqrt((sum(x1^2) + 1e-12) (sum(x2^2) + 1e-12)) along
// the last dim; 1 - cos where target is 1, max(0, cos - margin) where it is -1, else 0.
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                             double margin, Reduction reduction) {
  const char* op = "cosine_embedding_loss";
  const UserOpScope scope(op);
  check_pair(op, OpId::cosine_embedding_loss, input1, "input1", input2, "input2");
  meta::check_defined(op, target, "target");
  check_reduction(op, reduction);
  const int64_t targ_dim = target.dim();
  TS_CHECK(targ_dim == 1 || targ_dim == 0, op,
           ": 0D or 1D target tensor expected, multi-target not supported (argument 'target')");
  if (targ_dim == 1) {
    TS_CHECK(input1.dim() == 2 && input2.dim() == 2, op,
             ": 1D target tensor expects 2D input tensors, but found inputs with sizes ",
             input1.sizes(), " and ", input2.sizes(), ". (argument 'input1')");
  } else {
    TS_CHECK(input1.dim() == 1 && input2.dim() == 1, op,
             ": 0D target tensor expects 1D input tensors, but found inputs with sizes ",
             input1.sizes(), " and ", input2.sizes(), ". (argument 'input1')");
  }
  constexpr double kEpsilon = 1e-12;
  const Tensor prod_sum = (input1 * input2).sum({targ_dim});
  const Tensor mag_square1 = (input1 * input1).sum({targ_dim}) + kEpsilon;
  const Tensor mag_square2 = (input2 * input2).sum({targ_dim}) + kEpsilon;
  const Tensor cos = prod_sum / (mag_square1 * mag_square2).sqrt();
  const Tensor pos = (cos - 1).neg();
  const Tensor neg = (cos - margin).clamp(0.0);
  const Tensor output = where(eq(target, 1), pos, 0.0) + where(eq(target, -1), neg, 0.0);
  return apply_loss_reduction(output, reduction);
}

// margin_ranking_loss: max(0, -target * (input1 - input2) + margin).
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           double margin, Reduction reduction) {
  const char* op = "margin_ranking_loss";
  const UserOpScope scope(op);
  meta::check_defined(op, input1, "input1");
  meta::check_defined(op, input2, "input2");
  meta::check_defined(op, target, "target");
  check_reduction(op, reduction);
  const Tensor inputs[] = {input1, input2, target};
  (void)meta::broadcast_shapes(op, inputs, OpId::margin_ranking_loss);
  (void)floating_result(op, OpId::margin_ranking_loss, inputs, "input1");
  const Tensor output = (target.neg() * (input1 - input2) + margin).clamp(0.0);
  return apply_loss_reduction(output, reduction);
}

// triplet_margin_loss: max(0, margin + d(a, p) - d(a, n)), d pairwise_distance; with swap, d(a,
// n) is min(d(a, n), d(p, n)).
Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                           double margin, double p, double eps, bool swap, Reduction reduction) {
  const char* op = "triplet_margin_loss";
  const UserOpScope scope(op);
  meta::check_defined(op, anchor, "anchor");
  meta::check_defined(op, positive, "positive");
  meta::check_defined(op, negative, "negative");
  check_reduction(op, reduction);
  TS_CHECK(anchor.dim() == positive.dim() && positive.dim() == negative.dim(), op,
           ": The anchor, positive, and negative tensors are expected to have the same number of "
           "dimensions, but got: anchor ",
           anchor.dim(), "D, positive ", positive.dim(), "D, and negative ", negative.dim(),
           "D inputs (argument 'positive')");
  const Tensor inputs[] = {anchor, positive, negative};
  (void)meta::broadcast_shapes(op, inputs, OpId::triplet_margin_loss);
  (void)floating_result(op, OpId::triplet_margin_loss, inputs, "anchor");
  const Tensor dist_pos = pairwise_distance(anchor, positive, p, eps);
  Tensor dist_neg = pairwise_distance(anchor, negative, p, eps);
  if (swap) dist_neg = minimum(dist_neg, pairwise_distance(positive, negative, p, eps));
  // ATen's order of additions: margin + dist_pos - dist_neg.
  return apply_loss_reduction((dist_pos + margin - dist_neg).clamp(0.0), reduction);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
// Inputs and params: see the top of this file. The composites have none of their own.
namespace ts::autograd {

TS_REGISTER_DERIVATIVES(loss) {
  // binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean)
  //   self: grad * (self - target) / max((1 - self) * self, 1e-12) * weight (/ numel for Mean)
  //   target: -logit(self) * grad * weight (/ numel for Mean)   weight: not implemented (ATen)
  m.def(OpId::binary_cross_entropy, save_inputs({0, 1, 2}), [](const BackwardArgs& a) -> Grads {
    if (a.needs_grad(2)) throw_not_implemented("binary_cross_entropy", "weight");
    const Tensor& x = a.input(0);
    const Tensor& w = a.input(2);
    Tensor g = w.defined() ? a.grad() * w : a.grad();
    if (a.p.get<LossParams>().reduction == Reduction::Mean) {
      g = g / static_cast<double>(x.numel());
    }
    Tensor gx, gt;
    if (a.needs_grad(0)) {
      gx = g * (x - a.input(1)) / (rsub(x, 1) * x).clamp(1e-12);
    }
    if (a.needs_grad(1)) gt = -(g * (x / rsub(x, 1)).log());
    return {gx, gt, Tensor()};
  });
  // ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] input_lengths,
  //                  int[] target_lengths, int blank=0, int reduction=Mean,
  //                  bool zero_infinity=False) -> Tensor
  //   log_probs: the kernel's d nll_n / d log_probs (output 1, Note [ctc_loss gradient]) times
  //     each sample's gradient: grad (None), grad (Sum), grad / (N * max(target_length, 1))
  //     (Mean)      targets: non-differentiable
  m.def(
      OpId::ctc_loss, save_output(1),
      [](const BackwardArgs& a) -> Grads {
        // Recording this backward (create_graph) would treat the kernel's gradient as a
        // constant and give a silently wrong second derivative: refused (ATen raises later).
        TS_CHECK(!GradMode::is_enabled(),
                 "ctc_loss: its gradient is not twice differentiable (as in ATen); call "
                 "backward without create_graph");
        const CtcLossParams& params = a.p.get<CtcLossParams>();
        const Tensor& per_sample = a.output(1);
        const int64_t n = per_sample.size(1);
        Tensor g = a.grad();
        if (params.reduction == Reduction::Mean) {
          std::vector<double> scale(static_cast<size_t>(n));
          for (int64_t i = 0; i < n; ++i) {
            const int64_t tl = std::max<int64_t>(params.target_lengths[i], 1);
            scale[i] = 1.0 / (static_cast<double>(tl) * static_cast<double>(n));
          }
          g = g * tensor(ArrayRef<double>(scale), TensorOptions(kDouble)).to(g.dtype());
        } else if (params.reduction == Reduction::Sum) {
          g = g.expand({n});
        }
        return {per_sample * g.reshape({1, n, 1}), Tensor()};
      },
      "CtcLossBackward0");
}

}  // namespace ts::autograd
