//===- PlanContract.h - What generated code needs of a plan -----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The translator's own check of a plan written in the IR, before it writes
// code that trusts it. It is deliberately independent of the planner: it
// shares no liveness analysis, problem or validator with --plan-offsets or
// --memplan-verify-plan (which check a plan against the planner's model), so
// that a fault in that model cannot pass both. Its model is simpler and more
// conservative (see PlanContract.cpp), and it is also what the emitter reads:
// every pointer in the generated code is a Place this check accepted.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TARGET_CUDA_PLANCONTRACT_H
#define MEMPLAN_LIB_TARGET_CUDA_PLANCONTRACT_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>

namespace memplan {

/// Where the bytes of a tensor value are, in the generated code.
struct Place {
  enum class Kind {
    Arena,    ///< base + offset
    Result,   ///< the caller's buffer of function result `index`
    Argument, ///< the caller's buffer of function argument `index`
  };
  Kind kind = Kind::Arena;
  unsigned index = 0;  ///< result or argument number
  uint64_t offset = 0; ///< bytes from the start of that memory
};

/// A function's plan, checked.
class PlanContract {
public:
  /// Checks the plan recorded on `function` (a body of one block): every
  /// tensor value has exactly one place (an arena offset, a result
  /// destination, or the memory of what it is a view of), in bounds and
  /// aligned to its elements; views of caller memory carry no arena offset;
  /// no two values that are live at once share bytes unless one is computed
  /// in place over the other where the op allows it; an op that writes into
  /// an operand's memory (a KV-cache update) is the last reader of the value
  /// it overwrites. Emits an error at the offending value otherwise.
  static mlir::FailureOr<PlanContract>
  check(mlir::FunctionOpInterface function);

  /// The location of tensor `value` of the function.
  Place getPlace(mlir::Value value) const { return locations.lookup(value); }
  /// The arena offset of `op`'s scratch, if it needs scratch.
  std::optional<uint64_t> getScratchOffset(mlir::Operation *op) const {
    auto it = scratchOffsets.find(op);
    if (it == scratchOffsets.end())
      return std::nullopt;
    return it->second;
  }
  /// Whether the function writes into the caller's argument `index`.
  bool writesArgument(unsigned index) const {
    return writtenArguments.contains(index);
  }
  uint64_t getArenaBytes() const { return arenaBytes; }

private:
  llvm::DenseMap<mlir::Value, Place> locations;
  llvm::DenseMap<mlir::Operation *, uint64_t> scratchOffsets;
  llvm::DenseSet<unsigned> writtenArguments;
  uint64_t arenaBytes = 0;
  friend class PlanContractChecker;
};

} // namespace memplan

#endif // MEMPLAN_LIB_TARGET_CUDA_PLANCONTRACT_H
