// Catalog entries of repeat_interleave (the Tensor overload and the self forms), the padding ops
// (constant_pad_nd, reflection_pad, replication_pad, their per-dim forms, _pad_circular and pad in
// every mode), meshgrid, einsum and tensordot (issue 16); family shape (einsum and tensordot
// linalg, for their tolerances). Arguments: pads in args.shape, constant_pad_nd's value in
// args.scalars, the rest per entry below. Benchmark: each op once on a 1024-ish input.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

Tensor ints(std::vector<int64_t> v, Shape shape) {
  return tensor(ArrayRef<int64_t>(v)).view(shape);
}

OpEntry entry(std::string name, std::string family, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), std::move(family), std::move(samples), std::move(run));
}

// ---- repeat_interleave ----

// The Tensor overload: repeats drawn in [0, 4) of the sample's dtype (int32, int64).
OpEntry repeat_interleave_entry() {
  OpEntry e = entry(
      "repeat_interleave", "shape",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const auto& [name, n] : std::vector<std::pair<std::string, int64_t>>{
                 {"one", 1}, {"vec", 7}, {"empty", 0}, {"long", 2053}}) {
          Sample s;
          s.name = name;
          s.inputs = {ctx.input(name, 0, {n}, Range{0, 4})};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs&) { return In{ts::repeat_interleave(in[0])}; });
  // [2, 0, 1, 3] -> [0, 0, 2, 3, 3, 3] (index i, repeats[i] times), by hand.
  for (ScalarType t : {kInt, kLong}) {
    e.known.push_back({t, [t] {
                         return known_answer("known", {ints({2, 0, 1, 3}, {4}).to(t)},
                                             {ints({0, 0, 2, 3, 3, 3}, {6}).to(t)});
                       }});
  }
  return e;
}

// Note [repeat_interleave_self samples]
// inputs {self, repeats (int64, when args.ints[0] is 1)}; args.ints = {Tensor repeats?, the int
// repeats, dim (kNoDim: None)}.
constexpr int64_t kNoDim = -1000;

OpEntry repeat_interleave_self_entry() {
  struct Case {
    std::string name;
    Shape self;
    int64_t dim;
    int64_t count = 2;                   // the int form's repeats
    std::optional<Tensor> repeats = {};  // the Tensor form's
  };
  return entry(
      "repeat_interleave_self", "shape",
      [](const SampleContext& ctx) {
        const std::vector<Case> cases = {
            {"int_flat", {2, 3}, kNoDim, 2},
            {"int_dim0", {2, 3}, 0, 3},
            {"int_dim_neg", {2, 3}, -1, 2},
            {"int_zero", {2, 3}, 1, 0},
            {"int_scalar", {}, kNoDim, 3},
            {"int_empty", {0, 3}, 0, 2},
            {"tensor_dim0", {3, 2}, 0, 0, ints({1, 0, 2}, {3})},
            {"tensor_dim1", {2, 4}, 1, 0, ints({2, 1, 0, 3}, {4})},
            {"tensor_0dim", {2, 3}, 1, 0, ints({2}, {})},
            {"tensor_one", {2, 3}, 0, 0, ints({3}, {1})},
            {"tensor_flat", {2, 2}, kNoDim, 0, ints({1, 2, 0, 1}, {4})},
            {"tensor_big",
             {37, 53},
             1,
             0,
             SampleContext("repeat_interleave_self/repeats", kLong).input("big", 0, {53}, {0, 3})},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.self)};
          if (c.repeats) s.inputs.push_back(*c.repeats);
          s.args.ints = {c.repeats.has_value(), c.count, c.dim};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        const std::optional<int64_t> dim =
            a.ints[2] == kNoDim ? std::nullopt : std::optional<int64_t>(a.ints[2]);
        return In{a.ints[0] ? in[0].repeat_interleave(in[1], dim)
                            : in[0].repeat_interleave(a.ints[1], dim)};
      });
}

// ---- padding ----

struct PadCase {
  std::string name;
  Shape self, pad;
};

