//===- GreedyBySize.cpp - Greedy by size offset planning ------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Pisarchyk & Lee, "Efficient Memory Management for Deep Neural Net
// Inference" (2020), offset calculation as in TFLite: buffers by decreasing
// size (ties: earlier start first), each into the smallest gap that fits
// among the placed buffers whose lifetimes intersect its own.
//
//===----------------------------------------------------------------------===//

#include "BufferOrder.h"
#include "memplan/Planner/GreedyAlgorithms.h"

#include "OffsetPlacement.h"

using namespace memplan;

PlanResult memplan::planGreedyBySize(const Problem &problem, unsigned threads) {
  return planGreedyBySizeUntil(problem, {}, threads);
}

PlanResult memplan::planGreedyBySizeUntil(const Problem &problem,
                                          const std::function<bool()> &expired,
                                          unsigned threads) {
  return placeCheckedInOrder(problem, orderBySizeThenStart, expired,
                             OffsetPlacement::Fit::Best, threads);
}
