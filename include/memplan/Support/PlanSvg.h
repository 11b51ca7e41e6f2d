//===- PlanSvg.h - A plan as an SVG picture ---------------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// x = position in the schedule, y = offset in the arena: one rectangle per
// buffer, coloured by its category (the op kind that made it, or a size
// class), with the lower bound and the arena marked and a legend. Every
// rectangle has a <title> (hover text) with the buffer's numbers, and no
// other text, so that thousands of buffers stay readable.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_SUPPORT_PLANSVG_H
#define MEMPLAN_SUPPORT_PLANSVG_H

#include "memplan/Planner/Problem.h"

#include <ostream>
#include <string>
#include <vector>

namespace memplan {

struct SvgBufferInfo {
  std::string category; ///< colour and legend entry ("memplan.matmul")
  std::string label;    ///< hover text ("%3")
};

/// Writes `solution` of `problem` as a standalone SVG document. `info` has
/// one entry per buffer, or is empty (then buffers are coloured by size
/// class). Zero-sized buffers are drawn as hairlines.
void writePlanSvg(std::ostream &os, const Problem &problem,
                  const Solution &solution,
                  const std::vector<SvgBufferInfo> &info,
                  const std::string &title);

/// The categories of `writePlanSvg` when no info is given: "< 1 KiB",
/// "1 KiB - 1 MiB", ... by powers of 1024.
std::string sizeClassOf(uint64_t bytes);

} // namespace memplan

#endif // MEMPLAN_SUPPORT_PLANSVG_H
