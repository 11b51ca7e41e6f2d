//===- MemRefAliasModel.cpp - Which memref buffers may share bytes --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/MemRefAliasModel.h"

#include "memplan/Analysis/MemRefByteSize.h"
#include "memplan/Analysis/RegionExecution.h"
#include "memplan/Analysis/WorkgroupMemory.h"
#include "mlir/Dialect/Bufferization/IR/BufferViewFlowOpInterface.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/ShapedOpInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace memplan;

namespace {

/// What one use does with a buffer.
enum class UseKind {
  Access, ///< reads or writes it, or reads its shape: a use, nothing more
  Alias,  ///< creates values that may be it (BufferViewFlowAnalysis has them)
  Free,   ///< memref.dealloc
  Return, ///< returned from the function
  Escape, ///< anything else: it may be kept, exposed or freed
};

struct UseVerdict {
  UseKind kind;
  std::string reason; ///< for Return and Escape
};

std::string quoted(Operation *op) {
  return ("'" + op->getName().getStringRef() + "'").str();
}

/// Types that cannot carry a reference to a buffer.
bool isPlainData(Type type) {
  return isa<IntegerType, IndexType, FloatType, ComplexType, VectorType,
             NoneType>(type);
}

bool isInRange(OpOperand &use, OperandRange range) {
  if (range.empty())
    return false;
  unsigned begin = range.getBeginOperandIndex();
  unsigned number = use.getOperandNumber();
  return range.getBase()->getOwner() == use.getOwner() && number >= begin &&
         number < begin + range.size();
}

/// Whether `use` passes its value into a region or a block, or out of a
/// region to the op holding it, as a region or block argument or a result:
/// what BufferViewFlowAnalysis follows through control-flow interfaces.
bool isForwardedByControlFlow(OpOperand &use) {
  Operation *owner = use.getOwner();
  if (auto branch = dyn_cast<RegionBranchOpInterface>(owner)) {
    SmallVector<RegionSuccessor> successors;
    branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
    for (const RegionSuccessor &successor : successors)
      if (isInRange(use, branch.getEntrySuccessorOperands(successor)))
        return true;
  }
  if (auto terminator = dyn_cast<RegionBranchTerminatorOpInterface>(owner)) {
    if (auto parent = dyn_cast<RegionBranchOpInterface>(owner->getParentOp())) {
      SmallVector<RegionSuccessor> successors;
      parent.getSuccessorRegions(RegionBranchPoint(terminator), successors);
      for (const RegionSuccessor &successor : successors)
        if (isInRange(use, terminator.getSuccessorOperands(successor)))
          return true;
    }
  }
  if (auto branch = dyn_cast<BranchOpInterface>(owner))
    for (unsigned index = 0; index < owner->getNumSuccessors(); ++index)
      if (isInRange(use,
                    branch.getSuccessorOperands(index).getForwardedOperands()))
        return true;
  return false;
}

UseVerdict classifyUse(OpOperand &use, CallCaptureAnalysis &calls) {
  Operation *owner = use.getOwner();
  Value value = use.get();
  if (isa<memref::DeallocOp>(owner))
    return {UseKind::Free, {}};
  if (owner->hasTrait<OpTrait::IsTerminator>() &&
      isa<FunctionOpInterface>(owner->getParentOp()))
    return {UseKind::Return, "it is returned from the function"};
  if (auto call = dyn_cast<CallOpInterface>(owner)) {
    if (std::optional<std::string> why = calls.whyMayKeep(call, use))
      return {UseKind::Escape, *why};
    return {UseKind::Access, {}};
  }
  if (isForwardedByControlFlow(use))
    return {UseKind::Alias, {}};
  // A view: its one memref result is an alias; other results are index
  // metadata (extract_strided_metadata), which packing does not change: a
  // packed buffer is an identity-layout view at offset 0 of its own.
  if (auto view = dyn_cast<ViewLikeOpInterface>(owner);
      view && view.getViewSource() == value &&
      llvm::count_if(owner->getResultTypes(), llvm::IsaPred<BaseMemRefType>) ==
          1 &&
      llvm::all_of(owner->getResultTypes(),
                   llvm::IsaPred<BaseMemRefType, IndexType>))
    return {UseKind::Alias, {}};

  SmallVector<MemoryEffects::EffectInstance> effects;
  auto effectOp = dyn_cast<MemoryEffectOpInterface>(owner);
  if (effectOp)
    effectOp.getEffects(effects);
  auto effectsOnValue = [&](auto predicate) {
    return llvm::any_of(effects, [&](const MemoryEffects::EffectInstance &e) {
      return e.getValue() == value && predicate(e.getEffect());
    });
  };

  if (auto flow = dyn_cast<bufferization::BufferViewFlowOpInterface>(owner)) {
    bool forwarded = false;
    // Pairs (source, dependent): `value` flows into the dependent.
    flow.populateDependencies([&](ValueRange sources, ValueRange dependents) {
      forwarded |= llvm::is_contained(sources, value);
    });
    bool freesOrAllocates = effectsOnValue([](MemoryEffects::Effect *effect) {
      return isa<MemoryEffects::Free, MemoryEffects::Allocate>(effect);
    });
    if (forwarded && !freesOrAllocates)
      return {UseKind::Alias, {}};
  }
  if (auto dim = dyn_cast<ShapedDimOpInterface>(owner);
      dim && dim.getShapedValue() == value)
    return {UseKind::Access, {}};

  if (!effectOp)
    return {UseKind::Escape, "it is used by " + quoted(owner) +
                                 ", which declares no memory effects"};
  if (effectsOnValue([](MemoryEffects::Effect *effect) {
        return isa<MemoryEffects::Free>(effect);
      }))
    return {UseKind::Escape, "it is freed by " + quoted(owner)};
  bool onlyReadsOrWrites = !effectsOnValue([](MemoryEffects::Effect *effect) {
    return !isa<MemoryEffects::Read, MemoryEffects::Write>(effect);
  });
  if (!effectsOnValue([](MemoryEffects::Effect *) { return true; }))
    return {UseKind::Escape,
            "it is used by " + quoted(owner) +
                ", which neither reads nor writes it (it may keep or expose "
                "it)"};
  if (!onlyReadsOrWrites)
    return {UseKind::Escape, "it is used by " + quoted(owner) +
                                 ", which does not only read or write it"};
  for (OpResult result : owner->getResults()) {
    if (isPlainData(result.getType()))
      continue;
    bool fresh = llvm::any_of(effects, [&](const auto &effect) {
      return effect.getValue() == result &&
             isa<MemoryEffects::Allocate>(effect.getEffect());
    });
    if (isa<BaseMemRefType>(result.getType()) && fresh)
      continue;
    std::string type;
    llvm::raw_string_ostream os(type);
    os << result.getType();
    return {UseKind::Escape,
            quoted(owner) + " derives a value of type '" + type + "' from it"};
  }
  return {UseKind::Access, {}};
}

/// Whether `value` is `root` or a chain of views of it: a dealloc of it
/// frees that buffer and no other.
bool isViewChainOf(Value value, Value root) {
  while (value != root) {
    auto view = value.getDefiningOp<ViewLikeOpInterface>();
    if (!view || view.getViewDest() != value)
      return false;
    value = view.getViewSource();
  }
  return true;
}

/// Whether `value` is created inside `region` on each execution of it: a
/// result of an op in it, or an argument of a block in a region nested in
/// it. (An argument of the region's own blocks comes from outside the
/// execution: a loop's iter_args carry the previous iteration's values.)
bool isCreatedInside(Value value, Region &region) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Region *owner = argument.getOwner()->getParent();
    return owner != &region && region.isAncestor(owner);
  }
  return region.isAncestor(value.getDefiningOp()->getParentRegion());
}

