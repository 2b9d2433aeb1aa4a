// Printing tensors like PyTorch's repr (torch/_tensor_str.py with the default print options),
// always followed by the dtype and shape: tensor([1., 2.], dtype=float32, shape=[2]).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "touchstone/dispatch_macros.h"
#include "touchstone/tensor.h"

namespace ts {

namespace {

// PyTorch's default print options.
constexpr int64_t kThreshold = 1000;  // summarize tensors with more elements than this
constexpr int64_t kEdgeItems = 3;     // elements kept at each end of a summarized dim
constexpr int64_t kLineWidth = 80;
constexpr int kPrecision = 4;

// printf("%.*f") or ("%.*e"); Python's format() spells finite values the same way.
std::string printf_double(const char* fmt, int precision, double v) {
  char buf[512];  // %.4f of DBL_MAX needs ~315 characters
  std::snprintf(buf, sizeof(buf), fmt, precision, v);
  return buf;
}

// Note [Float format]
// As PyTorch's _Formatter: over the printed values that are finite and nonzero, use integer
// mode ("1.", "-0.") when all are whole numbers, scientific ("1.0000e+08") when max/min > 1000
// or max > 1e8 (or, outside integer mode, min < 1e-4), else fixed with 4 decimals. nan and inf
// print as nan, inf, -inf. Every element is right-aligned to the widest finite one.
class Formatter {
 public:
  Formatter(ScalarType dtype, const std::vector<double>& floats,
            const std::vector<std::string>& others)
      : floating_(is_floating_type(dtype)) {
    if (!floating_) {
      for (const std::string& s : others) width_ = std::max(width_, s.size());
      return;
    }
    double lo = INFINITY, hi = 0;
    bool any = false;
    for (double v : floats) {
      if (!std::isfinite(v) || v == 0) continue;
      any = true;
      lo = std::min(lo, std::abs(v));
      hi = std::max(hi, std::abs(v));
      if (v != std::ceil(v)) int_mode_ = false;
    }
    if (!any) {
      int_mode_ = true;
      return;
    }
    sci_ = hi / lo > 1000.0 || hi > 1.0e8 || (!int_mode_ && lo < 1.0e-4);
    for (double v : floats) {
      if (!std::isfinite(v) || v == 0) continue;
      const size_t w = raw(v).size();
      width_ = std::max(width_, w);
    }
  }

  size_t width() const { return width_; }

  // A non-floating element arrives already spelled (its integer or True/False).
  std::string pad(std::string s) const {
    return s.size() >= width_ ? s : std::string(width_ - s.size(), ' ') + s;
  }
  std::string format(double v) const { return pad(raw(v)); }

 private:
  std::string raw(double v) const {
    if (std::isnan(v)) return "nan";  // printf may spell a negative NaN "-nan"
    if (sci_) return printf_double("%.*e", kPrecision, v);
    if (int_mode_) {
      const std::string s = printf_double("%.*f", 0, v);
      return std::isinf(v) ? s : s + ".";
    }
    return printf_double("%.*f", kPrecision, v);
  }

  bool floating_;
  bool int_mode_ = true;
  bool sci_ = false;
  size_t width_ = 1;
};

class Printer {
 public:
  explicit Printer(const Tensor& t)
      : t_(t),
        base_(static_cast<const char*>(t.data_ptr())),
        itemsize_(static_cast<int64_t>(t.element_size())),
        summarize_(t.numel() > kThreshold) {}

  std::string body() {
    if (t_.numel() == 0) return "[]";
    // The formatter sees exactly the elements that get printed (PyTorch's summarized data).
    std::vector<double> floats;
    std::vector<std::string> others;
    visit(0, 0, [&](int64_t off) {
      if (t_.is_floating_point()) {
        floats.push_back(load_double(off));
      } else {
        others.push_back(spell(off));
      }
    });
    fmt_.emplace(t_.dtype(), floats, others);
    std::string out;
    tensor_str(out, 0, 0, 7);  // indent: the length of "tensor("
    return out;
  }

 private:
  // Indices printed along a dim of size n; -1 marks the "..." of a summarized dim.
  std::vector<int64_t> shown(int64_t n) const {
    std::vector<int64_t> idx;
    if (summarize_ && n > 2 * kEdgeItems) {
      for (int64_t i = 0; i < kEdgeItems; ++i) idx.push_back(i);
      idx.push_back(-1);
      for (int64_t i = n - kEdgeItems; i < n; ++i) idx.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) idx.push_back(i);
    }
    return idx;
  }

