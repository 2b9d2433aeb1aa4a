/* The tensor functions, generated per dtype from generic/THTensorMath.c. */
#include "TH.h"

#define Real Float
#define real float
#include "generic/THTensorMath.c"
#undef real
#undef Real

#define Real Double
#define real double
#include "generic/THTensorMath.c"
#undef real
#undef Real
