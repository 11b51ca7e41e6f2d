//===- ProgramOrder.h - Positions of every op of a function -----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A function's ops numbered in pre-order, nested regions included: an op
// that holds regions spans [begin, end), which covers every op inside it, so
// the ops of a loop body or of both branches of an scf.if lie inside the
// span of the op that holds them. Lifetimes of buffers in nested regions are
// intervals of these positions (half-open, as everywhere in memplan); how
// often and in which order regions run (RegionExecution.h) decides how a use
// inside a region stretches a lifetime.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_PROGRAMORDER_H
#define MEMPLAN_ANALYSIS_PROGRAMORDER_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <utility>

namespace memplan {

class ProgramOrder {
public:
  /// Numbers every op nested in `body`.
  explicit ProgramOrder(mlir::Region &body);

  /// The position of `op` (which must be nested in the body).
  int64_t begin(mlir::Operation *op) const { return spans.lookup(op).first; }
  /// One past the last position inside `op`: begin + 1 for an op without
  /// regions.
  int64_t end(mlir::Operation *op) const { return spans.lookup(op).second; }
  /// Number of positions.
  int64_t size() const { return count; }

private:
  llvm::DenseMap<mlir::Operation *, std::pair<int64_t, int64_t>> spans;
  int64_t count = 0;
};

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_PROGRAMORDER_H
