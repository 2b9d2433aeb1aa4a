// Reference kernel for convolution (direct and transposed, 1 to 3 spatial dims): the nested-loop
// definition in double. See Note [Reference kernels] in common.h and the params at the top of
// lib/src/ops/conv.cpp. Every output element is a sum in double, rounded once.
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

// A tensor's elements in row-major order, each rounded to the compute dtype.
std::vector<double> load_all(const Tensor& t, ScalarType ct) {
  std::vector<double> v;
  v.reserve(static_cast<size_t>(t.numel()));
  for_each_index(t.sizes(), [&](IntArrayRef idx) {
    v.push_back(load_as_double(element_ptr(t, idx), t.dtype(), ct));
  });
  return v;
}

// Spatial extents and parameters padded to 3 dims (a missing dim: size 1, stride 1, no padding).
struct Dims3 {
  int64_t v[3] = {1, 1, 1};
};
Dims3 pad3(IntArrayRef a, int64_t fill) {
  Dims3 r;
  for (int i = 0; i < 3; ++i) r.v[i] = fill;
  const size_t off = 3 - a.size();
  for (size_t i = 0; i < a.size(); ++i) r.v[off + i] = a[i];
  return r;
}

// Direct:     y[n, o, j] = bias[o] + sum over c of o's group, k of
//                 x[n, c, j * stride + k * dilation - padding] * w[o, c % Cin_g, k]
// Transposed: y[n, o, i] = bias[o] + sum over c of o's group, k, j with
//                 j * stride + k * dilation - padding == i of x[n, c, j] * w[c, o % Cout_g, k]
// (the transposed convolution is the adjoint of the direct one with respect to its input).
void convolution_kernel(const KernelCall& c) {
  const Tensor& x = c.inputs[0];
  const Tensor& w = c.inputs[1];
  const Tensor& b = c.inputs[2];
  const Tensor& y = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const ConvParams& p = c.params<ConvParams>();
  if (y.numel() == 0) return;
  const size_t nd = static_cast<size_t>(x.dim()) - 2;
  const Dims3 in = pad3(x.sizes().slice(2), 1), out = pad3(y.sizes().slice(2), 1);
  const Dims3 k = pad3(w.sizes().slice(2), 1), s = pad3(p.stride, 1), d = pad3(p.dilation, 1),
              pd = pad3(p.padding, 0);
  const int64_t n_batch = x.size(0), c_in = x.size(1), c_out = y.size(1), g = p.groups;
  const int64_t cin_g = c_in / g, cout_g = c_out / g;
  const std::vector<double> xv = load_all(x, ct), wv = load_all(w, ct);
  const std::vector<double> bv = b.defined() ? load_all(b, ct) : std::vector<double>();
  const int64_t k_plane = k.v[0] * k.v[1] * k.v[2];
  const auto x_at = [&](int64_t n, int64_t ch, const int64_t* pos) {
    return xv[static_cast<size_t>(((n * c_in + ch) * in.v[0] + pos[0]) * in.v[1] * in.v[2] +
                                  pos[1] * in.v[2] + pos[2])];
  };
  // Weight (Cout, Cin_g, k...) direct, (Cin, Cout_g, k...) transposed.
  const int64_t w_second = p.transposed ? cout_g : cin_g;
  const auto w_at = [&](int64_t first, int64_t second, const int64_t* kk) {
    return wv[static_cast<size_t>((first * w_second + second) * k_plane +
                                  (kk[0] * k.v[1] + kk[1]) * k.v[2] + kk[2])];
  };

  DimVector out_idx(static_cast<size_t>(y.dim()), 0);
  for (int64_t n = 0; n < n_batch; ++n) {
    for (int64_t o = 0; o < c_out; ++o) {
      const int64_t grp = o / cout_g;
      for (int64_t o0 = 0; o0 < out.v[0]; ++o0) {
        for (int64_t o1 = 0; o1 < out.v[1]; ++o1) {
          for (int64_t o2 = 0; o2 < out.v[2]; ++o2) {
            const int64_t opos[3] = {o0, o1, o2};
            double acc = bv.empty() ? 0.0 : bv[static_cast<size_t>(o)];
            for (int64_t ci = 0; ci < cin_g; ++ci) {
              const int64_t ch = grp * cin_g + ci;
              for (int64_t k0 = 0; k0 < k.v[0]; ++k0) {
                for (int64_t k1 = 0; k1 < k.v[1]; ++k1) {
                  for (int64_t k2 = 0; k2 < k.v[2]; ++k2) {
                    const int64_t kk[3] = {k0, k1, k2};
                    int64_t ipos[3];
                    bool inside = true;
                    for (int a = 0; a < 3 && inside; ++a) {
                      if (!p.transposed) {
                        ipos[a] = opos[a] * s.v[a] + kk[a] * d.v[a] - pd.v[a];
                      } else {
                        const int64_t t = opos[a] + pd.v[a] - kk[a] * d.v[a];
                        inside = t >= 0 && t % s.v[a] == 0;
                        ipos[a] = t / s.v[a];
                      }
                      inside = inside && ipos[a] >= 0 && ipos[a] < in.v[a];
                    }
                    if (!inside) continue;
                    const double wk = p.transposed ? w_at(ch, o % cout_g, kk) : w_at(o, ci, kk);
                    acc += x_at(n, ch, ipos) * wk;
                  }
                }
              }
            }
            out_idx[0] = n;
            out_idx[1] = o;
            for (size_t a = 0; a < nd; ++a) out_idx[2 + a] = opos[3 - nd + a];
            store_double(element_ptr(y, out_idx), y.dtype(), round_to(ct, acc));
          }
        }
      }
    }
  }
}

template <OpId op>
void conv_kernel(const KernelCall& c) {
  if constexpr (op == OpId::convolution) {
    convolution_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a convolution op without its reference kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, conv) {
  for_each_kernel_op<OpSignature::Conv>([&](auto op) { m.impl(op, kCPU, conv_kernel<op>); });
}

}  // namespace ts::reference
