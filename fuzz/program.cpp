// Values, calls, and the program text: printer and parser (Note [Program text] in program.h).
#include "fuzz/program.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

namespace ts::fuzz {

Value Value::real(double x) {
  Value r;
  r.kind = Kind::Real;
  r.d = x;
  return r;
}
Value Value::ints(std::vector<int64_t> x) {
  Value r;
  r.kind = Kind::Ints;
  r.v = std::move(x);
  return r;
}
Value Value::slots(std::vector<int64_t> x) {
  Value r;
  r.kind = Kind::Slots;
  r.v = std::move(x);
  return r;
}
Value Value::of_dtype(ScalarType t) {
  Value r;
  r.kind = Kind::Dtype;
  r.dtype = t;
  return r;
}
Value Value::str(std::string x) {
  Value r;
  r.kind = Kind::Str;
  r.s = std::move(x);
  return r;
}
Value Value::scalar(const ts::Scalar& x) {
  if (x.is_bool()) return boolean(x.to_bool());
  if (x.is_floating_point()) return real(x.to_double());
  return integer(x.to_long());
}

ts::Scalar Value::to_scalar() const {
  switch (kind) {
    case Kind::Real:
      return ts::Scalar(d);
    case Kind::Bool:
      return ts::Scalar(i != 0);
    default:
      return ts::Scalar(i);
  }
}

bool Value::operator==(const Value& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::None:
      return true;
    case Kind::Real:
      return std::memcmp(&d, &o.d, sizeof d) == 0;  // NaN == NaN, -0.0 != 0.0
    case Kind::Ints:
    case Kind::Slots:
      return v == o.v;
    case Kind::Dtype:
      return dtype == o.dtype;
    case Kind::Str:
      return s == o.s;
    default:
      return i == o.i;
  }
}

Tensor Call::t(size_t k) const {
  const Value& v = args_[k];
  if (v.kind != Value::Kind::Slot || v.i < 0 || v.i >= static_cast<int64_t>(slots_.size())) {
    return {};
  }
  return slots_[v.i];
}

std::vector<Tensor> Call::tensors(size_t k) const {
  std::vector<Tensor> out;
  for (int64_t s : args_[k].v) {
    out.push_back(s >= 0 && s < static_cast<int64_t>(slots_.size()) ? slots_[s] : Tensor());
  }
  return out;
}

std::optional<int64_t> Call::opt_i(size_t k) const {
  if (args_[k].is_none()) return std::nullopt;
  return args_[k].i;
}

std::optional<ts::Scalar> Call::opt_s(size_t k) const {
  if (args_[k].is_none()) return std::nullopt;
  return args_[k].to_scalar();
}

double Call::d(size_t k) const {
  return args_[k].kind == Value::Kind::Real ? args_[k].d : static_cast<double>(args_[k].i);
}

std::optional<ScalarType> Call::opt_dtype(size_t k) const {
  if (args_[k].is_none()) return std::nullopt;
  return args_[k].dtype;
}

int Stmt::num_defs() const {
  if (spec->results >= 0) return spec->results;
  return args.size() > 1 && !args[1].is_none() ? 2 : 1;
}

// ---- printing ----

namespace {

void append_real(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "nan";
  } else if (std::isinf(d)) {
    out += d < 0 ? "-inf" : "inf";
  } else {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);  // shortest round-trip form
    std::string s(buf, r.ptr);
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    out += s;
  }
}

void append_value(std::string& out, const Value& v) {
  switch (v.kind) {
    case Value::Kind::None:
      out += "None";
      break;
    case Value::Kind::Slot:
      out += "t" + std::to_string(v.i);
      break;
    case Value::Kind::Int:
      out += std::to_string(v.i);
      break;
    case Value::Kind::Real:
      append_real(out, v.d);
      break;
    case Value::Kind::Bool:
      out += v.i ? "true" : "false";
      break;
    case Value::Kind::Ints:
    case Value::Kind::Slots:
      out += "[";
      for (size_t k = 0; k < v.v.size(); ++k) {
        if (k) out += ",";
        if (v.kind == Value::Kind::Slots) out += "t";
        out += std::to_string(v.v[k]);
      }
      out += "]";
      break;
    case Value::Kind::Dtype:
      out += dtype_name(v.dtype);
      break;
    case Value::Kind::Str:
      out += "'" + v.s + "'";
      break;
  }
}

}  // namespace

