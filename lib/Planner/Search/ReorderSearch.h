//===- ReorderSearch.h - Skyline plans from perturbed orders ----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the search. On traces of thousands of buffers the top of a
// good plan is flat: on the 10,000-buffer trace family, the highest buffer
// live at a position reaches within 0.5 % of the arena at 96 % of the
// positions (docs/benchmarks.md). A move that lowers a few buffers at the
// top cannot lower the arena there; a different plan from scratch can.
// This search is an iterated greedy: it keeps an order of the buffers,
// moves a few random buffers in it (their positions scaled by a random
// factor around one), builds the plan of the new order, and keeps the new
// order when its plan is no larger. The plans are skyline plans
// (SkylinePlacement.h) with the order as priority, from the skyline's own
// (longest-lived first), or first-fit plans in the order, from greedy by
// conflicts'; the search picks the base whose unperturbed plan is smaller.
// On large traces the skyline's base orders only the long-lived buffers
// and the others go into the gaps they leave (LongLivedSkyline.h).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_SEARCH_REORDERSEARCH_H
#define MEMPLAN_LIB_PLANNER_SEARCH_REORDERSEARCH_H

#include "SearchBudget.h"
#include "memplan/Planner/Problem.h"

#include <cstdint>
#include <vector>

namespace memplan {

/// The plans a walk builds, and the order it starts from.
enum class ReorderBase {
  Skyline,             ///< skyline plans; the skyline's priority
  FirstFitByConflicts, ///< first fit in the order; greedy by conflicts'
  /// LongLivedSkyline.h: the skyline of the long-lived buffers in the order
  /// (the skyline's priority), first fit of the others in their gaps; on
  /// problems it splits (LongLivedSkyline::splits), in place of Skyline.
  LongLivedSkyline,
};

/// The base for a problem whose skyline plan is the smaller start:
/// LongLivedSkyline where that placement splits the problem, else Skyline.
ReorderBase skylineBaseFor(const Problem &problem);

/// A plan from a new order costs this many buffers per node of the budget.
constexpr uint64_t kReorderBuffersPerNode = 32;

/// Where a caller that lowers a plan more than once takes up the walks:
/// the order the last call's best walk ended on (its plan's arena beside
/// it), and how many calls there were, which changes the walks' random
/// draws. Empty at first: the walks start from the base's own order.
struct ReorderWalkState {
  std::vector<uint32_t> order;
  uint64_t arena = UINT64_MAX; // the plan of `order`
  uint64_t calls = 0;
};

/// Lowers `solution` (a valid plan of `problem`) by plans of `base` from
/// perturbed orders until the arena reaches `target` or `budget` is spent
/// (each plan counts as buffers / kReorderBuffersPerNode nodes, at least
/// one; a plan the deadline interrupts is dropped). `solution` changes only
/// to a smaller plan, so it is never worse. Deterministic for a given node
/// budget and number of walks (IndependentWalks.h). With `state`, every
/// walk starts from its order and it ends with the best walk's. Returns how
/// many of the best walk's plans lowered the arena.
uint64_t improveByReordering(const Problem &problem, Solution &solution,
                             uint64_t target, SearchBudget &budget,
                             unsigned walks = 1,
                             ReorderBase base = ReorderBase::Skyline,
                             ReorderWalkState *state = nullptr);

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_SEARCH_REORDERSEARCH_H
