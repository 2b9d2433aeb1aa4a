// The touchstone command line: main() and `touchstone ops`; other subcommands live in their own
// files (command.h).
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "command.h"
#include "touchstone/environment.h"
#include "touchstone/touchstone.h"

namespace ts::tools {
namespace {

std::vector<std::string> variant_names(std::string_view letters) {
  std::vector<std::string> out;
  for (char c : letters) {
    switch (c) {
      case 'f':
        out.emplace_back("function");
        break;
      case 'm':
        out.emplace_back("method");
        break;
      case 'i':
        out.emplace_back("inplace");
        break;
      case 'o':
        out.emplace_back("out");
        break;
      default:
        break;
    }
  }
  return out;
}

std::vector<std::string> dtype_names(ts::DTypeSet s) {
  std::vector<std::string> out;
  for (int i = 0; i < ts::kNumScalarTypes; ++i) {
    if (s.has(static_cast<ts::ScalarType>(i))) {
      out.emplace_back(ts::dtype_name(static_cast<ts::ScalarType>(i)));
    }
  }
  return out;
}

// The set(s) a delegated (op, dtype) runs in (Note [Delegation]): a composite's parts may name
// several, joined with '+'.
std::string delegate_names(const ts::OpInfo& op, ts::DeviceType dev, ts::KernelSetId set,
                           ts::ScalarType dt) {
  std::vector<ts::OpId> ops = {op.id};
  for (ts::OpId part : ts::composite_parts(op.id)) ops.push_back(part);
  std::string names;
  for (ts::OpId o : ops) {
    const std::optional<ts::KernelSetId> to = ts::kernel_delegate(o, dev, set, dt);
    if (!to) continue;
    const std::string name(ts::kernel_set_name(*to));
    if (("+" + names + "+").find("+" + name + "+") == std::string::npos) {
      names += (names.empty() ? "" : "+") + name;
    }
  }
  return names;
}

// {"kernel_sets": {set -> {device -> [own dtypes]}}, "delegated": {set -> {device -> {dtype ->
// set it runs in}}}} for every set with at least one dtype on a device.
std::pair<nlohmann::json, nlohmann::json> kernel_sets_json(const ts::OpInfo& op) {
  nlohmann::json sets = nlohmann::json::object(), delegated = nlohmann::json::object();
  for (const std::string& name : ts::kernel_set_names()) {
    const ts::KernelSetId id = *ts::find_kernel_set(name);
    nlohmann::json devices = nlohmann::json::object(), handed = nlohmann::json::object();
    for (ts::DeviceType dev : {ts::kCPU, ts::kCUDA}) {
      // A composite runs where its parts run; pure allocations (no parts) run on CPU.
      const bool has_parts = !ts::composite_parts(op.id).empty();
      if (op.kind == ts::OpKind::Composite && !has_parts && dev != ts::kCPU) continue;
      const ts::DTypeSet s = ts::supported_dtypes(op.id, dev, id);
      const ts::DTypeSet d = ts::delegated_dtypes(op.id, dev, id);
      const std::string dev_name(ts::device_type_name(dev));
      const ts::DTypeSet own = ts::DTypeSet::from_bits(s.bits() & ~d.bits());
      if (!own.empty()) devices[dev_name] = dtype_names(own);
      for (const std::string& dt : dtype_names(d)) {
        handed[dev_name][dt] = delegate_names(op, dev, id, ts::parse_dtype(dt));
      }
    }
    if (!devices.empty()) sets[name] = devices;
    if (!handed.empty()) delegated[name] = handed;
  }
  return {sets, delegated};
}

nlohmann::json ops_json() {
  nlohmann::json arr = nlohmann::json::array();
  for (const ts::OpInfo& op : ts::all_ops()) {
    auto [sets, delegated] = kernel_sets_json(op);
    arr.push_back({{"name", op.name},
                   {"kind", op.kind == ts::OpKind::Kernel ? "kernel" : "composite"},
                   {"schema", op.schema},
                   {"variants", variant_names(op.variants)},
                   {"differentiable", op.differentiable},
                   {"kernel_sets", sets}});
    if (!delegated.empty()) arr.back()["delegated"] = delegated;
  }
  return arr;
}

std::string short_dtypes(const nlohmann::json& list) {
  if (list.size() == static_cast<size_t>(ts::kNumScalarTypes)) return "all";
  std::string s;
  for (const auto& d : list) s += (s.empty() ? "" : ",") + d.get<std::string>();
  return s;
}

void print_ops_table(const nlohmann::json& ops) {
  size_t width = 15;  // the longest name and a space: scaled_dot_product_attention needs 30
  for (const auto& op : ops) width = std::max(width, op["name"].get<std::string>().size() + 1);
  const int w = static_cast<int>(width);
  std::cout << std::left << std::setw(w) << "op" << std::setw(10) << "kind" << std::setw(30)
            << "variants" << std::setw(6) << "grad"
            << "kernel sets (device: dtypes)\n";
  for (const auto& op : ops) {
    std::string variants;
    for (const auto& v : op["variants"])
      variants += (variants.empty() ? "" : ",") + v.get<std::string>();
    std::string sets;
    for (const auto& [set, devices] : op["kernel_sets"].items()) {
      for (const auto& [dev, dtypes] : devices.items()) {
        sets += (sets.empty() ? "" : "; ") + set + " " + dev + ": " + short_dtypes(dtypes);
      }
    }
    // Delegated cells, grouped by the set they run in: "legacy cpu: int32,int64 -> optimized".
    const nlohmann::json delegated = op.value("delegated", nlohmann::json::object());
    for (const auto& [set, devices] : delegated.items()) {
      for (const auto& [dev, cells] : devices.items()) {
        std::map<std::string, std::string> by_target;
        for (const std::string& dt : dtype_names(ts::DTypeSet::all())) {  // in dtype order
          if (!cells.contains(dt)) continue;
          std::string& list = by_target[cells[dt].get<std::string>()];
          list += (list.empty() ? "" : ",") + dt;
        }
        for (const auto& [target, list] : by_target) {
          sets += (sets.empty() ? "" : "; ") + set + " " + dev + ": " + list + " -> " + target;
        }
      }
    }
    std::cout << std::setw(w) << op["name"].get<std::string>() << std::setw(10)
              << op["kind"].get<std::string>() << std::setw(30) << variants << std::setw(6)
              << (op["differentiable"].get<bool>() ? "yes" : "no") << (sets.empty() ? "-" : sets)
              << "\n";
  }
  std::cout << ops.size() << " ops\n";
}

}  // namespace

Command add_ops_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("ops", "List the ops, their variants and the kernel sets that run them");
  cmd->footer(
      "Exit status: 0 the list was printed; 2 a usage error (a bad flag, a plug-in that does not "
      "load).");
  struct Args {
    bool json = false;
    std::vector<std::string> plugins;
  };
  auto a = std::make_shared<Args>();
  cmd->add_flag("--json", a->json, "Print a JSON array instead of a table");
  cmd->add_option("--plugin", a->plugins,
                  "Load a kernel-set plug-in first, so its set shows (repeatable)");
  return {cmd, [a] {
            load_kernel_sets(a->plugins, {});
            const nlohmann::json j = ops_json();
            if (a->json) {
              std::cout << j.dump(2) << "\n";
            } else {
              print_ops_table(j);
            }
            return 0;
          }};
}

}  // namespace ts::tools

