// meshgrid, einsum and tensordot (issue 16): composites over views, sum, mul, bmm and mm, as
// ATen's (aten/src/ATen/native/TensorShape.cpp, Linear.cpp). Their gradients are those of the
// ops they call.
#include <algorithm>
#include <array>
#include <bitset>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "meta.h"
#include "touchstone/ops.h"

namespace ts {

// ---- meshgrid ----
// Note [meshgrid]
// Tensor i (0-dim or 1-D, n_i elements) viewed with -1 at dim i and 1 elsewhere, expanded to
// [n_0, n_1, ...]: views of the inputs. "xy" swaps the first two inputs and then the first two
// results (Cartesian indexing: the first two grid dims are the second and first inputs').
std::vector<Tensor> meshgrid(ArrayRef<Tensor> tensors, std::string_view indexing) {
  const char* op = "meshgrid";
  const UserOpScope scope(op);
  TS_CHECK(!tensors.empty(), op, ": expects a non-empty TensorList (argument 'tensors')");
  for (size_t i = 0; i < tensors.size(); ++i) meta::check_defined(op, tensors[i], "tensors");
  for (size_t i = 0; i + 1 < tensors.size(); ++i) {
    TS_CHECK(tensors[i].dtype() == tensors[i + 1].dtype(), op,
             ": expects all tensors to have the same dtype (argument 'tensors')");
    TS_CHECK(tensors[i].device() == tensors[i + 1].device(), op,
             ": expects all tensors to have the same device (argument 'tensors')");
  }
  TS_CHECK(indexing == "ij" || indexing == "xy", op,
           ": indexing must be one of \"xy\" or \"ij\", but received: ", indexing,
           " (argument 'indexing')");
  std::vector<Tensor> in(tensors.begin(), tensors.end());
  const bool swap = indexing == "xy" && in.size() >= 2;
  if (swap) std::swap(in[0], in[1]);
  DimVector shape;
  for (size_t i = 0; i < in.size(); ++i) {
    TS_CHECK(in[i].dim() <= 1, op, ": Expected 0D or 1D tensor in the tensor list but got a ",
             in[i].dim(), "-D tensor (argument 'tensors')");
    shape.push_back(in[i].numel());
  }
  std::vector<Tensor> grids;
  DimVector view_shape(in.size(), 1);
  for (size_t i = 0; i < in.size(); ++i) {
    view_shape[i] = -1;
    grids.push_back(in[i].view(view_shape).expand(shape));
    view_shape[i] = 1;
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}

// ---- tensordot ----
// Note [tensordot]
// ATen's composite: a contracted dim of size 1 on one side is summed away on the other first
// (broadcast), then self is permuted to [kept dims, contracted dims] and other to [contracted,
// kept], each reshaped to a matrix, multiplied by mm and reshaped to self's kept sizes followed
// by other's. torch.tensordot's int `dims` contracts self's last dims with other's first.
Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self,
                 IntArrayRef dims_other) {
  const char* op = "tensordot";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, other, "other");
  TS_CHECK(dims_self.size() == dims_other.size(), op,
           ": both dimension lists should have same length (argument 'dims_other')");
  TS_CHECK(self.dtype() == other.dtype(), op, ": both inputs should have same dtype, but got ",
           self.dtype(), " and ", other.dtype(), " (argument 'other')");
  std::bitset<64> c1, c2;  // the contracted dims (ATen's dim_list_to_bitset)
  DimVector d1, d2;
  for (size_t i = 0; i < dims_self.size(); ++i) {
    const int64_t a = wrap_dim(dims_self[i], self.dim(), op);
    const int64_t b = wrap_dim(dims_other[i], other.dim(), op);
    TS_CHECK(!c1[static_cast<size_t>(a)], op, ": dim ", a,
             " appears multiple times in the list of dims (argument 'dims_self')");
    TS_CHECK(!c2[static_cast<size_t>(b)], op, ": dim ", b,
             " appears multiple times in the list of dims (argument 'dims_other')");
    c1.set(static_cast<size_t>(a));
    c2.set(static_cast<size_t>(b));
    d1.push_back(a);
    d2.push_back(b);
  }
  Tensor t1 = self, t2 = other;
  int64_t csize = 1;
  for (size_t i = 0; i < d1.size(); ++i) {
    const int64_t s1 = self.size(d1[i]), s2 = other.size(d2[i]);
    if (s2 == 1) {
      t1 = t1.sum(IntArrayRef{d1[i]}, true, t1.dtype());
    } else if (s1 == 1) {
      t2 = t2.sum(IntArrayRef{d2[i]}, true, t2.dtype());
    } else {
      TS_CHECK(s1 == s2, op, ": contracted dimensions need to match, but first has size ", s1,
               " in dim ", d1[i], " and second has size ", s2, " in dim ", d2[i],
               " (argument 'other')");
      csize *= s1;
    }
  }
  DimVector p1, p2, sizes;
  int64_t size1 = 1, size2 = 1;
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (c1[static_cast<size_t>(i)]) continue;
    p1.push_back(i);
    size1 *= t1.size(i);
    sizes.push_back(t1.size(i));
  }
  for (int64_t d : d1) p1.push_back(d);
  for (int64_t d : d2) p2.push_back(d);
  for (int64_t i = 0; i < other.dim(); ++i) {
    if (c2[static_cast<size_t>(i)]) continue;
    p2.push_back(i);
    size2 *= t2.size(i);
    sizes.push_back(t2.size(i));
  }
  t1 = t1.permute(p1).reshape(DimVector{size1, csize});
  t2 = t2.permute(p2).reshape(DimVector{csize, size2});
  return mm(t1, t2).reshape(sizes);
}

