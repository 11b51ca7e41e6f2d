//===- OffsetOrderedListTest.cpp - Placed buffers in offset order ---------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// OffsetOrderedList against a plain vector of its entries: after random
// inserts and erases (many at equal offsets, so that runs of them span
// blocks, and enough of them to split blocks and empty them again), a walk
// over a random range of slots must visit exactly the entries that meet it,
// in offset order, and stop when told to.
//
//===----------------------------------------------------------------------===//

#include "OffsetOrderedList.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace memplan;

namespace {

struct Entry {
  uint64_t offset, top;
  uint32_t first, last;
  bool operator<(const Entry &other) const {
    return std::tie(offset, top, first, last) <
           std::tie(other.offset, other.top, other.first, other.last);
  }
  bool operator==(const Entry &other) const {
    return !(*this < other) && !(other < *this);
  }
};

/// The (offset, top) pairs a walk over [first, last) visits, in visit order.
std::vector<std::pair<uint64_t, uint64_t>> walk(const OffsetOrderedList &list,
                                                uint32_t first, uint32_t last,
                                                size_t stopAfter = SIZE_MAX) {
  std::vector<std::pair<uint64_t, uint64_t>> visited;
  list.forEachMeeting(first, last, [&](uint64_t offset, uint64_t top) {
    visited.push_back({offset, top});
    return visited.size() < stopAfter;
  });
  return visited;
}

void expectSameWalk(const OffsetOrderedList &list,
                    const std::vector<Entry> &entries, uint32_t first,
                    uint32_t last, const std::string &what) {
  std::vector<std::pair<uint64_t, uint64_t>> expected;
  for (const Entry &entry : entries)
    if (entry.first < last && first < entry.last)
      expected.push_back({entry.offset, entry.top});
  std::vector<std::pair<uint64_t, uint64_t>> visited = walk(list, first, last);
  // In offset order; equal offsets in any order.
  ASSERT_TRUE(std::is_sorted(
      visited.begin(), visited.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; }))
      << what;
  std::sort(expected.begin(), expected.end());
  std::sort(visited.begin(), visited.end());
  ASSERT_EQ(expected, visited) << what;
}

/// A value as a block of base `base` keeps it near: its distance from the
/// base plus 2^31, capped at 2^32 - 1 (written out here, not taken from the
/// list).
uint32_t nearValue(uint64_t value, uint64_t base) {
  uint64_t distance = value - base;
  if (distance > UINT32_MAX - (uint64_t(1) << 31))
    return UINT32_MAX;
  return static_cast<uint32_t>(distance + (uint64_t(1) << 31));
}

/// The blocks' layout, which the vector walk reads directly (GapWalk.cpp):
/// entry e of a block in row e % rows, lane e / rows (slot row * 16 +
/// lane), rows the entries over 16 rounded up, every unused slot zero, the
/// blocks' entries in offset order the list's; each entry's near offset and
/// top its exact ones from the block's base (at most its lowest offset);
/// and the block wide, with its exact values kept apart, exactly where some
/// top lies 2^31 bytes or more above the base (the near values of a block
/// that is not wide are its entries).
void expectLayout(const OffsetOrderedList &list,
                  const std::vector<Entry> &entries, const std::string &what) {
  using Block = OffsetOrderedList::Block;
  using Exact = OffsetOrderedList::Exact;
  const uint64_t bias = uint64_t(1) << 31;
  std::vector<Entry> laidOut;
  for (size_t position = 0; position < list.blockCount(); ++position) {
    const Block &block = list.block(position);
    const Exact *exact = list.exactOf(block);
    ASSERT_LE(block.count, Block::kCapacity) << what;
    ASSERT_EQ(block.rows, std::max<uint32_t>(1, (block.count + 15) / 16))
        << what;
    std::vector<bool> used(Block::kCapacity, false);
    bool wide = false;
    for (uint32_t e = 0; e < block.count; ++e) {
      uint32_t slot = (e % block.rows) * 16 + e / block.rows;
      used[slot] = true;
      uint64_t offset = exact ? exact->offset[slot]
                              : block.base - bias + block.nearOffset[slot];
      uint64_t top =
          exact ? exact->top[slot] : block.base - bias + block.nearTop[slot];
      laidOut.push_back({offset, top, block.first[slot], block.last[slot]});
      ASSERT_LE(block.base, offset) << what << " slot " << slot;
      ASSERT_EQ(block.nearOffset[slot], nearValue(offset, block.base))
          << what << " slot " << slot;
      ASSERT_EQ(block.nearTop[slot], nearValue(top, block.base))
          << what << " slot " << slot;
      wide |= top - block.base >= bias;
    }
    ASSERT_EQ(exact != nullptr, wide) << what;
    for (uint32_t slot = 0; slot < Block::kCapacity; ++slot)
      if (!used[slot]) {
        ASSERT_EQ(block.first[slot], 0u) << what << " slot " << slot;
        ASSERT_EQ(block.last[slot], 0u) << what << " slot " << slot;
        ASSERT_EQ(block.nearOffset[slot], 0u) << what << " slot " << slot;
        ASSERT_EQ(block.nearTop[slot], 0u) << what << " slot " << slot;
        if (exact) {
          ASSERT_EQ(exact->offset[slot], 0u) << what << " slot " << slot;
          ASSERT_EQ(exact->top[slot], 0u) << what << " slot " << slot;
        }
      }
  }
  ASSERT_TRUE(std::is_sorted(
      laidOut.begin(), laidOut.end(),
      [](const Entry &a, const Entry &b) { return a.offset < b.offset; }))
      << what;
  std::vector<Entry> expected = entries;
  std::sort(expected.begin(), expected.end());
  std::sort(laidOut.begin(), laidOut.end());
  ASSERT_EQ(expected, laidOut) << what;
}

