#pragma once
// Op programs for the differential fuzzer: statements over tensor slots, their one-line text
// form (print and parse) and the table of ops they call (fuzz/op_table.cpp).
//
// Note [Program text]
// A program is one line of statements separated by spaces, e.g.
//   t0=input([3,1],float32,seed=7) t1=t(t0) t2=add(t1,t0,alpha=2) add_(t2,1.5) backward(t2,seed=1)
// A statement is `[tA,tB=]op(args)`. Tensor arguments (and a Tensor-or-Scalar argument given
// as a number) are positional and come first; every other argument is `name=value`, left out
// when it has its default. Values: `None`, slots `t3`, ints `-2`, reals `1.5` `nan` `-inf` (a
// real always has a `.`, an exponent or is nan/inf), `true`/`false`, lists `[0,1]`, dtypes by
// PyTorch name (`float32`), strings in single quotes (`'floor'`). Slots are numbered in order
// of definition; a statement that throws defines undefined tensors. The printer writes exactly
// what the parser reads, so a finding's line replays with `fuzz_ops --program 'LINE'`.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "touchstone/touchstone.h"

namespace ts::fuzz {

// The kinds of an op's parameters (the letters of a signature, see OpSpec).
enum class ArgKind : uint8_t {
  Tensor,          // T    a slot
  OptTensor,       // T?   a slot or None
  TensorOrScalar,  // TS   a slot or a number (Tensor-Scalar overloads)
  Tensors,         // TL   a list of slots
  Int,             // I
  OptInt,          // I?
  Ints,            // IL
  OptInts,         // IL?
  Scalar,          // S    int, real or bool
  OptScalar,       // S?
  Real,            // F
  Bool,            // B
  Dtype,           // D
  OptDtype,        // D?
  Str,             // STR
  OptStr,          // STR?
};

// One argument's value.
struct Value {
  enum class Kind : uint8_t { None, Slot, Int, Real, Bool, Ints, Slots, Dtype, Str };
  Kind kind = Kind::None;
  int64_t i = 0;              // Slot, Int, Bool
  double d = 0;               // Real
  std::vector<int64_t> v;     // Ints, Slots
  ScalarType dtype = kFloat;  // Dtype
  std::string s;              // Str

  static Value none() { return {}; }
  static Value slot(int64_t k) { return make(Kind::Slot, k); }
  static Value integer(int64_t x) { return make(Kind::Int, x); }
  static Value boolean(bool b) { return make(Kind::Bool, b); }
  static Value real(double x);
  static Value ints(std::vector<int64_t> x);
  static Value slots(std::vector<int64_t> x);
  static Value of_dtype(ScalarType t);
  static Value str(std::string x);
  static Value scalar(const ts::Scalar& x);
  bool is_none() const { return kind == Kind::None; }
  bool is_number() const { return kind == Kind::Int || kind == Kind::Real || kind == Kind::Bool; }
  ts::Scalar to_scalar() const;
  bool operator==(const Value& o) const;

 private:
  static Value make(Kind k, int64_t x) {
    Value r;
    r.kind = k;
    r.i = x;
    return r;
  }
};

struct Param {
  std::string name;
  ArgKind kind;
  std::optional<Value> default_value;  // absent: required
  bool positional() const {
    return kind == ArgKind::Tensor || kind == ArgKind::OptTensor ||
           kind == ArgKind::TensorOrScalar || kind == ArgKind::Tensors;
  }
};

// A statement's arguments resolved against one kernel set's slots.
class Call {
 public:
  Call(const std::vector<Value>& args, const std::vector<Tensor>& slots)
      : args_(args), slots_(slots) {}
  const Value& arg(size_t k) const { return args_[k]; }
  bool is_tensor(size_t k) const { return args_[k].kind == Value::Kind::Slot; }
  bool is_none(size_t k) const { return args_[k].is_none(); }
  Tensor t(size_t k) const;  // undefined for None or a slot that holds no tensor
  std::vector<Tensor> tensors(size_t k) const;
  int64_t i(size_t k) const { return args_[k].i; }
  std::optional<int64_t> opt_i(size_t k) const;
  const std::vector<int64_t>& ints(size_t k) const { return args_[k].v; }
  ts::Scalar s(size_t k) const { return args_[k].to_scalar(); }
  std::optional<ts::Scalar> opt_s(size_t k) const;
  double d(size_t k) const;
  bool b(size_t k) const { return args_[k].i != 0; }
  ScalarType dtype(size_t k) const { return args_[k].dtype; }
  std::optional<ScalarType> opt_dtype(size_t k) const;
  const std::string& str(size_t k) const { return args_[k].s; }

 private:
  const std::vector<Value>& args_;
  const std::vector<Tensor>& slots_;
};

using Tensors = std::vector<Tensor>;
using ExecFn = std::function<Tensors(const Call&)>;

// How a statement uses its tensors; the runner and the comparison read these.
enum OpFlags : uint32_t {
  kNoFlags = 0,
  kInPlace = 1u << 0,      // writes argument 0 and returns it
  kOut = 1u << 1,          // writes its leading `num_outs` arguments and returns them
  kAccumulates = 1u << 2,  // sums or products of many terms (Note [Fuzz tolerances])
  kRandom = 1u << 3,       // draws from the Philox state: its `seed` argument sets it
  kView = 1u << 4,         // returns views of argument 0
  kNoValues = 1u << 5,     // the fuzzer fills the result itself (empty*): values not compared
  kMeta = 1u << 6,         // fuzzer statements: input, index, requires_grad_, backward
};

struct OpSpec {
  std::string name;
  std::vector<Param> params;
  uint32_t flags = kNoFlags;
  int num_outs = 0;  // kOut: how many leading tensor arguments are written
  int results = 1;   // slots a call defines; -1: two when argument 1 (dim) is given, else one
  ExecFn exec;
  std::string family;  // op_list.def's family, or "view", "autograd", "input"
};

// Every op a program can call, in a fixed order (the generator picks by index).
const std::vector<OpSpec>& op_table();
const OpSpec* find_spec(std::string_view name);

struct Stmt {
  const OpSpec* spec = nullptr;
  std::vector<Value> args;  // one per spec->params
  // The slots it defines (its results, undefined tensors when it throws), numbered after the
  // earlier statements' slots.
  int num_defs() const;
};

struct Program {
  std::vector<Stmt> stmts;
};

// The one-line text form (Note [Program text]); `upto` statements (all when -1).
std::string to_string(const Program& p, int upto = -1);
std::string to_string(const Stmt& s, int first_def);

// Parses the text form; throws ts::Error("fuzz parse: ...") naming the position on bad input.
Program parse_program(std::string_view text);

// "[1,2]", "float32", "'floor'", "2.5", ...: one value as the text form writes it, and back.
std::string value_text(const Value& v);
Value parse_value(std::string_view text, ArgKind kind);

// "self:T other:TS alpha:S=1": parameters with their kinds (ArgKind's letters) and defaults.
std::vector<Param> parse_signature(std::string_view sig);

}  // namespace ts::fuzz
