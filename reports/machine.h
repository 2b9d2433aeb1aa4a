#pragma once
// What reports say of the machine and the build: fields of /proc and /sys files, the commit.
#include <string>

namespace ts::reports {

// The value after "key<spaces>:" on the first line of `path` that starts with `key` (as in
// /proc/cpuinfo, /proc/meminfo); empty when the file or the line is missing.
std::string proc_field(const std::string& path, const std::string& key);

// The first line of `path`; empty when it cannot be read.
std::string first_line(const std::string& path);

// The CPU's model name from /proc/cpuinfo, or `fallback` when there is none.
std::string cpu_model(const std::string& fallback = "");

// The short commit the build was configured at, "unknown" outside a git checkout.
const char* git_commit();

}  // namespace ts::reports
