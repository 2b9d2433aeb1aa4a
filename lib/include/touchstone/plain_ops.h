#pragma once
// Plain elementwise ops: the unary and binary kernel ops without parameters. Their public API,
// meta and kernel-set tables all follow from their op_list.def line.
//
// Note [Generated declarations]
// ops.h and tensor.h declare, and lib/src/ops/{unary,binary}.cpp define, the function, in-place,
// out= and method forms of every plain op by including op_list.def under a TS_OP that expands
// TS_PLAIN_OP(prefix, name, kind, sig, params, variants): prefix##Unary(name, m, i, o) for a
// plain unary op, prefix##Binary(...) for a binary one, prefix##None(...) (empty) for any
// other; m, i, o are Y or N for the method, in-place and out= forms of `variants` (f is always
// there). Ops with parameters (add's alpha, div's rounding mode, gelu, clamp) keep hand-written
// declarations. Macros rather than a generator script: op_list.def is already an X-macro table
// that dispatch.h and the kernel sets include, so the forms come from the same preprocessor pass
// with no build step, no generated files outside the tree (readers, clang-format and grep see
// the source), and no second parser of the op list to keep in step with it.
#include <cstdint>

namespace ts {
// An op's plain arity (TS_PLAIN_ARITY): kernel tables key on it too (touchstone/kernel_family.h).
enum class PlainOp : uint8_t { None, Unary, Binary };
}  // namespace ts

// The probe idiom: TS_PLAIN_<kind>_<sig>_<params> names a macro (expanding to "~, arity") only
// for a plain op; for any other op the name stays one token and the default is taken.
#define TS_PLAIN_Kernel_Unary_NoParams ~, Unary
#define TS_PLAIN_Kernel_UnaryFloat_NoParams ~, Unary
#define TS_PLAIN_Kernel_UnaryBool_NoParams ~, Unary
#define TS_PLAIN_Kernel_Binary_NoParams ~, Binary
#define TS_PLAIN_Kernel_BinaryFloat_NoParams ~, Binary
#define TS_PLAIN_Kernel_BinaryBool_NoParams ~, Binary
// The forms of a plain op's variants (method, in-place, out=); a plain op whose variants have
// no row here fails to compile (too few macro arguments).
#define TS_PLAIN_VARIANTS_fmio Y, Y, Y
#define TS_PLAIN_VARIANTS_fmo Y, N, Y
#define TS_PLAIN_VARIANTS_fio N, Y, Y
#define TS_PLAIN_VARIANTS_fm Y, N, N
#define TS_PLAIN_VARIANTS_fo N, N, Y

#define TS_PP_CAT(a, b) TS_PP_CAT_(a, b)
#define TS_PP_CAT_(a, b) a##b
#define TS_PP_SECOND(...) TS_PP_SECOND_(__VA_ARGS__)
#define TS_PP_SECOND_(a, b, ...) b
#define TS_PP_APPLY(m, ...) m(__VA_ARGS__)
#define TS_PP_IF_Y(...) __VA_ARGS__
#define TS_PP_IF_N(...)

// Unary, Binary or None: a PlainOp enumerator (PlainOp::TS_PLAIN_ARITY(...)).
#define TS_PLAIN_ARITY(kind, sig, params) TS_PP_SECOND(TS_PLAIN_##kind##_##sig##_##params, None, ~)
// prefix##Unary(name, m, i, o), prefix##Binary(name, m, i, o) or prefix##None(...).
#define TS_PLAIN_OP(prefix, name, kind, sig, params, variants)            \
  TS_PP_APPLY(TS_PP_CAT(prefix, TS_PLAIN_ARITY(kind, sig, params)), name, \
              TS_PLAIN_VARIANTS_##variants)