std::vector<Sample> pad_samples(const SampleContext& ctx, const std::vector<PadCase>& cases,
                                bool value = false) {
  std::vector<Sample> out;
  for (const PadCase& c : cases) {
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.self)};
    s.args.shape = c.pad;
    if (value) s.args.scalars = {ctx.scalar()};
    out.push_back(std::move(s));
  }
  if (is_floating_type(ctx.dtype())) {
    Sample s;
    s.name = "edge_values";
    s.smooth = false;
    s.inputs = {edge_values(ctx.dtype()).reshape({1, -1})};
    s.args.shape = {2, 3};
    if (value) s.args.scalars = {ctx.scalar()};
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry constant_pad_nd_entry() {
  OpEntry e = entry(
      "constant_pad_nd", "shape",
      [](const SampleContext& ctx) {
        return pad_samples(ctx,
                           {{"last_dim", {3, 4}, {1, 2}},
                            {"two_dims", {2, 3, 4}, {1, 0, 2, 1}},
                            {"all_dims", {2, 3}, {1, 1, 2, 2}},
                            {"crop", {3, 5}, {-1, -2}},
                            {"crop_and_pad", {3, 5}, {2, -1, -1, 1}},
                            {"zero_pad", {2, 3}, {0, 0}},
                            {"no_pad", {2, 3}, {}},
                            {"to_empty", {2, 3}, {-3, 0}},
                            {"empty_in", {0, 3}, {1, 1}},
                            {"pad_empty_dim", {2, 0}, {1, 2}},
                            {"scalar", {}, {}},
                            {"big", {37, 53}, {3, 4, 5, 6}}},
                           true);
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::constant_pad_nd(in[0], a.shape, a.scalars[0])};
      });
  // [[1, 2, 3], [4, 5, 6]] padded by (1, 0) on the last dim and (0, 1) on the first with 7.
  e.known = {{kLong, [] {
                SampleArgs a;
                a.shape = {1, 0, 0, 1};
                a.scalars = {int64_t{7}};
                return known_answer("known", {ints({1, 2, 3, 4, 5, 6}, {2, 3})},
                                    {ints({7, 1, 2, 3, 7, 4, 5, 6, 7, 7, 7, 7}, {3, 4})}, a);
              }}};
  return e;
}

// Valid for both modes (reflect needs each pad below its dim's size).
std::vector<PadCase> kernel_pad_cases(size_t dims) {
  std::vector<PadCase> v;
  if (dims == 0 || dims == 1) {
    v.push_back({"1d", {2, 3, 5}, {2, 3}});
    v.push_back({"1d_unbatched", {3, 5}, {1, 4}});
    v.push_back({"1d_crop", {2, 6}, {-1, 2}});
    v.push_back({"1d_empty_batch", {0, 3, 5}, {1, 1}});
    v.push_back({"1d_long", {2, 2053}, {7, 9}});
  }
  if (dims == 0 || dims == 2) {
    v.push_back({"2d", {2, 2, 4, 5}, {1, 2, 3, 0}});
    v.push_back({"2d_unbatched", {2, 4, 5}, {2, 2, 1, 1}});
    v.push_back({"2d_crop", {1, 2, 5, 6}, {-2, 1, 2, -1}});
    v.push_back({"2d_big", {2, 37, 53}, {5, 6, 7, 8}});
  }
  if (dims == 0 || dims == 3) {
    v.push_back({"3d", {1, 2, 3, 4, 5}, {1, 1, 2, 0, 1, 2}});
    v.push_back({"3d_unbatched", {2, 3, 4, 4}, {1, 2, 1, 2, 2, 1}});
  }
  return v;
}

