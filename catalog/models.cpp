// Shapes from real models: a transformer MLP layer, an attention block's softmax and layer_norm,
// and batches of small calls that measure the per-call overhead (meta, dispatch, allocation).
#include "catalog/bench.h"

namespace ts::catalog {
namespace {

BenchCase model_case(const char* op, ScalarType t, std::string shape, std::string layout,
                     double bytes, double flops, std::vector<OpId> ops) {
  return make_case("model", op, t, std::move(shape), std::move(layout), bytes, flops,
                   std::move(ops));
}

// Note [Per-call batches]
// A batch of kSmallCalls calls on 16-element tensors: the time per call is the fixed cost every
// op pays, which the large cases hide. A single 1-element add (with and without an input that
// requires grad) measures the same.
constexpr int kSmallCalls = 100;

}  // namespace

void add_model_cases(CaseList& list) {
  const DTypeSet fl = DTypeSet::floating();
  // GPT-2 small's width in the full run (hidden 768, 4x expansion) on 64 tokens; a sixth of the
  // width on 32 tokens in quick. The reference set's GEMMs bound the sizes (Note [Slow calls]).
  const int64_t tokens = list.quick() ? 32 : 64, hidden = list.quick() ? 128 : 768;
  const int64_t ffn = 4 * hidden;
  // Attention scores: heads x seq x seq.
  const int64_t heads = list.quick() ? 4 : 12, seq = list.quick() ? 256 : 1024;
  for (ScalarType t : list.dtypes(fl)) {
    // linear(hidden -> 4 hidden) + gelu + linear(4 hidden -> hidden), biases included.
    const double th = static_cast<double>(tokens * hidden), tf = static_cast<double>(tokens * ffn);
    const double w = nbytes(2 * hidden * ffn + ffn + hidden, t);
    const double mlp_bytes = w + nbytes(tokens * hidden, t) * 2 + nbytes(tokens * ffn, t) * 6;
    const double mlp_flops = 2 * 2 * tf * static_cast<double>(hidden) + tf + th + 4 * tf;
    BenchCase mlp = model_case("mlp_layer", t, shape_str({tokens, hidden, ffn}), "gelu", mlp_bytes,
                               mlp_flops, {OpId::mm, OpId::add, OpId::gelu});
    mlp.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({tokens, hidden}, t, d);
      Tensor w1 = make_input({ffn, hidden}, t, d), b1 = make_input({ffn}, t, d);
      Tensor w2 = make_input({hidden, ffn}, t, d), b2 = make_input({hidden}, t, d);
      return [=] { (void)linear(gelu(linear(x, w1, b1)), w2, b2); };
    };
    list.add(std::move(mlp));

    const int64_t scores = heads * seq * seq;
    BenchCase sm =
        model_case("attention_softmax", t, shape_str({heads, seq, seq}), "last_dim",
                   2 * nbytes(scores, t), 4.0 * static_cast<double>(scores), {OpId::softmax});
    sm.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({heads, seq, seq}, t, d);
      return [=] { (void)softmax(x, -1); };
    };
    list.add(std::move(sm));

    BenchCase ln = model_case("attention_layer_norm", t, shape_str({tokens, hidden}), "last_dim",
                              2 * nbytes(tokens * hidden, t) + 2 * nbytes(hidden, t), 8 * th,
                              {OpId::layer_norm});
    ln.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({tokens, hidden}, t, d);
      Tensor g = make_input({hidden}, t, d), b = make_input({hidden}, t, d);
      return [=] { (void)layer_norm(x, {hidden}, g, b); };
    };
    list.add(std::move(ln));
  }
  // Per-call overhead (Note [Per-call batches]); float32 only: the dtype does not matter here.
  const std::vector<ScalarType> f32 = list.dtypes(DTypeSet{kFloat});
  if (f32.empty()) return;
  BenchCase batch = model_case("small_ops_batch", kFloat, "100x16", "add_mul_relu_sum",
                               kSmallCalls * 3 * nbytes(16, kFloat), kSmallCalls * 16.0,
                               {OpId::add, OpId::mul, OpId::relu, OpId::sum});
  batch.setup = [=](Device d) -> std::function<void()> {
    Tensor a = make_input({16}, kFloat, d), b = make_input({16}, kFloat, d);
    return [=] {
      for (int i = 0; i < kSmallCalls / 4; ++i) {
        (void)add(a, b);
        (void)mul(a, b);
        (void)relu(a);
        (void)sum(a);
      }
    };
  };
  list.add(std::move(batch));
  for (bool grad : {false, true}) {
    BenchCase one = model_case("add_1_element", kFloat, "1", grad ? "requires_grad" : "plain",
                               3 * nbytes(1, kFloat), 1, {OpId::add});
    one.setup = [=](Device d) -> std::function<void()> {
      Tensor a = make_input({1}, kFloat, d), b = make_input({1}, kFloat, d);
      if (grad) a.requires_grad_();
      return [=] { (void)add(a, b); };
    };
    list.add(std::move(one));
  }
}

}  // namespace ts::catalog