/// The values that may be the buffer `value`. BufferViewFlowAnalysis takes
/// every result of a call for a possible alias of every operand, whatever
/// its type; only memrefs can be a buffer.
SmallVector<Value> getAliases(const BufferViewFlowAnalysis &flow, Value value) {
  SmallVector<Value> aliases;
  for (Value alias : flow.resolve(value))
    if (isa<BaseMemRefType>(alias.getType()))
      aliases.push_back(alias);
  return aliases;
}

/// The byte alignment `use` tells the lowering it may assume of the memref
/// it uses, or 1: memref.assume_alignment's, or the `alignment` an access
/// states for its address (memref.load/store, vector.load/store and the
/// other accesses that carry one as an inherent attribute). The program's
/// own allocation met it (or the program was wrong before memplan touched
/// it), so a packed buffer starts at least that aligned: a claim about its
/// start, or about an address a multiple of the claim past it, still holds
/// in the arena. (A claim that held only because an allocator happened to
/// return a start misaligned by just the right amount is not kept.)
uint64_t getAssumedAlignment(OpOperand &use) {
  Operation *owner = use.getOwner();
  if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(owner))
    return assume.getAlignment();
  std::optional<Attribute> stated = owner->getInherentAttr("alignment");
  auto alignment = dyn_cast_if_present<IntegerAttr>(stated.value_or(nullptr));
  if (!alignment || !isa<BaseMemRefType>(use.get().getType()))
    return 1;
  uint64_t bytes = alignment.getValue().getZExtValue();
  return llvm::isPowerOf2_64(bytes) ? bytes : 1;
}

