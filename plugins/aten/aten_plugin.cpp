// The aten kernel set: every kernel op of op_list.def on CPU, computed by libtorch's ATen on
// touchstone's own memory (see README.md). Loaded with ts::load_kernel_set or `--kernels aten`.
#include "aten_wrap.h"

TS_PLUGIN_INIT() {
  ts::aten::install_warning_handler();
  ts::KernelRegistrar m("aten");
  ts::aten::register_copy(m);
  ts::aten::register_factory(m);
  ts::aten::register_unary(m);
  ts::aten::register_binary(m);
  ts::aten::register_ternary(m);
  ts::aten::register_reduce(m);
  ts::aten::register_nn(m);
  ts::aten::register_norm(m);
  ts::aten::register_linalg(m);
  ts::aten::register_index(m);
  ts::aten::register_conv(m);            // convolution (issue 16)
  ts::aten::register_shape(m);           // shape (issue 16)
  ts::aten::register_sort(m);            // sorting and selection (issue 16)
  ts::aten::register_pool(m);            // pooling (issue 16)
  ts::aten::register_interpolate(m);     // interpolation (issue 16)
  ts::aten::register_embedding_bag(m);   // embedding_bag (issue 16)
  ts::aten::register_loss(m);            // losses (issue 16)
  ts::aten::register_advanced_index(m);  // advanced indexing (issue 16)
  ts::aten::register_sorted(m);          // searchsorted, bucketize, unique (issue 16)
}
