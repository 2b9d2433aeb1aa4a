/* The C plug-in interface: a kernel set written in C, or built by another compiler, registers
 * plain C functions over a C view of tensors. Same contract as C++ kernels (docs/kernels.md):
 * outputs allocated, elementwise inputs expanded, strides in elements, in-place = same data.
 * A C plug-in exports touchstone_c_plugin_abi_version() and touchstone_c_plugin_init(host);
 * load it with --plugin like any plug-in (see tests/plugins/c_plugin.c). */
#ifndef TOUCHSTONE_C_PLUGIN_H_
#define TOUCHSTONE_C_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when a struct below changes layout or a rule changes meaning; fields are only ever
 * appended at the end of ts_c_params within one version. Version 2 appended delegate_kernel to
 * ts_c_host; the host still loads version-1 plug-ins, which never read it. */
#define TS_C_PLUGIN_ABI_VERSION 2

/* touchstone's dtypes, numbered as ts::ScalarType. */
typedef enum ts_c_dtype {
  TS_C_BOOL = 0,
  TS_C_UINT8 = 1,
  TS_C_INT8 = 2,
  TS_C_INT16 = 3,
  TS_C_INT32 = 4,
  TS_C_INT64 = 5,
  TS_C_FLOAT16 = 6,
  TS_C_BFLOAT16 = 7,
  TS_C_FLOAT32 = 8,
  TS_C_FLOAT64 = 9
} ts_c_dtype;
#define TS_C_DTYPE_BIT(d) (UINT32_C(1) << (d))

/* A tensor as a kernel sees it. `data` is the address of element [0, ..., 0] (the storage
 * offset applied); element i of dim d is `strides[d]` elements further. An absent optional
 * input has data NULL and dim -1. */
typedef struct ts_c_tensor {
  void* data;
  int32_t dtype; /* ts_c_dtype */
  int32_t dim;
  const int64_t* sizes;
  const int64_t* strides;
} ts_c_tensor;

/* A Scalar parameter: is_integral says which of the two holds it (bool as integral 0/1). */
typedef struct ts_c_scalar {
  int32_t is_integral;
  int64_t i;
  double d;
} ts_c_scalar;

/* The op's parameters (op_list.def's params column), flattened: the fields its struct has are
 * set, the others zero. Factory params (arange, linspace, random) and the activations' Scalars
 * (leaky_relu, elu, softplus, hardtanh, threshold) are not offered in C: registering such an op
 * fails. */
typedef struct ts_c_params {
  ts_c_scalar alpha;        /* AlphaParams, AddmmParams */
  ts_c_scalar beta;         /* AddmmParams */
  ts_c_scalar value;        /* ValueParams; LerpParams' weight when has_value */
  int32_t has_value;        /* ValueParams, LerpParams with a Scalar weight */
  int32_t rounding_mode;    /* DivParams: 0 none, 1 trunc, 2 floor */
  int32_t approximate;      /* GeluParams: 0 none, 1 tanh */
  int32_t has_min, has_max; /* ClampParams */
  const int64_t* dims;      /* ReduceParams (and Var, Norm), LayerNormParams */
  int32_t num_dims;
  int32_t keepdim;      /* ReduceParams */
  double correction;    /* VarParams */
  double p;             /* NormParams */
  double eps;           /* LayerNormParams */
  int64_t dim;          /* DimParams */
  int64_t reduction;    /* LossParams: 0 none, 1 mean, 2 sum */
  int64_t ignore_index; /* NllLossParams */
  int64_t class_dim;    /* NllLossParams */
  double nan;           /* NanToNumParams (resolved: never None) */
  double posinf;        /* NanToNumParams */
  double neginf;        /* NanToNumParams */
} ts_c_params;

typedef struct ts_c_kernel_call {
  const char* op;        /* the op's name in op_list.def ("add") */
  int32_t compute_dtype; /* the dtype to compute in (the kernel's lookup key) */
  int32_t kind;          /* 0 functional, 1 in-place (outputs[0] is inputs[0]), 2 out= */
  int32_t num_outputs;
  int32_t num_inputs;
  const ts_c_tensor* outputs;
  const ts_c_tensor* inputs;
  const ts_c_params* params;
} ts_c_kernel_call;

/* A kernel returns 0, or nonzero after writing a message into error[0 .. error_size); the host
 * raises it as a ts::Error naming the op and the set. */
typedef int (*ts_c_kernel_fn)(const ts_c_kernel_call* call, char* error, size_t error_size);

/* What the host hands the plug-in's init. register_kernel returns 0, or nonzero (an unknown op
 * or device, a composite op, a factory op) with the reason in error. delegate_kernel (ABI 2)
 * leaves `dtypes` of the op in `set` to the set named `to` (Note [Delegation] in dispatch.h);
 * it fails, as register_kernel does, for an unknown set, or a dtype `to` has no kernel for. */
typedef struct ts_c_host {
  int32_t abi_version;
  int (*register_kernel)(const char* set, const char* op, const char* device, uint32_t dtypes,
                         ts_c_kernel_fn fn, char* error, size_t error_size);
  int (*delegate_kernel)(const char* set, const char* op, const char* device, uint32_t dtypes,
                         const char* to, char* error, size_t error_size);
} ts_c_host;

/* What a C plug-in defines. */
int touchstone_c_plugin_abi_version(void);
void touchstone_c_plugin_init(const ts_c_host* host);

#ifdef __cplusplus
}
#endif

#endif /* TOUCHSTONE_C_PLUGIN_H_ */
