// sin, cos and tan in double for the reference's formulas: glibc's values, reached faster at
// huge float32 arguments (Note [Huge float32 arguments of sin, cos and tan] in trig.cpp).
#pragma once

namespace ts::reference {

double sin_of(double x);
double cos_of(double x);
double tan_of(double x);

}  // namespace ts::reference
