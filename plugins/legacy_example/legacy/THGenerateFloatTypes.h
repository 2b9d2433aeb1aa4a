/* Includes TH_GENERIC_FILE once per dtype, with `real` and `Real` defined (TH's own trick). */
#define Real Float
#define real float
#include TH_GENERIC_FILE
#undef real
#undef Real

#define Real Double
#define real double
#include TH_GENERIC_FILE
#undef real
#undef Real

#undef TH_GENERIC_FILE