  // Calls f(element offset) for every printed element, in order.
  template <typename F>
  void visit(int64_t d, int64_t off, const F& f) const {
    if (d == t_.dim()) return f(off);
    for (int64_t i : shown(t_.sizes()[d])) {
      if (i >= 0) visit(d + 1, off + i * t_.strides()[d], f);
    }
  }

  const char* ptr(int64_t off) const { return base_ + off * itemsize_; }

  double load_double(int64_t off) const {
    return TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(t_.dtype(), "print", [&] {
      const scalar_t v = *reinterpret_cast<const scalar_t*>(ptr(off));
      if constexpr (std::is_same_v<scalar_t, double>) {
        return v;
      } else {
        return static_cast<double>(static_cast<float>(v));
      }
    });
  }

  // Integers and bools; floats go through the formatter.
  std::string spell(int64_t off) const {
    if (t_.dtype() == kBool) {
      // Read the byte: a bool object holding anything but 0 or 1 would be UB.
      return *reinterpret_cast<const uint8_t*>(ptr(off)) != 0 ? "True" : "False";
    }
    return TS_DISPATCH_INTEGRAL_TYPES(t_.dtype(), "print", [&] {
      return std::to_string(static_cast<int64_t>(*reinterpret_cast<const scalar_t*>(ptr(off))));
    });
  }

  std::string element(int64_t off) const {
    return t_.is_floating_point() ? fmt_->format(load_double(off)) : fmt_->pad(spell(off));
  }

  // Mirrors _tensor_str_with_formatter: rows joined by ",", dim-1 newlines and indent+1 spaces.
  void tensor_str(std::string& out, int64_t d, int64_t off, int64_t indent) const {
    const int64_t rest = t_.dim() - d;
    if (rest == 0) {
      out += element(off);
      return;
    }
    const std::vector<int64_t> idx = shown(t_.sizes()[d]);
    const int64_t stride = t_.strides()[d];
    if (rest == 1) {
      // Elements wrap at the line width; " ..." counts as one element.
      const int64_t per_line =
          std::max<int64_t>(1, (kLineWidth - indent) / static_cast<int64_t>(fmt_->width() + 2));
      out += '[';
      for (size_t k = 0; k < idx.size(); ++k) {
        if (k > 0) {
          out +=
              static_cast<int64_t>(k) % per_line == 0 ? ",\n" + std::string(indent + 1, ' ') : ", ";
        }
        out += idx[k] < 0 ? " ..." : element(off + idx[k] * stride);
      }
      out += ']';
      return;
    }
    const std::string sep = "," + std::string(rest - 1, '\n') + std::string(indent + 1, ' ');
    out += '[';
    for (size_t k = 0; k < idx.size(); ++k) {
      if (k > 0) out += sep;
      if (idx[k] < 0) {
        out += "...";
      } else {
        tensor_str(out, d + 1, off + idx[k] * stride, indent + 1);
      }
    }
    out += ']';
  }

  const Tensor& t_;
  const char* base_;
  int64_t itemsize_;
  bool summarize_;
  std::optional<Formatter> fmt_;
};

}  // namespace

std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  if (!t.defined()) return os << "[ Tensor (undefined) ]";
  TS_CHECK(t.is_cpu(), "print: only CPU tensors can be printed, got a tensor on ", t.device());
  std::string s = "tensor(" + Printer(t).body();
  // Suffixes go on the last line unless it would pass the line width (PyTorch's _add_suffixes).
  const size_t nl = s.rfind('\n');
  int64_t line = static_cast<int64_t>(s.size()) -
                 (nl == std::string::npos ? -1 : static_cast<int64_t>(nl)) + 1;
  std::ostringstream shape;
  shape << "shape=" << t.sizes();
  for (const std::string& suffix : {"dtype=" + std::string(dtype_name(t.dtype())), shape.str()}) {
    const int64_t len = static_cast<int64_t>(suffix.size());
    if (line + len + 2 > kLineWidth) {
      s += ",\n" + std::string(7, ' ') + suffix;
      line = 7 + len;
    } else {
      s += ", " + suffix;
      line += len + 2;
    }
  }
  return os << s << ')';
}

std::string to_string(const Tensor& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

}  // namespace ts
