// where, lerp, addcmul and masked_fill. Inputs are written and results read through typed
// pointers (no other touchstone op involved); expected values are hand-computed or come from
// PyTorch's documentation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::ScalarType;
using ts::Tensor;
using V = std::vector<double>;

// ---- where ----

TEST(Where, PyTorchDocExample) {
  // x = [[-0.4620, 0.3139], [0.3898, -0.7197], [0.0478, -0.1657]], y = ones(3, 2).
  Tensor x = make(ts::kFloat, {-0.4620, 0.3139, 0.3898, -0.7197, 0.0478, -0.1657}, {3, 2});
  Tensor y = make(ts::kFloat, V(6, 1), {3, 2});
  Tensor positive = make(ts::kBool, {0, 1, 1, 0, 1, 0}, {3, 2});  // x > 0
  Tensor r = ts::where(positive, x, y);
  EXPECT_EQ(r.dtype(), ts::kFloat);
  EXPECT_EQ(shape_of(r), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values(r), (V{1, get(x, 1), get(x, 2), 1, get(x, 4), 1}));
  // torch.where(x > 0, 1.0, 0.0) is float32 (the default dtype) through the scalar overloads.
  Tensor ones_zeros = ts::where(positive, 1.0, make(ts::kFloat, {0}, {}));
  EXPECT_EQ(ones_zeros.dtype(), ts::kFloat);
  EXPECT_EQ(values(ones_zeros), (V{0, 1, 1, 0, 1, 0}));
  // x double: torch.where(x > 0, x, 0.) stays float64.
  Tensor xd = make(ts::kDouble, {1.0779, 0.0383, -0.8785, -1.1089}, {2, 2});
  Tensor rd = ts::where(make(ts::kBool, {1, 1, 0, 0}, {2, 2}), xd, 0.);
  EXPECT_EQ(rd.dtype(), ts::kDouble);
  EXPECT_EQ(values(rd), (V{1.0779, 0.0383, 0, 0}));
}

TEST(Where, ResultTypeOfSelfAndOther) {
  Tensor c = make(ts::kBool, {1, 0});
  Tensor r = ts::where(c, make(ts::kInt, {1, 2}), make(ts::kFloat, {0.5, 1.5}));
  EXPECT_EQ(r.dtype(), ts::kFloat);
  EXPECT_EQ(values(r), (V{1, 1.5}));
  // A Python-number operand only changes the category: int stays int32, float gives float32.
  EXPECT_EQ(ts::where(c, make(ts::kInt, {1, 2}), 7).dtype(), ts::kInt);
  Tensor f = ts::where(c, make(ts::kLong, {1, 2}), 2.5);
  EXPECT_EQ(f.dtype(), ts::kFloat);
  EXPECT_EQ(values(f), (V{1, 2.5}));
  EXPECT_EQ(ts::where(c, 1.5, make(ts::kDouble, {3, 4})).dtype(), ts::kDouble);
  Tensor mixed = ts::where(c, make(ts::kByte, {200, 201}), make(ts::kChar, {-1, -2}));
  EXPECT_EQ(mixed.dtype(), ts::kShort);
  EXPECT_EQ(values(mixed), (V{200, -2}));
  Tensor reduced = ts::where(c, make(ts::kHalf, {0.5, 1}), make(ts::kBFloat16, {3, 4}));
  EXPECT_EQ(reduced.dtype(), ts::kFloat);
  EXPECT_EQ(values(reduced), (V{0.5, 4}));
  Tensor b = ts::where(c, make(ts::kBool, {0, 0}), make(ts::kBool, {1, 1}));
  EXPECT_EQ(b.dtype(), ts::kBool);
  EXPECT_EQ(values(b), (V{0, 1}));
  // A 0-dim float tensor beats an integer tensor with dims; its own dtype is kept.
  EXPECT_EQ(ts::where(c, make(ts::kInt, {1, 2}), make(ts::kDouble, {0}, {})).dtype(), ts::kDouble);
}

TEST(Where, ConvertsTheChosenElementOnce) {
  // int64 2^53 + 1 into the float64 result ties to even: 2^53.
  Tensor big = ts::empty({1}, ts::kLong);
  big.data_ptr<int64_t>()[0] = (int64_t{1} << 53) + 1;
  Tensor r = ts::where(make(ts::kBool, {1}), big, make(ts::kDouble, {0}));
  EXPECT_EQ(get(r), 9007199254740992.0);
  Tensor h = ts::where(make(ts::kBool, {0}), make(ts::kHalf, {0}), make(ts::kFloat, {65520}));
  EXPECT_EQ(get(h), 65520);  // float32 result: no overflow
}

