//===- SearchBenchmark.cpp - Search against greedy on hard instances ------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For packed instances (generatePackedProblem: a rectangle cut into buffers,
// so the lower bound is reachable) and random ones, of 100 to 500 buffers:
// the arena / lower bound of greedy-by-size, best-fit and search, how often
// search reaches the lower bound, and the seconds each took. Plain output (a
// Markdown table), recorded in docs/benchmarks.md.
//
//   build/bin/memplan-search-benchmark [--instances N] [--seconds S]
//       [--threads T] [--kind packed|random] [--buffers N]
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/GreedyAlgorithms.h"
#include "ProblemGenerators.h"
#include "memplan/Planner/Search.h"
#include "memplan/Planner/Validator.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace memplan;

int main(int argc, char **argv) {
  int instances = 20;
  double seconds = 10;
  std::vector<std::string> kinds = {"packed", "random"};
  std::vector<size_t> counts = {100, 200, 300, 500};
  unsigned threads = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--instances"))
      instances = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seconds"))
      seconds = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--kind"))
      kinds = {argv[i + 1]};
    else if (!std::strcmp(argv[i], "--buffers"))
      counts = {size_t(std::atoi(argv[i + 1]))};
    else if (!std::strcmp(argv[i], "--threads"))
      threads = unsigned(std::atoi(argv[i + 1]));
  }
  std::printf("| instances | buffers | greedy-by-size | best-fit | search | "
              "search at lower bound | proven optimal | greedy-by-size / "
              "best-fit seconds (mean) | search seconds (mean / max) "
              "|\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const std::string &kindName : kinds) {
    const char *kind = kindName.c_str();
    for (size_t count : counts) {
      double greedyRatio = 0, bestFitRatio = 0, searchRatio = 0;
      double totalSeconds = 0, maxSeconds = 0, greedySeconds = 0,
             bestFitSeconds = 0;
      auto timed = [](double &seconds, auto &&plan) {
        auto begin = std::chrono::steady_clock::now();
        PlanResult result = plan();
        seconds += std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - begin)
                       .count();
        return result.solution.arenaSize;
      };
      int atBound = 0, proven = 0;
      for (int instance = 0; instance < instances; ++instance) {
        uint64_t seed = count * 1000 + instance;
        Problem problem =
            std::string(kind) == "packed"
                ? generatePackedProblem(seed, count, int64_t(count),
                                        uint64_t(1) << 20)
                : generateRandomProblem(seed, count, int64_t(count / 2), 20,
                                        uint64_t(1) << 16);
        uint64_t bound = computeLowerBound(problem);
        greedyRatio +=
            double(timed(greedySeconds,
                         [&] { return planGreedyBySize(problem); })) /
            bound;
        bestFitRatio += double(timed(bestFitSeconds,
                                     [&] { return planBestFit(problem); })) /
                        bound;
        SearchOptions options;
        options.seconds = seconds;
        options.threads = threads;
        PlanResult result = planSearch(problem, options);
        if (!result.ok() || validateSolution(problem, result.solution)) {
          std::fprintf(stderr, "invalid search result on %s %zu #%d\n", kind,
                       count, instance);
          return 1;
        }
        const SearchSummary &summary = *result.solution.search;
        searchRatio += double(result.solution.arenaSize) / bound;
        atBound += result.solution.arenaSize == bound;
        proven += summary.provenOptimal;
        totalSeconds += summary.seconds;
        maxSeconds = std::max(maxSeconds, summary.seconds);
      }
      std::printf("| %s | %zu | %.4f | %.4f | %.4f | %d / %d | %d / %d | "
                  "%.4f / %.4f | %.3f / %.3f |\n",
                  kind, count, greedyRatio / instances,
                  bestFitRatio / instances, searchRatio / instances, atBound,
                  instances, proven, instances, greedySeconds / instances,
                  bestFitSeconds / instances, totalSeconds / instances,
                  maxSeconds);
      std::fflush(stdout);
    }
  }
  return 0;
}
