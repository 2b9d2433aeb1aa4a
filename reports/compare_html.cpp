// The compare page: inline SVG only (opens offline, no script). Bars are log-scaled ratios
// around 1; the roofline scatter is log-log GFLOP/s against FLOPs per byte.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "reports/compare.h"
#include "reports/text.h"

namespace ts::reports {
namespace {

using nlohmann::json;

std::string num(double v, int precision = 3) {
  return format_number(v, precision);
}

const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"};

// Horizontal bars of log2(ratio), one row per (case, set); red beyond the threshold.
std::string ratio_bars(const Comparison& c) {
  const int row = 14, label_w = 430, half = 220, width = label_w + 2 * half + 80;
  const int height = row * static_cast<int>(c.rows.size()) + 40;
  double span = 1;  // log2 range shown on each side
  for (const CompareRow& r : c.rows) span = std::max(span, std::abs(std::log2(r.ratio)));
  span = std::min(span, 4.0);
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
    << "' font-family='monospace' font-size='11'>\n";
  const int x0 = label_w + half;
  s << "<line x1='" << x0 << "' y1='20' x2='" << x0 << "' y2='" << height - 10
    << "' stroke='#333'/>\n";
  s << "<text x='" << x0 << "' y='12' text-anchor='middle'>1.0 (faster &#8592; &#8594; slower,"
    << " log scale, +/-" << num(std::exp2(span), 2) << "x at the edges)</text>\n";
  for (size_t i = 0; i < c.rows.size(); ++i) {
    const CompareRow& r = c.rows[i];
    const int y = 24 + row * static_cast<int>(i);
    const double l = std::clamp(std::log2(r.ratio), -span, span);
    const double w = std::abs(l) / span * half;
    const double x = l >= 0 ? x0 : x0 - w;
    const char* color = r.ratio > 1 + c.threshold         ? "#d62728"
                        : r.ratio < 1 / (1 + c.threshold) ? "#2ca02c"
                                                          : "#999";
    s << "<text x='" << label_w - 4 << "' y='" << y + 10 << "' text-anchor='end'>"
      << xml_escape(r.case_name + " " + r.set) << "</text>";
    s << "<rect x='" << num(x, 6) << "' y='" << y + 2 << "' width='" << num(std::max(w, 1.0), 6)
      << "' height='" << row - 4 << "' fill='" << color << "'><title>" << xml_escape(r.case_name)
      << " " << xml_escape(r.set) << ": " << num(r.ratio, 4) << "x</title></rect>";
    s << "<text x='" << x0 + half + 6 << "' y='" << y + 10 << "'>" << num(r.ratio, 3)
      << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

// Log-log scatter: x = FLOPs per byte, y = GFLOP/s; the bandwidth line and the GEMM peaks.
std::string roofline_svg(const json& report) {
  const int w = 720, h = 420, left = 60, right = 20, top = 20, bottom = 50;
  const double xmin = -3, xmax = 3;  // log10 FLOPs/byte
  const json& roof = report.at("roofline");
  const double bw = roof.at("bandwidth_gbs").get<double>();
  const double speak = roof.at("sgemm_gflops").get<double>();
  const double dpeak = roof.at("dgemm_gflops").get<double>();
  double ymax = std::ceil(std::log10(std::max({speak, dpeak, 1.0}) * 2));
  const double ymin = ymax - 6;
  auto px = [&](double v) {
    return left + (std::log10(v) - xmin) / (xmax - xmin) * (w - left - right);
  };
  auto py = [&](double v) {
    const double l = std::clamp(std::log10(v), ymin, ymax);
    return top + (ymax - l) / (ymax - ymin) * (h - top - bottom);
  };
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h
    << "' font-family='sans-serif' font-size='11'>\n<rect x='" << left << "' y='" << top
    << "' width='" << w - left - right << "' height='" << h - top - bottom
    << "' fill='none' stroke='#333'/>\n";
  for (double e = xmin; e <= xmax; ++e) {
    s << "<text x='" << px(std::pow(10, e)) << "' y='" << h - bottom + 14
      << "' text-anchor='middle'>1e" << e << "</text>";
  }
  for (double e = ymin; e <= ymax; ++e) {
    s << "<text x='" << left - 4 << "' y='" << py(std::pow(10, e)) + 4 << "' text-anchor='end'>1e"
      << e << "</text>";
  }
  s << "<text x='" << (w + left) / 2 << "' y='" << h - 12
    << "' text-anchor='middle'>arithmetic intensity (FLOPs / byte)</text>";
  s << "<text x='14' y='" << (h - bottom) / 2 << "' transform='rotate(-90 14 " << (h - bottom) / 2
    << ")' text-anchor='middle'>GFLOP/s</text>\n";
  if (bw > 0) {
    // The memory roof y = bw * x, clipped to the peak.
    const double x1 = std::pow(10, xmin), x2 = std::max(speak, dpeak) / bw;
    s << "<line x1='" << px(x1) << "' y1='" << py(bw * x1) << "' x2='" << px(x2) << "' y2='"
      << py(bw * x2) << "' stroke='#000' stroke-width='1.5'><title>STREAM " << num(bw)
      << " GB/s</title></line>";
    for (double peak : {speak, dpeak}) {
      s << "<line x1='" << px(peak / bw) << "' y1='" << py(peak) << "' x2='" << w - right
        << "' y2='" << py(peak) << "' stroke='#000' stroke-dasharray='"
        << (peak == speak ? "0" : "4") << "'><title>" << (peak == speak ? "sgemm " : "dgemm ")
        << num(peak) << " GFLOP/s</title></line>";
    }
    s << "<text x='" << w - right - 4 << "' y='" << py(speak) - 4 << "' text-anchor='end'>sgemm "
      << num(speak) << " GFLOP/s, dgemm " << num(dpeak) << " (dashed); STREAM " << num(bw)
      << " GB/s</text>\n";
  }
  std::map<std::string, int> set_color;
  int without_flops = 0;
  for (const json& c : report.at("cases")) {
    const double ai = c.at("intensity").get<double>();
    without_flops += ai <= 0;
    if (ai <= 0) continue;
    for (const auto& [set, r] : c.at("results").items()) {
      if (r.at("status") != "ok" || r.at("gflops").get<double>() <= 0) continue;
      if (!set_color.count(set)) set_color[set] = static_cast<int>(set_color.size()) % 6;
      s << "<circle cx='" << px(std::clamp(ai, 1e-3, 1e3)) << "' cy='"
        << py(r.at("gflops").get<double>()) << "' r='3' fill='" << kColors[set_color[set]]
        << "' fill-opacity='0.7'><title>" << xml_escape(c.at("name").get<std::string>()) << " "
        << set << ": " << num(r.at("gflops").get<double>()) << " GFLOP/s, "
        << num(r.at("roofline_pct").get<double>()) << " % of roofline</title></circle>\n";
    }
  }
  int i = 0;
  for (const auto& [set, color] : set_color) {
    s << "<circle cx='" << left + 12 << "' cy='" << top + 14 + 16 * i << "' r='4' fill='"
      << kColors[color] << "'/><text x='" << left + 20 << "' y='" << top + 18 + 16 * i << "'>"
      << xml_escape(set) << "</text>\n";
    ++i;
  }
  s << "<text x='" << w - right - 4 << "' y='" << h - bottom - 6 << "' text-anchor='end'>"
    << without_flops << " cases without FLOPs (copies, compares, indexing) not shown</text>\n";
  s << "</svg>\n";
  return s.str();
}

std::string context_line(const json& r) {
  const json& m = r.at("machine");
  return xml_escape(m.at("cpu_model").get<std::string>()) + ", " + m.at("threads").dump() +
         " threads, " + xml_escape(m.at("simd_target").get<std::string>()) + ", commit " +
         xml_escape(m.at("git_commit").get<std::string>()) + ", " +
         xml_escape(r.at("timestamp").get<std::string>()) +
         (r.at("run").at("quick").get<bool>() ? ", quick" : ", full");
}

}  // namespace

std::string comparison_html(const Comparison& c, const json& base, const json& neu) {
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>touchstone compare</title>\n"
       "<style>body{font-family:sans-serif;margin:20px}table{border-collapse:collapse}"
       "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}"
       "td.n{text-align:right}.reg{color:#d62728;font-weight:bold}</style></head><body>\n";
  s << "<h1>touchstone compare</h1>\n<p>base: " << context_line(base)
    << "<br>new: " << context_line(neu) << "</p>\n";
  for (const std::string& n : c.notes) s << "<p>note: " << xml_escape(n) << "</p>\n";
  s << "<p>" << c.rows.size() << " case/set pairs, overall geomean of new/base <b>"
    << num(c.overall_geomean) << "</b>, <span class='reg'>" << c.regressions
    << " regressions</span> beyond " << num(c.threshold * 100) << " %, " << c.improvements
    << " faster.</p>\n";
  if (!c.missing.empty()) {
    s << "<h2 class='reg'>" << c.missing.size() << " case/set pairs missing from new"
      << (c.allow_missing ? " (allowed)" : "") << "</h2>\n<ul>\n";
    for (const MissingPair& m : c.missing) {
      s << "<li>" << xml_escape(m.pair)
        << (m.in_new == "absent" ? "" : " (" + xml_escape(m.in_new) + " in new)") << "</li>\n";
    }
    s << "</ul>\n";
  }
  s << "<h2>Geomean per op family</h2>\n<table><tr><th>family</th><th>set</th>"
       "<th>cases</th><th>geomean</th></tr>\n";
  for (const GeomeanRow& g : c.geomeans) {
    s << "<tr><td>" << xml_escape(g.family) << "</td><td>" << xml_escape(g.set)
      << "</td><td class='n'>" << g.cases << "</td><td class='n'>" << num(g.geomean)
      << "</td></tr>\n";
  }
  s << "</table>\n<h2>Ratio per case (new / base)</h2>\n" << ratio_bars(c);
  s << "<h2>Roofline: new</h2>\n"
    << roofline_svg(neu) << "<h2>Roofline: base</h2>\n"
    << roofline_svg(base);
  s << "</body></html>\n";
  return s.str();
}

}  // namespace ts::reports
