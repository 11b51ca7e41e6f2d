//===- FullSectionBlocks.h - Buffers tied by full sections ---- -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner (used by the search). Where the sections on both
// sides of a point of the schedule are full at a capacity (their live bytes
// equal it), no byte is free there in any plan within that capacity, so the
// bytes freed by the buffers ending at the point are exactly the bytes taken
// by the buffers starting there. Some buffers must then share offsets in
// every such plan; they are merged into blocks, and the smaller problem of
// blocks has a plan within the capacity if and only if the original has.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_FULLSECTIONBLOCKS_H
#define MEMPLAN_LIB_PLANNER_FULLSECTIONBLOCKS_H

#include "memplan/Planner/Problem.h"

#include <cstdint>
#include <vector>

namespace memplan {

/// A problem whose buffers are blocks of the original ones: each original
/// buffer lies in a block, at an offset within it.
struct MergedProblem {
  Problem problem;
  std::vector<uint32_t> blockOf;
  std::vector<uint64_t> within;
};

/// Merges buffers into blocks at the points between sections full at
/// `capacity`, forwards and backwards in time, until nothing more merges.
/// A plan of the result, each buffer at its block's offset plus `within`,
/// is a plan of `problem`.
MergedProblem reduceAtFullBoundaries(const Problem &problem, uint64_t capacity);

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_FULLSECTIONBLOCKS_H
