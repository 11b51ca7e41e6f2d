//===- GapWalkTest.cpp - The gap walk over every placed buffer ------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Both gap walks (GapWalk.h) against a plain one written here: the entries
// that meet the buffer, sorted by offset, fed one by one to a GapSearch.
// Every field of the search must end the same: the gap found, its offset,
// and the cursor (where the walk stopped, for first fit). The lists are
// built by random inserts and erases, so that blocks split, empty and run
// at every fill; offsets reach the top of the 64-bit range, where a signed
// comparison would go wrong; and some rounds mix buffers of 2-6 GiB with
// small ones, so that the vector walk's 32-bit distances from a block's
// base are capped (tops 2^31 bytes or more above it), blocks span more
// than 2^31 bytes (wide), and cursors enter blocks from far below.
//
//===----------------------------------------------------------------------===//

#include "GapWalk.h"
#include "WalkTeam.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace memplan;

namespace {

struct Entry {
  uint64_t offset, top;
  uint32_t first, last;
};

GapSearch plainWalk(const std::vector<Entry> &entries, uint32_t first,
                    uint32_t last, GapSearch search) {
  std::vector<Entry> meeting;
  for (const Entry &entry : entries)
    if (entry.first < last && first < entry.last)
      meeting.push_back(entry);
  std::stable_sort(
      meeting.begin(), meeting.end(),
      [](const Entry &a, const Entry &b) { return a.offset < b.offset; });
  for (const Entry &entry : meeting)
    if (!search.visit(entry.offset, entry.top))
      break;
  return search;
}

void expectSameSearch(const GapSearch &expected, const GapSearch &actual,
                      const std::string &what) {
  EXPECT_EQ(expected.found, actual.found) << what;
  EXPECT_EQ(expected.bestGap, actual.bestGap) << what;
  EXPECT_EQ(expected.bestOffset, actual.bestOffset) << what;
  EXPECT_EQ(expected.cursor, actual.cursor) << what;
}

/// Random entries that do not overlap where they meet in time, as a
/// placement's are: each a buffer put at a random free offset.
struct RandomList {
  OffsetOrderedList list;
  std::vector<Entry> entries;

  /// With `mixed`, most buffers of at most 1 MiB and one in eight of
  /// 2-6 GiB: in a block whose offsets span less than 2^31 bytes (where the
  /// vector walk reads 32-bit distances from the block's base), tops more
  /// than 2^31 bytes above the base.
  void grow(std::mt19937_64 &rng, uint64_t base, uint64_t span, uint32_t slots,
            bool mixed = false) {
    Entry entry;
    entry.first = rng() % slots;
    entry.last = entry.first + 1 +
                 rng() % std::min<uint32_t>(slots - entry.first, 1 + slots / 3);
    uint64_t size = 1 + rng() % (span / 64 + 1);
    if (mixed)
      size = rng() % 8 ? 1 + rng() % (uint64_t(1) << 20)
                       : (uint64_t(2) << 30) + rng() % (uint64_t(4) << 30);
    entry.offset = base + (rng() % (span - size + 1)) / 8 * 8;
    entry.top = entry.offset + size;
    for (const Entry &other : entries)
      if (other.first < entry.last && entry.first < other.last &&
          other.offset < entry.top && entry.offset < other.top)
        return; // overlaps: skip it
    list.insert(entry.offset, entry.top, entry.first, entry.last);
    entries.push_back(entry);
  }

