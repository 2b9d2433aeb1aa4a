// Type promotion against PyTorch's documented rules: promote_types and can_cast as hand-written
// tables, result_type over the three tiers against a plain re-statement of the docs' rules, and
// every example from PyTorch's type promotion documentation, through result_type and a real op.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::ScalarType;
using ts::Tensor;

constexpr ScalarType b1 = ts::kBool, u8 = ts::kByte, i8 = ts::kChar, i16 = ts::kShort,
                     i32 = ts::kInt, i64 = ts::kLong, f16 = ts::kHalf, bf16 = ts::kBFloat16,
                     f32 = ts::kFloat, f64 = ts::kDouble;
constexpr int N = 10;

int idx(ScalarType t) {
  return static_cast<int>(t);
}

// Note [Hand-written promotion table]
// PyTorch's promote_types, written out from its rules: bool < integers < floating; within a
// category the wider type; uint8 with a signed integer needs a signed type wider than 8 bits
// (uint8 + int8 -> int16); float16 with bfloat16 -> float32 (neither holds the other).
// Rows and columns in the order b1 u8 i8 i16 i32 i64 f16 bf16 f32 f64.
constexpr ScalarType kPromote[N][N] = {
    /* b1   */ {b1, u8, i8, i16, i32, i64, f16, bf16, f32, f64},
    /* u8   */ {u8, u8, i16, i16, i32, i64, f16, bf16, f32, f64},
    /* i8   */ {i8, i16, i8, i16, i32, i64, f16, bf16, f32, f64},
    /* i16  */ {i16, i16, i16, i16, i32, i64, f16, bf16, f32, f64},
    /* i32  */ {i32, i32, i32, i32, i32, i64, f16, bf16, f32, f64},
    /* i64  */ {i64, i64, i64, i64, i64, i64, f16, bf16, f32, f64},
    /* f16  */ {f16, f16, f16, f16, f16, f16, f16, f32, f32, f64},
    /* bf16 */ {bf16, bf16, bf16, bf16, bf16, bf16, f32, bf16, f32, f64},
    /* f32  */ {f32, f32, f32, f32, f32, f32, f32, f32, f32, f64},
    /* f64  */ {f64, f64, f64, f64, f64, f64, f64, f64, f64, f64},
};

