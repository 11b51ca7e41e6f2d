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

#include "RadixSort.h"
#include "memplan/Planner/Problem.h"

#include <algorithm>
#include <array>
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

/// Buffer indices sorted by the keys `keysOf(buffer)` gives (an array of N
/// uint64_t, the first the most significant, each rising), ties to the
/// earlier start, then the lower index: stable radix sorts (RadixSort.h)
/// from the start up to the first key, the entries in index order to begin
/// with. For the orders by size of greedy placement, which a comparison
/// sort took 0.13 s on a million buffers (a tenth of planning them).
template <size_t N, typename KeysOf>
std::vector<uint32_t> orderByKeys(const Problem &problem, KeysOf keysOf) {
  struct Entry {
    std::array<uint64_t, N> keys;
    uint64_t start; // offset binary: sorts as the signed start does
    uint32_t index;
  };
  std::vector<Entry> entries;
  entries.reserve(problem.buffers.size());
  for (size_t index = 0; index < problem.buffers.size(); ++index) {
    const Buffer &buffer = problem.buffers[index];
    entries.push_back(
        {keysOf(buffer),
         static_cast<uint64_t>(buffer.start) ^ (uint64_t(1) << 63),
         static_cast<uint32_t>(index)});
  }
  std::vector<Entry> scratch;
  std::vector<uint32_t> counts;
  radixSort(entries, scratch, counts,
            [](const Entry &entry) { return entry.start; });
  for (size_t k = N; k-- > 0;)
    radixSort(entries, scratch, counts,
              [k](const Entry &entry) { return entry.keys[k]; });
  std::vector<uint32_t> order;
  order.reserve(entries.size());
  for (const Entry &entry : entries)
    order.push_back(entry.index);
  return order;
}

/// Buffer indices by decreasing size, ties by earlier start, then by index
/// (so the order, and every plan built from it, is deterministic).
inline std::vector<uint32_t> orderBySizeThenStart(const Problem &problem) {
  return orderByKeys<1>(problem, [](const Buffer &buffer) {
    return std::array<uint64_t, 1>{~buffer.size};
  });
}

/// Buffer indices by decreasing size, ties to the longer lifetime, then to the
/// earlier start and the lower index (best fit's order).
inline std::vector<uint32_t> orderBySizeThenLifetime(const Problem &problem) {
  return orderByKeys<2>(problem, [](const Buffer &buffer) {
    return std::array<uint64_t, 2>{~buffer.size, ~lifetimeLength(buffer)};
  });
}

/// Buffer indices by decreasing lifetime, ties by larger size (XLA's
/// temporal order; the skyline's priority), then to the earlier start and
/// the lower index.
inline std::vector<uint32_t> orderByLifetimeThenSize(const Problem &problem) {
  return orderByKeys<2>(problem, [](const Buffer &buffer) {
    return std::array<uint64_t, 2>{~lifetimeLength(buffer), ~buffer.size};
  });
}

/// Buffers by decreasing conflict: size times the bytes of every buffer whose
/// lifetime meets theirs, their own included (GreedyByConflicts.cpp).
std::vector<uint32_t> orderByConflicts(const Problem &problem);

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_BUFFERORDER_H
