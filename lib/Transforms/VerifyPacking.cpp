//===- VerifyPacking.cpp - --memplan-verify-packing -----------------------===//
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
//    whole loop;
//  * anything it does not understand makes a view live forever, which is
//    an error as soon as another view shares its bytes.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"

#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ShapedOpInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir::memplan {
#define GEN_PASS_DEF_VERIFYPACKING
#include "memplan/Transforms/Passes.h.inc"
} // namespace mlir::memplan

using namespace mlir;
using namespace mlir::memplan;

namespace {

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
  PackingChecker(FunctionOpInterface function, ModuleOp module)
      : function(function), state(function), symbols(), module(module),
        converter(function.getContext(),
                  LowerToLLVMOptions(function.getContext(),
                                     DataLayout::closest(function))),
        layout(DataLayout::closest(function)) {}

  LogicalResult check() {
    // Arenas: 1-D static i8 buffers carved up by memref.view.
    SmallVector<Value> arenas;
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
        arenas.push_back(value);
      return success();
    };
    for (BlockArgument argument : function.getArguments())
      if (failed(consider(argument,
                          function.getArgAttr(argument.getArgNumber(),
                                              kArenaAttrName) != nullptr)))
        return failure();
    WalkResult walk =
        function.getFunctionBody().walk([&](memref::AllocOp alloc) {
          return failed(consider(alloc.getResult(),
                                 alloc->hasAttr(kArenaAttrName)))
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        });
    if (walk.wasInterrupted())
      return failure();
    for (Value arena : arenas)
      if (failed(checkArena(arena)))
        return failure();
    return success();
  }

private:
  LogicalResult checkArena(Value arena) {
    auto type = cast<MemRefType>(arena.getType());
    uint64_t arenaBytes = type.getDimSize(0);
    // The alignment the arena is known to have: its alloc's, or what the
    // caller promises for an arena argument (arena-mode=arg).
    uint64_t arenaAlignment = 1;
    if (auto alloc = arena.getDefiningOp<memref::AllocOp>())
      arenaAlignment = alloc.getAlignment().value_or(1);
    else if (auto argument = dyn_cast<BlockArgument>(arena))
      if (auto promised = function.getArgAttrOfType<IntegerAttr>(
              argument.getArgNumber(), kArenaAlignmentAttrName))
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
    SmallVector<CheckedView> views;
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

    for (const CheckedView &view : views)
      if (view.sharedBy)
        return view.op->emitError()
               << name(view.value) << " is one buffer for every iteration of '"
               << view.sharedBy->getName()
               << "', which may run at the same time";
    for (size_t i = 0; i < views.size(); ++i)
      for (size_t j = i + 1; j < views.size(); ++j)
        if (views[i].begin < views[j].end && views[j].begin < views[i].end &&
            failed(checkDisjointInTime(views[i], views[j])))
          return failure();

    for (Operation *free : frees)
      for (const CheckedView &view : views) {
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
    if (!matchPattern(op.getByteShift(), m_ConstantInt(&constant)))
      return op.emitError() << name(op.getResult())
                            << " has an offset that is not a "
                               "constant";
    uint64_t offset = constant.getZExtValue();
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
    view.end =
        llvm::SaturatingMultiplyAdd(elements, stride, offset, &overflowed);
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
    reach(view);
    return view;
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
        // buffer for iterations that may overlap.
        Value arena = cast<memref::ViewOp>(view.op).getSource();
        if (isParallelLoop(parent) && parent->isAncestor(view.op) &&
            !parent->isAncestor(arena.getParentBlock()->getParentOp())) {
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
    auto leave = llvm::make_scope_exit([&] { callsInProgress.erase(key); });
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
    return conflict("both may be live at once");
  }

  /// The region of `holder` that holds `block`.
  static Region *regionIn(Operation *holder, Block *block) {
    for (Region &region : holder->getRegions())
      if (region.isAncestor(block->getParent()))
        return &region;
    return nullptr;
  }

  /// The positions in `block` of the ancestors of the view and its users.
  std::pair<int64_t, int64_t> interval(const CheckedView &view, Block *block) {
    int64_t first = position(block, view.op), last = first + 1;
    for (Operation *user : view.users) {
      int64_t at = position(block, user);
      first = std::min(first, at);
      last = std::max(last, at + 1);
    }
    return {first, last};
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
  ModuleOp module;
  LLVMTypeConverter converter;
  DataLayout layout;
  DenseMap<Block *, DenseMap<Operation *, int64_t>> positionsIn;
  llvm::DenseSet<std::pair<Operation *, unsigned>> callsInProgress;
};

struct VerifyPackingPass
    : public mlir::memplan::impl::VerifyPackingBase<VerifyPackingPass> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<FunctionOpInterface>())
      if (!function.isExternal() &&
          failed(PackingChecker(function, getOperation()).check()))
        signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
