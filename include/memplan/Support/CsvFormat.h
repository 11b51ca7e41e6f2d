//===- CsvFormat.h - Buffers as CSV -----------------------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CSV format of the public static-allocation benchmark suites: a header
// `id,lower,upper,size` (columns in any order, plus an optional `alignment`),
// then one row per buffer, live on the half-open interval [lower, upper).
// A plan is written as the same rows plus an `offset` column.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_SUPPORT_CSVFORMAT_H
#define MEMPLAN_SUPPORT_CSVFORMAT_H

#include "memplan/Planner/Problem.h"

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace memplan {

struct CsvProblem {
  Problem problem;
  std::vector<std::string> ids; ///< the id of each buffer, in file order
  bool hasAlignment = false;    ///< whether the file had an alignment column
};

/// Reads `input`. On failure returns false and sets `error` to a message that
/// starts with the 1-based line number ("line 7: ...").
bool readProblemCsv(std::istream &input, CsvProblem &result,
                    std::string &error);

/// Writes the rows of `csv` with the offsets of `solution`.
void writePlanCsv(std::ostream &output, const CsvProblem &csv,
                  const Solution &solution);

} // namespace memplan

#endif // MEMPLAN_SUPPORT_CSVFORMAT_H
