/* Tensor functions for one dtype: included by THTensorMath.c with `real` and `Real`. */

static int THTensor_(isContiguous)(const THTensor* t) {
  long expected = 1;
  int d;
  for (d = t->nDimension - 1; d >= 0; d--) {
    if (t->size[d] != 1 && t->stride[d] != expected) return 0;
    expected *= t->size[d];
  }
  return 1;
}

static long THTensor_(nElement)(const THTensor* t) {
  long n = 1;
  int d;
  for (d = 0; d < t->nDimension; d++) n *= t->size[d];
  return n;
}

int THTensor_(sumall)(const THTensor* t, double* result) {
  long i, n;
  double acc = 0; /* accreal */
  if (!THTensor_(isContiguous)(t)) return THSetError("THTensor_sumall: tensor must be contiguous");
  n = THTensor_(nElement)(t);
  for (i = 0; i < n; i++) acc += t->data[i];
  *result = acc;
  return TH_OK;
}

int THTensor_(sumRows)(real* r, const THTensor* t) {
  long i, j, rows, cols;
  if (t->nDimension != 2)
    return THSetError("THTensor_sumRows: expected 2 dims, got %d", t->nDimension);
  if (!THTensor_(isContiguous)(t)) return THSetError("THTensor_sumRows: tensor must be contiguous");
  rows = t->size[0];
  cols = t->size[1];
  for (i = 0; i < rows; i++) {
    double acc = 0;
    for (j = 0; j < cols; j++) acc += t->data[i * cols + j];
    r[i] = (real)acc;
  }
  return TH_OK;
}

int THTensor_(mm)(THTensor* r, const THTensor* m1, const THTensor* m2) {
  long i, j, k, n, m, p;
  if (m1->nDimension != 2 || m2->nDimension != 2 || r->nDimension != 2)
    return THSetError("THTensor_mm: expected 2-d tensors");
  if (!THTensor_(isContiguous)(m1) || !THTensor_(isContiguous)(m2) || !THTensor_(isContiguous)(r))
    return THSetError("THTensor_mm: tensors must be contiguous");
  n = m1->size[0];
  m = m1->size[1];
  p = m2->size[1];
  if (m2->size[0] != m || r->size[0] != n || r->size[1] != p)
    return THSetError("THTensor_mm: size mismatch (%ldx%ld @ %ldx%ld into %ldx%ld)", n, m,
                      m2->size[0], p, r->size[0], r->size[1]);
  for (i = 0; i < n; i++) {
    for (j = 0; j < p; j++) {
      double acc = 0; /* accreal */
      for (k = 0; k < m; k++) acc += (double)m1->data[i * m + k] * m2->data[k * p + j];
      r->data[i * p + j] = (real)acc;
    }
  }
  return TH_OK;
}
