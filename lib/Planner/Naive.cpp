//===- Naive.cpp - No reuse -----------------------------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//------------------------------------------------===//
//
// Every buffer gets memory of its own, in index order: the baseline that
// every other algorithm must beat, and the plan to compare results against.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/GreedyAlgorithms.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace memplan;

PlanResult memplan::planNaive(const Problem &problem) {
  if (std::string error = checkProblem(problem); !error.empty())
    return {{}, error};
  PlanResult result;
  Solution &solution = result.solution;
  solution.offsets.assign(problem.buffers.size(), 0);
  uint64_t cursor = 0;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &buffer = problem.buffers[i];
    if (buffer.size == 0)
      continue;
    std::optional<uint64_t> offset = alignUp(cursor, buffer.alignment);
    std::optional<uint64_t> end =
        offset ? llvm::checkedAddUnsigned(*offset, buffer.size) : std::nullopt;
    if (!end)
      return arenaOverflow();
    cursor = *end;
    solution.offsets[i] = *offset;
  }
  solution.arenaSize = cursor;
  return result;
}
