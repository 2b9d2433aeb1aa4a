// TensorIterator; see tensor_iterator.h.
#include "touchstone/tensor_iterator.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "ops/geometry.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"
#include "touchstone/promotion.h"

namespace ts {

// Note [TensorIterator]
// build() runs these steps in order:
//  1. overlap checks (an output may not overlap itself or partially overlap an input);
//  2. the iteration shape: the broadcast of every operand (outputs being resized excluded);
//  3. dtypes: the common dtype of the inputs (with the configured promotions); inputs of
//     another dtype are cast into temporaries, and so are outputs when asked to;
//  4. byte strides per operand, 0 on broadcast dims;
//  5. dims reordered so dim 0 has the smallest strides (outputs first, then inputs decide),
//     which makes a permuted input give an equally permuted, dense output;
//  6. outputs allocated (or resized) densely in that order;
//  7. adjacent dims merged when every operand steps through them as one; all-contiguous
//     operands collapse to a single dim.

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& t) {
  TS_INTERNAL_ASSERT(num_inputs_ == 0, "TensorIteratorConfig: add outputs before inputs");
  tensors_.push_back(t);
  ++num_outputs_;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& t) {
  TS_INTERNAL_ASSERT(t.defined(), "TensorIteratorConfig: inputs must be defined");
  tensors_.push_back(t);
  ++num_inputs_;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_static_dtype(ScalarType t) {
  static_dtype_ = t;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_common_dtype(ScalarType t) {
  common_dtype_ = t;
  promote_inputs_ = true;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_static_shape(IntArrayRef shape,
                                                                 IntArrayRef squash_dims) {
  DimVector s(shape);
  for (int64_t d : squash_dims) s[wrap_dim(d, static_cast<int64_t>(s.size()))] = 1;
  static_shape_ = s;
  return *this;
}

TensorIterator TensorIteratorConfig::build() {
  TensorIterator iter;
  iter.build(*this);
  return iter;
}

TensorIterator::TensorIterator(const TensorIterator& o) = default;

TensorIterator TensorIterator::binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(a)
      .add_input(b)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .build();
}

TensorIterator TensorIterator::unary_op(const Tensor& out, const Tensor& a) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(a)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .build();
}

TensorIterator TensorIterator::reduce_op(const Tensor& out, const Tensor& a) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(a)
      .resize_outputs(false)
      .is_reduction(true)
      .build();
}

TensorIterator TensorIterator::reduce_op(const Tensor& out1, const Tensor& out2, const Tensor& a) {
  return TensorIteratorConfig()
      .add_output(out1)
      .add_output(out2)
      .add_input(a)
      .resize_outputs(false)
      .is_reduction(true)
      .build();
}

void TensorIterator::build(TensorIteratorConfig& config) {
  is_reduction_ = config.is_reduction_;
  mark_outputs(config);
  check_overlap(config);
  compute_shape(config);
  compute_types(config);
  compute_strides(config);
  reorder_dimensions();
  allocate_or_resize_outputs();
  coalesce_dimensions();
  compute_data_pointers();
}

void TensorIterator::mark_outputs(const TensorIteratorConfig& config) {
  num_outputs_ = config.num_outputs_;
  for (size_t i = 0; i < config.tensors_.size(); ++i) {
    OperandInfo op;
    op.tensor = config.tensors_[i];
    op.is_output = static_cast<int>(i) < num_outputs_;
    operands_.push_back(op);
  }
  for (int o = 0; o < num_outputs_; ++o) {
    const Tensor& out = operands_[o].tensor;
    if (!out.defined()) continue;
    for (int i = num_outputs_; i < ntensors(); ++i) {
      const Tensor& in = operands_[i].tensor;
      if (out.is_same(in) || (out.data_ptr() == in.data_ptr() && out.sizes() == in.sizes() &&
                              out.strides() == in.strides() && out.dtype() == in.dtype())) {
        operands_[o].is_read_write = true;
      }
    }
  }
}

