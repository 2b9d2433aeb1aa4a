/* A kernel set written in C through touchstone/c_plugin.h (kernel set "c_plugin"): add (with
 * alpha), relu and sum over float32 and float64, as plain strided loops; mul always fails, to
 * test that a C kernel's error reaches the caller. Built with TS_C_PLUGIN_BAD_OP it registers
 * an op that does not exist, which load_kernel_set must refuse; with TS_C_PLUGIN_BAD_PARAMS, elu,
 * whose Scalars the C interface does not carry. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "touchstone/c_plugin.h"

/* One element of any dtype but float16 and bfloat16, as double. */
static int load(const ts_c_tensor* t, const char* p, double* v) {
  switch (t->dtype) {
    case TS_C_BOOL:
      *v = *(const unsigned char*)p != 0;
      return 0;
    case TS_C_UINT8:
      *v = *(const uint8_t*)p;
      return 0;
    case TS_C_INT8:
      *v = *(const int8_t*)p;
      return 0;
    case TS_C_INT16:
      *v = *(const int16_t*)p;
      return 0;
    case TS_C_INT32:
      *v = *(const int32_t*)p;
      return 0;
    case TS_C_INT64:
      *v = (double)*(const int64_t*)p;
      return 0;
    case TS_C_FLOAT32:
      *v = *(const float*)p;
      return 0;
    case TS_C_FLOAT64:
      *v = *(const double*)p;
      return 0;
    default:
      return 1;
  }
}

