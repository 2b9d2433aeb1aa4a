// Unit tests of the differential fuzzer: the program text, the op table's coverage of
// op_list.def, the runner's checks against a kernel set with planted bugs, the minimizer, and
// the generator's determinism and bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "fuzz/compare.h"
#include "fuzz/generate.h"
#include "fuzz/input.h"
#include "fuzz/values.h"
#include "touchstone/autograd.h"
#include "touchstone/dispatch.h"

namespace ts::fuzz {
namespace {

// ---- a kernel set with planted bugs ----
// "fuzz_faulty" runs the reference kernels, except: mul adds one to every int32 element, and in
// float64 is 1.5x too large while grad mode is off (in backward passes and recorded forward
// calls); sign in float64 throws; abs in float32 writes its output, then throws.
KernelFn reference(OpId op) {
  return get_kernel(op, kCPU, *find_kernel_set("reference")).fn;
}
void mul_faulty(const KernelCall& c) {
  reference(OpId::mul)(c);
  const Tensor& out = c.outputs[0];
  for (int64_t i = 0; i < out.numel(); ++i) {
    char* p = element_address(out, i);
    if (out.dtype() == kInt) *reinterpret_cast<int32_t*>(p) += 1;
    if (out.dtype() == kDouble && !GradMode::is_enabled()) *reinterpret_cast<double*>(p) *= 1.5;
  }
}
void sign_throws(const KernelCall& c) {
  TS_CHECK(c.outputs[0].dtype() != kDouble, "sign: planted failure");
  reference(OpId::sign)(c);
}
void abs_writes_then_throws(const KernelCall& c) {
  reference(OpId::abs)(c);
  TS_CHECK(c.outputs[0].dtype() != kFloat, "abs: planted failure after writing");
}

const bool registered = [] {
  KernelRegistrar m("fuzz_faulty");
  const KernelSetId ref = *find_kernel_set("reference");
  for (const OpInfo& op : all_ops()) {
    const KernelEntry e = get_kernel(op.id, kCPU, ref);
    if (e.fn == nullptr) continue;
    KernelFn fn = e.fn;
    if (op.id == OpId::mul) fn = mul_faulty;
    if (op.id == OpId::sign) fn = sign_throws;
    if (op.id == OpId::abs) fn = abs_writes_then_throws;
    m.impl(op.id, kCPU, e.dtypes, fn);
  }
  return true;
}();

RunOptions faulty() {
  RunOptions o;
  o.candidate = "fuzz_faulty";
  return o;
}

// ---- program text ----

TEST(FuzzProgram, TextRoundTrips) {
  const char* lines[] = {
      "t0=input(shape=[3,1],seed=7) t1=t(t0) t2=add(t1,t0,alpha=2) add_(t2,1.5) "
      "backward(t2,seed=1)",
      "t0=input(shape=[],dtype=bfloat16,fill='edge') t1=clamp(t0,min=nan,max=-inf) "
      "t2=sum(t1,dim=[0,-1],keepdim=true,dtype=float64)",
      "t0=zeros(size=[2,0]) t1,t2=max(t0,dim=1) t3=cat([t0,t0,t1],dim=-1) t4=pow(2.5,t0) "
      "t5=div(t0,t0,rounding_mode='floor')",
      "t0=input(shape=[4]) t1=layer_norm(t0,None,t0,normalized_shape=[4],eps=0.001) "
      "t2=arange(start=-1.5e-07,end=3)",
  };
  for (const char* line : lines) {
    const Program p = parse_program(line);
    EXPECT_EQ(to_string(p), line);
  }
}

TEST(FuzzProgram, NamesAndPositionsMayBeMixedAndDefaultsAreLeftOut) {
  // Any tensor names (numbered in order of definition), a named tensor argument, explicit
  // defaults: printed canonically.
  const Program p = parse_program("t5=input(shape=[2]) t9=add(self=t5,other=t5,alpha=1)");
  EXPECT_EQ(to_string(p), "t0=input(shape=[2]) t1=add(t0,t0)");
}

TEST(FuzzProgram, ParseErrorsNameTheProblemAndColumn) {
  const auto message = [](const char* line) {
    try {
      parse_program(line);
    } catch (const ts::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("t0=nosuchop()").find("unknown op 'nosuchop'"), std::string::npos);
  EXPECT_NE(message("t0=input(shape=[2]) t1=neg(t7)").find("unknown tensor 't7'"),
            std::string::npos);
  EXPECT_NE(message("t0=input(shape=[2],bogus=1)").find("has no argument 'bogus'"),
            std::string::npos);
  EXPECT_NE(message("t0=input()").find("missing argument 'shape'"), std::string::npos);
  EXPECT_NE(message("t0=input(shape=[2]) t1,t2=neg(t0)").find("defines 1 tensors"),
            std::string::npos);
  EXPECT_NE(message("t0=input(shape=[2]").find("column 19"), std::string::npos);
}

// Every op of op_list.def has a statement, in each of its forms (function, in-place, out=).
TEST(FuzzProgram, OpTableCoversTheOpList) {
  for (const OpInfo& op : all_ops()) {
    const std::string name(op.name);
    const std::string_view v = op.variants;
    const bool self_inplace = name.back() == '_';  // copy_, fill_, zero_
    if (v.find('f') != std::string_view::npos || self_inplace || name == "to") {
      EXPECT_NE(find_spec(name), nullptr) << name;
    }
    if (v.find('i') != std::string_view::npos && !self_inplace) {
      EXPECT_NE(find_spec(name + "_"), nullptr) << name << "_";
    }
    if (v.find('o') != std::string_view::npos) {
      EXPECT_NE(find_spec(name + "_out"), nullptr) << name << "_out";
    }
  }
}

// ---- the runner ----

TEST(FuzzRunner, AgreeingSetsGiveNoFinding) {
  const Program p = parse_program(
      "t0=input(shape=[3,4],dtype=int32,seed=3) t1=t(t0) t2=mul(t1,t1) t3=sum(t2,dim=[0])");
  EXPECT_FALSE(run_program(p).has_value());
}

TEST(FuzzRunner, WrongValuesAreFound) {
  const Program p =
      parse_program("t0=input(shape=[2,3],dtype=int32,seed=3) t1=neg(t0) t2=mul(t0,t1)");
  const auto f = run_program(p, faulty());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "values");
  EXPECT_EQ(f->stmt, 2);
  EXPECT_EQ(f->line, to_string(p));
  // Element 0: input(seed=3) writes some v; v * -v + 1 against v * -v.
  EXPECT_NE(f->message.find("element 0 is"), std::string::npos) << f->message;
}

TEST(FuzzRunner, OneSetThrowingIsFound) {
  const auto f =
      run_program(parse_program("t0=input(shape=[2],dtype=float64) t1=sign(t0)"), faulty());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "error");
  EXPECT_EQ(f->stmt, 1);
  EXPECT_NE(f->message.find("sign: planted failure"), std::string::npos);
}

TEST(FuzzRunner, AThrowThatLeavesItsOutputWrittenIsFound) {
  // abs_ in float32 writes self, then throws: a failed call must leave its output untouched.
  const auto f = run_program(parse_program("t0=input(shape=[8],seed=4) abs_(t0)"), faulty());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "exception");
  EXPECT_NE(f->message.find("is not untouched: its values changed"), std::string::npos)
      << f->message;
}

