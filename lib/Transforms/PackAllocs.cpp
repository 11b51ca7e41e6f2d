//===- PackAllocs.cpp - --memplan-pack-allocs -----------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "ArenaPacking.h"
#include "FunctionPlan.h"
#include "ModuleFunctions.h"
#include "PlanReports.h"
#include "memplan/Analysis/MemRefAliasModel.h"
#include "memplan/Analysis/RegionExecution.h"
#include "memplan/Analysis/WorkgroupMemory.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace memplan {
#define GEN_PASS_DEF_PACKALLOCS
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

/// The ops of `block` that begin at `begin` and end at `end` (null where
/// none does).
std::pair<Operation *, Operation *>
findOps(Block &block, const ProgramOrder &order, int64_t begin, int64_t end) {
  Operation *first = nullptr, *last = nullptr;
  for (Operation &op : block) {
    if (order.begin(&op) == begin)
      first = &op;
    if (order.end(&op) == end)
      last = &op;
  }
  return {first, last};
}

struct PackAllocsPass : public memplan::impl::PackAllocsBase<PackAllocsPass> {
  using PackAllocsBase::PackAllocsBase;

  /// The alias model follows arith.select and memref ops through
  /// BufferViewFlowOpInterface; upstream registers neither model by default.
  void getDependentDialects(DialectRegistry &registry) const override {
    PackAllocsBase::getDependentDialects(registry);
    arith::registerBufferViewFlowOpInterfaceExternalModels(registry);
    memref::registerBufferViewFlowOpInterfaceExternalModels(registry);
  }

  LogicalResult initialize(MLIRContext *context) override {
    return configurePlanner(context, getArgument(), algorithm, alignment,
                            searchSeconds, searchNodes, capacity, search);
  }

  void runOnOperation() override {
    iterationNumbers.clear();
    // One function after another: packing rewrites a function while the
    // alias model reads the bodies of the functions it calls, and
    // arena-mode=arg adds symbols to the module.
    CallCaptureAnalysis calls;
    for (FunctionOpInterface function : collectModuleFunctions(getOperation()))
      if (failed(pack(function, calls)))
        return signalPassFailure();
  }

  LogicalResult pack(FunctionOpInterface function, CallCaptureAnalysis &calls) {
    slotStarts.clear();
    MemRefAliasModel model(function, calls,
                           workgroupBarriers ? WorkgroupLifetime::UntilLastUse
                                             : WorkgroupLifetime::UntilBarrier);
    ArrayRef<AllocBuffer> buffers = model.getBuffers();
    for (const AllocBuffer &buffer : buffers)
      if (!buffer.isPackable()) {
        ++numLeftAlone;
        emitRemark(buffer.alloc->getLoc())
            << "memplan: not packed: " << buffer.rejection;
      }

    PackingOptions options;
    options.algorithm = algorithm;
    options.alignment = alignment;
    options.search = &search;
    options.wholeFunction = arenaMode == ArenaMode::Argument;
    FailureOr<FunctionPacking> packing = planPacking(function, model, options);
    if (failed(packing))
      return failure();
    for (auto &[index, reason] : packing->leftAlone) {
      ++numLeftAlone;
      emitRemark(buffers[index].alloc->getLoc())
          << "memplan: not packed: " << reason;
    }
    // Where each arena starts and ends in its block, found before any op is
    // inserted, moved or erased (ops made here have no position).
    SmallVector<std::pair<Operation *, Operation *>> bounds;
    if (!options.wholeFunction)
      for (const PackedArena &arena : packing->arenas)
        bounds.push_back(
            findOps(*arena.block, model.getOrder(), arena.begin, arena.end));
    freeAtLastUse(function, model, *packing);
    allocateAtFirstUse(buffers, *packing);
    if (packing->arenas.empty()) {
      emitSummaries(function, *packing);
      return success();
    }

    SmallVector<Value> arenaValues;
    if (options.wholeFunction) {
      if (failed(addArenaArguments(function, *packing, arenaValues)))
        return failure();
    } else {
      for (auto [arena, bound] : llvm::zip_equal(packing->arenas, bounds))
        arenaValues.push_back(
            allocateArena(function, arena, bound.first, bound.second));
    }
    if (workgroupBarriers)
      for (const PackedArena &arena : packing->arenas)
        insertWorkgroupBarriers(model, arena);
    emitSummaries(function, *packing);
    for (auto [arena, value] : llvm::zip_equal(packing->arenas, arenaValues))
      replaceByViews(buffers, *packing, arena, value);
    return success();
  }

