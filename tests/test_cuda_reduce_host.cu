// The CUDA reduction launcher run on the host, against the CPU reference set: a launch's blocks
// and threads are walked one after another, each lane running reduce_lane, lanes combining as
// reduce_kernel's tree and grid splits finishing through reduce_finish (reduce.cuh). Only the
// thread mapping and the barriers are emulated; the geometry, the launch shape and the
// accumulators are the kernels' own code. Runs in every CUDA build, with or without a GPU.
#include <algorithm>
#include <memory>
#include <vector>

#include "optimized/cuda/reduce.cuh"
#include "test_cuda_util.h"

using namespace ts::testing;  // NOLINT
using namespace ts::cuda;     // NOLINT
using ts::Tensor;

namespace {

// reduce_kernel and reduce_partials_kernel of one launch, block by block on the host.
template <class T, class Op>
void emulate_launch(const ReduceGeometry& g, const Op& op) {
  using A = typename Op::acc_t;
  if (g.num_outputs == 0) return;
  const ReduceConfig cfg = make_reduce_config(g);
  // Arrays rather than std::vector, whose bool specialization has no data().
  const auto partials = std::make_unique<A[]>(cfg.splits > 1 ? g.num_outputs * cfg.splits : 1);
  const auto lanes = std::make_unique<A[]>(cfg.lanes);
  for (int64_t bx = 0; bx < cfg.blocks; ++bx) {
    for (int by = 0; by < cfg.splits; ++by) {
      for (int local = 0; local < cfg.outs_per_block; ++local) {
        const int64_t o = bx * cfg.outs_per_block + local;
        const int64_t r0 = by * cfg.chunk;
        const int64_t r1 = std::min(r0 + cfg.chunk, g.num_reduced);
        if (o >= g.num_outputs) continue;
        int64_t in_off = 0, out0 = 0, out1 = 0;
        g.output_offsets(o, in_off, out0, out1);
        for (int l = 0; l < cfg.lanes; ++l) {
          lanes[l] = reduce_lane<T>(g, op, g.in + in_off, r0, r1, l, cfg.lanes);
        }
        for (int s = cfg.lanes / 2; s > 0; s >>= 1) {
          for (int l = 0; l < s; ++l) lanes[l] = op.combine(lanes[l], lanes[l + s]);
        }
        if (cfg.splits == 1) {
          reduce_write(g, op, lanes[0], o);
        } else {
          partials[o * cfg.splits + by] = lanes[0];
        }
      }
    }
  }
  if (cfg.splits > 1) {
    for (int64_t o = 0; o < g.num_outputs; ++o) reduce_finish(g, op, partials.get(), cfg.splits, o);
  }
}

// dims wrapped and sorted as the meta passes them (all dims when empty).
ts::DimVector reduced_dims(const Tensor& x, const std::vector<int64_t>& dims) {
  ts::DimVector d;
  for (int64_t i = 0; i < x.dim(); ++i) {
    if (dims.empty() || std::find(dims.begin(), dims.end(), i) != dims.end()) d.push_back(i);
  }
  return d;
}

// Emulates op over `dims` of x into fresh outputs shaped like `want` (and `want_indices`).
template <class T, class Op>
void expect_emulated(const std::string& what, const Tensor& x, const std::vector<int64_t>& dims,
                     bool keepdim, const Op& op, const Tensor& want, Tolerance tol,
                     const Tensor& want_indices = {}) {
  std::vector<Tensor> outs = {ts::empty(want.sizes(), want.dtype())};
  if (want_indices.defined()) outs.push_back(ts::empty(want_indices.sizes(), ts::kLong));
  const bool in_order = want_indices.defined() || want.dtype() == ts::kLong;
  emulate_launch<T>(make_reduce_geometry(x, outs, reduced_dims(x, dims), keepdim, in_order), op);
  expect_close_values(outs[0], want, tol, what);
  if (want_indices.defined()) expect_close_values(outs[1], want_indices, Tolerance{}, what);
}

class CudaReduceHost : public ::testing::Test {
 protected:
  ts::KernelSetGuard ref_{"reference"};
};

TEST_F(CudaReduceHost, FloatReductionsOverEveryGeometry) {
  const Tensor base = random_input({37, 129, 5}, kFloat, 2.0, 0.5);
  const std::vector<std::vector<int64_t>> dim_sets = {{2}, {1}, {0}, {0, 2}, {1, 2}, {}};
  for (bool permute : {false, true}) {
    const Tensor x = permute ? base.permute({2, 0, 1}) : base;
    for (const auto& d : dim_sets) {
      const std::string tag = (permute ? "permuted, " : "") + std::to_string(d.size()) + " dims";
      const Tolerance tol = tolerance_for(kFloat, x.numel());
      int64_t n = 1;
      for (int64_t i : reduced_dims(x, d)) n *= x.size(i);
      expect_emulated<float>("sum " + tag, x, d, false, FloatSumOp<float, false>{}, ts::sum(x, d),
                             tol);
      FloatSumOp<float, false> mean;
      mean.mean = true;
      mean.count = static_cast<float>(n);
      expect_emulated<float>("mean " + tag, x, d, true, mean, ts::mean(x, d, true), tol);
      WelfordOp<float> var;
      expect_emulated<float>("var " + tag, x, d, false, var, ts::var(x, d), tol);
      WelfordOp<float> std0;
      std0.correction = 0;
      std0.take_sqrt = true;
      expect_emulated<float>("std " + tag, x, d, false, std0, ts::std(x, d, 0), tol);
      expect_emulated<float>("logsumexp " + tag, x, d, false, LogSumExpOp<float>{},
                             ts::logsumexp(x, d), tol);
      expect_emulated<float>("amax " + tag, x, d, false, ExtremeOp<float, true>{}, ts::amax(x, d),
                             Tolerance{});
      expect_emulated<float>("amin " + tag, x, d, true, ExtremeOp<float, false>{},
                             ts::amin(x, d, true), Tolerance{});
      for (const auto& [kind, p] :
           {std::pair{NormKind::One, 1.0}, std::pair{NormKind::Two, 2.0},
            std::pair{NormKind::Max, kInf}, std::pair{NormKind::Min, -kInf},
            std::pair{NormKind::Zero, 0.0}, std::pair{NormKind::Pow, 3.0}}) {
        NormOp<float> norm;
        norm.kind = kind;
        norm.p = static_cast<float>(p);
        expect_emulated<float>("norm " + tag, x, d, false, norm, ts::norm(x, p, d), tol);
      }
      if (d.size() == 1) {
        const auto [v, i] = ts::max(x, d[0], true);
        expect_emulated<float>("max with indices " + tag, x, d, true,
                               ArgExtremeOp<float, true>{true}, v, Tolerance{}, i);
      }
      if (d.empty()) {
        expect_emulated<float>("argmin " + tag, x, d, false, ArgExtremeOp<float, false>{false},
                               ts::argmin(x), Tolerance{});
      }
    }
  }
}

TEST_F(CudaReduceHost, HalfDoubleAndIntegerDtypes) {
  const Tensor h = random_input({40, 70}, kHalf);
  expect_emulated<ts::cuda::half>("half sum", h, {1}, false, FloatSumOp<ts::cuda::half, false>{},
                                  ts::sum(h, {1}), tolerance_for(kHalf, 70));
  expect_emulated<ts::cuda::half>("half var", h, {0}, false, WelfordOp<ts::cuda::half>{},
                                  ts::var(h, {0}), tolerance_for(kHalf, 40));
  const Tensor d = random_input({40, 70}, kDouble);
  expect_emulated<double>("double sum", d, {}, false, FloatSumOp<double, false>{}, ts::sum(d),
                          tolerance_for(kDouble, d.numel()));
  // int8 sums wrap in the int8 result; int32 products wrap.
  const Tensor i8 = random_input({9, 300}, kChar, 60.0);
  expect_emulated<int8_t>("int8 sum", i8, {1}, false, IntSumOp<int8_t, false>{},
                          ts::sum(i8, {1}, false, kChar), Tolerance{});
  const Tensor i32 = random_input({300, 9}, kInt, 60.0);
  expect_emulated<int32_t>("int32 prod", i32, {0}, false, IntSumOp<int32_t, true>{},
                           ts::prod(i32, 0, false, kInt), Tolerance{});
  expect_emulated<int32_t>("int32 amin", i32, {0}, false, ExtremeOp<int32_t, false>{},
                           ts::amin(i32, {0}), Tolerance{});
  const auto [v, i] = ts::min(i32, 1);
  expect_emulated<int32_t>("int32 min with indices", i32, {1}, false,
                           ArgExtremeOp<int32_t, false>{true}, v, Tolerance{}, i);
  // all / any read x != 0: NaN is true, -0.0 false.
  const Tensor z = make(kFloat, {1, kNaN, -0.0, 0.0, 2, 3}, {3, 2});
  expect_emulated<float>("all", z, {1}, false, AllAnyOp<float, true>{}, ts::all(z, 1), Tolerance{});
  expect_emulated<float>("any", z, {1}, false, AllAnyOp<float, false>{}, ts::any(z, 1),
                         Tolerance{});
}

TEST_F(CudaReduceHost, GridReductionsAndTies) {
  // 2^22 elements: 256 splits of one output.
  const Tensor big = random_input({int64_t{1} << 22}, kFloat);
  const Tolerance tol = tolerance_for(kFloat, big.numel());
  expect_emulated<float>("sum", big, {}, false, FloatSumOp<float, false>{}, ts::sum(big), tol);
  expect_emulated<float>("var", big, {}, false, WelfordOp<float>{}, ts::var(big), tol);
  expect_emulated<float>("logsumexp", big, {}, false, LogSumExpOp<float>{}, ts::logsumexp(big, {0}),
                         tol);
  expect_emulated<float>("argmin", big, {}, false, ArgExtremeOp<float, false>{false},
                         ts::argmin(big), Tolerance{});
  // Three long columns: the outer geometry split along the rows.
  const Tensor tall = random_input({1 << 16, 3}, kFloat);
  expect_emulated<float>("outer sum", tall, {0}, false, FloatSumOp<float, false>{},
                         ts::sum(tall, {0}), tolerance_for(kFloat, tall.size(0)));
  const auto [v, i] = ts::min(tall, 0);
  expect_emulated<float>("outer min with indices", tall, {0}, false,
                         ArgExtremeOp<float, false>{true}, v, Tolerance{}, i);
  // Equal maxima in the first and the last split: the first index wins.
  const Tensor ties = ts::zeros({int64_t{1} << 21}, kFloat);
  store_as<float>(element_ptr(ties, 5), 7.0f);
  store_as<float>(element_ptr(ties, (int64_t{1} << 21) - 3), 7.0f);
  expect_emulated<float>("argmax ties", ties, {}, false, ArgExtremeOp<float, true>{false},
                         make_long({5}, {}), Tolerance{});
  expect_emulated<float>("argmin ties", ties, {}, false, ArgExtremeOp<float, false>{false},
                         make_long({0}, {}), Tolerance{});
  // A transposed input: indices count in row-major order of the logical shape.
  const Tensor t = random_input({33, 47}, kFloat).t();
  expect_emulated<float>("argmax transposed", t, {}, false, ArgExtremeOp<float, true>{false},
                         ts::argmax(t), Tolerance{});
}

TEST_F(CudaReduceHost, EmptyNaNAndInfinity) {
  const Tensor e = ts::empty({0, 3}, kFloat);
  expect_emulated<float>("empty sum", e, {0}, false, FloatSumOp<float, false>{}, ts::sum(e, {0}),
                         Tolerance{});
  FloatSumOp<float, false> mean;
  mean.mean = true;
  expect_emulated<float>("empty mean", e, {0}, false, mean, ts::mean(e, {0}), Tolerance{});
  expect_emulated<float>("empty logsumexp", e, {0}, false, LogSumExpOp<float>{},
                         ts::logsumexp(e, {0}), Tolerance{});
  const Tensor n = make(kFloat, {1, kNaN, 5, kNaN}, {4});
  expect_emulated<float>("argmax NaN", n, {}, false, ArgExtremeOp<float, true>{false},
                         make_long({1}, {}), Tolerance{});
  expect_emulated<float>("amax NaN", n, {}, false, ExtremeOp<float, true>{}, ts::amax(n),
                         Tolerance{});
  expect_emulated<float>("logsumexp NaN", n, {0}, false, LogSumExpOp<float>{},
                         ts::logsumexp(n, {0}), Tolerance{});
  const Tensor inf = make(kFloat, {-kInf, -kInf, 1, kInf}, {2, 2});
  expect_emulated<float>("logsumexp infinities", inf, {1}, false, LogSumExpOp<float>{},
                         make(kFloat, {-kInf, kInf}), Tolerance{});
}

}  // namespace
