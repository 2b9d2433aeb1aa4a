// gradcheck and gradgradcheck: analytical Jacobians (autograd::grad) against central
// differences in float64.
//
// Note [gradcheck]
// Full mode builds, for every (output, input) pair, the numerical Jacobian column by column
// (perturbing one input element by +-eps in place through its memory, so no version counter
// moves and saved tensors stay valid) and the analytical one row by row (grad with a one-hot
// grad_output). Fast mode compares the scalars v^T J u for random u (per input) and v (per
// output): one perturbation along u and one backward with v per pair, as PyTorch's fast_mode.
// Elements match when |analytical - numerical| <= atol + rtol * |numerical|.
#include <cmath>
#include <random>
#include <sstream>

#include "touchstone/autograd.h"
#include "touchstone/ops.h"

namespace ts::autograd {
namespace {

// The memory of element `linear` (row-major over sizes) of a float64 tensor.
double* element(const Tensor& t, int64_t linear) {
  int64_t offset = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    const int64_t size = t.sizes()[d];
    offset += (linear % size) * t.strides()[d];
    linear /= size;
  }
  return static_cast<double*>(t.data_ptr()) + offset;
}

std::vector<double> values_of(const Tensor& t) {
  NoGradGuard no_grad;
  const Tensor c = t.to(kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

bool is_differentiable_output(const Tensor& t) {
  return t.defined() && is_floating_type(t.dtype());
}

std::vector<std::vector<double>> evaluate(const GradcheckFn& fn, const std::vector<Tensor>& inputs,
                                          const std::vector<size_t>& outs) {
  const std::vector<Tensor> r = fn(inputs);
  std::vector<std::vector<double>> v;
  for (size_t o : outs) v.push_back(values_of(r[o]));
  return v;
}

void check_input(const Tensor& t, size_t i) {
  TS_CHECK(t.dtype() == kDouble, "gradcheck: input ", i, " requires grad but is not float64 (got ",
           t.dtype(), "); use float64 inputs");
  for (int64_t d = 0; d < t.dim(); ++d) {
    TS_CHECK(t.sizes()[d] <= 1 || t.strides()[d] != 0, "gradcheck: input ", i,
             " has overlapping memory (e.g. it is expanded); pass a clone() of it");
  }
}

struct Mismatch {
  double error = -1;
  std::string where;
  double analytical = 0, numerical = 0;
};

void compare(double analytical, double numerical, const GradcheckOptions& o, double& max_error,
             Mismatch& worst, const std::string& where) {
  const double err = std::fabs(analytical - numerical);
  const bool bad = !(err <= o.atol + o.rtol * std::fabs(numerical)) ||
                   std::isnan(analytical) != std::isnan(numerical);
  if (!std::isnan(err)) max_error = std::max(max_error, err);
  if (bad && (worst.error < 0 || err > worst.error || std::isnan(err))) {
    worst = {std::isnan(err) ? INFINITY : err, where, analytical, numerical};
  }
}

GradcheckResult finish(double max_error, const Mismatch& worst, const GradcheckOptions& o,
                       const char* what) {
  GradcheckResult r;
  r.max_error = max_error;
  if (worst.error < 0) return r;
  std::ostringstream msg;
  msg.precision(10);
  msg << what << " mismatch for " << worst.where << ": analytical " << worst.analytical
      << ", numerical " << worst.numerical << " (|difference| " << worst.error << " > atol "
      << o.atol << " + rtol " << o.rtol << " * |numerical|)";
  r.ok = false;
  r.message = msg.str();
  TS_CHECK(!o.raise_exception, "gradcheck: ", r.message);
  return r;
}

}  // namespace

GradcheckResult gradcheck(const GradcheckFn& fn, const std::vector<Tensor>& inputs,
                          const GradcheckOptions& options) {
  std::vector<size_t> diff_inputs;
  std::vector<Tensor> diff_tensors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined() || !inputs[i].requires_grad()) continue;
    check_input(inputs[i], i);
    diff_inputs.push_back(i);
    diff_tensors.push_back(inputs[i]);
  }
  TS_CHECK(!diff_inputs.empty(), "gradcheck: no input requires grad");
  const std::vector<Tensor> outputs = fn(inputs);
  std::vector<size_t> outs;
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (is_differentiable_output(outputs[o])) outs.push_back(o);
  }
  const double eps = options.eps;
  double max_error = 0;
  Mismatch worst;
  std::mt19937_64 rng(options.seed);
  std::normal_distribution<double> normal;

  // The analytical vector-Jacobian product of output `o` with `v` (one entry per diff input).
  auto vjp = [&](size_t o, const Tensor& v) {
    std::vector<Tensor> g;
    if (outputs[o].requires_grad()) {
      g = grad({outputs[o]}, diff_tensors, {v}, /*retain_graph=*/true, false,
               /*allow_unused=*/true);
    }
    g.resize(diff_tensors.size());
    return g;
  };

  if (!options.fast_mode) {
    for (size_t k = 0; k < outs.size(); ++k) {
      const size_t o = outs[k];
      const int64_t m = outputs[o].numel();
      // analytical[i][j * n_i + c]: d output[j] / d input_i[c]
      std::vector<std::vector<double>> analytical(diff_tensors.size());
      for (int64_t j = 0; j < m; ++j) {
        Tensor v = zeros(outputs[o].sizes(), TensorOptions(outputs[o].dtype()));
        {
          NoGradGuard no_grad;
          v.reshape({-1}).select(0, j).fill_(1);
        }
        const std::vector<Tensor> g = vjp(o, v);
        for (size_t i = 0; i < diff_tensors.size(); ++i) {
          std::vector<double> row =
              g[i].defined() ? values_of(g[i]) : std::vector<double>(diff_tensors[i].numel(), 0.0);
          analytical[i].insert(analytical[i].end(), row.begin(), row.end());
        }
      }
      for (size_t i = 0; i < diff_tensors.size(); ++i) {
        const Tensor& x = diff_tensors[i];
        const int64_t n = x.numel();
        for (int64_t c = 0; c < n; ++c) {
          double* p = element(x, c);
          const double orig = *p;
          *p = orig + eps;
          const std::vector<double> plus = evaluate(fn, inputs, {o})[0];
          *p = orig - eps;
          const std::vector<double> minus = evaluate(fn, inputs, {o})[0];
          *p = orig;
          for (int64_t j = 0; j < m; ++j) {
            const double num = (plus[j] - minus[j]) / (2 * eps);
            std::ostringstream where;
            where << "output " << o << " with respect to input " << diff_inputs[i]
                  << ", element (output index " << j << ", input index " << c << ")";
            compare(analytical[i][j * n + c], num, options, max_error, worst, where.str());
          }
        }
      }
    }
    return finish(max_error, worst, options, "Jacobian");
  }

  // Fast mode: v^T J u per (output, input) pair.
  auto random_like = [&](const Tensor& t) {
    Tensor r = empty(t.sizes(), kDouble);
    double* p = r.data_ptr<double>();
    for (int64_t i = 0; i < r.numel(); ++i) p[i] = normal(rng);
    return r;
  };
  std::vector<Tensor> us;
  for (const Tensor& x : diff_tensors) us.push_back(random_like(x));
  for (size_t o : outs) {
    const Tensor v = random_like(outputs[o]).to(outputs[o].dtype());
    const std::vector<double> vv = values_of(v);
    const std::vector<Tensor> g = vjp(o, v);
    for (size_t i = 0; i < diff_tensors.size(); ++i) {
      const Tensor& x = diff_tensors[i];
      const std::vector<double> u = values_of(us[i]);
      std::vector<double> orig(u.size());
      for (size_t c = 0; c < u.size(); ++c) orig[c] = *element(x, static_cast<int64_t>(c));
      auto shift = [&](double s) {
        for (size_t c = 0; c < u.size(); ++c)
          *element(x, static_cast<int64_t>(c)) = orig[c] + s * u[c];
      };
      shift(eps);
      const std::vector<double> plus = evaluate(fn, inputs, {o})[0];
      shift(-eps);
      const std::vector<double> minus = evaluate(fn, inputs, {o})[0];
      shift(0);
      double num = 0, ana = 0;
      for (size_t j = 0; j < vv.size(); ++j) num += vv[j] * (plus[j] - minus[j]) / (2 * eps);
      if (g[i].defined()) {
        const std::vector<double> gi = values_of(g[i]);
        for (size_t c = 0; c < u.size(); ++c) ana += gi[c] * u[c];
      }
      std::ostringstream where;
      where << "output " << o << " with respect to input " << diff_inputs[i]
            << " (fast mode: v^T J u for random u, v)";
      compare(ana, num, options, max_error, worst, where.str());
    }
  }
  return finish(max_error, worst, options, "Jacobian");
}

