//===- Workloads.h - Allocation problems for benchmarks ------- -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_BENCHMARKS_WORKLOADS_H
#define MEMPLAN_BENCHMARKS_WORKLOADS_H

#include "memplan/Planner/Problem.h"

#include <cstdint>
#include <string>

namespace memplan::bench {

/// A long transformer-like schedule: `count` buffers, one per op, most
/// living 1-3 ops (activations consumed by the next op or two), every sixth
/// a residual stream that lives until the next residual, every fiftieth a
/// saved tensor living 200 ops; sizes drawn from a few activation shapes
/// (hidden, 3x hidden, 4x hidden, attention scratch).
Problem transformerLike(size_t count, uint64_t seed);

/// Uniformly random: starts over `count / 4` positions, lifetimes of 1 to 64
/// positions, sizes of 1 byte to 1 MiB, alignment 256.
Problem randomIntervals(size_t count, uint64_t seed);

/// The trace family (generateDenseTrace, test/support/ProblemGenerators.h).
Problem denseTrace(size_t count, uint64_t seed);

} // namespace memplan::bench

#endif // MEMPLAN_BENCHMARKS_WORKLOADS_H
