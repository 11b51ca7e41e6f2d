//===- AllocLiveness.h - Lifetimes of memref.alloc buffers ------*- C++ -*-===//
//
// For upstream bufferized IR: which memref.alloc buffers of a function can be
// packed into one arena, and on which interval each is live.
//
// * A buffer lives from its alloc to the last use of any value that may
//   alias it, found through views (ViewLikeOpInterface: subview, view,
//   cast, reinterpret_cast, collapse/expand_shape, extract_strided_metadata),
//   results of any other op taking it as an operand (arith.select, ...),
//   and region-carrying ops it enters or leaves (scf.if and scf.for results,
//   iter_args, yields). A use inside a nested region counts at the op in the
//   function body that holds it. Deallocations are not uses: deallocation
//   pipelines place them late, and trusting them would reuse nothing.
// * Left out, each with the reason: allocations in nested regions (loops,
//   branches), dynamic sizes, non-identity layouts, buffers that escape
//   (returned, passed to a call, stored), and buffers freed by a dealloc
//   that may also free another buffer.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_ALLOCLIVENESS_H
#define MEMPLAN_ANALYSIS_ALLOCLIVENESS_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::memplan {

struct AllocCandidate {
  Operation *alloc = nullptr; ///< a memref.alloc
  uint64_t bytes = 0;
  uint64_t alignment = 1;            ///< the alloc's alignment attribute
  int64_t start = 0, end = 0;        ///< live on [start, end)
  SmallVector<Operation *> deallocs; ///< memref.dealloc ops that free it
};

struct AllocRejection {
  Operation *alloc = nullptr;
  std::string reason;
};

struct AllocLiveness {
  SmallVector<AllocCandidate> candidates;
  SmallVector<AllocRejection> rejections;
};

/// Analyses every memref.alloc of `function`.
AllocLiveness analyzeAllocs(FunctionOpInterface function);

} // namespace mlir::memplan

#endif // MEMPLAN_ANALYSIS_ALLOCLIVENESS_H