int main(int argc, char** argv) {
  CLI::App app{"touchstone: a tensor library that is a conformance and benchmark harness"};
  app.set_version_flag("--version", std::string("touchstone ") + ts::kVersion);
  app.require_subcommand(0, 1);
  using namespace ts::tools;
  std::vector<Command> commands = {add_ops_command(app), add_selfcheck_command(app),
                                   add_conform_command(app), add_merge_command(app)};
#ifdef TS_HAVE_PERF
  commands.push_back(add_bench_command(app));
#endif
  commands.push_back(add_compare_command(app));
  commands.push_back(add_sweep_command(app));
#ifdef TS_HAVE_PERF
  commands.push_back(add_env_command(app));
#endif
  // Note [Exit codes]: 0 success, 1 the run found a problem, 2 a usage or I/O error; CLI11's own
  // parse errors (unknown flag, bad value) are usage errors too, whatever code CLI11 gives them.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    for (const Command& c : commands) {
      if (!*c.app) continue;
      // A run under a bad TOUCHSTONE_* setting would not measure what the user asked for;
      // `env` still runs and shows the problem (Note [Environment errors]).
      const std::vector<std::string> env_errors = ts::environment_errors();
      if (!env_errors.empty() && c.app->get_name() != "env") {
        std::cerr << "touchstone: refusing to run '" << c.app->get_name() << "' with "
                  << env_errors.size()
                  << " invalid environment setting(s), listed above; fix or unset them\n";
        return 2;
      }
      return c.run();
    }
    std::cout << app.help();
  } catch (const ts::Error& e) {
    std::cerr << "touchstone: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
