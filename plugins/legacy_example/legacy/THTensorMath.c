/* The tensor functions, generated per dtype from generic/THTensorMath.c. */
#include "TH.h"

#define TH_GENERIC_FILE "generic/THTensorMath.c"
#include "THGenerateFloatTypes.h"
