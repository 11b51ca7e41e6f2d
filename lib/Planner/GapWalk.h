//===- GapWalk.h - The gap walk over every placed buffer --------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. Feeds a GapSearch the entries of an
// OffsetOrderedList that meet a buffer's slots, in offset order: the
// portable walk visits each of them; the vector walk (x86-64 with AVX-512,
// chosen at run time) follows the eight lanes of a block at once, computes
// every entry's gap, and gives the search only the entries whose gaps could
// change its result, with the cursor the portable walk would have had at
// them. Both leave the search in the same state (GapWalkTest).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_GAPWALK_H
#define MEMPLAN_LIB_PLANNER_GAPWALK_H

#include "GapSearch.h"
#include "OffsetOrderedList.h"

namespace memplan {

/// Whether this machine runs the vector walk.
bool hasVectorGapWalk();

/// Walks the entries of `list` that meet [first, last) through `search`,
/// with the vector walk where `vector` and the machine allow it.
void walkGaps(const OffsetOrderedList &list, uint32_t first, uint32_t last,
              GapSearch &search, bool vector = true);

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_GAPWALK_H
