/* Declarations for one dtype: included by TH.h with `real` and `Real` defined. */
typedef struct THTensor {
  real* data;
  int nDimension;
  long size[TH_MAX_DIMS];
  long stride[TH_MAX_DIMS]; /* in elements */
} THTensor;

/* r[i] = a[i] + alpha * b[i], and friends; r may alias a or b. */
int THVector_(cadd)(real* r, const real* a, const real* b, real alpha, long n);
int THVector_(csub)(real* r, const real* a, const real* b, real alpha, long n);
int THVector_(cmul)(real* r, const real* a, const real* b, long n);
int THVector_(neg)(real* r, const real* a, long n);
int THVector_(abs)(real* r, const real* a, long n);
int THVector_(exp)(real* r, const real* a, long n);
int THVector_(sigmoid)(real* r, const real* a, long n);
int THVector_(tanh)(real* r, const real* a, long n);
/* r[i] = a[i] > threshold ? a[i] : value (THNN's Threshold; relu is threshold 0, value 0). */
int THVector_(threshold)(real* r, const real* a, real threshold, real value, long n);

/* The sum of every element of a contiguous tensor, accumulated in double. */
int THTensor_(sumall)(const THTensor* t, double* result);
/* r[i] = sum_j t[i][j] for a contiguous 2-d tensor (rows, cols); r has `rows` elements. */
int THTensor_(sumRows)(real* r, const THTensor* t);
/* r = m1 @ m2 for contiguous 2-d tensors; r (n x p) contiguous and distinct from both. */
int THTensor_(mm)(THTensor* r, const THTensor* m1, const THTensor* m2);
