#pragma once
// JUnit XML, as CI systems read it: a <testsuites> root, a <testsuite> per suite (in name
// order), a <testcase> per case (in the given order within its suite).
#include <string>
#include <vector>

namespace ts::reports {

struct JUnitCase {
  enum class Outcome { passed, failure, error, skipped };
  std::string suite, classname, name;
  double seconds = 0;
  Outcome outcome = Outcome::passed;
  // failure and error: the element's type attribute and its text; skipped: message only.
  std::string type, message, text;
};

// Suites and the root count tests, failures, errors and skipped and sum their cases' time; the
// root's time is `seconds` (the run's wall time).
std::string junit_xml(const std::string& name, const std::vector<JUnitCase>& cases, double seconds);

}  // namespace ts::reports
