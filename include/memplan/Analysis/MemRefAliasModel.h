//===- MemRefAliasModel.h - Buffers that may share bytes ------ -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one model of memref aliasing and escape that every memplan pass
// planning memrefs uses. A memref.alloc buffer may share bytes with another
// only when every use of it, and of every value that may alias it, is
// understood:
//
//  * a view (ViewLikeOpInterface), an op that names the operands its results
//    may be (BufferViewFlowOpInterface: arith.select), or a region branch
//    (scf.if/for/while results, iter_args, yields): the values it creates
//    are aliases, found by upstream's BufferViewFlowAnalysis and followed in
//    turn;
//  * an op that declares through MemoryEffectOpInterface only read and
//    write effects on it and derives no reference from it: its results are
//    plain data (integers, floats, vectors) or fresh allocations;
//  * memref.dim and other ShapedDimOpInterface ops (metadata);
//  * a memref.dealloc of this buffer and no other (removed when packed);
//  * a call of a function of the module that does not keep it: the same
//    rules hold for the callee's argument, and its return does not take it.
//
// Anything else makes the buffer unpackable, with the reason and the op:
// returning it, ops of unknown or no declared effect, pointer and metadata
// extraction (extract_aligned_pointer_as_index), casts out of the memref
// type system (to_tensor, unrealized_conversion_cast), calls of external
// functions, frees by other ops, and uses inside regions of ops that do not
// describe their control flow (gpu.launch, async.execute).
//
// Where a buffer lives: positions are ProgramOrder's (nested regions
// included). A buffer lives from the first op of its alloc's block that
// uses an alias (allocations hoisted to the top of a function, as IREE and
// upstream's hoisting passes leave them, are born where they are first
// used) to the end of the last op that uses an alias; a use inside a loop (or
// any op that repeats or runs its regions concurrently) that does not also hold
// the alloc keeps it alive to the end of that loop. A buffer allocated inside a
// loop is packable only if it dies within its iteration: no alias leaves the
// loop's region or enters the next iteration, so one offset serves every
// iteration. In a loop whose iterations may run at the same time (scf.parallel,
// scf.forall) the same holds, and each iteration needs bytes of its own: the
// loop must have a compile-time number of iterations, and only one such loop
// may hold the buffer (the packer gives each iteration a slot). Allocations in
// regions memplan does not model are left alone, as are functions with
// unstructured control flow (any region of more than one block). A buffer of
// GPU workgroup memory is used by every thread of a workgroup, each at its own
// pace (WorkgroupMemory.h): it lives on to the first gpu.barrier of the
// function's body after its last use (or to the function's end), and one
// allocated in a nested region is left alone.
//
// Sizes are the lowering's (MemRefByteSize.h); `?` dimensions whose size
// operands are constants count as static. Alignment is the most of the
// alloc's attribute, its elements' and every alias's elements' ABI
// alignment, and what the program assumes of any alias
// (memref.assume_alignment, or an access's stated `alignment`).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_MEMREFALIASMODEL_H
#define MEMPLAN_ANALYSIS_MEMREFALIASMODEL_H

#include "memplan/Analysis/ProgramOrder.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>

