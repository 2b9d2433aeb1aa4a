// The validator walks schema and instance together, collecting errors with JSON pointers.
#include "reports/json_schema.h"

#include <cmath>
#include <regex>

#include "touchstone/error.h"

namespace ts::reports {
namespace {

using nlohmann::json;

class Validator {
 public:
  explicit Validator(const json& root) : root_(root) {}

  void check(const json& schema, const json& x, const std::string& at) {
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) fail(at, "no value is allowed here");
      return;
    }
    if (auto ref = schema.find("$ref"); ref != schema.end()) {
      check(resolve(ref->get<std::string>()), x, at);
    }
    if (auto t = schema.find("type"); t != schema.end() && !type_matches(*t, x)) {
      fail(at, "expected type " + t->dump() + ", got " + type_name(x));
      return;
    }
    if (auto c = schema.find("const"); c != schema.end() && *c != x) {
      fail(at, "expected " + c->dump() + ", got " + x.dump());
    }
    if (auto e = schema.find("enum"); e != schema.end()) {
      bool found = false;
      for (const json& v : *e) found = found || v == x;
      if (!found) fail(at, x.dump() + " is not one of " + e->dump());
    }
    if (x.is_number()) check_number(schema, x.get<double>(), at);
    if (x.is_string()) check_string(schema, x.get<std::string>(), at);
    if (x.is_array()) check_array(schema, x, at);
    if (x.is_object()) check_object(schema, x, at);
    if (auto cond = schema.find("if"); cond != schema.end()) {
      Validator probe(root_);
      probe.check(*cond, x, at);
      const char* branch = probe.errors.empty() ? "then" : "else";
      if (auto b = schema.find(branch); b != schema.end()) check(*b, x, at);
    }
  }

  std::vector<std::string> errors;

 private:
  void fail(const std::string& at, const std::string& msg) {
    errors.push_back((at.empty() ? "/" : at) + ": " + msg);
  }

  const json& resolve(const std::string& ref) {
    const std::string prefix = "#/$defs/";
    TS_CHECK(ref.rfind(prefix, 0) == 0, "validate_json: unsupported $ref '", ref, "'");
    const auto defs = root_.find("$defs");
    TS_CHECK(defs != root_.end() && defs->contains(ref.substr(prefix.size())),
             "validate_json: $ref '", ref, "' names no definition");
    return (*defs)[ref.substr(prefix.size())];
  }

  static std::string type_name(const json& x) {
    if (x.is_null()) return "null";
    if (x.is_boolean()) return "boolean";
    if (x.is_number_integer()) return "integer";
    if (x.is_number()) return "number";
    if (x.is_string()) return "string";
    if (x.is_array()) return "array";
    return "object";
  }

  static bool one_type(const std::string& t, const json& x) {
    if (t == "number") return x.is_number();
    // 3.0 is an integer in JSON Schema; so is any float without a fractional part.
    if (t == "integer") {
      return x.is_number_integer() || (x.is_number_float() && std::isfinite(x.get<double>()) &&
                                       std::floor(x.get<double>()) == x.get<double>());
    }
    return type_name(x) == t;
  }

  static bool type_matches(const json& t, const json& x) {
    if (t.is_string()) return one_type(t.get<std::string>(), x);
    for (const json& one : t) {
      if (one_type(one.get<std::string>(), x)) return true;
    }
    return false;
  }

  void check_number(const json& s, double v, const std::string& at) {
    if (auto m = s.find("minimum"); m != s.end() && v < m->get<double>()) {
      fail(at, std::to_string(v) + " < minimum " + m->dump());
    }
    if (auto m = s.find("exclusiveMinimum"); m != s.end() && v <= m->get<double>()) {
      fail(at, std::to_string(v) + " <= exclusiveMinimum " + m->dump());
    }
    if (auto m = s.find("maximum"); m != s.end() && v > m->get<double>()) {
      fail(at, std::to_string(v) + " > maximum " + m->dump());
    }
  }

  void check_string(const json& s, const std::string& v, const std::string& at) {
    if (auto m = s.find("minLength"); m != s.end() && v.size() < m->get<size_t>()) {
      fail(at, "string shorter than " + m->dump());
    }
    if (auto p = s.find("pattern"); p != s.end()) {
      if (!std::regex_search(v, std::regex(p->get<std::string>()))) {
        fail(at, "\"" + v + "\" does not match " + p->dump());
      }
    }
  }

  void check_array(const json& s, const json& x, const std::string& at) {
    if (auto m = s.find("minItems"); m != s.end() && x.size() < m->get<size_t>()) {
      fail(at, "fewer than " + m->dump() + " items");
    }
    if (auto items = s.find("items"); items != s.end()) {
      for (size_t i = 0; i < x.size(); ++i) check(*items, x[i], at + "/" + std::to_string(i));
    }
  }

  void check_object(const json& s, const json& x, const std::string& at) {
    if (auto req = s.find("required"); req != s.end()) {
      for (const json& k : *req) {
        if (!x.contains(k.get<std::string>())) fail(at, "missing required member " + k.dump());
      }
    }
    const auto props = s.find("properties");
    const auto extra = s.find("additionalProperties");
    for (const auto& [k, v] : x.items()) {
      if (props != s.end() && props->contains(k)) {
        check((*props)[k], v, at + "/" + k);
      } else if (extra != s.end() && extra->is_boolean() && !extra->get<bool>()) {
        fail(at, "unexpected member \"" + k + "\"");
      } else if (extra != s.end()) {
        check(*extra, v, at + "/" + k);
      }
    }
  }

  const json& root_;
};

}  // namespace

std::vector<std::string> validate_json(const nlohmann::json& schema,
                                       const nlohmann::json& instance) {
  Validator v(schema);
  v.check(schema, instance, "");
  return std::move(v.errors);
}

}  // namespace ts::reports
