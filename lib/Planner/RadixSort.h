//===- RadixSort.h - Stable sorts by 64-bit keys ----------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. An LSD radix sort, for the sorts of thousands to
// millions of items by an integer key that a comparison sort made a large
// share of a placement's time: neighbours by offset (OffsetPlacement), a
// chunk's buffers by first slot (TimeLocalOrder), the buffers by size
// (BufferOrder.h). Only the bits in which two keys differ are sorted on:
// below and above them every key has the same bits (aligned offsets end in
// zeros, slots near one another share their high bits), and a pass over
// those would move nothing. LLVM Support has no radix sort.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_RADIXSORT_H
#define MEMPLAN_LIB_PLANNER_RADIXSORT_H

#include "llvm/ADT/bit.h"

#include <cassert>
#include <cstdint>
#include <vector>

namespace memplan {

/// Sorts `items` by `keyOf(item)` (a uint64_t), rising and stably: equal
/// keys keep their order. Passes of at most `maxDigit` bits, spread evenly
/// over the bits in which the keys differ. `scratch` and `counts` are
/// working space, kept by callers that sort often.
template <typename T, typename KeyOf>
void radixSort(std::vector<T> &items, std::vector<T> &scratch,
               std::vector<uint32_t> &counts, KeyOf keyOf,
               unsigned maxDigit = 11) {
  assert(maxDigit >= 1 && maxDigit <= 16 && "a counts array per pass");
  uint64_t any = 0, all = ~uint64_t(0);
  for (const T &item : items) {
    uint64_t key = keyOf(item);
    any |= key;
    all &= key;
  }
  uint64_t differ = any ^ all;
  if (differ == 0)
    return; // every key is the same
  unsigned low = llvm::countr_zero(differ);
  unsigned bits = 64 - llvm::countl_zero(differ) - low;
  unsigned passes = (bits + maxDigit - 1) / maxDigit;
  unsigned digit = (bits + passes - 1) / passes;
  uint64_t mask = (uint64_t(1) << digit) - 1;
  scratch.resize(items.size());
  for (unsigned shift = low; shift < low + bits; shift += digit) {
    counts.assign(mask + 2, 0);
    for (const T &item : items)
      ++counts[((keyOf(item) >> shift) & mask) + 1];
    for (size_t bucket = 1; bucket < counts.size(); ++bucket)
      counts[bucket] += counts[bucket - 1];
    for (const T &item : items)
      scratch[counts[(keyOf(item) >> shift) & mask]++] = item;
    items.swap(scratch);
  }
}

/// The same, with working space of its own.
template <typename T, typename KeyOf>
void radixSort(std::vector<T> &items, KeyOf keyOf, unsigned maxDigit = 11) {
  std::vector<T> scratch;
  std::vector<uint32_t> counts;
  radixSort(items, scratch, counts, keyOf, maxDigit);
}

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_RADIXSORT_H
