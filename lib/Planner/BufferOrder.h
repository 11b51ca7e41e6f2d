//===- BufferOrder.h - Orders in which planners take buffers ----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner library.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_BUFFERORDER_H
#define MEMPLAN_LIB_PLANNER_BUFFERORDER_H

#include "memplan/Planner/Problem.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace memplan {

/// Positions a buffer is live for (end - start, without overflow).
inline uint64_t lifetimeLength(const Buffer &buffer) {
  return static_cast<uint64_t>(buffer.end) -
         static_cast<uint64_t>(buffer.start);
}

/// The `index` fields of `entries` once sorted by `less`. Each entry holds
/// a copy of what the comparison reads beside its buffer's index, so the
/// sort reads neighbouring memory, not buffers anywhere among a million.
template <typename Entry, typename Less>
std::vector<uint32_t> sortedIndices(std::vector<Entry> entries, Less less) {
  std::sort(entries.begin(), entries.end(), less);
  std::vector<uint32_t> order;
  order.reserve(entries.size());
  for (const Entry &entry : entries)
    order.push_back(entry.index);
  return order;
}

/// Buffer indices sorted by `before(a, b)` on their buffers; ties that it
/// leaves go to the earlier start, then the lower index. `before` is handed
/// copies of the buffers (sortedIndices).
template <typename Before>
std::vector<uint32_t> orderBuffers(const Problem &problem, Before before) {
  struct Entry {
    Buffer buffer;
    uint32_t index;
  };
  std::vector<Entry> entries;
  entries.reserve(problem.buffers.size());
  for (size_t index = 0; index < problem.buffers.size(); ++index)
    entries.push_back({problem.buffers[index], static_cast<uint32_t>(index)});
  return sortedIndices(std::move(entries), [&](const Entry &a, const Entry &b) {
    if (before(a.buffer, b.buffer))
      return true;
    if (before(b.buffer, a.buffer))
      return false;
    if (a.buffer.start != b.buffer.start)
      return a.buffer.start < b.buffer.start;
    return a.index < b.index;
  });
}

/// Buffer indices by decreasing size, ties by earlier start, then by index
/// (so the order, and every plan built from it, is deterministic).
inline std::vector<uint32_t> orderBySizeThenStart(const Problem &problem) {
  return orderBuffers(problem, [](const Buffer &a, const Buffer &b) {
    return a.size > b.size;
  });
}

/// Buffer indices by decreasing lifetime, ties by larger size (XLA's
/// temporal order; the skyline's priority), then as orderBuffers.
inline std::vector<uint32_t> orderByLifetimeThenSize(const Problem &problem) {
  return orderBuffers(problem, [](const Buffer &a, const Buffer &b) {
    if (lifetimeLength(a) != lifetimeLength(b))
      return lifetimeLength(a) > lifetimeLength(b);
    return a.size > b.size;
  });
}

/// Buffers by decreasing conflict: size times the bytes of every buffer whose
/// lifetime meets theirs, their own included (GreedyByConflicts.cpp).
std::vector<uint32_t> orderByConflicts(const Problem &problem);

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_BUFFERORDER_H
