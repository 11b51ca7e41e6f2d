//===- BufferLiveness.h - Lifetimes of a function's tensors --- -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Turns the body of a function into a planner Problem.
//
// * Positions are op indices in the body's single block. A value defined at
//   position i whose last use is at position j is live on [i, j + 1)
//   (half-open, as everywhere in memplan). A use inside a nested region
//   counts at its ancestor op in the body. Returned values are used by the
//   terminator, the last op, so they live to the end.
// * Function arguments and the results of constant-like ops are external:
//   reported with their sizes, never placed in the arena.
// * A view (BufferPlanningOpInterface::getAliasedOperand, or upstream
//   ViewLikeOpInterface) gets no buffer: it joins its source's buffer and
//   stretches its lifetime.
// * A result may take over, in place, the buffer of an operand the op allows
//   (getInPlaceOperands) when no value in that buffer is used after this op
//   and the buffer is large enough, if the caller's policy accepts it.
// * An op's scratch bytes are a buffer live at that op only.
// * Destination passing: a buffer holding a value the body returns (the
//   terminator's operand #i) may be the caller's buffer of result #i instead
//   of arena memory, if the caller's policy accepts it and the buffer is no
//   larger than that result. It keeps its lifetime and values (so views and
//   in-place results over it stay in the caller's buffer) and is planned
//   with 0 arena bytes. Each result takes one buffer; a value returned twice
//   is copied for the second result.
// * Any other op with tensor results gets a fresh buffer for each.
// * Memref values are an error: they alias and escape in ways that value
//   liveness does not see (a select of two buffers, a pointer taken from
//   one). Bufferized IR is planned by --memplan-pack-allocs through
//   MemRefAliasModel.h.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_BUFFERLIVENESS_H
#define MEMPLAN_ANALYSIS_BUFFERLIVENESS_H

#include "memplan/Planner/Problem.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <optional>

namespace memplan {

/// A value stored in a buffer, and how it got there.
struct BufferValue {
  enum class Role {
    Defines, ///< the result that created the buffer
    View,    ///< a view of a value in the buffer
    InPlace, ///< a result computed in place over a value in the buffer
  };
  mlir::Value value;
  Role role = Role::Defines;
};

/// One buffer of the arena.
struct LiveBuffer {
  enum class Kind { Result, Scratch };
  Kind kind = Kind::Result;
  /// The op defining the buffer's first value, or needing the scratch.
  mlir::Operation *op = nullptr;
  /// Values stored in this buffer, in program order: the result that created
  /// it, then views of it and results computed in place over it. Empty for
  /// scratch.
  llvm::SmallVector<BufferValue, 1> values;
  uint64_t bytes = 0;
  int64_t start = 0; ///< live on [start, end)
  int64_t end = 0;
  /// The function result whose caller-owned buffer holds this buffer, if
  /// it is not in the arena (destination passing).
  std::optional<unsigned> destination;

  /// Whether this is scratch that its op declares a math library's
  /// workspace (BufferPlanningOpInterface::isScratchLibraryWorkspace).
  bool isLibraryWorkspace() const;
};

/// A value outside the arena: a function argument or a constant, or a view
/// of one.
struct ExternalValue {
  enum class Kind { Argument, Constant };
  Kind kind = Kind::Argument;
  mlir::Value value;
  uint64_t bytes = 0;
};

/// Decides whether result `result` is computed in place over the buffer of
/// operand `operandIndex`. It is only asked when that is allowed.
using InPlacePolicy =
    std::function<bool(mlir::OpResult result, unsigned operandIndex)>;

/// Decides whether the buffer that holds returned value `returned` (the
/// terminator's operand `resultIndex`), whose first value is `first`, is
/// the caller's result buffer. It is only asked when that is allowed.
using DestinationPolicy = std::function<bool(
    mlir::Value first, mlir::Value returned, unsigned resultIndex)>;

/// The policies of --plan-offsets's options: every reuse the ops allow (or
/// none), every returned value in its caller's buffer (or none).
InPlacePolicy inPlaceWhereAllowed(bool enabled);
DestinationPolicy resultsInCallerBuffers(bool enabled);

class BufferLiveness {
public:
  /// Analyses `body` (one block). Emits a diagnostic at the offending op or
  /// argument and fails on dynamic shapes, element types without a size,
  /// byte sizes that overflow 64 bits, and bodies of more than one block.
  /// `inPlace` may be null: no in-place reuse. `destinations` may be null:
  /// returned values stay in the arena.
  static mlir::FailureOr<BufferLiveness>
  compute(mlir::Region &body, const InPlacePolicy &inPlace,
          const DestinationPolicy &destinations = nullptr);

  llvm::ArrayRef<LiveBuffer> getBuffers() const { return buffers; }
  llvm::ArrayRef<ExternalValue> getExternals() const { return externals; }

  /// The buffer storing `value`, if it is in the arena.
  std::optional<unsigned> getBufferIndex(mlir::Value value) const;
  /// Whether `value` is (a view of) an argument or a constant.
  bool isExternal(mlir::Value value) const { return externalOf.count(value); }
  /// The external value `value` is (a view of); isExternal(value) must hold.
  const ExternalValue &getExternal(mlir::Value value) const {
    return externals[externalOf.lookup(value)];
  }
  /// The position of a top-level op of the body.
  int64_t getPosition(mlir::Operation *op) const {
    return positions.lookup(op);
  }
  /// Number of ops in the body.
  int64_t getNumPositions() const { return numPositions; }

  /// Total bytes of the external values (views not counted twice).
  uint64_t getExternalBytes() const;

  /// The planner's problem: one buffer per LiveBuffer, in the same order;
  /// a buffer with a destination takes 0 arena bytes.
  Problem toProblem(uint64_t alignment) const;

private:
  BufferLiveness() = default;

  llvm::SmallVector<LiveBuffer> buffers;
  llvm::SmallVector<ExternalValue> externals;
  llvm::DenseMap<mlir::Value, unsigned> bufferOf;
  llvm::DenseMap<mlir::Value, unsigned> externalOf;
  llvm::DenseMap<mlir::Operation *, int64_t> positions;
  int64_t numPositions = 0;
};

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_BUFFERLIVENESS_H
