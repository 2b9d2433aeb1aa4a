/* Elementwise functions for one dtype: included by THVector.c with `real` and `Real`. */

int THVector_(cadd)(real* r, const real* a, const real* b, real alpha, long n) {
  long i;
  if (n < 0) return THSetError("THVector_cadd: negative length %ld", n);
  for (i = 0; i < n; i++) r[i] = a[i] + alpha * b[i];
  return TH_OK;
}

int THVector_(csub)(real* r, const real* a, const real* b, real alpha, long n) {
  long i;
  if (n < 0) return THSetError("THVector_csub: negative length %ld", n);
  for (i = 0; i < n; i++) r[i] = a[i] - alpha * b[i];
  return TH_OK;
}

int THVector_(cmul)(real* r, const real* a, const real* b, long n) {
  long i;
  for (i = 0; i < n; i++) r[i] = a[i] * b[i];
  return TH_OK;
}

int THVector_(neg)(real* r, const real* a, long n) {
  long i;
  for (i = 0; i < n; i++) r[i] = -a[i];
  return TH_OK;
}

int THVector_(abs)(real* r, const real* a, long n) {
  long i;
  for (i = 0; i < n; i++) r[i] = th_fabs(a[i]);
  return TH_OK;
}

int THVector_(exp)(real* r, const real* a, long n) {
  long i;
  for (i = 0; i < n; i++) r[i] = th_exp(a[i]);
  return TH_OK;
}

int THVector_(sigmoid)(real* r, const real* a, long n) {
  long i;
  for (i = 0; i < n; i++) r[i] = 1 / (1 + th_exp(-a[i]));
  return TH_OK;
}

/* Note [Legacy tanh]: hand-written from the textbook formula, as old code often was:
 * expm1(2x) / (expm1(2x) + 2). expm1(2x) overflows to inf for large |x| (x > 44 in float), and
 * inf / inf is NaN where tanh is +-1. Kept on purpose: docs/porting.md shows the conformance
 * run catching it and the adapter's fix. (The first form, (exp(2x) - 1) / (exp(2x) + 1),
 * cancelled near 0, 12 ulps at tanh(0.008), and gave +0 for -0: issue 15's ULP budgets
 * caught that, fixed here at its root.) */
int THVector_(tanh)(real* r, const real* a, long n) {
  long i;
  for (i = 0; i < n; i++) {
    real e = th_expm1(2 * a[i]);
    r[i] = e / (e + 2);
  }
  return TH_OK;
}

int THVector_(threshold)(real* r, const real* a, real threshold, real value, long n) {
  long i;
  for (i = 0; i < n; i++) r[i] = a[i] > threshold ? a[i] : value;
  return TH_OK;
}
