//===- PackAllocs.cpp - --memplan-pack-allocs -----------------------------===//

#include "memplan/Transforms/Passes.h"

#include "FunctionPlan.h"
#include "memplan/Analysis/AllocLiveness.h"
#include "memplan/Planner/Validator.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::memplan {
#define GEN_PASS_DEF_PACKALLOCS
#include "memplan/Transforms/Passes.h.inc"
} // namespace mlir::memplan

using namespace mlir;
using namespace mlir::memplan;

namespace {

struct PackAllocsPass
    : public mlir::memplan::impl::PackAllocsBase<PackAllocsPass> {
  using PackAllocsBase::PackAllocsBase;

  LogicalResult initialize(MLIRContext *context) override {
    return configurePlanner(context, algorithm, alignment, searchSeconds,
                            searchNodes, capacity, chosen, search);
  }

  void runOnOperation() override {
    for (auto function : getOperation().getOps<FunctionOpInterface>())
      if (!function.isExternal() && failed(pack(function)))
        return signalPassFailure();
  }

  LogicalResult pack(FunctionOpInterface function) {
    AllocLiveness liveness = analyzeAllocs(function);
    for (const AllocRejection &rejection : liveness.rejections)
      emitRemark(rejection.alloc->getLoc())
          << "memplan: not packed: " << rejection.reason;

    // Buffers that are freed and buffers that are not (IR before a
    // deallocation pipeline) are not mixed: the arena is freed exactly when
    // the buffers it replaces were.
    SmallVector<AllocCandidate *> freed, unfreed;
    for (AllocCandidate &candidate : liveness.candidates)
      (candidate.deallocs.empty() ? unfreed : freed).push_back(&candidate);
    SmallVector<AllocCandidate *> &packed = freed.empty() ? unfreed : freed;
    if (!freed.empty())
      for (AllocCandidate *other : unfreed)
        emitRemark(other->alloc->getLoc())
            << "memplan: not packed: it has no dealloc, unlike the buffers "
               "packed in this function";
    if (packed.size() < 2)
      return success();

    ::memplan::Problem problem;
    uint64_t arenaAlignment = 1;
    for (AllocCandidate *candidate : packed) {
      uint64_t align = std::max<uint64_t>(alignment, candidate->alignment);
      if (align & (align - 1))
        align = alignment; // non power-of-two alignment attributes: ignored
      arenaAlignment = std::max(arenaAlignment, align);
      problem.buffers.push_back(
          {candidate->bytes, candidate->start, candidate->end, align});
    }
    ::memplan::PlanResult result = ::memplan::plan(problem, *chosen, &search);
    if (!result.ok())
      return function.emitError() << "cannot pack the allocations of this "
                                     "function: "
                                  << result.error;
    if (std::optional<::memplan::ValidationError> error =
            ::memplan::validateSolution(problem, result.solution))
      return function.emitError()
             << "internal error: the plan failed validation: "
             << error->message;
    if (const auto &summary = result.solution.search;
        summary && !summary->capacityMet)
      return function.emitError()
             << "no packing fits in " << *search.capacity << " bytes";
    if (result.solution.arenaSize > static_cast<uint64_t>(INT64_MAX))
      return function.emitError("the arena exceeds 2^63 - 1 bytes");

    rewrite(function, packed, result.solution, arenaAlignment);
    emitRemark(function.getLoc())
        << "memplan: @" << function.getName() << ": packed " << packed.size()
        << " allocations (" << ::memplan::computeBytesWithoutReuse(problem)
        << " bytes) into one arena of " << result.solution.arenaSize
        << " bytes (lower bound " << ::memplan::computeLowerBound(problem)
        << " bytes, " << ::memplan::getAlgorithmName(*chosen).data() << ")";
    return success();
  }

  void rewrite(FunctionOpInterface function, ArrayRef<AllocCandidate *> packed,
               const ::memplan::Solution &solution, uint64_t arenaAlignment) {
    Block &body = function.getFunctionBody().front();
    OpBuilder builder(function.getContext());
    Location loc = function.getLoc();
    builder.setInsertionPointToStart(&body);
    auto arenaType = MemRefType::get({static_cast<int64_t>(solution.arenaSize)},
                                     builder.getI8Type());
    Value arena = memref::AllocOp::create(
        builder, loc, arenaType, ValueRange{},
        builder.getI64IntegerAttr(static_cast<int64_t>(arenaAlignment)));
    bool freed = false;
    for (auto [index, candidate] : llvm::enumerate(packed)) {
      auto alloc = cast<memref::AllocOp>(candidate->alloc);
      builder.setInsertionPoint(alloc);
      Value offset = arith::ConstantIndexOp::create(
          builder, alloc.getLoc(),
          static_cast<int64_t>(solution.offsets[index]));
      Value view =
          memref::ViewOp::create(builder, alloc.getLoc(), alloc.getType(),
                                 arena, offset, ValueRange{});
      for (Operation *dealloc : candidate->deallocs) {
        dealloc->erase();
        freed = true;
      }
      alloc.getResult().replaceAllUsesWith(view);
      alloc.erase();
    }
    if (freed) {
      builder.setInsertionPoint(body.getTerminator());
      memref::DeallocOp::create(builder, loc, arena);
    }
  }

  std::optional<::memplan::Algorithm> chosen;
  ::memplan::SearchOptions search;
};

} // namespace