std::string value_text(const Value& v) {
  std::string s;
  append_value(s, v);
  return s;
}

std::string to_string(const Stmt& s, int first_def) {
  std::string out;
  const int defs = s.num_defs();
  for (int k = 0; k < defs; ++k) {
    out += (k ? ",t" : "t") + std::to_string(first_def + k);
  }
  if (defs > 0) out += "=";
  out += s.spec->name + "(";
  // Positional arguments are left out only at the end, when they have their defaults.
  size_t positional_end = 0;
  for (size_t k = 0; k < s.args.size(); ++k) {
    const Param& p = s.spec->params[k];
    if (p.positional() && !(p.default_value && s.args[k] == *p.default_value))
      positional_end = k + 1;
  }
  bool first = true;
  for (size_t k = 0; k < s.args.size(); ++k) {
    const Param& p = s.spec->params[k];
    if (p.default_value && s.args[k] == *p.default_value &&
        (!p.positional() || k >= positional_end)) {
      continue;
    }
    if (!first) out += ",";
    first = false;
    if (!p.positional()) out += p.name + "=";
    append_value(out, s.args[k]);
  }
  return out + ")";
}

std::string to_string(const Program& p, int upto) {
  std::string out;
  int slot = 0;
  const size_t n = upto < 0 ? p.stmts.size() : std::min<size_t>(upto, p.stmts.size());
  for (size_t k = 0; k < n; ++k) {
    if (k) out += " ";
    out += to_string(p.stmts[k], slot);
    slot += p.stmts[k].num_defs();
  }
  return out;
}