TEST(FuzzRunner, ErrorsOfBothSetsAgreeWhenTheyNameTheSameOp) {
  // Both sets refuse a broadcast mismatch, a bad view and an integer division by zero.
  EXPECT_FALSE(run_program(parse_program("t0=input(shape=[2,3]) t1=input(shape=[4]) t2=add(t0,t1) "
                                         "t3=view(t0,size=[5]) t4=input(shape=[2],dtype=int64) "
                                         "t5=div(t4,0,rounding_mode='floor') t6=neg(t2)"))
                   .has_value());
}

TEST(FuzzRunner, HugeExpandedViewsWork) {
  // [2^40] from one element: views reach its last elements; nothing materializes it.
  EXPECT_FALSE(run_program(parse_program(
                               "t0=input(shape=[1],seed=2) t1=expand(t0,size=[1099511627776]) "
                               "t2=narrow(t1,dim=0,start=1099511627770,length=4) t3=exp(t2) "
                               "t4=unsqueeze(t1,dim=0) t5=select(t4,dim=1,index=-1) t6=add(t5,t2)"))
                   .has_value());
}

TEST(FuzzRunner, GradientsAreCompared) {
  // The forward passes agree (exp and sum); exp's derivative (grad * result, a mul run with
  // grad mode off) does not.
  const Program p = parse_program(
      "t0=input(shape=[3],dtype=float64,seed=1) requires_grad_(t0) t1=exp(t0) t2=sum(t1) "
      "backward(t2)");
  EXPECT_FALSE(run_program(p).has_value());
  const auto f = run_program(p, faulty());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, "grad");
  EXPECT_EQ(f->stmt, 4);
  EXPECT_NE(f->message.find("grad of t0: element 0 is"), std::string::npos) << f->message;
}

