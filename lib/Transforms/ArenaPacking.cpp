//===- ArenaPacking.cpp - Which buffers go into which arena ---------------===//

#include "ArenaPacking.h"

#include "FunctionPlan.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

using namespace mlir;
using namespace mlir::memplan;

namespace {

struct Interval {
  int64_t start, end; ///< [start, end)
  uint64_t bytes;
};

struct Load {
  uint64_t peak = 0;
  int64_t at = 0; ///< a position where the peak is reached
};

/// The most bytes live at once (sums saturate at 2^64 - 1).
Load computePeak(ArrayRef<Interval> intervals) {
  // (position, is a start, bytes): at one position, ends come first.
  SmallVector<std::tuple<int64_t, bool, uint64_t>> events;
  for (const Interval &interval : intervals) {
    if (interval.bytes == 0 || interval.start >= interval.end)
      continue;
    events.emplace_back(interval.start, true, interval.bytes);
    events.emplace_back(interval.end, false, interval.bytes);
  }
  llvm::sort(events);
  Load load;
  uint64_t live = 0;
  for (auto [position, isStart, bytes] : events) {
    if (!isStart) {
      live -= bytes;
      continue;
    }
    live = llvm::SaturatingAdd(live, bytes);
    if (live > load.peak)
      load = {live, position};
  }
  return load;
}

/// The ops of one block, to round lifetimes out to them: an arena is
/// allocated and freed between the ops of its block.
class BlockSpans {
public:
  BlockSpans(Block &block, const ProgramOrder &order) {
    for (Operation &op : block) {
      begins.push_back(order.begin(&op));
      ends.push_back(order.end(&op));
    }
  }

  /// [begin, end) of the ops of the block that hold positions [start, end).
  std::pair<int64_t, int64_t> cover(int64_t start, int64_t end) const {
    return {begins[indexOf(start)], ends[indexOf(std::max(start, end - 1))]};
  }

private:
  size_t indexOf(int64_t position) const {
    auto it = std::upper_bound(begins.begin(), begins.end(), position);
    return it == begins.begin() ? 0 : (it - begins.begin()) - 1;
  }

  SmallVector<int64_t> begins, ends;
};

Attribute getMemorySpace(const AllocBuffer &buffer) {
  memref::AllocOp alloc = buffer.alloc;
  return alloc.getType().getMemorySpace();
}

} // namespace

std::string mlir::memplan::describeMemorySpace(Attribute space) {
  if (!space)
    return "the default memory space";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "memory space ";
  if (auto number = dyn_cast<IntegerAttr>(space))
    os << number.getInt();
  else
    os << space;
  return text;
}

namespace {

/// Plans arenas of one memory space.
class SpacePacker {
public:
  SpacePacker(FunctionOpInterface function, const MemRefAliasModel &model,
              const PackingOptions &options, Attribute space, bool freed)
      : function(function), model(model), options(options), space(space),
        freed(freed) {}

  /// The arenas of `active`, each buffer in an arena of `arenaBlock[i]`:
  /// one per stretch of its block (one per block where nothing frees them,
  /// or the caller passes them). Arenas of one buffer are left out.
  FailureOr<SmallVector<PackedArena>>
  formArenas(ArrayRef<unsigned> active,
             const DenseMap<unsigned, Block *> &arenaBlock) {
    ArrayRef<AllocBuffer> buffers = model.getBuffers();
    bool oneArena = options.wholeFunction || !freed;
    llvm::MapVector<Block *, SmallVector<unsigned>> byBlock;
    for (unsigned index : active)
      byBlock[arenaBlock.lookup(index)].push_back(index);
    SmallVector<PackedArena> arenas;
    for (auto &[block, members] : byBlock) {
      SmallVector<std::pair<int64_t, int64_t>> cover;
      for (unsigned index : members)
        cover.push_back(
            options.wholeFunction
                ? std::pair<int64_t, int64_t>(0, model.getOrder().size())
                : spansOf(block).cover(buffers[index].start,
                                       buffers[index].end));
      SmallVector<unsigned> byStart(members.size());
      for (unsigned i = 0; i < byStart.size(); ++i)
        byStart[i] = i;
      llvm::stable_sort(byStart, [&](unsigned a, unsigned b) {
        return cover[a].first < cover[b].first;
      });
      size_t first = arenas.size();
      for (unsigned i : byStart) {
        if (arenas.size() == first ||
            (!oneArena && cover[i].first >= arenas.back().end)) {
          PackedArena arena;
          arena.memorySpace = space;
          arena.block = block;
          arena.freed = freed && !options.wholeFunction;
          arena.begin = cover[i].first;
          arena.end = cover[i].second;
          arenas.push_back(std::move(arena));
        }
        arenas.back().buffers.push_back(members[i]);
        arenas.back().end = std::max(arenas.back().end, cover[i].second);
      }
    }
    // An arena for one buffer is that buffer again (except where the caller
    // passes the arena).
    if (!options.wholeFunction)
      llvm::erase_if(arenas, [](const PackedArena &arena) {
        return arena.buffers.size() < 2;
      });
    for (PackedArena &arena : arenas)
      if (failed(plan(arena)))
        return failure();
    return arenas;
  }