void TensorIterator::check_overlap(const TensorIteratorConfig& config) {
  if (!config.check_mem_overlap_) return;
  for (int o = 0; o < num_outputs_; ++o) {
    const Tensor& out = operands_[o].tensor;
    if (!out.defined()) continue;
    if (!is_reduction_) meta::check_no_internal_overlap("TensorIterator", out);
    for (int i = num_outputs_; i < ntensors(); ++i) {
      meta::check_no_partial_overlap("TensorIterator", out, operands_[i].tensor);
    }
  }
}

void TensorIterator::compute_shape(const TensorIteratorConfig& config) {
  if (config.static_shape_) {
    shape_ = *config.static_shape_;
    return;
  }
  SmallVector<Tensor, 4> shaped;
  for (const OperandInfo& op : operands_) {
    if (!op.tensor.defined()) continue;
    if (op.is_output && config.resize_outputs_ && !is_reduction_) continue;
    shaped.push_back(op.tensor);
  }
  shape_ = meta::broadcast_shapes("TensorIterator", shaped);
  for (OperandInfo& op : operands_) {
    if (!op.is_output || !op.tensor.defined() || op.tensor.sizes() == IntArrayRef(shape_)) continue;
    if (is_reduction_) continue;  // reduction outputs broadcast over the reduced dims
    TS_CHECK(config.resize_outputs_ && op.tensor.numel() == 0, "TensorIterator: output with shape ",
             op.tensor.sizes(), " doesn't match the broadcast shape ", IntArrayRef(shape_));
    op.will_resize = true;
  }
}

void TensorIterator::compute_types(const TensorIteratorConfig& config) {
  SmallVector<Tensor, 4> inputs;
  for (int i = num_outputs_; i < ntensors(); ++i) inputs.push_back(operands_[i].tensor);
  if (config.static_dtype_) {
    common_dtype_ = *config.static_dtype_;
  } else if (config.common_dtype_) {
    common_dtype_ = *config.common_dtype_;
  } else if (config.promote_inputs_) {
    common_dtype_ = result_type(inputs);
    if (config.int_to_float_ && !is_floating_type(common_dtype_)) common_dtype_ = kDefaultDtype;
  } else if (!inputs.empty()) {
    common_dtype_ = inputs[0].dtype();
    for (const Tensor& t : inputs) {
      if (t.dtype() != common_dtype_) common_dtype_ = ScalarType::Undefined;
    }
  }
  for (OperandInfo& op : operands_) {
    if (op.is_output) {
      if (!op.tensor.defined()) continue;
      if (config.safe_cast_ && common_dtype_ != ScalarType::Undefined) {
        TS_CHECK(can_cast(common_dtype_, op.tensor.dtype()), "result type ", common_dtype_,
                 " can't be cast to the desired output type ", op.tensor.dtype());
      }
      const bool recast = config.cast_outputs_ || config.static_dtype_.has_value();
      if (recast && common_dtype_ != ScalarType::Undefined && op.tensor.dtype() != common_dtype_ &&
          !op.will_resize) {
        op.original = op.tensor;
        op.tensor =
            empty_like(op.original, TensorOptions(common_dtype_).device(op.original.device()));
        if (op.is_read_write) op.tensor.copy_(op.original);
      }
    } else if ((config.promote_inputs_ || config.static_dtype_) &&
               common_dtype_ != ScalarType::Undefined && op.tensor.dtype() != common_dtype_) {
      op.original = op.tensor;
      op.tensor = op.tensor.to(common_dtype_);
    }
  }
}

void TensorIterator::compute_strides(const TensorIteratorConfig& /*config*/) {
  const int64_t n = ndim();
  for (OperandInfo& op : operands_) {
    if (!op.tensor.defined() || op.will_resize) continue;
    const Tensor& t = op.tensor;
    const int64_t offset = n - t.dim();
    const int64_t elsize = static_cast<int64_t>(t.element_size());
    op.stride_bytes = DimVector(static_cast<size_t>(n), 0);
    for (int64_t d = 0; d < t.dim(); ++d) {
      const bool broadcast = t.sizes()[d] == 1 && shape_[offset + d] != 1;
      op.stride_bytes[offset + d] = broadcast ? 0 : t.strides()[d] * elsize;
    }
  }
  // From here on, iteration dims are reversed: dim 0 is the tensors' last (fastest) dim.
  DimVector reversed(static_cast<size_t>(n));
  for (int64_t d = 0; d < n; ++d) reversed[d] = n - 1 - d;
  permute_dimensions(reversed);
  perm_ = reversed;
}

