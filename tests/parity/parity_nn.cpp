// The parity test's nn family: softmax/log_softmax (dims, dtype=), layer_norm (with and without
// weight and bias), nll_loss/cross_entropy/mse_loss with each reduction, linear, dropout (p = 0,
// 1, and not training), over their dtypes and layouts, and a few bad calls.
#include "parity.h"

namespace ts::parity {
namespace {

constexpr Layout kNnLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Strided,
                                 Layout::Empty};
const std::pair<Reduction, const char*> kReductions[] = {
    {Reduction::None, "none"}, {Reduction::Mean, "mean"}, {Reduction::Sum, "sum"}};
const std::vector<double> kTarget = {2, 0};  // class indices for a 2x3 input

void run_softmax(Tally& tally, const std::string& set) {
  for (const bool log : {false, true}) {
    for (ScalarType d : kDtypes) {
      for (Layout l : {Layout::Contiguous, Layout::Transposed, Layout::ZeroDim, Layout::Empty}) {
        for (int64_t dim : {0, -1}) {
          for (std::optional<ScalarType> dtype : {std::optional<ScalarType>(), {kDouble}}) {
            const c10::optional<at::ScalarType> at_dtype =
                dtype ? c10::optional<at::ScalarType>(to_aten(*dtype)) : c10::nullopt;
            Call c{log ? "log_softmax" : "softmax",
                   "",
                   short_name(d) + ",dim=" + std::to_string(dim) + (dtype ? ",dtype=f64" : ""),
                   layout_name(l),
                   {{d, l, 0}}};
            const auto at_f = [=](const AtVec& in) {
              return log ? at::log_softmax(in[0], dim, at_dtype)
                         : at::softmax(in[0], dim, at_dtype);
            };
            run_forms(
                tally, set, c, aten_result_dtype(tally, c.inputs, at_f, d),
                [=](const TsVec& in) {
                  return log ? ts::log_softmax(in[0], dim, dtype) : ts::softmax(in[0], dim, dtype);
                },
                at_f, nullptr, nullptr,
                [=](const TsT& o, const TsVec& in) {
                  log ? ts::log_softmax_out(o, in[0], dim, dtype)
                      : ts::softmax_out(o, in[0], dim, dtype);
                },
                // ATen 1.13 has no log_softmax_out / softmax_out taking a dtype: the .int_out.
                [=](AtT& o, const AtVec& in) {
                  log ? at::log_softmax_out(o, in[0], dim, at_dtype)
                      : at::softmax_out(o, in[0], dim, at_dtype);
                });
          }
        }
      }
    }
  }
}

void run_layer_norm(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : kNnLayouts) {
      for (const bool affine : {false, true}) {
        Call c{"layer_norm",
               "f",
               short_name(d) + (affine ? ",affine" : ""),
               layout_name(l),
               {{d, l, 0}}};
        if (affine)
          c.inputs.insert(c.inputs.end(),
                          {{d, Layout::Contiguous, 1, {3}}, {d, Layout::Contiguous, 0, {3}}});
        c.grad = true;
        run_call(
            tally, set, c,
            [=](const TsVec& in) {
              return affine ? ts::layer_norm(in[0], {3}, in[1], in[2]) : ts::layer_norm(in[0], {3});
            },
            [=](const AtVec& in) {
              return affine ? at::layer_norm(in[0], {3}, in[1], in[2]) : at::layer_norm(in[0], {3});
            });
      }
    }
  }
}

void run_losses(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (const auto& [red, red_name] : kReductions) {
      const int64_t r = static_cast<int64_t>(red);
      for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
        Call c{"mse_loss",
               "f",
               short_name(d) + "," + red_name,
               layout_name(l),
               {{d, l, 0}, {d, Layout::Contiguous, 1}}};
        c.grad = true;
        run_call(
            tally, set, c, [=](const TsVec& in) { return ts::mse_loss(in[0], in[1], red); },
            [=](const AtVec& in) { return at::mse_loss(in[0], in[1], r); });
        for (const bool weighted : {false, true}) {
          for (int64_t ignore : {-100, 2}) {
            Call n{"nll_loss",
                   "f",
                   short_name(d) + "," + red_name + (weighted ? ",weight" : "") +
                       (ignore == 2 ? ",ignore_index=2" : ""),
                   layout_name(l),
                   {{d, l, 0}, {kLong, Layout::Contiguous, 0, {2}, kTarget}}};
            if (weighted) n.inputs.push_back({d, Layout::Contiguous, 0, {3}, {0.5, 1, 2}});
            n.grad = true;
            const auto weight = [=](const auto& in) {
              return weighted ? in[2] : std::decay_t<decltype(in[0])>();
            };
            run_call(
                tally, set, n,
                [=](const TsVec& in) {
                  return ts::nll_loss(in[0], in[1], weight(in), red, ignore);
                },
                [=](const AtVec& in) { return at::nll_loss(in[0], in[1], weight(in), r, ignore); });
            for (double smoothing : {0.0, 0.1}) {
              Call x = n;
              x.op = "cross_entropy";
              x.dtypes += smoothing > 0 ? ",label_smoothing=0.1" : "";
              run_call(
                  tally, set, x,
                  [=](const TsVec& in) {
                    return ts::cross_entropy(in[0], in[1], weight(in), red, ignore, smoothing);
                  },
                  [=](const AtVec& in) {
                    return at::cross_entropy_loss(in[0], in[1], weight(in), r, ignore, smoothing);
                  });
            }
          }
        }
      }
    }
  }
}

