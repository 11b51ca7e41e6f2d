//===- ProblemGenerators.h - Allocation problems for tests and benchmarks -===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Deterministic (seeded) generators of allocation problems: random ones, and
// constructed ones whose optimum is known because a perfect packing exists.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TEST_SUPPORT_PROBLEMGENERATORS_H
#define MEMPLAN_TEST_SUPPORT_PROBLEMGENERATORS_H

#include "memplan/Planner/Problem.h"

#include <cstdint>
#include <random>

namespace memplan {

/// What generateRandomProblem draws: `count` buffers with lifetimes of 1 to
/// `maxLength` positions starting in [0, positions) and sizes in
/// [minSize, maxSize]; with `someAligned`, every third buffer (the first
/// included) gets an alignment of 2^0 to 2^8, the others 1.
struct RandomProblemShape {
  size_t count;
  int64_t positions;
  int64_t maxLength;
  uint64_t minSize;
  uint64_t maxSize;
  bool someAligned;
  /// With someAligned: every `alignedEvery`-th buffer (from the first) gets
  /// an alignment of 2^k, k uniform in [0, maxAlignmentShift].
  size_t alignedEvery = 3;
  int maxAlignmentShift = 8;
};

/// A random problem of `shape`, drawn from `rng` (per buffer: start,
/// length, size, then the alignment where one is drawn).
Problem generateRandomProblem(std::mt19937_64 &rng,
                              const RandomProblemShape &shape);

/// The shape of problems like compiler traces: `count` buffers over 500
/// positions, lifetimes up to 300, sizes from 64 bytes to 1 MB, every other
/// buffer aligned to up to 256 bytes.
RandomProblemShape traceLikeShape(size_t count);

/// Shaped like the allocation traces of production compilers (XLA/TPU heap
/// traces of 1k-62k buffers): `count` buffers over `count / 2` positions,
/// 25 % temporaries living 1-16 positions, 15 % living 16-1024 (log-uniform),
/// 60 % long-lived, from 1/10 to 7/10 of the schedule (log-uniform, clipped
/// at its end); sizes log-uniform from 64 bytes to 8 MiB; alignment 64.
/// 11,398 buffers are live at once at 60,000 buffers, so each one's
/// lifetime intersects thousands of others: the hard case for placement
/// (the trace family of docs/benchmarks.md).
Problem generateDenseTrace(size_t count, uint64_t seed);

/// A random problem of sizes in [1, maxSize] and alignment 1, from `seed`.
Problem generateRandomProblem(uint64_t seed, size_t count, int64_t positions,
                              int64_t maxLength, uint64_t maxSize);

/// Cuts the rectangle [0, positions) x [0, height) (time x bytes) into
/// `count` rectangles by repeated guillotine cuts, across time or across
/// bytes, at random points; each rectangle is a buffer. The pieces tile the
/// rectangle, so `height` bytes are live at every position: the lower bound
/// is `height` and a plan reaching it exists. Cuts keep pieces at least
/// 1 byte tall and 1 position long; fewer than `count` buffers come back if
/// the rectangle cannot be cut that finely.
Problem generatePackedProblem(uint64_t seed, size_t count, int64_t positions,
                              uint64_t height);

} // namespace memplan

#endif // MEMPLAN_TEST_SUPPORT_PROBLEMGENERATORS_H
