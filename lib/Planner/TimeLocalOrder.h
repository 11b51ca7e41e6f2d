//===- TimeLocalOrder.h - A placement order that stays in time --*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. A placement into gaps (OffsetPlacement) reads only
// the placed buffers whose lifetimes meet the buffer's own: its gaps, and the
// range above them, are those of its neighbours. So two buffers whose
// lifetimes are disjoint can be placed in either order with the same
// offsets, and any order that keeps every two buffers that meet in their
// given order gives the same plan (a linear extension of "meets and comes
// first").
//
// Why reorder: greedy by size places buffers in an order that jumps about in
// time. Where the placed buffers are kept per window of time
// (TimeWindowedLists.h) and those lists outgrow the cache, each placement
// then reads lists from memory; on the random workload of a million buffers
// that was most of the placement time (docs/benchmarks.md). The order built
// here takes the given one in chunks of consecutive buffers and places each
// chunk in a sweep over time: a window's list is read once per chunk and
// serves every placement of the chunk in it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_TIMELOCALORDER_H
#define MEMPLAN_LIB_PLANNER_TIMELOCALORDER_H

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memplan {

/// `order` (buffer indices, each once), reordered chunk by chunk: the buffers
/// of each run of `chunk` consecutive ones go in order of their first slot,
/// except that a buffer waits for every buffer of its chunk that comes
/// before it in `order` and whose slots [first, last) meet its own. Every
/// two buffers that meet keep their relative order; chunks keep theirs. A
/// chunk where more than `maxPairsPerBuffer` times its size pairs meet
/// keeps its order. O(n + pairs counted) time, O(chunk * (1 +
/// maxPairsPerBuffer)) space besides the result. Slots below 2^32.
std::vector<uint32_t> timeLocalOrder(llvm::ArrayRef<uint32_t> order,
                                     llvm::ArrayRef<size_t> first,
                                     llvm::ArrayRef<size_t> last, size_t chunk,
                                     size_t maxPairsPerBuffer);

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_TIMELOCALORDER_H
