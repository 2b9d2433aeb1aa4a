#pragma once
// Report files: checked before a run starts, written atomically at its end.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ts::reports {

// Throws a ts::Error unless `path` can be created or replaced: its directory exists and is
// writable, and `path` is not a directory. `option` names the flag the path came from
// ("--report"); the message carries the path as the user gave it and the errno text. Called
// before a run starts so a typo does not cost the run.
void check_output_path(const std::string& path, std::string_view option);

// Writes `text` to `path` atomically: a temporary file in the same directory, then rename(2), so
// a reader sees the old file or the whole new one. Errors name `what` (the command) and the path.
void write_file_atomically(const std::string& path, const std::string& text, std::string_view what);

// `j` as JSON text (one-space indent, a final newline), written atomically. Strings that are not
// UTF-8 (host and CPU names, messages) are written with U+FFFD in place of the bad bytes.
void write_json(const std::string& path, const nlohmann::json& j, std::string_view what);

// Writes all of `text` to `fd`, retrying after EINTR and short writes. Returns false with errno
// set when a write fails.
bool write_all(int fd, std::string_view text);

// Reads a whole file; a missing, unreadable or directory path is a ts::Error naming `what`, the
// path and the errno text (never an uncaught std::ios_failure).
std::string read_file(const std::string& path, std::string_view what);

}  // namespace ts::reports
