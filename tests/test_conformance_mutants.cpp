// `touchstone conform` with its default options against the mutant plug-in (Note [Planted
// porting bugs] in tests/plugins/mutant_plugin.cpp): each porting bug the old oracle passed is
// caught, on its own op, dtype and sample, and no other op fails.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "touchstone/sanitizers.h"

namespace {

namespace fs = std::filesystem;

struct Bug {
  std::string op, dtype, samples, check;  // samples: the samples that may catch it, '|'-joined
};

// The planted bugs: op, dtype, the samples that must catch them, and the check.
const std::vector<Bug>& bugs() {
  static const std::vector<Bug> all = {
      {"exp", "float32", "|edge_values|", "forward"},      // 2 ULP for |x| > 10
      {"sum", "float32", "|rows_2053|large|", "forward"},  // running float32 sum
      {"mul", "float16", "", "forward"},                   // rounds toward zero
      {"neg", "float32", "|edge_values|", "forward"},      // neg(+0) = +0
      {"add", "int8", "|edge_values|known|", "forward"},   // saturates
      {"abs", "int32", "|edge_values|", "forward"},        // abs(INT_MIN) = INT_MAX
      {"sin", "float32", "|large|", "forward"},            // wrong past 2048 elements
      {"mse_loss", "bfloat16", "", "backward"},            // gradient 5% off
      {"relu", "float32", "", "forward"},                  // leaves the zeros unwritten
  };
  return all;
}

// One run over the mutated ops, default options otherwise; the JSON report.
const nlohmann::json& report() {
  static const nlohmann::json r = [] {
    const fs::path dir = fs::temp_directory_path() / ("ts_mutants_" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string cmd =
        std::string(TS_CLI_PATH) + " conform --kernels mutant --plugin " + TS_MUTANT_PLUGIN_PATH +
        " --ops exp,sum,mul,neg,add,abs,sin,mse_loss,relu --max-failures-shown 0"
        " --report " +
        (dir / "m.json").string() + " > " + (dir / "m.txt").string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << cmd;
    nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "m.json"));
    fs::remove_all(dir);
    return j;
  }();
  return r;
}

std::vector<nlohmann::json> failed() {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& c : report()["cases"]) {
    if (c["status"] == "failed") out.push_back(c);
  }
  return out;
}

TEST(ConformanceMutants, EachPlantedBugIsCaughtOnItsOwnOp) {
  if (TS_ASAN) GTEST_SKIP() << "Note [Whole-catalog checks under the sanitizers]";
  for (const Bug& b : bugs()) {
    int caught = 0;
    for (const nlohmann::json& c : failed()) {
      if (c["op"] != b.op || c["dtype"] != b.dtype || c["check"] != b.check) continue;
      if (!b.samples.empty()) {
        EXPECT_NE(b.samples.find("|" + c["sample"].get<std::string>() + "|"), std::string::npos)
            << b.op << " " << b.dtype << " failed on sample " << c["sample"] << ": "
            << c["message"];
      }
      ++caught;
    }
    EXPECT_GT(caught, 0) << b.op << " " << b.dtype << " (" << b.check << "): not caught";
  }
}

TEST(ConformanceMutants, NoOtherOpFails) {
  if (TS_ASAN) GTEST_SKIP() << "Note [Whole-catalog checks under the sanitizers]";
  std::set<std::string> ops;
  for (const Bug& b : bugs()) ops.insert(b.op);
  for (const nlohmann::json& c : failed()) {
    EXPECT_TRUE(ops.count(c["op"].get<std::string>()))
        << c["op"] << " " << c["dtype"] << " " << c["sample"] << ": " << c["message"];
  }
}

// The messages say what was wrong: the sign of a zero, a wrapped integer, ULPs.
TEST(ConformanceMutants, MessagesNameTheDifference) {
  if (TS_ASAN) GTEST_SKIP() << "Note [Whole-catalog checks under the sanitizers]";
  auto message_of = [](const std::string& op, const std::string& dtype) {
    std::string all;  // every failing message of the op, joined
    for (const nlohmann::json& c : failed()) {
      if (c["op"] == op && c["dtype"] == dtype) all += c["message"].get<std::string>() + "\n";
    }
    return all;
  };
  EXPECT_NE(message_of("neg", "float32").find("is +0, reference -0 (the sign of zero)"),
            std::string::npos);
  EXPECT_NE(message_of("add", "int8").find("is 127, reference -128"), std::string::npos);
  EXPECT_NE(message_of("abs", "int32").find("is 2147483647, reference -2147483648"),
            std::string::npos);
  EXPECT_NE(message_of("exp", "float32").find("(2 ULP, tolerance 1 ULP)"), std::string::npos);
}

}  // namespace
