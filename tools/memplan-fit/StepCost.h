//===- StepCost.h - What one GPU's step computes and sends ------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The cost of a generated step as its ops state it: the FLOPs of every op
// (RecomputableOpInterface's count for the dedicated ops, the `flops`
// attribute of the generic ones, recomputed ops included: they are in the
// graph), and the bytes this GPU sends (the `comm` attribute) by process
// group and collective. memplan-fit's cost model (LayoutCost) turns them
// into a step time.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANFIT_STEPCOST_H
#define MEMPLAN_TOOLS_MEMPLANFIT_STEPCOST_H

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace memplan::fit {

struct StepCost {
  /// Arithmetic operations of the function, saturating at 2^64 - 1.
  uint64_t flops = 0;
  /// Bytes sent, by process group and op name ("all_gather", ...).
  std::map<std::pair<ProcessGroup, std::string>, uint64_t> sent;

  /// Bytes sent over `group`, by every op or by the ops named `name`.
  uint64_t sentOver(ProcessGroup group, llvm::StringRef name = "") const;
};

/// `at` + `steps` x (`next` - `at`), field by field: the cost of a graph
/// that repeats, `steps` repetitions beyond `at`, where `next` is one more.
/// Fields of `next` below `at`'s count as equal.
StepCost extrapolateStepCost(const StepCost &at, const StepCost &next,
                             uint64_t steps);

/// Sums what `function`'s ops state. Generic ops without `flops` count
/// none (memplan-gen states them for the GEMMs and attention, which
/// dominate; the element-wise rest is left out).
StepCost countStepCost(mlir::FunctionOpInterface function);

} // namespace memplan::fit

#endif // MEMPLAN_TOOLS_MEMPLANFIT_STEPCOST_H