Tensor tensordot(const Tensor& self, const Tensor& other, int64_t dims) {
  const UserOpScope scope("tensordot");
  TS_CHECK(dims >= 0, "tensordot: tensordot expects dims >= 0, but got dims=", dims,
           " (argument 'dims')");
  DimVector a, b;
  for (int64_t i = 0; i < dims; ++i) {
    a.push_back(i - dims);
    b.push_back(i);
  }
  return tensordot(self, other, a, b);
}

// ATen's out= form: the result computed, then checked against `out` (same device, same dtype:
// tensordot does not promote) and copied in.
Tensor& tensordot_out(const Tensor& out, const Tensor& self, const Tensor& other,
                      IntArrayRef dims_self, IntArrayRef dims_other) {
  const char* op = "tensordot";
  const UserOpScope scope(op);
  meta::check_defined(op, out, "out");
  meta::check_out_no_grad(OpId::tensordot, ArrayRef<Tensor>(&out, 1),
                          std::vector<Tensor>{self, other});
  const Tensor result = tensordot(self, other, dims_self, dims_other);
  TS_CHECK(out.device() == self.device() && self.device() == other.device(), op,
           ": Expected the output and input tensors to be on the same device, but got the output ",
           "tensor on ", out.device(), ", input tensor a on ", self.device(),
           ", and input tensor b on ", other.device(), " (argument 'out')");
  TS_CHECK(result.dtype() == out.dtype(), op, ": Expected the output tensor to have dtype ",
           result.dtype(), ", but got an output tensor with dtype ", out.dtype(),
           " (argument 'out')");
  meta::resize_out(out, result.sizes());
  out.copy_(result);
  return const_cast<Tensor&>(out);
}