OpEntry kernel_pad_entry(const char* name, bool reflect, size_t dims) {
  OpEntry e = entry(
      name, "shape",
      [reflect, dims](const SampleContext& ctx) {
        std::vector<Sample> v = pad_samples(ctx, kernel_pad_cases(dims));
        if (!reflect && (dims == 0 || dims == 1)) {
          // Pads beyond the input's size: reflection refuses them.
          for (Sample& s : pad_samples(ctx, {{"1d_wide", {2, 3}, {5, 7}}})) {
            if (s.name != "edge_values") v.push_back(std::move(s));
          }
        }
        if (dims != 0 && dims != 1) {  // the edge-value row is a 1-D padding
          v.erase(std::remove_if(v.begin(), v.end(),
                                 [](const Sample& s) { return s.name == "edge_values"; }),
                  v.end());
        }
        return v;
      },
      [name](const In& in, const SampleArgs& a) {
        const std::string n = name;
        if (n == "reflection_pad") return In{ts::reflection_pad(in[0], a.shape)};
        if (n == "replication_pad") return In{ts::replication_pad(in[0], a.shape)};
        if (n == "reflection_pad1d") return In{ts::reflection_pad1d(in[0], a.shape)};
        if (n == "reflection_pad2d") return In{ts::reflection_pad2d(in[0], a.shape)};
        if (n == "reflection_pad3d") return In{ts::reflection_pad3d(in[0], a.shape)};
        if (n == "replication_pad1d") return In{ts::replication_pad1d(in[0], a.shape)};
        if (n == "replication_pad2d") return In{ts::replication_pad2d(in[0], a.shape)};
        return In{ts::replication_pad3d(in[0], a.shape)};
      });
  if (dims == 0 || dims == 1) {
    // [[0, 1, 2, 3]] padded by (2, 1): reflect [2, 1, 0, 1, 2, 3, 2], replicate [0, 0, 0, 1, 2,
    // 3, 3]; with (-1, 2): reflect [1, 2, 3, 2, 1], replicate [1, 2, 3, 3, 3]. By hand.
    e.known = {{kDouble,
                [reflect] {
                  SampleArgs a;
                  a.shape = {2, 1};
                  const Tensor x = tensor({0., 1., 2., 3.}, kDouble).view({1, 4});
                  return known_answer(
                      "known", {x},
                      {reflect ? tensor({2., 1., 0., 1., 2., 3., 2.}, kDouble).view({1, 7})
                               : tensor({0., 0., 0., 1., 2., 3., 3.}, kDouble).view({1, 7})},
                      a);
                }},
               {kDouble, [reflect] {
                  SampleArgs a;
                  a.shape = {-1, 2};
                  const Tensor x = tensor({0., 1., 2., 3.}, kDouble).view({1, 4});
                  return known_answer(
                      "known_crop", {x},
                      {reflect ? tensor({1., 2., 3., 2., 1.}, kDouble).view({1, 5})
                               : tensor({1., 2., 3., 3., 3.}, kDouble).view({1, 5})},
                      a);
                }}};
  }
  return e;
}

std::vector<PadCase> circular_cases() {
  return {{"1d", {2, 3, 5}, {2, 1}},
          {"1d_unbatched", {3, 5}, {2, 2}},
          {"1d_whole", {2, 3, 4}, {4, 4}},
          {"1d_crop", {2, 3, 6}, {-2, 1}},
          {"2d", {1, 2, 4, 5}, {1, 2, 3, 0}},
          {"2d_crop", {2, 4, 5}, {1, -2, -1, 2}},
          {"3d", {1, 2, 3, 4, 5}, {1, 1, 2, 0, 1, 2}},
          {"empty_batch", {0, 3, 5}, {1, 1}},
          {"big", {2, 37, 53}, {5, 6, 7, 8}}};
}

OpEntry pad_circular_entry() {
  OpEntry e = entry(
      "_pad_circular", "shape",
      [](const SampleContext& ctx) { return pad_samples(ctx, circular_cases()); },
      [](const In& in, const SampleArgs& a) { return In{ts::_pad_circular(in[0], a.shape)}; });
  // [[0, 1, 2, 3]] padded by (2, 1): [2, 3, 0, 1, 2, 3, 0]; cropped by (-1, 2): [1, 2, 3, 1, 2],
  // the wrap of what is left. By hand.
  e.known = {{kLong,
              [] {
                SampleArgs a;
                a.shape = {2, 1};
                return known_answer("known", {ints({0, 1, 2, 3}, {1, 4})},
                                    {ints({2, 3, 0, 1, 2, 3, 0}, {1, 7})}, a);
              }},
             {kLong, [] {
                SampleArgs a;
                a.shape = {-1, 2};
                return known_answer("known_crop", {ints({0, 1, 2, 3}, {1, 4})},
                                    {ints({1, 2, 3, 1, 2}, {1, 5})}, a);
              }}};
  return e;
}

