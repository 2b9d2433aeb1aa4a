#pragma once
// TensorIterator: broadcasting, dtype promotion, output allocation in the inputs' layout, and
// dimension coalescing for elementwise and reduction loops. Shared by the optimized CPU kernels
// and the CUDA kernels. See Note [TensorIterator] in tensor_iterator.cpp.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "touchstone/function_ref.h"
#include "touchstone/tensor.h"

namespace ts {

struct OperandInfo {
  Tensor tensor;           // what the loop reads or writes (may be a temporary in common dtype)
  Tensor original;         // the caller's tensor when `tensor` is a temporary, else undefined
  DimVector stride_bytes;  // in iteration order: dim 0 moves fastest; 0 for broadcast dims
  char* data = nullptr;
  bool is_output = false;
  bool will_resize = false;
  bool is_read_write = false;  // an output that is also an input (in-place)
};

class TensorIterator;

class TensorIteratorConfig {
 public:
  // Outputs first, then inputs. An undefined output is allocated by build().
  TensorIteratorConfig& add_output(const Tensor& t);
  TensorIteratorConfig& add_input(const Tensor& t);
  TensorIteratorConfig& check_mem_overlap(bool v) { return set(check_mem_overlap_, v); }
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v) { return set(promote_inputs_, v); }
  TensorIteratorConfig& cast_common_dtype_to_outputs(bool v) { return set(cast_outputs_, v); }
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v) { return set(int_to_float_, v); }
  TensorIteratorConfig& enforce_safe_casting_to_output(bool v) { return set(safe_cast_, v); }
  TensorIteratorConfig& resize_outputs(bool v) { return set(resize_outputs_, v); }
  TensorIteratorConfig& is_reduction(bool v) { return set(is_reduction_, v); }
  // Every operand (outputs included) has this dtype; no promotion is computed.
  TensorIteratorConfig& declare_static_dtype(ScalarType t);
  // The inputs' common dtype, already decided (by an op's meta): inputs are cast to it, outputs
  // too when cast_common_dtype_to_outputs is set.
  TensorIteratorConfig& declare_common_dtype(ScalarType t);
  // Iterate over `shape`, with the dims in `squash_dims` set to 1 (the kernel walks them itself).
  TensorIteratorConfig& declare_static_shape(IntArrayRef shape, IntArrayRef squash_dims = {});
  TensorIterator build();

 private:
  friend class TensorIterator;
  TensorIteratorConfig& set(bool& field, bool v) {
    field = v;
    return *this;
  }
  SmallVector<Tensor, 4> tensors_;
  int num_outputs_ = 0;
  int num_inputs_ = 0;
  bool check_mem_overlap_ = true;
  bool promote_inputs_ = false;
  bool cast_outputs_ = false;
  bool int_to_float_ = false;
  bool safe_cast_ = false;
  bool resize_outputs_ = true;
  bool is_reduction_ = false;
  std::optional<ScalarType> static_dtype_;
  std::optional<ScalarType> common_dtype_;
  std::optional<DimVector> static_shape_;
};

struct Range {
  int64_t begin;
  int64_t end;
  int64_t size() const { return end - begin; }
};

class TensorIterator {
 public:
  // The 2-D loop: data[ntensors] pointers, strides = [inner strides..., outer strides...] in
  // bytes; run size0 inner steps, size1 times.
  using loop2d_t =
      FunctionRef<void(char** data, const int64_t* strides, int64_t size0, int64_t size1)>;

  static TensorIterator binary_op(const Tensor& out, const Tensor& a, const Tensor& b);
  static TensorIterator unary_op(const Tensor& out, const Tensor& a);
  // A reduction: `out` already has the keepdim shape (size 1 in reduced dims).
  static TensorIterator reduce_op(const Tensor& out, const Tensor& a);
  static TensorIterator reduce_op(const Tensor& out1, const Tensor& out2, const Tensor& a);

  // Dense strides (in elements) for a new tensor of `shape` laid out like `inputs`, by the same
  // rule build() uses for outputs; meta functions allocate functional outputs with it.
  static DimVector output_strides_like(IntArrayRef shape, TensorList inputs);