// torch.can_cast(from, to), from PyTorch's casting rules: no floating -> integral, no
// non-bool -> bool. Rows: from; columns: to (same order as above).
constexpr bool kCanCast[N][N] = {
    /* b1   */ {1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    /* u8   */ {0, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    /* i8   */ {0, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    /* i16  */ {0, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    /* i32  */ {0, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    /* i64  */ {0, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    /* f16  */ {0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
    /* bf16 */ {0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
    /* f32  */ {0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
    /* f64  */ {0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
};

// ---- the docs' rule, restated plainly (independent of lib/src/promotion.cpp) ----

enum class Tier { Dim, ZeroDim, Wrapped };
struct Operand {
  ScalarType dtype;  // for Wrapped: bool, int64 or float64, as a Python number
  Tier tier;
};

int category(ScalarType t) {  // bool < integer < floating
  switch (t) {
    case ts::kBool:
      return 0;
    case ts::kHalf:
    case ts::kBFloat16:
    case ts::kFloat:
    case ts::kDouble:
      return 2;
    default:
      return 1;
  }
}

// "If the type of a scalar operand is of a higher category than tensor operands, we promote to a
// type with sufficient size to hold all scalar operands of that category. If a zero-dimension
// tensor operand has a higher category than dimensioned operands, we promote to a type with
// sufficient size and category to hold all zero-dim tensor operands of that category. If there
// are no higher-category zero-dim operands, we promote to a type with sufficient size and
// category to hold all dimensioned operands. A floating point scalar operand has dtype
// torch.get_default_dtype() and an integral non-boolean scalar operand has dtype torch.int64."
ScalarType result_type_by_hand(const std::vector<Operand>& ops) {
  ScalarType result = ScalarType::Undefined;
  for (Tier tier : {Tier::Dim, Tier::ZeroDim, Tier::Wrapped}) {
    std::vector<ScalarType> dtypes;
    for (const Operand& o : ops) {
      if (o.tier != tier) continue;
      const bool py_float = tier == Tier::Wrapped && category(o.dtype) == 2;
      dtypes.push_back(py_float ? ts::kFloat : o.dtype);  // the default dtype
    }
    if (dtypes.empty()) continue;
    int top = 0;
    for (ScalarType t : dtypes) top = std::max(top, category(t));
    if (result != ScalarType::Undefined && top <= category(result)) continue;
    ScalarType promoted = ScalarType::Undefined;
    for (ScalarType t : dtypes) {
      if (category(t) != top) continue;
      promoted = promoted == ScalarType::Undefined ? t : kPromote[idx(promoted)][idx(t)];
    }
    result = promoted;
  }
  return result;
}

// ---- tensors for the checks ----

Tensor ones_dim(ScalarType t) {  // a tensor with dims: shape [2]
  return make(t, {1, 1});
}

Tensor ones_0dim(ScalarType t) {
  return make(t, {1}, {});
}

// The wrapped numbers used below: a Python True, 1 and 1.0.
const ts::Scalar kScalars[] = {ts::Scalar(true), ts::Scalar(1), ts::Scalar(1.0)};

// Checks that ts::add produces `expected` and computes 1 + 1 (True for bool).
void expect_add(const Tensor& r, ScalarType expected, const std::string& what) {
  ASSERT_EQ(r.dtype(), expected) << what;
  ASSERT_GT(r.numel(), 0) << what;
  EXPECT_EQ(get(r), expected == ts::kBool ? 1.0 : 2.0) << what;
}

std::string name(ScalarType a, const char* ka, ScalarType b, const char* kb) {
  return std::string(ts::dtype_name(a)) + " " + ka + " x " + std::string(ts::dtype_name(b)) + " " +
         kb;
}

// ---- promote_types ----

TEST(PromoteTypes, MatchesHandWrittenTable) {
  for (ScalarType a : kAll) {
    for (ScalarType b : kAll) {
      EXPECT_EQ(ts::promote_types(a, b), kPromote[idx(a)][idx(b)]) << a << " with " << b;
    }
  }
}

TEST(PromoteTypes, IsSymmetric) {
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) {
      ASSERT_EQ(kPromote[i][j], kPromote[j][i]);  // the hand table itself
      EXPECT_EQ(ts::promote_types(kAll[i], kAll[j]), ts::promote_types(kAll[j], kAll[i]));
    }
  }
}

TEST(PromoteTypes, NamedCases) {
  EXPECT_EQ(ts::promote_types(u8, i8), i16);
  EXPECT_EQ(ts::promote_types(f16, bf16), f32);
  EXPECT_EQ(ts::promote_types(i64, f16), f16);
  EXPECT_EQ(ts::promote_types(b1, b1), b1);
  EXPECT_ERROR(ts::promote_types(ScalarType::Undefined, f32), "promote_types: undefined dtype");
  EXPECT_ERROR(ts::promote_types(f32, ScalarType::Undefined), "promote_types: undefined dtype");
}

// ---- result_type over the tiers ----

TEST(ResultType, DimTensorWithDimTensor) {
  for (ScalarType a : kAll) {
    for (ScalarType b : kAll) {
      const ScalarType want = kPromote[idx(a)][idx(b)];
      ASSERT_EQ(result_type_by_hand({{a, Tier::Dim}, {b, Tier::Dim}}), want);
      const Tensor ta = ones_dim(a), tb = ones_dim(b);
      EXPECT_EQ(ts::result_type(ta, tb), want) << name(a, "dim", b, "dim");
      expect_add(ts::add(ta, tb), want, name(a, "dim", b, "dim"));
    }
  }
}

TEST(ResultType, DimTensorWithZeroDimTensor) {
  for (ScalarType a : kAll) {
    for (ScalarType b : kAll) {
      const ScalarType want = result_type_by_hand({{a, Tier::Dim}, {b, Tier::ZeroDim}});
      const Tensor ta = ones_dim(a), tb = ones_0dim(b);
      const std::string what = name(a, "dim", b, "0-dim");
      EXPECT_EQ(ts::result_type(ta, tb), want) << what;
      EXPECT_EQ(ts::result_type(tb, ta), want) << what;
      expect_add(ts::add(ta, tb), want, what);
      expect_add(ts::add(tb, ta), want, what + " (swapped)");
    }
  }
}

// A tensor of `tier` (Dim or ZeroDim) in every dtype with each wrapped number: result_type with
// the number as a Scalar and as a wrapped tensor on either side, and add both ways.
void expect_with_wrapped_scalars(Tier tier) {
  const char* kind = tier == Tier::Dim ? "dim" : "0-dim";
  for (ScalarType a : kAll) {
    for (const ts::Scalar& s : kScalars) {
      const ScalarType want = result_type_by_hand({{a, tier}, {s.type(), Tier::Wrapped}});
      const Tensor ta = tier == Tier::Dim ? ones_dim(a) : ones_0dim(a);
      const std::string what = name(a, kind, s.type(), "wrapped");
      EXPECT_EQ(ts::result_type(ta, s), want) << what;
      EXPECT_EQ(ts::result_type(ta, ts::wrapped_scalar_tensor(s)), want) << what;
      EXPECT_EQ(ts::result_type(ts::wrapped_scalar_tensor(s), ta), want) << what;
      expect_add(ts::add(ta, s), want, what);
      expect_add(ts::add(ts::wrapped_scalar_tensor(s), ta), want, what + " (swapped)");
    }
  }
}

TEST(ResultType, DimTensorWithWrappedScalar) {
  expect_with_wrapped_scalars(Tier::Dim);
}

TEST(ResultType, ZeroDimWithZeroDim) {
  for (ScalarType a : kAll) {
    for (ScalarType b : kAll) {
      const ScalarType want = result_type_by_hand({{a, Tier::ZeroDim}, {b, Tier::ZeroDim}});
      ASSERT_EQ(want, kPromote[idx(a)][idx(b)]);
      const Tensor ta = ones_0dim(a), tb = ones_0dim(b);
      const std::string what = name(a, "0-dim", b, "0-dim");
      EXPECT_EQ(ts::result_type(ta, tb), want) << what;
      const Tensor r = ts::add(ta, tb);
      EXPECT_EQ(r.dim(), 0) << what;
      expect_add(r, want, what);
    }
  }
}

TEST(ResultType, ZeroDimWithWrappedScalar) {
  expect_with_wrapped_scalars(Tier::ZeroDim);
}

TEST(ResultType, WrappedScalarWithWrappedScalar) {
  for (const ts::Scalar& a : kScalars) {
    for (const ts::Scalar& b : kScalars) {
      const ScalarType want =
          result_type_by_hand({{a.type(), Tier::Wrapped}, {b.type(), Tier::Wrapped}});
      const std::string what = name(a.type(), "wrapped", b.type(), "wrapped");
      EXPECT_EQ(ts::result_type(a, b), want) << what;
      expect_add(ts::add(ts::wrapped_scalar_tensor(a), b), want, what);
    }
  }
}

TEST(ResultType, AllThreeTiersTogether) {
  for (ScalarType a : kAll) {
    for (ScalarType b : kAll) {
      for (const ts::Scalar& s : kScalars) {
        const ScalarType want =
            result_type_by_hand({{a, Tier::Dim}, {b, Tier::ZeroDim}, {s.type(), Tier::Wrapped}});
        const Tensor ta = ones_dim(a), tb = ones_0dim(b), tw = ts::wrapped_scalar_tensor(s);
        const std::string what =
            name(a, "dim", b, "0-dim") + " x " + std::string(ts::dtype_name(s.type())) + " wrapped";
        const Tensor in[] = {tb, tw, ta};
        EXPECT_EQ(ts::result_type(ts::TensorList(in)), want) << what;
        ts::ResultTypeState st;
        ts::update_result_type_state(st, s);
        ts::update_result_type_state(st, tb);
        ts::update_result_type_state(st, ta);
        EXPECT_EQ(ts::result_type(st), want) << what;
      }
    }
  }
}

TEST(ResultType, UndefinedTensorsAreSkipped) {
  const Tensor in[] = {Tensor(), ones_dim(i32), Tensor()};
  EXPECT_EQ(ts::result_type(ts::TensorList(in)), i32);
}

TEST(ResultType, WrappedScalarTensor) {
  const Tensor d = ts::wrapped_scalar_tensor(1.5);
  EXPECT_EQ(d.dtype(), f64);
  EXPECT_EQ(d.dim(), 0);
  EXPECT_TRUE(ts::is_wrapped_number(d));
  EXPECT_EQ(d.data_ptr<double>()[0], 1.5);
  const Tensor i = ts::wrapped_scalar_tensor(-7);
  EXPECT_EQ(i.dtype(), i64);
  EXPECT_EQ(i.data_ptr<int64_t>()[0], -7);
  const Tensor b = ts::wrapped_scalar_tensor(true);
  EXPECT_EQ(b.dtype(), b1);
  EXPECT_TRUE(b.data_ptr<bool>()[0]);
  EXPECT_FALSE(ts::is_wrapped_number(ones_0dim(f64)));
  EXPECT_ERROR(ts::wrapped_scalar_tensor(1, ts::kCUDA),
               "wrapped_scalar_tensor: only CPU is supported");
}

// ---- every example of PyTorch's type promotion documentation ----

ScalarType add_dtype(const Tensor& a, const Tensor& b) {
  return ts::add(a, b).dtype();
}
ScalarType add_dtype(const Tensor& a, const ts::Scalar& b) {
  return ts::add(a, b).dtype();
}

TEST(ResultType, DocumentationExamples) {
  const Tensor float_tensor = ones_dim(f32), double_tensor = ones_dim(f64),
               int_tensor = ones_dim(i32), long_tensor = ones_dim(i64), uint_tensor = ones_dim(u8),
               bool_tensor = ones_dim(b1), long_zerodim = ones_0dim(i64);

  // torch.add(5, 5).dtype -> torch.int64
  EXPECT_EQ(ts::result_type(ts::Scalar(5), ts::Scalar(5)), i64);
  EXPECT_EQ(ts::add(ts::wrapped_scalar_tensor(5), 5).dtype(), i64);
  // 5 is an int64, but does not have higher category than int_tensor so is not considered.
  EXPECT_EQ(ts::result_type(int_tensor, 5), i32);
  EXPECT_EQ(add_dtype(int_tensor, 5), i32);
  // result_type of two tensors and the dtype add gives them agree.
  const struct {
    const char* what;
    Tensor a, b;
    ScalarType want;
  } examples[] = {
      {"int_tensor, long_zerodim", int_tensor, long_zerodim, i32},
      {"long_tensor, int_tensor", long_tensor, int_tensor, i64},
      {"bool_tensor, long_tensor", bool_tensor, long_tensor, i64},
      {"bool_tensor, uint_tensor", bool_tensor, uint_tensor, u8},
      {"float_tensor, double_tensor", float_tensor, double_tensor, f64},
      {"bool_tensor, int_tensor", bool_tensor, int_tensor, i32},
      // Since long is a different kind than float, result dtype only needs to be large enough
      // to hold the float.
      {"long_tensor, float_tensor", long_tensor, float_tensor, f32},
      // torch.result_type's own example.
      {"uint_tensor, 0-dim int64", uint_tensor, ones_0dim(i64), u8},
  };
  for (const auto& e : examples) {
    EXPECT_EQ(ts::result_type(e.a, e.b), e.want) << e.what;
    EXPECT_EQ(add_dtype(e.a, e.b), e.want) << e.what;
  }
  // torch.result_type's other example.
  EXPECT_EQ(ts::result_type(int_tensor, 1.0), f32);
}

TEST(ResultType, FloatScalarsAndZeroDimFloats) {
  const Tensor int_tensor = ones_dim(i32);
  // A Python float gives the default dtype when the tensors are integral or bool...
  EXPECT_EQ(ts::result_type(int_tensor, 1.0), f32);
  EXPECT_EQ(add_dtype(int_tensor, 5.5), f32);
  EXPECT_EQ(add_dtype(ones_dim(b1), 5.5), f32);
  EXPECT_EQ(add_dtype(ones_dim(i64), 5.5), f32);
  // ...and nothing changes when they are floating already.
  EXPECT_EQ(add_dtype(ones_dim(f16), 5.5), f16);
  EXPECT_EQ(add_dtype(ones_dim(bf16), 5.5), bf16);
  EXPECT_EQ(add_dtype(ones_dim(f64), 5.5), f64);
  // A 0-dim tensor of a higher category keeps its own dtype; of the same category it is ignored.
  EXPECT_EQ(add_dtype(int_tensor, ones_0dim(f64)), f64);  // tensor([1]) + tensor(5.5, double)
  EXPECT_EQ(add_dtype(ones_dim(f16), ones_0dim(f64)), f16);
  EXPECT_EQ(add_dtype(ones_dim(u8), ones_0dim(i64)), u8);
  EXPECT_EQ(add_dtype(ones_dim(u8), ones_0dim(i8)), u8);
  EXPECT_EQ(add_dtype(ones_dim(b1), ones_0dim(i8)), i8);
  EXPECT_EQ(add_dtype(ones_dim(i64), ones_0dim(bf16)), bf16);
  // The value is not inspected: 1e300 does not make the result float64.
  EXPECT_EQ(add_dtype(int_tensor, 1e300), f32);
  EXPECT_EQ(ts::result_type(ones_dim(u8), 1000), u8);
}

// ---- can_cast and in-place / out= casting ----

TEST(CanCast, MatchesHandWrittenTable) {
  for (ScalarType from : kAll) {
    for (ScalarType to : kAll) {
      EXPECT_EQ(ts::can_cast(from, to), kCanCast[idx(from)][idx(to)]) << from << " -> " << to;
    }
  }
}

TEST(CanCast, DocumentationCastingExamples) {
  // allowed
  const auto ok = [](ScalarType self, ScalarType other) {
    const Tensor t = ones_dim(self);
    EXPECT_NO_THROW(t.mul_(ones_dim(other))) << self << " *= " << other;
    EXPECT_EQ(t.dtype(), self);
    EXPECT_EQ(get(t), 1.0) << self << " *= " << other;
  };
  ok(f32, f32);
  ok(f32, i32);
  ok(f32, u8);
  ok(f32, b1);
  ok(f32, f64);
  ok(i32, i64);
  ok(i32, u8);
  ok(u8, i32);
  // disallowed: "result type can't be cast to the desired output type"
  const auto bad = [](ScalarType self, ScalarType other) {
    const Tensor t = ones_dim(self);
    const std::string msg = error_of([&] { t.mul_(ones_dim(other)); });
    EXPECT_NE(msg.find("can't be cast to the desired output type"), std::string::npos) << msg;
  };
  bad(i32, f32);
  bad(b1, i32);
  bad(b1, u8);
}

TEST(CanCast, InPlaceIntTimesFloatErrorsAndLeavesSelfUntouched) {
  const Tensor t = ts::empty({2}, i32);
  t.data_ptr<int32_t>()[0] = 3;
  t.data_ptr<int32_t>()[1] = -4;
  const Tensor f = ones_dim(f32);
  f.data_ptr<float>()[0] = 2.5f;
  // ATen: "result type Float can't be cast to the desired output type Int"; touchstone names
  // dtypes as PyTorch's Python API does.
  EXPECT_ERROR(t.mul_(f),
               "mul_: result type float32 can't be cast to the desired output type int32");
  EXPECT_ERROR(t.mul_(2.5),
               "mul_: result type float32 can't be cast to the desired output type int32");
  EXPECT_ERROR(t.mul_(ones_0dim(f64)),
               "mul_: result type float64 can't be cast to the desired output type int32");
  EXPECT_ERROR(t.add_(f),
               "add_: result type float32 can't be cast to the desired output type int32");
  EXPECT_EQ(t.data_ptr<int32_t>()[0], 3);
  EXPECT_EQ(t.data_ptr<int32_t>()[1], -4);
  EXPECT_EQ(t.dtype(), i32);
  // A same-category 0-dim or wrapped operand does not change the result type: this works.
  t.mul_(ones_0dim(i64));
  t.mul_(2);
  EXPECT_EQ(t.data_ptr<int32_t>()[0], 6);
  EXPECT_EQ(t.data_ptr<int32_t>()[1], -8);
}

TEST(CanCast, OutArgumentMustAcceptTheResultType) {
  const Tensor out = ts::empty({2}, i32);
  out.data_ptr<int32_t>()[0] = 7;
  out.data_ptr<int32_t>()[1] = 8;
  EXPECT_ERROR(ts::add_out(out, ones_dim(f32), ones_dim(f32)),
               "add: result type float32 can't be cast to the desired output type int32 "
               "(argument 'out')");
  const Tensor bool_out = ts::empty({2}, b1);
  EXPECT_ERROR(ts::add_out(bool_out, ones_dim(u8), ones_dim(b1)),
               "add: result type uint8 can't be cast to the desired output type bool");
  EXPECT_EQ(out.data_ptr<int32_t>()[0], 7);
  EXPECT_EQ(out.data_ptr<int32_t>()[1], 8);
  // Casting to a wider or lower-precision type of an allowed category is fine.
  const Tensor f16_out = ts::empty({2}, f16);
  ts::add_out(f16_out, ones_dim(f64), ones_dim(i64));
  EXPECT_EQ(f16_out.data_ptr<ts::Half>()[1].x, 0x4000);  // 2.0
}

}  // namespace