  /// Offsets for the buffers of `arena` (plans are remembered: the same
  /// buffers in the same block always give the same arena).
  LogicalResult plan(PackedArena &arena) {
    std::pair<Block *, std::vector<unsigned>> key = {
        arena.block,
        std::vector<unsigned>(arena.buffers.begin(), arena.buffers.end())};
    if (auto known = plans.find(key); known != plans.end()) {
      int64_t begin = arena.begin, end = arena.end;
      arena = known->second;
      arena.begin = begin;
      arena.end = end;
      return success();
    }
    ArrayRef<AllocBuffer> buffers = model.getBuffers();
    ::memplan::Problem problem;
    for (unsigned index : arena.buffers) {
      const AllocBuffer &buffer = buffers[index];
      uint64_t alignment = alignmentOf(buffer);
      arena.alignment = std::max(arena.alignment, alignment);
      problem.buffers.push_back(
          {*buffer.bytes, buffer.start, buffer.end, alignment});
    }
    FailureOr<::memplan::Solution> solution =
        planAndValidate(function, problem, options.algorithm, options.search,
                        "pack the allocations of this function", "packing");
    if (failed(solution))
      return failure();
    arena.offsets.assign(solution->offsets.begin(), solution->offsets.end());
    arena.bytes = solution->arenaSize;
    arena.lowerBound = ::memplan::computeLowerBound(problem);
    arena.bytesWithoutReuse = ::memplan::computeBytesWithoutReuse(problem);
    arena.search = solution->search;
    plans.emplace(std::move(key), arena);
    return success();
  }

  uint64_t alignmentOf(const AllocBuffer &buffer) const {
    return std::max(options.alignment, buffer.alignment);
  }

  /// What a buffer takes when allocated on its own, in the peaks.
  uint64_t footprint(const AllocBuffer &buffer) const {
    return llvm::alignTo(*buffer.bytes, alignmentOf(buffer));
  }

private:
  const BlockSpans &spansOf(Block *block) {
    auto [it, inserted] = spans.try_emplace(block, nullptr);
    if (inserted)
      it->second = std::make_unique<BlockSpans>(*block, model.getOrder());
    return *it->second;
  }

  FunctionOpInterface function;
  const MemRefAliasModel &model;
  const PackingOptions &options;
  Attribute space;
  bool freed;
  DenseMap<Block *, std::unique_ptr<BlockSpans>> spans;
  std::map<std::pair<Block *, std::vector<unsigned>>, PackedArena> plans;
};

} // namespace

