//===- Problem.cpp - The static memory allocation problem -----------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Problem.h"

#include "TimeAxis.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace memplan;

std::string memplan::checkProblem(const Problem &problem) {
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &buffer = problem.buffers[i];
    if (buffer.start >= buffer.end)
      return "buffer " + std::to_string(i) + " has an empty lifetime [" +
             std::to_string(buffer.start) + ", " + std::to_string(buffer.end) +
             "): start must be < end";
    if (buffer.alignment == 0 || (buffer.alignment & (buffer.alignment - 1)))
      return "buffer " + std::to_string(i) + " has alignment " +
             std::to_string(buffer.alignment) +
             ": alignments must be powers of two";
  }
  return {};
}

// On the greedy placements' hot path (every gap that could be the best):
// a mask where the alignment is a power of two (as in every checked problem)
// instead of a 64-bit division, and llvm::SaturatingAdd's inline overflow
// test instead of llvm::checkedAddUnsigned, which goes through APInt (it
// was 29 % of a 10,000-buffer search's time while the search called it per
// candidate).
std::optional<uint64_t> memplan::alignUp(uint64_t value, uint64_t alignment) {
  uint64_t padding =
      llvm::isPowerOf2_64(alignment)
          ? (alignment - (value & (alignment - 1))) & (alignment - 1)
          : (alignment - value % alignment) % alignment;
  bool overflow = false;
  uint64_t aligned = llvm::SaturatingAdd(value, padding, &overflow);
  if (overflow)
    return std::nullopt;
  return aligned;
}

static uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return llvm::SaturatingAdd(a, b);
}

uint64_t memplan::computeBytesWithoutReuse(const Problem &problem) {
  uint64_t total = 0;
  for (const Buffer &buffer : problem.buffers)
    total = saturatingAdd(total, buffer.size);
  return total;
}

uint64_t memplan::computeLowerBound(const Problem &problem) {
  // Sweep the compressed time axis with a difference array. Bytes enter at a
  // buffer's start and leave at its end; the running sum is never negative,
  // so a saturated sum stays saturated (the arena cannot fit 64 bits anyway).
  TimeAxis axis(problem);
  std::vector<uint64_t> entering(axis.size() + 1, 0),
      leaving(axis.size() + 1, 0);
  for (const Buffer &buffer : problem.buffers) {
    size_t s = axis.rank(buffer.start), e = axis.rank(buffer.end);
    entering[s] = saturatingAdd(entering[s], buffer.size);
    leaving[e] = saturatingAdd(leaving[e], buffer.size);
  }
  uint64_t live = 0, peak = 0;
  bool saturated = false;
  for (size_t t = 0; t < entering.size(); ++t) {
    if (!saturated) {
      live -= std::min(live, leaving[t]);
      uint64_t next = saturatingAdd(live, entering[t]);
      saturated = next == UINT64_MAX;
      live = next;
    }
    peak = std::max(peak, live);
  }
  return peak;
}
