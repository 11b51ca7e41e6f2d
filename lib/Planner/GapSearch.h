//===- GapSearch.h - A buffer's gap among its neighbours --------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. The state of the search for a buffer's gap, fed
// the buffer's neighbours (the placed buffers whose lifetimes meet its own)
// in offset order: `cursor` is the lowest byte above every neighbour seen so
// far, and a gap is [cursor, the next neighbour's offset). OffsetPlacement
// feeds it neighbours it collected and sorted; the walks over every placed
// buffer (OffsetOrderedList, GapWalk.h) feed it the same neighbours in the
// same order, or, in the vector walk, only those whose gaps may decide.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_GAPSEARCH_H
#define MEMPLAN_LIB_PLANNER_GAPSEARCH_H

#include "memplan/Planner/Problem.h"

#include "llvm/Support/Compiler.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace memplan {

/// Free bytes [begin, end).
struct FreeRange {
  uint64_t begin, end;
};

struct GapSearch {
  uint64_t size, alignment;
  bool firstFit; // the lowest gap that holds the buffer, not the smallest
  uint64_t cursor = 0, bestOffset = 0, bestGap = UINT64_MAX;
  bool found = false;
  /// Where set, the search chooses nothing: it appends every gap that holds
  /// the buffer before alignment, in the order it sees them
  /// (TimeWindowedLists.h intersects them).
  std::vector<FreeRange> *recorded = nullptr;

  /// Takes the next neighbour by offset; false once the search is decided
  /// (first fit found its gap).
  bool visit(uint64_t offset, uint64_t top) {
    if (!consider(offset, cursor))
      return false;
    cursor = std::max(cursor, top);
    return true;
  }

  /// Weighs the gap [cursor, offset) below a neighbour at `offset`, with
  /// `cursor` the lowest byte above every neighbour before it; false once
  /// the search is decided.
  bool consider(uint64_t offset, uint64_t cursor) {
    // The gap must hold the buffer even before alignment, and beat the best
    // so far; only then is the aligned start worth computing. Where many
    // buffers are live at once about half the neighbours open a gap, at
    // random, and few of those fit (docs/planning.md): the gap is taken
    // without a branch (0 for none), so the one test left is rarely true.
    // That test is size <= gap < bestGap as one unsigned comparison: below
    // `size`, gap - size wraps past bestGap - size (bestGap >= size holds
    // throughout: it starts at the maximum and only takes fitting gaps).
    uint64_t gap = offset - std::min(offset, cursor);
    if (LLVM_UNLIKELY(gap - size < bestGap - size)) {
      if (recorded) {
        recorded->push_back({cursor, offset});
        return true;
      }
      if (std::optional<uint64_t> start =
              alignedStartIn(cursor, offset, size, alignment)) {
        bestGap = gap;
        bestOffset = *start;
        found = true;
        // First fit takes the lowest gap; no gap is below the buffer's size.
        if (firstFit || gap == size)
          return false;
      }
    }
    return true;
  }

  /// Where a buffer of `size` bytes starts in the gap [cursor, offset) once
  /// aligned, if it still fits. Out of line and free of the search's state,
  /// so that the walk keeps that state in registers.
  LLVM_ATTRIBUTE_NOINLINE static std::optional<uint64_t>
  alignedStartIn(uint64_t cursor, uint64_t offset, uint64_t size,
                 uint64_t alignment) {
    std::optional<uint64_t> aligned = alignUp(cursor, alignment);
    if (!aligned || *aligned > offset || offset - *aligned < size)
      return std::nullopt;
    return aligned;
  }
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_GAPSEARCH_H
