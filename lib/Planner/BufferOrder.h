//===- BufferOrder.h - Orders in which planners take buffers ----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner library.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_BUFFERORDER_H
#define MEMPLAN_LIB_PLANNER_BUFFERORDER_H

#include "memplan/Planner/Problem.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace memplan {

/// Buffer indices by decreasing size, ties by earlier start, then by index
/// (so the order, and every plan built from it, is deterministic).
inline std::vector<uint32_t> orderBySizeThenStart(const Problem &problem) {
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<uint32_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (buffers[a].size != buffers[b].size)
      return buffers[a].size > buffers[b].size;
    if (buffers[a].start != buffers[b].start)
      return buffers[a].start < buffers[b].start;
    return a < b;
  });
  return order;
}

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_BUFFERORDER_H
