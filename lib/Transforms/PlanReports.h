//===- PlanReports.h - A plan as a remark, JSON and SVG ------- -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the passes: how --plan-offsets shows a FunctionPlan to its
// user. Reads the plan and the IR; changes nothing.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_PLANREPORTS_H
#define MEMPLAN_LIB_TRANSFORMS_PLANREPORTS_H

#include "FunctionPlan.h"

namespace memplan {

/// What a search started from, as its remarks say: "greedy" (the best greedy
/// plan), or the naive layout when greedy placement ran out of time.
llvm::StringRef searchStartName(bool startedFromNaive);

/// The remark that sums a plan up.
void emitPlanRemark(const FunctionPlan &plan);

/// Writes the plans as JSON.
void writePlanReport(llvm::raw_ostream &os, llvm::ArrayRef<FunctionPlan> plans);

/// Draws one plan as SVG: buffers coloured by the op that defines them.
void writePlanSvg(llvm::raw_ostream &os, const FunctionPlan &plan);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_PLANREPORTS_H
