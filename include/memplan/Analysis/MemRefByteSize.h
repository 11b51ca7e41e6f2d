//===- MemRefByteSize.h - Bytes of a memref as lowered -------- -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The memref path plans the bytes the LLVM lowering addresses, not packed
// bits: one element takes its size in the DataLayout rounded up to its ABI
// alignment (the LLVM "alloc size"), so i1 and i4 take one byte each and
// vector<3xf32> takes 16. A planner that counted bits would place the next
// buffer inside this one. (The memplan dialect's own tensors keep the packed
// sizes of TypeByteSize.h, which are what memplan's runtimes store.)
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_MEMREFBYTESIZE_H
#define MEMPLAN_ANALYSIS_MEMREFBYTESIZE_H

#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include <cstdint>
#include <optional>

namespace memplan {

/// How one element of a memref is laid out.
struct ElementLayout {
  uint64_t bytes = 0; ///< stride between consecutive elements
  /// The DataLayout's ABI alignment, raised to each scalar's natural
  /// alignment (its power-of-two size, at most 16 bytes).
  uint64_t alignment = 1;
};

/// The layout of `elementType` in `layout`, or nullopt when the data layout
/// cannot size it (scalable vectors, types without a data layout).
std::optional<ElementLayout> getElementLayout(mlir::Type elementType,
                                              const mlir::DataLayout &layout);

/// Bytes of a memref.alloc of `type` (identity layout) as the lowering
/// allocates it. `dynamicSizes` holds one entry per `?` dimension: its value
/// when it is a constant.
ByteSize
getAllocationByteSize(mlir::MemRefType type,
                      llvm::ArrayRef<std::optional<int64_t>> dynamicSizes,
                      const mlir::DataLayout &layout);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_MEMREFBYTESIZE_H
