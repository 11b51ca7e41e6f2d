//===- ArenaPacking.h - Which buffers go into which arena -------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to --memplan-pack-allocs: from the alias model's buffers to
// arenas, before any IR changes.
//
//  * One group per memory space: buffers of different spaces never share an
//    arena.
//  * Within a group, one arena per stretch of a block in which its buffers
//    are live: an arena is allocated before the op of the block where its
//    first buffer is born and freed after the one where its last dies, so
//    buffers that are never live across the same op get arenas that are not
//    live together either. Arenas are first made in the function body: one
//    arena for a loop's temporaries and the code around it, allocated once.
//  * The function's peak never rises: the peak of the packed function (the
//    arenas while they are live plus every buffer left alone, each freed at
//    its last use) is compared with the peak of the same function with every
//    buffer freed at its last use, per memory space. While it is higher, the
//    arena that adds the most at the peak is taken apart: its buffers whose
//    home is a nested block (a loop body, a branch) move to arenas of that
//    block, whose stretches are that block's ops (so in a loop an arena is
//    allocated each iteration); an arena with nothing to move is given up
//    (its buffers stay separate allocations). A buffer of its own counts
//    rounded up to its alignment (an aligned allocation takes at least that
//    much), an arena at its size (the padding between its buffers is in
//    it); buffers of dynamic size count in neither peak.
//  * Buffers of a loop whose iterations may run at the same time
//    (scf.forall, scf.parallel) are planned once, as the slot of one
//    iteration (IterationSlots), and the loop's slots, one per iteration,
//    enter the arenas around the loop as one item: every iteration has
//    bytes of its own, and buffers of one iteration reuse each other's.
//    In the peaks, such a buffer counts once per iteration (they may all be
//    live at once).
//  * Freed buffers in no arena (alone in their stretch, or given up) that
//    are allocated in the function body are freed right after the top-level
//    op of their last use, whatever their deallocs said: the peak reported
//    is the peak of the code produced.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_ARENAPACKING_H
#define MEMPLAN_LIB_TRANSFORMS_ARENAPACKING_H

#include "memplan/Analysis/MemRefAliasModel.h"
#include "memplan/Planner/Algorithms.h"
#include "memplan/Planner/Search.h"

#include <optional>
#include <string>
#include <vector>

namespace memplan {

/// The buffers of one loop whose iterations may run at the same time,
/// planned once as the slot of one iteration. Iteration k (the iterations
/// numbered from 0, row-major over the loop's dimensions) has the bytes
/// [k * stride, (k + 1) * stride) of the slots.
struct IterationSlots {
  mlir::Operation *loop = nullptr;
  llvm::SmallVector<unsigned> buffers; ///< indices into the model's buffers
  llvm::SmallVector<uint64_t> offsets; ///< within a slot, one per buffer
  uint64_t stride = 0; ///< a slot's bytes, a multiple of alignment
  uint64_t iterations = 1;
  uint64_t alignment = 1;
  uint64_t lowerBound = 0;        ///< of one slot's buffers
  uint64_t bytesWithoutReuse = 0; ///< of one slot's buffers
};

/// One arena and the buffers planned into it.
struct PackedArena {
  mlir::Attribute memorySpace;
  mlir::Block *block = nullptr;        ///< the block it is allocated in
  llvm::SmallVector<unsigned> buffers; ///< indices into the model's buffers
  /// One per buffer: its offset, or for a buffer of a slot, its offset in
  /// the slot of iteration 0.
  llvm::SmallVector<uint64_t> offsets;
  /// One per buffer: the IterationSlots (an index into
  /// FunctionPacking::slots) that it is in, if any.
  llvm::SmallVector<std::optional<unsigned>> slotsOf;
  uint64_t bytes = 0;
  uint64_t alignment = 1;
  int64_t begin = 0, end = 0; ///< live on [begin, end): ops of `block`
  /// Of its buffers; the slots of a parallel loop count as their lower
  /// bound times the iterations.
  uint64_t lowerBound = 0;
  uint64_t bytesWithoutReuse = 0; ///< of its buffers, once per iteration
  std::optional<SearchSummary> search;
  /// Whether its buffers had deallocs (so the arena gets one).
  bool freed = false;
};

/// The peak of one memory space, packed and unpacked.
struct SpacePeak {
  mlir::Attribute memorySpace;
  uint64_t packed = 0;         ///< arenas + buffers left alone
  uint64_t freedAtLastUse = 0; ///< every buffer freed at its last use
  unsigned packable = 0;       ///< allocations that could share an arena
};

struct FunctionPacking {
  std::vector<PackedArena> arenas;
  /// The slots of parallel loops; those in no arena are left alone.
  std::vector<IterationSlots> slots;
  llvm::SmallVector<SpacePeak> peaks;
  /// Packable buffers that are left alone after all, with the reason.
  llvm::SmallVector<std::pair<unsigned, std::string>> leftAlone;
  /// Buffers in no arena whose deallocs move to just after the top-level op
  /// of their last use: freed, packable, allocated in the function body.
  llvm::SmallVector<std::pair<unsigned, int64_t>> freeAtLastUse;
};

struct PackingOptions {
  Algorithm algorithm = Algorithm::GreedyBySize;
  uint64_t alignment = 1; ///< the least alignment of every offset
  const SearchOptions *search = nullptr;
  /// One arena per memory space, live for the whole function (the caller's
  /// arena argument).
  bool wholeFunction = false;
};

/// "memory space 1", "memory space #gpu.address_space<workgroup>", or "the
/// default memory space" (no attribute), for remarks.
std::string describeMemorySpace(mlir::Attribute space);

/// Decides the arenas of `function`. Emits an error at the function and
/// fails when a plan cannot be made (capacity not met, arena over 2^63 - 1
/// bytes, a plan the validator refuses).
mlir::FailureOr<FunctionPacking> planPacking(mlir::FunctionOpInterface function,
                                             const MemRefAliasModel &model,
                                             const PackingOptions &options);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_ARENAPACKING_H
