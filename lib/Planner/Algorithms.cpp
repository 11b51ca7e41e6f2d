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
  PlanResult (*run)(const Problem &);
};

constexpr AlgorithmInfo kAlgorithms[] = {
    {Algorithm::Naive, "naive", planNaive},
    {Algorithm::GreedyBySize, "greedy-by-size", planGreedyBySize},
    {Algorithm::GreedyByBreadth, "greedy-by-breadth", planGreedyByBreadth},
    {Algorithm::BestFit, "best-fit", planBestFit},
    {Algorithm::SharedObjects, "shared-objects", planSharedObjects},
    {Algorithm::Search, "search",
     [](const Problem &problem) { return planSearch(problem, {}); }},
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

std::optional<Algorithm> memplan::parseAlgorithm(std::string_view name) {
  for (const AlgorithmInfo &entry : kAlgorithms)
    if (entry.name == name)
      return entry.algorithm;
  return std::nullopt;
}

std::string memplan::getAlgorithmNameList() {
  std::string list;
  for (const AlgorithmInfo &entry : kAlgorithms) {
    if (!list.empty())
      list += ", ";
    list += entry.name;
  }
  return list;
}

PlanResult memplan::plan(const Problem &problem, Algorithm algorithm,
                         const SearchOptions *search) {
  if (algorithm == Algorithm::Search && search)
    return planSearch(problem, *search);
  return info(algorithm).run(problem);
}
