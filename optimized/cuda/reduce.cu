// CUDA reductions: the geometry and launch shape (Note [CUDA reductions] in reduce.cuh), and
// sum, prod, mean, var, std, norm and logsumexp.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "optimized/cuda/reduce.cuh"
#include "touchstone/kernel_family.h"

namespace ts::cuda {

namespace {

struct GeoDim {
  int64_t size;
  int64_t stride[3];  // bytes: input, output 0, output 1
};

// Neighbours (fastest first) merge when the slower one steps exactly over the faster one in
// every operand; the merged linear index is the same row-major index.
std::vector<GeoDim> coalesce(const std::vector<GeoDim>& dims) {
  std::vector<GeoDim> out;
  for (const GeoDim& d : dims) {
    if (!out.empty()) {
      GeoDim& prev = out.back();
      bool merge = true;
      for (int k = 0; k < 3; ++k) merge &= d.stride[k] == prev.stride[k] * prev.size;
      if (merge) {
        prev.size *= d.size;
        continue;
      }
    }
    out.push_back(d);
  }
  return out;
}

int64_t pow2_at_least(int64_t n, int64_t cap) {
  int64_t p = 1;
  while (p < n && p < cap) p <<= 1;
  return p;
}

}  // namespace

ReduceGeometry make_reduce_geometry(const Tensor& in, ArrayRef<Tensor> outputs, IntArrayRef dims,
                                    bool keepdim, bool in_order) {
  ReduceGeometry g;
  g.in = static_cast<const char*>(in.data_ptr());
  for (size_t j = 0; j < outputs.size(); ++j) g.out[j] = static_cast<char*>(outputs[j].data_ptr());
  std::vector<GeoDim> kept, red;
  const int64_t es = static_cast<int64_t>(in.element_size());
  int64_t out_dim = 0;
  for (int64_t d = 0; d < in.dim(); ++d) {
    const bool reduced = std::find(dims.begin(), dims.end(), d) != dims.end();
    GeoDim x{in.size(d), {in.stride(d) * es, 0, 0}};
    if (reduced) {
      g.num_reduced *= x.size;
    } else {
      const int64_t od = keepdim ? d : out_dim++;
      for (size_t j = 0; j < outputs.size(); ++j) {
        x.stride[1 + j] = outputs[j].stride(od) * static_cast<int64_t>(outputs[j].element_size());
      }
      g.num_outputs *= x.size;
    }
    if (x.size != 1) (reduced ? red : kept).push_back(x);
  }
  if (g.num_reduced == 0) red.clear();
  // Fastest first: the row-major order reversed, then (unless in_order) by input stride.
  std::reverse(kept.begin(), kept.end());
  std::reverse(red.begin(), red.end());
  const auto by_stride = [](const GeoDim& a, const GeoDim& b) {
    return std::llabs(a.stride[0]) < std::llabs(b.stride[0]);
  };
  std::stable_sort(kept.begin(), kept.end(), by_stride);
  if (!in_order) std::stable_sort(red.begin(), red.end(), by_stride);
  kept = coalesce(kept);
  red = coalesce(red);
  TS_CHECK(kept.size() <= kReduceMaxDims && red.size() <= kReduceMaxDims,
           "CUDA reduction: more than ", kReduceMaxDims, " kept or reduced dims after coalescing");
  g.nkept = static_cast<int>(kept.size());
  g.nred = static_cast<int>(red.size());
  for (int d = 0; d < g.nkept; ++d) {
    g.kept_size[d] = kept[d].size;
    g.kept_in[d] = kept[d].stride[0];
    g.kept_out[0][d] = kept[d].stride[1];
    g.kept_out[1][d] = kept[d].stride[2];
  }
  for (int d = 0; d < g.nred; ++d) {
    g.red_size[d] = red[d].size;
    g.red_in[d] = red[d].stride[0];
  }
  return g;
}

// Note [Reduction launch shape]
// 256 threads a block. Inner: lanes = the reduced count rounded up to a power of two (at most
// 256), the rest of the block other outputs. Outer: up to 32 neighbouring outputs across x and
// lanes down y. When the outputs fill fewer than kTargetBlocks blocks and each lane would still
// accumulate more than 2 x kMinRun elements, the reduced range is split so that the grid has
// about kTargetBlocks blocks (about 8 per SM of an H100) and each lane at least kMinRun terms.
ReduceConfig make_reduce_config(const ReduceGeometry& g) {
  constexpr int64_t kTargetBlocks = 1024;
  constexpr int64_t kMinRun = 64;
  ReduceConfig c;
  const int64_t m = g.num_outputs, n = g.num_reduced;
  c.inner = g.nred > 0 && (g.nkept == 0 || std::llabs(g.red_in[0]) < std::llabs(g.kept_in[0]));
  if (c.inner) {
    c.lanes = static_cast<int>(pow2_at_least(n, kThreads));
    c.outs_per_block = kThreads / c.lanes;
  } else {
    c.outs_per_block = static_cast<int>(pow2_at_least(m, 32));
    c.lanes = static_cast<int>(pow2_at_least(n, kThreads / c.outs_per_block));
    c.outs_per_block = static_cast<int>(pow2_at_least(m, kThreads / c.lanes));
  }
  c.blocks = (m + c.outs_per_block - 1) / c.outs_per_block;
  TS_CHECK(c.blocks <= std::numeric_limits<int32_t>::max(), "CUDA reduction: ", m,
           " outputs need more than 2^31 - 1 blocks");
  c.chunk = n;
  const int64_t run = (n + c.lanes - 1) / c.lanes;
  if (c.blocks < kTargetBlocks && run > 2 * kMinRun) {
    const int64_t splits = std::min(
        {(kTargetBlocks + c.blocks - 1) / c.blocks, (run + kMinRun - 1) / kMinRun, int64_t{65535}});
    c.chunk = (n + splits - 1) / splits;
    c.splits = static_cast<int>((n + c.chunk - 1) / c.chunk);
  }
  return c;
}

Tensor reduce_workspace(int64_t nbytes, Device device) {
  return empty({nbytes}, TensorOptions(kByte).device(device));
}

namespace {

// The input in the compute dtype (cast on the device when it has another).
Tensor as_dtype(const Tensor& t, ScalarType ct) {
  return t.dtype() == ct ? t : t.to(ct);
}

// Reduces c.inputs[0], cast to the compute dtype, into c.outputs[0] (through a compute-dtype
// temporary when out= has another dtype) with the accumulator make_op<scalar_t>() builds.
template <class MakeOp>
void run_reduce(const KernelCall& c, const MakeOp& make_op) {
  const Tensor& self = c.inputs[0];
  DeviceGuard guard(self.device().index());
  const ScalarType ct = c.p.compute_dtype;
  const Tensor in = as_dtype(self, ct);
  with_output_dtype(c.outputs[0], ct, [&](const Tensor& out) {
    const ReduceGeometry g = call_geometry(c, in, ArrayRef<Tensor>(&out, 1), false);
    TS_CUDA_DISPATCH_ALL(ct, op_info(c.op).name.data(),
                         [&] { make_op(g, static_cast<scalar_t*>(nullptr), in.device()); });
  });
}

template <bool kProd>
void sum_prod_kernel(const KernelCall& c) {
  run_reduce(c, [](const ReduceGeometry& g, auto* tag, Device d) {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (is_float_v<T>) {
      launch_reduce<T>(g, FloatSumOp<T, kProd>{}, d);
    } else {
      launch_reduce<T>(g, IntSumOp<T, kProd>{}, d);
    }
  });
}

// The floating-only reductions: op_for<T>(g) gives the accumulator.
template <class F>
void floating_reduce(const KernelCall& c, const F& op_for) {
  run_reduce(c, [&](const ReduceGeometry& g, auto* tag, Device d) {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (is_float_v<T>) {
      launch_reduce<T>(g, op_for(g, tag), d);
    } else {
      TS_ERROR(op_info(c.op).name, ": CUDA kernel called with a non-floating compute dtype");
    }
  });
}

void mean_kernel(const KernelCall& c) {
  floating_reduce(c, [](const ReduceGeometry& g, auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    FloatSumOp<T, false> op;
    op.mean = true;
    op.count = static_cast<acc_float_t<T>>(g.num_reduced);
    return op;
  });
}

template <bool kSqrt>
void var_std_kernel(const KernelCall& c) {
  floating_reduce(c, [&c](const ReduceGeometry&, auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    WelfordOp<T> op;
    op.correction = static_cast<acc_float_t<T>>(c.params<VarParams>().correction);
    op.take_sqrt = kSqrt;
    return op;
  });
}

void norm_kernel(const KernelCall& c) {
  const double pv = c.params<NormParams>().p;
  const NormKind kind = pv == 0           ? NormKind::Zero
                        : pv == 1         ? NormKind::One
                        : pv == 2         ? NormKind::Two
                        : pv == INFINITY  ? NormKind::Max
                        : pv == -INFINITY ? NormKind::Min
                                          : NormKind::Pow;
  floating_reduce(c, [kind, pv](const ReduceGeometry& g, auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    NormOp<T> op;
    op.kind = g.num_reduced == 0 ? NormKind::Zero : kind;  // empty: 0 for every p
    op.p = static_cast<acc_float_t<T>>(pv);
    return op;
  });
}

void logsumexp_kernel(const KernelCall& c) {
  floating_reduce(c, [](const ReduceGeometry&, auto* tag) {
    return LogSumExpOp<std::remove_pointer_t<decltype(tag)>>{};
  });
}

// One branch per Reduction and Scan op of op_list.def (registered below); reduce_minmax.cu
// and cumsum.cu hold the kernels of the extremes, all/any and cumsum.
template <OpId op>
void reduce_op(const KernelCall& c) {
  using enum OpId;
  if constexpr (op == sum || op == prod) {
    sum_prod_kernel<op == prod>(c);
  } else if constexpr (op == mean) {
    mean_kernel(c);
  } else if constexpr (op == var || op == std) {
    var_std_kernel<op == std>(c);
  } else if constexpr (op == norm) {
    norm_kernel(c);
  } else if constexpr (op == logsumexp) {
    logsumexp_kernel(c);
  } else if constexpr (op == amax || op == max || op == amin || op == min) {
    extreme_kernel(c, op == amax || op == max);
  } else if constexpr (op == argmax || op == argmin) {
    arg_extreme_kernel(c, op == argmax);
  } else if constexpr (op == all || op == any) {
    all_any_kernel(c, op == all);
  } else if constexpr (op == cumsum) {
    cumsum_kernel(c);
  } else if constexpr (op == cumprod) {  // scans (issue 16)
    cumprod_kernel(c);
  } else if constexpr (op == logcumsumexp) {
    logcumsumexp_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a Reduction or Scan op without its CUDA kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_reduce) {
  for_each_kernel_op<OpSignature::Reduction, OpSignature::Scan>(
      [&](auto op) { m.impl(op, kCUDA, reduce_op<op>); });
}

}  // namespace ts::cuda
