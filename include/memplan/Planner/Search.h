//===- Search.h - Search for smaller arenas ---------------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Starts from the best of the greedy offset algorithms (the portfolio's
// nine, so never above Algorithm::Portfolio's plan) and searches for a
// smaller arena by branch and bound over canonical placements (see
// lib/Planner/Search/SkylineSearch.cpp) and, where its attempt at the lower
// bound does not find a plan (on problems under 1,000 buffers: runs out of
// budget), by moves around the arena's top
// (NeighbourhoodSearch.cpp), greedy plans from perturbed orders
// (ReorderSearch.cpp) and jostling (Jostle.cpp), within a wall-clock budget
// and a deterministic node limit.
// Also answers capacity questions: does a plan fit in N bytes?
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_PLANNER_SEARCH_H
#define MEMPLAN_PLANNER_SEARCH_H

#include "memplan/Planner/PlanResult.h"

#include <cstdint>
#include <optional>

namespace memplan {

/// The longest wall-clock budget the tools accept, in seconds (about 11.6
/// days). plan() reads a budget that is negative or not a number as 0 and
/// one above this (infinity included) as this.
constexpr double kMaxSearchSeconds = 1e6;

/// Whether the tools accept `seconds` as a search budget: a finite number in
/// [0, kMaxSearchSeconds].
inline bool isValidSearchSeconds(double seconds) {
  return seconds >= 0 && seconds <= kMaxSearchSeconds;
}

/// The most threads a search uses: the exact search uses at most two (the
/// reduced and the original problem side by side), the neighbourhood search
/// one walk per thread.
constexpr unsigned kMaxSearchThreads = 64;

struct SearchOptions {
  /// Wall-clock budget in seconds for the whole search.
  double seconds = 1.0;
  /// Budget in search nodes (0: no limit). With a node limit and a generous
  /// time budget, results are reproducible exactly.
  uint64_t nodeLimit = 0;
  /// Capacity mode: find a plan whose arena is at most this many bytes, and
  /// stop there (no further minimisation).
  std::optional<uint64_t> capacity;
  /// Threads the search may use, at most kMaxSearchThreads. The exact
  /// search uses two where buffers can be merged into blocks (the reduced
  /// and the original problem side by side; otherwise they take turns on
  /// one thread), the neighbourhood search runs one independent walk per
  /// thread. 0: the machine's hardware
  /// threads. With a node limit the exact search uses one thread and the
  /// neighbourhood search as many walks as `threads` says (one for 0), each
  /// with an equal share of the nodes, so that results stay reproducible.
  /// Through plan(), Algorithm::Portfolio runs its members on as many
  /// (planPortfolio), and the placements into the smallest gap
  /// (greedy-by-size, best-fit, greedy-by-breadth, greedy-by-lifetime,
  /// greedy-by-conflicts) share their long walks among as many
  /// (GreedyAlgorithms.h), each with the same result on any number.
  unsigned threads = 0;
};

/// Plans with search. The solution's `search` summary says whether the arena
/// is proven optimal and, in capacity mode, whether the capacity was met
/// (PlanResult::ok() is then still true with the best plan found: check
/// `capacityMet`).
PlanResult planSearch(const Problem &problem, const SearchOptions &options);

} // namespace memplan

#endif // MEMPLAN_PLANNER_SEARCH_H