/// The first op in `function` holding a region of several blocks.
Operation *findUnstructuredControlFlow(FunctionOpInterface function) {
  if (!function.getFunctionBody().hasOneBlock())
    return function;
  Operation *found = nullptr;
  function.getFunctionBody().walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      if (!region.empty() && !region.hasOneBlock()) {
        found = op;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return found;
}

} // namespace

//===----------------------------------------------------------------------===//
// CallCaptureAnalysis
//===----------------------------------------------------------------------===//

CallCaptureAnalysis::CallCaptureAnalysis() = default;

CallCaptureAnalysis::~CallCaptureAnalysis() = default;

std::optional<std::string> CallCaptureAnalysis::whyMayKeep(CallOpInterface call,
                                                           OpOperand &operand) {
  auto callee = dyn_cast_if_present<FunctionOpInterface>(
      call.resolveCallableInTable(&symbols));
  if (!callee)
    return std::string("it is passed to a call whose callee is not known");
  std::string name = ("@" + callee.getName()).str();
  if (callee.isExternal())
    return "it is passed to " + name +
           ", an external function, which may keep it";
  OperandRange arguments = call.getArgOperands();
  if (!isInRange(operand, arguments))
    return "it is an operand of a call to " + name + " that is no argument";
  unsigned index =
      operand.getOperandNumber() - arguments.getBeginOperandIndex();
  if (index >= callee.getNumArguments())
    return "it is passed to " + name + " with more arguments than it takes";
  return analyzeArgument(callee, index);
}

std::optional<std::string>
CallCaptureAnalysis::analyzeArgument(FunctionOpInterface callee,
                                     unsigned index) {
  std::pair<Operation *, unsigned> key = {callee, index};
  if (auto known = verdicts.find(key); known != verdicts.end())
    return known->second;
  std::string name = ("@" + callee.getName()).str();
  // While the argument is analysed, a recursive call sees "may keep": the
  // conservative answer for a cycle.
  verdicts[key] = "it is passed to " + name + " again (a recursive call)";

  std::optional<std::string> verdict;
  BufferViewFlowAnalysis flow(callee);
  for (Value alias : getAliases(flow, callee.getArgument(index))) {
    for (OpOperand &use : alias.getUses()) {
      UseVerdict use_ = classifyUse(use, *this);
      if (use_.kind == UseKind::Free)
        verdict = "it is passed to " + name + ", which frees it";
      else if (use_.kind == UseKind::Return)
        verdict = "it is passed to " + name + ", which returns it";
      else if (use_.kind == UseKind::Escape)
        verdict = "it is passed to " + name + ", where " + use_.reason;
      for (Operation *parent = use.getOwner()->getParentOp();
           !verdict && parent != callee; parent = parent->getParentOp())
        if (getRegionExecution(parent) == RegionExecution::Unknown)
          verdict = "it is passed to " + name + ", where it is used inside " +
                    quoted(parent) + ", whose regions memplan does not model";
      if (verdict)
        break;
    }
    if (verdict)
      break;
  }
  verdicts[key] = verdict;
  return verdict;
}

//===----------------------------------------------------------------------===//
// MemRefAliasModel
//===----------------------------------------------------------------------===//

