// Inputs (Note [Text and binary inputs]) and the minimizer of findings.
#include "fuzz/input.h"

#include <string>
#include <string_view>

#include "fuzz/generate.h"

namespace ts::fuzz {
namespace {

bool printable(const uint8_t* data, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    const uint8_t c = data[i];
    if (!(c == '\n' || c == '\r' || c == '\t' || (c >= 32 && c < 127))) return false;
  }
  return size > 0;
}

// The programs of a text input, or nullopt when it is not one.
std::optional<std::vector<Program>> parse_text(const uint8_t* data, size_t size) {
  if (!printable(data, size)) return std::nullopt;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<Program> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    try {
      out.push_back(parse_program(line));
    } catch (const ts::Error&) {
      return std::nullopt;
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// The program without the statements marked in `drop` and those that use their tensors, with
// its slots renumbered.
Program without(const Program& p, std::vector<bool> drop) {
  std::vector<int64_t> renumber;  // old slot -> new slot, -1 when dropped
  Program out;
  int64_t next = 0;
  for (size_t i = 0; i < p.stmts.size(); ++i) {
    const Stmt& s = p.stmts[i];
    const auto dropped = [&](int64_t k) {
      return k >= static_cast<int64_t>(renumber.size()) || renumber[k] < 0;
    };
    for (const Value& v : s.args) {
      if (v.kind == Value::Kind::Slot && dropped(v.i)) drop[i] = true;
      if (v.kind == Value::Kind::Slots) {
        for (int64_t k : v.v) drop[i] = drop[i] || dropped(k);
      }
    }
    for (int k = 0; k < s.num_defs(); ++k) renumber.push_back(drop[i] ? -1 : next++);
    if (drop[i]) continue;
    Stmt n = s;
    for (Value& v : n.args) {
      if (v.kind == Value::Kind::Slot) v.i = renumber[v.i];
      if (v.kind == Value::Kind::Slots) {
        for (int64_t& k : v.v) k = renumber[k];
      }
    }
    out.stmts.push_back(std::move(n));
  }
  return out;
}

Program truncated(Program p, int last) {
  p.stmts.resize(static_cast<size_t>(last) + 1);
  return p;
}

}  // namespace

std::optional<Finding> run_input(const uint8_t* data, size_t size, const RunOptions& options,
                                 std::vector<Program>* programs) {
  if (auto text = parse_text(data, size)) {
    for (const Program& p : *text) {
      if (programs != nullptr) programs->push_back(p);
      if (auto f = run_program(p, options)) return f;
    }
    return std::nullopt;
  }
  Program p;
  auto f = generate_and_run(data, size, options, &p);
  if (programs != nullptr) programs->push_back(std::move(p));
  return f;
}

Program minimize(const Program& program, const Finding& finding, const RunOptions& options) {
  const OpSpec* target = program.stmts.at(static_cast<size_t>(finding.stmt)).spec;
  RunOptions quiet = options;
  quiet.trace = false;
  // The failing statement's index when `p` still fails the same way.
  const auto fails = [&](const Program& p) -> std::optional<int> {
    auto f = run_program(p, quiet);
    if (!f || f->kind != finding.kind || p.stmts[static_cast<size_t>(f->stmt)].spec != target) {
      return std::nullopt;
    }
    return f->stmt;
  };
  Program best = truncated(program, finding.stmt);
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = static_cast<int>(best.stmts.size()) - 1; i >= 0; --i) {
      if (i >= static_cast<int>(best.stmts.size())) continue;
      std::vector<bool> drop(best.stmts.size(), false);
      drop[static_cast<size_t>(i)] = true;
      Program c = without(best, drop);
      if (c.stmts.empty()) continue;
      if (auto at = fails(c)) {
        best = truncated(std::move(c), *at);
        changed = true;
      }
    }
  }
  // Arguments back to their defaults, where the finding stays.
  for (size_t i = 0; i < best.stmts.size(); ++i) {
    for (size_t k = 0; k < best.stmts[i].args.size(); ++k) {
      const Param& p = best.stmts[i].spec->params[k];
      if (!p.default_value || best.stmts[i].args[k] == *p.default_value) continue;
      Program c = best;
      c.stmts[i].args[k] = *p.default_value;
      if (c.stmts[i].num_defs() != best.stmts[i].num_defs()) continue;  // would renumber
      if (auto at = fails(c)) best = truncated(std::move(c), *at);
    }
  }
  return best;
}

}  // namespace ts::fuzz
