//===- ScheduleGenerators.h - Op graphs for scheduling tests ----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Deterministic (seeded) random op graphs for the scheduler's unit tests
// and its benchmark.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TEST_SUPPORT_SCHEDULEGENERATORS_H
#define MEMPLAN_TEST_SUPPORT_SCHEDULEGENERATORS_H

#include "memplan/Planner/Scheduling.h"

#include <random>

namespace memplan {

/// A random DAG of `n` ops in which op i reads buffers of earlier ops:
/// `layered` draws readers from the next few ops (chains with skip
/// connections, like transformer layers), otherwise from any later op
/// (irregular cells, like NAS cells). Buffers are 1 to 128 bytes; one op in
/// five has a second output, one in four scratch; one in six gets an extra
/// order edge (a memory effect).
ScheduleProblem generateRandomSchedulingProblem(std::mt19937_64 &rng, size_t n,
                                                bool layered);

} // namespace memplan

#endif // MEMPLAN_TEST_SUPPORT_SCHEDULEGENERATORS_H
