// See text.h.
#include "reports/text.h"

#include <chrono>
#include <ctime>
#include <iomanip>
#include <sstream>

namespace ts::reports {

bool glob_match(const std::string& pattern, const std::string& s) {
  // Iterative, backtracking to the last '*' on a mismatch.
  size_t p = 0, i = 0, star = std::string::npos, mark = 0;
  while (i < s.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == s[i])) {
      ++p, ++i;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++, mark = i;
    } else if (star != std::string::npos) {
      p = star + 1, i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::string utc_timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string format_time(double s) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(s < 1e-5 ? 3 : 1);
  if (s < 1e-3) {
    o << s * 1e6 << " us";
  } else if (s < 1) {
    o << s * 1e3 << " ms";
  } else {
    o << std::setprecision(2) << s << " s";
  }
  return o.str();
}

std::string format_number(double v, int precision) {
  std::ostringstream o;
  o.precision(precision);
  o << v;
  return o.str();
}

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";  // HTML 4 has no &apos;
        break;
      default:
        out += (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t') ? '?' : ch;
    }
  }
  return out;
}

}  // namespace ts::reports
