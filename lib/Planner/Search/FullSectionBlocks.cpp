//===- FullSectionBlocks.cpp - Buffers that full sections tie together ----===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FullSectionBlocks.h"

#include "TimeAxis.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <utility>

using namespace memplan;

namespace {

/// Where the sections on both sides of a point are full at `capacity` (their
/// live bytes equal it), no byte is ever free there, so the bytes freed by
/// the buffers that end at the point are exactly the bytes taken by the
/// buffers that start there. In every plan within `capacity`:
/// * the buffers ending there make up one block (they end together, and a
///   block is as wide as each of its sections), and the buffers starting
///   there also end together: these fill exactly its bytes, stacked in any
///   order (they are interchangeable), and extend it;
/// * one buffer starting there, and buffers ending there that started
///   together and are not in a block yet: it takes exactly their bytes, and
///   they are one block, stacked in any order.
/// Blocks are searched as single buffers.
MergedProblem mergeAtFullBoundaries(const Problem &problem, uint64_t capacity) {
  size_t n = problem.buffers.size();
  TimeAxis axis(problem);
  size_t sections = axis.size() ? axis.size() - 1 : 0;
  std::vector<std::vector<uint32_t>> ending(sections + 1),
      starting(sections + 1);
  std::vector<size_t> first(n), last(n);
  for (uint32_t i = 0; i < n; ++i) {
    first[i] = axis.rank(problem.buffers[i].start);
    last[i] = axis.rank(problem.buffers[i].end);
    starting[first[i]].push_back(i);
    ending[last[i]].push_back(i);
  }
  std::vector<uint64_t> load(sections, 0);
  uint64_t live = 0;
  bool saturated = false;
  for (size_t s = 0; s < sections; ++s) {
    for (uint32_t id : starting[s]) {
      saturated |= live + problem.buffers[id].size < live;
      live += problem.buffers[id].size;
    }
    for (uint32_t id : ending[s])
      live -= problem.buffers[id].size;
    load[s] = saturated ? UINT64_MAX : live;
  }

  // Blocks, built in time order: every buffer starts as its own block.
  MergedProblem merged;
  merged.blockOf.resize(n);
  merged.within.assign(n, 0);
  std::vector<size_t> members(n, 1);
  std::iota(merged.blockOf.begin(), merged.blockOf.end(), 0);
  std::vector<int64_t> blockEnd(n);
  std::vector<uint64_t> blockSize(n);
  for (uint32_t i = 0; i < n; ++i) {
    blockEnd[i] = problem.buffers[i].end;
    blockSize[i] = problem.buffers[i].size;
  }
  auto join = [&](uint32_t id, uint32_t block, uint64_t offset) {
    --members[merged.blockOf[id]];
    merged.blockOf[id] = block;
    merged.within[id] = offset;
    ++members[block];
    blockEnd[block] = std::max(blockEnd[block], problem.buffers[id].end);
  };
  auto all = [](const std::vector<uint32_t> &ids, auto predicate) {
    return std::all_of(ids.begin(), ids.end(), predicate);
  };
  for (size_t r = 1; r < sections; ++r) {
    const std::vector<uint32_t> &ends = ending[r], &starts = starting[r];
    if (load[r - 1] != capacity || load[r] != capacity || ends.empty() ||
        starts.empty())
      continue;
    // The block the ending buffers make up, if they are one: then they end
    // together and are all of it.
    uint32_t block = merged.blockOf[ends[0]];
    bool oneBlock =
        all(ends, [&](uint32_t id) { return merged.blockOf[id] == block; });
    uint64_t offset = UINT64_MAX;
    for (uint32_t id : ends)
      offset = std::min(offset, merged.within[id]);
    if (oneBlock &&
        all(starts, [&](uint32_t id) { return last[id] == last[starts[0]]; })) {
      for (uint32_t id : starts) {
        join(id, block, offset);
        offset += problem.buffers[id].size;
      }
    } else if (starts.size() == 1 && all(ends, [&](uint32_t id) {
                 return members[merged.blockOf[id]] == 1 &&
                        first[id] == first[ends[0]];
               })) {
      offset = 0;
      for (uint32_t id : ends) {
        join(id, block, offset);
        offset += problem.buffers[id].size;
      }
      blockSize[block] = offset;
      join(starts[0], block, 0);
    }
  }
  // One buffer per block, from its start (its first member's) to its last
  // end.
  std::vector<int64_t> index(n, -1);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t block = merged.blockOf[i];
    if (index[block] < 0) {
      index[block] = merged.problem.buffers.size();
      Buffer buffer = problem.buffers[block];
      buffer.size = blockSize[block];
      buffer.end = blockEnd[block];
      merged.problem.buffers.push_back(buffer);
    }
  }
  for (uint32_t i = 0; i < n; ++i)
    merged.blockOf[i] = index[merged.blockOf[i]];
  return merged;
}

} // namespace

MergedProblem memplan::reduceAtFullBoundaries(const Problem &problem,
                                              uint64_t capacity) {
  MergedProblem result;
  result.problem = problem;
  result.blockOf.resize(problem.buffers.size());
  std::iota(result.blockOf.begin(), result.blockOf.end(), 0);
  result.within.assign(problem.buffers.size(), 0);
  auto mirror = [](Problem &p) {
    for (Buffer &buffer : p.buffers)
      std::tie(buffer.start, buffer.end) =
          std::make_pair(-buffer.end, -buffer.start);
  };
  size_t unchanged = 0;
  for (bool backward = false; unchanged < 2; backward = !backward) {
    size_t before = result.problem.buffers.size();
    if (backward)
      mirror(result.problem);
    MergedProblem step = mergeAtFullBoundaries(result.problem, capacity);
    if (backward)
      mirror(step.problem);
    for (size_t k = 0; k < result.blockOf.size(); ++k) {
      uint32_t block = result.blockOf[k];
      result.within[k] += step.within[block];
      result.blockOf[k] = step.blockOf[block];
    }
    result.problem = std::move(step.problem);
    unchanged = result.problem.buffers.size() == before ? unchanged + 1 : 0;
  }
  return result;
}