TEST(FuzzMinimize, KeepsOnlyWhatTheFindingNeeds) {
  const Program p = parse_program(
      "t0=input(shape=[4],seed=1) t1=input(shape=[2,3],dtype=int32,seed=5,fill='edge') "
      "t2=exp(t0) t3=t(t1) t4=sum(t2) t5=mul(t3,2) t6=relu(t0)");
  const auto f = run_program(p, faulty());
  ASSERT_TRUE(f.has_value());
  const Program small = minimize(p, *f, faulty());
  EXPECT_EQ(to_string(small), "t0=input(shape=[2,3],dtype=int32) t1=t(t0) t2=mul(t1,2)");
}

// ---- comparisons ----

TEST(FuzzCompare, IntegersExactFloatsWithinToleranceNaNAndInfinitiesInPlace) {
  const auto t = [](std::vector<double> v, ScalarType dt) {
    return ts::tensor(ArrayRef<double>(v), kDouble).to(dt);
  };
  const double nan = std::nan(""), inf = INFINITY;
  const Tolerance f32 = dtype_tolerance(kFloat);
  EXPECT_FALSE(compare_values(t({1, nan, inf}, kFloat), t({1, nan, inf}, kFloat), f32));
  EXPECT_TRUE(compare_values(t({1, 2, inf}, kFloat), t({1, nan, inf}, kFloat), f32));
  EXPECT_TRUE(compare_values(t({1, 2, inf}, kFloat), t({1, 2, -inf}, kFloat), f32));
  EXPECT_FALSE(compare_values(t({100.0001}, kFloat), t({100}, kFloat), f32));
  EXPECT_TRUE(compare_values(t({100.01}, kFloat), t({100}, kFloat), f32));
  EXPECT_TRUE(compare_values(t({5}, kLong), t({4}, kLong), dtype_tolerance(kLong)));
  Tolerance loose = f32;
  loose.nonfinite_ok = true;
  EXPECT_FALSE(compare_values(t({1, inf}, kFloat), t({1, 3}, kFloat), loose));
}

// ---- the generator ----

// Random inputs decode to programs within the bounds, deterministically, and every program
// prints to a line that parses back to the same line (so a finding's line replays it).
TEST(FuzzGenerate, DeterministicBoundedAndReplayable) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300; ++i) {
    std::vector<uint8_t> bytes(1 + rng() % 200);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    Program a, b;
    const auto f = generate_and_run(bytes.data(), bytes.size(), {}, &a);
    EXPECT_FALSE(f.has_value()) << f->kind << ": " << f->message << "\n" << f->line;
    generate_and_run(bytes.data(), bytes.size(), {}, &b);
    const std::string line = to_string(a);
    EXPECT_EQ(line, to_string(b));
    EXPECT_LE(a.stmts.size(), static_cast<size_t>(kMaxStmts)) << line;
    EXPECT_EQ(to_string(parse_program(line)), line);
  }
}

}  // namespace
}  // namespace ts::fuzz
