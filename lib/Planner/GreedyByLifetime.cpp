//===- GreedyByLifetime.cpp - Longest-lived first offset planning ---------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The temporal order of XLA's heap simulator (GlobalDecreasingSizeBestFitHeap,
// described in its documentation as the alternative to the spatial,
// decreasing-size order): buffers by decreasing lifetime, ties by larger size,
// each into the smallest gap that fits. Long-lived buffers go first and low,
// so the short-lived ones fill around them.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/GreedyAlgorithms.h"

#include "OffsetPlacement.h"

#include <algorithm>
#include <numeric>

using namespace memplan;

PlanResult memplan::planGreedyByLifetime(const Problem &problem) {
  if (std::string error = checkProblem(problem); !error.empty())
    return {{}, error};
  const std::vector<Buffer> &buffers = problem.buffers;
  auto length = [&](uint32_t id) {
    return static_cast<uint64_t>(buffers[id].end) -
           static_cast<uint64_t>(buffers[id].start);
  };
  std::vector<uint32_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (length(a) != length(b))
      return length(a) > length(b);
    if (buffers[a].size != buffers[b].size)
      return buffers[a].size > buffers[b].size;
    if (buffers[a].start != buffers[b].start)
      return buffers[a].start < buffers[b].start;
    return a < b;
  });
  return placeInOrder(problem, order);
}