FailureOr<FunctionPacking>
mlir::memplan::planPacking(FunctionOpInterface function,
                           const MemRefAliasModel &model,
                           const PackingOptions &options) {
  FunctionPacking packing;
  ArrayRef<AllocBuffer> buffers = model.getBuffers();
  Block *body = &function.getFunctionBody().front();
  BlockSpans topLevel(*body, model.getOrder());

  // Buffers that are freed and buffers that are not (IR before a
  // deallocation pipeline) are not mixed in one memory space: an arena is
  // freed exactly when the buffers it replaces were.
  DenseSet<Attribute> freedSpaces;
  for (const AllocBuffer &buffer : buffers)
    if (buffer.isPackable() && !buffer.deallocs.empty())
      freedSpaces.insert(getMemorySpace(buffer));
  llvm::MapVector<Attribute, SmallVector<unsigned>> candidatesBySpace;
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    if (!buffer.isPackable())
      continue;
    Attribute space = getMemorySpace(buffer);
    if (freedSpaces.contains(space) && buffer.deallocs.empty()) {
      packing.leftAlone.emplace_back(
          index, "it has no dealloc, unlike the buffers packed in this "
                 "function");
      continue;
    }
    candidatesBySpace[space].push_back(index);
  }

  for (auto &[space, candidates] : candidatesBySpace) {
    bool freed = freedSpaces.contains(space);
    SpacePacker packer(function, model, options, space, freed);
    SmallVector<Interval> all;
    for (const AllocBuffer &buffer : buffers)
      if (buffer.bytes && getMemorySpace(buffer) == space)
        all.push_back({buffer.start, buffer.end, packer.footprint(buffer)});
    uint64_t baseline = computePeak(all).peak;

    // Every buffer starts in an arena of the function body.
    SmallVector<unsigned> active(candidates);
    DenseMap<unsigned, Block *> arenaBlock;
    for (unsigned index : active)
      arenaBlock[index] = body;
    SmallVector<PackedArena> arenas;
    Load load;
    while (true) {
      FailureOr<SmallVector<PackedArena>> formed =
          packer.formArenas(active, arenaBlock);
      if (failed(formed))
        return failure();
      arenas = std::move(*formed);

      DenseSet<unsigned> inArena;
      SmallVector<Interval> intervals;
      for (const PackedArena &arena : arenas) {
        intervals.push_back({arena.begin, arena.end, arena.bytes});
        inArena.insert(arena.buffers.begin(), arena.buffers.end());
      }
      for (auto [index, buffer] : llvm::enumerate(buffers))
        if (buffer.bytes && !inArena.contains(index) &&
            getMemorySpace(buffer) == space)
          intervals.push_back(
              {buffer.start, buffer.end, packer.footprint(buffer)});
      load = computePeak(intervals);
      if (load.peak <= baseline)
        break;

      // The arena that adds most at the peak over its own live buffers.
      auto excess = [&](const PackedArena &arena) -> int64_t {
        if (arena.begin > load.at || load.at >= arena.end)
          return INT64_MIN;
        uint64_t live = 0;
        for (unsigned index : arena.buffers)
          if (buffers[index].start <= load.at && load.at < buffers[index].end)
            live += packer.footprint(buffers[index]);
        return static_cast<int64_t>(arena.bytes) - static_cast<int64_t>(live);
      };
      const PackedArena &worst =
          *llvm::max_element(arenas, [&](const auto &a, const auto &b) {
            return excess(a) < excess(b);
          });
      // Its buffers of nested blocks move to arenas of their own block.
      bool moved = false;
      if (!options.wholeFunction)
        for (unsigned index : worst.buffers)
          if (buffers[index].home != worst.block) {
            arenaBlock[index] = buffers[index].home;
            moved = true;
          }
      if (moved)
        continue;
      std::string reason;
      llvm::raw_string_ostream os(reason);
      os << "its arena of " << worst.bytes << " bytes would raise the "
         << "function's peak in " << describeMemorySpace(space) << " to "
         << load.peak << " bytes, above the " << baseline
         << " bytes it needs when every buffer is freed at its last use";
      DenseSet<unsigned> givenUp(worst.buffers.begin(), worst.buffers.end());
      for (unsigned index : worst.buffers)
        packing.leftAlone.emplace_back(index, reason);
      llvm::erase_if(active,
                     [&](unsigned index) { return givenUp.contains(index); });
    }

    packing.peaks.push_back(
        {space, load.peak, baseline, static_cast<unsigned>(candidates.size())});
    DenseSet<unsigned> inArena;
    for (PackedArena &arena : arenas) {
      inArena.insert(arena.buffers.begin(), arena.buffers.end());
      packing.arenas.push_back(std::move(arena));
    }
    if (freed)
      for (unsigned index : candidates) {
        const AllocBuffer &buffer = buffers[index];
        memref::AllocOp alloc = buffer.alloc;
        if (!inArena.contains(index) && alloc->getBlock() == body)
          packing.freeAtLastUse.emplace_back(
              index, topLevel.cover(buffer.start, buffer.end).second);
      }
  }
  return packing;
}
