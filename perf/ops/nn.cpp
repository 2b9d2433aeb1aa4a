// nn cases: softmax and log_softmax along rows, layer_norm, the losses, linear and dropout.
#include "perf/catalog.h"

namespace ts::perf {
namespace {

BenchCase nn_case(const char* op, ScalarType t, std::vector<int64_t> sizes, std::string layout,
                  double bytes, double flops, std::vector<OpId> ops) {
  return make_case("nn", op, t, shape_str(sizes), std::move(layout), bytes, flops, std::move(ops));
}

}  // namespace

void add_nn_cases(CaseList& list) {
  const DTypeSet fl = DTypeSet::floating();
  const int64_t s = list.side();
  const std::vector<int64_t> sq{s, s};
  const double n = static_cast<double>(s * s);
  // Classification losses: `batch` rows of `classes` logits.
  const int64_t batch = list.quick() ? 256 : 4096, classes = 1000;
  const std::vector<int64_t> logits{batch, classes};
  const double nl = static_cast<double>(batch * classes);
  // linear: [tokens, in] x [out, in]^T + bias.
  const int64_t tokens = list.quick() ? 64 : 256, in = list.quick() ? 256 : 768,
                out = list.quick() ? 256 : 768;
  for (ScalarType t : list.dtypes(fl)) {
    const double b = nbytes(s * s, t);
    for (OpId id : {OpId::softmax, OpId::log_softmax}) {
      const bool log = id == OpId::log_softmax;
      // max, exp(x - max), sum, scale (or log-sum and subtract): 4 per element.
      BenchCase c = nn_case(log ? "log_softmax" : "softmax", t, sq, "dim1", 2 * b, 4 * n, {id});
      c.setup = [=]() -> std::function<void()> {
        Tensor x = make_input(sq, t), o = empty(sq, t);
        return [=] { log ? log_softmax_out(o, x, 1) : softmax_out(o, x, 1); };
      };
      list.add(std::move(c));
    }
    // mean (1), variance (3), normalize (2), affine (2) per element; weight and bias read once.
    BenchCase ln = nn_case("layer_norm", t, sq, "last_dim", 2 * b + 2 * nbytes(s, t), 8 * n,
                           {OpId::layer_norm});
    ln.setup = [=]() -> std::function<void()> {
      Tensor x = make_input(sq, t), w = make_input({s}, t), bias = make_input({s}, t);
      return [=] { (void)layer_norm(x, {s}, w, bias); };
    };
    list.add(std::move(ln));

    const double lb = nbytes(batch * classes, t);
    BenchCase nll = nn_case("nll_loss", t, logits, "mean", nbytes(batch, t) + 8.0 * batch,
                            static_cast<double>(batch), {OpId::nll_loss});
    nll.setup = [=]() -> std::function<void()> {
      Tensor x = make_input(logits, t), target = make_index({batch}, classes);
      return [=] { (void)nll_loss(x, target); };
    };
    list.add(std::move(nll));

    // log_softmax over the logits, then nll_loss.
    BenchCase ce =
        nn_case("cross_entropy", t, logits, "mean", 2 * lb + 8.0 * batch + lb,
                4 * nl + static_cast<double>(batch), {OpId::log_softmax, OpId::nll_loss});
    ce.setup = [=]() -> std::function<void()> {
      Tensor x = make_input(logits, t), target = make_index({batch}, classes);
      return [=] { (void)cross_entropy(x, target); };
    };
    list.add(std::move(ce));

    BenchCase mse =
        nn_case("mse_loss", t, sq, "mean", 2 * b + nbytes(1, t), 3 * n, {OpId::mse_loss});
    mse.setup = [=]() -> std::function<void()> {
      Tensor x = make_input(sq, t), y = make_input(sq, t);
      return [=] { (void)mse_loss(x, y); };
    };
    list.add(std::move(mse));

    const double lin_flops = 2.0 * tokens * in * out + 1.0 * tokens * out;
    BenchCase lin = nn_case("linear", t, {tokens, in, out}, "bias",
                            nbytes(tokens * in + out * in + out + tokens * out, t), lin_flops,
                            {OpId::mm, OpId::add});
    lin.setup = [=]() -> std::function<void()> {
      Tensor x = make_input({tokens, in}, t), w = make_input({out, in}, t);
      Tensor bias = make_input({out}, t);
      return [=] { (void)linear(x, w, bias); };
    };
    list.add(std::move(lin));

    // Training-mode dropout: a uniform draw, a mask, its scale, then the product; the traffic of
    // those four steps (the composite's temporaries) counts.
    BenchCase drop = nn_case("dropout", t, sq, "train_p0.1", 9 * b, 4 * n,
                             {OpId::rand, OpId::lt, OpId::copy_, OpId::div, OpId::mul});
    drop.setup = [=]() -> std::function<void()> {
      Tensor x = make_input(sq, t);
      return [=] { (void)dropout(x, 0.1, true); };
    };
    list.add(std::move(drop));
  }
}

}  // namespace ts::perf
