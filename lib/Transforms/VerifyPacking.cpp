//===- VerifyPacking.cpp - --memplan-verify-packing -----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// An independent check of packed memref IR. It is written apart from the
// planner on purpose and shares none of its analysis: not MemRefAliasModel,
// not ProgramOrder, not BufferViewFlowAnalysis, not MemRefByteSize. Where
// the planner is precise, this is blunt:
//
//  * sizes come from the LLVM types the lowering converts each element to;
//  * a view reaches every memref an op derives from a reached value (all
//    memref results and region arguments, whatever the op), so aliasing is
//    over-approximated rather than modelled;
//  * lifetimes are positions of ops in one block (the innermost block that
//    holds both views), so a use anywhere inside a loop counts for the
//    whole loop; only where two views meet at one op that runs each of its
//    regions at most once does it look inside that op;
//  * anything it does not understand makes a view live forever, which is
//    an error as soon as another view shares its bytes;
//  * an offset is a constant, or inside parallel loops (scf.forall,
//    scf.parallel) of static bounds, a sum of constants and of their
//    induction variables times constants (exact divisions allowed): each
//    view then covers the hull of its offsets, its iterations must not
//    overlap each other, and two views used in the same parallel loop may
//    share bytes only in the same iteration: same coefficients, slots at
//    least as far apart as the two views span;
//  * an offset must be aligned for the view's elements (their LLVM ABI
//    alignment), and for those of every memref it reaches (but one a call
//    returns) and what their uses assume (memref.assume_alignment) or state
//    (an access's `alignment`);
//  * in an arena of GPU workgroup memory, which every thread of a workgroup
//    uses at its own pace, two views share bytes only where both live in
//    the function's body and a gpu.barrier lies between the last use of the
//    one and the other (its own reading of which spaces those are: the GPU
//    dialect's, address space 3, or any space whose name says workgroup).
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "ModuleFunctions.h"

#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"

#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ShapedOpInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace memplan {
#define GEN_PASS_DEF_VERIFYPACKING
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

/// An alignment the program needs of the memory a view reaches, and the op
/// that needs it.
struct AlignmentDemand {
  uint64_t alignment;
  Operation *op;
  const char *what;
};

/// One view of an arena, and what the checker knows about its lifetime.
struct CheckedView {
  Operation *op = nullptr;     ///< the memref.view
  Value value;                 ///< its result
  uint64_t begin = 0, end = 0; ///< its bytes in the arena
  /// Why it may be live at any time; empty when its uses are all known.
  std::string forever;
  /// The innermost block that holds the view and every value it reaches.
  Block *home = nullptr;
  /// Every op that uses a value the view reaches (calls stand for their
  /// callee's uses).
  SmallVector<Operation *> users;
  /// A parallel loop whose iterations all get this one view of an arena
  /// from outside the loop, if any.
  Operation *sharedBy = nullptr;
  /// Its offset: `begin` (the offset in the first iteration) plus, for
  /// each term, a coefficient (never negative) times the number of the
  /// iteration of a parallel loop's dimension (0, 1, ..., count - 1). Terms
  /// are sorted by induction variable; [begin, end) is the hull over all
  /// iterations, and `size` the bytes of one.
  uint64_t size = 0;
  struct Term {
    Value inductionVar;
    int64_t coefficient;
    int64_t count;
    bool operator==(const Term &other) const {
      return inductionVar == other.inductionVar &&
             coefficient == other.coefficient && count == other.count;
    }
  };
  SmallVector<Term> terms;
  /// The parallel loops of more than one iteration around the view and not
  /// around its arena: iterations of each may use the view at once.
  SmallVector<Operation *> parallelLoops;
  /// What the values it reaches need of its offset's alignment.
  SmallVector<AlignmentDemand> demands;
};

/// An index value as the checker derives it: constant + sum of
/// coefficient * (iteration number of an induction variable).
struct IndexForm {
  int64_t constant = 0;
  /// Induction variable -> coefficient.
  llvm::MapVector<Value, int64_t> coefficients;
};

/// The checker's own reading of a parallel loop's dimension: its lower
/// bound, step and number of iterations, when all are constants (it does
/// not use the planner's iteration spaces).
struct LoopDimension {
  int64_t lowerBound, step, count;
  Operation *loop;
};

// The checker's own view of regions, kept apart from the planner's
// RegionExecution: an op runs its regions within its own execution when it
// is a structured linalg op (its body, per element) or describes them
// through RegionBranchOpInterface and is not asynchronous or on other
// threads or devices; a parallel loop runs them within its execution too,
// but its iterations overlap.
bool runsRegionsWithin(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  if (isa<linalg::LinalgOp>(op))
    return true; // its body, once per element, within the op
  return isa<RegionBranchOpInterface>(op) && dialect != "async" &&
         dialect != "acc" &&
         op->getName().getStringRef() != "gpu.warp_execute_on_lane_0";
}

bool isParallelLoop(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "scf.parallel" || name == "scf.forall";
}

bool runsRegionsInTurn(Operation *op) {
  return runsRegionsWithin(op) && !isParallelLoop(op);
}

