//===- AllocLiveness.cpp - Lifetimes of memref.alloc buffers --------------===//

#include "memplan/Analysis/AllocLiveness.h"

#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::memplan;

namespace {

/// Follows every value that may alias one buffer.
class AliasWalk {
public:
  AliasWalk(Block &body, const DenseMap<Operation *, int64_t> &positions)
      : body(body), positions(positions) {}

  /// Walks from `alloc`; fills `lastUse` and `deallocs`, or returns a reason
  /// why the buffer cannot be packed.
  std::optional<std::string> walk(Value alloc, int64_t &lastUse,
                                  SmallVector<Operation *> &deallocs) {
    // (value, whether it can only be this buffer)
    SmallVector<std::pair<Value, bool>> worklist = {{alloc, true}};
    llvm::DenseSet<Value> seen = {alloc};
    auto add = [&](Value value, bool must) {
      if (isa<BaseMemRefType>(value.getType()) && seen.insert(value).second)
        worklist.emplace_back(value, must);
    };
    while (!worklist.empty()) {
      auto [value, must] = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (isa<memref::DeallocOp>(user)) {
          if (!must)
            return std::string("a dealloc may free this buffer or another "
                               "one");
          deallocs.push_back(user);
          continue;
        }
        Operation *top = body.findAncestorOpInBlock(*user);
        if (!top)
          return std::string("it is used outside the function body");
        lastUse = std::max(lastUse, positions.lookup(top));

        if (user->hasTrait<OpTrait::IsTerminator>() &&
            user->getParentOp() == body.getParentOp())
          return std::string("it is returned from the function");
        if (isa<CallOpInterface>(user))
          return std::string("it is passed to a call");
        if (auto store = dyn_cast<memref::StoreOp>(user);
            store && store.getValueToStore() == value)
          return std::string("it is stored to memory");
        if (auto view = dyn_cast<ViewLikeOpInterface>(user);
            view && view.getViewSource() == value) {
          for (Value result : user->getResults())
            add(result, must);
          continue;
        }
        if (user->hasTrait<OpTrait::IsTerminator>()) {
          // Yielded out of a region: the enclosing op's results and the
          // values of its regions may all be this buffer now.
          Operation *parent = user->getParentOp();
          for (Value result : parent->getResults())
            add(result, false);
          for (Region &region : parent->getRegions())
            for (Block &block : region)
              for (BlockArgument argument : block.getArguments())
                add(argument, false);
          continue;
        }
        // Any other op: its memref results and region arguments (loop
        // iter_args, ...) may be this buffer.
        for (Value result : user->getResults())
          add(result, false);
        for (Region &region : user->getRegions())
          for (Block &block : region)
            for (BlockArgument argument : block.getArguments())
              add(argument, false);
      }
    }
    return std::nullopt;
  }

private:
  Block &body;
  const DenseMap<Operation *, int64_t> &positions;
};

} // namespace

AllocLiveness mlir::memplan::analyzeAllocs(FunctionOpInterface function) {
  AllocLiveness result;
  Region &region = function.getFunctionBody();
  SmallVector<memref::AllocOp> allocs;
  function.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
  if (allocs.empty())
    return result;
  if (!region.hasOneBlock()) {
    for (memref::AllocOp alloc : allocs)
      result.rejections.push_back(
          {alloc, "the function body has more than one block"});
    return result;
  }
  Block &body = region.front();
  DenseMap<Operation *, int64_t> positions;
  int64_t position = 0;
  for (Operation &op : body)
    positions[&op] = position++;

  AliasWalk aliases(body, positions);
  for (memref::AllocOp alloc : allocs) {
    auto reject = [&](const Twine &reason) {
      result.rejections.push_back({alloc, reason.str()});
    };
    if (alloc->getBlock() != &body) {
      reject("it is allocated inside a region (a loop or a branch)");
      continue;
    }
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape()) {
      reject("it has a dynamic size");
      continue;
    }
    if (!type.getLayout().isIdentity()) {
      reject("it has a non-identity layout");
      continue;
    }
    ByteSize size = getByteSize(type);
    if (!size.ok()) {
      reject(Twine("its type ") + describeByteSizeFailure(size.status));
      continue;
    }
    AllocCandidate candidate;
    candidate.alloc = alloc;
    candidate.bytes = size.bytes;
    candidate.alignment = alloc.getAlignment().value_or(1);
    candidate.start = positions.lookup(alloc);
    int64_t lastUse = candidate.start;
    if (std::optional<std::string> why =
            aliases.walk(alloc.getResult(), lastUse, candidate.deallocs)) {
      reject(*why);
      continue;
    }
    candidate.end = lastUse + 1;
    result.candidates.push_back(std::move(candidate));
  }
  return result;
}
