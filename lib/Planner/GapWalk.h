//===- GapWalk.h - The gap walk over every placed buffer --------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. Feeds a GapSearch the entries of an
// OffsetOrderedList that meet a buffer's slots, in offset order: the
// portable walk visits each of them; the vector walk (x86-64 with AVX-512,
// chosen at run time) follows the 16 lanes of a block at once on the
// block's 32-bit near offsets and tops, computes every entry's gap, and
// gives the search only the entries whose gaps could change its result,
// with the cursor the portable walk would have had at them. Both leave the
// search in the same state (GapWalkTest).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_GAPWALK_H
#define MEMPLAN_LIB_PLANNER_GAPWALK_H

#include "GapSearch.h"
#include "OffsetOrderedList.h"

#include <vector>

namespace memplan {

/// Whether this machine runs the vector walk.
bool hasVectorGapWalk();

/// Walks the entries of `list` that meet [first, last) through `search`,
/// with the vector walk where `vector` and the machine allow it.
void walkGaps(const OffsetOrderedList &list, uint32_t first, uint32_t last,
              GapSearch &search, bool vector = true);

/// The walk in two passes over a range of a list's blocks, so that threads
/// can share one walk (WalkTeam.h): the first pass finds which entries meet
/// the buffer and the highest top among them, which is the cursor at the
/// next range's start; the second, from the cursor at the range's start,
/// leaves the search as walkGaps over those blocks alone would. Where the
/// vector walk runs, the first pass keeps, per block, what the second reads
/// (the lanes' highest near tops and the rows' masks, 128 bytes); the
/// portable one walks the entries twice.
class SplitGapWalk {
public:
  /// What the first pass keeps of a block: each lane's highest near top
  /// among the entries that meet the buffer, and the rows' masks of those.
  struct Kept {
    alignas(64) uint32_t laneTops[OffsetOrderedList::Block::kLanes];
    OffsetOrderedList::Block::RowMask
        rowMasks[OffsetOrderedList::Block::kMaxRows];
    bool meets;
  };

  /// The first pass over the blocks at positions [begin, end) of `list`
  /// for a buffer of slots [first, last): the highest top among their
  /// entries that meet it (0 if none).
  uint64_t firstPass(const OffsetOrderedList &list, size_t begin, size_t end,
                     uint32_t first, uint32_t last, bool vector = true);

  /// The second pass over the same blocks, `search`'s cursor being the one
  /// at the first of them. The list must not have changed since.
  void secondPass(GapSearch &search) const;

private:
  const OffsetOrderedList *list_ = nullptr;
  size_t begin_ = 0, end_ = 0;
  uint32_t first_ = 0, last_ = 0;
  bool vector_ = false;
  std::vector<Kept> kept;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_GAPWALK_H
