//===- Jostle.h - Plans packed from the top, then the bottom ----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the search: the last step of planSearch on large problems
// (Search.cpp). A round packs the plan against a ceiling, each buffer by
// first fit from the top in the order of its distance from the top, and then
// against the floor, each by first fit from the bottom in the order of its
// new offset: the "jostle" of Dowsland, Dowsland and Bennell (1998) for
// cutting patterns, here on the time x offset plane.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_SEARCH_JOSTLE_H
#define MEMPLAN_LIB_PLANNER_SEARCH_JOSTLE_H

#include "SearchBudget.h"
#include "memplan/Planner/Problem.h"

#include <cstdint>

namespace memplan {

/// Lowers `solution` (a valid plan of `problem`) by rounds of jostling until
/// the arena reaches `target`, a round leaves the plan as it was, or
/// `budget` is spent (each of a round's two placements counts as
/// buffers / kReorderBuffersPerNode nodes, at least one; a placement the
/// deadline interrupts is dropped). `solution` changes only to a smaller
/// plan, so it is never worse. Deterministic (it draws nothing). Returns how
/// many rounds lowered the arena.
uint64_t improveByJostling(const Problem &problem, Solution &solution,
                           uint64_t target, SearchBudget &budget);

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_SEARCH_JOSTLE_H