TEST(Where, EveryDtype) {
  Tensor c = make(ts::kBool, {1, 0, 1});
  for (ScalarType t : kAll) {
    Tensor r = ts::where(c, make(t, {1, 1, 1}), make(t, {0, 0, 0}));
    EXPECT_EQ(r.dtype(), t);
    EXPECT_EQ(values(r), (V{1, 0, 1})) << t;
  }
}

TEST(Where, BroadcastsAllThree) {
  Tensor c = make(ts::kBool, {1, 0}, {2, 1});
  Tensor r = ts::where(c, make(ts::kFloat, {1, 2, 3}), make(ts::kFloat, {-1}, {}));
  EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(r), (V{1, 2, 3, -1, -1, -1}));
  // The condition alone may set the shape.
  Tensor r2 = ts::where(make(ts::kBool, {0, 1, 0}), 5, make(ts::kLong, {9}, {}));
  EXPECT_EQ(shape_of(r2), (std::vector<int64_t>{3}));
  EXPECT_EQ(values(r2), (V{9, 5, 9}));
}

TEST(Where, NonContiguousInputs) {
  // condition: every other element; self: a transpose; other: expanded.
  Tensor cbuf = make(ts::kBool, {1, 1, 0, 1, 0, 0, 1, 0}, {8});
  Tensor c = ts::make_view(cbuf, {2, 2}, {4, 2}, 0);  // [[1, 0], [0, 1]]
  Tensor base = make(ts::kDouble, {1, 2, 3, 4}, {2, 2});
  Tensor self = ts::make_view(base, {2, 2}, {1, 2}, 0);  // [[1, 3], [2, 4]]
  Tensor other = make(ts::kDouble, {-5, -6}).expand({2, 2});
  EXPECT_EQ(values(ts::where(c, self, other)), (V{1, -6, -5, 4}));
  EXPECT_EQ(values(self.where(c, other)), (V{1, -6, -5, 4}));
}

TEST(Where, ThroughViewOps) {
  Tensor m = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor c = make(ts::kBool, {1, 0, 1, 1, 0, 0}, {6}).slice(0, 0, 6, 2);  // [1, 1, 0]
  // m.t() is [[1, 4], [2, 5], [3, 6]]; the condition picks rows.
  Tensor r = ts::where(c.unsqueeze(1), m.t(), make(ts::kFloat, {0}, {}));
  EXPECT_EQ(values(r), (V{1, 4, 2, 5, 0, 0}));
  EXPECT_EQ(values(ts::lerp(m.t(), m.t().slice(0, 0, 3, 1), 0.5)), (V{1, 4, 2, 5, 3, 6}));
}

TEST(Where, ZeroDimAndEmpty) {
  Tensor r = ts::where(make(ts::kBool, {0}, {}), make(ts::kInt, {3}, {}), make(ts::kInt, {4}, {}));
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(get(r), 4);
  Tensor e = ts::where(ts::empty({0, 2}, ts::kBool), make(ts::kFloat, {1, 2}), 0.0);
  EXPECT_EQ(shape_of(e), (std::vector<int64_t>{0, 2}));
}

TEST(Where, Out) {
  Tensor out = ts::empty({3}, ts::kFloat);
  Tensor& r = ts::where_out(out, make(ts::kBool, {1, 0, 1}), make(ts::kFloat, {1, 2, 3}),
                            make(ts::kFloat, {0}, {}));
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(values(out), (V{1, 0, 3}));
  Tensor empty_out = ts::empty({0}, ts::kLong);
  ts::where_out(empty_out, make(ts::kBool, {0, 1}, {2, 1}), make(ts::kLong, {1, 2}),
                make(ts::kLong, {7, 8}));
  EXPECT_EQ(shape_of(empty_out), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(empty_out), (V{7, 8, 1, 2}));
}