// pad: "pad" is constant mode (args.scalars = {value} when given), "pad.reflect",
// "pad.replicate", "pad.circular" the others.
OpEntry pad_entry(const std::string& mode) {
  const std::string name = mode == "constant" ? "pad" : "pad." + mode;
  OpEntry e = entry(
      name, "shape",
      [mode](const SampleContext& ctx) {
        if (mode == "constant") {
          std::vector<Sample> v = pad_samples(ctx,
                                              {{"value", {2, 3, 4}, {1, 2}},
                                               {"crop", {3, 5}, {-1, 1, 1, -2}},
                                               {"three_dims", {2, 3, 4}, {1, 1, 0, 2, 1, 0}}},
                                              true);
          for (Sample& s : pad_samples(ctx, {{"default_value", {2, 3}, {2, 1}}})) {
            if (s.name != "edge_values") v.push_back(std::move(s));
          }
          return v;
        }
        return pad_samples(ctx, mode == "circular" ? circular_cases() : kernel_pad_cases(0));
      },
      [mode](const In& in, const SampleArgs& a) {
        const std::optional<double> value =
            a.scalars.empty() ? std::nullopt : std::optional<double>(a.scalars[0].to<double>());
        return In{ts::pad(in[0], a.shape, mode, value)};
      });
  e.op = "pad";
  // pad's parts give the paddings' floating dtypes; constant and circular modes take every dtype.
  const bool floating_only = mode == "reflect" || mode == "replicate";
  e.dtypes = floating_only ? DTypeSet::floating() : DTypeSet::all();
  return e;
}

// ---- meshgrid ----
// inputs: the tensors (1-D or 0-dim); args.flag: indexing "xy".
OpEntry meshgrid_entry() {
  OpEntry e = entry(
      "meshgrid", "shape",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          std::vector<Shape> shapes;
          bool xy;
        };
        const std::vector<Case> cases = {{"two_ij", {{3}, {4}}, false},
                                         {"two_xy", {{3}, {4}}, true},
                                         {"three_ij", {{2}, {3}, {4}}, false},
                                         {"three_xy", {{2}, {3}, {4}}, true},
                                         {"one", {{5}}, false},
                                         {"one_xy", {{5}}, true},
                                         {"scalar_vec", {{}, {3}}, false},
                                         {"empty", {{0}, {3}}, true},
                                         {"big", {{37}, {53}}, false}};
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          for (size_t i = 0; i < c.shapes.size(); ++i) {
            s.inputs.push_back(ctx.input(c.name, static_cast<int>(i), c.shapes[i]));
          }
          s.args.flag = c.xy;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) { return ts::meshgrid(in, a.flag ? "xy" : "ij"); });
  // meshgrid([1, 2], [3, 4, 5]), "ij": [[1, 1, 1], [2, 2, 2]] and [[3, 4, 5], [3, 4, 5]].
  e.known = {{kLong, [] {
                return known_answer(
                    "known", {ints({1, 2}, {2}), ints({3, 4, 5}, {3})},
                    {ints({1, 1, 1, 2, 2, 2}, {2, 3}), ints({3, 4, 5, 3, 4, 5}, {2, 3})});
              }}};
  return e;
}

// ---- einsum ----
// args.ints[0]: the equation's index in kEquations; inputs: the operands.
const std::vector<std::string>& equations() {
  static const std::vector<std::string> v = {"ij,jk->ik",
                                             "ij,jk",
                                             "ii",
                                             "ii->i",
                                             "ij->ji",
                                             "ij->",
                                             "i,j->ij",
                                             "bij,bjk->bik",
                                             "...ij,...jk->...ik",
                                             "...ij,...jk",
                                             "ij,jk,kl->il",
                                             "bn,anm,bm->ba",
                                             "ij,ij->i",
                                             "iij,j->i",
                                             "Ab,bc->Ac",
                                             "i j , j k -> i k",
                                             "...ii->...i",
                                             ",->"};
  return v;
}