  /// With workgroup-barriers: a gpu.barrier before the first use of each
  /// buffer of a workgroup arena that takes bytes of one last used before
  /// it, unless a barrier of the function's body already lies between the
  /// two (every workgroup buffer the model packs is allocated there, so its
  /// first use is an op of the body, reached by every thread). Inserted
  /// before the buffer's view is made, so the barrier comes first.
  void insertWorkgroupBarriers(const MemRefAliasModel &model,
                               const PackedArena &arena) {
    ArrayRef<AllocBuffer> buffers = model.getBuffers();
    if (arena.buffers.empty() || !buffers[arena.buffers.front()].workgroup)
      return;
    const ProgramOrder &order = model.getOrder();
    // Where barriers are, as positions of the body: those of the program,
    // and those inserted, at the position of the op they precede.
    std::vector<int64_t> barriers;
    Block &body = *buffers[arena.buffers.front()].alloc->getBlock();
    for (Operation &op : body)
      if (isWorkgroupBarrier(&op))
        barriers.push_back(order.begin(&op));
    auto byStart =
        llvm::to_vector(llvm::seq<unsigned>(0, arena.buffers.size()));
    llvm::sort(byStart, [&](unsigned a, unsigned b) {
      return buffers[arena.buffers[a]].start < buffers[arena.buffers[b]].start;
    });
    OpBuilder builder(body.getParentOp()->getContext());
    for (unsigned later : byStart) {
      const AllocBuffer &buffer = buffers[arena.buffers[later]];
      uint64_t begin = arena.offsets[later], end = begin + *buffer.bytes;
      bool needed = false;
      for (unsigned earlier : byStart) {
        const AllocBuffer &before = buffers[arena.buffers[earlier]];
        uint64_t from = arena.offsets[earlier], to = from + *before.bytes;
        if (before.end > buffer.start || to <= begin || end <= from)
          continue;
        // A barrier at a position in [before.end, buffer.start] lies
        // between the last use of the one and the first use of the other.
        auto at = llvm::lower_bound(barriers, before.end);
        if (at == barriers.end() || *at > buffer.start)
          needed = true;
      }
      if (!needed)
        continue;
      builder.setInsertionPoint(buffer.birth);
      gpu::BarrierOp::create(builder, buffer.birth->getLoc());
      emitRemark(buffer.birth->getLoc())
          << "memplan: inserted a gpu.barrier before this op, the first use "
             "of a workgroup buffer that takes bytes of one last used before "
             "it";
      barriers.insert(llvm::upper_bound(barriers, buffer.start), buffer.start);
      ++numBarriers;
    }
  }

  /// Moves the allocs of packable buffers in no arena to just before the op
  /// of their first use, as the peaks count them (the mirror of
  /// freeAtLastUse: a buffer allocated at the top of the function takes
  /// its bytes only where it is used).
  void allocateAtFirstUse(ArrayRef<AllocBuffer> buffers,
                          const FunctionPacking &packing) {
    DenseSet<unsigned> inArena;
    for (const PackedArena &arena : packing.arenas)
      inArena.insert(arena.buffers.begin(), arena.buffers.end());
    for (auto [index, buffer] : llvm::enumerate(buffers))
      if (buffer.isPackable() && !inArena.contains(index) &&
          buffer.birth != buffer.alloc)
        buffer.alloc->moveBefore(buffer.birth);
  }

