//===- CsvPlannerFuzzer.cpp - The CSV reader and every planner ------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Any input: the CSV reader must not crash. An accepted problem goes through
// every algorithm, and each plan must pass the validator with an arena at
// least the lower bound, and no offset algorithm may lose to naive; the
// search must never find a plan the validator refuses, and on tiny problems
// its arena and optimality claim must match an exhaustive solver; any
// violation aborts (a crash for libFuzzer).
//
//===----------------------------------------------------------------------===//

#include "ExhaustiveSolver.h"

#include "memplan/Planner/Algorithms.h"
#include "memplan/Planner/Search.h"
#include "memplan/Planner/Validator.h"
#include "memplan/Support/CsvFormat.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

using namespace memplan;

static void check(bool condition, const char *what, const std::string &detail) {
  if (!condition) {
    std::fprintf(stderr, "oracle failed: %s: %s\n", what, detail.c_str());
    std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::istringstream input(
      std::string(reinterpret_cast<const char *>(data), size));
  CsvProblem csv;
  std::string error;
  if (!readProblemCsv(input, csv, error)) {
    check(error.rfind("line ", 0) == 0, "error names a line", error);
    return 0;
  }
  // Keep runs fast: the exhaustive search is budgeted by nodes.
  if (csv.problem.buffers.size() > 300)
    return 0;
  uint64_t lowerBound = computeLowerBound(csv.problem);
  std::optional<uint64_t> naiveArena;
  SearchOptions search;
  search.nodeLimit = 2000;
  search.seconds = 5;
  for (Algorithm algorithm : kAllAlgorithms) {
    PlanResult result = plan(csv.problem, algorithm, &search);
    if (!result.ok()) {
      // Only an arena beyond 64 bits may be refused.
      check(result.error.find("2^64") != std::string::npos, "refusal",
            result.error);
      continue;
    }
    std::optional<ValidationError> invalid =
        validateSolution(csv.problem, result.solution);
    check(!invalid, "valid plan", invalid ? invalid->message : "");
    check(result.solution.arenaSize >= lowerBound, "arena >= lower bound",
          std::string(getAlgorithmName(algorithm)));
    if (algorithm == Algorithm::Search) {
      // On tiny problems, against an exhaustive solver that places each
      // buffer at a multiple of its alignment: with the node limit above
      // (one thread), and without one on two threads (the reduced and the
      // original problem side by side where buffers merge). Sizes and
      // alignments small enough that its offsets cannot overflow.
      bool tiny = csv.problem.buffers.size() <= 6 &&
                  std::all_of(csv.problem.buffers.begin(),
                              csv.problem.buffers.end(), [](const Buffer &b) {
                                return b.size <= (uint64_t(1) << 40) &&
                                       b.alignment <= (uint64_t(1) << 20);
                              });
      std::optional<uint64_t> optimum;
      if (tiny)
        optimum = test::exhaustiveOptimum(csv.problem);
      auto checkSearch = [&](const PlanResult &searched, const char *how) {
        const SearchSummary &summary = *searched.solution.search;
        check(summary.rejectedPlans == 0, "search found only valid plans", how);
        if (!optimum)
          return;
        check(searched.solution.arenaSize >= *optimum, "arena >= optimum", how);
        check(!summary.provenOptimal || searched.solution.arenaSize == *optimum,
              "proven optimal is optimal", how);
      };
      checkSearch(result, "node limit");
      if (tiny) {
        SearchOptions threaded;
        threaded.seconds = 5;
        threaded.threads = 2;
        PlanResult other = planSearch(csv.problem, threaded);
        check(other.ok() && !validateSolution(csv.problem, other.solution),
              "valid plan", "two threads");
        checkSearch(other, "two threads");
      }
    }
    if (algorithm == Algorithm::Naive)
      naiveArena = result.solution.arenaSize;
    else if (naiveArena && algorithm != Algorithm::SharedObjects)
      check(result.solution.arenaSize <= *naiveArena, "no worse than naive",
            std::string(getAlgorithmName(algorithm)));
  }
  return 0;
}