namespace memplan {

/// One memref.alloc of a function.
struct AllocBuffer {
  mlir::memref::AllocOp alloc;
  /// Bytes as the lowering allocates it; nullopt when not a compile-time
  /// constant (or not sizeable).
  std::optional<uint64_t> bytes;
  /// The alignment its arena offset needs: the alloc's alignment attribute,
  /// the ABI alignment of its elements and of every alias's (a memref.view
  /// of its bytes as f64), and any alignment the program assumes of an
  /// alias (memref.assume_alignment, an access's stated `alignment`).
  uint64_t alignment = 1;
  /// Live on [start, end) in ProgramOrder positions: from the op of the
  /// alloc's block that holds the first use of any alias (the bytes are
  /// untouched before it), or from the alloc where nothing uses it, to the
  /// end of the last use. For a buffer that is returned, end is the end of
  /// the function.
  int64_t start = 0, end = 0;
  /// That op, before which a packing can create its view (or move its
  /// alloc): every use of an alias is in it or after it. The alloc itself
  /// where nothing uses the buffer.
  mlir::Operation *birth = nullptr;
  /// The alloc's own position: where a buffer left as it is takes its
  /// bytes.
  int64_t allocated = 0;
  /// In GPU workgroup memory (WorkgroupMemory.h).
  bool workgroup = false;
  /// The memref.dealloc ops that free this buffer and nothing else.
  llvm::SmallVector<mlir::Operation *> deallocs;
  /// The innermost block that holds the alloc and every use of an alias: an
  /// arena in it, or in any block around it, can hold the buffer.
  mlir::Block *home = nullptr;
  /// The loop whose iterations may run at the same time (scf.forall,
  /// scf.parallel) that allocates it, if any: every iteration needs bytes of
  /// its own.
  mlir::Operation *concurrentLoop = nullptr;
  /// How many copies of it may be live at once: the product of the
  /// iteration counts of the loops around it whose iterations may run at
  /// the same time (those of a compile-time count).
  uint64_t iterations = 1;
  /// Why it may not share bytes with other buffers; empty when it may.
  std::string rejection;
  /// The op that the rejection is about, if any (a note points at it).
  mlir::Operation *culprit = nullptr;

  bool isPackable() const { return rejection.empty(); }
};

/// Whether called functions keep the memrefs passed to them. Computed on
/// demand, once per callee argument, for all functions of one module.
class CallCaptureAnalysis {
public:
  CallCaptureAnalysis();
  ~CallCaptureAnalysis();

  /// Why `call` may keep (or free, or return) the memref passed as
  /// `operand`, or nullopt when its callee is known not to.
  std::optional<std::string> whyMayKeep(mlir::CallOpInterface call,
                                        mlir::OpOperand &operand);

private:
  std::optional<std::string> analyzeArgument(mlir::FunctionOpInterface callee,
                                             unsigned index);

  mlir::SymbolTableCollection symbols;
  /// (callee, argument) -> why it may be kept.
  llvm::DenseMap<std::pair<mlir::Operation *, unsigned>,
                 std::optional<std::string>>
      verdicts;
};

/// Where the life of a buffer of GPU workgroup memory ends.
enum class WorkgroupLifetime {
  /// At the first gpu.barrier of the function's body after its last use,
  /// or at the function's end: nothing needs to be inserted.
  UntilBarrier,
  /// At its last use, as any buffer's: the packer inserts a gpu.barrier
  /// before a buffer that takes bytes of one used before it, wherever none
  /// lies between them.
  UntilLastUse,
};

/// The memref.alloc buffers of one function: sizes, lifetimes, whether they
/// may share bytes.
class MemRefAliasModel {
public:
  MemRefAliasModel(
      mlir::FunctionOpInterface function, CallCaptureAnalysis &calls,
      WorkgroupLifetime workgroupLifetime = WorkgroupLifetime::UntilBarrier);

  llvm::ArrayRef<AllocBuffer> getBuffers() const { return buffers; }
  const ProgramOrder &getOrder() const { return order; }

private:
  /// The end of `buffer`'s life, which its uses put at `end`, for a buffer
  /// of GPU workgroup memory (WorkgroupMemory.h): the end of the first
  /// gpu.barrier of the function's body at or after `end`, or the function's
  /// terminator where none follows. A buffer allocated in a nested region
  /// is rejected through `reject`.
  int64_t extendToWorkgroupBarrier(
      const AllocBuffer &buffer, int64_t end, WorkgroupLifetime lifetime,
      llvm::function_ref<void(const llvm::Twine &, mlir::Operation *)> reject)
      const;

  ProgramOrder order;
  llvm::SmallVector<AllocBuffer> buffers;
};

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_MEMREFALIASMODEL_H