// Note [where with a uint8 condition]: ATen (1.13 and current) takes a uint8 condition as
// condition != 0: where([2, 0, 1] u8, [1, 2, 3], [7, 8, 9]) = [1, 8, 3].
TEST(Where, Uint8ConditionIsNonZero) {
  Tensor r = ts::where(make(ts::kByte, {2, 0, 1}), make(ts::kFloat, {1, 2, 3}),
                       make(ts::kFloat, {7, 8, 9}));
  EXPECT_EQ(r.dtype(), ts::kFloat);
  EXPECT_EQ(values(r), (V{1, 8, 3}));
}

TEST(WhereErrors, ConditionMustBeBool) {
  Tensor a = make(ts::kFloat, {1, 2});
  EXPECT_ERROR(ts::where(make(ts::kFloat, {1, 0}), a, a),
               "where: expected condition to be a boolean tensor, but got a tensor with dtype "
               "float32");
  EXPECT_ERROR(ts::where(make(ts::kInt, {1, 0}), a, a),
               "where: expected condition to be a boolean tensor, but got a tensor with dtype "
               "int32");
  EXPECT_ERROR(ts::where(Tensor(), a, a),
               "where: expected a defined tensor for argument 'condition'");
  EXPECT_ERROR(ts::where(make(ts::kBool, {1, 0}), a, Tensor()),
               "where: expected a defined tensor for argument 'other'");
}

TEST(WhereErrors, ShapesMustBroadcast) {
  Tensor a = make(ts::kFloat, {1, 2});
  EXPECT_ERROR(ts::where(make(ts::kBool, {1, 0, 1}), a, a),
               "where: The size of tensor a (3) must match the size of tensor b (2) at "
               "non-singleton dimension 0");
}

TEST(WhereErrors, OutMustHaveTheResultDtypeAndShape) {
  Tensor c = make(ts::kBool, {1, 0});
  Tensor a = make(ts::kFloat, {1, 2});
  Tensor out = make(ts::kDouble, {5, 5});
  EXPECT_ERROR(ts::where_out(out, c, a, a),
               "where: Expected out type to be float32 but got float64");
  EXPECT_EQ(values(out), (V{5, 5}));
  Tensor out3 = make(ts::kFloat, {5, 5, 5});
  EXPECT_ERROR(ts::where_out(out3, c, a, a),
               "where: output with shape [3] doesn't match the result shape [2]");
  EXPECT_EQ(values(out3), (V{5, 5, 5}));
  // out overlapping an input partially.
  Tensor buf = make(ts::kFloat, {1, 2, 3});
  Tensor head = ts::make_view(buf, {2}, {1}, 0);
  Tensor tail = ts::make_view(buf, {2}, {1}, 1);
  EXPECT_ERROR(ts::where_out(head, c, tail, a),
               "where: unsupported operation: some elements of the input tensor (argument 'self') "
               "and the written-to tensor (argument 'out') refer to a single memory location");
  EXPECT_EQ(values(buf), (V{1, 2, 3}));
}

// ---- lerp ----

TEST(Lerp, PyTorchDocExample) {
  // start = arange(1., 5.), end = empty(4).fill_(10)
  Tensor start = make(ts::kFloat, {1, 2, 3, 4});
  Tensor end = make(ts::kFloat, {10, 10, 10, 10});
  EXPECT_EQ(values(ts::lerp(start, end, 0.5)), (V{5.5, 6, 6.5, 7}));
  Tensor half = make(ts::kFloat, {0.5, 0.5, 0.5, 0.5});
  EXPECT_EQ(values(ts::lerp(start, end, half)), (V{5.5, 6, 6.5, 7}));
  EXPECT_EQ(values(start.lerp(end, half)), (V{5.5, 6, 6.5, 7}));
}

TEST(Lerp, BothBranchesOfTheFormula) {
  Tensor s = make(ts::kDouble, {1, 1, 1, 1, 1, 1});
  Tensor e = make(ts::kDouble, {10, 10, 10, 10, 10, 10});
  Tensor w = make(ts::kDouble, {0, 0.25, 0.75, 1, -1, 2});
  EXPECT_EQ(values(ts::lerp(s, e, w)), (V{1, 3.25, 7.75, 10, -8, 19}));
  // weight 1 is exactly `end`: end - (end - start) * 0, where start + (end - start) loses it.
  Tensor tiny = make(ts::kDouble, {1e-20});
  EXPECT_EQ(get(ts::lerp(make(ts::kDouble, {1}), tiny, 1.0)), 1e-20);
  // |weight| >= 0.5 uses the end branch even for negative weights (ATen tests the absolute
  // value): 3 - 2 * 1.6 = -0.20000000000000018, where 1 + (-0.6) * 2 = -0.19999999999999996.
  Tensor r = ts::lerp(make(ts::kDouble, {1}), make(ts::kDouble, {3}), -0.6);
  EXPECT_EQ(get(r), -0.20000000000000018);
  Tensor rt = ts::lerp(make(ts::kDouble, {1}), make(ts::kDouble, {3}), make(ts::kDouble, {-0.6}));
  EXPECT_EQ(get(rt), -0.20000000000000018);
}

