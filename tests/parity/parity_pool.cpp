// The parity test's pooling family (issue 16): max_pool and avg_pool (ATen's op of their dim
// count), max_pool1d/2d/3d and their _with_indices forms (values and indices compared apart),
// avg_pool1d/2d/3d (count_include_pad, divisor_override, ceil_mode), adaptive_avg_pool2d and
// adaptive_max_pool2d, batched and unbatched, over the floating dtypes and two layouts, and bad
// calls.
#include <ATen/ops/adaptive_avg_pool2d.h>
#include <ATen/ops/adaptive_max_pool2d.h>
#include <ATen/ops/avg_pool1d.h>
#include <ATen/ops/avg_pool2d.h>
#include <ATen/ops/avg_pool3d.h>
#include <ATen/ops/embedding_bag.h>
#include <ATen/ops/max_pool1d.h>
#include <ATen/ops/max_pool1d_with_indices.h>
#include <ATen/ops/max_pool2d.h>
#include <ATen/ops/max_pool2d_with_indices.h>
#include <ATen/ops/max_pool3d.h>
#include <ATen/ops/max_pool3d_with_indices.h>
#include <tuple>

#include "parity.h"

namespace ts::parity {
namespace {

using Shape = std::vector<int64_t>;

struct PoolCall {
  const char* op;
  std::string what;
  Shape x;
  bool grad = true;
  std::function<TsT(const TsVec&)> ts_f;
  std::function<AtT(const AtVec&)> at_f;
};

template <size_t I, class F>
auto part(F f) {
  return [f](const auto& in) { return std::get<I>(f(in)); };
}

std::vector<PoolCall> pool_calls() {
  std::vector<PoolCall> v = {
      {"max_pool",
       "k(3,3),s2,p1",
       {2, 3, 7, 6},
       true,
       part<0>([](const TsVec& in) {
         return ts::max_pool(in[0], {3, 3}, 2, 1, 1, false);
       }),
       part<0>([](const AtVec& in) {
         return at::max_pool2d_with_indices(in[0], {3, 3}, {2, 2}, {1, 1});
       })},
      {"max_pool1d",
       "k3,s2,ceil",
       {2, 3, 8},
       true,
       [](const TsVec& in) { return ts::max_pool1d(in[0], 3, 2, 0, 1, true); },
       [](const AtVec& in) { return at::max_pool1d(in[0], 3, 2, 0, 1, true); }},
      {"max_pool2d",
       "unbatched,k2,dilation2",
       {3, 6, 7},
       true,
       [](const TsVec& in) { return ts::max_pool2d(in[0], 2, {}, 0, 2); },
       [](const AtVec& in) { return at::max_pool2d(in[0], 2, {}, 0, 2); }},
      {"max_pool3d",
       "k2,p1",
       {1, 2, 4, 4, 5},
       true,
       [](const TsVec& in) { return ts::max_pool3d(in[0], 2, 2, 1); },
       [](const AtVec& in) { return at::max_pool3d(in[0], 2, 2, 1); }},
      {"max_pool2d_with_indices",
       "indices,k3,s2,p1,ceil",
       {2, 2, 7, 7},
       false,
       part<1>(
           [](const TsVec& in) { return ts::max_pool2d_with_indices(in[0], 3, 2, 1, 1, true); }),
       part<1>(
           [](const AtVec& in) { return at::max_pool2d_with_indices(in[0], 3, 2, 1, 1, true); })},
      {"max_pool1d_with_indices",
       "indices,k2",
       {2, 3, 7},
       false,
       part<1>([](const TsVec& in) { return ts::max_pool1d_with_indices(in[0], 2); }),
       part<1>([](const AtVec& in) { return at::max_pool1d_with_indices(in[0], 2); })},
      {"max_pool3d_with_indices",
       "values,k(1,2,2)",
       {2, 3, 4, 4},
       true,
       part<0>([](const TsVec& in) {
         return ts::max_pool3d_with_indices(in[0], {1, 2, 2});
       }),
       part<0>([](const AtVec& in) {
         return at::max_pool3d_with_indices(in[0], {1, 2, 2});
       })},
      {"avg_pool",
       "k3,s2,p1",
       {2, 3, 7},
       true,
       [](const TsVec& in) { return ts::avg_pool(in[0], {3}, {2}, {1}, false, true, {}); },
       [](const AtVec& in) { return at::avg_pool1d(in[0], 3, 2, 1); }},
      {"avg_pool1d",
       "k3,s2,p1,ceil,exclude_pad",
       {2, 3, 8},
       true,
       [](const TsVec& in) { return ts::avg_pool1d(in[0], 3, 2, 1, true, false); },
       [](const AtVec& in) { return at::avg_pool1d(in[0], 3, 2, 1, true, false); }},
      {"avg_pool2d",
       "k3,s2,p1,ceil",
       {2, 3, 6, 7},
       true,
       [](const TsVec& in) { return ts::avg_pool2d(in[0], 3, 2, 1, true); },
       [](const AtVec& in) { return at::avg_pool2d(in[0], 3, 2, 1, true); }},
      {"avg_pool2d",
       "unbatched,k2,divisor3",
       {3, 6, 6},
       true,
       [](const TsVec& in) { return ts::avg_pool2d(in[0], 2, {}, 0, false, true, 3); },
       [](const AtVec& in) { return at::avg_pool2d(in[0], 2, {}, 0, false, true, 3); }},
      {"avg_pool3d",
       "k2,p1,exclude_pad",
       {1, 2, 4, 4, 5},
       true,
       [](const TsVec& in) { return ts::avg_pool3d(in[0], 2, 2, 1, false, false); },
       [](const AtVec& in) { return at::avg_pool3d(in[0], 2, 2, 1, false, false); }},
      {"adaptive_avg_pool2d",
       "7x6->(3,4)",
       {2, 3, 7, 6},
       true,
       [](const TsVec& in) {
         return ts::adaptive_avg_pool2d(in[0], {3, 4});
       },
       [](const AtVec& in) {
         return at::adaptive_avg_pool2d(in[0], {3, 4});
       }},
      {"adaptive_avg_pool2d",
       "unbatched,->1x1",
       {4, 5, 5},
       true,
       [](const TsVec& in) {
         return ts::adaptive_avg_pool2d(in[0], {1, 1});
       },
       [](const AtVec& in) {
         return at::adaptive_avg_pool2d(in[0], {1, 1});
       }},
      {"adaptive_max_pool2d",
       "values,7x6->(3,4)",
       {2, 3, 7, 6},
       true,
       part<0>([](const TsVec& in) {
         return ts::adaptive_max_pool2d(in[0], {3, 4});
       }),
       part<0>([](const AtVec& in) {
         return at::adaptive_max_pool2d(in[0], {3, 4});
       })},
      {"adaptive_max_pool2d",
       "indices,5x5->(3,2)",
       {2, 5, 5},
       false,
       part<1>([](const TsVec& in) {
         return ts::adaptive_max_pool2d(in[0], {3, 2});
       }),
       part<1>([](const AtVec& in) {
         return at::adaptive_max_pool2d(in[0], {3, 2});
       })},
  };
  return v;
}

void run_pools(Tally& tally, const std::string& set) {
  for (const PoolCall& pc : pool_calls()) {
    for (ScalarType d : kFloatDtypes) {
      for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
        Call c{pc.op, "f", short_name(d) + "," + pc.what, layout_name(l), {{d, l, 0, pc.x}}};
        c.grad = pc.grad;
        run_call(tally, set, c, pc.ts_f, pc.at_f);
      }
    }
  }
}

void run_bad_pool(Tally& tally, const std::string& set) {
  const Input x{kFloat, Layout::Contiguous, 0, {1, 3, 5, 5}};
  run_bad(
      tally, set, "max_pool2d", "padding 2 for kernel 3", {x},
      [](const TsVec& in) { return ts::max_pool2d(in[0], 3, 1, 2); },
      [](const AtVec& in) { return at::max_pool2d(in[0], 3, 1, 2); });
  run_bad(
      tally, set, "max_pool2d", "stride 0", {x},
      [](const TsVec& in) { return ts::max_pool2d(in[0], 2, 0); },
      [](const AtVec& in) { return at::max_pool2d(in[0], 2, 0); });
  run_bad(
      tally, set, "max_pool2d", "kernel larger than input", {x},
      [](const TsVec& in) { return ts::max_pool2d(in[0], 6); },
      [](const AtVec& in) { return at::max_pool2d(in[0], 6); });
  run_bad(
      tally, set, "max_pool2d", "2-D input", {{kFloat, Layout::Contiguous, 0, {5, 5}}},
      [](const TsVec& in) { return ts::max_pool2d(in[0], 2); },
      [](const AtVec& in) { return at::max_pool2d(in[0], 2); });
  run_bad(
      tally, set, "avg_pool2d", "divisor_override 0", {x},
      [](const TsVec& in) { return ts::avg_pool2d(in[0], 2, {}, 0, false, true, 0); },
      [](const AtVec& in) { return at::avg_pool2d(in[0], 2, {}, 0, false, true, 0); });
  run_bad(
      tally, set, "adaptive_avg_pool2d", "output_size of 3", {x},
      [](const TsVec& in) {
        return ts::adaptive_avg_pool2d(in[0], {1, 1, 1});
      },
      [](const AtVec& in) {
        return at::adaptive_avg_pool2d(in[0], {1, 1, 1});
      });
}

// embedding_bag (issue 16): each mode, per_sample_weights, padding_idx, an empty bag.
void run_embedding_bag(Tally& tally, const std::string& set) {
  const Input idx{kLong, Layout::Contiguous, 0, {8}, {0, 3, 1, 1, 4, 2, 0, 3}};
  const Input offs{kLong, Layout::Contiguous, 0, {4}, {0, 3, 3, 5}};
  for (ScalarType d : kFloatDtypes) {
    for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
      for (int64_t mode : {0, 1, 2}) {
        for (const bool pad : {false, true}) {
          Call c{"embedding_bag",
                 "f",
                 short_name(d) + ",mode" + std::to_string(mode) + (pad ? ",padding_idx4" : ""),
                 layout_name(l),
                 {{d, l, 0, {5, 3}}, idx, offs}};
          c.grad = true;
          const c10::optional<int64_t> at_pad = pad ? c10::optional<int64_t>(4) : c10::nullopt;
          const std::optional<int64_t> ts_pad = pad ? std::optional<int64_t>(4) : std::nullopt;
          run_call(
              tally, set, c,
              [=](const TsVec& in) {
                return ts::embedding_bag(in[0], in[1], in[2], false, mode, false, {}, false,
                                         ts_pad);
              },
              [=](const AtVec& in) {
                return std::get<0>(
                    at::embedding_bag(in[0], in[1], in[2], false, mode, false, {}, false, at_pad));
              });
        }
      }
      Call c{"embedding_bag",
             "f",
             short_name(d) + ",per_sample_weights",
             layout_name(l),
             {{d, l, 0, {5, 3}}, idx, offs, {d, Layout::Contiguous, 1, {8}}}};
      c.grad = true;
      run_call(
          tally, set, c,
          [](const TsVec& in) {
            return ts::embedding_bag(in[0], in[1], in[2], false, 0, false, in[3]);
          },
          [](const AtVec& in) {
            return std::get<0>(at::embedding_bag(in[0], in[1], in[2], false, 0, false, in[3]));
          });
    }
  }
  run_bad(
      tally, set, "embedding_bag", "per_sample_weights in mean mode",
      {{kFloat, Layout::Contiguous, 0, {5, 3}}, idx, offs, {kFloat, Layout::Contiguous, 1, {8}}},
      [](const TsVec& in) {
        return ts::embedding_bag(in[0], in[1], in[2], false, 1, false, in[3]);
      },
      [](const AtVec& in) {
        return std::get<0>(at::embedding_bag(in[0], in[1], in[2], false, 1, false, in[3]));
      });
}

}  // namespace

void run_pool(Tally& tally, const std::string& set) {
  run_pools(tally, set);
  run_bad_pool(tally, set);
  run_embedding_bag(tally, set);
}

}  // namespace ts::parity