void run_linear_dropout(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
      for (const bool bias : {false, true}) {
        Call c{"linear",
               "f",
               short_name(d) + (bias ? ",bias" : ""),
               layout_name(l),
               {{d, l, 0}, {d, l, 1, {4, 3}}}};
        if (bias) c.inputs.push_back({d, Layout::Contiguous, 0, {4}});
        c.grad = true;
        run_call(
            tally, set, c,
            [=](const TsVec& in) { return ts::linear(in[0], in[1], bias ? in[2] : TsT()); },
            [=](const AtVec& in) { return at::linear(in[0], in[1], bias ? in[2] : AtT()); });
      }
    }
    // A 1-D and a 4-D input: matmul's squeeze_ or _unsafe_view result, then add_ (AddBackward0).
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{3}, {2, 1, 2, 3}}) {
      Call c{"linear",
             "f",
             short_name(d) + ",bias",
             shape.size() == 1 ? "1-d" : "4-d",
             {{d, Layout::Contiguous, 0, shape},
              {d, Layout::Contiguous, 1, {4, 3}},
              {d, Layout::Contiguous, 0, {4}}}};
      c.grad = true;
      run_call(
          tally, set, c, [](const TsVec& in) { return ts::linear(in[0], in[1], in[2]); },
          [](const AtVec& in) { return at::linear(in[0], in[1], in[2]); });
    }
    for (Layout l : kNnLayouts) {
      for (const auto& [p, train] :
           {std::pair{0.0, true}, std::pair{1.0, true}, std::pair{0.5, false}}) {
        Call c{"dropout",
               "f",
               short_name(d) + ",p=" + std::to_string(p) + (train ? ",train" : ""),
               layout_name(l),
               {{d, l, 0}}};
        c.grad = true;
        run_call(
            tally, set, c,
            [p = p, train = train](const TsVec& in) { return ts::dropout(in[0], p, train); },
            [p = p, train = train](const AtVec& in) { return at::dropout(in[0], p, train); });
      }
    }
  }
}

// Bad calls: a target of the wrong dtype or size, a class index out of range, mismatched
// linear shapes, a normalized_shape that is not the trailing shape, p outside [0, 1].
void run_bad_nn(Tally& tally, const std::string& set) {
  const Input x{kFloat}, target{kLong, Layout::Contiguous, 0, {2}, kTarget};
  const Input target_f{kFloat, Layout::Contiguous, 0, {2}, kTarget};
  const Input target_3{kLong, Layout::Contiguous, 0, {3}, {0, 1, 2}};
  const Input target_big{kLong, Layout::Contiguous, 0, {2}, {5, 0}};
  for (const auto& [what, t] :
       {std::pair{"target f32", target_f}, std::pair{"target [3]", target_3},
        std::pair{"target 5", target_big}}) {
    run_bad(
        tally, set, "nll_loss", what, {x, t},
        [](const TsVec& in) { return ts::nll_loss(in[0], in[1]); },
        [](const AtVec& in) { return at::nll_loss(in[0], in[1]); });
    run_bad(
        tally, set, "cross_entropy", what, {x, t},
        [](const TsVec& in) { return ts::cross_entropy(in[0], in[1]); },
        [](const AtVec& in) { return at::cross_entropy_loss(in[0], in[1]); });
  }
  run_bad(
      tally, set, "mse_loss", "shapes [2,3],[4]", {x, {kFloat, Layout::Contiguous, 1, {4}}},
      [](const TsVec& in) { return ts::mse_loss(in[0], in[1]); },
      [](const AtVec& in) { return at::mse_loss(in[0], in[1]); });
  run_bad(
      tally, set, "linear", "weight [4,2]", {x, {kFloat, Layout::Contiguous, 1, {4, 2}}},
      [](const TsVec& in) { return ts::linear(in[0], in[1]); },
      [](const AtVec& in) { return at::linear(in[0], in[1]); });
  run_bad(
      tally, set, "layer_norm", "normalized_shape [2]", {x},
      [](const TsVec& in) { return ts::layer_norm(in[0], {2}); },
      [](const AtVec& in) { return at::layer_norm(in[0], {2}); });
  run_bad(
      tally, set, "dropout", "p=1.5", {x},
      [](const TsVec& in) { return ts::dropout(in[0], 1.5, true); },
      [](const AtVec& in) { return at::dropout(in[0], 1.5, true); });
  run_bad(
      tally, set, "softmax", "dim=2", {x}, [](const TsVec& in) { return ts::softmax(in[0], 2); },
      [](const AtVec& in) { return at::softmax(in[0], 2); });
  run_bad(
      tally, set, "log_softmax", "dim=-3", {x},
      [](const TsVec& in) { return ts::log_softmax(in[0], -3); },
      [](const AtVec& in) { return at::log_softmax(in[0], -3); });
}

