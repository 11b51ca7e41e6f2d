//===- NeighbourhoodSearch.cpp - Moves that lower the arena's top ---------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// On real compiler traces (thousands of buffers, most plans a few percent
// above the lower bound, rarely packable exactly) the exact search never
// gets to improve anything. This search moves buffers instead, one
// neighbourhood at a time, around the arena's top: an ejection move takes a
// buffer whose top is the arena's, puts it lower (at the offset of another
// buffer live with it, aligned), removes every buffer it now overlaps, and
// places those again by best gap (OffsetPlacement, greedy by size with the
// sizes perturbed for the order), together with the other buffers at the
// top and a few random buffers live with it, which gives the re-placement
// room. A move is kept when the arena does not grow. After 100 moves
// without a better plan, one move (a kick) re-places up to 64 random
// buffers and is kept even if the arena grows by up to 1 %: iterated local
// search, the best plan kept apart.
//
// Measured (docs/benchmarks.md): the ejection is what lowers the top
// (random removals alone closed a third of the gap at 1,000 buffers and
// nothing at 10,000), and kicks get it out of the local optima where plain
// moves stall (at 1,000 buffers, 39 % -> 53 % of the gap closed on three
// traces).
//
//===----------------------------------------------------------------------===//

#include "NeighbourhoodSearch.h"

#include "IndependentWalks.h"
#include "OffsetPlacement.h"

#include <algorithm>
#include <optional>
#include <random>
#include <utility>
#include <vector>

namespace memplan {

namespace {

/// Random extra buffers a move re-places besides those the ejected buffer
/// blocks: uniform in [0, kMaxExtraBuffers] (more made moves less likely to
/// succeed on the trace family).
constexpr uint32_t kMaxExtraBuffers = 8;

/// Iterated local search: after this many moves without a better plan, one
/// move re-places up to kKickExtraBuffers random buffers and is kept even if
/// the arena grows by up to 1/kKickSlackDivisor (the best plan is kept
/// apart).
constexpr uint64_t kMovesBeforeKick = 100;
constexpr uint32_t kKickExtraBuffers = 64;
constexpr uint64_t kKickSlackDivisor = 100;

bool liveTogether(const Buffer &a, const Buffer &b) {
  return a.start < b.end && b.start < a.end;
}

class Neighbourhoods {
public:
  Neighbourhoods(const Problem &problem, Solution &solution, uint64_t seed)
      : problem(problem), solution(solution), placement(problem),
        rng(0x5eedull ^ problem.buffers.size() ^ seed) {}

  /// Places every buffer of `solution`; false if `budget` ran out of time
  /// first (at a million buffers this takes longer than a small share).
  bool load(const SearchBudget &budget) {
    for (uint32_t i = 0; i < problem.buffers.size(); ++i) {
      if (i % kPlacementsPerClockRead == 0 && budget.outOfTime())
        return false;
      placement.placeAt(i, solution.offsets[i]);
    }
    return true;
  }

