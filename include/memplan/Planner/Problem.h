//===- Problem.h - The static memory allocation problem ---------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Plain C++17, no MLIR: the planner core can be used on its own (see
// memplan-plan) and is tested on its own.
//
// Convention, everywhere in memplan: a buffer is live on the HALF-OPEN
// interval [start, end) of schedule positions. Two buffers conflict when both
// have a non-zero size and their intervals intersect; conflicting buffers must
// not overlap in memory. In IR, a value defined by op i whose last use is op j
// is live on [i, j + 1): it conflicts with the results of op j.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_PLANNER_PROBLEM_H
#define MEMPLAN_PLANNER_PROBLEM_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memplan {

/// One buffer to place in the arena.
struct Buffer {
  uint64_t size = 0;      ///< bytes; zero-sized buffers conflict with nothing
  int64_t start = 0;      ///< first position at which the buffer is live
  int64_t end = 0;        ///< one past the last position (start < end)
  uint64_t alignment = 1; ///< the offset must be a multiple (a power of 2)
};

/// A list of buffers; a buffer's identity is its index.
struct Problem {
  std::vector<Buffer> buffers;
};

/// Shared-objects strategy only: buffers share whole objects laid out one
/// after another in the arena.
struct SharedObjectsSummary {
  uint64_t objectCount = 0;
  uint64_t totalBytes = 0;        ///< sum of the object sizes
  std::vector<uint32_t> objectOf; ///< the object of each buffer
};

/// Search only: how the search went.
struct SearchSummary {
  uint64_t startArena = 0; ///< the arena of the plan it started from
  /// The start is the naive layout (every buffer after the previous one):
  /// greedy placement ran out of the time budget. Else the best greedy plan.
  bool startedFromNaive = false;
  bool provenOptimal = false; ///< arena == lower bound, or search exhausted
  /// No plan is smaller than this: the lower bound, or one more than the
  /// largest capacity at which the search was exhausted (it can be above
  /// the lower bound, and equals the arena where that is proven optimal).
  uint64_t provenBound = 0;
  bool capacityMet = true;         ///< capacity mode: the arena fits
  bool capacityImpossible = false; ///< capacity mode: proven not to fit
  uint64_t nodes = 0;              ///< search nodes visited
  /// Problems of 1,000 buffers or more: steps of the neighbourhood search
  /// (moves around the top, greedy plans from perturbed orders, and rounds
  /// of jostling; counted in `nodes` too) that lowered the arena.
  uint64_t neighbourhoodImprovements = 0;
  /// Plans the search found that the validator refused (and that were not
  /// returned): always 0 unless the search has a bug.
  uint64_t rejectedPlans = 0;
  double seconds = 0; ///< wall-clock time spent
};

/// Portfolio only: which member's plan was kept, and every member's arena.
struct PortfolioSummary {
  std::string winner; ///< the member's algorithm name
  std::vector<std::pair<std::string, uint64_t>> arenas; ///< in run order
};

/// An offset per buffer and the arena size (the largest offset + size).
struct Solution {
  std::vector<uint64_t> offsets;
  uint64_t arenaSize = 0;
  std::optional<SharedObjectsSummary> sharedObjects;
  std::optional<SearchSummary> search;
  std::optional<PortfolioSummary> portfolio;
};

/// Empty if `problem` is well formed, else a message naming the first bad
/// buffer: start >= end, or an alignment that is not a power of two.
std::string checkProblem(const Problem &problem);

/// Max over time of the bytes live at once: no plan can use less. Saturates
/// at UINT64_MAX.
uint64_t computeLowerBound(const Problem &problem);

/// Sum of all buffer sizes: the arena if nothing were reused. Saturates at
/// UINT64_MAX.
uint64_t computeBytesWithoutReuse(const Problem &problem);

/// `value` rounded up to a multiple of `alignment` (>= 1); nullopt on
/// overflow.
std::optional<uint64_t> alignUp(uint64_t value, uint64_t alignment);

} // namespace memplan

#endif // MEMPLAN_PLANNER_PROBLEM_H
