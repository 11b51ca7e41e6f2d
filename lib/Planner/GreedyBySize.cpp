//===- GreedyBySize.cpp - Greedy by size offset planning ------------------===//
//
// Pisarchyk & Lee, "Efficient Memory Management for Deep Neural Net
// Inference" (2020), offset calculation as in TFLite: buffers by decreasing
// size (ties: earlier start first), each into the smallest gap that fits
// among the placed buffers whose lifetimes intersect its own.
//
//===----------------------------------------------------------------------===//

#include "OffsetPlacement.h"

#include <algorithm>
#include <numeric>

using namespace memplan;

PlanResult memplan::planGreedyBySize(const Problem &problem) {
  if (std::string error = checkProblem(problem); !error.empty())
    return {{}, error};
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
  return placeInOrder(problem, order);
}