TEST(Lerp, FloatingDtypes) {
  for (ScalarType t : {ts::kHalf, ts::kBFloat16, ts::kFloat, ts::kDouble}) {
    Tensor r = ts::lerp(make(t, {1, 2}), make(t, {3, 6}), 0.25);
    EXPECT_EQ(r.dtype(), t);
    EXPECT_EQ(values(r), (V{1.5, 3})) << t;
    Tensor rt = ts::lerp(make(t, {1, 2}), make(t, {3, 6}), make(t, {0.75, 0.5}));
    EXPECT_EQ(values(rt), (V{2.5, 4})) << t;
  }
  // float16 result: 0 -> 65504 at weight 1 is exact; NaN weights give NaN.
  Tensor h = ts::lerp(make(ts::kHalf, {0, 0}), make(ts::kHalf, {65504, 1}),
                      make(ts::kHalf, {1, std::numeric_limits<double>::quiet_NaN()}));
  EXPECT_EQ(get(h, 0), 65504);
  EXPECT_TRUE(std::isnan(get(h, 1)));
}

TEST(Lerp, BroadcastAndNonContiguous) {
  Tensor base = make(ts::kFloat, {0, 1, 2, 3}, {2, 2});
  Tensor start = ts::make_view(base, {2, 2}, {1, 2}, 0);  // [[0, 2], [1, 3]]
  Tensor end = make(ts::kFloat, {4, 8});                  // broadcast over rows
  Tensor weight = make(ts::kFloat, {0.5, 0.25}, {2, 1});  // broadcast over columns
  EXPECT_EQ(values(ts::lerp(start, end, weight)), (V{2, 5, 1.75, 4.25}));
  Tensor r = ts::lerp(make(ts::kFloat, {2}, {}), make(ts::kFloat, {4, 6, 8}), 0.5);
  EXPECT_EQ(shape_of(r), (std::vector<int64_t>{3}));
  EXPECT_EQ(values(r), (V{3, 4, 5}));
  EXPECT_EQ(get(ts::lerp(make(ts::kDouble, {2}, {}), make(ts::kDouble, {4}, {}), 0.5)), 3);
  EXPECT_EQ(ts::lerp(ts::empty({0}, ts::kFloat), ts::empty({0}, ts::kFloat), 0.5).numel(), 0);
}

TEST(Lerp, InPlaceAndOut) {
  Tensor s = make(ts::kFloat, {0, 10});
  Tensor& r = s.lerp_(make(ts::kFloat, {4, 20}), 0.5);
  EXPECT_TRUE(r.is_same(s));
  EXPECT_EQ(values(s), (V{2, 15}));
  s.lerp_(make(ts::kFloat, {6}, {}), make(ts::kFloat, {1, 0}));
  EXPECT_EQ(values(s), (V{6, 15}));
  Tensor out = ts::empty({0}, ts::kDouble);
  ts::lerp_out(out, make(ts::kDouble, {0}), make(ts::kDouble, {8}), make(ts::kDouble, {0.25, 1}));
  EXPECT_EQ(values(out), (V{2, 8}));
}

