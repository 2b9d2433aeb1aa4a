#pragma once
// error_text(f): the message of the ts::Error f throws, "" when it throws none. A header of its
// own (no gtest, no touchstone.h) for the tests that include little else; test_util.h's
// error_of builds on it and also fails the test when nothing is thrown.
#include <string>

#include "touchstone/error.h"

namespace ts::testing {

template <typename F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace ts::testing