TEST(OffsetOrderedList, WalksMatchAPlainListThroughInsertsAndErases) {
  std::mt19937_64 rng(2026112801);
  for (int round = 0; round < 40; ++round) {
    OffsetOrderedList list;
    std::vector<Entry> entries;
    // Few distinct offsets in some rounds: runs of equal offsets longer
    // than a block.
    uint64_t offsets = round % 4 == 0 ? 3 : 1 + rng() % 5000;
    // Some rounds far apart, and some with large buffers, so that tops pass
    // 2^31 bytes above their blocks' bases (wide blocks), and blocks become
    // wide and narrow again as entries come and go.
    uint64_t spacing = round % 5 == 1 ? uint64_t(1) << (20 + rng() % 20) : 64;
    uint64_t sizes = round % 5 == 2 ? uint64_t(1) << 34 : 500;
    uint32_t slots = 1 + rng() % 300;
    for (int step = 0; step < 3000; ++step) {
      bool grow = entries.empty() || rng() % 100 < (step < 1500 ? 70 : 35);
      if (grow) {
        Entry entry;
        entry.offset = (rng() % offsets) * spacing;
        entry.top = entry.offset + 1 + rng() % sizes;
        entry.first = rng() % slots;
        entry.last = entry.first + 1 + rng() % (slots - entry.first);
        list.insert(entry.offset, entry.top, entry.first, entry.last);
        entries.push_back(entry);
      } else {
        size_t at = rng() % entries.size();
        Entry entry = entries[at];
        ASSERT_TRUE(
            list.erase(entry.offset, entry.top, entry.first, entry.last));
        entries.erase(entries.begin() + at);
        // An entry that is not there is not found.
        if (std::find(entries.begin(), entries.end(), entry) == entries.end()) {
          ASSERT_FALSE(
              list.erase(entry.offset, entry.top, entry.first, entry.last));
        }
      }
      ASSERT_EQ(list.size(), entries.size());
      if (step % 97 == 0) {
        uint32_t first = rng() % slots;
        uint32_t last = first + 1 + rng() % (slots - first);
        std::string what =
            "round " + std::to_string(round) + " step " + std::to_string(step);
        expectSameWalk(list, entries, first, last, what);
        expectLayout(list, entries, what);
      }
    }
    expectSameWalk(list, entries, 0, slots, "round " + std::to_string(round));
    // Emptied, it walks nothing, and fills again.
    for (const Entry &entry : entries)
      ASSERT_TRUE(list.erase(entry.offset, entry.top, entry.first, entry.last));
    EXPECT_EQ(list.size(), 0u);
    EXPECT_TRUE(walk(list, 0, slots).empty());
    list.insert(64, 128, 0, 1);
    EXPECT_EQ(walk(list, 0, slots).size(), 1u);
  }
}

TEST(OffsetOrderedList, AWalkStopsWhenTold) {
  OffsetOrderedList list;
  for (uint32_t i = 0; i < 1000; ++i)
    list.insert(i * 16, i * 16 + 8, i % 10, i % 10 + 1);
  // Slot 3: every tenth entry, from offset 48.
  std::vector<std::pair<uint64_t, uint64_t>> visited = walk(list, 3, 4, 5);
  ASSERT_EQ(visited.size(), 5u);
  for (size_t k = 0; k < visited.size(); ++k)
    EXPECT_EQ(visited[k].first, 48 + 160 * k);
}

TEST(OffsetOrderedList, SlotsAtTheEndsOfTheirRange) {
  // The filter compares slots as signed 32-bit numbers: the largest slots
  // must still compare as numbers.
  OffsetOrderedList list;
  uint32_t top = OffsetOrderedList::kMaxSlots - 1;
  list.insert(0, 10, 0, top);
  list.insert(16, 20, top - 1, top);
  list.insert(32, 40, 0, 1);
  EXPECT_EQ(walk(list, top - 1, top).size(), 2u);
  EXPECT_EQ(walk(list, 0, 1).size(), 2u);
  EXPECT_EQ(walk(list, 1, top - 1).size(), 1u);
}

} // namespace
