// Whole model blocks (issue 16), forward and backward: a ResNet-50 stem pool and bottleneck, a
// GPT-2 transformer block and a bag-of-embeddings text classifier. Each is one function of its
// input and weights, written with the public ops only, so it runs on whatever kernel set is
// active: conformance judges a set's block (output and every input's gradient) against the
// reference set's, and the benchmark times forward + backward under each set, libtorch's
// included, in the same run.
#include "catalog/bench.h"

namespace ts::catalog {
namespace {

// Note [Model blocks]
// The blocks as their models write them (torchvision's Bottleneck, Hugging Face's GPT2Block,
// fastText-style EmbeddingBag + Linear), at training time: batch_norm in training mode (running
// statistics made inside the call, so every set starts from the same ones), causal attention
// without dropout (its RNG stream is the dropout op's concern). Conformance runs them small; the
// benchmark at the sizes (the stem's pool to 64x56x56 and the bottleneck, batch 8; GPT-2
// small, seq 256; bags of 32 tokens).

// x [N, C, 2H, 2W], the stem's output; w: conv1 [P, C, 1, 1], conv2 [P, P, 3, 3], conv3 [4P, P,
// 1, 1], down [4P, C, 1, 1], then per batch_norm its weight and bias. The stem's 3x3 stride-2
// max pool, then relu(bn3(conv3(...)) + bn(down(x))).
Tensor bottleneck(const std::vector<Tensor>& in) {
  const Tensor x = max_pool2d(in[0], 3, 2, 1);
  auto bn = [&](const Tensor& y, size_t k) {
    const int64_t c = y.size(1);
    const Tensor mean = zeros({c}, y.dtype()), var = ones({c}, y.dtype());
    return batch_norm(y, in[5 + 2 * k], in[6 + 2 * k], mean, var, /*training=*/true, 0.1, 1e-5);
  };
  Tensor y = relu(bn(conv2d(x, in[1]), 0));
  y = relu(bn(conv2d(y, in[2], {}, 1, 1), 1));
  y = bn(conv2d(y, in[3]), 2);
  const Tensor shortcut = bn(conv2d(x, in[4]), 3);
  return relu(add(y, shortcut));
}

std::vector<Tensor> bottleneck_inputs(int64_t n, int64_t c, int64_t p, int64_t hw,
                                      const std::function<Tensor(IntArrayRef, Range)>& make) {
  const Range w{-0.5, 0.5}, g{0.5, 1.5}, b{-0.5, 0.5};
  return {make({n, c, 2 * hw, 2 * hw}, Range{-2, 2}),
          make({p, c, 1, 1}, w),
          make({p, p, 3, 3}, w),
          make({4 * p, p, 1, 1}, w),
          make({4 * p, c, 1, 1}, w),
          make({p}, g),
          make({p}, b),
          make({p}, g),
          make({p}, b),
          make({4 * p}, g),
          make({4 * p}, b),
          make({4 * p}, g),
          make({4 * p}, b)};
}

// x [T, H]; w: ln1 weight, bias; qkv [3H, H], [3H]; proj [H, H], [H]; ln2 weight, bias; fc [4H,
// H], [4H]; out [H, 4H], [H]. Pre-norm: x + attn(ln1(x)), then + mlp(ln2(.)), GPT-2's gelu (tanh).
Tensor gpt2_block(const std::vector<Tensor>& in, int64_t heads) {
  const Tensor& x = in[0];
  const int64_t t = x.size(0), h = x.size(1), d = h / heads;
  const Tensor qkv = linear(layer_norm(x, {h}, in[1], in[2]), in[3], in[4]);
  const std::vector<Tensor> parts = qkv.split(h, 1);
  auto by_head = [&](const Tensor& m) { return m.reshape({t, heads, d}).transpose(0, 1); };
  const Tensor att = scaled_dot_product_attention(by_head(parts[0]), by_head(parts[1]),
                                                  by_head(parts[2]), {}, 0.0, /*is_causal=*/true);
  const Tensor r = add(x, linear(att.transpose(0, 1).reshape({t, h}), in[5], in[6]));
  const Tensor m =
      linear(gelu(linear(layer_norm(r, {h}, in[7], in[8]), in[9], in[10]), "tanh"), in[11], in[12]);
  return add(r, m);
}

std::vector<Tensor> gpt2_inputs(int64_t t, int64_t h,
                                const std::function<Tensor(IntArrayRef, Range)>& make) {
  const Range w{-0.3, 0.3}, g{0.5, 1.5}, b{-0.2, 0.2};
  return {make({t, h}, Range{-2, 2}),
          make({h}, g),
          make({h}, b),
          make({3 * h, h}, w),
          make({3 * h}, b),
          make({h, h}, w),
          make({h}, b),
          make({h}, g),
          make({h}, b),
          make({4 * h, h}, w),
          make({4 * h}, b),
          make({h, 4 * h}, w),
          make({h}, b)};
}

// table [V, E]; fc [K, E], [K]; tokens [B, L] (int64) and targets [B] are arguments of the call:
// each bag's mean embedding (embedding_bag, mode mean, a bag per row), a linear layer,
// cross_entropy over the K classes.
Tensor text_classifier(const std::vector<Tensor>& in, const Tensor& tokens, const Tensor& target) {
  const Tensor bags = embedding_bag(in[0], tokens, {}, false, /*mode=mean*/ 1);
  return cross_entropy(linear(bags, in[1], in[2]), target);
}

using In = std::vector<Tensor>;
using Make = std::function<Tensor(IntArrayRef, Range)>;

// Note [Model block tolerances]
// A block is judged with the harness's default bounds for its dtype (assert_close's, scaled by the
// gradient bounds of Note [Gradient bounds] in conformance/checks.cpp): each op in it is rounded to
// the dtype by both sets, and the measured differences stay inside them (float32: at most 2.4e-6
// forward and 9.5e-6 in the bottleneck's gradients; float64: 1.6e-14; conformance/README.md).
OpEntry block_entry(std::string name, std::string op, SamplesFn samples, RunFn run) {
  OpEntry e = make_entry(std::move(name), "model", std::move(samples), std::move(run));
  e.op = std::move(op);
  e.dtypes = DTypeSet{kFloat, kDouble};
  return e;
}

Sample block_sample(const SampleContext& ctx, const std::string& name,
                    const std::function<In(const Make&)>& inputs) {
  int index = 0;
  Sample s;
  s.name = name;
  s.has_out = false;
  s.smooth = false;  // relu: a kink
  s.inputs = inputs([&](IntArrayRef shape, Range r) { return ctx.input(name, index++, shape, r); });
  return s;
}

std::vector<OpEntry> make_block_entries() {
  std::vector<OpEntry> v;
  v.push_back(block_entry(
      "block.resnet_bottleneck", "conv2d",
      [](const SampleContext& ctx) {
        return std::vector<Sample>{
            block_sample(ctx, "n2_c4_p2_12x12_pooled_6x6",
                         [](const Make& make) { return bottleneck_inputs(2, 4, 2, 6, make); })};
      },
      [](const In& in, const SampleArgs&) { return In{bottleneck(in)}; }));
  v.push_back(block_entry(
      "block.gpt2", "scaled_dot_product_attention",
      [](const SampleContext& ctx) {
        return std::vector<Sample>{block_sample(
            ctx, "t6_h8_heads2", [](const Make& make) { return gpt2_inputs(6, 8, make); })};
      },
      [](const In& in, const SampleArgs&) { return In{gpt2_block(in, 2)}; }));
  v.push_back(block_entry(
      "block.text_classifier", "embedding_bag",
      [](const SampleContext& ctx) {
        Sample s = block_sample(ctx, "v12_e5_k3_b4_l3", [](const Make& make) {
          return In{make({12, 5}, Range{-1, 1}), make({3, 5}, Range{-0.5, 0.5}),
                    make({3}, Range{-0.2, 0.2})};
        });
        const SampleContext ints("block.text_classifier/ids", kLong);
        s.inputs.push_back(ints.input(s.name, 0, {4, 3}, Range{0, 12}));
        s.inputs.push_back(ints.input(s.name, 1, {4}, Range{0, 3}));
        return std::vector<Sample>{s};
      },
      [](const In& in, const SampleArgs&) {
        return In{text_classifier({in[0], in[1], in[2]}, in[3], in[4])};
      }));
  return v;
}

// ---- benchmark: forward and backward ----

// The weights require grad; the call runs the block and backward from the sum of its output.
BenchCase block_case(const char* op, ScalarType t, std::string shape, double bytes, double flops,
                     std::vector<OpId> ops, std::function<Tensor(const In&)> block,
                     std::function<In(const Make&, Device)> make_inputs) {
  BenchCase c =
      make_case("model", op, t, std::move(shape), "forward_backward", bytes, flops, std::move(ops));
  c.setup = [=](Device d) -> std::function<void()> {
    In in = make_inputs([&](IntArrayRef shape, Range r) { return make_input(shape, t, r, d); }, d);
    for (size_t i = 1; i < in.size(); ++i) {
      if (is_floating_type(in[i].dtype())) in[i].requires_grad_();
    }
    return [=] { sum(block(in)).backward(); };
  };
  return c;
}

}  // namespace

std::vector<OpEntry> block_entries() {
  return make_block_entries();
}

void add_block_cases(CaseList& list) {
  const bool q = list.quick();
  for (ScalarType t : list.dtypes(DTypeSet{kFloat, kDouble})) {
    // ResNet-50's stem pool and first bottleneck: 8 images of 64 x 112 x 112 pooled to 56 x 56
    // (quick: 2 of 64 x 56 x 56).
    const int64_t n = q ? 2 : 8, hw = q ? 28 : 56, c = 64, p = 64;
    const double px = static_cast<double>(n * hw * hw);
    const double macs = px * static_cast<double>(c * p + p * p * 9 + p * 4 * p + c * 4 * p);
    list.add(block_case(
        "resnet50_bottleneck", t, shape_str({n, c, 2 * hw, 2 * hw}),
        nbytes(n * c * hw * hw, t) * 16, 3 * 2 * macs,
        {OpId::max_pool, OpId::convolution, OpId::batch_norm, OpId::relu, OpId::add},
        [](const In& in) { return bottleneck(in); },
        [=](const Make& make, Device) { return bottleneck_inputs(n, c, p, hw, make); }));
    // GPT-2 small: 256 tokens of 768, 12 heads (quick: 64 tokens of 256, 4 heads).
    const int64_t tokens = q ? 64 : 256, h = q ? 256 : 768, heads = q ? 4 : 12;
    const double th = static_cast<double>(tokens * h);
    list.add(block_case(
        "gpt2_block", t, shape_str({tokens, h}), nbytes(12 * h * h, t) * 2,
        3 * 2 * (th * 12 * static_cast<double>(h) + 2 * static_cast<double>(tokens) * th),
        {OpId::layer_norm, OpId::mm, OpId::addmm, OpId::softmax, OpId::gelu, OpId::add},
        [heads](const In& in) { return gpt2_block(in, heads); },
        [=](const Make& make, Device) { return gpt2_inputs(tokens, h, make); }));
    // A bag-of-embeddings classifier: 256 bags of 32 tokens from 50000 x 256 embeddings, 16
    // classes (quick: 64 bags from 5000).
    const int64_t vocab = q ? 5000 : 50000, e = 256, k = 16, bags = q ? 64 : 256, len = 32;
    list.add(block_case(
        "text_classifier", t, shape_str({bags, len, e}), nbytes(bags * len * e, t) * 2,
        3 * 2 * static_cast<double>(bags * e * k), {OpId::embedding_bag, OpId::addmm},
        [](const In& in) {
          return text_classifier({in[0], in[1], in[2]}, in[3], in[4]);
        },
        [=](const Make& make, Device d) {
          return In{make({vocab, e}, Range{-1, 1}), make({k, e}, Range{-0.1, 0.1}),
                    make({k}, Range{-0.1, 0.1}), make_index({bags, len}, vocab, d),
                    make_index({bags}, k, d)};
        }));
  }
}

}  // namespace ts::catalog