// ---- parsing ----

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Program program() {
    Program p;
    skip_space();
    while (pos_ < s_.size()) {
      p.stmts.push_back(stmt());
      skip_space();
    }
    return p;
  }
  Value single(ArgKind kind) {
    Value v = value(kind);
    if (pos_ != s_.size()) fail("trailing text");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    TS_ERROR("fuzz parse: ", what, " at column ", pos_ + 1, " of '", s_, "'");
  }
  void skip_space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  std::string word() {
    const size_t b = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                s_[pos_] == '_' || s_[pos_] == '.')) {
      ++pos_;
    }
    return std::string(s_.substr(b, pos_ - b));
  }
  // A slot name `tK` defined earlier, as its slot index.
  int64_t slot_ref(const std::string& name) {
    auto it = slots_.find(name);
    if (it == slots_.end()) fail("unknown tensor '" + name + "'");
    return it->second;
  }

  Stmt stmt() {
    // Definitions: `tA,tB=` (looked ahead: a word followed by ',' or '=').
    std::vector<std::string> defs;
    const size_t start = pos_;
    std::string w = word();
    if (pos_ < s_.size() && (s_[pos_] == '=' || s_[pos_] == ',')) {
      defs.push_back(w);
      while (eat(',')) defs.push_back(word());
      expect('=');
      w = word();
    } else if (pos_ < s_.size() && s_[pos_] != '(') {
      pos_ = start;
    }
    const OpSpec* spec = find_spec(w);
    if (spec == nullptr) fail("unknown op '" + w + "'");
    Stmt st;
    st.spec = spec;
    st.args.resize(spec->params.size());
    std::vector<bool> given(spec->params.size(), false);
    expect('(');
    size_t next_positional = 0;
    for (bool first = true; !eat(')'); first = false) {
      if (!first) expect(',');
      // `name=value` or a positional value.
      const size_t save = pos_;
      const std::string key = word();
      size_t k;
      if (!key.empty() && eat('=')) {
        k = 0;
        while (k < spec->params.size() && spec->params[k].name != key) ++k;
        if (k == spec->params.size()) fail("op '" + w + "' has no argument '" + key + "'");
      } else {
        pos_ = save;
        while (next_positional < spec->params.size() &&
               (given[next_positional] || !spec->params[next_positional].positional())) {
          ++next_positional;
        }
        if (next_positional == spec->params.size()) fail("too many positional arguments");
        k = next_positional++;
      }
      if (given[k]) fail("argument '" + spec->params[k].name + "' given twice");
      given[k] = true;
      st.args[k] = value(spec->params[k].kind);
      check_kind(spec->params[k], st.args[k]);
    }
    for (size_t k = 0; k < given.size(); ++k) {
      if (given[k]) continue;
      if (!spec->params[k].default_value) fail("missing argument '" + spec->params[k].name + "'");
      st.args[k] = *spec->params[k].default_value;
    }
    const int n = st.num_defs();
    if (static_cast<int>(defs.size()) != n) {
      fail("'" + w + "' defines " + std::to_string(n) + " tensors, the statement names " +
           std::to_string(defs.size()));
    }
    for (const std::string& d : defs) {
      if (d.size() < 2 || d[0] != 't') fail("a tensor name is t<number>, got '" + d + "'");
      slots_[d] = next_slot_++;
    }
    return st;
  }

  // Whether a value fits its parameter's kind (a number where a tensor goes, say).
  void check_kind(const Param& p, const Value& v) {
    using K = Value::Kind;
    bool ok = true;
    switch (p.kind) {
      case ArgKind::Tensor:
        ok = v.kind == K::Slot;
        break;
      case ArgKind::OptTensor:
        ok = v.kind == K::Slot || v.is_none();
        break;
      case ArgKind::TensorOrScalar:
        ok = v.kind == K::Slot || v.is_number();
        break;
      case ArgKind::Tensors:
        ok = v.kind == K::Slots || (v.kind == K::Ints && v.v.empty());
        break;
      case ArgKind::Int:
        ok = v.kind == K::Int;
        break;
      case ArgKind::Ints:
        ok = v.kind == K::Ints;
        break;
      case ArgKind::Scalar:
        ok = v.is_number();
        break;
      case ArgKind::Real:
        ok = v.kind == K::Real || v.kind == K::Int;
        break;
      case ArgKind::Bool:
        ok = v.kind == K::Bool;
        break;
      case ArgKind::Dtype:
        ok = v.kind == K::Dtype;
        break;
      case ArgKind::Str:
        ok = v.kind == K::Str;
        break;
      case ArgKind::OptInt:
        ok = v.kind == K::Int || v.is_none();
        break;
      case ArgKind::OptInts:
        ok = v.kind == K::Ints || v.is_none();
        break;
      case ArgKind::OptScalar:
        ok = v.is_number() || v.is_none();
        break;
      case ArgKind::OptDtype:
        ok = v.kind == K::Dtype || v.is_none();
        break;
      case ArgKind::OptStr:
        ok = v.kind == K::Str || v.is_none();
        break;
    }
    if (!ok) fail("'" + value_text(v) + "' does not fit argument '" + p.name + "'");
  }

  Value number() {
    const size_t b = pos_;
    if (!eat('-')) eat('+');
    const std::string w = word();
    const std::string text(s_.substr(b, pos_ - b));
    if (w == "nan") return Value::real(std::numeric_limits<double>::quiet_NaN());
    if (w == "inf") return Value::real(s_[b] == '-' ? -INFINITY : INFINITY);
    // Exponents may carry a sign: 1e-05.
    if (!w.empty() && (w.back() == 'e' || w.back() == 'E') && pos_ < s_.size() &&
        (s_[pos_] == '-' || s_[pos_] == '+')) {
      ++pos_;
      word();
    }
    const std::string num(s_.substr(b, pos_ - b));
    const bool is_real = num.find_first_of(".eE") != std::string::npos;
    const char* first = num.data() + (num[0] == '+' ? 1 : 0);
    if (is_real) {
      double d = 0;
      const auto r = std::from_chars(first, num.data() + num.size(), d);
      if (r.ec != std::errc() || r.ptr != num.data() + num.size()) fail("bad number '" + num + "'");
      return Value::real(d);
    }
    int64_t i = 0;
    const auto r = std::from_chars(first, num.data() + num.size(), i);
    if (r.ec != std::errc() || r.ptr != num.data() + num.size()) fail("bad integer '" + text + "'");
    return Value::integer(i);
  }

  Value value(ArgKind kind) {
    if (pos_ >= s_.size()) fail("expected a value");
    const char c = s_[pos_];
    if (c == '\'') {
      ++pos_;
      const size_t b = pos_;
      while (pos_ < s_.size() && s_[pos_] != '\'') ++pos_;
      if (pos_ == s_.size()) fail("unterminated string");
      return Value::str(std::string(s_.substr(b, pos_++ - b)));
    }
    if (c == '[') {
      ++pos_;
      std::vector<int64_t> items;
      const bool slots = kind == ArgKind::Tensors;
      while (!eat(']')) {
        if (!items.empty()) expect(',');
        if (slots) {
          items.push_back(slot_ref(word()));
        } else {
          const Value v = number();
          if (v.kind != Value::Kind::Int) fail("expected an integer in the list");
          items.push_back(v.i);
        }
      }
      return slots ? Value::slots(std::move(items)) : Value::ints(std::move(items));
    }
    if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) return number();
    const size_t save = pos_;
    const std::string w = word();
    if (w == "None") return Value::none();
    if (w == "true" || w == "false") return Value::boolean(w == "true");
    if (w == "nan" || w == "inf") {
      pos_ = save;
      return number();
    }
    if (kind == ArgKind::Dtype || kind == ArgKind::OptDtype) {
      try {
        return Value::of_dtype(parse_dtype(w));
      } catch (const ts::Error&) {
        fail("unknown dtype '" + w + "'");
      }
    }
    if (w.size() >= 2 && w[0] == 't') return Value::slot(slot_ref(w));
    fail("unexpected '" + w + "'");
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::map<std::string, int64_t> slots_;
  int64_t next_slot_ = 0;
};

}  // namespace

