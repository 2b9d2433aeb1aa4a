// A test plug-in for tests/test_dispatch.cpp. Built twice (tests/CMakeLists.txt):
// - ts_test_plugin: kernel set "test_plugin" whose add (float32, CPU) writes 1234.5 everywhere,
//   a value no real add of the test's inputs produces;
// - ts_test_plugin_bad_abi (TS_TEST_PLUGIN_BAD_ABI): claims another plug-in ABI version, so
//   load_kernel_set must refuse it without running its init.
#include "touchstone/dispatch.h"

#ifdef TS_TEST_PLUGIN_BAD_ABI

extern "C" int touchstone_plugin_abi_version() {
  return TS_PLUGIN_ABI_VERSION + 998;
}
extern "C" void touchstone_plugin_init() {
  ts::register_kernel_set("bad_abi_plugin");
}

#else

namespace {

void marker_add_kernel(const ts::KernelCall& c) {
  const ts::Tensor& out = c.outputs[0];
  float* p = static_cast<float*>(out.data_ptr());  // a functional output: contiguous
  for (int64_t i = 0; i < out.numel(); ++i) p[i] = 1234.5f;
}

}  // namespace

TS_PLUGIN_INIT() {
  ts::KernelRegistrar m("test_plugin");
  m.impl(ts::OpId::add, ts::kCPU, {ts::kFloat}, marker_add_kernel);
}

#endif