TEST(LerpErrors, DtypesMustMatchAndBeFloating) {
  Tensor f = make(ts::kFloat, {1, 2});
  Tensor d = make(ts::kDouble, {1, 2});
  EXPECT_ERROR(ts::lerp(f, d, 0.5), "lerp: expected dtype float32 for `end` but got dtype float64");
  EXPECT_ERROR(ts::lerp(f, f, d),
               "lerp: expected dtype float32 for `weight` but got dtype float64");
  Tensor i = make(ts::kLong, {1, 2});
  EXPECT_ERROR(ts::lerp(i, i, 0.5), "lerp: not implemented for dtype int64");
  EXPECT_ERROR(ts::lerp(i, i, i), "lerp: not implemented for dtype int64");
  EXPECT_ERROR(
      ts::lerp(f, f, 1e300),
      "lerp: value cannot be converted to type float32 without overflow (argument 'weight')");
  EXPECT_ERROR(ts::lerp(f, Tensor(), 0.5), "lerp: expected a defined tensor for argument 'end'");
  EXPECT_ERROR(ts::lerp(f, f, Tensor()), "lerp: expected a defined tensor for argument 'weight'");
  EXPECT_ERROR(ts::lerp(f, make(ts::kFloat, {1, 2, 3}), 0.5),
               "lerp: The size of tensor a (2) must match the size of tensor b (3)");
}

TEST(LerpErrors, InPlaceAndOutLeaveTensorsUntouched) {
  Tensor s = make(ts::kFloat, {1, 2, 3});
  EXPECT_ERROR(s.lerp_(make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {2, 3}), 0.5),
               "lerp_: output with shape [3] doesn't match the broadcast shape [2, 3]");
  EXPECT_ERROR(s.lerp_(make(ts::kDouble, {1, 2, 3}), 0.5), "expected dtype float32 for `end`");
  EXPECT_EQ(values(s), (V{1, 2, 3}));
  Tensor out = make(ts::kLong, {7, 7, 7});
  EXPECT_ERROR(ts::lerp_out(out, s, s, s), "lerp: Found dtype int64 but expected float32");
  // A wider out= too, as ATen ("Found dtype Double but expected Float").
  Tensor wide = make(ts::kDouble, {7, 7, 7});
  EXPECT_ERROR(ts::lerp_out(wide, s, s, s),
               "lerp: Found dtype float64 but expected float32 (argument 'out')");
  EXPECT_EQ(values(wide), (V{7, 7, 7}));
  EXPECT_EQ(values(out), (V{7, 7, 7}));
  // Self's end overlapping self partially.
  Tensor buf = make(ts::kFloat, {1, 2, 3, 4});
  EXPECT_ERROR(ts::make_view(buf, {3}, {1}, 0).lerp_(ts::make_view(buf, {3}, {1}, 1), 0.5),
               "lerp_: unsupported operation: some elements of the input tensor");
  EXPECT_EQ(values(buf), (V{1, 2, 3, 4}));
  // An expanded self would be written more than once.
  Tensor one = make(ts::kFloat, {1});
  EXPECT_ERROR(one.expand({3}).lerp_(s, 0.5),
               "lerp_: unsupported operation: more than one element of the written-to tensor");
  EXPECT_EQ(get(one), 1);
}

// ---- addcmul ----

TEST(Addcmul, HandComputedWithBroadcast) {
  // self [1, 2, 3] + 0.5 * [[1], [2]] * [4, 5, 6]
  Tensor r = ts::addcmul(make(ts::kFloat, {1, 2, 3}), make(ts::kFloat, {1, 2}, {2, 1}),
                         make(ts::kFloat, {4, 5, 6}), 0.5);
  EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(r), (V{3, 4.5, 6, 5, 7, 9}));
  // The default value is 1.
  EXPECT_EQ(
      values(ts::addcmul(make(ts::kDouble, {1}), make(ts::kDouble, {2}), make(ts::kDouble, {3}))),
      (V{7}));
}

TEST(Addcmul, PromotesOverAllThreeTensors) {
  Tensor r =
      ts::addcmul(make(ts::kInt, {1, 2}), make(ts::kFloat, {0.5, 0.25}), make(ts::kInt, {2, 4}), 2);
  EXPECT_EQ(r.dtype(), ts::kFloat);
  EXPECT_EQ(values(r), (V{3, 4}));
  Tensor l =
      ts::addcmul(make(ts::kLong, {1, 2}), make(ts::kInt, {3, 4}), make(ts::kShort, {5, 6}), 2);
  EXPECT_EQ(l.dtype(), ts::kLong);
  EXPECT_EQ(values(l), (V{31, 50}));
  Tensor h = ts::addcmul(make(ts::kHalf, {1}), make(ts::kBFloat16, {2}), make(ts::kHalf, {3}), 0.5);
  EXPECT_EQ(h.dtype(), ts::kFloat);
  EXPECT_EQ(get(h), 4);
  // A 0-dim double does not promote a float32 tensor with dims.
  EXPECT_EQ(
      ts::addcmul(make(ts::kFloat, {1}), make(ts::kDouble, {2}, {}), make(ts::kFloat, {3})).dtype(),
      ts::kFloat);
}

