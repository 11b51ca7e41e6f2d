//===- PlannerBenchmark.cpp - Planner speed and quality -------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Time per plan for every algorithm on synthetic workloads of 1,000 to
// 1,000,000 buffers (60,000 for the dense trace family), with the plan's
// quality as counters: arena / lower bound (ratio) and the arena in MiB. Every
// plan is also checked by the validator (outside the timed loop). Results:
// docs/benchmarks.md.
//
//   build/bin/memplan-planner-benchmark --benchmark_filter=greedy-by-size
//
//===----------------------------------------------------------------------===//

#include "Workloads.h"

#include "memplan/Planner/Algorithms.h"
#include "memplan/Planner/Search.h"
#include "memplan/Planner/Validator.h"

#include <benchmark/benchmark.h>

#include <map>
#include <mutex>

using namespace memplan;

namespace {

enum class Workload { TransformerLike, Random, DenseTrace };

Problem makeProblem(Workload workload, size_t count) {
  switch (workload) {
  case Workload::TransformerLike:
    return bench::transformerLike(count, 1);
  case Workload::Random:
    return bench::randomIntervals(count, 1);
  case Workload::DenseTrace:
    return bench::denseTrace(count, 1);
  }
  return {};
}

const char *getWorkloadName(Workload workload) {
  switch (workload) {
  case Workload::TransformerLike:
    return "transformer/";
  case Workload::Random:
    return "random/";
  case Workload::DenseTrace:
    return "trace/";
  }
  return "";
}

const Problem &getProblem(Workload workload, size_t count) {
  static std::map<std::pair<Workload, size_t>, Problem> cache;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(workload, count);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, makeProblem(workload, count)).first;
  return it->second;
}

/// Plans with `algorithm`: as plan() does by default, or, with `threads`
/// above zero, with SearchOptions::threads at that number.
void runPlanner(benchmark::State &state, Algorithm algorithm, Workload workload,
                unsigned threads = 0) {
  const Problem &problem = getProblem(workload, state.range(0));
  SearchOptions options;
  options.threads = threads;
  PlanResult result;
  for (auto _ : state) {
    result = plan(problem, algorithm, threads ? &options : nullptr);
    benchmark::DoNotOptimize(result.solution.arenaSize);
  }
  if (!result.ok()) {
    state.SkipWithError(result.error.c_str());
    return;
  }
  if (std::optional<ValidationError> error =
          validateSolution(problem, result.solution)) {
    state.SkipWithError(error->message.c_str());
    return;
  }
  uint64_t lowerBound = computeLowerBound(problem);
  state.counters["ratio"] = double(result.solution.arenaSize) / lowerBound;
  state.counters["arena_MiB"] = double(result.solution.arenaSize) / (1 << 20);
  state.counters["lower_bound_MiB"] = double(lowerBound) / (1 << 20);
  state.SetItemsProcessed(state.iterations() * problem.buffers.size());
}

void registerAll() {
  struct Entry {
    Algorithm algorithm;
    int64_t maxCount;
  };
  // shared-objects scans every object per buffer: keep it to 100k buffers;
  // the portfolio runs nine placements (on the machine's threads), to 100k
  // as well.
  const Entry entries[] = {{Algorithm::Naive, 1000000},
                           {Algorithm::GreedyBySize, 1000000},
                           {Algorithm::GreedyByBreadth, 1000000},
                           {Algorithm::BestFit, 1000000},
                           {Algorithm::FirstFitBySize, 1000000},
                           {Algorithm::Skyline, 1000000},
                           {Algorithm::LongLivedSkyline, 1000000},
                           {Algorithm::SharedObjects, 100000},
                           {Algorithm::Portfolio, 100000}};
  for (Workload workload :
       {Workload::TransformerLike, Workload::Random, Workload::DenseTrace}) {
    for (const Entry &entry : entries) {
      std::string name = std::string(getWorkloadName(workload)) +
                         std::string(getAlgorithmName(entry.algorithm));
      auto *bench = benchmark::RegisterBenchmark(
          name.c_str(), [=](benchmark::State &state) {
            runPlanner(state, entry.algorithm, workload);
          });
      if (workload == Workload::DenseTrace) {
        // Real compiler traces stop near 60,000 buffers; this family has
        // about 11,000 live at once there.
        for (int64_t count : {1000, 10000, 60000})
          bench->Arg(count);
      } else {
        for (int64_t count = 1000; count <= entry.maxCount; count *= 10)
          bench->Arg(count);
      }
      bench->Unit(benchmark::kMillisecond)->UseRealTime();
    }
  }
  // The placements into gaps on the dense traces with their walks shared
  // by two threads (WalkTeam.h; the same plans).
  for (Algorithm algorithm :
       {Algorithm::GreedyBySize, Algorithm::BestFit, Algorithm::GreedyByBreadth,
        Algorithm::FirstFitBySize}) {
    std::string name = std::string(getWorkloadName(Workload::DenseTrace)) +
                       std::string(getAlgorithmName(algorithm)) + "/2-threads";
    benchmark::RegisterBenchmark(name.c_str(),
                                 [=](benchmark::State &state) {
                                   runPlanner(state, algorithm,
                                              Workload::DenseTrace, 2);
                                 })
        ->Arg(10000)
        ->Arg(60000)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

} // namespace

int main(int argc, char **argv) {
  registerAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
