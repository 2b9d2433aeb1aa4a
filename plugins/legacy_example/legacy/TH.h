/* TH.h: a small TH-style kernel library (float and double only, contiguous memory only).
 * Vector functions take raw pointers and a length; tensor functions take a THTensor, whose
 * data must be contiguous (the functions check and return TH_ERROR otherwise). */
#ifndef TH_H
#define TH_H

#include "THGeneral.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TH_MAX_DIMS 8

#define Real Float
#define real float
#include "generic/THTensor.h"
#undef real
#undef Real

#define Real Double
#define real double
#include "generic/THTensor.h"
#undef real
#undef Real

#ifdef __cplusplus
}
#endif

#endif