Program parse_program(std::string_view text) {
  return Parser(text).program();
}

Value parse_value(std::string_view text, ArgKind kind) {
  return Parser(text).single(kind);
}

std::vector<Param> parse_signature(std::string_view sig) {
  static const std::map<std::string, ArgKind, std::less<>> kinds = {
      {"T", ArgKind::Tensor},     {"T?", ArgKind::OptTensor}, {"TS", ArgKind::TensorOrScalar},
      {"TL", ArgKind::Tensors},   {"I", ArgKind::Int},        {"I?", ArgKind::OptInt},
      {"IL", ArgKind::Ints},      {"IL?", ArgKind::OptInts},  {"S", ArgKind::Scalar},
      {"S?", ArgKind::OptScalar}, {"F", ArgKind::Real},       {"B", ArgKind::Bool},
      {"D", ArgKind::Dtype},      {"D?", ArgKind::OptDtype},  {"STR", ArgKind::Str},
      {"STR?", ArgKind::OptStr}};
  std::vector<Param> params;
  size_t pos = 0;
  while (pos < sig.size()) {
    size_t end = sig.find(' ', pos);
    if (end == std::string_view::npos) end = sig.size();
    const std::string_view item = sig.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    const size_t colon = item.find(':'), eq = item.find('=');
    TS_CHECK(colon != std::string_view::npos, "fuzz signature: no kind in '", item, "'");
    Param p;
    p.name = std::string(item.substr(0, colon));
    const std::string_view kind = item.substr(
        colon + 1, eq == std::string_view::npos ? std::string_view::npos : eq - colon - 1);
    auto it = kinds.find(kind);
    TS_CHECK(it != kinds.end(), "fuzz signature: unknown kind '", kind, "'");
    p.kind = it->second;
    if (eq != std::string_view::npos) p.default_value = parse_value(item.substr(eq + 1), p.kind);
    params.push_back(std::move(p));
  }
  return params;
}

}  // namespace ts::fuzz
