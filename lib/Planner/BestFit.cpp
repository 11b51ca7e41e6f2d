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

#include "BufferOrder.h"
#include "OffsetPlacement.h"

using namespace memplan;

PlanResult memplan::planBestFit(const Problem &problem, unsigned threads) {
  return planBestFitUntil(problem, {}, threads);
}

PlanResult memplan::planBestFitUntil(const Problem &problem,
                                     const std::function<bool()> &expired,
                                     unsigned threads) {
  return placeCheckedInOrder(problem, orderBySizeThenLifetime, expired,
                             OffsetPlacement::Fit::Best, threads);
}
