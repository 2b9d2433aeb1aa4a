#pragma once
// Each `touchstone` subcommand lives in its own file and registers itself on the app: it adds
// its options and returns the function main() calls when the subcommand was chosen.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace ts::tools {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_ops_command(CLI::App& app);
Command add_selfcheck_command(CLI::App& app);
Command add_conform_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_env_command(CLI::App& app);
Command add_merge_command(CLI::App& app);
Command add_sweep_command(CLI::App& app);

// Makes the kernel sets in `names` available: loads every --plugin library, then, for a set
// that is still unknown and has a plug-in built in this tree (aten), loads that. Throws a
// ts::Error naming the set when one stays unknown.
void load_kernel_sets(const std::vector<std::string>& plugins,
                      const std::vector<std::string>& names);

// "a, b,,c" -> {"a", "b", "c"} (parts trimmed of spaces, empty parts dropped).
std::vector<std::string> split_list(const std::string& s);

}  // namespace ts::tools
