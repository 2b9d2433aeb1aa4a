/* The vector functions, generated per dtype from generic/THVector.c. */
#include <math.h>

#include "TH.h"

#define Real Float
#define real float
#define th_exp expf
#define th_expm1 expm1f
#define th_fabs fabsf
#include "generic/THVector.c"
#undef th_fabs
#undef th_exp
#undef th_expm1
#undef real
#undef Real

#define Real Double
#define real double
#define th_exp exp
#define th_expm1 expm1
#define th_fabs fabs
#include "generic/THVector.c"
#undef th_fabs
#undef th_exp
#undef th_expm1
#undef real
#undef Real
