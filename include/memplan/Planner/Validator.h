//===- Validator.h - Independent check of a solution ------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Proves a solution correct with its own code path (a sweep over time with an
// ordered map of the live buffers by offset), sharing no data structure with
// the algorithms: no two conflicting buffers overlap in memory, every offset
// is aligned, nothing overflows, and the arena is exactly max(offset + size).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_PLANNER_VALIDATOR_H
#define MEMPLAN_PLANNER_VALIDATOR_H

#include "memplan/Planner/Problem.h"

#include <cstddef>
#include <optional>
#include <string>

namespace memplan {

struct ValidationError {
  /// The buffers at fault; `second` is set for a conflict between two.
  size_t first = 0;
  std::optional<size_t> second;
  std::string message;
};

/// nullopt when `solution` is a valid plan of `problem`, else the first error
/// (in the order of the sweep, so deterministic).
std::optional<ValidationError> validateSolution(const Problem &problem,
                                                const Solution &solution);

} // namespace memplan

#endif // MEMPLAN_PLANNER_VALIDATOR_H
