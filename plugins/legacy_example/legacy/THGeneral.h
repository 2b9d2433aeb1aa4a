/* THGeneral.h: the error convention and the per-dtype naming macros of the legacy library.
 * 2015-era TH style: every function returns TH_OK (0) or TH_ERROR (-1) and leaves the reason in
 * a global string that THGetError() returns (not thread-safe, as it was). */
#ifndef TH_GENERAL_H
#define TH_GENERAL_H

#include <stddef.h>

#define TH_OK 0
#define TH_ERROR (-1)

#ifdef __cplusplus
extern "C" {
#endif
const char* THGetError(void);
int THSetError(const char* fmt, ...);
#ifdef __cplusplus
}
#endif

/* THTensor_(add) -> THFloatTensor_add when Real is Float. */
#define TH_CONCAT_4_EXPAND(a, b, c, d) a##b##c##d
#define TH_CONCAT_4(a, b, c, d) TH_CONCAT_4_EXPAND(a, b, c, d)
#define THVector_(NAME) TH_CONCAT_4(TH, Real, Vector_, NAME)
#define THTensor_(NAME) TH_CONCAT_4(TH, Real, Tensor_, NAME)
#define THTensor TH_CONCAT_4(TH, Real, Tensor, )

#endif
