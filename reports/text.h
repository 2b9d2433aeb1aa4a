#pragma once
// Text helpers every report writer shares: glob patterns (--ops, --slow), UTC timestamps, times
// for tables and escaping for XML and HTML (JUnit, the compare page).
#include <string>

namespace ts::reports {

// Whether `s` matches `pattern` as a whole: `*` any run of characters, `?` any one character.
bool glob_match(const std::string& pattern, const std::string& s);

// The current time as "2026-11-25T02:31:19Z".
std::string utc_timestamp();

// A time in seconds as "12.3 us", "4.5 ms" or "1.23 s" (tables of bench and compare).
std::string format_time(double seconds);

// `s` safe inside an XML or HTML element or a double- or single-quoted attribute: & < > " '
// escaped, control characters other than \n and \t (which XML 1.0 forbids) replaced by '?'.
std::string xml_escape(const std::string& s);
// `v` with `precision` significant digits, shortest form (3 -> "3", 0.1234 -> "0.123").
std::string format_number(double v, int precision = 3);

}  // namespace ts::reports