TEST(Addcmul, IntegersWrap) {
  // int8: 100 + 10 * 10 = 200 wraps to -56; uint8: 0 + (-1) * 1 * 1 = 255.
  Tensor r = ts::addcmul(make(ts::kChar, {100}), make(ts::kChar, {10}), make(ts::kChar, {10}));
  EXPECT_EQ(get(r), -56);
  Tensor u = ts::addcmul(make(ts::kByte, {0}), make(ts::kByte, {1}), make(ts::kByte, {1}), -1);
  EXPECT_EQ(get(u), 255);
  Tensor big = ts::empty({1}, ts::kLong);
  big.data_ptr<int64_t>()[0] = INT64_MAX;
  Tensor w = ts::addcmul(big, make(ts::kLong, {1}), make(ts::kLong, {1}));  // wraps, no UB
  EXPECT_EQ(w.data_ptr<int64_t>()[0], INT64_MIN);
}

TEST(Addcmul, EveryNonBoolDtype) {
  for (ScalarType t : kAll) {
    if (t == ts::kBool) continue;
    Tensor r = ts::addcmul(make(t, {1, 2}), make(t, {2, 3}), make(t, {3, 4}), 2);
    EXPECT_EQ(r.dtype(), t);
    EXPECT_EQ(values(r), (V{13, 26})) << t;
  }
}

TEST(Addcmul, NonContiguousInPlaceAndOut) {
  Tensor base = make(ts::kDouble, {1, 2, 3, 4}, {2, 2});
  Tensor self = ts::make_view(base, {2, 2}, {1, 2}, 0);  // [[1, 3], [2, 4]]
  Tensor& r = self.addcmul_(make(ts::kDouble, {1, 2}), make(ts::kDouble, {10}, {}), 0.5);
  EXPECT_TRUE(r.is_same(self));
  EXPECT_EQ(values(self), (V{6, 13, 7, 14}));
  EXPECT_EQ(values(base), (V{6, 7, 13, 14}));
  Tensor out = ts::empty({0}, ts::kDouble);  // float32 result into float64: castable
  ts::addcmul_out(out, make(ts::kFloat, {1, 2}), make(ts::kFloat, {2, 2}),
                  make(ts::kFloat, {3, 3}));
  EXPECT_EQ(out.dtype(), ts::kDouble);
  EXPECT_EQ(values(out), (V{7, 8}));
  EXPECT_EQ(
      values(make(ts::kFloat, {1, 2}).addcmul(make(ts::kFloat, {1, 1}), make(ts::kFloat, {1, 1}))),
      (V{2, 3}));
  EXPECT_EQ(
      get(ts::addcmul(make(ts::kInt, {1}, {}), make(ts::kInt, {2}, {}), make(ts::kInt, {3}, {}))),
      7);
  EXPECT_EQ(
      ts::addcmul(ts::empty({0, 3}, ts::kFloat), make(ts::kFloat, {1, 2, 3}), make(ts::kFloat, {1}))
          .numel(),
      0);
}

// Note [addcmul value on integers] in lib/src/ops/ternary.cpp: ATen 1.13 gives, for
// i = [0..5] int32, addcmul(i, i, i, 2.5) = [0, 3, 10, 21, 36, 55] and with -2.5
// [0, -1, -6, -15, -28, -45] (i + 2 * i * i, i - 2 * i * i); uint8 with 2.9 as 2.5.
TEST(Addcmul, FloatingValueTruncatesForIntegers) {
  Tensor i = make(ts::kInt, {0, 1, 2, 3, 4, 5}, {2, 3});
  EXPECT_EQ(values(ts::addcmul(i, i, i, 2.5)), (V{0, 3, 10, 21, 36, 55}));
  EXPECT_EQ(values(ts::addcmul(i, i, i, -2.5)), (V{0, -1, -6, -15, -28, -45}));
  Tensor u = make(ts::kByte, {0, 1, 2, 3, 4, 5}, {2, 3});
  Tensor r = ts::addcmul(u, u, u, 2.9);
  EXPECT_EQ(r.dtype(), ts::kByte);
  EXPECT_EQ(values(r), (V{0, 3, 10, 21, 36, 55}));
  Tensor s = make(ts::kLong, {1, 2});
  s.addcmul_(make(ts::kLong, {3, 4}), make(ts::kLong, {1, 1}), 1.0);
  EXPECT_EQ(values(s), (V{4, 6}));
}