GradcheckResult gradgradcheck(const GradcheckFn& fn, const std::vector<Tensor>& inputs,
                              const std::vector<Tensor>& grad_outputs,
                              const GradcheckOptions& options) {
  const std::vector<Tensor> outputs = fn(inputs);
  std::vector<size_t> outs;
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (is_differentiable_output(outputs[o]) && outputs[o].requires_grad()) outs.push_back(o);
  }
  std::vector<Tensor> gos = grad_outputs;
  if (gos.empty()) {
    std::mt19937_64 rng(options.seed + 1);
    std::normal_distribution<double> normal;
    for (size_t o : outs) {
      Tensor g = empty(outputs[o].sizes(), kDouble);
      double* p = g.data_ptr<double>();
      for (int64_t i = 0; i < g.numel(); ++i) p[i] = normal(rng);
      gos.push_back(g.requires_grad_());
    }
  }
  TS_CHECK(gos.size() == outs.size(), "gradgradcheck: expected ", outs.size(),
           " grad_outputs (one per differentiable output) but got ", gos.size());
  const size_t n = inputs.size();
  auto first_derivative = [fn, n, outs](const std::vector<Tensor>& all) {
    const std::vector<Tensor> ins(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    const std::vector<Tensor> r = fn(ins);
    std::vector<Tensor> out_list, diff_ins, result;
    for (size_t o : outs) out_list.push_back(r[o]);
    for (const Tensor& t : ins) {
      if (t.defined() && t.requires_grad()) diff_ins.push_back(t);
    }
    const std::vector<Tensor> go(all.begin() + static_cast<std::ptrdiff_t>(n), all.end());
    std::vector<Tensor> g = grad(out_list, diff_ins, go, /*retain_graph=*/true,
                                 /*create_graph=*/true, /*allow_unused=*/true);
    for (size_t i = 0; i < g.size(); ++i) {
      result.push_back(g[i].defined() ? g[i] : zeros(diff_ins[i].sizes(), diff_ins[i].dtype()));
    }
    return result;
  };
  std::vector<Tensor> all = inputs;
  all.insert(all.end(), gos.begin(), gos.end());
  return gradcheck(first_derivative, all, options);
}

}  // namespace ts::autograd
