// The aten plug-in's wrap helpers; see aten_wrap.h.
#include "aten_wrap.h"

#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/from_blob.h>
#include <c10/util/Exception.h>
#include <exception>
#include <iostream>
#include <mutex>
#include <set>
#include <string>

#include "touchstone/parallel.h"

namespace ts::aten {

namespace {

class OncePerLineWarnings final : public c10::WarningHandler {
 public:
  void process(const c10::SourceLocation& where, const std::string& msg, bool) override {
    std::lock_guard<std::mutex> lock(mu_);
    const std::string key = std::string(where.file) + ":" + std::to_string(where.line);
    if (!seen_.insert(key).second) return;
    std::cerr << "aten plug-in: libtorch warning (shown once, " << key << "): " << msg << "\n";
  }

 private:
  std::mutex mu_;
  std::set<std::string> seen_;
};

}  // namespace

void install_warning_handler() {
  static OncePerLineWarnings handler;  // lives as long as the process
  c10::Warning::set_warning_handler(&handler);
}

void sync_threads() {
  const int n = ts::get_num_threads();
  if (at::get_num_threads() != n) at::set_num_threads(n);
}

namespace {

at::IntArrayRef as_int_array(IntArrayRef a) {
  return at::IntArrayRef(a.data(), a.size());
}

}  // namespace

c10::ScalarType to_aten(ScalarType t) {
  switch (t) {
#define TS_CASE(cpp, name, pyname) \
  case ScalarType::name:           \
    return c10::ScalarType::name;
    TS_FORALL_SCALAR_TYPES(TS_CASE)
#undef TS_CASE
    default:
      TS_ERROR("aten: no ATen dtype for ", t);
  }
}

c10::Scalar to_aten(const Scalar& s) {
  if (s.is_bool()) return c10::Scalar(s.to_long() != 0);
  if (s.is_floating_point()) return c10::Scalar(s.to_double());
  return c10::Scalar(s.to_long());
}

// Note [No-copy wrapping]
// from_blob without a deleter: the at::Tensor borrows touchstone's memory for the duration of
// the kernel (touchstone owns it), and its storage is not resizable, so an ATen call that tries
// to grow an output fails instead of reallocating behind touchstone's back.
at::Tensor wrap(const Tensor& t) {
  if (!t.defined()) return at::Tensor();
  TS_CHECK(t.is_cpu(), "aten: the aten kernel set runs on CPU tensors only, got ", t.device());
  at::Tensor r = at::from_blob(t.data_ptr(), as_int_array(t.sizes()), as_int_array(t.strides()),
                               at::TensorOptions().dtype(to_aten(t.dtype())));
  // A 0-dim tensor made from a Scalar promotes as one in ATen too (Note [Three tiers]).
  if (t.impl()->is_wrapped_number() && t.dim() == 0) {
    r.unsafeGetTensorImpl()->set_wrapped_number(true);
  }
  return r;
}

at::Tensor wrap_as(const Tensor& t, ScalarType dtype) {
  at::Tensor r = wrap(t);
  if (!t.defined() || t.dtype() == dtype) return r;
  return r.to(to_aten(dtype));
}

at::Tensor input(const KernelCall& c, size_t i) {
  return wrap_as(c.inputs[i], c.p.compute_dtype);
}

ScalarType result_dtype(const KernelCall& c) {
  const OpSignature sig = op_info(c.op).sig;
  const bool bool_result = sig == OpSignature::UnaryBool || sig == OpSignature::BinaryBool;
  return bool_result ? kBool : c.p.compute_dtype;
}

void write(const KernelCall& c, ScalarType dtype, FunctionRef<void(at::Tensor&)> f, size_t output) {
  const Tensor& out = c.outputs[output];
  at::Tensor o = wrap(out);
  at::Tensor target =
      out.dtype() == dtype ? o : at::empty(o.sizes(), o.options().dtype(to_aten(dtype)));
  void* const data = target.data_ptr();
  f(target);
  TS_CHECK(target.sizes() == o.sizes() && target.data_ptr() == data, "aten ", op_info(c.op).name,
           ": ATen resized the output from ", out.sizes(), " to ",
           IntArrayRef(target.sizes().data(), target.sizes().size()),
           " (a shape disagreement with touchstone's meta)");
  if (!target.is_same(o)) o.copy_(target);
}

[[noreturn]] void rethrow(const KernelCall& c) {
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const c10::Error& e) {
    TS_ERROR("aten ", op_info(c.op).name, ": ", e.what_without_backtrace());
  } catch (const std::exception& e) {
    TS_ERROR("aten ", op_info(c.op).name, ": ", e.what());
  }
}

}  // namespace ts::aten
