//===- Jostle.cpp - Plans packed from the top, then from the bottom -------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Why a round never raises the arena: placing buffers by first fit in the
// order of their offsets in a valid plan puts each at most at its old
// offset. When buffer b's turn comes, every buffer a placed before it that
// is live with it lay wholly below b (a lower offset, no overlap), and it
// has only come down, so b's old offset is still free and aligned. The pass
// from the top is the same on the plan turned upside down: offsets measured
// down from a ceiling (the arena rounded up to the largest alignment), sizes
// rounded up to their alignments, so that an offset turned back is aligned
// too. (With rounded sizes a plan can overlap itself where a buffer of a
// smaller alignment sits in the padding of one of a larger: then that pass
// may end higher; the best plan is kept apart, so the result never is.)
// What a round changes is which buffers come first: the pass from the
// top orders them by their tops, the pass from the bottom by their new
// offsets, and a buffer that a pass cannot lower keeps its place while those
// around it move into the space the other pass freed. (Of two buffers live
// together, the lower one has both the lower offset and the lower top, and
// first fit places a buffer by the buffers live with it alone: so any order
// that agrees with the offsets on such pairs gives the same plan.)
//
// Measured before it was chosen (docs/benchmarks.md, the trace family of
// 1,000-60,000 buffers): on the plans the reorderings end on, a tenth of the
// budget's rounds lowered every trace of 2,000 buffers or more (for
// example 1.0216 -> 1.0165 of the lower bound at 10,000 buffers), where the
// reorderings had stopped finding lower plans; from the greedy plans alone
// the rounds stop higher than the reorderings do (1.0285 against 1.0211 in
// 10 s at 10,000 buffers), so they come last. The pass from the bottom alone
// (each plan's own order by offset) lowers almost nothing.
//
//===----------------------------------------------------------------------===//

#include "Jostle.h"

#include "OffsetPlacement.h"
#include "RadixSort.h"
#include "ReorderSearch.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace memplan {

namespace {

/// The buffer indices by `key`, ties by index (a stable radix sort of the
/// entries in index order; each entry holds its key, so the sort reads
/// neighbouring memory).
std::vector<uint32_t> orderBy(const std::vector<uint64_t> &key) {
  struct Entry {
    uint64_t key;
    uint32_t index;
  };
  std::vector<Entry> entries;
  entries.reserve(key.size());
  for (size_t index = 0; index < key.size(); ++index)
    entries.push_back({key[index], static_cast<uint32_t>(index)});
  radixSort(entries, [](const Entry &entry) { return entry.key; });
  std::vector<uint32_t> order;
  order.reserve(entries.size());
  for (const Entry &entry : entries)
    order.push_back(entry.index);
  return order;
}

/// `problem` with every size rounded up to its alignment, or nothing if
/// one would overflow; `alignment` ends as the largest alignment.
std::optional<Problem> withAlignedSizes(const Problem &problem,
                                        uint64_t &alignment) {
  Problem aligned = problem;
  alignment = 1;
  for (Buffer &buffer : aligned.buffers) {
    std::optional<uint64_t> size = alignUp(buffer.size, buffer.alignment);
    if (!size)
      return std::nullopt;
    buffer.size = *size;
    alignment = std::max(alignment, buffer.alignment);
  }
  return aligned;
}

/// The highest top of `offsets` in `problem` (rounded up to `alignment`),
/// or nothing if it would overflow.
std::optional<uint64_t> ceilingOf(const Problem &problem,
                                  const std::vector<uint64_t> &offsets,
                                  uint64_t alignment) {
  uint64_t top = 0;
  for (size_t i = 0; i < offsets.size(); ++i) {
    uint64_t size = problem.buffers[i].size;
    if (!size)
      continue;
    // A size rounded up can take a plan's top past 2^64.
    if (offsets[i] > UINT64_MAX - size)
      return std::nullopt;
    top = std::max(top, offsets[i] + size);
  }
  return alignUp(top, alignment);
}

/// `offsets` (in `aligned`, whose sizes are aligned) measured down from
/// their ceiling instead of up from the floor, or nothing if the ceiling
/// would overflow. Empty buffers stay at 0.
std::optional<std::vector<uint64_t>>
upsideDown(const Problem &aligned, const std::vector<uint64_t> &offsets,
           uint64_t alignment) {
  std::optional<uint64_t> ceiling = ceilingOf(aligned, offsets, alignment);
  if (!ceiling)
    return std::nullopt;
  std::vector<uint64_t> turned(offsets.size(), 0);
  for (size_t i = 0; i < offsets.size(); ++i)
    if (uint64_t size = aligned.buffers[i].size)
      turned[i] = *ceiling - offsets[i] - size;
  return turned;
}

} // namespace

uint64_t improveByJostling(const Problem &problem, Solution &solution,
                           uint64_t target, SearchBudget &budget) {
  if (problem.buffers.empty() || solution.arenaSize <= target ||
      !budget.spendOk())
    return 0;
  uint64_t alignment = 1;
  std::optional<Problem> aligned = withAlignedSizes(problem, alignment);
  if (!aligned)
    return 0;
  uint64_t cost =
      std::max<uint64_t>(1, problem.buffers.size() / kReorderBuffersPerNode);
  auto expired = [&] { return budget.outOfTime(); };
  uint64_t improvements = 0;
  std::vector<uint64_t> offsets = solution.offsets;
  while (solution.arenaSize > target) {
    // From the top: the turned plan's offsets are the distances from the
    // ceiling, and first fit packs them against it.
    std::optional<std::vector<uint64_t>> fromTop =
        upsideDown(*aligned, offsets, alignment);
    if (!fromTop || !budget.spend(cost))
      break;
    PlanResult turned = placeInOrder(*aligned, orderBy(*fromTop), expired,
                                     OffsetPlacement::Fit::First);
    if (!turned.ok())
      break; // out of time, or an offset would overflow
    std::optional<std::vector<uint64_t>> packedUp =
        upsideDown(*aligned, turned.solution.offsets, alignment);
    if (!packedUp || !budget.spend(cost))
      break;
    // From the bottom, in the order of the offsets the top's pass gave.
    PlanResult plan = placeInOrder(problem, orderBy(*packedUp), expired,
                                   OffsetPlacement::Fit::First);
    if (!plan.ok())
      break;
    if (plan.solution.offsets == offsets)
      break; // a round that changes nothing changes nothing again
    offsets = plan.solution.offsets;
    if (plan.solution.arenaSize < solution.arenaSize) {
      solution = std::move(plan.solution);
      ++improvements;
    }
  }
  return improvements;
}

} // namespace memplan
