// Parity calls of the losses of issue 16: binary_cross_entropy (with and without weight),
// binary_cross_entropy_with_logits (weight, pos_weight), l1_loss, smooth_l1_loss (beta),
// huber_loss (delta), kl_div (log_target), cosine_similarity (dim), pairwise_distance (p,
// keepdim), cosine_embedding_loss, margin_ranking_loss, triplet_margin_loss (swap) and ctc_loss
// (padded and concatenated targets, zero_infinity), each reduction, float32 and float64,
// contiguous and transposed; and a few bad calls.
#include <ATen/ops/binary_cross_entropy.h>
#include <ATen/ops/binary_cross_entropy_with_logits.h>
#include <ATen/ops/cosine_embedding_loss.h>
#include <ATen/ops/cosine_similarity.h>
#include <ATen/ops/ctc_loss.h>
#include <ATen/ops/huber_loss.h>
#include <ATen/ops/kl_div.h>
#include <ATen/ops/l1_loss.h>
#include <ATen/ops/log_softmax.h>
#include <ATen/ops/margin_ranking_loss.h>
#include <ATen/ops/pairwise_distance.h>
#include <ATen/ops/smooth_l1_loss.h>
#include <ATen/ops/triplet_margin_loss.h>

#include "parity.h"

namespace ts::parity {
namespace {

constexpr ScalarType kLossDtypes[] = {kFloat, kDouble};
constexpr Layout kLossLayouts[] = {Layout::Contiguous, Layout::Transposed};
const std::pair<Reduction, const char*> kLossReductions[] = {
    {Reduction::None, "none"}, {Reduction::Mean, "mean"}, {Reduction::Sum, "sum"}};

// Probabilities for a 2x3 input and a 2x3 target.
const std::vector<double> kProbs = {0.1, 0.5, 0.9, 0.3, 0.7, 0.2};
const std::vector<double> kLabels = {1, 0, 1, 0.25, 0, 1};
const std::vector<double> kSigns = {1, -1, -1, 1, 1, -1};

void run_pointwise_losses(Tally& tally, const std::string& set) {
  for (ScalarType d : kLossDtypes) {
    for (Layout l : kLossLayouts) {
      for (const auto& rr : kLossReductions) {
        const Reduction red = rr.first;
        const int64_t r = static_cast<int64_t>(red);
        const std::string key = short_name(d) + "," + rr.second;
        const Input self{d, l, 0}, other{d, Layout::Contiguous, 1};
        const auto call = [&](const std::string& op, const std::string& what,
                              std::vector<Input> inputs, std::function<TsT(const TsVec&)> ts_f,
                              std::function<AtT(const AtVec&)> at_f) {
          Call c{op, "f", key + what, layout_name(l), std::move(inputs)};
          c.grad = true;
          run_call(tally, set, c, std::move(ts_f), std::move(at_f));
        };
        call(
            "l1_loss", "", {self, other},
            [=](const TsVec& in) { return ts::l1_loss(in[0], in[1], red); },
            [=](const AtVec& in) { return at::l1_loss(in[0], in[1], r); });
        for (const double beta : {1.0, 0.5, 0.0}) {
          call(
              "smooth_l1_loss", ",beta=" + std::to_string(beta).substr(0, 3), {self, other},
              [=](const TsVec& in) { return ts::smooth_l1_loss(in[0], in[1], red, beta); },
              [=](const AtVec& in) { return at::smooth_l1_loss(in[0], in[1], r, beta); });
        }
        for (const double delta : {1.0, 2.5}) {
          call(
              "huber_loss", ",delta=" + std::to_string(delta).substr(0, 3), {self, other},
              [=](const TsVec& in) { return ts::huber_loss(in[0], in[1], red, delta); },
              [=](const AtVec& in) { return at::huber_loss(in[0], in[1], r, delta); });
        }
        for (const bool log_target : {false, true}) {
          const Input target = log_target ? other : Input{d, Layout::Contiguous, 0, {2, 3}, kProbs};
          call(
              "kl_div", log_target ? ",log_target" : "", {self, target},
              [=](const TsVec& in) { return ts::kl_div(in[0], in[1], red, log_target); },
              [=](const AtVec& in) { return at::kl_div(in[0], in[1], r, log_target); });
        }
        const Input probs{d, l, 0, {2, 3}, kProbs},
            labels{d, Layout::Contiguous, 0, {2, 3}, kLabels};
        const Input row_weight{d, Layout::Contiguous, 1, {3}, {0.5, 2, 1}};
        for (const bool weighted : {false, true}) {
          std::vector<Input> in = {probs, labels};
          if (weighted) in.push_back(row_weight);
          call(
              "binary_cross_entropy", weighted ? ",weight" : "", in,
              [=](const TsVec& v) {
                return ts::binary_cross_entropy(v[0], v[1], weighted ? v[2] : TsT(), red);
              },
              [=](const AtVec& v) {
                return at::binary_cross_entropy(v[0], v[1], weighted ? v[2] : AtT(), r);
              });
        }
        for (int which = 0; which < 4; ++which) {
          const bool w = (which & 1) != 0, pw = (which & 2) != 0;
          std::vector<Input> in = {self, labels};
          if (w) in.push_back(row_weight);
          if (pw) in.push_back({d, Layout::Contiguous, 0, {3}, {2, 0.5, 1}});
          const auto opt = [=](const auto& v, bool on, size_t k) {
            return on ? v[k] : std::decay_t<decltype(v[0])>();
          };
          call(
              "binary_cross_entropy_with_logits",
              std::string(w ? ",weight" : "") + (pw ? ",pos_weight" : ""), in,
              [=](const TsVec& v) {
                return ts::binary_cross_entropy_with_logits(v[0], v[1], opt(v, w, 2),
                                                            opt(v, pw, w ? 3 : 2), red);
              },
              [=](const AtVec& v) {
                return at::binary_cross_entropy_with_logits(v[0], v[1], opt(v, w, 2),
                                                            opt(v, pw, w ? 3 : 2), r);
              });
        }
        const Input signs{d, Layout::Contiguous, 0, {2, 3}, kSigns};
        call(
            "margin_ranking_loss", "", {self, other, signs},
            [=](const TsVec& in) { return ts::margin_ranking_loss(in[0], in[1], in[2], 0.5, red); },
            [=](const AtVec& in) { return at::margin_ranking_loss(in[0], in[1], in[2], 0.5, r); });
        const Input row_signs{d, Layout::Contiguous, 0, {2}, {1, -1}};
        call(
            "cosine_embedding_loss", "", {self, other, row_signs},
            [=](const TsVec& in) {
              return ts::cosine_embedding_loss(in[0], in[1], in[2], 0.25, red);
            },
            [=](const AtVec& in) {
              return at::cosine_embedding_loss(in[0], in[1], in[2], 0.25, r);
            });
        const Input third{d, Layout::Contiguous, 0, {2, 3}, {1, 0.5, -2, 2, 3, -1}};
        for (const bool swap : {false, true}) {
          call(
              "triplet_margin_loss", swap ? ",swap" : "", {self, other, third},
              [=](const TsVec& in) {
                return ts::triplet_margin_loss(in[0], in[1], in[2], 1.0, 2, 1e-6, swap, red);
              },
              [=](const AtVec& in) {
                return at::triplet_margin_loss(in[0], in[1], in[2], 1.0, 2, 1e-6, swap, r);
              });
        }
      }
      // The distances (no reduction).
      const Input self{d, l, 0}, other{d, Layout::Contiguous, 1};
      for (const int64_t dim : {1, 0}) {
        Call c{"cosine_similarity",
               "f",
               short_name(d) + ",dim=" + std::to_string(dim),
               layout_name(l),
               {self, other}};
        c.grad = true;
        run_call(
            tally, set, c,
            [=](const TsVec& in) { return ts::cosine_similarity(in[0], in[1], dim); },
            [=](const AtVec& in) { return at::cosine_similarity(in[0], in[1], dim); });
      }
      for (const double p : {2.0, 1.0}) {
        for (const bool keepdim : {false, true}) {
          Call c{
              "pairwise_distance",
              "f",
              short_name(d) + ",p=" + std::to_string(p).substr(0, 3) + (keepdim ? ",keepdim" : ""),
              layout_name(l),
              {self, other}};
          c.grad = true;
          run_call(
              tally, set, c,
              [=](const TsVec& in) {
                return ts::pairwise_distance(in[0], in[1], p, 1e-6, keepdim);
              },
              [=](const AtVec& in) {
                return at::pairwise_distance(in[0], in[1], p, 1e-6, keepdim);
              });
        }
      }
    }
  }
}

// ctc_loss of log_softmax(logits (4, 2, 3)): padded and concatenated targets, an impossible
// alignment with and without zero_infinity.
void run_ctc(Tally& tally, const std::string& set) {
  for (ScalarType d : kLossDtypes) {
    for (const auto& rr : kLossReductions) {
      const Reduction red = rr.first;
      const int64_t r = static_cast<int64_t>(red);
      struct Targets {
        const char* name;
        Input input;
        std::vector<int64_t> il, tl;
        bool zero_infinity;
      };
      const std::vector<Targets> cases = {
          {"padded", {kLong, Layout::Contiguous, 0, {2, 2}, {1, 2, 2, 0}}, {4, 3}, {2, 1}, false},
          {"concat", {kLong, Layout::Contiguous, 0, {3}, {1, 2, 2}}, {4, 4}, {2, 1}, false},
          {"impossible",
           {kLong, Layout::Contiguous, 0, {2, 2}, {1, 1, 2, 0}},
           {2, 3},
           {2, 1},
           false},
          {"impossible_zero_inf",
           {kLong, Layout::Contiguous, 0, {2, 2}, {1, 1, 2, 0}},
           {2, 3},
           {2, 1},
           true},
      };
      for (const Targets& t : cases) {
        Call c{"ctc_loss",
               "f",
               short_name(d) + "," + rr.second + "," + t.name,
               "contiguous",
               {{d, Layout::Contiguous, 0, {4, 2, 3}}, t.input}};
        c.grad = true;
        const std::vector<int64_t> il = t.il, tl = t.tl;
        const bool zi = t.zero_infinity;
        run_call(
            tally, set, c,
            [=](const TsVec& in) {
              return ts::ctc_loss(ts::log_softmax(in[0], 2), in[1], il, tl, 0, red, zi);
            },
            [=](const AtVec& in) {
              return at::ctc_loss(at::log_softmax(in[0], 2), in[1], il, tl, 0, r, zi);
            });
      }
    }
  }
}

void run_bad_loss(Tally& tally, const std::string& set) {
  const Input x{kFloat}, wide{kFloat, Layout::Contiguous, 1, {3, 4}};
  run_bad(
      tally, set, "binary_cross_entropy", "input outside [0, 1]", {x, x},
      [](const TsVec& in) { return ts::binary_cross_entropy(in[0], in[0]); },
      [](const AtVec& in) { return at::binary_cross_entropy(in[0], in[0]); });
  run_bad(
      tally, set, "l1_loss", "shapes [2,3],[3,4]", {x, wide},
      [](const TsVec& in) { return ts::l1_loss(in[0], in[1]); },
      [](const AtVec& in) { return at::l1_loss(in[0], in[1]); });
  run_bad(
      tally, set, "smooth_l1_loss", "beta -1", {x, x},
      [](const TsVec& in) { return ts::smooth_l1_loss(in[0], in[1], Reduction::Mean, -1.0); },
      [](const AtVec& in) { return at::smooth_l1_loss(in[0], in[1], 1, -1.0); });
  run_bad(
      tally, set, "huber_loss", "delta 0", {x, x},
      [](const TsVec& in) { return ts::huber_loss(in[0], in[1], Reduction::Mean, 0.0); },
      [](const AtVec& in) { return at::huber_loss(in[0], in[1], 1, 0.0); });
  run_bad(
      tally, set, "triplet_margin_loss", "positive 1-D",
      {x, {kFloat, Layout::Contiguous, 1, {3}}, x},
      [](const TsVec& in) { return ts::triplet_margin_loss(in[0], in[1], in[2]); },
      [](const AtVec& in) { return at::triplet_margin_loss(in[0], in[1], in[2]); });
  run_bad(
      tally, set, "ctc_loss", "input_lengths > T",
      {{kFloat, Layout::Contiguous, 0, {4, 2, 3}},
       {kLong, Layout::Contiguous, 0, {2, 2}, {1, 2, 2, 1}}},
      [](const TsVec& in) {
        return ts::ctc_loss(in[0], in[1], {5, 4}, {2, 2});
      },
      [](const AtVec& in) {
        return at::ctc_loss(in[0], in[1], {5, 4}, {2, 2});
      });
}

}  // namespace

void run_loss(Tally& tally, const std::string& set) {
  run_pointwise_losses(tally, set);
  run_ctc(tally, set);
  run_bad_loss(tally, set);
}

}  // namespace ts::parity
