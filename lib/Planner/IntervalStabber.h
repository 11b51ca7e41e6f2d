//===- IntervalStabber.h - Which intervals cover a slot ---------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. A segment tree over the slots of a TimeAxis: an
// interval of slots [first, last) is stored at O(log slots) canonical nodes,
// and the intervals covering one slot are those stored on the path from that
// slot's leaf to the root, found in O(log slots + answers).
//
// Built in two phases so that every node's entries are contiguous in memory
// (the payloads a query reads sit next to each other, which matters with a
// million intervals): first `count` every interval that will be inserted,
// then `insert` them, in any order. A node lists its entries in insertion
// order until `erase` moves one.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_INTERVALSTABBER_H
#define MEMPLAN_LIB_PLANNER_INTERVALSTABBER_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memplan {

/// Removes one element equal to `value` from the `count` elements at
/// `elements`, moving the last one into its place (order is not kept);
/// false if there is none.
template <typename T>
bool eraseBySwapWithLast(T *elements, uint32_t &count, const T &value) {
  for (uint32_t i = 0; i < count; ++i)
    if (elements[i] == value) {
      elements[i] = elements[--count];
      return true;
    }
  return false;
}

/// `Payload` is what is stored per interval and handed back to the visitor
/// (an id, or whatever the caller needs without another memory access).
template <typename Payload> class IntervalStabber {
public:
  explicit IntervalStabber(size_t slotCount) {
    leafCount = 1;
    while (leafCount < slotCount)
      leafCount *= 2;
    begin.assign(2 * leafCount + 1, 0);
  }

  /// Phase 1: announces an interval [first, last) that will be inserted.
  void count(size_t first, size_t last) {
    forEachNode(first, last, [&](size_t node) { ++begin[node + 1]; });
  }

  /// Phase 2: stores `payload` for the slots [first, last). Every insert must
  /// have been counted.
  void insert(const Payload &payload, size_t first, size_t last) {
    if (!finalized)
      finalize();
    forEachNode(first, last, [&](size_t node) {
      entries[begin[node] + filled[node]++] = payload;
    });
  }

  /// Removes one entry equal to `payload` stored for [first, last) (it must
  /// have been inserted for that interval): at each node, the node's last
  /// entry takes its place, so a node's entries are no longer in insertion
  /// order after a removal. O(log slots + entries at those nodes).
  void erase(const Payload &payload, size_t first, size_t last) {
    forEachNode(first, last, [&](size_t node) {
      eraseBySwapWithLast(entries.data() + begin[node], filled[node], payload);
    });
  }

  /// Calls `fn(payload)` for every inserted interval that covers `slot`.
  template <typename Fn> void forEachCovering(size_t slot, Fn &&fn) const {
    if (!finalized)
      return;
    for (size_t node = slot + leafCount; node >= 1; node /= 2) {
      const Payload *entry = entries.data() + begin[node];
      for (uint32_t i = 0, e = filled[node]; i < e; ++i)
        fn(entry[i]);
    }
  }

private:
  template <typename Fn> void forEachNode(size_t first, size_t last, Fn &&fn) {
    for (size_t l = first + leafCount, r = last + leafCount; l < r;
         l /= 2, r /= 2) {
      if (l & 1)
        fn(l++);
      if (r & 1)
        fn(--r);
    }
  }

  void finalize() {
    for (size_t node = 1; node < begin.size(); ++node)
      begin[node] += begin[node - 1];
    entries.resize(begin.back());
    filled.assign(2 * leafCount, 0);
    finalized = true;
  }

  size_t leafCount = 1;
  bool finalized = false;
  std::vector<size_t> begin;    // node -> first entry (after finalize)
  std::vector<uint32_t> filled; // node -> entries inserted so far
  std::vector<Payload> entries;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_INTERVALSTABBER_H