  /// Moves the deallocs of buffers in no arena to just after the top-level
  /// op of their last use (positions are taken before any op is inserted).
  void freeAtLastUse(FunctionOpInterface function,
                     const MemRefAliasModel &model,
                     const FunctionPacking &packing) {
    Block &body = function.getFunctionBody().front();
    SmallVector<std::pair<unsigned, Operation *>> moves;
    for (auto [index, end] : packing.freeAtLastUse)
      // With workgroup-barriers a workgroup buffer's last use is this
      // thread's: its free stays where the program put it.
      if (!workgroupBarriers || !model.getBuffers()[index].workgroup)
        moves.emplace_back(index,
                           findOps(body, model.getOrder(), end, end).second);
    OpBuilder builder(function.getContext());
    for (auto [index, last] : moves) {
      const AllocBuffer &buffer = model.getBuffers()[index];
      for (Operation *dealloc : buffer.deallocs)
        dealloc->erase();
      builder.setInsertionPointAfter(last);
      memref::DeallocOp::create(builder, buffer.alloc->getLoc(),
                                buffer.alloc->getResult(0));
    }
  }

  /// The arena as an alloc before `first`, the first op of its block that
  /// holds one of its buffers, freed after `last`, the last one (when its
  /// buffers were freed).
  Value allocateArena(FunctionOpInterface function, const PackedArena &arena,
                      Operation *first, Operation *last) {
    OpBuilder builder(function.getContext());
    builder.setInsertionPoint(first);
    auto alloc = memref::AllocOp::create(
        builder, function.getLoc(), getArenaType(arena), ValueRange{},
        builder.getI64IntegerAttr(static_cast<int64_t>(arena.alignment)));
    MemPlanDialect::ArenaAttrHelper(builder.getContext())
        .setAttr(alloc, builder.getUnitAttr());
    Value value = alloc;
    if (arena.freed) {
      if (last->hasTrait<OpTrait::IsTerminator>())
        builder.setInsertionPoint(last);
      else
        builder.setInsertionPointAfter(last);
      memref::DeallocOp::create(builder, function.getLoc(), value);
    }
    ++numArenas;
    return value;
  }

  /// arena-mode=arg: one argument per arena (one per memory space), and a
  /// function `@<name>_arena_size` returning their sizes in bytes, in
  /// argument order.
  LogicalResult addArenaArguments(FunctionOpInterface function,
                                  const FunctionPacking &packing,
                                  SmallVectorImpl<Value> &values) {
    // Calls may come from anywhere in the top-level module (a nested
    // module's function is called as @inner::@f); the size query goes next
    // to the function, in its own module.
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(function, getOperation());
        uses && !uses->empty())
      return function.emitError()
             << "arena-mode=arg adds arena arguments to @" << function.getName()
             << ", but it is called in this module";
    std::string queryName = (function.getName() + "_arena_size").str();
    if (SymbolTable::lookupSymbolIn(function->getParentOp(), queryName))
      return function.emitError()
             << "arena-mode=arg: the size query @" << queryName
             << " would replace an existing symbol";

