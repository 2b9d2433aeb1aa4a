// The touchstone command line: --version, ops, selfcheck, conform (bench, compare, env later).
#include <CLI/CLI.hpp>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "conform.h"
#include "selfcheck.h"
#include "touchstone/touchstone.h"

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

// {set -> {device -> [dtypes]}} for every set with at least one dtype on a device.
nlohmann::json kernel_sets_json(const ts::OpInfo& op) {
  nlohmann::json sets = nlohmann::json::object();
  for (const std::string& name : ts::kernel_set_names()) {
    const ts::KernelSetId id = *ts::find_kernel_set(name);
    nlohmann::json devices = nlohmann::json::object();
    for (ts::DeviceType dev : {ts::kCPU, ts::kCUDA}) {
      // A composite runs where its parts run; pure allocations (no parts) run on CPU.
      const bool has_parts = !ts::composite_parts(op.id).empty();
      if (op.kind == ts::OpKind::Composite && !has_parts && dev != ts::kCPU) continue;
      const ts::DTypeSet s = ts::supported_dtypes(op.id, dev, id);
      if (!s.empty()) devices[std::string(ts::device_type_name(dev))] = dtype_names(s);
    }
    if (!devices.empty()) sets[name] = devices;
  }
  return sets;
}

nlohmann::json ops_json() {
  nlohmann::json arr = nlohmann::json::array();
  for (const ts::OpInfo& op : ts::all_ops()) {
    arr.push_back({{"name", op.name},
                   {"kind", op.kind == ts::OpKind::Kernel ? "kernel" : "composite"},
                   {"schema", op.schema},
                   {"variants", variant_names(op.variants)},
                   {"differentiable", op.differentiable},
                   {"kernel_sets", kernel_sets_json(op)}});
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
  std::cout << std::left << std::setw(15) << "op" << std::setw(10) << "kind" << std::setw(30)
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
    std::cout << std::setw(15) << op["name"].get<std::string>() << std::setw(10)
              << op["kind"].get<std::string>() << std::setw(30) << variants << std::setw(6)
              << (op["differentiable"].get<bool>() ? "yes" : "no") << (sets.empty() ? "-" : sets)
              << "\n";
  }
  std::cout << ops.size() << " ops\n";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"touchstone: a tensor library that is a conformance and benchmark harness"};
  app.set_version_flag("--version", std::string("touchstone ") + ts::kVersion);
  app.require_subcommand(0, 1);

  bool json = false;
  auto* ops =
      app.add_subcommand("ops", "List the ops, their variants and the kernel sets that run them");
  ops->add_flag("--json", json, "Print a JSON array instead of a table");

  auto* selfcheck = app.add_subcommand(
      "selfcheck", "Check the reference kernel set against hand-computed known answers");
  bool verbose = false;
  selfcheck->add_flag("-v,--verbose", verbose, "Print every case");

  auto* conform = app.add_subcommand(
      "conform", "Check a kernel set against the reference set over the conformance catalog");
  ts::conformance::RunOptions conform_options;
  std::string dtype_list;
  conform->add_option("--kernels", conform_options.kernel_set, "Kernel set to check")
      ->capture_default_str();
  conform->add_option("--ops", conform_options.ops,
                      "Ops to run: comma-separated names, substrings or globs");
  conform->add_option("--dtypes", dtype_list, "Comma-separated dtypes (default: every dtype)");
  conform->add_option("--case", conform_options.case_filter, "Only the case SAMPLE/LAYOUT");
  conform->add_option("--report", conform_options.report_path, "Write a JSON report to FILE");

  CLI11_PARSE(app, argc, argv);
  try {
    if (*conform) {
      std::stringstream ss(dtype_list);
      for (std::string d; std::getline(ss, d, ',');) {
        if (!d.empty()) conform_options.dtypes.push_back(ts::parse_dtype(d));
      }
      return ts::tools::run_conform(conform_options);
    }
    if (*ops) {
      const nlohmann::json j = ops_json();
      if (json) {
        std::cout << j.dump(2) << "\n";
      } else {
        print_ops_table(j);
      }
      return 0;
    }
    if (*selfcheck) return ts::tools::run_selfcheck(verbose);
    std::cout << app.help();
  } catch (const ts::Error& e) {
    std::cerr << "touchstone: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
