//===- BestFit.cpp - Decreasing size, least leftover ----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// XLA's heap simulator (GlobalDecreasingSizeBestFitHeap, spatial order):
// buffers by decreasing size, ties broken by the longer lifetime first, each
// into the free chunk that leaves the least space unused. It differs from
// greedy-by-size in its order: among equal sizes, long-lived buffers go
// first, which keeps them low and out of the way of short-lived ones.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/GreedyAlgorithms.h"

#include "OffsetPlacement.h"

#include <algorithm>
#include <numeric>

using namespace memplan;

PlanResult memplan::planBestFit(const Problem &problem) {
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
    if (buffers[a].size != buffers[b].size)
      return buffers[a].size > buffers[b].size;
    if (length(a) != length(b))
      return length(a) > length(b);
    if (buffers[a].start != buffers[b].start)
      return buffers[a].start < buffers[b].start;
    return a < b;
  });
  return placeInOrder(problem, order);
}