MemRefAliasModel::MemRefAliasModel(FunctionOpInterface function,
                                   CallCaptureAnalysis &calls,
                                   WorkgroupLifetime workgroupLifetime)
    : order(function.getFunctionBody()) {
  SmallVector<memref::AllocOp> allocs;
  function.getFunctionBody().walk(
      [&](memref::AllocOp alloc) { allocs.push_back(alloc); });
  if (allocs.empty())
    return;

  Operation *unstructured = findUnstructuredControlFlow(function);
  BufferViewFlowAnalysis flow(function);
  DataLayout layout = DataLayout::closest(function);

  for (memref::AllocOp alloc : allocs) {
    AllocBuffer buffer;
    buffer.alloc = alloc;
    auto reject = [&](const Twine &reason, Operation *culprit = nullptr) {
      if (!buffer.isPackable())
        return;
      buffer.rejection = reason.str();
      buffer.culprit = culprit;
    };
    if (unstructured)
      reject(Twine("the function has unstructured control flow (") +
                 quoted(unstructured) + " holds a region of several blocks)",
             unstructured);

    // Size and alignment.
    MemRefType type = alloc.getType();
    SmallVector<std::optional<int64_t>> dynamicSizes;
    for (Value size : alloc.getDynamicSizes()) {
      APInt constant;
      dynamicSizes.push_back(matchPattern(size, m_ConstantInt(&constant))
                                 ? std::optional(constant.getSExtValue())
                                 : std::nullopt);
    }
    if (!type.getLayout().isIdentity()) {
      reject("it has a non-identity layout");
    } else {
      ByteSize size = getAllocationByteSize(type, dynamicSizes, layout);
      if (size.ok())
        buffer.bytes = size.bytes;
      else if (size.status == ByteSizeStatus::DynamicShape)
        reject("it has a dynamic size");
      else
        reject(Twine("its type ") + describeByteSizeFailure(size.status));
    }
    buffer.alignment = alloc.getAlignment().value_or(1);
    if (!llvm::isPowerOf2_64(buffer.alignment))
      reject("its alignment is not a power of two");
    if (std::optional<ElementLayout> element =
            getElementLayout(type.getElementType(), layout))
      buffer.alignment = std::max(buffer.alignment, element->alignment);

    // Where it is allocated: every op around it must run its regions one
    // execution at a time. The loops among them are remembered: the buffer
    // must die within their iteration.
    SmallVector<std::pair<Operation *, Region *>> loops;
    for (Region *region = alloc->getParentRegion();
         region->getParentOp() != function;
         region = region->getParentOp()->getParentRegion()) {
      Operation *parent = region->getParentOp();
      switch (getRegionExecution(parent)) {
      case RegionExecution::Once:
        break;
      case RegionExecution::Repeated:
        loops.emplace_back(parent, region);
        break;
      case RegionExecution::Concurrent: {
        // Each iteration gets a slot of its own; slots within slots are not
        // modelled.
        std::optional<StaticIterationSpace> space =
            getStaticIterationSpace(parent);
        if (space)
          buffer.iterations =
              llvm::SaturatingMultiply(buffer.iterations, space->total);
        if (buffer.concurrentLoop)
          reject("it is allocated in the bodies of two loops whose "
                 "iterations may run at the same time ('" +
                     buffer.concurrentLoop->getName().getStringRef() +
                     "' inside " + quoted(parent) + ")",
                 parent);
        else if (!space)
          reject("it is allocated in the body of " + quoted(parent) +
                     ", whose iterations may run at the same time and whose "
                     "number of iterations is not a compile-time constant",
                 parent);
        else if (space->total == 0)
          reject("it is allocated in the body of " + quoted(parent) +
                     ", which runs no iteration",
                 parent);
        else
          buffer.concurrentLoop = parent;
        loops.emplace_back(parent, region);
        break;
      }
      case RegionExecution::Unknown:
        reject("it is allocated inside " + quoted(parent) +
                   ", whose regions memplan does not model",
               parent);
        break;
      }
    }

    // Every alias and every use.
    buffer.home = alloc->getBlock();
    buffer.allocated = order.begin(alloc);
    buffer.birth = alloc;
    int64_t end = order.end(alloc);
    for (Value alias : getAliases(flow, alloc.getResult())) {
      // A view of it with other elements (memref.view of bytes,
      // vector.type_cast) is read and written at its elements' alignment.
      if (std::optional<ElementLayout> element = getElementLayout(
              cast<BaseMemRefType>(alias.getType()).getElementType(), layout))
        buffer.alignment = std::max(buffer.alignment, element->alignment);
      for (auto [loop, region] : loops)
        if (!isCreatedInside(alias, *region))
          reject("it lives on after the iteration of " + quoted(loop) +
                     " that allocates it",
                 loop);
      for (OpOperand &use : alias.getUses()) {
        Operation *user = use.getOwner();
        UseVerdict verdict = classifyUse(use, calls);
        buffer.alignment = std::max(buffer.alignment, getAssumedAlignment(use));
        if (verdict.kind == UseKind::Free) {
          // Deallocation pipelines place frees late: a free is no use.
          if (isViewChainOf(alias, alloc.getResult()))
            buffer.deallocs.push_back(user);
          else
            reject("a dealloc may free this buffer or another one", user);
          continue;
        }
        if (verdict.kind == UseKind::Return) {
          reject(verdict.reason, user);
          end = order.size();
          continue;
        }
        if (verdict.kind == UseKind::Escape)
          reject(verdict.reason, user);
        // The first use is in the alloc's block (an alias reaches the blocks
        // around it only through a later op of that block).
        if (Operation *at = alloc->getBlock()->findAncestorOpInBlock(*user))
          if (buffer.birth == alloc ||
              order.begin(at) < order.begin(buffer.birth))
            buffer.birth = at;
        end = std::max(end, order.end(user));
        while (!buffer.home->findAncestorOpInBlock(*user))
          buffer.home = buffer.home->getParentOp()->getBlock();
        // A use in a region that may run again keeps the buffer alive for
        // the whole op, unless the op also holds the alloc.
        for (Operation *parent = user->getParentOp();
             parent != function && !parent->isProperAncestor(alloc);
             parent = parent->getParentOp()) {
          RegionExecution execution = getRegionExecution(parent);
          if (execution == RegionExecution::Unknown)
            reject("it is used inside " + quoted(parent) +
                       ", whose regions memplan does not model",
                   parent);
          if (execution != RegionExecution::Once)
            end = std::max(end, order.end(parent));
        }
      }
    }
    buffer.workgroup = isWorkgroupMemorySpace(type.getMemorySpace());
    if (buffer.workgroup)
      end = extendToWorkgroupBarrier(buffer, end, workgroupLifetime, reject);
    buffer.start = order.begin(buffer.birth);
    buffer.end = end;
    buffers.push_back(std::move(buffer));
  }
}

