//===- TimeAxis.h - Compressed schedule positions ---------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. Maps the distinct start/end positions of a problem
// to dense ranks 0..size()-1, so that per-position arrays stay as small as
// the problem whatever the positions' magnitudes. Rank r stands for the slot
// [position(r), position(r + 1)); buffer [start, end) covers the slots
// rank(start) .. rank(end) - 1.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_TIMEAXIS_H
#define MEMPLAN_LIB_PLANNER_TIMEAXIS_H

#include "memplan/Planner/Problem.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace memplan {

class TimeAxis {
public:
  explicit TimeAxis(const Problem &problem) {
    positions.reserve(2 * problem.buffers.size());
    for (const Buffer &buffer : problem.buffers) {
      positions.push_back(buffer.start);
      positions.push_back(buffer.end);
    }
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()),
                    positions.end());
  }

  /// Number of distinct positions.
  size_t size() const { return positions.size(); }

  /// The rank of a position that occurs in the problem.
  size_t rank(int64_t position) const {
    return std::lower_bound(positions.begin(), positions.end(), position) -
           positions.begin();
  }

private:
  std::vector<int64_t> positions;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_TIMEAXIS_H
