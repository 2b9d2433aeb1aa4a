#pragma once
// TS_ASAN is 1 in AddressSanitizer builds, with GCC (__SANITIZE_ADDRESS__) or clang
// (__has_feature), else 0.
#if defined(__SANITIZE_ADDRESS__)
#define TS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_ASAN 1
#endif
#endif
#ifndef TS_ASAN
#define TS_ASAN 0
#endif
