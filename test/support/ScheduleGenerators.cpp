//===- ScheduleGenerators.cpp - Op graphs for scheduling tests ------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ScheduleGenerators.h"

#include <algorithm>

using namespace memplan;

ScheduleProblem memplan::generateRandomSchedulingProblem(std::mt19937_64 &rng,
                                                         size_t n,
                                                         bool layered) {
  ScheduleProblem problem;
  problem.ops.resize(n);
  auto size = [&] { return uint64_t(1) << (rng() % 8); };
  for (uint32_t op = 0; op < n; ++op) {
    if (rng() % 4 == 0)
      problem.ops[op].scratch = size();
    unsigned outputs = rng() % 5 == 0 ? 2 : 1;
    for (unsigned o = 0; o < outputs; ++o)
      problem.buffers.push_back({size(), op, {}});
  }
  for (uint32_t b = 0; b < problem.buffers.size(); ++b) {
    uint32_t creator = problem.buffers[b].creator;
    for (uint32_t op = creator + 1; op < n; ++op) {
      bool near = op - creator <= 3;
      unsigned odds = layered ? (near ? 2 : 12) : 4;
      if (rng() % odds == 0)
        problem.buffers[b].users.push_back(op);
    }
  }
  for (uint32_t op = 0; op < n; ++op) {
    std::vector<uint32_t> &predecessors = problem.ops[op].predecessors;
    for (const ScheduleProblem::Buffer &buffer : problem.buffers)
      if (std::count(buffer.users.begin(), buffer.users.end(), op) &&
          std::find(predecessors.begin(), predecessors.end(), buffer.creator) ==
              predecessors.end())
        predecessors.push_back(buffer.creator);
    if (op > 0 && rng() % 6 == 0)
      predecessors.push_back(uint32_t(rng() % op));
  }
  return problem;
}
