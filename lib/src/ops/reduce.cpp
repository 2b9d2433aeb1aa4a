// (to be written)
#include "touchstone/ops.h"
