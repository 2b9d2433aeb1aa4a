/* The global error string of the legacy library (THGeneral.h). */
#include "THGeneral.h"

#include <stdarg.h>
#include <stdio.h>

static char th_error[256];

const char* THGetError(void) {
  return th_error;
}

int THSetError(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(th_error, sizeof(th_error), fmt, args);
  va_end(args);
  return TH_ERROR;
}
