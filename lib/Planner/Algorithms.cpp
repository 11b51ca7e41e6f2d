//===- Algorithms.cpp - Algorithm names and dispatch ----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Algorithms.h"

#include "memplan/Planner/Search.h"

using namespace memplan;

namespace {
struct AlgorithmInfo {
  Algorithm algorithm;
  std::string_view name;
  std::string_view description;
  /// Plans with `threads` for the placements that take them.
  PlanResult (*run)(const Problem &, unsigned threads);
};

constexpr AlgorithmInfo kAlgorithms[] = {
    {Algorithm::Naive, "naive", "no reuse: buffers one after another",
     [](const Problem &problem, unsigned) { return planNaive(problem); }},
    {Algorithm::GreedyBySize, "greedy-by-size",
     "largest buffer first, the gap it fills best (the default)",
     planGreedyBySize},
    {Algorithm::GreedyByBreadth, "greedy-by-breadth",
     "positions with the most live bytes first", planGreedyByBreadth},
    {Algorithm::BestFit, "best-fit",
     "largest buffer first (longest-lived of equal sizes), the gap it fills "
     "best",
     planBestFit},
    {Algorithm::SharedObjects, "shared-objects", "buffers share whole objects",
     [](const Problem &problem, unsigned) {
       return planSharedObjects(problem);
     }},
    {Algorithm::GreedyByLifetime, "greedy-by-lifetime",
     "longest-lived buffer first, the gap it fills best", planGreedyByLifetime},
    {Algorithm::GreedyByConflicts, "greedy-by-conflicts",
     "largest size x bytes meeting its lifetime first, the gap it fills best",
     planGreedyByConflicts},
    {Algorithm::FirstFitBySize, "first-fit-by-size",
     "largest buffer first, the lowest offset where it fits",
     planFirstFitBySize},
    {Algorithm::FirstFitByConflicts, "first-fit-by-conflicts",
     "largest size x bytes meeting its lifetime first, the lowest offset "
     "where it fits",
     planFirstFitByConflicts},
    {Algorithm::Skyline, "skyline",
     "from the bottom up: the lowest valley takes the longest-lived buffer "
     "that fits in it",
     [](const Problem &problem, unsigned) { return planSkyline(problem); }},
    {Algorithm::LongLivedSkyline, "long-lived-skyline",
     "the skyline of the buffers living 1/40 of the schedule or longer, then "
     "the others, largest first, into the lowest gap that holds them",
     [](const Problem &problem, unsigned) {
       return planLongLivedSkyline(problem);
     }},
    {Algorithm::Portfolio, "portfolio",
     "the best of the nine greedy placements (about 10x greedy-by-size's work, "
     "on up to nine threads)",
     [](const Problem &problem, unsigned) { return planPortfolio(problem); }},
    {Algorithm::Search, "search",
     "branch and bound from the best greedy plan, within a budget",
     [](const Problem &problem, unsigned) { return planSearch(problem, {}); }},
};

const AlgorithmInfo &info(Algorithm algorithm) {
  for (const AlgorithmInfo &entry : kAlgorithms)
    if (entry.algorithm == algorithm)
      return entry;
  return kAlgorithms[1];
}
} // namespace

std::string_view memplan::getAlgorithmName(Algorithm algorithm) {
  return info(algorithm).name;
}

std::string_view memplan::getAlgorithmDescription(Algorithm algorithm) {
  return info(algorithm).description;
}

std::optional<Algorithm> memplan::parseAlgorithm(std::string_view name) {
  for (const AlgorithmInfo &entry : kAlgorithms)
    if (entry.name == name)
      return entry.algorithm;
  return std::nullopt;
}

PlanResult memplan::plan(const Problem &problem, Algorithm algorithm,
                         const SearchOptions *search) {
  if (algorithm == Algorithm::Search && search)
    return planSearch(problem, *search);
  if (algorithm == Algorithm::Portfolio && search)
    return planPortfolio(problem, search->threads);
  return info(algorithm).run(problem, search ? search->threads : 1);
}
