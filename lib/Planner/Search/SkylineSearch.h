//===- SkylineSearch.h - Is there a plan within C bytes? --------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner: the decision procedure of the search (depth-first
// branch and bound over canonical placements; see SkylineSearch.cpp), used
// by planSearch (Search.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_SKYLINESEARCH_H
#define MEMPLAN_LIB_PLANNER_SKYLINESEARCH_H

#include "SearchBudget.h"
#include "memplan/Planner/Problem.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace memplan {

/// The stack a search needs (reserved, not committed, up front): it
/// recurses once per buffer it places. planSearch runs every SkylineSearch
/// on a thread with a stack this large.
constexpr unsigned kSearchStackBytes = 256u << 20;

/// The decision procedure on one problem (sizes already padded to the
/// alignment, zero-sized buffers removed). Calls may be repeated with other
/// capacities and budgets; failed states are remembered while the capacity
/// stays the same.
class SkylineSearch {
public:
  explicit SkylineSearch(const Problem &problem);
  ~SkylineSearch();
  SkylineSearch(const SkylineSearch &) = delete;
  SkylineSearch &operator=(const SkylineSearch &) = delete;

  /// Looks for a plan within `capacity`, spending `budget`.
  SearchOutcome decide(uint64_t capacity, SearchBudget &budget);
  /// After decide() returned Found: the offset of every buffer.
  const std::vector<uint64_t> &offsets() const;

private:
  class Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_SKYLINESEARCH_H