    OpBuilder builder(function.getContext());
    SmallVector<Value> sizes;
    SmallVector<Type> sizeTypes;
    builder.setInsertionPointAfter(function);
    auto query = func::FuncOp::create(
        builder, function.getLoc(), queryName,
        builder.getFunctionType({}, SmallVector<Type>(packing.arenas.size(),
                                                      builder.getIndexType())));
    builder.setInsertionPointToStart(query.addEntryBlock());
    for (const PackedArena &arena : packing.arenas) {
      unsigned index = function.getNumArguments();
      NamedAttrList attrs;
      attrs.append(MemPlanDialect::ArenaAttrHelper::getNameStr(),
                   builder.getUnitAttr());
      attrs.append(MemPlanDialect::ArenaAlignmentAttrHelper::getNameStr(),
                   builder.getI64IntegerAttr(arena.alignment));
      if (failed(function.insertArgument(
              index, getArenaType(arena),
              attrs.getDictionary(function.getContext()), function.getLoc())))
        return function.emitError("cannot add an arena argument");
      values.push_back(function.getArgument(index));
      sizes.push_back(arith::ConstantIndexOp::create(
          builder, function.getLoc(), static_cast<int64_t>(arena.bytes)));
    }
    func::ReturnOp::create(builder, function.getLoc(), sizes);
    return success();
  }

  void replaceByViews(ArrayRef<AllocBuffer> buffers,
                      const FunctionPacking &packing, const PackedArena &arena,
                      Value arenaValue) {
    OpBuilder builder(arenaValue.getContext());
    for (auto [index, offset, slots] :
         llvm::zip_equal(arena.buffers, arena.offsets, arena.slotsOf)) {
      memref::AllocOp alloc = buffers[index].alloc;
      // Where it is first used: the arena is allocated before that op (or
      // the op of its block holding it), and every use comes after it.
      builder.setInsertionPoint(buffers[index].birth);
      Value offsetValue = arith::ConstantIndexOp::create(
          builder, alloc.getLoc(), static_cast<int64_t>(offset));
      if (slots)
        // In the slot of this iteration: offset + k * stride.
        offsetValue =
            arith::AddIOp::create(builder, alloc.getLoc(), offsetValue,
                                  getSlotStart(*slots, packing.slots[*slots]));
      Value view = memref::ViewOp::create(builder, alloc.getLoc(),
                                          alloc.getType(), arenaValue,
                                          offsetValue, alloc.getDynamicSizes());
      for (Operation *dealloc : buffers[index].deallocs)
        dealloc->erase();
      alloc.getResult().replaceAllUsesWith(view);
      alloc.erase();
      ++numPacked;
    }
  }

  /// The number of the current iteration of a parallel loop: 0, 1, ...,
  /// row-major over its dimensions, computed once at the start of its body.
  Value getIterationNumber(Operation *loop) {
    auto [it, inserted] = iterationNumbers.try_emplace(loop, Value());
    if (!inserted)
      return it->second;
    // The packer only gives slots to loops with a static iteration space.
    std::optional<StaticIterationSpace> space = getStaticIterationSpace(loop);
    SmallVector<Value> inductionVars =
        *cast<LoopLikeOpInterface>(loop).getLoopInductionVars();
    OpBuilder builder = OpBuilder::atBlockBegin(
        &cast<LoopLikeOpInterface>(loop).getLoopRegions().front()->front());
    Location loc = loop->getLoc();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    // k = ((k_0 * n_1 + k_1) * n_2 + k_2) ..., k_d = (iv_d - lb_d) / step_d.
    Value number;
    for (auto [d, iv] : llvm::enumerate(inductionVars)) {
      Value k = iv;
      if (space->lowerBounds[d] != 0)
        k = arith::SubIOp::create(builder, loc, k,
                                  constant(space->lowerBounds[d]));
      if (space->steps[d] != 1)
        k = arith::DivUIOp::create(builder, loc, k, constant(space->steps[d]));
      number = number ? arith::AddIOp::create(
                            builder, loc,
                            arith::MulIOp::create(builder, loc, number,
                                                  constant(space->counts[d])),
                            k)
                      : k;
    }
    it->second = number;
    return number;
  }

  /// Where the slot of the current iteration of `group` starts in its
  /// slots, k * stride: computed once, after the iteration number.
  Value getSlotStart(unsigned index, const IterationSlots &group) {
    auto [it, inserted] = slotStarts.try_emplace(index, Value());
    if (!inserted)
      return it->second;
    Value number = getIterationNumber(group.loop);
    OpBuilder builder(number.getContext());
    if (Operation *op = number.getDefiningOp())
      builder.setInsertionPointAfter(op);
    else
      builder.setInsertionPointToStart(cast<BlockArgument>(number).getOwner());
    Location loc = group.loop->getLoc();
    Value stride = arith::ConstantIndexOp::create(
        builder, loc, static_cast<int64_t>(group.stride));
    it->second = arith::MulIOp::create(builder, loc, number, stride);
    return it->second;
  }

  /// The summary remark of each memory space.
  void emitSummaries(FunctionOpInterface function,
                     const FunctionPacking &packing) {
    // The slots of each parallel loop that is packed.
    llvm::SmallSetVector<unsigned, 4> packedSlots;
    for (const PackedArena &arena : packing.arenas)
      for (std::optional<unsigned> slots : arena.slotsOf)
        if (slots)
          packedSlots.insert(*slots);
    for (unsigned index : packedSlots) {
      const IterationSlots &group = packing.slots[index];
      emitRemark(group.loop->getLoc())
          << "memplan: each of the " << group.iterations << " iterations of '"
          << group.loop->getName() << "' has a slot of " << group.stride
          << " bytes for its " << group.buffers.size() << " allocation"
          << (group.buffers.size() == 1 ? "" : "s") << " ("
          << group.bytesWithoutReuse << " bytes, lower bound "
          << group.lowerBound << " bytes)";
    }
    for (const SpacePeak &peak : packing.peaks) {
      SmallVector<const PackedArena *> arenas;
      for (const PackedArena &arena : packing.arenas)
        if (arena.memorySpace == peak.memorySpace)
          arenas.push_back(&arena);
      std::string spaceText =
          peak.memorySpace ? " of " + describeMemorySpace(peak.memorySpace)
                           : "";
      if (arenas.empty()) {
        // Each packable buffer is alone in its stretch, or its arena would
        // have raised the peak: no arena, and the peak it leaves.
        emitRemark(function.getLoc())
            << "memplan: @" << function.getName() << ": no arena for its "
            << peak.packable << " packable allocation"
            << (peak.packable == 1 ? "" : "s") << spaceText
            << "; function peak " << peak.packed << " bytes, "
            << peak.freedAtLastUse
            << " bytes with every buffer freed at its last use";
        continue;
      }
      uint64_t count = 0, withoutReuse = 0, lowerBound = 0, startArena = 0,
               nodes = 0;
      bool searched = false, proven = true, naive = false;
      for (const PackedArena *arena : arenas) {
        count += arena->buffers.size();
        withoutReuse += arena->bytesWithoutReuse;
        lowerBound = std::max(lowerBound, arena->lowerBound);
        if (const auto &summary = arena->search) {
          searched = true;
          startArena = std::max(startArena, summary->startArena);
          naive |= summary->startedFromNaive;
          nodes += summary->nodes;
          proven &= summary->provenOptimal;
        }
      }
      InFlightDiagnostic remark = emitRemark(function.getLoc());
      remark << "memplan: @" << function.getName() << ": packed " << count
             << " allocation" << (count == 1 ? "" : "s") << " (" << withoutReuse
             << " bytes)";
      remark << spaceText;
      if (arenaMode == ArenaMode::Argument)
        remark << " into the arena argument of " << arenas.front()->bytes
               << " bytes";
      else if (arenas.size() == 1)
        remark << " into one arena of " << arenas.front()->bytes << " bytes";
      else {
        remark << " into " << arenas.size() << " arenas of ";
        llvm::interleave(
            arenas, remark,
            [&](const PackedArena *arena) { remark << arena->bytes; }, " + ");
        remark << " bytes, each live only over the stretch of its buffers";
      }
      remark << " (lower bound " << lowerBound << " bytes, "
             << getAlgorithmName(algorithm).data();
      if (searched)
        remark << "; from " << startArena << " bytes ("
               << searchStartName(naive) << "), " << nodes << " search nodes"
               << (proven ? ", proven optimal" : "");
      remark << "); function peak " << peak.packed << " bytes, "
             << peak.freedAtLastUse
             << " bytes with every buffer freed at its last use";
    }
  }

  MemRefType getArenaType(const PackedArena &arena) {
    return MemRefType::get({static_cast<int64_t>(arena.bytes)},
                           IntegerType::get(&getContext(), 8),
                           MemRefLayoutAttrInterface(), arena.memorySpace);
  }

  SearchOptions search;
  /// getIterationNumber's values, per parallel loop, and getSlotStart's,
  /// per IterationSlots of the function being packed.
  DenseMap<Operation *, Value> iterationNumbers;
  DenseMap<unsigned, Value> slotStarts;
};

} // namespace