OpEntry einsum_entry() {
  OpEntry e = entry(
      "einsum", "linalg",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          int eq;
          std::vector<Shape> shapes;
          int64_t summands;
        };
        const std::vector<Case> cases = {
            {"matmul", 0, {{3, 4}, {4, 5}}, 4},
            {"implicit", 1, {{3, 4}, {4, 5}}, 4},
            {"trace", 2, {{4, 4}}, 4},
            {"diagonal", 3, {{4, 4}}, 1},
            {"transpose", 4, {{3, 4}}, 1},
            {"sum_all", 5, {{3, 4}}, 12},
            {"outer", 6, {{3}, {4}}, 1},
            {"batch_matmul", 7, {{2, 3, 4}, {2, 4, 5}}, 4},
            {"ellipsis", 8, {{2, 3, 4}, {4, 5}}, 4},
            {"ellipsis_implicit", 9, {{2, 1, 3, 4}, {5, 4, 2}}, 4},
            {"three", 10, {{2, 3}, {3, 4}, {4, 5}}, 12},
            {"bilinear", 11, {{2, 3}, {4, 3, 5}, {2, 5}}, 15},
            {"broadcast_one", 12, {{3, 1}, {3, 4}}, 4},
            {"repeated", 13, {{3, 3, 4}, {4}}, 4},
            {"upper_case", 14, {{3, 4}, {4, 2}}, 4},
            {"spaces", 15, {{2, 3}, {3, 2}}, 3},
            {"ellipsis_diag", 16, {{2, 3, 3}}, 1},
            {"scalars", 17, {{}, {}}, 1},
            {"empty", 0, {{0, 3}, {3, 2}}, 3},
            {"zero_k", 0, {{2, 0}, {0, 3}}, 1},
            {"big", 7, {{4, 33, 40}, {4, 40, 35}}, 40},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          for (size_t i = 0; i < c.shapes.size(); ++i) {
            s.inputs.push_back(ctx.input(c.name, static_cast<int>(i), c.shapes[i], {-2, 2}));
          }
          s.args.ints = {c.eq};
          s.summands = c.summands;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::einsum(equations()[static_cast<size_t>(a.ints[0])], in)};
      });
  e.accumulates = true;
  // einsum("ij,jk->ik", [[1, 2], [3, 4]], [[5, 6], [7, 8]]) = [[19, 22], [43, 50]]; "ii" of the
  // first, 5. By hand.
  e.known = {
      {kLong,
       [] {
         SampleArgs a;
         a.ints = {0};
         return known_answer("known_matmul",
                             {ints({1, 2, 3, 4}, {2, 2}), ints({5, 6, 7, 8}, {2, 2})},
                             {ints({19, 22, 43, 50}, {2, 2})}, a);
       }},
      {kLong, [] {
         SampleArgs a;
         a.ints = {2};
         return known_answer("known_trace", {ints({1, 2, 3, 4}, {2, 2})}, {ints({5}, {})}, a);
       }}};
  return e;
}

// ---- tensordot ----
// inputs {self, other}; args.ints = {the int dims} when args.dims is empty and args.flag, else
// dims_self = args.dims, dims_other = args.shape.
OpEntry tensordot_entry() {
  struct Case {
    std::string name;
    Shape a, b;
    std::vector<int64_t> da, db;
    int64_t n;  // the int form's dims (-1: the list form)
    int64_t summands;
  };
  const std::vector<Case> cases = {{"int_two", {3, 4, 5}, {4, 5, 6}, {}, {}, 2, 20},
                                   {"int_zero", {2, 3}, {4}, {}, {}, 0, 1},
                                   {"lists", {3, 4}, {4, 3}, {1, 0}, {0, 1}, -1, 12},
                                   {"lists_neg", {2, 3, 4}, {4, 3, 2}, {-1, 1}, {0, 1}, -1, 12},
                                   {"size_one", {3, 1}, {4, 5}, {1}, {0}, -1, 4},
                                   {"empty", {0, 3}, {3, 2}, {1}, {0}, -1, 3},
                                   {"big", {33, 40}, {40, 35}, {1}, {0}, -1, 40}};
  OpEntry e = entry(
      "tensordot", "linalg",
      [cases](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.a, {-2, 2}), ctx.input(c.name, 1, c.b, {-2, 2})};
          s.args.dims = c.da;
          s.args.shape = c.db;
          s.args.ints = {c.n};
          s.summands = c.summands;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{a.ints[0] >= 0 ? ts::tensordot(in[0], in[1], a.ints[0])
                                 : ts::tensordot(in[0], in[1], a.dims, a.shape)};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    DimVector da(a.dims.begin(), a.dims.end()), db(a.shape.begin(), a.shape.end());
    if (a.ints[0] >= 0) {
      da.clear();
      db.clear();
      for (int64_t i = 0; i < a.ints[0]; ++i) {
        da.push_back(i - a.ints[0]);
        db.push_back(i);
      }
    }
    ts::tensordot_out(outs[0], in[0], in[1], da, db);
  };
  e.accumulates = true;
  // tensordot([[1, 2], [3, 4]], [[5, 6], [7, 8]], 1): the matrix product [[19, 22], [43, 50]].
  e.known = {{kLong, [] {
                SampleArgs a;
                a.ints = {1};
                return known_answer("known",
                                    {ints({1, 2, 3, 4}, {2, 2}), ints({5, 6, 7, 8}, {2, 2})},
                                    {ints({19, 22, 43, 50}, {2, 2})}, a);
              }}};
  return e;
}