TEST(AddcmulErrors, ValueAndDtypes) {
  Tensor i = make(ts::kInt, {1, 2});
  EXPECT_ERROR(ts::addcmul(i, i, i, int64_t{1} << 40),
               "addcmul: value cannot be converted to type int32 without overflow");
  Tensor b = make(ts::kBool, {1, 0});
  EXPECT_ERROR(ts::addcmul(b, b, b), "addcmul: not implemented for dtype bool");
  EXPECT_ERROR(ts::addcmul(i, Tensor(), i),
               "addcmul: expected a defined tensor for argument 'tensor1'");
  EXPECT_ERROR(ts::addcmul(i, i, make(ts::kInt, {1, 2, 3})),
               "addcmul: The size of tensor a (2) must match the size of tensor b (3)");
  Tensor h = make(ts::kHalf, {1});
  EXPECT_ERROR(ts::addcmul(h, h, h, 1e300), "addcmul: value cannot be converted to type float32");
}

TEST(AddcmulErrors, InPlaceAndOutLeaveTensorsUntouched) {
  Tensor i = make(ts::kInt, {1, 2});
  EXPECT_ERROR(i.addcmul_(make(ts::kFloat, {1, 1}), i),
               "addcmul_: result type float32 can't be cast to the desired output type int32");
  EXPECT_ERROR(i.addcmul_(make(ts::kInt, {1, 2, 3, 4}, {2, 2}), i),
               "addcmul_: output with shape [2] doesn't match the broadcast shape [2, 2]");
  EXPECT_EQ(values(i), (V{1, 2}));
  Tensor out = make(ts::kInt, {9, 9});
  EXPECT_ERROR(ts::addcmul_out(out, make(ts::kFloat, {1, 1}), i, i),
               "addcmul: result type float32 can't be cast to the desired output type int32");
  EXPECT_EQ(values(out), (V{9, 9}));
}

// ---- masked_fill ----

TEST(MaskedFill, FunctionalAndInPlace) {
  Tensor self = make(ts::kFloat, {1, 2, 3, 4});
  Tensor mask = make(ts::kBool, {1, 0, 1, 0});
  Tensor r = ts::masked_fill(self, mask, -1);
  EXPECT_EQ(values(r), (V{-1, 2, -1, 4}));
  EXPECT_EQ(values(self), (V{1, 2, 3, 4}));  // functional: self untouched
  EXPECT_EQ(values(self.masked_fill(mask, 0.5)), (V{0.5, 2, 0.5, 4}));
  Tensor& ri = self.masked_fill_(mask, 9);
  EXPECT_TRUE(ri.is_same(self));
  EXPECT_EQ(values(self), (V{9, 2, 9, 4}));
}

TEST(MaskedFill, ValueIsCastToSelfsDtype) {
  EXPECT_EQ(values(ts::masked_fill(make(ts::kInt, {0, 0}), make(ts::kBool, {1, 0}), 2.7)),
            (V{2, 0}));
  EXPECT_EQ(values(ts::masked_fill(make(ts::kInt, {0}), make(ts::kBool, {1}), -2.7)), (V{-2}));
  Tensor h = ts::masked_fill(make(ts::kHalf, {0}), make(ts::kBool, {1}), 1.0 / 3);
  EXPECT_EQ(h.dtype(), ts::kHalf);
  EXPECT_EQ(get(h), 0.333251953125);  // 0x3555
  Tensor b = ts::masked_fill(make(ts::kBool, {0, 0}), make(ts::kBool, {0, 1}), 0.25);
  EXPECT_EQ(values(b), (V{0, 1}));
  Tensor u = ts::masked_fill(make(ts::kByte, {3}), make(ts::kBool, {1}), -1);
  EXPECT_EQ(values(u), (V{255}));
}

TEST(MaskedFill, EveryDtype) {
  for (ScalarType t : kAll) {
    Tensor r = ts::masked_fill(make(t, {0, 0, 0}), make(ts::kBool, {0, 1, 1}), true);
    EXPECT_EQ(r.dtype(), t);
    EXPECT_EQ(values(r), (V{0, 1, 1})) << t;
  }
}