void TensorIterator::permute_dimensions(IntArrayRef perm) {
  auto apply = [&](const DimVector& v) {
    DimVector r(v.size());
    for (size_t i = 0; i < perm.size(); ++i) r[i] = v[perm[i]];
    return r;
  };
  shape_ = apply(shape_);
  for (OperandInfo& op : operands_) {
    if (!op.stride_bytes.empty()) op.stride_bytes = apply(op.stride_bytes);
  }
}

void TensorIterator::reorder_dimensions() {
  const int64_t n = ndim();
  if (n <= 1) return;
  // Negative: dims a, b are in the right order; positive: b should come before a; 0: no opinion.
  auto compare = [&](int64_t a, int64_t b) -> int {
    for (const OperandInfo& op : operands_) {
      if (op.stride_bytes.empty() || op.will_resize) continue;
      const int64_t sa = op.stride_bytes[a], sb = op.stride_bytes[b];
      if (is_reduction_ && op.is_output && (sa == 0) != (sb == 0)) {
        return sb == 0 ? 1 : -1;  // reduced dims (output stride 0) go innermost
      }
      if (sa == 0 || sb == 0) continue;  // a broadcast operand has no opinion
      if (sa != sb) return sa < sb ? -1 : 1;
      if (shape_[a] > shape_[b]) return 1;  // equal strides: the smaller dim goes first
    }
    return 0;
  };
  // Insertion sort that tolerates "no opinion": a dim only moves past dims it must precede.
  DimVector order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (int64_t i = 1; i < n; ++i) {
    int64_t cur = i;
    for (int64_t j = i - 1; j >= 0; --j) {
      const int c = compare(order[j], order[cur]);
      if (c > 0) {
        std::swap(order[j], order[cur]);
        cur = j;
      } else if (c < 0) {
        break;
      }
    }
  }
  bool identity = true;
  for (int64_t i = 0; i < n; ++i) identity &= order[i] == i;
  if (identity) return;
  permute_dimensions(order);
  DimVector new_perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) new_perm[i] = perm_[order[i]];
  perm_ = new_perm;
}

void TensorIterator::allocate_or_resize_outputs() {
  const int64_t n = ndim();
  Device device(kCPU);  // an output made here goes where the first defined operand is
  for (const OperandInfo& op : operands_) {
    if (op.tensor.defined()) {
      device = op.tensor.device();
      break;
    }
  }
  for (OperandInfo& op : operands_) {
    if (!op.is_output || (op.tensor.defined() && !op.will_resize)) continue;
    const ScalarType dtype = op.tensor.defined() ? op.tensor.dtype() : common_dtype_;
    TS_INTERNAL_ASSERT(dtype != ScalarType::Undefined, "TensorIterator: output dtype unknown");
    DimVector sizes(static_cast<size_t>(n));
    for (int64_t d = 0; d < n; ++d) sizes[perm_[d]] = shape_[d];
    const DimVector strides = dense_strides_in_perm_order();
    op.stride_bytes = DimVector(static_cast<size_t>(n), 0);
    for (int64_t d = 0; d < n; ++d) {
      op.stride_bytes[d] = strides[perm_[d]] * static_cast<int64_t>(ts::element_size(dtype));
    }
    if (op.will_resize) {
      op.tensor.resize_(sizes);  // dense storage for `sizes`; the permuted strides fit it too
      op.tensor.impl()->set_geometry(sizes, strides, op.tensor.storage_offset());
    } else {
      op.tensor = empty_strided(sizes, strides, TensorOptions(dtype).device(device));
    }
    op.will_resize = false;
  }
}

DimVector TensorIterator::dense_strides_in_perm_order() const {
  DimVector strides(shape_.size());
  int64_t step = 1;
  for (int64_t d = 0; d < ndim(); ++d) {
    strides[perm_[d]] = step;
    // Not after the last dim: that product is the element count, unused here, and it may not
    // fit int64 for a huge broadcast whose allocation is about to fail (signed overflow is UB).
    if (d + 1 < ndim()) step *= std::max<int64_t>(shape_[d], 1);
  }
  return strides;
}