static size_t element_size(int32_t dtype) {
  static const size_t sizes[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
  return sizes[dtype];
}

/* The address of the element at multi-index idx. */
static char* at(const ts_c_tensor* t, const int64_t* idx) {
  int64_t off = 0;
  for (int32_t d = 0; d < t->dim; ++d) off += idx[d] * t->strides[d];
  return (char*)t->data + off * (int64_t)element_size(t->dtype);
}

/* Advances idx through sizes in row-major order; 0 once every index was visited. */
static int next_index(int64_t* idx, const int64_t* sizes, int32_t dim) {
  for (int32_t d = dim - 1; d >= 0; --d) {
    if (++idx[d] < sizes[d]) return 1;
    idx[d] = 0;
  }
  return 0;
}

static int64_t numel(const ts_c_tensor* t) {
  int64_t n = 1;
  for (int32_t d = 0; d < t->dim; ++d) n *= t->sizes[d];
  return n;
}

/* v rounded to the compute dtype, then stored into the output's dtype. */
static int store(const ts_c_kernel_call* c, char* p, double v) {
  if (c->compute_dtype == TS_C_FLOAT32) v = (float)v;
  if (c->outputs[0].dtype == TS_C_FLOAT32) {
    *(float*)p = (float)v;
  } else if (c->outputs[0].dtype == TS_C_FLOAT64) {
    *(double*)p = v;
  } else {
    return 1;
  }
  return 0;
}

static int fail(char* error, size_t size, const char* what, int32_t dtype) {
  snprintf(error, size, "%s: dtype %d not handled by this C plug-in", what, dtype);
  return 1;
}

/* Elementwise: inputs arrive expanded to the output's shape (stride 0 where broadcast). */
static int elementwise(const ts_c_kernel_call* c, char* error, size_t size) {
  const ts_c_tensor* out = &c->outputs[0];
  int64_t idx[64] = {0};
  if (numel(out) == 0) return 0;
  do {
    double x = 0, y = 0, r;
    if (load(&c->inputs[0], at(&c->inputs[0], idx), &x))
      return fail(error, size, c->op, c->inputs[0].dtype);
    if (c->num_inputs > 1 && load(&c->inputs[1], at(&c->inputs[1], idx), &y))
      return fail(error, size, c->op, c->inputs[1].dtype);
    if (strcmp(c->op, "add") == 0) {
      const double alpha =
          c->params->alpha.is_integral ? (double)c->params->alpha.i : c->params->alpha.d;
      r = x + alpha * y;
    } else {
      r = isnan(x) || !(x < 0) ? x : 0; /* relu: NaN and -0 pass through, as ATen's */
    }
    if (store(c, at(out, idx), r)) return fail(error, size, c->op, out->dtype);
  } while (next_index(idx, out->sizes, out->dim));
  return 0;
}

/* The row-major position of idx within sizes, reduced dims (size 1) counting 0. */
static int64_t linear(const int64_t* idx, const int64_t* sizes, int32_t dim) {
  int64_t li = 0;
  for (int32_t d = 0; d < dim; ++d) li = li * sizes[d] + (sizes[d] == 1 ? 0 : idx[d]);
  return li;
}

/* sum: the output has the input's shape without the reduced dims unless keepdim. It
 * accumulates in double and rounds once (a running float sum fails the summation bound). */
static int sum(const ts_c_kernel_call* c, char* error, size_t size) {
  const ts_c_tensor* in = &c->inputs[0];
  const ts_c_tensor* out = &c->outputs[0];
  int64_t osizes[64], ostrides[64], idx[64] = {0};
  int32_t j = 0;
  for (int32_t d = 0; d < in->dim; ++d) { /* the keepdim view of the output */
    int reduced = 0;
    for (int32_t k = 0; k < c->params->num_dims; ++k) reduced |= c->params->dims[k] == d;
    if (reduced) {
      osizes[d] = 1;
      ostrides[d] = 0;
      if (c->params->keepdim) ++j;
    } else {
      osizes[d] = out->sizes[j];
      ostrides[d] = out->strides[j];
      ++j;
    }
  }
  const ts_c_tensor view = {out->data, out->dtype, in->dim, osizes, ostrides};
  const int64_t n_out = numel(&view);
  double* acc; /* one double accumulator per output element, row-major over the view */
  if (n_out == 0) return 0;
  acc = (double*)calloc((size_t)n_out, sizeof(double));
  if (acc == NULL) {
    snprintf(error, size, "%s: out of memory", c->op);
    return 1;
  }
  if (numel(in) > 0) {
    do { /* the input's elements, each added into its output element's accumulator */
      double x;
      if (load(in, at(in, idx), &x)) {
        free(acc);
        return fail(error, size, c->op, in->dtype);
      }
      acc[linear(idx, osizes, in->dim)] += x;
    } while (next_index(idx, in->sizes, in->dim));
  }
  for (int32_t d = 0; d < in->dim; ++d) idx[d] = 0;
  do { /* each output element rounded once from its double sum */
    if (store(c, at(&view, idx), acc[linear(idx, osizes, in->dim)])) {
      free(acc);
      return fail(error, size, c->op, out->dtype);
    }
  } while (next_index(idx, osizes, in->dim));
  free(acc);
  return 0;
}

static int mul_fails(const ts_c_kernel_call* c, char* error, size_t size) {
  snprintf(error, size, "%s is not implemented here (compute dtype %d)", c->op, c->compute_dtype);
  return 1;
}

int touchstone_c_plugin_abi_version(void) {
  return TS_C_PLUGIN_ABI_VERSION;
}

void touchstone_c_plugin_init(const ts_c_host* host) {
  const uint32_t floats = TS_C_DTYPE_BIT(TS_C_FLOAT32) | TS_C_DTYPE_BIT(TS_C_FLOAT64);
  char error[256];
  host->register_kernel("c_plugin", "add", "cpu", floats, elementwise, error, sizeof(error));
  host->register_kernel("c_plugin", "relu", "cpu", floats, elementwise, error, sizeof(error));
  host->register_kernel("c_plugin", "sum", "cpu", floats, sum, error, sizeof(error));
  host->register_kernel("c_plugin", "mul", "cpu", floats, mul_fails, error, sizeof(error));
  /* ABI 2: abs of int32 is explicitly left to the reference set (Note [Delegation]). */
  host->delegate_kernel("c_plugin", "abs", "cpu", TS_C_DTYPE_BIT(TS_C_INT32), "reference", error,
                        sizeof(error));
#ifdef TS_C_PLUGIN_BAD_OP
  host->register_kernel("c_plugin_bad", "no_such_op", "cpu", floats, mul_fails, error,
                        sizeof(error));
#endif
#ifdef TS_C_PLUGIN_BAD_PARAMS
  host->register_kernel("c_plugin_bad", "elu", "cpu", floats, mul_fails, error, sizeof(error));
#endif
}
