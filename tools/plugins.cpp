// Loading kernel-set plug-ins for the subcommands (--plugin, and the in-tree aten, dnnl, xnnpack
// and legacy plug-ins).
#include <filesystem>
#include <sstream>

#include "command.h"
#include "touchstone/touchstone.h"

namespace ts::tools {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, ',');) {
    const size_t b = part.find_first_not_of(" \t");
    if (b != std::string::npos) out.push_back(part.substr(b, part.find_last_not_of(" \t") - b + 1));
  }
  return out;
}

void load_kernel_sets(const std::vector<std::string>& plugins,
                      const std::vector<std::string>& names) {
  for (const std::string& p : plugins) load_kernel_set(p);
  for (const std::string& name : names) {
    if (find_kernel_set(name)) continue;
    // Note [In-tree plug-ins]: the aten, dnnl, xnnpack and legacy sets are plug-ins built next to
    // this binary; asking for one by name loads it, so `--kernels aten` works without --plugin.
    const std::pair<const char*, const char*> in_tree[] = {
#ifdef TS_ATEN_PLUGIN
        {"aten", TS_ATEN_PLUGIN},
#endif
#ifdef TS_DNNL_PLUGIN
        {"dnnl", TS_DNNL_PLUGIN},
#endif
#ifdef TS_XNNPACK_PLUGIN
        {"xnnpack", TS_XNNPACK_PLUGIN},
#endif
#ifdef TS_LEGACY_PLUGIN
        {"legacy", TS_LEGACY_PLUGIN},
#endif
        {nullptr, nullptr}};
    bool loaded = false;
    for (const auto& [set, path] : in_tree) {
      if (set != nullptr && name == set && std::filesystem::exists(path)) {
        load_kernel_set(path);
        loaded = true;
      }
    }
    if (loaded) continue;
    std::string known;
    for (const std::string& k : kernel_set_names()) known += (known.empty() ? "" : ", ") + k;
    TS_CHECK(false, "--kernels: no kernel set named '", name, "' (known: ", known,
             "; a plug-in's set needs --plugin LIB.so)");
  }
}

}  // namespace ts::tools
