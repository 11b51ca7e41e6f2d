//===- LongLivedSkyline.cpp - Skyline below, first fit in its gaps --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LongLivedSkyline.h"

#include "memplan/Planner/GreedyAlgorithms.h"

#include "BufferOrder.h"
#include "OffsetPlacement.h"
#include "TimeAxis.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace memplan;

namespace {

/// Whether each buffer that takes space is long-lived, by its lifetime on
/// the compressed time axis (the slots the skyline works in).
std::vector<bool> longLivedMask(const Problem &problem) {
  TimeAxis axis(problem);
  size_t least = std::max<size_t>(1, axis.size() / kLongLivedDivisor);
  std::vector<bool> mask(problem.buffers.size(), false);
  for (size_t id = 0; id < problem.buffers.size(); ++id) {
    const Buffer &buffer = problem.buffers[id];
    mask[id] = buffer.size != 0 &&
               axis.rank(buffer.end) - axis.rank(buffer.start) >= least;
  }
  return mask;
}

std::vector<uint32_t> longLivedOf(const Problem &problem) {
  std::vector<bool> mask = longLivedMask(problem);
  std::vector<uint32_t> ids;
  for (uint32_t id = 0; id < mask.size(); ++id)
    if (mask[id])
      ids.push_back(id);
  return ids;
}

Problem subProblem(const Problem &problem, const std::vector<uint32_t> &ids) {
  Problem part;
  part.buffers.reserve(ids.size());
  for (uint32_t id : ids)
    part.buffers.push_back(problem.buffers[id]);
  return part;
}

std::vector<uint32_t> shortLivedBySizeOf(const Problem &problem,
                                         const std::vector<uint32_t> &longIds) {
  std::vector<bool> isLong(problem.buffers.size(), false);
  for (uint32_t id : longIds)
    isLong[id] = true;
  std::vector<uint32_t> order = orderBySizeThenLifetime(problem);
  llvm::erase_if(order, [&](uint32_t id) {
    return isLong[id] || problem.buffers[id].size == 0;
  });
  return order;
}

} // namespace

PlanResult memplan::planLongLivedSkyline(const Problem &problem) {
  return planLongLivedSkylineUntil(problem, {});
}

PlanResult
memplan::planLongLivedSkylineUntil(const Problem &problem,
                                   const std::function<bool()> &expired) {
  if (std::string error = checkProblem(problem); !error.empty())
    return {{}, error};
  // As in placeCheckedInOrder: the set-up below reads no clock.
  if (pastDeadline(expired))
    return {{}, kOutOfTime};
  LongLivedSkyline placement(problem);
  if (pastDeadline(expired))
    return {{}, kOutOfTime};
  return keepNoWorseThanNaive(
      problem, placement.place(placement.defaultPriority(), expired));
}

LongLivedSkyline::LongLivedSkyline(const Problem &problem)
    : problem(problem), longLived(longLivedOf(problem)),
      longLivedProblem(subProblem(problem, longLived)),
      shortLivedBySize(shortLivedBySizeOf(problem, longLived)),
      skyline(longLivedProblem) {}

bool LongLivedSkyline::splits(const Problem &problem) {
  size_t placed = 0, longCount = 0;
  std::vector<bool> mask = longLivedMask(problem);
  for (size_t id = 0; id < problem.buffers.size(); ++id) {
    placed += problem.buffers[id].size != 0;
    longCount += mask[id];
  }
  return placed >= kLongLivedMinBuffers && longCount < placed &&
         longCount * kLongLivedMinShare >= placed;
}

std::vector<uint32_t> LongLivedSkyline::defaultPriority() const {
  return orderByLifetimeThenSize(longLivedProblem);
}

PlanResult LongLivedSkyline::place(const std::vector<uint32_t> &priority,
                                   const std::function<bool()> &expired) const {
  PlanResult below = skyline.place(priority, expired);
  if (!below.ok())
    return below;
  OffsetPlacement gaps(problem);
  for (size_t k = 0; k < longLived.size(); ++k)
    gaps.placeAt(longLived[k], below.solution.offsets[k]);
  // Through the loop of every placement into gaps: on a million short-lived
  // buffers its sweep along time and prefetches halved the time (random
  // workload, docs/benchmarks.md).
  return placeInOrderWith(gaps, problem, shortLivedBySize, expired,
                          OffsetPlacement::Fit::First);
}