  /// One move; true if it lowered the arena (a move that keeps the arena
  /// as it was is kept too: it moves the search along plateaus). The
  /// placement structure holds `solution` before and after.
  bool move(uint32_t maxExtra, uint64_t slack) {
    std::vector<uint32_t> tops;
    for (uint32_t i = 0; i < problem.buffers.size(); ++i)
      if (problem.buffers[i].size &&
          solution.offsets[i] + problem.buffers[i].size == solution.arenaSize)
        tops.push_back(i);
    if (tops.empty())
      return false;
    uint32_t ejected = tops[rng() % tops.size()];
    const Buffer &buffer = problem.buffers[ejected];
    std::vector<uint32_t> overlapping;
    for (uint32_t i = 0; i < problem.buffers.size(); ++i)
      if (i != ejected && problem.buffers[i].size &&
          liveTogether(problem.buffers[i], buffer))
        overlapping.push_back(i);
    if (overlapping.empty())
      return false;
    std::optional<uint64_t> to =
        alignUp(solution.offsets[overlapping[rng() % overlapping.size()]],
                buffer.alignment);
    if (!to || *to >= solution.offsets[ejected])
      return false;

    // What goes again: the buffers the ejected one overlaps at its new
    // offset, the other buffers at the top, and a few random ones.
    std::vector<uint32_t> replaced;
    for (uint32_t i : overlapping)
      if (solution.offsets[i] < *to + buffer.size &&
          *to < solution.offsets[i] + problem.buffers[i].size)
        replaced.push_back(i);
    for (uint32_t i : tops)
      if (i != ejected)
        replaced.push_back(i);
    uint32_t extra = rng() % (maxExtra + 1);
    for (uint32_t k = 0; k < extra; ++k)
      replaced.push_back(overlapping[rng() % overlapping.size()]);
    std::sort(replaced.begin(), replaced.end());
    replaced.erase(std::unique(replaced.begin(), replaced.end()),
                   replaced.end());

    // Only the moved buffers leave the structure and come back: the gaps a
    // placement finds depend on which buffers are placed, not on the order
    // they were placed in, so this is the plan a structure refilled from
    // scratch would give (as the first version did, at O(n log n) a move).
    for (uint32_t i : replaced)
      placement.remove(i);
    placement.remove(ejected);
    placement.placeAt(ejected, *to);
    std::uniform_real_distribution<double> perturb(0.7, 1.3);
    std::vector<std::pair<double, uint32_t>> order;
    for (uint32_t i : replaced)
      order.push_back({-double(problem.buffers[i].size) * perturb(rng), i});
    std::sort(order.begin(), order.end());
    size_t placedCount = 0;
    bool overflow = false;
    for (const auto &entry : order) {
      if (!placement.place(entry.second)) {
        overflow = true; // the offset would overflow: drop the move
        break;
      }
      ++placedCount;
    }
    uint64_t arena = overflow ? 0 : placement.arenaSize();
    if (overflow || arena > solution.arenaSize + slack) {
      // Back to `solution`: the moved buffers at their old offsets.
      for (size_t k = 0; k < placedCount; ++k)
        placement.remove(order[k].second);
      placement.remove(ejected);
      for (uint32_t i : replaced)
        placement.placeAt(i, solution.offsets[i]);
      placement.placeAt(ejected, solution.offsets[ejected]);
      return false;
    }
    bool lower = arena < solution.arenaSize;
    const std::vector<uint64_t> &offsets = placement.currentOffsets();
    for (uint32_t i : replaced)
      solution.offsets[i] = offsets[i];
    solution.offsets[ejected] = *to;
    solution.arenaSize = arena;
    return lower;
  }

private:
  const Problem &problem;
  Solution &solution;
  /// `solution`'s placement, changed by each move where it moves buffers.
  OffsetPlacement placement;
  std::mt19937_64 rng;
};

/// One walk from `solution` with its own random moves (`seed`).
uint64_t walk(const Problem &problem, Solution &solution, uint64_t target,
              SearchBudget &budget, uint64_t seed) {
  uint64_t improvements = 0;
  if (!budget.spendOk())
    return improvements;
  Solution best = solution;
  Neighbourhoods moves(problem, solution, seed);
  if (!moves.load(budget))
    return improvements;
  // A move scans every buffer (the top, those live with the ejected one, the
  // arena) and places dozens: read the clock at each one.
  uint64_t clockMask = budget.clockMask;
  budget.clockMask = 0;
  uint64_t sinceBest = 0;
  while (best.arenaSize > target && budget.spend()) {
    bool kick = sinceBest >= kMovesBeforeKick;
    if (kick)
      sinceBest = 0;
    moves.move(kick ? kKickExtraBuffers : kMaxExtraBuffers,
               kick ? solution.arenaSize / kKickSlackDivisor : 0);
    if (solution.arenaSize < best.arenaSize) {
      best = solution;
      ++improvements;
      sinceBest = 0;
    } else {
      ++sinceBest;
    }
  }
  budget.clockMask = clockMask;
  solution = std::move(best);
  return improvements;
}

} // namespace

uint64_t improveByNeighbourhoods(const Problem &problem, Solution &solution,
                                 uint64_t target, SearchBudget &budget,
                                 unsigned walks) {
  return runIndependentWalks(
      solution, budget, walks,
      [&](Solution &walked, SearchBudget &share, uint64_t seed) {
        return walk(problem, walked, target, share, seed);
      });
}

} // namespace memplan