DimVector TensorIterator::output_strides_like(IntArrayRef shape, TensorList inputs) {
  TensorIterator iter;
  iter.shape_ = DimVector(shape);
  for (const Tensor& t : inputs) {
    if (!t.defined() || t.dim() == 0) continue;
    OperandInfo op;
    op.tensor = t;
    iter.operands_.push_back(op);
  }
  TensorIteratorConfig config;
  iter.compute_strides(config);
  iter.reorder_dimensions();
  return iter.dense_strides_in_perm_order();
}

void TensorIterator::coalesce_dimensions() {
  const int64_t n = ndim();
  if (n <= 1) return;
  auto can_merge = [&](int64_t a, int64_t b) {
    if (shape_[a] == 1 || shape_[b] == 1) return true;
    for (const OperandInfo& op : operands_) {
      if (op.stride_bytes[a] * shape_[a] != op.stride_bytes[b]) return false;
    }
    return true;
  };
  int64_t prev = 0;
  for (int64_t d = 1; d < n; ++d) {
    if (can_merge(prev, d)) {
      if (shape_[prev] == 1) {
        for (OperandInfo& op : operands_) op.stride_bytes[prev] = op.stride_bytes[d];
      }
      shape_[prev] *= shape_[d];
    } else {
      ++prev;
      if (prev != d) {
        shape_[prev] = shape_[d];
        for (OperandInfo& op : operands_) op.stride_bytes[prev] = op.stride_bytes[d];
      }
    }
  }
  shape_.resize(static_cast<size_t>(prev + 1));
  for (OperandInfo& op : operands_) op.stride_bytes.resize(static_cast<size_t>(prev + 1));
  has_coalesced_dimensions_ = true;
  perm_.clear();
}

void TensorIterator::compute_data_pointers() {
  for (OperandInfo& op : operands_) op.data = static_cast<char*>(op.tensor.data_ptr());
}

int64_t TensorIterator::numel() const {
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}

const Tensor& TensorIterator::output(int i) const {
  const OperandInfo& op = operands_[i];
  return op.original.defined() ? op.original : op.tensor;
}

bool TensorIterator::is_contiguous() const {
  if (numel() == 1) return true;
  if (ndim() != 1) return false;
  for (const OperandInfo& op : operands_) {
    if (op.stride_bytes[0] != static_cast<int64_t>(op.tensor.element_size())) return false;
  }
  return true;
}

bool TensorIterator::is_scalar(int arg) const {
  for (int64_t d = 0; d < ndim(); ++d) {
    if (shape_[d] != 1 && operands_[arg].stride_bytes[d] != 0) return false;
  }
  return true;
}

bool TensorIterator::is_dim_reduced(int dim) const {
  for (int o = 0; o < num_outputs_; ++o) {
    if (operands_[o].stride_bytes[dim] == 0 && shape_[dim] > 1) return true;
  }
  return false;
}

void TensorIterator::serial_for_each(loop2d_t loop, Range range) const {
  if (range.size() <= 0) return;
  const int nt = ntensors();
  SmallVector<char*, 8> ptrs(static_cast<size_t>(nt));
  SmallVector<int64_t, 16> strides(static_cast<size_t>(2 * nt), 0);
  for (int i = 0; i < nt; ++i) {
    if (ndim() >= 1) strides[i] = operands_[i].stride_bytes[0];
    if (ndim() >= 2) strides[nt + i] = operands_[i].stride_bytes[1];
  }
  if (ndim() <= 1) {
    for (int i = 0; i < nt; ++i) ptrs[i] = operands_[i].data + range.begin * strides[i];
    loop(ptrs.data(), strides.data(), range.size(), 1);
    return;
  }
  // A counter over the iteration dims, started at range.begin.
  DimVector idx(static_cast<size_t>(ndim()), 0);
  int64_t rem = range.begin;
  for (int64_t d = 0; d < ndim(); ++d) {
    idx[d] = rem % shape_[d];
    rem /= shape_[d];
  }
  int64_t offset = range.begin;
  while (offset < range.end) {
    for (int i = 0; i < nt; ++i) {
      char* p = operands_[i].data;
      for (int64_t d = 0; d < ndim(); ++d) p += idx[d] * operands_[i].stride_bytes[d];
      ptrs[i] = p;
    }
    const int64_t left = range.end - offset;
    int64_t size0 = std::min(shape_[0] - idx[0], left);
    int64_t size1 = 1;
    if (idx[0] == 0 && size0 == shape_[0]) size1 = std::min(shape_[1] - idx[1], left / shape_[0]);
    loop(ptrs.data(), strides.data(), size0, size1);
    offset += size0 * size1;
    idx[0] += size0;
    int64_t carry = 0;
    if (idx[0] == shape_[0]) {
      idx[0] = 0;
      carry = size1;
    }
    for (int64_t d = 1; d < ndim() && carry; ++d) {
      idx[d] += carry;
      carry = idx[d] / shape_[d];
      idx[d] %= shape_[d];
    }
  }
}

