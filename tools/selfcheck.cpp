// `touchstone selfcheck`: the reference set against answers computed by hand or taken from
// PyTorch's documentation. A quick sanity check of an installation, not the test suite.
#include "selfcheck.h"

#include <memory>

#include <cmath>
#include <functional>
#include <iostream>
#include <vector>

#include "command.h"
#include "touchstone/touchstone.h"

namespace ts::tools {
namespace {

struct Case {
  const char* name;
  std::function<Tensor()> run;
  std::vector<double> expected;
  ScalarType dtype;
  double tol;
};

std::vector<double> values(const Tensor& t) {
  Tensor d = t.to(kDouble).contiguous();
  return {d.data_ptr<double>(), d.data_ptr<double>() + d.numel()};
}

bool close(double a, double b, double tol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b));
}

std::vector<Case> cases() {
  const double inf = INFINITY;
  return {
      {"add alpha",
       [] {
         return add(tensor({1., 2., 3.}), tensor({10., 20., 30.}), 2);
       },
       {21, 42, 63},
       kFloat,
       0},
      {"int8 wraps",
       [] { return add(tensor({127}, kChar), tensor({1}, kChar)); },
       {-128},
       kChar,
       0},
      {"int32 + 2.5 -> float32",
       [] {
         return add(tensor({1, 2}, kInt), 2.5);
       },
       {3.5, 4.5},
       kFloat,
       0},
      {"floor division",
       [] {
         return div(tensor({-7, 7}), tensor({2, -2}), "floor");
       },
       {-4, -4},
       kLong,
       0},
      {"true division of ints",
       [] {
         return div(tensor({1, 3}), tensor({2, 4}));
       },
       {0.5, 0.75},
       kFloat,
       0},
      {"remainder sign",
       [] {
         return remainder(tensor({-3., 3.}), 2);
       },
       {1, 1},
       kFloat,
       0},
      {"exp float64",
       [] {
         return exp(tensor({0., 1.}, kDouble));
       },
       {1, M_E},
       kDouble,
       0},
      {"float16 overflow",
       [] {
         return tensor({65504., 65520.}).to(kHalf);
       },
       {65504, inf},
       kHalf,
       0},
      {"sum 0..100", [] { return sum(arange(101)); }, {5050}, kLong, 0},
      {"mean",
       [] {
         return mean(tensor({1., 2., 3., 4.}));
       },
       {2.5},
       kFloat,
       0},
      {"var (correction 1)",
       [] {
         return var(tensor({1., 2., 3., 4.}));
       },
       {5.0 / 3.0},
       kFloat,
       1e-7},
      {"amax dim 1",
       [] {
         return amax(tensor({1., 5., 3., 4.}).view({2, 2}), {1});
       },
       {5, 4},
       kFloat,
       0},
      {"cumsum",
       [] {
         return cumsum(tensor({1, 2, 3}), 0);
       },
       {1, 3, 6},
       kLong,
       0},
      {"softmax",
       [] {
         return softmax(tensor({1., 2., 3.}), 0);
       },
       {0.09003057317038046, 0.24472847105479767, 0.6652409557748219},
       kFloat,
       1e-7},
      {"mm 2x2",
       [] {
         return mm(tensor({1., 2., 3., 4.}).view({2, 2}), tensor({5., 6., 7., 8.}).view({2, 2}));
       },
       {19, 22, 43, 50},
       kFloat,
       0},
      {"matmul transposed",
       [] {
         return matmul(tensor({1., 2., 3., 4.}).view({2, 2}).t(), tensor({1., 1.}));
       },
       {4, 6},
       kFloat,
       0},
      {"gather",
       [] {
         return gather(tensor({1, 2, 3, 4}).view({2, 2}), 1, tensor({0, 0, 1, 0}).view({2, 2}));
       },
       {1, 1, 4, 3},
       kLong,
       0},
      {"cat",
       [] {
         return cat({tensor({1., 2.}), tensor({3.})});
       },
       {1, 2, 3},
       kFloat,
       0},
      {"where",
       [] {
         return where(tensor({true, false}), tensor({1., 2.}), tensor({3., 4.}));
       },
       {1, 4},
       kFloat,
       0},
      {"broadcast mul",
       [] {
         return mul(tensor({1., 2.}).view({2, 1}), tensor({3., 4., 5.}));
       },
       {3, 4, 5, 6, 8, 10},
       kFloat,
       0},
  };
}

}  // namespace

int run_selfcheck(bool verbose) {
  KernelSetGuard guard("reference");
  int failed = 0, passed = 0;
  for (const Case& c : cases()) {
    std::string problem;
    try {
      const Tensor t = c.run();
      const std::vector<double> got = values(t);
      if (t.dtype() != c.dtype) {
        problem = "dtype " + std::string(dtype_name(t.dtype())) + ", expected " +
                  std::string(dtype_name(c.dtype));
      } else if (got.size() != c.expected.size()) {
        problem =
            std::to_string(got.size()) + " values, expected " + std::to_string(c.expected.size());
      } else {
        for (size_t i = 0; i < got.size() && problem.empty(); ++i) {
          if (!close(got[i], c.expected[i], c.tol)) {
            problem = "element " + std::to_string(i) + " is " + std::to_string(got[i]) +
                      ", expected " + std::to_string(c.expected[i]);
          }
        }
      }
    } catch (const Error& e) {
      problem = std::string("threw: ") + e.what();
    }
    if (problem.empty()) {
      ++passed;
      if (verbose) std::cout << "  ok    " << c.name << "\n";
    } else {
      ++failed;
      std::cout << "  FAIL  " << c.name << ": " << problem << "\n";
    }
  }
  std::cout << "selfcheck (reference): " << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace ts::tools

namespace ts::tools {

Command add_selfcheck_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "selfcheck", "Check the reference kernel set against hand-computed known answers");
  auto verbose = std::make_shared<bool>(false);
  cmd->add_flag("-v,--verbose", *verbose, "Print every case");
  return {cmd, [verbose] { return run_selfcheck(*verbose); }};
}

}  // namespace ts::tools