// ---- normalization, embedding, attention, gated activations (issue 16) ----
// rms_norm, scaled_dot_product_attention (current PyTorch ops ATen 1.13 lacks) and
// local_response_norm (torch.nn.functional's) are compared with their PyTorch composites
// written in ATen 1.13 ops; the others with ATen's own ops.

at::Tensor at_rms_norm(const at::Tensor& x, const at::Tensor& w) {
  const bool reduced = x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16;
  const at::Tensor xf = reduced ? x.to(at::kFloat) : x;
  const double eps = x.scalar_type() == at::kDouble     ? 2.220446049250313e-16
                     : x.scalar_type() == at::kHalf     ? 0.0009765625
                     : x.scalar_type() == at::kBFloat16 ? 0.0078125
                                                        : 1.1920928955078125e-07;
  at::Tensor y = xf * at::rsqrt(xf.pow(2).mean({-1}, true) + eps);
  if (w.defined()) y = y * w;
  return reduced ? y.to(x.scalar_type()) : y;
}

// _scaled_dot_product_attention_math, causal or not, no dropout.
at::Tensor at_sdpa(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, bool causal) {
  const bool reduced = q.scalar_type() == at::kHalf || q.scalar_type() == at::kBFloat16;
  const auto acc = [&](const at::Tensor& t) { return reduced ? t.to(at::kFloat) : t; };
  const double f = std::sqrt(1.0 / std::sqrt(static_cast<double>(q.size(-1))));
  at::Tensor attn = at::matmul(acc(q) * f, acc(k).transpose(-2, -1) * f);
  if (causal) {
    const at::Tensor m = at::ones({q.size(-2), k.size(-2)}, at::kBool).tril();
    attn = attn.masked_fill(m.logical_not(), -std::numeric_limits<double>::infinity());
  }
  const at::Tensor out = at::matmul(at::softmax(attn, -1), acc(v));
  return reduced ? out.to(q.scalar_type()) : out;
}

