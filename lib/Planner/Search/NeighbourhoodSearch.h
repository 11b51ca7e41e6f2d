//===- NeighbourhoodSearch.h - Moves that lower the arena's top -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner: a large-neighbourhood search for problems too
// large for the exact search to improve (see NeighbourhoodSearch.cpp), used
// by planSearch (Search.cpp) before the exact search on problems of
// kNeighbourhoodMinBuffers buffers or more.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_NEIGHBOURHOODSEARCH_H
#define MEMPLAN_LIB_PLANNER_NEIGHBOURHOODSEARCH_H

#include "SearchBudget.h"
#include "memplan/Planner/Problem.h"

#include <cstdint>

namespace memplan {

/// From this many non-empty buffers up, planSearch runs the neighbourhood
/// search first (below it, the exact search alone: it finishes there).
constexpr size_t kNeighbourhoodMinBuffers = 1000;

/// Lowers `solution` (a valid plan of `problem`) by moves around its top
/// until the arena reaches `target`, or `budget` is spent (a move counts as
/// one node). Every move keeps the plan valid, and the best plan seen is the
/// result, so it is never worse. Deterministic for a given node budget.
/// Returns how many moves lowered the best arena. With `walks` above one,
/// that many independent walks run on their own threads, each with an equal
/// share of a node budget and its own random moves, and the best plan wins
/// (the lowest walk on ties): deterministic for a given node budget and
/// number of walks.
uint64_t improveByNeighbourhoods(const Problem &problem, Solution &solution,
                                 uint64_t target, SearchBudget &budget,
                                 unsigned walks = 1);

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_NEIGHBOURHOODSEARCH_H