  int64_t ndim() const { return static_cast<int64_t>(shape_.size()); }
  IntArrayRef shape() const { return shape_; }
  int64_t numel() const;
  int ntensors() const { return static_cast<int>(operands_.size()); }
  int noutputs() const { return num_outputs_; }
  int ninputs() const { return ntensors() - num_outputs_; }
  const Tensor& tensor(int arg) const { return operands_[arg].tensor; }
  // The caller's output tensor (not a casting temporary).
  const Tensor& output(int i = 0) const;
  const Tensor& input(int i = 0) const { return operands_[num_outputs_ + i].tensor; }
  ScalarType dtype(int arg = 0) const { return operands_[arg].tensor.dtype(); }
  ScalarType input_dtype(int i = 0) const { return input(i).dtype(); }
  ScalarType common_dtype() const { return common_dtype_; }
  IntArrayRef strides(int arg) const { return operands_[arg].stride_bytes; }
  char* data_ptr(int arg) const { return operands_[arg].data; }
  size_t element_size(int arg) const { return ts::element_size(dtype(arg)); }
  // Every operand contiguous over one dim (after coalescing).
  bool is_contiguous() const;
  // Operand `arg` is a single value (every stride 0).
  bool is_scalar(int arg) const;
  // A dim where some output has stride 0 while the dim is > 1 (reduced).
  bool is_dim_reduced(int dim) const;
  // Permutation from iteration dims to the tensors' dims (before coalescing; empty after).
  IntArrayRef permutation() const { return perm_; }
  bool has_coalesced_dimensions() const { return has_coalesced_dimensions_; }

  // Runs `loop` over every element, in parallel above `grain_size` elements.
  void for_each(loop2d_t loop, int64_t grain_size = 32768) const;
  // Runs `loop` over the linear element range, serially.
  void serial_for_each(loop2d_t loop, Range range) const;
  // After the loop: copy casting temporaries back into the caller's outputs.
  void cast_outputs() const;

  // Note [32-bit indexing]
  // A piece is 32-bit indexable when it has at most INT32_MAX elements and every operand's
  // largest byte offset fits in int32. with_32bit_indexing() splits the iterator (halving the
  // dim with the largest byte span) until every piece fits; splitting a reduced dim marks the
  // second half "accumulate" and the first "not final".
  bool can_use_32bit_indexing() const;
  int get_dim_to_split() const;
  std::unique_ptr<TensorIterator> split(int dim);
  bool should_accumulate() const { return accumulate_; }
  bool is_final_output() const { return final_output_; }
  // Restricts iteration dim `dim` to [start, start + size).
  void narrow(int dim, int64_t start, int64_t size);

  class SplitUntil32Bit {
   public:
    class iterator {
     public:
      iterator() = default;
      explicit iterator(const TensorIterator& iter);
      TensorIterator& operator*() const { return *stack_.back(); }
      iterator& operator++();
      bool operator==(const iterator& o) const { return stack_.empty() && o.stack_.empty(); }
      bool operator!=(const iterator& o) const { return !(*this == o); }

     private:
      std::vector<std::unique_ptr<TensorIterator>> stack_;
    };
    explicit SplitUntil32Bit(const TensorIterator& iter) : iter_(iter) {}
    iterator begin() const { return iterator(iter_); }
    iterator end() const { return iterator(); }

   private:
    const TensorIterator& iter_;
  };
  SplitUntil32Bit with_32bit_indexing() const { return SplitUntil32Bit(*this); }

  TensorIterator(const TensorIterator& o);
  TensorIterator(TensorIterator&&) = default;

 private:
  TensorIterator() = default;
  friend class TensorIteratorConfig;
  void build(TensorIteratorConfig& config);
  void mark_outputs(const TensorIteratorConfig& config);
  void check_overlap(const TensorIteratorConfig& config);
  void compute_shape(const TensorIteratorConfig& config);
  void compute_types(const TensorIteratorConfig& config);
  void compute_strides(const TensorIteratorConfig& config);
  void reorder_dimensions();
  void allocate_or_resize_outputs();
  void coalesce_dimensions();
  void compute_data_pointers();
  // Element strides, in the tensors' dim order, of a dense tensor laid out in perm_ order.
  DimVector dense_strides_in_perm_order() const;
  void permute_dimensions(IntArrayRef perm);

  SmallVector<OperandInfo, 4> operands_;
  DimVector shape_;
  DimVector perm_;
  int num_outputs_ = 0;
  ScalarType common_dtype_ = ScalarType::Undefined;
  bool is_reduction_ = false;
  bool has_coalesced_dimensions_ = false;
  bool accumulate_ = false;
  bool final_output_ = true;
};

}  // namespace ts
