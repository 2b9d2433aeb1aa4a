#pragma once
// glibc's vector double functions (libmvec) over arrays: the sweep oracle's double path (Note
// [The vector double path] in oracle.cpp).
#include <cstddef>
#include <string_view>

namespace ts::sweep {

// y[i] = f(x[i]) for i < n, where f is the C library's double function of that name.
using DoubleBatchFn = void (*)(const double* x, double* y, size_t n);
// The libmvec batch of C function `name` (exp, log, sin, ...) for this CPU (AVX-512 or AVX2
// lanes, the tail scalar), or nullptr when libmvec has none or the CPU lacks AVX2.
DoubleBatchFn libmvec_batch(std::string_view name);

}  // namespace ts::sweep
