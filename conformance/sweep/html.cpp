// The sweep's HTML page (engine.h's sweep_to_html): inline SVG only, no script, opens offline.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "conformance/sweep/engine.h"
#include "conformance/sweep/internal.h"
#include "conformance/sweep/oracle.h"
#include "reports/files.h"
#include "reports/text.h"

namespace ts::sweep {
namespace {

std::string esc(std::string_view s) {
  return reports::xml_escape(std::string(s));
}

std::string num(double v, int precision = 3) {
  return reports::format_number(v, precision);
}

// Note [The error plot]
// x: the input bins of engine.h (the top 8 bits of the value-ordered key: -NaN, -inf, -max ..
// -0 | +0 .. +max, +inf, +NaN; a bin per binade pair, float16's per quarter binade: a log axis
// of |x| either side of zero; a binary op's first operand, the largest error over every b). y:
// log2(1 + the bin's largest distance in steps): 0 = correctly rounded, 1 = 1 step, 2 = 3 steps.
// Bins with no inputs stay empty; red dots mark bins with special-value mismatches.
std::string plot(const SweepRow& r) {
  const Format& fmt = format_of(parse_dtype(r.dtype), "sweep");
  const int w = r.arity == 1 ? detail::format_width(fmt) : 16;
  const int left = 48, top = 18, pw = 768, ph = 120, width = left + pw + 16, height = top + ph + 34;
  const double bw = static_cast<double>(pw) / kInputBins;
  uint64_t most = 1;
  for (uint64_t s : r.bin_max_steps) most = std::max(most, s);
  const double ymax = std::log2(1.0 + static_cast<double>(most));
  const auto y_of = [&](double steps) { return top + ph - ph * std::log2(1.0 + steps) / ymax; };
  std::ostringstream s;
  s << "<svg class='sweep-plot' xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='"
    << height << "' font-family='monospace' font-size='10'>\n<rect x='" << left << "' y='" << top
    << "' width='" << pw << "' height='" << ph << "' fill='none' stroke='#999'/>\n";
  for (double steps : {0.0, 1.0, 3.0, 15.0, 255.0, 65535.0, 16777215.0}) {
    if (steps > static_cast<double>(most)) break;
    s << "<text x='" << left - 4 << "' y='" << num(y_of(steps) + 3, 5) << "' text-anchor='end'>"
      << num(steps, 8) << "</text>\n";
  }
  for (size_t i = 0; i < kInputBins; ++i) {
    if (r.bin_inputs[i] == 0) continue;
    const double x = left + bw * static_cast<double>(i);
    const auto steps = static_cast<double>(r.bin_max_steps[i]);
    const double y = std::min(y_of(steps), top + ph - 1.5);  // a correct bin: a thin green bar
    const char* color = steps == 0 ? "#2ca02c" : steps <= 1 ? "#1f77b4" : "#ff7f0e";
    s << "<rect x='" << num(x, 6) << "' y='" << num(y, 6) << "' width='" << num(bw, 4)
      << "' height='" << num(top + ph - y, 6) << "' fill='" << color << "'><title>"
      << r.bin_inputs[i] << " inputs, max " << r.bin_max_steps[i] << " steps, " << r.bin_specials[i]
      << " special mismatches</title></rect>\n";
    if (r.bin_specials[i] > 0) {
      s << "<circle cx='" << num(x + bw / 2, 6) << "' cy='" << top - 6
        << "' r='3' fill='#d62728'/>\n";
    }
  }
  for (size_t i : {1, 32, 64, 96, 127, 128, 160, 192, 224, 254}) {  // bin starts, as values
    const auto key = static_cast<uint32_t>(i) << (w - 8);
    const double v = format_value(detail::from_key(key, w), fmt);
    const double x = left + bw * static_cast<double>(i);
    s << "<line x1='" << num(x, 6) << "' x2='" << num(x, 6) << "' y1='" << top + ph << "' y2='"
      << top + ph + 4 << "' stroke='#999'/><text x='" << num(x, 6) << "' y='" << top + ph + 15
      << "' text-anchor='middle'>" << num(v, 2) << "</text>\n";
  }
  s << "<text x='" << left << "' y='" << height - 4 << "'>input "
    << (r.arity == 1 ? "x" : "a (max over b)") << "; y: max steps (log2(1 + steps))</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace

std::string sweep_to_html(const SweepOptions& o, const std::vector<SweepRow>& rows,
                          const std::vector<CompareRow>& compare) {
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>touchstone sweep</title>"
       "<style>body{font-family:sans-serif;margin:20px}table{border-collapse:collapse}"
       "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}td.n{text-align:right}"
       "</style></head><body>\n<h1>touchstone sweep</h1>\n<p>"
    << (o.quick ? "--quick sample" : "every input") << "; error in steps (values of the format)"
    << " from the correctly rounded result, per input bin. Green: correctly rounded, blue: 1"
       " step, orange: more; red dots: special-value mismatches.</p>\n";
  for (const SweepRow& r : rows) {
    if (r.inputs == 0) continue;
    const double pct =
        100.0 * static_cast<double>(r.correctly_rounded) / static_cast<double>(r.inputs);
    s << "<h3>" << esc(r.op) << " " << esc(r.dtype) << " " << esc(r.kernels) << "</h3>\n<p>"
      << r.inputs << " inputs, " << num(pct, 6) << "% correctly rounded, max " << r.max_steps
      << " steps (" << num(r.max_ulp, 4) << " ULP) at "
      << esc(input_text(r.worst_input, r.dtype, r.arity)) << "; special mismatches: NaN "
      << r.nan_mismatches << ", inf " << r.inf_mismatches << ", ±0 " << r.zero_sign_mismatches
      << "</p>\n"
      << plot(r);
  }
  if (!compare.empty()) {
    s << "<h2>Targets and threads</h2>\n<table><tr><th>op</th><th>dtype</th><th>kernels</th>"
         "<th>baseline</th><th>config</th><th>inputs</th><th>differing</th><th>NaN bits only"
         "</th><th>first input</th><th>baseline</th><th>config</th></tr>\n";
    for (const CompareRow& c : compare) {
      const Format& fmt = format_of(parse_dtype(c.dtype), "sweep");
      s << "<tr><td>" << esc(c.op) << "</td><td>" << esc(c.dtype) << "</td><td>" << esc(c.kernels)
        << "</td><td>" << esc(c.baseline) << "</td><td>" << esc(c.config) << "</td><td class='n'>"
        << c.inputs << "</td><td class='n'>" << c.differing << "</td><td class='n'>" << c.nan_only
        << "</td><td>";
      if (c.first_input) {
        s << esc(input_text(*c.first_input, c.dtype, c.arity)) << "</td><td>"
          << num(format_value(c.first_baseline, fmt), 9) << "</td><td>"
          << num(format_value(c.first_config, fmt), 9);
      } else {
        s << "</td><td></td><td>";
      }
      s << "</td></tr>\n";
    }
    s << "</table>\n";
  }
  s << "</body></html>\n";
  return s.str();
}

void write_sweep_html(const std::string& path, const SweepOptions& options,
                      const std::vector<SweepRow>& rows, const std::vector<CompareRow>& compare) {
  reports::write_file_atomically(path, sweep_to_html(options, rows, compare), "sweep: --html");
}

}  // namespace ts::sweep
