// The dnnl kernel set: touchstone ops computed by oneDNN (libdnnl 2.6) primitives on touchstone's
// own memory (see README.md). Loaded with --plugin or `--kernels dnnl`.
#include <cstring>
#include <exception>
#include <string>

#include "dnnl_common.h"

namespace ts::dnnl_set {

// Note [Primitive cache]
// Primitives are created per call and not cached here: oneDNN keeps its own primitive cache
// (DNNL_PRIMITIVE_CACHE_CAPACITY, 1024 by default), keyed by the operation descriptor and the
// attributes, so creating an equal primitive again returns the cached one.
dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

dnnl::memory::data_type to_dnnl(ScalarType t) {
  using dt = dnnl::memory::data_type;
  switch (t) {
    case kFloat:
      return dt::f32;
    case kBFloat16:
      return dt::bf16;
    case kHalf:
      return dt::f16;
    case kInt:
      return dt::s32;
    case kChar:
      return dt::s8;
    case kByte:
    case kBool:
      return dt::u8;
    default:
      return dt::undef;
  }
}

dnnl::memory::desc desc(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                        dnnl::memory::data_type dt) {
  if (sizes.empty()) return dnnl::memory::desc({1}, dt, dnnl::memory::dims{1});
  return dnnl::memory::desc(sizes, dt, strides);
}

dnnl::memory::desc desc(const Tensor& t, dnnl::memory::data_type dt) {
  return desc(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()),
              std::vector<int64_t>(t.strides().begin(), t.strides().end()), dt);
}

dnnl::memory::desc desc(const Tensor& t) {
  return desc(t, to_dnnl(t.dtype()));
}

dnnl::memory memory(const dnnl::memory::desc& md, const Tensor& t) {
  return dnnl::memory(md, engine(), t.data_ptr());
}

void check_dtype(const KernelCall& c, const Tensor& t, const char* what) {
  TS_CHECK(to_dnnl(t.dtype()) != dnnl::memory::data_type::undef, "dnnl ", op_info(c.op).name,
           ": oneDNN has no data type for ", t.dtype(), " (", what, ")");
}

Operand operand(const KernelCall& c, size_t i, dnnl::memory::data_type dt, bool squeeze) {
  const Tensor& t = c.inputs[i];
  std::vector<int64_t> sizes(t.sizes().begin(), t.sizes().end());
  const std::vector<int64_t> strides(t.strides().begin(), t.strides().end());
  bool single = true;  // one element seen everywhere (an expanded scalar)
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (strides[d] == 0 && squeeze) sizes[d] = 1;
    single = single && (strides[d] == 0 || sizes[d] == 1);
  }
  const dnnl::memory::data_type from = to_dnnl(t.dtype());
  if (from == dt) return {memory(desc(sizes, strides, dt), t), nullptr};
  if (single && t.numel() > 0) {
    // One converted element, seen with the operand's sizes and every stride 0.
    auto buffer = std::make_shared<std::vector<char>>(8);
    dnnl::memory one(desc({}, {}, dt), engine(), buffer->data());
    if (from != dnnl::memory::data_type::undef) {
      reorder(dnnl::memory(desc({}, {}, from), engine(), t.data_ptr()), one);
    } else {
      fill(one, static_cast<float>(t.as_strided({}, {}).item().to_double()));
    }
    return {dnnl::memory(desc(sizes, std::vector<int64_t>(sizes.size(), 0), dt), engine(),
                         buffer->data()),
            buffer};
  }
  TS_CHECK(from != dnnl::memory::data_type::undef, "dnnl ", op_info(c.op).name,
           ": oneDNN has no data type for ", t.dtype(), " (input ", i, ")");
  const dnnl::memory::desc md = desc(sizes, row_major(sizes), dt);
  auto buffer = std::make_shared<std::vector<char>>(std::max<size_t>(md.get_size(), 1));
  dnnl::memory mem(md, engine(), buffer->data());
  reorder(memory(desc(sizes, strides, from), t), mem);
  return {mem, buffer};
}

std::vector<int64_t> row_major(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t d = sizes.size(); d-- > 1;)
    strides[d - 1] = strides[d] * std::max<int64_t>(sizes[d], 1);
  return strides;
}

std::vector<int64_t> strides_of(const dnnl::memory::desc& md) {
  const auto& s = md.data.format_desc.blocking.strides;
  return std::vector<int64_t>(s, s + md.data.ndims);
}

void execute(const dnnl::primitive& p, const std::unordered_map<int, dnnl::memory>& args) {
  p.execute(stream(), args);
  stream().wait();
}

void reorder(const dnnl::memory& src, const dnnl::memory& dst) {
  execute(dnnl::reorder(src, dst), {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}});
}

void fill(const dnnl::memory& dst, float value) {
  // A one-element source seen with every stride 0 (Note [Descriptors from strides]).
  const dnnl::memory::dims dims = dst.get_desc().dims();
  dnnl::memory src(
      dnnl::memory::desc(dims, dnnl::memory::data_type::f32, dnnl::memory::dims(dims.size(), 0)),
      engine(), &value);
  reorder(src, dst);
}

}  // namespace ts::dnnl_set

TS_PLUGIN_INIT() {
  ts::KernelRegistrar m("dnnl");
  ts::dnnl_set::register_elementwise(m);
  ts::dnnl_set::register_reduce(m);
  ts::dnnl_set::register_matmul(m);
}