void run_norms(Tally& tally, const std::string& set) {
  for (ScalarType d : kFloatDtypes) {
    for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
      const std::vector<double> running_var = {0.5, 1, 2};
      for (const bool training : {false, true}) {
        Call c{"batch_norm",
               "f",
               short_name(d) + (training ? ",training" : ",eval"),
               layout_name(l),
               {{d, l, 0},
                {d, Layout::Contiguous, 1, {3}},
                {d, Layout::Contiguous, 0, {3}},
                {d, Layout::Contiguous, 0, {3}, {0.1, -0.2, 0.3}},
                {d, Layout::Contiguous, 0, {3}, running_var}}};
        c.grad = true;
        run_call(
            tally, set, c,
            [=](const TsVec& in) {
              return ts::batch_norm(in[0], in[1], in[2], in[3].detach().clone(),
                                    in[4].detach().clone(), training);
            },
            [=](const AtVec& in) {
              return at::batch_norm(in[0], in[1], in[2], in[3].detach().clone(),
                                    in[4].detach().clone(), training, 0.1, 1e-5, false);
            });
      }
      Call g{"group_norm",
             "f",
             short_name(d) + ",groups=3",
             layout_name(l),
             {{d, l, 0}, {d, Layout::Contiguous, 1, {3}}, {d, Layout::Contiguous, 0, {3}}}};
      g.grad = true;
      run_call(
          tally, set, g, [](const TsVec& in) { return ts::group_norm(in[0], 3, in[1], in[2]); },
          [](const AtVec& in) { return at::group_norm(in[0], 3, in[1], in[2]); });
      Call r{"rms_norm",
             "f",
             short_name(d),
             layout_name(l),
             {{d, l, 0}, {d, Layout::Contiguous, 1, {3}}}};
      r.grad = true;
      run_call(
          tally, set, r, [](const TsVec& in) { return ts::rms_norm(in[0], {3}, in[1]); },
          [](const AtVec& in) { return at_rms_norm(in[0], in[1]); });
      Call gl{"glu", "f", short_name(d) + ",dim=0", layout_name(l), {{d, l, 0}}};
      gl.grad = true;
      run_call(
          tally, set, gl, [](const TsVec& in) { return ts::glu(in[0], 0); },
          [](const AtVec& in) { return at::glu(in[0], 0); });
      for (const std::vector<int64_t>& w : {std::vector<int64_t>{1}, {3}}) {
        Call pr{"prelu",
                "f",
                short_name(d) + ",weight=" + std::to_string(w[0]),
                layout_name(l),
                {{d, l, 0}, {d, Layout::Contiguous, 1, w}}};
        pr.grad = true;
        run_call(
            tally, set, pr, [](const TsVec& in) { return ts::prelu(in[0], in[1]); },
            [](const AtVec& in) { return at::prelu(in[0], in[1]); });
      }
    }
    // [2, 3, 4] inputs: instance_norm and local_response_norm need a spatial dim.
    Call in{"instance_norm",
            "f",
            short_name(d),
            "3-d",
            {{d, Layout::Contiguous, 0, {2, 3, 4}},
             {d, Layout::Contiguous, 1, {3}},
             {d, Layout::Contiguous, 0, {3}}}};
    in.grad = true;
    run_call(
        tally, set, in,
        [](const TsVec& x) { return ts::instance_norm(x[0], x[1], x[2], {}, {}, true); },
        [](const AtVec& x) {
          return at::instance_norm(x[0], x[1], x[2], {}, {}, true, 0.1, 1e-5, false);
        });
    Call lrn{"local_response_norm",
             "f",
             short_name(d) + ",size=2",
             "3-d",
             {{d, Layout::Contiguous, 0, {2, 3, 4}}}};
    lrn.grad = true;
    run_call(
        tally, set, lrn, [](const TsVec& x) { return ts::local_response_norm(x[0], 2); },
        [](const AtVec& x) {
          // torch.nn.functional.local_response_norm's window of size 2: channels c - 1 and c.
          const at::Tensor sq = x[0] * x[0];
          const at::Tensor padded = at::constant_pad_nd(sq, {0, 0, 1, 0});
          const at::Tensor div = (padded.narrow(1, 0, 3) + padded.narrow(1, 1, 3)) / 2;
          return x[0] / (div * 1e-4 + 1.0).pow(0.75);
        });
    Call sd{"scaled_dot_product_attention",
            "f",
            short_name(d) + ",causal",
            "3-d",
            {{d, Layout::Contiguous, 0, {2, 3, 4}},
             {d, Layout::Contiguous, 1, {2, 3, 4}},
             {d, Layout::Contiguous, 0, {2, 3, 4}}}};
    sd.grad = true;
    run_call(
        tally, set, sd,
        [](const TsVec& x) {
          return ts::scaled_dot_product_attention(x[0], x[1], x[2], {}, 0.0, true);
        },
        [](const AtVec& x) { return at_sdpa(x[0], x[1], x[2], true); });
    Call em{
        "embedding",
        "f",
        short_name(d),
        "contiguous",
        {{d, Layout::Contiguous, 0, {4, 3}}, {kLong, Layout::Contiguous, 0, {2, 2}, {3, 0, 1, 3}}}};
    em.grad = true;
    run_call(
        tally, set, em, [](const TsVec& x) { return ts::embedding(x[0], x[1], 1); },
        [](const AtVec& x) { return at::embedding(x[0], x[1], 1); });
  }
  Call oh{"one_hot", "f", "i64", "contiguous", {{kLong, Layout::Contiguous, 0, {4}, {0, 2, 1, 2}}}};
  run_call(
      tally, set, oh, [](const TsVec& x) { return ts::one_hot(x[0]); },
      [](const AtVec& x) { return at::one_hot(x[0]); });
  run_bad(
      tally, set, "group_norm", "num_groups 2 of 3 channels", {{kFloat, Layout::Contiguous, 0}},
      [](const TsVec& x) { return ts::group_norm(x[0], 2); },
      [](const AtVec& x) { return at::group_norm(x[0], 2); });
  run_bad(
      tally, set, "embedding", "index 4 of 4 rows",
      {{kFloat, Layout::Contiguous, 0, {4, 3}}, {kLong, Layout::Contiguous, 0, {1}, {4}}},
      [](const TsVec& x) { return ts::embedding(x[0], x[1]); },
      [](const AtVec& x) { return at::embedding(x[0], x[1]); });
}

}  // namespace

void run_nn(Tally& tally, const std::string& set) {
  run_softmax(tally, set);
  run_layer_norm(tally, set);
  run_losses(tally, set);
  run_linear_dropout(tally, set);
  run_bad_nn(tally, set);
  run_norms(tally, set);
}

}  // namespace ts::parity