void TensorIterator::for_each(loop2d_t loop, int64_t grain_size) const {
  const int64_t n = numel();
  if (n == 0) return;
  if (n < grain_size || get_num_threads() == 1 || in_parallel_region()) {
    serial_for_each(loop, {0, n});
    return;
  }
  parallel_for(0, n, grain_size, [&](int64_t b, int64_t e) { serial_for_each(loop, {b, e}); });
}

void TensorIterator::cast_outputs() const {
  for (const OperandInfo& op : operands_) {
    if (op.is_output && op.original.defined()) op.original.copy_(op.tensor);
  }
}

bool TensorIterator::can_use_32bit_indexing() const {
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  if (numel() > kMax) return false;
  for (const OperandInfo& op : operands_) {
    int64_t max_offset = 1;
    for (int64_t d = 0; d < ndim(); ++d)
      max_offset += (shape_[d] - 1) * std::abs(op.stride_bytes[d]);
    if (max_offset > kMax) return false;
  }
  return true;
}

int TensorIterator::get_dim_to_split() const {
  // The dim with the largest byte span; among all-broadcast dims, the longest.
  int best = -1;
  std::pair<int64_t, int64_t> best_key{-1, -1};
  for (int64_t d = 0; d < ndim(); ++d) {
    if (shape_[d] < 2) continue;
    int64_t span = 0;
    for (const OperandInfo& op : operands_) {
      span = std::max(span, (shape_[d] - 1) * std::abs(op.stride_bytes[d]));
    }
    const std::pair<int64_t, int64_t> key{span, shape_[d]};
    if (key > best_key) {
      best_key = key;
      best = static_cast<int>(d);
    }
  }
  TS_INTERNAL_ASSERT(best >= 0, "TensorIterator: nothing to split");
  return best;
}

std::unique_ptr<TensorIterator> TensorIterator::split(int dim) {
  TS_INTERNAL_ASSERT(dim >= 0 && dim < ndim() && shape_[dim] >= 2);
  auto first = std::make_unique<TensorIterator>(*this);
  const bool reduced = is_dim_reduced(dim);
  const int64_t half = shape_[dim] / 2;
  first->narrow(dim, 0, half);
  first->final_output_ &= !reduced;
  narrow(dim, half, shape_[dim] - half);
  accumulate_ |= reduced;
  return first;
}

void TensorIterator::narrow(int dim, int64_t start, int64_t size) {
  TS_INTERNAL_ASSERT(dim < ndim() && start >= 0 && start + size <= shape_[dim]);
  shape_[dim] = size;
  for (OperandInfo& op : operands_) op.data += start * op.stride_bytes[dim];
}

TensorIterator::SplitUntil32Bit::iterator::iterator(const TensorIterator& iter) {
  stack_.push_back(std::make_unique<TensorIterator>(iter));
  stack_.push_back(nullptr);
  ++*this;
}

TensorIterator::SplitUntil32Bit::iterator& TensorIterator::SplitUntil32Bit::iterator::operator++() {
  stack_.pop_back();
  while (!stack_.empty() && !stack_.back()->can_use_32bit_indexing()) {
    TensorIterator& top = *stack_.back();
    stack_.push_back(top.split(top.get_dim_to_split()));
  }
  return *this;
}

}  // namespace ts
