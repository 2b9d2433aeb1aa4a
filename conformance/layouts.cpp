// Layout variants with the same values as a contiguous sample (see Note [Layout variants]).
#include "conformance/layouts.h"

#include <functional>

#include "touchstone/dispatch.h"
#include "touchstone/ops.h"

namespace ts::conformance {
namespace {

// A copy of t whose memory is t.permute(perm) made contiguous, viewed back in t's shape.
Tensor with_permuted_memory(const Tensor& t, const std::vector<int64_t>& perm) {
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = int64_t(i);
  return t.permute(perm).contiguous().permute(inverse);
}

}  // namespace

Tensor transposed(const Tensor& t) {
  if (t.dim() < 2) return t;
  KernelSetGuard g("reference");
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < t.dim(); ++d) perm.push_back(d);
  std::swap(perm.front(), perm.back());
  return with_permuted_memory(t, perm);
}

Tensor permuted(const Tensor& t) {
  if (t.dim() < 3) return t;
  KernelSetGuard g("reference");
  std::vector<int64_t> perm;
  for (int64_t d = t.dim() - 1; d >= 0; --d) perm.push_back(d);
  return with_permuted_memory(t, perm);
}

Tensor sliced_step2(const Tensor& t) {
  if (t.dim() < 1) return t;
  KernelSetGuard g("reference");
  std::vector<int64_t> wide(t.sizes().begin(), t.sizes().end());
  wide.back() *= 2;
  const Tensor big = full(wide, 0, t.dtype());
  const Tensor view = big.slice(-1, 0, std::nullopt, 2);
  view.copy_(t);
  return view;
}

Tensor offset(const Tensor& t) {
  KernelSetGuard g("reference");
  const Tensor big = zeros({t.numel() + 3}, t.dtype());
  const Tensor view = big.narrow(0, 3, t.numel()).view(t.sizes());
  view.copy_(t);
  return view;
}

namespace {

// The slice 2/3 of the way along dim d, broadcast over d: not the first, which holds the edge
// values' NaN (a NaN operand makes a binary op's output all NaN, a case that proves little).
Tensor expand_slice(const Tensor& t, int64_t d) {
  KernelSetGuard g("reference");
  return t.narrow(d, t.size(d) * 2 / 3, 1).clone().expand(t.sizes());
}

}  // namespace

Tensor expanded(const Tensor& t, const std::vector<int64_t>& reduced_dims) {
  for (int64_t r : reduced_dims) {
    const int64_t d = r < 0 ? r + t.dim() : r;
    if (d >= 0 && d < t.dim() && t.size(d) > 1) return expand_slice(t, d);
  }
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) > 1) return expand_slice(t, d);
  }
  return t;
}

namespace {

using Transform = std::pair<std::string, std::function<Tensor(const Tensor&)>>;
const std::vector<Transform>& transforms() {
  static const std::vector<Transform> all = {
      {"transposed", transposed},
      {"permuted", permuted},
      {"sliced_step2", sliced_step2},
      {"offset", offset},
      {"expanded", [](const Tensor& t) { return expanded(t); }}};
  return all;
}

}  // namespace

Tensor relayout(const std::string& layout, const Tensor& t,
                const std::vector<int64_t>& reduced_dims) {
  KernelSetGuard g("reference");
  const Tensor fresh = t.clone();
  if (layout == "expanded") return expanded(fresh, reduced_dims);
  for (const auto& [name, fn] : transforms()) {
    if (name == layout) return fn(fresh);
  }
  TS_CHECK(layout == "contiguous", "relayout: unknown layout ", layout);
  return fresh;
}

std::vector<LayoutVariant> input_layouts(const std::vector<Tensor>& inputs,
                                         const std::vector<int64_t>& reduced_dims) {
  std::vector<LayoutVariant> out{{"contiguous", inputs, true}};
  for (const auto& [name, fn] : transforms()) {
    LayoutVariant v{name, {}, name != "expanded"};
    bool changed = false;
    for (const Tensor& t : inputs) {
      // expanded: only the first input it fits, so that the others still vary the output.
      const bool skip = name == "expanded" && changed;
      v.inputs.push_back(skip ? t : name == "expanded" ? expanded(t, reduced_dims) : fn(t));
      changed = changed || !v.inputs.back().is_same(t);
    }
    if (changed) out.push_back(std::move(v));
  }
  return out;
}

std::vector<OutLayout> out_layouts(const std::vector<Tensor>& like) {
  KernelSetGuard g("reference");
  std::vector<OutLayout> out(3);
  out[0].name = "out_resized";
  out[1].name = "out_transposed";
  out[2].name = "out_offset";
  bool any_transposed = false;
  for (const Tensor& t : like) {
    out[0].outs.push_back(empty({0}, t.dtype()));
    const Tensor tt = transposed(full(t.sizes(), 0, t.dtype()));
    any_transposed = any_transposed || !tt.is_contiguous();
    out[1].outs.push_back(tt);
    out[2].outs.push_back(offset(full(t.sizes(), 0, t.dtype())));
  }
  if (!any_transposed) out.erase(out.begin() + 1);
  return out;
}

const std::vector<std::string>& layout_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v{"contiguous"};
    for (const auto& t : transforms()) v.push_back(t.first);
    for (const char* o : {"out_resized", "out_transposed", "out_offset"}) v.emplace_back(o);
    return v;
  }();
  return names;
}

}  // namespace ts::conformance