// ---- einsum ----
namespace {

constexpr int kLabels = 52;         // A-Z are 0-25, a-z 26-51 (ATen's einsum_label_to_index)
constexpr int kEllipsis = kLabels;  // the ellipsis' place among an operand's labels

bool is_label(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
int label_index(unsigned char c) {
  return c <= 'Z' ? c - 'A' : 26 + (c - 'a');
}
char label_char(int i) {
  return static_cast<char>(i < 26 ? 'A' + i : 'a' + (i - 26));
}

// ATen's sumproduct_pair: left * right summed over sum_dims (kept as size 1), the operands
// aligned dim for dim (size 1 broadcasts). Dims of both operands are bmm's batch, dims of one
// its rows or columns, summed dims its inner dim; a summed dim of one operand only is summed
// there first. No summed dims: a broadcast mul.
Tensor sumproduct_pair(Tensor left, Tensor right, const DimVector& sum_dims) {
  if (sum_dims.empty()) return mul(left, right);
  const int64_t n = left.dim();
  std::vector<bool> summed(static_cast<size_t>(n), false);
  for (int64_t d : sum_dims) summed[static_cast<size_t>(d)] = true;
  DimVector lro, lo, ro;
  int64_t lro_size = 1, lo_size = 1, ro_size = 1, sum_size = 1;
  for (int64_t i = 0; i < n; ++i) {
    const bool sl = left.size(i) != 1, sr = right.size(i) != 1;
    if (summed[static_cast<size_t>(i)]) {
      if (sl && sr) {
        TS_CHECK(left.size(i) == right.size(i), "einsum: non-broadcast dimensions must match");
        sum_size *= left.size(i);
      } else if (sl) {
        left = left.sum(IntArrayRef{i}, true);
      } else if (sr) {
        right = right.sum(IntArrayRef{i}, true);
      }
    } else if (sl && sr) {
      TS_CHECK(left.size(i) == right.size(i), "einsum: non-broadcast dimensions must match");
      lro.push_back(i);
      lro_size *= left.size(i);
    } else if (sl) {
      lo.push_back(i);
      lo_size *= left.size(i);
    } else {
      ro.push_back(i);
      ro_size *= right.size(i);
    }
  }
  DimVector out_size, lperm, rperm, operm(static_cast<size_t>(n), -1);
  for (int64_t d : lro) out_size.push_back(left.size(d));
  for (int64_t d : lo) out_size.push_back(left.size(d));
  for (size_t k = 0; k < sum_dims.size(); ++k) out_size.push_back(1);
  for (int64_t d : ro) out_size.push_back(right.size(d));
  const DimVector* const lparts[] = {&lro, &lo, &sum_dims, &ro};
  const DimVector* const rparts[] = {&lro, &sum_dims, &ro, &lo};
  for (const DimVector* part : lparts) {
    for (int64_t d : *part) lperm.push_back(d);
  }
  for (const DimVector* part : rparts) {
    for (int64_t d : *part) rperm.push_back(d);
  }
  int64_t k = 0;
  for (const DimVector* part : lparts) {
    for (int64_t d : *part) operm[static_cast<size_t>(d)] = k++;
  }
  left = left.permute(lperm).reshape(DimVector{lro_size, lo_size, sum_size});
  right = right.permute(rperm).reshape(DimVector{lro_size, sum_size, ro_size});
  return bmm(left, right).view(out_size).permute(operm);
}

}  // namespace

// Note [einsum]
// ATen's einsum, without the contraction `path` (left to right): the equation's labels give
// every operand the same dims, [output dims, contracted dims] (a repeated label in an operand
// takes the diagonal, a missing one is a dim of size 1; '...' stands for the broadcast of the
// operands' ellipsis dims). The implicit output ("ij,jk") is the ellipsis dims, then the labels
// seen once, A-Z before a-z. The operands are then multiplied pairwise left to right
// (sumproduct_pair), each contracted dim summed as soon as no later operand has it; one operand
// alone is summed over its contracted dims (integers: into int64, as sum).
Tensor einsum(std::string_view equation, ArrayRef<Tensor> tensors) {
  const char* op = "einsum";
  const UserOpScope scope(op);
  TS_CHECK(!tensors.empty(), op, ": must provide at least one operand (argument 'tensors')");
  for (const Tensor& t : tensors) meta::check_defined(op, t, "tensors");
  for (size_t i = 1; i < tensors.size(); ++i) {
    TS_CHECK(tensors[i].dtype() == tensors[0].dtype(), op,
             ": expected all operands to have the same dtype, but operand ", i, " is ",
             tensors[i].dtype(), " and operand 0 ", tensors[0].dtype(), " (argument 'tensors')");
  }
  const size_t arrow = equation.find("->");
  const std::string_view lhs = equation.substr(0, arrow);
  const size_t num_ops = tensors.size();
  std::vector<std::vector<int>> op_labels(num_ops);
  {
    bool ell = false;
    size_t cur = 0;
    for (size_t i = 0; i < lhs.size(); ++i) {
      const auto c = static_cast<unsigned char>(lhs[i]);
      if (c == ' ') continue;
      if (c == '.') {
        TS_CHECK(!ell, op, ": found '.' for operand ", cur,
                 " for which an ellipsis was already found (argument 'equation')");
        TS_CHECK(i + 2 < lhs.size() && lhs[++i] == '.' && lhs[++i] == '.', op, ": found '.' for ",
                 "operand ", cur, " that is not part of any ellipsis (argument 'equation')");
        op_labels[cur].push_back(kEllipsis);
        ell = true;
      } else if (c == ',') {
        ++cur;
        TS_CHECK(cur < num_ops, op, ": fewer operands were provided than specified in the ",
                 "equation (argument 'tensors')");
        ell = false;
      } else {
        TS_CHECK(is_label(c), op, ": invalid subscript given at index ", i,
                 " in the equation string, subscripts must be in [a-zA-Z] (argument 'equation')");
        op_labels[cur].push_back(label_index(c));
      }
    }
    TS_CHECK(cur == num_ops - 1, op, ": more operands were provided than specified in the ",
             "equation (argument 'tensors')");
  }
  std::array<int64_t, kLabels> label_count{};
  int64_t ell_num_dim = 0;
  for (size_t i = 0; i < num_ops; ++i) {
    const int64_t ndims = tensors[i].dim();
    int64_t nlabels = static_cast<int64_t>(op_labels[i].size());
    bool has_ell = false;
    for (int l : op_labels[i]) {
      if (l == kEllipsis) {
        --nlabels;
        has_ell = true;
        ell_num_dim = std::max(ell_num_dim, ndims - nlabels);
      } else {
        ++label_count[static_cast<size_t>(l)];
      }
    }
    TS_CHECK(has_ell ? nlabels <= ndims : nlabels == ndims, op,
             ": the number of subscripts in the equation (", nlabels,
             ") does not match the number of dimensions (", ndims, ") for operand ", i,
             has_ell ? "" : " and no ellipsis was given", " (argument 'equation')");
  }
  // Each label's place in the aligned dims: the output's first, then the contracted ones.
  std::array<int64_t, kLabels> perm_of;
  perm_of.fill(-1);
  int64_t perm_index = 0, ell_index = 0;
  bool ell_in_output = false;
  if (arrow == std::string_view::npos) {
    perm_index = ell_num_dim;
    ell_in_output = true;
    for (int l = 0; l < kLabels; ++l) {
      if (label_count[static_cast<size_t>(l)] == 1) perm_of[static_cast<size_t>(l)] = perm_index++;
    }
  } else {
    const std::string_view rhs = equation.substr(arrow + 2);
    for (size_t i = 0; i < rhs.size(); ++i) {
      const auto c = static_cast<unsigned char>(rhs[i]);
      if (c == ' ') continue;
      if (c == '.') {
        TS_CHECK(!ell_in_output, op, ": found '.' for output but an ellipsis (...) was already ",
                 "found (argument 'equation')");
        TS_CHECK(i + 2 < rhs.size() && rhs[++i] == '.' && rhs[++i] == '.', op,
                 ": found '.' for output that is not part of any ellipsis (...) (argument ",
                 "'equation')");
        ell_index = perm_index;
        perm_index += ell_num_dim;
        ell_in_output = true;
        continue;
      }
      TS_CHECK(is_label(c), op, ": invalid subscript given at index ", lhs.size() + 2 + i,
               " in the equation string, subscripts must be in [a-zA-Z] (argument 'equation')");
      const auto l = static_cast<size_t>(label_index(c));
      TS_CHECK(label_count[l] > 0 && perm_of[l] == -1, op, ": output subscript ",
               static_cast<char>(c),
               perm_of[l] > -1 ? " appears more than once in the output"
                               : " does not appear in the equation for any input operand",
               " (argument 'equation')");
      perm_of[l] = perm_index++;
    }
  }
  const int64_t out_num_dim = perm_index;
  if (!ell_in_output) {
    ell_index = perm_index;
    perm_index += ell_num_dim;
  }
  for (size_t l = 0; l < kLabels; ++l) {
    if (label_count[l] > 0 && perm_of[l] == -1) perm_of[l] = perm_index++;
  }
  // Align every operand to the perm_index dims, checking sizes broadcast label by label.
  std::array<int64_t, kLabels> label_size;
  label_size.fill(1);
  DimVector ell_sizes(static_cast<size_t>(ell_num_dim), 1);
  std::vector<int64_t> dim_counts(static_cast<size_t>(perm_index), 0);
  std::deque<Tensor> ops;
  for (size_t i = 0; i < num_ops; ++i) {
    Tensor t = tensors[i];
    DimVector permutation(static_cast<size_t>(perm_index), -1);
    int64_t dim = 0;
    for (int l : op_labels[i]) {
      if (l == kEllipsis) {
        const int64_t ndim = tensors[i].dim() - (static_cast<int64_t>(op_labels[i].size()) - 1);
        for (int64_t j = ell_num_dim - ndim; j < ell_num_dim; ++j) {
          const auto sj = static_cast<size_t>(j);
          if (t.size(dim) != 1) {
            TS_CHECK(ell_sizes[sj] == 1 || ell_sizes[sj] == t.size(dim), op, ": dimension ", dim,
                     " covered by ellipsis in operand ", i, " has size ", t.size(dim),
                     " which does not broadcast with previously seen ellipsis with size ",
                     ell_sizes[sj], " for the respective dimension (argument 'tensors')");
            ell_sizes[sj] = t.size(dim);
            ++dim_counts[static_cast<size_t>(ell_index + j)];
          }
          permutation[static_cast<size_t>(ell_index + j)] = dim++;
        }
        continue;
      }
      const auto sl = static_cast<size_t>(l);
      const auto p = static_cast<size_t>(perm_of[sl]);
      if (permutation[p] == -1) {
        if (t.size(dim) != 1) {
          TS_CHECK(label_size[sl] == 1 || label_size[sl] == t.size(dim), op, ": subscript ",
                   label_char(l), " has size ", t.size(dim), " for operand ", i,
                   " which does not broadcast with previously seen size ", label_size[sl],
                   " (argument 'tensors')");
          label_size[sl] = t.size(dim);
          ++dim_counts[p];
        }
        permutation[p] = dim++;
      } else {  // a repeated label: the diagonal, in the first one's place
        const int64_t prev = permutation[p];
        TS_CHECK(t.size(dim) == t.size(prev), op, ": subscript ", label_char(l),
                 " is repeated for operand ", i, " but the sizes don't match, ", t.size(dim),
                 " != ", t.size(prev), " (argument 'tensors')");
        t = t.diagonal(0, prev, dim).movedim(-1, prev);
      }
    }
    for (int64_t& v : permutation) {
      if (v == -1) {
        t = t.unsqueeze(dim);
        v = dim++;
      }
    }
    ops.push_back(t.permute(permutation));
  }
  // Contract left to right.
  while (ops.size() > 1) {
    Tensor a = ops[0], b = ops[1];
    ops.pop_front();
    ops.pop_front();
    DimVector sum_dims, a_sum, b_sum;
    for (int64_t d = out_num_dim; d < perm_index; ++d) {
      int64_t& count = dim_counts[static_cast<size_t>(d)];
      if (a.size(d) != 1 && b.size(d) != 1) {
        if (--count == 1) {
          sum_dims.push_back(d);
          count = 0;
        }
      } else if (count == 1) {
        if (a.size(d) != 1) {
          a_sum.push_back(d);
          count = 0;
        } else if (b.size(d) != 1) {
          b_sum.push_back(d);
          count = 0;
        }
      }
    }
    if (!a_sum.empty()) a = a.sum(a_sum, true);
    if (!b_sum.empty()) b = b.sum(b_sum, true);
    ops.push_front(sumproduct_pair(a, b, sum_dims));
  }
  if (perm_index > out_num_dim) {
    if (num_ops > 1) {  // every contracted dim is now of size 1
      DimVector sizes(ops[0].sizes());
      sizes.resize(static_cast<size_t>(out_num_dim));
      return ops[0].view(sizes);
    }
    DimVector dims;
    for (int64_t d = out_num_dim; d < perm_index; ++d) dims.push_back(d);
    return ops[0].sum(dims);
  }
  return ops[0];
}

}  // namespace ts
