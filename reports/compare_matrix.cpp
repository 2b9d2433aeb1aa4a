// compare over N reports: the matrix, its text table and its page (inline SVG, no script).
#include "reports/compare_matrix.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

#include "reports/text.h"
#include "touchstone/error.h"

namespace ts::reports {
namespace {

using nlohmann::json;

std::string context_of(const json& r) {
  const json& m = r.at("machine");
  return m.at("cpu_model").get<std::string>() + ", " + m.at("threads").dump() + " threads, " +
         m.at("simd_target").get<std::string>() + ", commit " +
         m.at("git_commit").get<std::string>() + ", " + r.at("timestamp").get<std::string>() +
         (r.at("run").at("quick").get<bool>() ? ", quick" : ", full");
}

// "case|set" -> the cell of one report.
std::map<std::string, MatrixCell> cells_of(const json& report) {
  std::map<std::string, MatrixCell> out;
  for (const json& c : report.at("cases")) {
    for (const auto& [set, r] : c.at("results").items()) {
      MatrixCell cell;
      cell.ok = r.at("status") == "ok";
      if (cell.ok) {
        cell.median_s = r.at("median_s").get<double>();
        cell.roofline_pct = r.at("roofline_pct").get<double>();
        cell.noisy = r.value("noisy", false);
      }
      out[c.at("name").get<std::string>() + "|" + set] = cell;
    }
  }
  return out;
}

std::string num(double v, int precision = 3) {
  return format_number(v, precision);
}

const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                         "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

// Grouped bars for one family: per case, one bar per report of log2(time / baseline's time).
std::string family_svg(const Matrix& m, const std::string& family) {
  std::vector<const MatrixRow*> rows;
  for (const MatrixRow& r : m.rows) {
    if (r.family == family) rows.push_back(&r);
  }
  const int n = static_cast<int>(m.names.size());
  const int bar = 6, gap = 8, label_w = 420, half = 200;
  const int group = bar * n + gap;
  const int width = label_w + 2 * half + 60;
  const int height = 30 + group * static_cast<int>(rows.size());
  const int x0 = label_w + half;
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
    << "' font-family='monospace' font-size='11'>\n<line x1='" << x0 << "' y1='16' x2='" << x0
    << "' y2='" << height << "' stroke='#333'/>\n<text x='" << x0
    << "' y='12' text-anchor='middle'>1.0 = " << xml_escape(m.names[m.baseline])
    << " (faster &#8592; &#8594; slower, log scale, 4x at the edges)</text>\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const MatrixRow& r = *rows[i];
    const int y = 20 + group * static_cast<int>(i);
    s << "<text x='" << label_w - 4 << "' y='" << y + group / 2 << "' text-anchor='end'>"
      << xml_escape(r.case_name + " " + r.set) << "</text>";
    const MatrixCell& base = r.cells[m.baseline];
    for (int k = 0; k < n; ++k) {
      const MatrixCell& c = r.cells[static_cast<size_t>(k)];
      if (!c.ok || !base.ok) continue;
      const double ratio = c.median_s / base.median_s;
      const double l = std::clamp(std::log2(ratio), -2.0, 2.0);
      const double w = std::max(std::abs(l) / 2 * half, 1.0);
      s << "<rect x='" << num(l >= 0 ? x0 : x0 - w, 6) << "' y='" << y + k * bar << "' width='"
        << num(w, 6) << "' height='" << bar - 1 << "' fill='" << kColors[k % 8] << "'"
        << (c.noisy ? " fill-opacity='0.35'" : "") << "><title>"
        << xml_escape(m.names[static_cast<size_t>(k)]) << ": " << num(ratio, 4)
        << (c.noisy ? "x (noisy)" : "x") << "</title></rect>";
    }
    s << "\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace

Matrix compare_matrix(const std::vector<json>& reports, const std::vector<std::string>& names,
                      size_t baseline, bool include_noisy) {
  TS_CHECK(reports.size() >= 2 && names.size() == reports.size(),
           "compare: a matrix needs at least 2 reports, got ", reports.size());
  TS_CHECK(baseline < reports.size(), "compare: --baseline ", baseline + 1,
           " is not a report: give 1 to ", reports.size());
  Matrix m;
  m.names = names;
  m.baseline = baseline;
  m.include_noisy = include_noisy;
  std::vector<std::map<std::string, MatrixCell>> cells;
  for (const json& r : reports) {
    m.contexts.push_back(context_of(r));
    cells.push_back(cells_of(r));
  }
  for (const json& c : reports[baseline].at("cases")) {
    for (const auto& [set, r] : c.at("results").items()) {
      if (r.at("status") != "ok") continue;
      const std::string key = c.at("name").get<std::string>() + "|" + set;
      MatrixRow row{c.at("name").get<std::string>(), c.at("family").get<std::string>(), set, {}};
      for (const auto& report_cells : cells) {
        const auto it = report_cells.find(key);
        row.cells.push_back(it == report_cells.end() ? MatrixCell{} : it->second);
      }
      m.rows.push_back(std::move(row));
    }
  }
  // Geomeans of time / baseline's time per family (in order of appearance), then over all.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<double, int64_t>>> acc;
  for (const MatrixRow& r : m.rows) {
    for (const std::string& fam : {r.family, std::string("all")}) {
      if (!acc.count(fam)) {
        order.push_back(fam);
        acc[fam].assign(reports.size(), {0.0, 0});
      }
      const MatrixCell& base = r.cells[baseline];
      for (size_t k = 0; k < reports.size(); ++k) {
        const MatrixCell& c = r.cells[k];
        if (!c.ok || (!include_noisy && (c.noisy || base.noisy))) continue;
        acc[fam][k].first += std::log(c.median_s / base.median_s);
        acc[fam][k].second += 1;
      }
    }
  }
  std::stable_partition(order.begin(), order.end(),
                        [](const std::string& f) { return f != "all"; });
  for (const std::string& fam : order) {
    MatrixFamily f{fam, {}, {}};
    for (const auto& [sum, count] : acc[fam]) {
      f.geomean.push_back(count > 0 ? std::exp(sum / static_cast<double>(count)) : 0);
      f.cases.push_back(count);
    }
    m.families.push_back(std::move(f));
  }
  return m;
}

void print_matrix(const Matrix& m, std::ostream& out) {
  const size_t n = m.names.size();
  for (size_t k = 0; k < n; ++k) {
    out << "[" << k + 1 << "] " << m.names[k] << (k == m.baseline ? " (baseline)" : "") << ": "
        << m.contexts[k] << "\n";
  }
  out << "\ngeomean of time / baseline's time per op family"
      << (m.include_noisy ? "" : " (noisy cells left out)") << "\n"
      << std::left << std::setw(12) << "family" << std::right;
  for (size_t k = 0; k < n; ++k) out << std::setw(16) << "[" + std::to_string(k + 1) + "]";
  out << "\n";
  for (const MatrixFamily& f : m.families) {
    out << std::left << std::setw(12) << f.family << std::right;
    for (size_t k = 0; k < n; ++k) {
      std::ostringstream cell;
      if (f.cases[k] > 0) {
        cell << std::fixed << std::setprecision(3) << f.geomean[k] << " (" << f.cases[k] << ")";
      } else {
        cell << "-";
      }
      out << std::setw(16) << cell.str();
    }
    out << "\n";
  }
  out << "\nper case: time, % of that report's own roofline, time / baseline's ('~': noisy)\n";
  for (const MatrixRow& r : m.rows) {
    out << r.case_name << " " << r.set << "\n";
    const MatrixCell& base = r.cells[m.baseline];
    for (size_t k = 0; k < n; ++k) {
      const MatrixCell& c = r.cells[k];
      out << "  [" << k + 1 << "] ";
      if (!c.ok) {
        out << "-\n";
        continue;
      }
      out << std::setw(10) << format_time(c.median_s) << (c.noisy ? "~" : " ") << std::setw(6)
          << std::fixed << std::setprecision(0) << c.roofline_pct << " % roof  x"
          << std::setprecision(3) << c.median_s / base.median_s << "\n";
    }
  }
}

std::string matrix_html(const Matrix& m) {
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>touchstone compare "
       "(matrix)</title>\n<style>body{font-family:sans-serif;margin:20px}"
       "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
       "font-size:12px}td.n{text-align:right}</style></head><body>\n<h1>touchstone compare: "
    << m.names.size() << " reports</h1>\n<ol>\n";
  for (size_t k = 0; k < m.names.size(); ++k) {
    s << "<li><span style='color:" << kColors[k % 8] << "'>&#9632;</span> <b>"
      << xml_escape(m.names[k]) << "</b>" << (k == m.baseline ? " (baseline)" : "") << ": "
      << xml_escape(m.contexts[k]) << "</li>\n";
  }
  s << "</ol>\n<h2>Geomean of time / baseline's time per op family</h2>\n<table><tr>"
       "<th>family</th>";
  for (const std::string& name : m.names) s << "<th>" << xml_escape(name) << "</th>";
  s << "</tr>\n";
  for (const MatrixFamily& f : m.families) {
    s << "<tr><td>" << xml_escape(f.family) << "</td>";
    for (size_t k = 0; k < m.names.size(); ++k) {
      s << "<td class='n'>" << (f.cases[k] > 0 ? num(f.geomean[k]) : "-") << "</td>";
    }
    s << "</tr>\n";
  }
  s << "</table>\n";
  for (const MatrixFamily& f : m.families) {
    if (f.family == "all") continue;
    s << "<h2>" << xml_escape(f.family) << "</h2>\n" << family_svg(m, f.family);
  }
  s << "</body></html>\n";
  return s.str();
}

}  // namespace ts::reports
