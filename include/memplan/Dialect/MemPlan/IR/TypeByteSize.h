//===- TypeByteSize.h - Bytes a shaped value occupies -----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How many bytes a statically shaped tensor or memref occupies in memory,
// with every failure told apart so that callers can say exactly what is wrong:
// a dynamic shape, an element type without a size, or a count that does not
// fit in 64 bits. Sub-byte elements (i4) are packed: ceil(elements * bits / 8).
//
// Why not the DataLayout: these are the sizes of memplan graphs as the CUDA
// lowering stores them, and it packs int4 weights two to a byte (as the
// quantized kernels it calls read them); DataLayout::getTypeSize rounds
// every element up to whole bytes, which is what upstream's LLVM lowering of
// memrefs stores. Upstream memref IR is sized by the DataLayout, in
// MemRefByteSize.h, because there the LLVM lowering is what writes memory.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_TYPEBYTESIZE_H
#define MEMPLAN_DIALECT_MEMPLAN_IR_TYPEBYTESIZE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace memplan {

enum class ByteSizeStatus {
  Ok,
  NotShaped,          // not a tensor, memref or vector
  DynamicShape,       // a dimension (or the rank) is unknown
  UnsizedElementType, // the element type has no bit width
  Overflow,           // the byte count does not fit in 64 bits
};

struct ByteSize {
  ByteSizeStatus status = ByteSizeStatus::NotShaped;
  uint64_t bytes = 0;
  bool ok() const { return status == ByteSizeStatus::Ok; }
};

/// Bits of one element of `elementType`, or nullopt if it has no fixed size.
std::optional<uint64_t> getElementBitWidth(mlir::Type elementType);

/// Bytes of a statically shaped tensor, memref or vector type.
ByteSize getByteSize(mlir::Type type);

/// A short phrase for a failed status, for diagnostics
/// ("has a dynamic shape", ...).
llvm::StringRef describeByteSizeFailure(ByteSizeStatus status);

} // namespace memplan

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_TYPEBYTESIZE_H
