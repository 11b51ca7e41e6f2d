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

#include "BufferOrder.h"
#include "OffsetPlacement.h"

using namespace memplan;

PlanResult memplan::planGreedyByLifetime(const Problem &problem,
                                         unsigned threads) {
  return planGreedyByLifetimeUntil(problem, {}, threads);
}

PlanResult
memplan::planGreedyByLifetimeUntil(const Problem &problem,
                                   const std::function<bool()> &expired,
                                   unsigned threads) {
  return placeCheckedInOrder(problem, orderByLifetimeThenSize, expired,
                             OffsetPlacement::Fit::Best, threads);
}