int64_t MemRefAliasModel::extendToWorkgroupBarrier(
    const AllocBuffer &buffer, int64_t end, WorkgroupLifetime lifetime,
    function_ref<void(const Twine &, Operation *)> reject) const {
  // Every thread runs the body's ops, so a barrier there is reached by all
  // of them (the body is one block: a function of several is rejected).
  // Inside a region an op may run for some threads and not others, and a
  // loop's iterations are not apart from each other's; buffers allocated
  // there stay apart from all others.
  Operation *parent = buffer.alloc->getParentOp();
  if (!isa<FunctionOpInterface>(parent))
    reject("it is in GPU workgroup memory, which the threads of a workgroup "
           "share, and is allocated inside " +
               quoted(parent) +
               ": only buffers allocated in the function's body, apart from "
               "each other by a gpu.barrier, share its bytes",
           parent);
  // Another thread may use it until all have passed a barrier of the body
  // after its last use; without one, until the function returns (the
  // terminator is no use: arenas are freed before it). Unless the packer
  // inserts the barriers itself, where a buffer takes bytes of one before.
  if (lifetime == WorkgroupLifetime::UntilLastUse && buffer.isPackable())
    return end;
  Block &body = buffer.alloc->getParentOfType<FunctionOpInterface>()
                    .getFunctionBody()
                    .front();
  for (Operation &op : body) {
    if (order.begin(&op) >= end && isWorkgroupBarrier(&op))
      return order.end(&op);
    if (op.hasTrait<OpTrait::IsTerminator>())
      return std::max(end, order.begin(&op));
  }
  return std::max<int64_t>(end, order.size());
}
