//===- ExhaustiveSolver.h - The optimum of tiny problems --------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A test oracle for the search, shared by the unit tests and the CSV fuzzer:
// nothing in common with the search's algorithm, exponential, for problems
// of a handful of buffers.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_UNITTESTS_PLANNER_EXHAUSTIVESOLVER_H
#define MEMPLAN_UNITTESTS_PLANNER_EXHAUSTIVESOLVER_H

#include "memplan/Planner/Problem.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace memplan::test {

/// An exhaustive solver with nothing in common with the search: every order
/// of the buffers, each placed first-fit (at the lowest multiple of its
/// alignment where it overlaps no placed buffer live at the same time).
/// Taking an optimal plan's buffers by increasing offset, first-fit never
/// places one higher, so the best order gives the optimum. Offsets stay
/// small (no overflow checks): for problems of a handful of buffers.
inline uint64_t exhaustiveOptimum(const Problem &problem) {
  size_t n = problem.buffers.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  uint64_t best = UINT64_MAX;
  do {
    std::vector<std::pair<uint64_t, size_t>> placed; // offset, buffer
    uint64_t arena = 0;
    for (size_t id : order) {
      const Buffer &b = problem.buffers[id];
      std::vector<std::pair<uint64_t, uint64_t>> busy;
      for (auto [offset, other] : placed) {
        const Buffer &o = problem.buffers[other];
        if (o.start < b.end && b.start < o.end)
          busy.emplace_back(offset, offset + o.size);
      }
      std::sort(busy.begin(), busy.end());
      uint64_t offset = 0;
      for (auto [low, high] : busy) {
        if (offset + b.size <= low)
          break;
        offset = std::max(offset, high);
        offset = (offset + b.alignment - 1) / b.alignment * b.alignment;
      }
      placed.emplace_back(offset, id);
      arena = std::max(arena, offset + b.size);
    }
    best = std::min(best, arena);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

} // namespace memplan::test

#endif // MEMPLAN_UNITTESTS_PLANNER_EXHAUSTIVESOLVER_H
