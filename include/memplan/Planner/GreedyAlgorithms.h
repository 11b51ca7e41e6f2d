//===- GreedyAlgorithms.h - The one-pass offset algorithms ------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The algorithms that place every buffer once, in an order of their own
// (Pisarchyk & Lee 2020; XLA's heap simulator). The search (Search.h) starts
// from the best of them; Algorithms.h dispatches to any of them by name.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_PLANNER_GREEDYALGORITHMS_H
#define MEMPLAN_PLANNER_GREEDYALGORITHMS_H

#include "memplan/Planner/PlanResult.h"

namespace memplan {

// The placements into gaps below take `threads`: above one, where one list
// holds thousands of buffers live at once, each long walk over it for the
// smallest gap is shared among that many threads (0, or more than the
// machine runs at once: the machine's hardware threads; the first fits
// keep to one), with the same plan on any number (docs/planning.md,
// "Threads that share a walk").

PlanResult planNaive(const Problem &problem);
PlanResult planGreedyBySize(const Problem &problem, unsigned threads = 1);
PlanResult planGreedyByBreadth(const Problem &problem, unsigned threads = 1);
PlanResult planBestFit(const Problem &problem, unsigned threads = 1);
PlanResult planSharedObjects(const Problem &problem);

/// XLA's heap simulator in its temporal order: buffers by decreasing
/// lifetime (ties: larger first), each into the smallest gap that fits.
PlanResult planGreedyByLifetime(const Problem &problem, unsigned threads = 1);

/// Buffers by decreasing conflict (size times the bytes of the buffers whose
/// lifetimes meet theirs), each into the smallest gap that fits.
PlanResult planGreedyByConflicts(const Problem &problem, unsigned threads = 1);

/// The orders of greedy-by-size and greedy-by-conflicts, each buffer at the
/// lowest aligned offset where it overlaps no placed buffer live with it
/// (first fit) instead of into the smallest gap that holds it.
PlanResult planFirstFitBySize(const Problem &problem, unsigned threads = 1);
PlanResult planFirstFitByConflicts(const Problem &problem,
                                   unsigned threads = 1);

/// From the bottom up: the lowest valley of the placed buffers' skyline
/// (the leftmost of equal ones) takes the longest-lived unplaced buffer
/// whose lifetime lies within it (ties: the larger, the earlier start, the
/// lower index); a valley that none fits rises to its lower neighbour. No
/// buffer goes into a gap below the skyline.
PlanResult planSkyline(const Problem &problem);

/// The skyline (above) of the long-lived buffers, those whose lifetimes
/// cover at least 1/40 of the time slots (the distinct start and end
/// positions), then every other buffer, largest first (ties: the longer
/// lifetime, the earlier start, the lower index), at the lowest aligned
/// offset where it overlaps no placed buffer live with it (first fit): the
/// short-lived buffers fill the space the skyline gives up below its top
/// instead of raising its valleys.
PlanResult planLongLivedSkyline(const Problem &problem);

/// Greedy-by-size, best-fit, greedy-by-breadth, greedy-by-lifetime,
/// greedy-by-conflicts, first-fit-by-size, first-fit-by-conflicts, the
/// skyline and the long-lived skyline, the smallest arena kept (ties: the
/// earlier in that order); the solution's `portfolio` says which won and
/// what each gave. The nine run side by side on up to `threads` threads
/// (0: the machine's hardware threads; each holds its own placement
/// structure), with the same result on any number.
PlanResult planPortfolio(const Problem &problem, unsigned threads = 0);

} // namespace memplan

#endif // MEMPLAN_PLANNER_GREEDYALGORITHMS_H
