//===- ScheduleBenchmark.cpp - Schedulers against the exact order ---------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The table of docs/benchmarks.md "Scheduling random graphs": for random op
// graphs (layered and irregular, ScheduleGenerators.h) of 8 to 20 ops, the
// peak of each heuristic order and of the portfolio without the whole-graph
// exact search (the best heuristic, improved by exact windows of 10 ops),
// each divided by the exact optimum (scheduleExact, checked against
// enumeration of every order in the unit tests).
//
//   memplan-schedule-benchmark [GRAPHS_PER_ROW]
//
//===----------------------------------------------------------------------===//

#include "ScheduleGenerators.h"
#include "memplan/Planner/Scheduling.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace memplan;

int main(int argc, char **argv) {
  int graphs = argc > 1 ? std::atoi(argv[1]) : 50;
  if (graphs <= 0) {
    std::fprintf(stderr, "usage: %s [GRAPHS_PER_ROW > 0]\n", argv[0]);
    return 2;
  }
  struct Heuristic {
    const char *name;
    std::function<Schedule(const ScheduleProblem &)> schedule;
  };
  std::vector<Heuristic> heuristics = {
      {"input", scheduleInOrder},
      {"least-peak", scheduleLeastPeakFirst},
      {"most-freed", scheduleMostFreedFirst},
      {"depth-first", scheduleDepthFirst},
      {"breadth-first", scheduleBreadthFirst},
  };
  std::printf("| graphs | ops |");
  for (const Heuristic &heuristic : heuristics)
    std::printf(" %s |", heuristic.name);
  std::printf(" best heuristic | portfolio (+ windows) | portfolio at the "
              "optimum | portfolio worst |\n|---|---:|");
  for (size_t i = 0; i < heuristics.size() + 4; ++i)
    std::printf("---:|");
  std::printf("\n");
  for (bool layered : {true, false})
    for (size_t ops : {8, 12, 16, 20}) {
      std::mt19937_64 rng(ops * 2 + layered);
      std::vector<double> sums(heuristics.size(), 0);
      double bestSum = 0, portfolioSum = 0, worst = 1;
      int atOptimum = 0;
      for (int g = 0; g < graphs; ++g) {
        ScheduleProblem problem =
            generateRandomSchedulingProblem(rng, ops, layered);
        std::optional<Schedule> exact = scheduleExact(problem, 20, 1u << 21);
        if (!exact)
          return 1;
        double optimum =
            std::max<double>(1, double(computeSchedulePeak(problem, *exact)));
        uint64_t best = UINT64_MAX;
        Schedule bestOrder;
        for (size_t h = 0; h < heuristics.size(); ++h) {
          Schedule order = heuristics[h].schedule(problem);
          uint64_t peak = computeSchedulePeak(problem, order);
          sums[h] += double(peak) / optimum;
          if (peak < best) {
            best = peak;
            bestOrder = order;
          }
        }
        uint64_t portfolio = computeSchedulePeak(
            problem, improveByWindows(problem, bestOrder, 10));
        bestSum += double(best) / optimum;
        portfolioSum += double(portfolio) / optimum;
        worst = std::max(worst, double(portfolio) / optimum);
        atOptimum += double(portfolio) == optimum;
      }
      std::printf("| %s | %zu |", layered ? "layered" : "irregular", ops);
      for (double sum : sums)
        std::printf(" %.4f |", sum / graphs);
      std::printf(" %.4f | %.4f | %d / %d | %.4f |\n", bestSum / graphs,
                  portfolioSum / graphs, atOptimum, graphs, worst);
    }
  return 0;
}
