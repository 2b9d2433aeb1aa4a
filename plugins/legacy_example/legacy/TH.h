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

#define TH_GENERIC_FILE "generic/THTensor.h"
#include "THGenerateFloatTypes.h"

#ifdef __cplusplus
}
#endif

#endif