/// Every value that a use by `user` may make the used value flow into,
/// whatever the op: its results and the arguments of its regions, and for a
/// terminator the results of the op around it and the arguments of that
/// op's regions. (No interface is asked: aliasing is over-approximated.)
void forEachDerivedValue(Operation *user, function_ref<void(Value)> fn) {
  auto visit = [&](Operation *op) {
    for (Value result : op->getResults())
      fn(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          fn(argument);
  };
  if (user->hasTrait<OpTrait::IsTerminator>())
    visit(user->getParentOp());
  visit(user);
}

bool isPlainData(Type type) {
  return isa<IntegerType, IndexType, FloatType, ComplexType, VectorType>(type);
}

/// Whether threads running at once share the memory space: the GPU
/// dialect's workgroup space, its number 3 in the NVVM and ROCDL lowerings,
/// or, bluntly, any space whose printed name mentions a workgroup (SPIR-V's
/// Workgroup storage class among them).
bool isSharedByWorkgroup(Attribute space) {
  if (!space)
    return false;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  if (auto number = dyn_cast<IntegerAttr>(space))
    return number.getValue() == 3;
  std::string text;
  llvm::raw_string_ostream os(text);
  space.print(os);
  return StringRef(text).contains_insensitive("workgroup");
}

Block *parentBlock(Block *block) {
  Operation *op = block->getParentOp();
  return op ? op->getBlock() : nullptr;
}

bool isAncestorOrSelf(Block *ancestor, Block *block) {
  for (; block; block = parentBlock(block))
    if (block == ancestor)
      return true;
  return false;
}

class PackingChecker {
public:
  explicit PackingChecker(FunctionOpInterface function)
      : function(function), state(function), symbols(),
        converter(function.getContext(),
                  LowerToLLVMOptions(function.getContext(),
                                     DataLayout::closest(function))),
        layout(DataLayout::closest(function)) {}

  LogicalResult check() {
    // Arenas: 1-D static i8 buffers carved up by memref.view.
    SmallVector<std::pair<Value, bool>> arenas; // (arena, marked)
    // Arenas: what --memplan-pack-allocs marks as one (all its uses are
    // checked), and any other 1-D static i8 buffer whose only uses are
    // views and frees (a packing written by hand or by another tool). A
    // byte buffer that is also used directly is a buffer, not an arena.
    auto consider = [&](Value value, bool marked) -> LogicalResult {
      auto type = dyn_cast<MemRefType>(value.getType());
      bool shaped = type && type.getRank() == 1 && type.hasStaticShape() &&
                    type.getElementType().isInteger(8) &&
                    type.getLayout().isIdentity();
      if (marked && !shaped)
        return emitError(value.getLoc())
               << name(value) << " is marked 'memplan.arena' but is not a "
               << "static 1-D buffer of i8";
      bool viewedOnly = llvm::all_of(
          value.getUsers(), llvm::IsaPred<memref::ViewOp, memref::DeallocOp>);
      if (marked ||
          (shaped && viewedOnly &&
           llvm::any_of(value.getUsers(), llvm::IsaPred<memref::ViewOp>)))
        arenas.push_back({value, marked});
      return success();
    };
    for (BlockArgument argument : function.getArguments())
      if (failed(consider(argument,
                          function.getArgAttr(
                              argument.getArgNumber(),
                              MemPlanDialect::ArenaAttrHelper::getNameStr()) !=
                              nullptr)))
        return failure();
    WalkResult walk =
        function.getFunctionBody().walk([&](memref::AllocOp alloc) {
          return failed(consider(
                     alloc.getResult(),
                     alloc->hasAttr(
                         MemPlanDialect::ArenaAttrHelper::getNameStr())))
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        });
    if (walk.wasInterrupted())
      return failure();
    for (auto [arena, marked] : arenas)
      if (failed(checkArena(arena, marked)))
        return failure();
    return success();
  }

private:
  LogicalResult checkArena(Value arena, bool marked) {
    auto type = cast<MemRefType>(arena.getType());
    uint64_t arenaBytes = type.getDimSize(0);
    // The alignment the arena is known to have: its alloc's, or what the
    // caller promises for an arena argument (arena-mode=arg).
    uint64_t arenaAlignment = 1;
    if (auto alloc = arena.getDefiningOp<memref::AllocOp>())
      arenaAlignment = alloc.getAlignment().value_or(1);
    else if (auto argument = dyn_cast<BlockArgument>(arena))
      if (auto promised = function.getArgAttrOfType<IntegerAttr>(
              argument.getArgNumber(),
              MemPlanDialect::ArenaAlignmentAttrHelper::getNameStr()))
        arenaAlignment = promised.getInt();

    SmallVector<Operation *> frees;
    for (OpOperand &use : arena.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::DeallocOp>(user)) {
        frees.push_back(user);
        continue;
      }
      auto view = dyn_cast<memref::ViewOp>(user);
      if (!view || view.getSource() != arena)
        return user->emitError()
               << "the arena " << name(arena) << " is used by '"
               << user->getName()
               << "': a packed arena is only viewed and freed";
    }
    // The views in program order (use lists are in no useful order).
    std::vector<CheckedView> views;
    WalkResult walk =
        function.getFunctionBody().walk([&](memref::ViewOp view) -> WalkResult {
          if (view.getSource() != arena)
            return WalkResult::advance();
          FailureOr<CheckedView> checked =
              describeView(view, arenaBytes, arenaAlignment);
          if (failed(checked))
            return WalkResult::interrupt();
          views.push_back(std::move(*checked));
          return WalkResult::advance();
        });
    if (walk.wasInterrupted())
      return failure();

    for (const CheckedView &view : views) {
      if (view.sharedBy)
        return view.op->emitError()
               << name(view.value) << " is one buffer for every iteration of '"
               << view.sharedBy->getName()
               << "', which may run at the same time";
      if (!view.parallelLoops.empty() &&
          !slotsAreDisjoint(view.terms, view.size))
        return view.op->emitError()
               << name(view.value) << " has bytes in common in two iterations "
               << "of '" << view.parallelLoops.front()->getName()
               << "', which may run at the same time";
    }
    workgroupArena = isSharedByWorkgroup(type.getMemorySpace());
    for (size_t i = 0; i < views.size(); ++i)
      for (size_t j = i + 1; j < views.size(); ++j)
        if (views[i].begin < views[j].end && views[j].begin < views[i].end &&
            failed(checkPair(views[i], views[j])))
          return failure();

    // A byte buffer that no packer marked, viewed once outside parallel
    // loops, is the program's own typed buffer (as upstream and IREE write
    // them): if the program lets its address out, when it then frees the
    // buffer is its own affair; no packing placed that free.
    bool ownTypedBuffer =
        !marked && views.size() == 1 && views.front().terms.empty();
    for (Operation *free : frees)
      for (const CheckedView &view : views) {
        if (ownTypedBuffer && !view.forever.empty())
          continue;
        bool ok = view.forever.empty() &&
                  isAncestorOrSelf(free->getBlock(), view.home);
        if (ok) {
          auto [first, last] = interval(view, free->getBlock());
          ok = last <= position(free->getBlock(), free);
        }
        if (!ok)
          return free->emitError()
                 << "the arena " << name(arena) << " is freed while "
                 << name(view.value) << " may still be used"
                 << (view.forever.empty() ? "" : ": ") << view.forever;
      }
    return success();
  }

  FailureOr<CheckedView> describeView(memref::ViewOp op, uint64_t arenaBytes,
                                      uint64_t arenaAlignment) {
    CheckedView view;
    view.op = op;
    view.value = op.getResult();
    MemRefType type = op.getType();
    APInt constant;
    std::optional<IndexForm> form = evaluate(op.getByteShift());
    if (!form)
      return op.emitError()
             << name(op.getResult())
             << " has an offset that is not a constant, nor a sum of "
                "constants and induction variables of parallel loops of "
                "static bounds times constants";
    if (form->constant < 0)
      return op.emitError() << name(op.getResult()) << " has a negative offset";
    uint64_t offset = form->constant;
    // The furthest iteration adds sum(coefficient * (count - 1)).
    uint64_t furthest = 0;
    for (auto [iv, coefficient] : form->coefficients) {
      const LoopDimension &dimension = dimensions.find(iv)->second;
      if (coefficient == 0 || dimension.count == 1)
        continue;
      if (coefficient < 0)
        return op.emitError()
               << name(op.getResult())
               << " has an offset that falls as an induction variable rises";
      std::optional<int64_t> reach =
          llvm::checkedMul(coefficient, dimension.count - 1);
      bool overflowed = !reach;
      if (reach)
        furthest = llvm::SaturatingAdd(furthest, static_cast<uint64_t>(*reach),
                                       &overflowed);
      if (overflowed)
        return op.emitError()
               << name(op.getResult()) << " has offsets past 2^63 bytes";
      view.terms.push_back({iv, coefficient, dimension.count});
    }
    llvm::sort(view.terms,
               [](const CheckedView::Term &a, const CheckedView::Term &b) {
                 return a.inductionVar.getAsOpaquePointer() <
                        b.inductionVar.getAsOpaquePointer();
               });
    uint64_t elements = 1;
    unsigned dynamic = 0;
    for (int64_t dim : type.getShape()) {
      int64_t size = dim;
      if (ShapedType::isDynamic(dim)) {
        if (!matchPattern(op.getSizes()[dynamic++], m_ConstantInt(&constant)))
          return op.emitError() << name(op.getResult())
                                << " has a size that is not a constant";
        size = constant.getSExtValue();
      }
      bool overflowed = false;
      elements = llvm::SaturatingMultiply(elements, static_cast<uint64_t>(size),
                                          &overflowed);
      if (overflowed)
        return op.emitError() << name(op.getResult())
                              << " has more elements than 64 bits count";
    }
    Type lowered = converter.convertType(type.getElementType());
    if (!lowered || !LLVM::isCompatibleType(lowered))
      return op.emitError()
             << name(op.getResult()) << " has element type "
             << type.getElementType() << ", which has no LLVM layout";
    uint64_t alignment = layout.getTypeABIAlignment(lowered);
    uint64_t stride = llvm::alignTo(layout.getTypeSize(lowered).getFixedValue(),
                                    std::max<uint64_t>(alignment, 1));
    view.begin = offset;
    bool overflowed = false;
    view.size = llvm::SaturatingMultiply(elements, stride, &overflowed);
    view.end = llvm::SaturatingAdd(
        view.size, llvm::SaturatingAdd(offset, furthest, &overflowed),
        &overflowed);
    if (overflowed || view.end > arenaBytes)
      return op.emitError()
             << name(op.getResult()) << " covers bytes [" << view.begin << ", "
             << view.end << "), past the end of its " << arenaBytes
             << "-byte arena";
    if (offset % alignment || arenaAlignment < alignment)
      return op.emitError() << name(op.getResult()) << " at offset " << offset
                            << " of an arena aligned to " << arenaAlignment
                            << " bytes is not aligned to the " << alignment
                            << " bytes of its elements";
    for (const CheckedView::Term &term : view.terms)
      if (term.coefficient % alignment)
        return op.emitError()
               << name(op.getResult()) << " moves by " << term.coefficient
               << " bytes per iteration, which is not a multiple of the "
               << alignment << " bytes its elements are aligned to";
    reach(view);
    // What the program asks of the memory the view reaches: views of it
    // with other elements (a memref.view of its bytes as f64,
    // vector.type_cast) are accessed at those elements' alignment, and
    // memref.assume_alignment or an access's `alignment` assume more. Each
    // is asked of the view's own offset: where the program reaches an
    // address past it, the planner keeps the start at least as aligned.
    for (const AlignmentDemand &demand : view.demands) {
      bool met = arenaAlignment >= demand.alignment &&
                 offset % demand.alignment == 0 &&
                 llvm::all_of(view.terms, [&](const CheckedView::Term &term) {
                   return term.coefficient % demand.alignment == 0;
                 });
      if (!met)
        return demand.op->emitError()
               << demand.what << " " << demand.alignment << " bytes, but "
               << name(op.getResult()) << " is at offset " << offset
               << (view.terms.empty() ? "" : " (and more per iteration)")
               << " of an arena aligned to " << arenaAlignment << " bytes";
    }
    return view;
  }

  /// The ABI alignment of `elementType` as the lowering lays it out, or
  /// nullopt where it has no LLVM layout.
  std::optional<uint64_t> loweredAlignment(Type elementType) {
    Type lowered = converter.convertType(elementType);
    if (!lowered || !LLVM::isCompatibleType(lowered))
      return std::nullopt;
    return layout.getTypeABIAlignment(lowered);
  }

  /// The alignment demands on the memory behind `value`, reached from a
  /// view: its elements' (unless a call made it, of a type of its own) and
  /// what its uses assume or state.
  void addAlignmentDemands(CheckedView &view, Value value) {
    Operation *definer = value.getDefiningOp();
    if (value != view.value && !isa_and_present<CallOpInterface>(definer))
      if (std::optional<uint64_t> alignment = loweredAlignment(
              cast<BaseMemRefType>(value.getType()).getElementType());
          alignment && *alignment > 1)
        view.demands.push_back({*alignment, definer ? definer : view.op,
                                "its elements are aligned to"});
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(user)) {
        view.demands.push_back(
            {assume.getAlignment(), user, "it assumes an alignment of"});
        continue;
      }
      std::optional<Attribute> stated = user->getInherentAttr("alignment");
      if (auto alignment =
              dyn_cast_if_present<IntegerAttr>(stated.value_or(nullptr)))
        if (uint64_t bytes = alignment.getValue().getZExtValue();
            llvm::isPowerOf2_64(bytes) && bytes > 1)
          view.demands.push_back(
              {bytes, user, "it accesses memory it states is aligned to"});
    }
  }

  /// `value` as an IndexForm, or nullopt where it is anything but a
  /// constant, an induction variable of a parallel loop whose bounds are
  /// constants, or a sum, difference, product by a constant or exact
  /// unsigned division by a constant of those. Index arithmetic wraps
  /// modulo 2^64 and the form is exact modulo 2^64 through everything but a
  /// division, so a divided value must lie in [0, 2^63) for every
  /// iteration.
  std::optional<IndexForm> evaluate(Value value, unsigned depth = 0) {
    if (depth > 64)
      return std::nullopt;
    IndexForm form;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant))) {
      if (constant.getSignificantBits() > 64)
        return std::nullopt;
      form.constant = constant.getSExtValue();
      return form;
    }
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      std::optional<LoopDimension> dimension = readDimension(argument);
      if (!dimension)
        return std::nullopt;
      // iv = lowerBound + step * (iteration number)
      form.constant = dimension->lowerBound;
      form.coefficients[value] = dimension->step;
      return form;
    }
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumOperands() != 2)
      return std::nullopt;
    std::optional<IndexForm> lhs = evaluate(op->getOperand(0), depth + 1);
    std::optional<IndexForm> rhs = evaluate(op->getOperand(1), depth + 1);
    if (!lhs || !rhs)
      return std::nullopt;
    auto combine = [&](int64_t sign) -> std::optional<IndexForm> {
      IndexForm sum = *lhs;
      std::optional<int64_t> scaled = llvm::checkedMul(rhs->constant, sign);
      std::optional<int64_t> total =
          scaled ? llvm::checkedAdd(sum.constant, *scaled) : std::nullopt;
      if (!total)
        return std::nullopt;
      sum.constant = *total;
      for (auto [iv, coefficient] : rhs->coefficients) {
        std::optional<int64_t> signed_ = llvm::checkedMul(coefficient, sign);
        std::optional<int64_t> added =
            signed_ ? llvm::checkedAdd(sum.coefficients[iv], *signed_)
                    : std::nullopt;
        if (!added)
          return std::nullopt;
        sum.coefficients[iv] = *added;
      }
      return sum;
    };
    if (isa<arith::AddIOp>(op))
      return combine(1);
    if (isa<arith::SubIOp>(op))
      return combine(-1);
    if (isa<arith::MulIOp>(op)) {
      if (!lhs->coefficients.empty())
        std::swap(lhs, rhs);
      if (!lhs->coefficients.empty())
        return std::nullopt; // a product of two induction variables
      int64_t factor = lhs->constant;
      IndexForm product;
      std::optional<int64_t> c = llvm::checkedMul(rhs->constant, factor);
      if (!c)
        return std::nullopt;
      product.constant = *c;
      for (auto [iv, coefficient] : rhs->coefficients) {
        std::optional<int64_t> scaled = llvm::checkedMul(coefficient, factor);
        if (!scaled)
          return std::nullopt;
        product.coefficients[iv] = *scaled;
      }
      return product;
    }
    if (isa<arith::DivUIOp>(op)) {
      if (!rhs->coefficients.empty() || rhs->constant <= 0)
        return std::nullopt;
      int64_t divisor = rhs->constant;
      // In [0, 2^63) for every iteration, and divisible term by term.
      if (lhs->constant < 0 || lhs->constant % divisor)
        return std::nullopt;
      int64_t largest = lhs->constant;
      IndexForm quotient;
      quotient.constant = lhs->constant / divisor;
      for (auto [iv, coefficient] : lhs->coefficients) {
        if (coefficient < 0 || coefficient % divisor)
          return std::nullopt;
        std::optional<int64_t> reach = llvm::checkedMul(
            coefficient, dimensions.find(iv)->second.count - 1);
        std::optional<int64_t> sum =
            reach ? llvm::checkedAdd(largest, *reach) : std::nullopt;
        if (!sum)
          return std::nullopt;
        largest = *sum;
        quotient.coefficients[iv] = coefficient / divisor;
      }
      return quotient;
    }
    return std::nullopt;
  }

  /// The dimension of a parallel loop that `argument` is the induction
  /// variable of, when its bounds and step are constants.
  std::optional<LoopDimension> readDimension(BlockArgument argument) {
    if (auto known = dimensions.find(argument); known != dimensions.end())
      return known->second;
    Operation *op = argument.getOwner()->getParentOp();
    auto loop = dyn_cast_if_present<LoopLikeOpInterface>(op);
    if (!loop || !isParallelLoop(op))
      return std::nullopt;
    std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
    std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds();
    std::optional<SmallVector<OpFoldResult>> ubs = loop.getLoopUpperBounds();
    std::optional<SmallVector<OpFoldResult>> steps = loop.getLoopSteps();
    if (!ivs || !lbs || !ubs || !steps)
      return std::nullopt;
    for (unsigned d = 0; d < ivs->size() && d < lbs->size() &&
                         d < ubs->size() && d < steps->size();
         ++d) {
      if ((*ivs)[d] != argument)
        continue;
      std::optional<int64_t> lb = getConstantIntValue((*lbs)[d]);
      std::optional<int64_t> ub = getConstantIntValue((*ubs)[d]);
      std::optional<int64_t> step = getConstantIntValue((*steps)[d]);
      if (!lb || !ub || !step || *step <= 0)
        return std::nullopt;
      int64_t count = 0;
      if (*ub > *lb) {
        std::optional<int64_t> span = llvm::checkedSub(*ub, *lb);
        if (!span)
          return std::nullopt;
        count = *span / *step + (*span % *step != 0);
      }
      LoopDimension dimension{*lb, *step, std::max<int64_t>(count, 1), op};
      dimensions.try_emplace(argument, dimension);
      return dimension;
    }
    return std::nullopt;
  }

  /// Whether the iterations that `terms` distinguish place a window of
  /// `span` bytes at distinct, disjoint places: sorted by coefficient, each
  /// coefficient is at least `span` and at least the previous one times
  /// its count (a mixed radix), so any two distinct iterations differ by at
  /// least the least coefficient.
  static bool slotsAreDisjoint(ArrayRef<CheckedView::Term> terms,
                               uint64_t span) {
    SmallVector<CheckedView::Term> sorted(terms);
    llvm::sort(sorted, [](const auto &a, const auto &b) {
      return a.coefficient < b.coefficient;
    });
    if (!sorted.empty() &&
        static_cast<uint64_t>(sorted.front().coefficient) < span)
      return false;
    for (size_t i = 1; i < sorted.size(); ++i) {
      std::optional<int64_t> extent =
          llvm::checkedMul(sorted[i - 1].coefficient, sorted[i - 1].count);
      if (!extent || sorted[i].coefficient < *extent)
        return false;
    }
    return true;
  }

  /// Follows every memref derived from the view: fills users, home and
  /// forever.
  void reach(CheckedView &view) {
    SmallVector<Value> worklist = {view.value};
    llvm::DenseSet<Value> reached = {view.value};
    auto follow = [&](Value value) {
      if (isa<BaseMemRefType>(value.getType()) && reached.insert(value).second)
        worklist.push_back(value);
    };
    auto liveForever = [&](const Twine &why) {
      if (view.forever.empty())
        view.forever = why.str();
    };
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      addAlignmentDemands(view, value);
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        view.users.push_back(user);
        if (std::optional<std::string> why = checkUse(use))
          liveForever(*why);
        forEachDerivedValue(user, follow);
      }
    }

    // The home block: it must create every reached value inside it on each
    // run (an argument of the home block itself would come from a previous
    // iteration).
    Block *body = &function.getFunctionBody().front();
    Block *home = view.op->getBlock();
    auto createdInside = [](Value value, Block *block) {
      if (auto argument = dyn_cast<BlockArgument>(value))
        return argument.getOwner() != block &&
               block->findAncestorOpInBlock(
                   *argument.getOwner()->getParentOp()) != nullptr;
      return block->findAncestorOpInBlock(*value.getDefiningOp()) != nullptr;
    };
    for (Value value : reached)
      while (home && !createdInside(value, home))
        home = home == body ? nullptr : parentBlock(home);
    if (!home) {
      liveForever("it reaches a value from outside the function");
      home = body;
    }
    view.home = home;

    // Regions around its uses: the checker trusts only ops that describe
    // their control flow, and never loops whose iterations may overlap.
    SmallVector<Operation *> sites(view.users);
    sites.push_back(view.op);
    for (Operation *site : sites)
      for (Operation *parent = site->getParentOp(); parent != function;
           parent = parent->getParentOp()) {
        if (!runsRegionsWithin(parent))
          liveForever("it is used inside '" + parent->getName().getStringRef() +
                      "', whose regions may run after it or elsewhere, or "
                      "whose control flow is not described");
        // A view inside a parallel loop of an arena from outside it is one
        // buffer for iterations that may overlap, unless its offset moves
        // with every dimension of the loop that has several iterations.
        Value arena = cast<memref::ViewOp>(view.op).getSource();
        if (site != view.op || !isParallelLoop(parent) ||
            parent->isAncestor(arena.getParentBlock()->getParentOp()))
          continue;
        bool perIteration = true, several = false;
        std::optional<SmallVector<Value>> ivs =
            cast<LoopLikeOpInterface>(parent).getLoopInductionVars();
        for (Value iv : ivs ? *ivs : SmallVector<Value>()) {
          auto argument = dyn_cast<BlockArgument>(iv);
          std::optional<LoopDimension> dimension =
              argument ? readDimension(argument) : std::nullopt;
          if (dimension && dimension->count == 1)
            continue;
          several = true;
          perIteration &= dimension && llvm::any_of(view.terms, [&](auto &t) {
                            return t.inductionVar == iv;
                          });
        }
        if (!ivs)
          several = true, perIteration = false;
        if (!several)
          continue;
        view.parallelLoops.push_back(parent);
        if (!perIteration) {
          liveForever("it is shared by the iterations of '" +
                      parent->getName().getStringRef() +
                      "', which may run at the same time");
          view.sharedBy = parent;
        }
      }
  }

  /// Why `use` may keep the buffer alive beyond it, or nullopt when it only
  /// reads, writes, views or forwards it.
  std::optional<std::string> checkUse(OpOperand &use) {
    Operation *user = use.getOwner();
    Value value = use.get();
    std::string opName = ("'" + user->getName().getStringRef() + "'").str();
    if (isa<memref::DeallocOp>(user))
      return "it is freed by " + opName;
    if (user->hasTrait<OpTrait::IsTerminator>()) {
      if (user->getParentOp() == function)
        return std::string("it is returned");
      if (!isa<RegionBranchOpInterface>(user->getParentOp()))
        return "it leaves a region of '" +
               user->getParentOp()->getName().getStringRef().str() + "'";
      return std::nullopt;
    }
    if (auto call = dyn_cast<CallOpInterface>(user))
      return checkCall(call, use);

    SmallVector<MemoryEffects::EffectInstance> effects;
    if (auto effectOp = dyn_cast<MemoryEffectOpInterface>(user))
      effectOp.getEffects(effects);
    bool declared = false, onlyReadWrite = true;
    for (const MemoryEffects::EffectInstance &effect : effects) {
      if (effect.getValue() != value)
        continue;
      declared = true;
      if (!isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()))
        onlyReadWrite = false;
    }
    if (declared && !onlyReadWrite)
      return "it is freed or reallocated by " + opName;
    bool memrefResultsOnly =
        user->getNumResults() > 0 &&
        llvm::all_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>);
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    bool isView = view && view.getViewSource() == value &&
                  llvm::all_of(user->getResultTypes(),
                               llvm::IsaPred<BaseMemRefType, IndexType>);
    auto dim = dyn_cast<ShapedDimOpInterface>(user);
    if (isView || (dim && dim.getShapedValue() == value) ||
        isa<RegionBranchOpInterface>(user) || (memrefResultsOnly && !declared))
      return std::nullopt;
    if (declared && llvm::all_of(user->getResults(), [&](Value result) {
          return isPlainData(result.getType()) ||
                 isa<BaseMemRefType>(result.getType());
        }))
      return std::nullopt;
    return "it is used by " + opName + ", which may keep or expose it";
  }

  /// A call keeps nothing only if its callee is defined here and keeps
  /// nothing of the argument: the same rules, applied inside the callee.
  std::optional<std::string> checkCall(CallOpInterface call, OpOperand &use) {
    auto callee = dyn_cast_if_present<FunctionOpInterface>(
        call.resolveCallableInTable(&symbols));
    if (!callee || callee.isExternal())
      return std::string("it is passed to a function without a body");
    OperandRange arguments = call.getArgOperands();
    unsigned index = use.getOperandNumber();
    if (arguments.empty() || index < arguments.getBeginOperandIndex() ||
        index - arguments.getBeginOperandIndex() >= callee.getNumArguments())
      return std::string("it is passed to a call as no argument");
    index -= arguments.getBeginOperandIndex();
    // Calls being followed, to stop at recursion (the same callee called
    // twice one after the other is no recursion).
    std::pair<Operation *, unsigned> key = {callee, index};
    if (!callsInProgress.insert(key).second)
      return std::string("it is passed to a recursive call");
    llvm::scope_exit leave([&] { callsInProgress.erase(key); });
    SmallVector<Value> worklist = {callee.getArgument(index)};
    llvm::DenseSet<Value> reached(worklist.begin(), worklist.end());
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (OpOperand &inner : value.getUses()) {
        Operation *user = inner.getOwner();
        if (user->hasTrait<OpTrait::IsTerminator>() &&
            user->getParentOp() == callee)
          return "it is returned by @" + callee.getName().str();
        if (std::optional<std::string> why = checkUse(inner))
          return "in @" + callee.getName().str() + ", " + *why;
        for (Operation *parent = user->getParentOp(); parent != callee;
             parent = parent->getParentOp())
          if (!isa<RegionBranchOpInterface>(parent))
            return "in @" + callee.getName().str() + ", it is used inside '" +
                   parent->getName().getStringRef().str() + "'";
        auto add = [&](Value derived) {
          if (isa<BaseMemRefType>(derived.getType()) &&
              reached.insert(derived).second)
            worklist.push_back(derived);
        };
        forEachDerivedValue(user, add);
      }
    }
    return std::nullopt;
  }

  /// Two views whose hulls overlap: used in one parallel loop, they may
  /// share bytes only in one iteration (same offsets up to a constant, and
  /// slots further apart than both span); otherwise they must not be live
  /// at once.
  LogicalResult checkPair(const CheckedView &a, const CheckedView &b) {
    Operation *shared = nullptr;
    for (Operation *loop : a.parallelLoops)
      if (llvm::is_contained(b.parallelLoops, loop))
        shared = loop;
    if (!shared)
      return checkDisjointInTime(a, b);
    auto conflict = [&](const Twine &why) {
      InFlightDiagnostic diag = b.op->emitError();
      diag << "memory conflict: " << name(b.value) << " overlaps "
           << name(a.value) << " in two iterations of '" << shared->getName()
           << "', which may run at the same time: " << why;
      diag.attachNote(a.op->getLoc()) << name(a.value) << " is defined here";
      return diag;
    };
    if (a.terms != b.terms)
      return conflict("their offsets move differently with the iterations");
    uint64_t low = std::min(a.begin, b.begin);
    uint64_t high = std::max(a.begin + a.size, b.begin + b.size);
    if (!slotsAreDisjoint(a.terms, high - low))
      return conflict("their slots are closer than the " + Twine(high - low) +
                      " bytes they span");
    // The same iteration: fixed offsets.
    if (a.begin + a.size <= b.begin || b.begin + b.size <= a.begin)
      return success();
    return checkDisjointInTime(a, b);
  }

  LogicalResult checkDisjointInTime(const CheckedView &a,
                                    const CheckedView &b) {
    auto conflict = [&](const Twine &why) {
      InFlightDiagnostic diag = b.op->emitError();
      diag << "memory conflict: " << name(b.value) << " at bytes [" << b.begin
           << ", " << b.end << ") overlaps " << name(a.value) << " at bytes ["
           << a.begin << ", " << a.end << ") and " << why;
      diag.attachNote(a.op->getLoc()) << name(a.value) << " is defined here";
      return diag;
    };
    if (!a.forever.empty())
      return conflict("the first may be live at any time: " + a.forever);
    if (!b.forever.empty())
      return conflict("it may be live at any time: " + b.forever);
    Block *common = a.home;
    while (!isAncestorOrSelf(common, b.home))
      common = parentBlock(common);
    auto [aFirst, aLast] = interval(a, common);
    auto [bFirst, bLast] = interval(b, common);
    if (workgroupArena)
      return checkApartInWorkgroup(common, aFirst, aLast, bFirst, bLast,
                                   conflict);
    if (aLast <= bFirst || bLast <= aFirst)
      return success();
    // Both live only inside one op of the common block, each within one run
    // of a different region of it: its regions run one at a time.
    if (aFirst == bFirst && aLast == aFirst + 1 && bLast == bFirst + 1 &&
        a.home != common && b.home != common) {
      Operation *holder = common->findAncestorOpInBlock(*a.op);
      Region *aRegion = regionIn(holder, a.home);
      Region *bRegion = regionIn(holder, b.home);
      if (aRegion && bRegion && aRegion != bRegion && runsRegionsInTurn(holder))
        return success();
    }
    // One is born inside one op of the common block and the other, born
    // before it, is last used there (a buffer read for the last time in a
    // branch that then allocates one): look inside that op.
    if ((aFirst < bFirst && apartFrom(a, aLast, b, common)) ||
        (bFirst < aFirst && apartFrom(b, bLast, a, common)))
      return success();
    return conflict("both may be live at once");
  }

  /// Two views of workgroup memory on [aFirst, aLast) and [bFirst, bLast)
  /// of `common`: another thread may still use the earlier one after this
  /// thread's last use, so a gpu.barrier, which every thread reaches only
  /// in the function's body, must lie between them there.
  LogicalResult
  checkApartInWorkgroup(Block *common, int64_t aFirst, int64_t aLast,
                        int64_t bFirst, int64_t bLast,
                        function_ref<LogicalResult(const Twine &)> conflict) {
    if (aLast > bFirst && bLast > aFirst)
      return conflict("both may be live at once");
    if (common != &function.getFunctionBody().front())
      return conflict("both are in workgroup memory, which the threads of a "
                      "workgroup share, and meet in a nested region, where "
                      "no barrier is known to hold every thread");
    int64_t from = std::min(aLast, bLast), to = std::max(aFirst, bFirst);
    for (Operation &op : *common) {
      int64_t at = position(common, &op);
      if (at >= from && at < to && isa<gpu::BarrierOp>(op))
        return success();
    }
    return conflict("no gpu.barrier lies between the last use of the one and "
                    "the other: another thread of the workgroup may still use "
                    "the first");
  }

  /// Whether `outer`, whose last use in `block` is before position
  /// `outerLast` (its uses outside `block` all came before it ran), and
  /// `inner`, whose home lies in `block`, are never live at once: outer's
  /// last use comes before inner is born, or they meet only at an op of
  /// `block` that holds `inner` and runs each of its regions at most once,
  /// nothing of it after the region that holds `inner` (so outer's uses in
  /// its other regions came before), where the same holds, recursively.
  bool apartFrom(const CheckedView &outer, int64_t outerLast,
                 const CheckedView &inner, Block *block) {
    auto [innerFirst, innerLast] = interval(inner, block);
    if (outerLast <= innerFirst)
      return true;
    if (outerLast != innerFirst + 1 || innerLast != innerFirst + 1 ||
        inner.home == block)
      return false;
    Operation *holder = block->findAncestorOpInBlock(*inner.op);
    auto branch = dyn_cast<RegionBranchOpInterface>(holder);
    if (!branch || !runsRegionsInTurn(holder) ||
        isa<linalg::LinalgOp>(holder) || isa<LoopLikeOpInterface>(holder) ||
        llvm::is_contained(outer.users, holder))
      return false;
    for (unsigned index = 0; index < holder->getNumRegions(); ++index)
      if (branch.isRepetitiveRegion(index))
        return false;
    Region *region = regionIn(holder, inner.home);
    if (!region || !region->hasOneBlock())
      return false;
    SmallVector<RegionSuccessor> successors;
    branch.getSuccessorRegions(*region, successors);
    if (!llvm::all_of(successors,
                      [](RegionSuccessor &next) { return next.isParent(); }))
      return false;
    Block *inside = &region->front();
    int64_t lastInside = 0;
    for (Operation *user : outer.users)
      if (Operation *at = inside->findAncestorOpInBlock(*user))
        lastInside = std::max(lastInside, position(inside, at) + 1);
    return apartFrom(outer, lastInside, inner, inside);
  }

  /// The region of `holder` that holds `block`.
  static Region *regionIn(Operation *holder, Block *block) {
    for (Region &region : holder->getRegions())
      if (region.isAncestor(block->getParent()))
        return &region;
    return nullptr;
  }

  /// The positions in `block` of the ancestors of the view and its users
  /// (kept: every pair of views of an arena asks again).
  std::pair<int64_t, int64_t> interval(const CheckedView &view, Block *block) {
    auto [known, inserted] =
        intervals.try_emplace({view.op, block}, std::pair<int64_t, int64_t>());
    if (!inserted)
      return known->second;
    int64_t first = position(block, view.op), last = first + 1;
    for (Operation *user : view.users) {
      int64_t at = position(block, user);
      first = std::min(first, at);
      last = std::max(last, at + 1);
    }
    return known->second = {first, last};
  }

  int64_t position(Block *block, Operation *op) {
    DenseMap<Operation *, int64_t> &positions = positionsIn[block];
    if (positions.empty()) {
      int64_t index = 0;
      for (Operation &nested : *block)
        positions[&nested] = index++;
    }
    return positions.lookup(block->findAncestorOpInBlock(*op));
  }

  std::string name(Value value) {
    std::string text;
    llvm::raw_string_ostream os(text);
    value.printAsOperand(os, state);
    return text;
  }

  FunctionOpInterface function;
  AsmState state;
  SymbolTableCollection symbols;
  LLVMTypeConverter converter;
  DataLayout layout;
  DenseMap<Block *, DenseMap<Operation *, int64_t>> positionsIn;
  /// interval's answers, by view and block.
  DenseMap<std::pair<Operation *, Block *>, std::pair<int64_t, int64_t>>
      intervals;
  /// Whether the arena being checked is in GPU workgroup memory.
  bool workgroupArena = false;
  /// readDimension's answers, by induction variable.
  DenseMap<Value, LoopDimension> dimensions;
  llvm::DenseSet<std::pair<Operation *, unsigned>> callsInProgress;
};

struct VerifyPackingPass
    : public memplan::impl::VerifyPackingBase<VerifyPackingPass> {
  void runOnOperation() override {
    if (failed(forEachFunctionInParallel(
            &getContext(), collectModuleFunctions(getOperation()),
            [](size_t, FunctionOpInterface function) {
              return PackingChecker(function).check();
            })))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