TEST(MaskedFill, Broadcasting) {
  Tensor self = make(ts::kLong, {1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(values(ts::masked_fill(self, make(ts::kBool, {0, 1, 0}), 0)), (V{1, 0, 3, 4, 0, 6}));
  EXPECT_EQ(values(ts::masked_fill(self, make(ts::kBool, {1, 0}, {2, 1}), 0)),
            (V{0, 0, 0, 4, 5, 6}));
  EXPECT_EQ(values(ts::masked_fill(self, make(ts::kBool, {1}, {}), 7)), V(6, 7));
  // The functional form broadcasts self too.
  Tensor grown = ts::masked_fill(make(ts::kLong, {1, 2, 3}), make(ts::kBool, {1, 0}, {2, 1}), -1);
  EXPECT_EQ(shape_of(grown), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(grown), (V{-1, -1, -1, 1, 2, 3}));
  Tensor s = make(ts::kFloat, {4}, {});
  s.masked_fill_(make(ts::kBool, {1}, {}), 8);
  EXPECT_EQ(get(s), 8);
  EXPECT_EQ(ts::masked_fill(ts::empty({0}, ts::kFloat), ts::empty({0}, ts::kBool), 1).numel(), 0);
}

TEST(MaskedFill, NonContiguousAndExpandedSelf) {
  Tensor base = make(ts::kInt, {1, 2, 3, 4}, {2, 2});
  Tensor t = ts::make_view(base, {2, 2}, {1, 2}, 0);  // [[1, 3], [2, 4]]
  Tensor mbuf = make(ts::kBool, {1, 0, 0, 0, 0, 0, 1, 0});
  Tensor mask = ts::make_view(mbuf, {2, 2}, {4, 2}, 0);  // [[1, 0], [0, 1]]
  t.masked_fill_(mask, 0);
  EXPECT_EQ(values(base), (V{0, 2, 3, 0}));
  // ATen only warns for an expanded self; a location takes the value if any alias is masked.
  Tensor row = make(ts::kFloat, {1, 2});
  row.expand({2, 2}).masked_fill_(make(ts::kBool, {0, 0, 1, 0}, {2, 2}), 5);
  EXPECT_EQ(values(row), (V{5, 2}));
}

TEST(MaskedFillErrors, MaskValueAndShape) {
  Tensor self = make(ts::kChar, {1, 2, 3});
  EXPECT_ERROR(self.masked_fill_(make(ts::kFloat, {1, 0, 1}), 0),
               "masked_fill_: only supports boolean masks, but got mask with dtype float32");
  EXPECT_ERROR(ts::masked_fill(self, make(ts::kByte, {1, 0, 1}), 0),
               "masked_fill: only supports boolean masks, but got mask with dtype uint8");
  EXPECT_ERROR(self.masked_fill_(make(ts::kBool, {1, 0, 1}), 300),
               "masked_fill_: value cannot be converted to type int8 without overflow");
  EXPECT_ERROR(
      ts::masked_fill(self, make(ts::kBool, {1, 0, 1}), std::numeric_limits<double>::infinity()),
      "masked_fill: value cannot be converted to type int8 without overflow");
  EXPECT_ERROR(self.masked_fill_(make(ts::kBool, {1, 0, 1, 0, 1, 0}, {2, 3}), 0),
               "masked_fill_: output with shape [3] doesn't match the broadcast shape [2, 3]");
  EXPECT_ERROR(self.masked_fill_(make(ts::kBool, {1, 0}), 0),
               "masked_fill_: The size of tensor a (3) must match the size of tensor b (2)");
  EXPECT_ERROR(self.masked_fill_(Tensor(), 0),
               "masked_fill_: expected a defined tensor for argument 'mask'");
  EXPECT_EQ(values(self), (V{1, 2, 3}));
  // A bool self whose mask overlaps it partially.
  Tensor buf = make(ts::kBool, {0, 1, 0, 1});
  EXPECT_ERROR(ts::make_view(buf, {3}, {1}, 0).masked_fill_(ts::make_view(buf, {3}, {1}, 1), true),
               "masked_fill_: unsupported operation: some elements of the input tensor");
  EXPECT_EQ(values(buf), (V{0, 1, 0, 1}));
}

}  // namespace
