#pragma once
// TS_DISPATCH_*: run a lambda with `scalar_t` bound to the C++ type of a runtime dtype,
// like ATen's AT_DISPATCH family. NAME is the op, used in the error for an unlisted dtype.
#include "touchstone/dtype.h"
#include "touchstone/error.h"

#define TS_PRIVATE_CASE(enum_name, ctype, ...) \
  case ::ts::ScalarType::enum_name: {          \
    using scalar_t = ctype;                    \
    return __VA_ARGS__();                      \
  }

#define TS_DISPATCH_SWITCH(TYPE, NAME, CASES)                             \
  [&] {                                                                   \
    const ::ts::ScalarType ts_dispatch_type = (TYPE);                     \
    switch (ts_dispatch_type) {                                           \
      CASES                                                               \
      default:                                                            \
        TS_ERROR(NAME, ": not implemented for dtype ", ts_dispatch_type); \
    }                                                                     \
  }()

#define TS_CASES_FLOATING(...)               \
  TS_PRIVATE_CASE(Float, float, __VA_ARGS__) \
  TS_PRIVATE_CASE(Double, double, __VA_ARGS__)
#define TS_CASES_REDUCED(...)                    \
  TS_PRIVATE_CASE(Half, ::ts::Half, __VA_ARGS__) \
  TS_PRIVATE_CASE(BFloat16, ::ts::BFloat16, __VA_ARGS__)
#define TS_CASES_INTEGRAL(...)                 \
  TS_PRIVATE_CASE(Byte, uint8_t, __VA_ARGS__)  \
  TS_PRIVATE_CASE(Char, int8_t, __VA_ARGS__)   \
  TS_PRIVATE_CASE(Short, int16_t, __VA_ARGS__) \
  TS_PRIVATE_CASE(Int, int32_t, __VA_ARGS__)   \
  TS_PRIVATE_CASE(Long, int64_t, __VA_ARGS__)
#define TS_CASES_BOOL(...) TS_PRIVATE_CASE(Bool, bool, __VA_ARGS__)

// The sets with float16 and bfloat16, their cases given as CASES_REDUCED (TS_CASES_REDUCED here;
// the CUDA set binds them to its device types, optimized/cuda/common.cuh).
#define TS_PRIVATE_DISPATCH_FLOATING(CASES_REDUCED, TYPE, NAME, ...) \
  TS_DISPATCH_SWITCH(TYPE, NAME, TS_CASES_FLOATING(__VA_ARGS__) CASES_REDUCED(__VA_ARGS__))
#define TS_PRIVATE_DISPATCH_REAL(CASES_REDUCED, TYPE, NAME, ...)                   \
  TS_DISPATCH_SWITCH(TYPE, NAME,                                                   \
                     TS_CASES_INTEGRAL(__VA_ARGS__) TS_CASES_FLOATING(__VA_ARGS__) \
                         CASES_REDUCED(__VA_ARGS__))
#define TS_PRIVATE_DISPATCH_ALL(CASES_REDUCED, TYPE, NAME, ...)                    \
  TS_DISPATCH_SWITCH(TYPE, NAME,                                                   \
                     TS_CASES_INTEGRAL(__VA_ARGS__) TS_CASES_FLOATING(__VA_ARGS__) \
                         CASES_REDUCED(__VA_ARGS__) TS_CASES_BOOL(__VA_ARGS__))

#define TS_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  TS_DISPATCH_SWITCH(TYPE, NAME, TS_CASES_FLOATING(__VA_ARGS__))
#define TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(TYPE, NAME, ...) \
  TS_PRIVATE_DISPATCH_FLOATING(TS_CASES_REDUCED, TYPE, NAME, __VA_ARGS__)
#define TS_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  TS_DISPATCH_SWITCH(TYPE, NAME, TS_CASES_INTEGRAL(__VA_ARGS__))
#define TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(TYPE, NAME, ...) \
  TS_DISPATCH_SWITCH(TYPE, NAME, TS_CASES_INTEGRAL(__VA_ARGS__) TS_CASES_BOOL(__VA_ARGS__))
#define TS_DISPATCH_ALL_TYPES(TYPE, NAME, ...) \
  TS_DISPATCH_SWITCH(TYPE, NAME, TS_CASES_INTEGRAL(__VA_ARGS__) TS_CASES_FLOATING(__VA_ARGS__))
#define TS_DISPATCH_ALL_TYPES_AND_REDUCED(TYPE, NAME, ...) \
  TS_PRIVATE_DISPATCH_REAL(TS_CASES_REDUCED, TYPE, NAME, __VA_ARGS__)
// Every one of the ten dtypes.
#define TS_DISPATCH_ALL_DTYPES(TYPE, NAME, ...) \
  TS_PRIVATE_DISPATCH_ALL(TS_CASES_REDUCED, TYPE, NAME, __VA_ARGS__)
