//===- Algorithms.h - Offset planning algorithms ----------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every algorithm is a function Problem -> Solution. None of them is trusted:
// tests check every result with validateSolution (Validator.h).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_PLANNER_ALGORITHMS_H
#define MEMPLAN_PLANNER_ALGORITHMS_H

#include "memplan/Planner/GreedyAlgorithms.h"
#include "memplan/Planner/PlanResult.h"

#include <string>
#include <string_view>
#include <vector>

namespace memplan {

enum class Algorithm {
  Naive,               ///< no reuse: buffers one after another
  GreedyBySize,        ///< the default (Pisarchyk & Lee 2020, TFLite)
  GreedyByBreadth,     ///< positions by decreasing live bytes (same paper)
  BestFit,             ///< XLA heap simulator: decreasing size, least leftover
  SharedObjects,       ///< buffers share whole objects (same paper)
  GreedyByLifetime,    ///< XLA heap simulator, temporal: longest-lived first
  GreedyByConflicts,   ///< size x bytes meeting its lifetime, largest first
  FirstFitBySize,      ///< greedy-by-size's order, the lowest gap that fits
  FirstFitByConflicts, ///< greedy-by-conflicts' order, the lowest gap
  Skyline,             ///< the lowest valley takes the longest that fits
  LongLivedSkyline,    ///< the skyline of the long-lived, first fit the rest
  Portfolio,           ///< the best of the nine greedy placements above
  Search,              ///< the greedy plans improved within a budget
};

/// Every algorithm, in the order help texts list them.
constexpr Algorithm kAllAlgorithms[] = {Algorithm::Naive,
                                        Algorithm::GreedyBySize,
                                        Algorithm::GreedyByBreadth,
                                        Algorithm::BestFit,
                                        Algorithm::SharedObjects,
                                        Algorithm::GreedyByLifetime,
                                        Algorithm::GreedyByConflicts,
                                        Algorithm::FirstFitBySize,
                                        Algorithm::FirstFitByConflicts,
                                        Algorithm::Skyline,
                                        Algorithm::LongLivedSkyline,
                                        Algorithm::Portfolio,
                                        Algorithm::Search};

/// The option spelling: "naive", "greedy-by-size", ...
std::string_view getAlgorithmName(Algorithm algorithm);
/// One line on what the algorithm does, for help texts.
std::string_view getAlgorithmDescription(Algorithm algorithm);
/// The algorithm with that spelling, if any.
std::optional<Algorithm> parseAlgorithm(std::string_view name);

struct SearchOptions;

/// Plans with `algorithm`; `search` configures Algorithm::Search (default
/// options when null), and its `threads` the portfolio's.
PlanResult plan(const Problem &problem, Algorithm algorithm,
                const SearchOptions *search = nullptr);

} // namespace memplan

#endif // MEMPLAN_PLANNER_ALGORITHMS_H
