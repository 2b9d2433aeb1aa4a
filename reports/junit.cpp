// See junit.h.
#include "reports/junit.h"

#include <iomanip>
#include <map>
#include <sstream>

#include "reports/text.h"

namespace ts::reports {
namespace {

using Outcome = JUnitCase::Outcome;

std::string time_text(double seconds) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(6) << seconds;
  return os.str();
}

struct Counts {
  int64_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  void add(const JUnitCase& c) {
    ++tests;
    failures += c.outcome == Outcome::failure;
    errors += c.outcome == Outcome::error;
    skipped += c.outcome == Outcome::skipped;
    seconds += c.seconds;
  }
  std::string attributes() const {
    return "tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
           "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) +
           "\"";
  }
};

}  // namespace

std::string junit_xml(const std::string& name, const std::vector<JUnitCase>& cases,
                      double seconds) {
  std::map<std::string, std::vector<const JUnitCase*>> suites;
  Counts total;
  for (const JUnitCase& c : cases) {
    suites[c.suite].push_back(&c);
    total.add(c);
  }
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" << xml_escape(name)
    << "\" " << total.attributes() << " time=\"" << time_text(seconds) << "\">\n";
  for (const auto& [suite_name, members] : suites) {
    Counts suite;
    for (const JUnitCase* c : members) suite.add(*c);
    x << " <testsuite name=\"" << xml_escape(suite_name) << "\" " << suite.attributes()
      << " time=\"" << time_text(suite.seconds) << "\">\n";
    for (const JUnitCase* c : members) {
      x << "  <testcase classname=\"" << xml_escape(c->classname) << "\" name=\""
        << xml_escape(c->name) << "\" time=\"" << time_text(c->seconds) << "\"";
      if (c->outcome == Outcome::passed) {
        x << "/>\n";
        continue;
      }
      if (c->outcome == Outcome::skipped) {
        x << "><skipped message=\"" << xml_escape(c->message) << "\"/></testcase>\n";
        continue;
      }
      const char* element = c->outcome == Outcome::failure ? "failure" : "error";
      x << "><" << element << " type=\"" << xml_escape(c->type) << "\" message=\""
        << xml_escape(c->message) << "\">" << xml_escape(c->text) << "</" << element
        << "></testcase>\n";
    }
    x << " </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

}  // namespace ts::reports
