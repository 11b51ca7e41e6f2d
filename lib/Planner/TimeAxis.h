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
    const std::vector<Buffer> &buffers = problem.buffers;
    if (buffers.empty())
      return;
    int64_t low = buffers.front().start, high = low;
    for (const Buffer &buffer : buffers) {
      low = std::min({low, buffer.start, buffer.end});
      high = std::max({high, buffer.start, buffer.end});
    }
    // Positions that are a schedule's op indices lie in a range not much
    // wider than the number of buffers: a table from position to rank,
    // filled by counting, then answers every rank in one read instead of a
    // binary search (with a million buffers, two million searches of
    // cache-missing steps), and the positions need no sort.
    uint64_t span = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
    if (span < kDenseSpanPerBuffer * buffers.size() &&
        2 * buffers.size() < UINT32_MAX) {
      buildDense(buffers, low, span);
      return;
    }
    positions.reserve(2 * buffers.size());
    for (const Buffer &buffer : buffers) {
      positions.push_back(buffer.start);
      positions.push_back(buffer.end);
    }
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()),
                    positions.end());
  }

  /// Number of distinct positions.
  size_t size() const { return positions.size(); }

  /// The rank of a position that occurs in the problem (the number of
  /// distinct positions below it, for any position).
  size_t rank(int64_t position) const {
    if (denseRanks.empty())
      return std::lower_bound(positions.begin(), positions.end(), position) -
             positions.begin();
    if (position <= denseLow)
      return 0;
    uint64_t index =
        static_cast<uint64_t>(position) - static_cast<uint64_t>(denseLow);
    return index < denseRanks.size() ? denseRanks[index] : positions.size();
  }

private:
  /// The table's width may be this many times the number of buffers (four
  /// bytes per position: at most 16 bytes per buffer).
  static constexpr uint64_t kDenseSpanPerBuffer = 4;

  void buildDense(const std::vector<Buffer> &buffers, int64_t low,
                  uint64_t span) {
    denseLow = low;
    denseRanks.assign(span + 1, 0);
    for (const Buffer &buffer : buffers) {
      denseRanks[static_cast<uint64_t>(buffer.start) -
                 static_cast<uint64_t>(low)] = 1;
      denseRanks[static_cast<uint64_t>(buffer.end) -
                 static_cast<uint64_t>(low)] = 1;
    }
    // Each entry becomes the number of positions below it.
    uint32_t below = 0;
    for (uint64_t index = 0; index <= span; ++index) {
      bool present = denseRanks[index];
      denseRanks[index] = below;
      if (present) {
        positions.push_back(
            static_cast<int64_t>(static_cast<uint64_t>(low) + index));
        ++below;
      }
    }
  }

  std::vector<int64_t> positions;
  /// With dense positions: rank of position denseLow + i at index i.
  std::vector<uint32_t> denseRanks;
  int64_t denseLow = 0;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_TIMEAXIS_H
