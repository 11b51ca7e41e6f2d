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
  Neighbourhoods(const Problem &problem, Solution &solution)
      : problem(problem), solution(solution), placement(problem),
        rng(0x5eedull ^ problem.buffers.size()),
        removed(problem.buffers.size(), 0) {}

  /// One move; true if it lowered the arena (a move that keeps the arena
  /// as it was is kept too: it moves the search along plateaus).
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

    for (uint32_t i : replaced)
      removed[i] = 1;
    placement.clear();
    for (uint32_t i = 0; i < problem.buffers.size(); ++i)
      if (!removed[i] && i != ejected)
        placement.placeAt(i, solution.offsets[i]);
    placement.placeAt(ejected, *to);
    std::uniform_real_distribution<double> perturb(0.7, 1.3);
    std::vector<std::pair<double, uint32_t>> order;
    for (uint32_t i : replaced) {
      removed[i] = 0;
      order.push_back({-double(problem.buffers[i].size) * perturb(rng), i});
    }
    std::sort(order.begin(), order.end());
    for (const auto &entry : order)
      if (!placement.place(entry.second))
        return false; // the offset would overflow: drop the move
    uint64_t arena = placement.arenaSize();
    if (arena > solution.arenaSize + slack)
      return false;
    bool lower = arena < solution.arenaSize;
    solution.offsets = placement.currentOffsets();
    solution.arenaSize = arena;
    return lower;
  }

private:
  const Problem &problem;
  Solution &solution;
  /// One structure for every move: clear() keeps its time axis and layout.
  OffsetPlacement placement;
  std::mt19937_64 rng;
  std::vector<char> removed;
};

} // namespace

uint64_t improveByNeighbourhoods(const Problem &problem, Solution &solution,
                                 uint64_t target, SearchBudget &budget) {
  uint64_t improvements = 0;
  Solution best = solution;
  Neighbourhoods moves(problem, solution);
  // A move costs a placement structure over every buffer: read the clock
  // at each one.
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

} // namespace memplan
