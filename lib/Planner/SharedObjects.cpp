//===- SharedObjects.cpp - Buffers share whole objects --------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Pisarchyk & Lee (2020), "greedy by size for shared objects": buffers by
// decreasing size; each goes into the existing object that is free for its
// whole lifetime and whose size is the smallest at least as large as the
// buffer (else the largest free one, which grows), or into a new object.
// The objects are then laid out one after another. This is the strategy of
// runtimes that hand out whole tensors from a pool rather than offsets; it
// never beats the offset algorithms, and it tells how many objects suffice.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/GreedyAlgorithms.h"

#include "BufferOrder.h"
#include "OffsetPlacement.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <map>

using namespace memplan;

namespace {

struct SharedObject {
  uint64_t size = 0;
  uint64_t alignment = 1;
  std::map<int64_t, int64_t> busy; // start -> end, disjoint intervals

  bool isFree(int64_t start, int64_t end) const {
    auto it = busy.lower_bound(end);
    if (it == busy.begin())
      return true;
    --it; // the interval with the largest start below `end`
    return it->second <= start;
  }
};

} // namespace

PlanResult memplan::planSharedObjects(const Problem &problem) {
  if (std::string error = checkProblem(problem); !error.empty())
    return {{}, error};
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<uint32_t> order = orderBySizeThenStart(problem);

  std::vector<SharedObject> objects;
  SharedObjectsSummary summary;
  summary.objectOf.assign(buffers.size(), 0);
  for (uint32_t id : order) {
    const Buffer &buffer = buffers[id];
    if (buffer.size == 0)
      continue; // conflicts with nothing: object 0 at offset 0 (set below)
    // The smallest free object that is large enough, else the largest one.
    std::optional<size_t> fit, largest;
    for (size_t i = 0; i < objects.size(); ++i) {
      if (!objects[i].isFree(buffer.start, buffer.end))
        continue;
      if (objects[i].size >= buffer.size &&
          (!fit || objects[i].size < objects[*fit].size))
        fit = i;
      if (!largest || objects[i].size > objects[*largest].size)
        largest = i;
    }
    size_t chosen = fit ? *fit : largest ? *largest : objects.size();
    if (chosen == objects.size())
      objects.emplace_back();
    SharedObject &object = objects[chosen];
    object.size = std::max(object.size, buffer.size);
    object.alignment = std::max(object.alignment, buffer.alignment);
    object.busy.emplace(buffer.start, buffer.end);
    summary.objectOf[id] = static_cast<uint32_t>(chosen);
  }

  // Lay the objects out one after another, each aligned to the largest
  // alignment of its buffers (alignments are powers of two).
  std::vector<uint64_t> objectOffset(objects.size(), 0);
  uint64_t cursor = 0;
  for (size_t i = 0; i < objects.size(); ++i) {
    std::optional<uint64_t> offset = alignUp(cursor, objects[i].alignment);
    if (!offset)
      return arenaOverflow();
    objectOffset[i] = *offset;
    std::optional<uint64_t> end =
        llvm::checkedAddUnsigned(*offset, objects[i].size);
    if (!end)
      return arenaOverflow();
    cursor = *end;
  }

  PlanResult result;
  Solution &solution = result.solution;
  solution.offsets.assign(buffers.size(), 0);
  for (uint32_t id = 0; id < buffers.size(); ++id) {
    if (buffers[id].size == 0)
      continue;
    solution.offsets[id] = objectOffset[summary.objectOf[id]];
    solution.arenaSize =
        std::max(solution.arenaSize, solution.offsets[id] + buffers[id].size);
  }
  summary.objectCount = objects.size();
  for (const SharedObject &object : objects)
    summary.totalBytes += object.size;
  solution.sharedObjects = std::move(summary);
  return result;
}