  void shrink(std::mt19937_64 &rng) {
    size_t at = rng() % entries.size();
    const Entry &entry = entries[at];
    ASSERT_TRUE(list.erase(entry.offset, entry.top, entry.first, entry.last));
    entries.erase(entries.begin() + at);
  }
};

/// The plain walk's search over `random`'s entries, after checking that
/// the portable walk, and the vector one where `vector`, end the same.
GapSearch expectWalksMatch(const RandomList &random, uint32_t first,
                           uint32_t last, const GapSearch &search, bool vector,
                           const std::string &what) {
  GapSearch expected = plainWalk(random.entries, first, last, search);
  GapSearch portable = search;
  walkGaps(random.list, first, last, portable, /*vector=*/false);
  expectSameSearch(expected, portable, what + " (portable)");
  if (vector) {
    GapSearch fast = search;
    walkGaps(random.list, first, last, fast, /*vector=*/true);
    expectSameSearch(expected, fast, what + " (vector)");
  }
  return expected;
}

TEST(GapWalk, BothWalksMatchAPlainWalk) {
  std::mt19937_64 rng(2026112802);
  const bool vector = hasVectorGapWalk();
  size_t decidedByCandidates = 0;
  // MEMPLAN_GAPWALK_ROUNDS=N runs more rounds (the first 60 are CI's).
  int rounds = 60;
  if (const char *text = std::getenv("MEMPLAN_GAPWALK_ROUNDS"))
    rounds = std::max(1, std::atoi(text));
  for (int round = 0; round < rounds; ++round) {
    RandomList random;
    uint32_t slots = 1 + rng() % 400;
    // Some rounds high in the 64-bit range, some both low and high, some
    // with many equal offsets.
    const uint64_t high = UINT64_MAX - (uint64_t(1) << 40);
    uint64_t span = round % 5 == 0 ? 4096 : uint64_t(1) << (10 + rng() % 25);
    size_t target = round % 4 == 0 ? 1 + rng() % 20 : 1 + rng() % 3000;
    const bool mixed = round % 7 == 6;
    if (mixed) {
      span = uint64_t(1) << 36;
      target = 2000 + rng() % 2000;
    }
    for (int step = 0; step < 6000; ++step) {
      if (random.entries.size() < target || rng() % 4 == 0)
        random.grow(rng,
                    round % 3 == 0 || (round % 3 == 1 && rng() % 2) ? high : 0,
                    span, slots, mixed);
      else
        random.shrink(rng);
      if (step % 150 != 149)
        continue;
      for (int query = 0; query < 8; ++query) {
        uint32_t first = rng() % slots;
        uint32_t last = first + 1 + rng() % (slots - first);
        GapSearch search{};
        search.size = 1 + rng() % (span / (query % 2 ? 8 : 256) + 1);
        search.alignment = uint64_t(1) << (rng() % 13);
        search.firstFit = query % 3 == 0;
        std::string what = "round " + std::to_string(round) + " step " +
                           std::to_string(step) + " query " +
                           std::to_string(query);
        GapSearch expected =
            expectWalksMatch(random, first, last, search, vector, what);
        decidedByCandidates += expected.found;
      }
    }
  }
  // The searches found gaps often enough to test the candidates' path.
  EXPECT_GT(decidedByCandidates, 1000u);
  if (!vector)
    GTEST_SKIP() << "this machine has no vector walk: the portable one was "
                    "checked alone";
}

// Buffers of 2 GiB and more, whose gaps lie between blocks: the list is a
// few clusters of small buffers, each cluster's blocks narrow (their near
// values exact), with gigabytes free between clusters, so that the gap a
// large buffer takes opens from a cursor far below the next block's base.
// The vector walk gives such buffers its 64-bit walk on every block.
TEST(GapWalk, LargeBuffersBetweenNarrowBlocks) {
  std::mt19937_64 rng(2026120204);
  const bool vector = hasVectorGapWalk();
  WalkTeam team(2);
  size_t found = 0, large = 0;
  for (int round = 0; round < 12; ++round) {
    RandomList random;
    uint32_t slots = 2 + rng() % 200;
    uint32_t clusters = 2 + rng() % 6;
    std::vector<uint64_t> bases;
    for (uint32_t c = 0; c < clusters; ++c)
      bases.push_back((uint64_t(c) * 8 + rng() % 6) << 30);
    for (int step = 0; step < 3000; ++step)
      random.grow(rng, bases[rng() % clusters], uint64_t(64) << 20, slots);
    for (int query = 0; query < 200; ++query) {
      uint32_t first = rng() % slots;
      uint32_t last = first + 1 + rng() % (slots - first);
      GapSearch search{};
      search.size = query % 4 == 0
                        ? 1 + rng() % (uint64_t(1) << 24)
                        : (uint64_t(1) << 31) + rng() % (uint64_t(6) << 30);
      search.alignment = uint64_t(1) << (rng() % 13);
      search.firstFit = query % 3 == 0;
      std::string what =
          "round " + std::to_string(round) + " query " + std::to_string(query);
      GapSearch expected =
          expectWalksMatch(random, first, last, search, vector, what);
      found += expected.found;
      large += expected.found && search.size >= (uint64_t(1) << 31);
      if (!search.firstFit) {
        GapSearch shared = search;
        team.walk(random.list, first, last, shared, vector);
        expectSameSearch(expected, shared, what + " (two threads)");
      }
    }
  }
  // Large buffers found gaps between the clusters, not only above them.
  EXPECT_GT(large, 300u);
  EXPECT_GT(found, 1000u);
}

// A team's walk (WalkTeam.h: the list's blocks in one range per thread,
// each range's first pass, then each second pass from the cursor of the
// ranges before it) against the plain walk, on teams of two to four
// threads, the vector and the portable passes, lists of one block to
// dozens (fewer blocks than threads too: empty ranges), and queries that
// end in every range, found and not, first and best fit, some sized to
// fit a gap exactly.
TEST(GapWalk, TeamsMatchAPlainWalk) {
  std::mt19937_64 rng(2026120203);
  WalkTeam teams[] = {WalkTeam(2), WalkTeam(3), WalkTeam(4)};
  size_t found = 0, exact = 0;
  for (int round = 0; round < 16; ++round) {
    RandomList random;
    uint32_t slots = 1 + rng() % 300;
    uint64_t span = round % 4 == 0 ? 4096 : uint64_t(1) << (12 + rng() % 20);
    size_t target = round % 6 == 0 ? 1 + rng() % 10 : 1 + rng() % 4000;
    const bool mixed = round % 5 == 4;
    if (mixed) {
      span = uint64_t(1) << 36;
      target = 2000 + rng() % 2000;
    }
    for (int step = 0; step < 6000; ++step) {
      if (random.entries.size() < target || rng() % 4 == 0)
        random.grow(rng, round % 3 == 0 ? UINT64_MAX - (uint64_t(1) << 40) : 0,
                    span, slots, mixed);
      else
        random.shrink(rng);
      if (step % 400 != 399)
        continue;
      for (int query = 0; query < 6; ++query) {
        uint32_t first = rng() % slots;
        uint32_t last = first + 1 + rng() % (slots - first);
        GapSearch search{};
        search.size = 1 + rng() % (span / (query % 2 ? 8 : 256) + 1);
        search.alignment = uint64_t(1) << (rng() % 4);
        search.firstFit = query % 3 == 0;
        GapSearch expected = plainWalk(random.entries, first, last, search);
        if (query == 5 && expected.found) {
          // Again, sized to the gap found: an exact fit ends the walk.
          search.size = expected.bestGap;
          search.alignment = 1;
          expected = plainWalk(random.entries, first, last, search);
          exact += expected.found && expected.bestGap == search.size;
        }
        found += expected.found;
        for (WalkTeam &team : teams)
          for (bool vector : {false, true}) {
            GapSearch shared = search;
            team.walk(random.list, first, last, shared, vector);
            expectSameSearch(expected, shared,
                             "round " + std::to_string(round) + " step " +
                                 std::to_string(step) + " query " +
                                 std::to_string(query) + ", " +
                                 std::to_string(team.size()) + " threads" +
                                 (vector ? " (vector)" : " (portable)"));
          }
      }
    }
  }
  EXPECT_GT(found, 300u);
  EXPECT_GT(exact, 20u);
}

} // namespace
