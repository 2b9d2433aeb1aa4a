#pragma once
// The public API in one include.
#include "touchstone/accessor.h"
#include "touchstone/autograd.h"
#include "touchstone/dispatch.h"
#include "touchstone/ops.h"
#include "touchstone/promotion.h"
#include "touchstone/random.h"
#include "touchstone/tensor.h"
#include "touchstone/version.h"
