//===- Validator.cpp - Independent check of a solution --------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A sweep over time, written apart from the algorithms on purpose: events
// sorted by position (a buffer leaves before another enters at the same
// position, as lifetimes are half-open), and the live buffers kept in an
// ordered map from offset to end. While the plan is valid the live buffers
// are disjoint in memory, so a new buffer can only collide with its two
// neighbours in that map.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Validator.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace memplan;

static std::string describe(size_t id, const Buffer &buffer, uint64_t offset) {
  return "buffer " + std::to_string(id) + " (bytes [" + std::to_string(offset) +
         ", " + std::to_string(offset + buffer.size) + "), live [" +
         std::to_string(buffer.start) + ", " + std::to_string(buffer.end) +
         "))";
}

std::optional<ValidationError>
memplan::validateSolution(const Problem &problem, const Solution &solution) {
  const std::vector<Buffer> &buffers = problem.buffers;
  if (solution.offsets.size() != buffers.size())
    return ValidationError{
        0, std::nullopt,
        "the solution has " + std::to_string(solution.offsets.size()) +
            " offsets for " + std::to_string(buffers.size()) + " buffers"};

  uint64_t maxEnd = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer &buffer = buffers[i];
    uint64_t offset = solution.offsets[i];
    if (buffer.start >= buffer.end)
      return ValidationError{i, std::nullopt,
                             "buffer " + std::to_string(i) +
                                 " has an empty lifetime"};
    if (buffer.alignment == 0 || offset % buffer.alignment != 0)
      return ValidationError{i, std::nullopt,
                             "buffer " + std::to_string(i) + " at offset " +
                                 std::to_string(offset) +
                                 " is not aligned to " +
                                 std::to_string(buffer.alignment)};
    std::optional<uint64_t> end = llvm::checkedAddUnsigned(offset, buffer.size);
    if (!end)
      return ValidationError{i, std::nullopt,
                             "buffer " + std::to_string(i) +
                                 " ends beyond 2^64 bytes"};
    if (buffer.size != 0)
      maxEnd = std::max(maxEnd, *end);
  }
  if (solution.arenaSize != maxEnd)
    return ValidationError{
        0, std::nullopt,
        "the arena size is " + std::to_string(solution.arenaSize) +
            " but the buffers end at " + std::to_string(maxEnd)};

  // (position, 0 = leaves / 1 = enters, buffer)
  std::vector<std::tuple<int64_t, int, size_t>> events;
  events.reserve(2 * buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].size == 0)
      continue;
    events.emplace_back(buffers[i].start, 1, i);
    events.emplace_back(buffers[i].end, 0, i);
  }
  std::sort(events.begin(), events.end());

  std::map<uint64_t, size_t> live; // offset -> buffer
  for (const auto &[position, enters, id] : events) {
    uint64_t offset = solution.offsets[id];
    if (!enters) {
      live.erase(offset);
      continue;
    }
    uint64_t end = offset + buffers[id].size;
    auto next = live.lower_bound(offset);
    std::optional<size_t> other;
    if (next != live.end() && next->first < end)
      other = next->second;
    else if (next != live.begin()) {
      auto previous = std::prev(next);
      if (previous->first + buffers[previous->second].size > offset)
        other = previous->second;
    }
    if (other)
      return ValidationError{
          std::min(id, *other), std::max(id, *other),
          describe(*other, buffers[*other], solution.offsets[*other]) +
              " and " + describe(id, buffers[id], offset) +
              " are live at the same time and overlap in memory"};
    live.emplace(offset, id);
  }
  return std::nullopt;
}