// ---- benchmark ----

// One case: `call(x)` on a float32 input of `sizes` (the paddings, repeat_interleave_self,
// meshgrid), `bytes` moved.
template <typename Call>
BenchFn one_bench(const char* family, const char* op, DTypeSet dtypes, Shape sizes,
                  std::string layout, std::vector<OpId> ops, double out_factor, Call call) {
  return each_dtype(dtypes, [=](CaseList& list, ScalarType t) {
    Shape s = sizes;
    if (list.quick()) s.back() = std::max<int64_t>(8, s.back() / 4);
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    BenchCase c =
        make_case(family, op, t, shape_str(s), layout, (1 + out_factor) * nbytes(n, t), 0, ops);
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input(s, t, Fill::SmallInt, d);
      return [=] { (void)call(x); };
    };
    list.add(std::move(c));
  });
}

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet f32{kFloat};
  const Shape planes{8, 64, 128, 128};
  const int64_t p1[] = {3, 3}, p2[] = {3, 3, 3, 3}, p3[] = {1, 1, 1, 1, 1, 1};
  // int64 by default (repeats are int32 or int64).
  entry_named(v, "repeat_interleave").bench = [](const OpEntry&, CaseList& list) {
    for (ScalarType t : list.dtypes(DTypeSet{kInt, kLong}, kLong)) {
      const int64_t n = list.numel() / 4;
      BenchCase c = make_case("shape", "repeat_interleave", t, shape_str({n}), "repeats_0_to_7",
                              nbytes(n + 4 * n, t), 0, {OpId::repeat_interleave});
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor r = make_input({n}, t, Range{0, 8}, d);
        return [=] { (void)ts::repeat_interleave(r); };
      };
      list.add(std::move(c));
    }
  };
  entry_named(v, "repeat_interleave_self").bench =
      one_bench("shape", "repeat_interleave_self", f32, {1024, 512}, "int2_dim0", {OpId::copy_}, 2,
                [](const Tensor& x) { return x.repeat_interleave(2, 0); });
  entry_named(v, "constant_pad_nd").bench =
      one_bench("shape", "constant_pad_nd", f32, planes, "pad3_last2", {OpId::fill_, OpId::copy_},
                1.1, [=](const Tensor& x) { return ts::constant_pad_nd(x, p2, 0); });
  const struct {
    const char* name;
    Tensor (*fn)(const Tensor&, IntArrayRef);
    OpId id;
    int dims;
  } kernels[] = {{"reflection_pad", ts::reflection_pad, OpId::reflection_pad, 2},
                 {"replication_pad", ts::replication_pad, OpId::replication_pad, 2},
                 {"reflection_pad1d", ts::reflection_pad1d, OpId::reflection_pad, 1},
                 {"reflection_pad2d", ts::reflection_pad2d, OpId::reflection_pad, 2},
                 {"reflection_pad3d", ts::reflection_pad3d, OpId::reflection_pad, 3},
                 {"replication_pad1d", ts::replication_pad1d, OpId::replication_pad, 1},
                 {"replication_pad2d", ts::replication_pad2d, OpId::replication_pad, 2},
                 {"replication_pad3d", ts::replication_pad3d, OpId::replication_pad, 3}};
  for (const auto& k : kernels) {
    const IntArrayRef pads = k.dims == 1   ? IntArrayRef(p1)
                             : k.dims == 2 ? IntArrayRef(p2)
                                           : IntArrayRef(p3);
    const DimVector pv(pads.begin(), pads.end());
    // The 1-d kernels take 2-D or 3-D inputs: the same elements as (N, C, W).
    const Shape sizes = k.dims == 3   ? Shape{2, 16, 32, 64, 64}
                        : k.dims == 1 ? Shape{8 * 64, 128, 128}
                                      : planes;
    auto fn = k.fn;
    entry_named(v, k.name).bench =
        one_bench("shape", k.name, DTypeSet{kFloat, kDouble}, sizes, "pad_all_sides", {k.id}, 1.1,
                  [fn, pv](const Tensor& x) { return fn(x, pv); });
  }
  entry_named(v, "_pad_circular").bench =
      one_bench("shape", "_pad_circular", f32, planes, "pad3_last2", {OpId::index_select}, 1.1,
                [=](const Tensor& x) { return ts::_pad_circular(x, p2); });
  entry_named(v, "pad").bench =
      one_bench("shape", "pad", f32, planes, "reflect_pad3_last2", {OpId::reflection_pad}, 1.1,
                [=](const Tensor& x) { return ts::pad(x, p2, "reflect"); });
  entry_named(v, "meshgrid").bench = each_dtype(f32, [](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    BenchCase c = make_case("shape", "meshgrid", t, shape_str({s, s}), "ij_then_contiguous",
                            2 * nbytes(s * s, t), 0, {OpId::copy_});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor a = make_input({s}, t, d), b = make_input({s}, t, d);
      const Tensor in[] = {a, b};
      return [=] {
        for (const Tensor& g : ts::meshgrid(in)) (void)g.contiguous();
      };
    };
    list.add(std::move(c));
  });
  entry_named(v, "einsum").bench =
      each_dtype(DTypeSet{kFloat, kDouble}, [](CaseList& list, ScalarType t) {
        const int64_t m = std::max<int64_t>(8, list.side() / 16);
        BenchCase c = make_case("linalg", "einsum", t, shape_str({8, m, m, m}), "bij,bjk->bik",
                                3 * nbytes(8 * m * m, t), 2.0 * 8 * m * m * m, {OpId::bmm});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor a = make_input({8, m, m}, t, d), b = make_input({8, m, m}, t, d);
          const Tensor in[] = {a, b};
          return [=] { (void)ts::einsum("bij,bjk->bik", in); };
        };
        list.add(std::move(c));
      });
  entry_named(v, "tensordot").bench =
      each_dtype(DTypeSet{kFloat, kDouble}, [](CaseList& list, ScalarType t) {
        const int64_t m = std::max<int64_t>(8, list.side() / 4);
        BenchCase c = make_case("linalg", "tensordot", t, shape_str({m, 16, 16, m}), "dims2",
                                nbytes(3 * m * 256, t), 2.0 * m * m * 256, {OpId::mm});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor a = make_input({m, 16, 16}, t, d), b = make_input({16, 16, m}, t, d);
          return [=] { (void)ts::tensordot(a, b, 2); };
        };
        list.add(std::move(c));
      });
}

}  // namespace

std::vector<OpEntry> pad_entries() {
  std::vector<OpEntry> v;
  v.push_back(repeat_interleave_entry());
  v.push_back(repeat_interleave_self_entry());
  v.push_back(constant_pad_nd_entry());
  v.push_back(kernel_pad_entry("reflection_pad", true, 0));
  v.push_back(kernel_pad_entry("replication_pad", false, 0));
  v.push_back(kernel_pad_entry("reflection_pad1d", true, 1));
  v.push_back(kernel_pad_entry("reflection_pad2d", true, 2));
  v.push_back(kernel_pad_entry("reflection_pad3d", true, 3));
  v.push_back(kernel_pad_entry("replication_pad1d", false, 1));
  v.push_back(kernel_pad_entry("replication_pad2d", false, 2));
  v.push_back(kernel_pad_entry("replication_pad3d", false, 3));
  v.push_back(pad_circular_entry());
  for (const char* mode : {"constant", "reflect", "replicate", "circular"}) {
    v.push_back(pad_entry(mode));
  }
  v.push_back(meshgrid_entry());
  v.push_back(einsum_entry());
  v.push_back(tensordot_entry());
  add_bench(v);
  return v;
}

}  // namespace ts::catalog
