//===- ArenaPacking.cpp - Which buffers go into which arena ---------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

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
using namespace memplan;

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

/// Where a buffer takes its bytes in the program packing leaves: from its
/// first use where the pass may move its alloc there (a packable buffer,
/// in an arena or allocated at its first use), else from its alloc.
int64_t takesBytesFrom(const AllocBuffer &buffer) {
  return buffer.isPackable() ? buffer.start : buffer.allocated;
}

Attribute getMemorySpace(const AllocBuffer &buffer) {
  memref::AllocOp alloc = buffer.alloc;
  return alloc.getType().getMemorySpace();
}

} // namespace

std::string memplan::describeMemorySpace(Attribute space) {
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

/// What the arenas of one memory space are made of: a buffer, or the slots
/// of a parallel loop (which go into one arena together).
struct Item {
  int64_t start = 0, end = 0; ///< [start, end) in ProgramOrder positions
  uint64_t bytes = 0;         ///< what it takes in an arena
  uint64_t alignment = 1;
  /// The innermost block an arena holding it may be allocated in (a slot
  /// item: the block of its loop).
  Block *home = nullptr;
  std::optional<unsigned> buffer; ///< a model index, or
  std::optional<unsigned> slots;  ///< an index into FunctionPacking::slots
};

/// An arena while it is being planned: its items, and the arena as the
/// rest of the pass sees it (buffers of slots expanded).
struct DraftArena {
  PackedArena arena;
  SmallVector<unsigned> items;
};

/// Plans arenas of one memory space.
class SpacePacker {
public:
  SpacePacker(FunctionOpInterface function, const MemRefAliasModel &model,
              const PackingOptions &options, Attribute space, bool freed,
              std::vector<IterationSlots> &slots)
      : function(function), model(model), options(options), space(space),
        freed(freed), slots(slots) {}

  ArrayRef<Item> getItems() const { return items; }

  /// The items of `candidates`: each buffer, except that buffers of one
  /// parallel loop are planned into one slot and enter as one item. A loop
  /// whose slots would be too large is left alone (reasons in `leftAlone`).
  LogicalResult
  formItems(ArrayRef<unsigned> candidates,
            SmallVectorImpl<std::pair<unsigned, std::string>> &leftAlone) {
    ArrayRef<AllocBuffer> buffers = model.getBuffers();
    llvm::MapVector<Operation *, SmallVector<unsigned>> byLoop;
    for (unsigned index : candidates) {
      const AllocBuffer &buffer = buffers[index];
      if (buffer.concurrentLoop) {
        byLoop[buffer.concurrentLoop].push_back(index);
        continue;
      }
      Item item;
      item.start = buffer.start;
      item.end = buffer.end;
      item.bytes = *buffer.bytes;
      item.alignment = alignmentOf(buffer);
      item.home = buffer.home;
      item.buffer = index;
      items.push_back(item);
    }
    for (auto &[loop, members] : byLoop) {
      IterationSlots group;
      group.loop = loop;
      group.buffers = members;
      group.iterations = buffers[members.front()].iterations;
      Problem problem;
      // The item lives where any of its buffers does.
      Item item;
      item.start = INT64_MAX;
      item.end = INT64_MIN;
      for (unsigned index : members) {
        const AllocBuffer &buffer = buffers[index];
        uint64_t alignment = alignmentOf(buffer);
        group.alignment = std::max(group.alignment, alignment);
        item.start = std::min(item.start, buffer.start);
        item.end = std::max(item.end, buffer.end);
        problem.buffers.push_back(
            {*buffer.bytes, buffer.start, buffer.end, alignment});
      }
      FailureOr<Solution> solution = planAndValidate(
          function, problem, options.algorithm, options.search,
          "pack the allocations of one iteration of a parallel loop",
          "packing");
      if (failed(solution))
        return failure();
      group.offsets.assign(solution->offsets.begin(), solution->offsets.end());
      group.stride = llvm::alignTo(solution->arenaSize, group.alignment);
      group.lowerBound = computeLowerBound(problem);
      group.bytesWithoutReuse = computeBytesWithoutReuse(problem);
      bool overflowed = false;
      uint64_t bytes =
          llvm::SaturatingMultiply(group.stride, group.iterations, &overflowed);
      if (overflowed || bytes >= (uint64_t(1) << 62)) {
        for (unsigned index : members)
          leftAlone.emplace_back(
              index, "the slots of the " + std::to_string(group.iterations) +
                         " iterations of its loop would take 2^62 bytes or "
                         "more");
        continue;
      }
      item.bytes = bytes;
      item.alignment = group.alignment;
      item.home = loop->getBlock();
      item.slots = slots.size();
      slots.push_back(std::move(group));
      items.push_back(item);
    }
    return success();
  }

  /// The arenas of the `active` items, each in an arena of `arenaBlock[i]`:
  /// one per stretch of its block (one per block where nothing frees them,
  /// or the caller passes them). Arenas of one buffer are left out.
  FailureOr<std::vector<DraftArena>>
  formArenas(ArrayRef<unsigned> active,
             const DenseMap<unsigned, Block *> &arenaBlock) {
    bool oneArena = options.wholeFunction || !freed;
    llvm::MapVector<Block *, SmallVector<unsigned>> byBlock;
    for (unsigned index : active)
      byBlock[arenaBlock.lookup(index)].push_back(index);
    std::vector<DraftArena> arenas;
    for (auto &[block, members] : byBlock) {
      SmallVector<std::pair<int64_t, int64_t>> cover;
      for (unsigned index : members)
        cover.push_back(
            options.wholeFunction
                ? std::pair<int64_t, int64_t>(0, model.getOrder().size())
                : spansOf(block).cover(items[index].start, items[index].end));
      SmallVector<unsigned> byStart(members.size());
      for (unsigned i = 0; i < byStart.size(); ++i)
        byStart[i] = i;
      llvm::stable_sort(byStart, [&](unsigned a, unsigned b) {
        return cover[a].first < cover[b].first;
      });
      size_t first = arenas.size();
      for (unsigned i : byStart) {
        if (arenas.size() == first ||
            (!oneArena && cover[i].first >= arenas.back().arena.end)) {
          DraftArena draft;
          draft.arena.memorySpace = space;
          draft.arena.block = block;
          draft.arena.freed = freed && !options.wholeFunction;
          draft.arena.begin = cover[i].first;
          draft.arena.end = cover[i].second;
          arenas.push_back(std::move(draft));
        }
        arenas.back().items.push_back(members[i]);
        arenas.back().arena.end =
            std::max(arenas.back().arena.end, cover[i].second);
      }
    }
    // An arena for one buffer is that buffer again (except where the caller
    // passes the arena). The slots of a loop stay: one allocation instead
    // of one per iteration.
    if (!options.wholeFunction)
      llvm::erase_if(arenas, [&](const DraftArena &draft) {
        return draft.items.size() < 2 && !items[draft.items.front()].slots;
      });
    for (DraftArena &draft : arenas)
      if (failed(plan(draft)))
        return failure();
    return arenas;
  }

  /// Offsets for the items of `draft` (plans are remembered: the same items
  /// in the same block always give the same arena).
  LogicalResult plan(DraftArena &draft) {
    PackedArena &arena = draft.arena;
    std::pair<Block *, std::vector<unsigned>> key = {
        arena.block,
        std::vector<unsigned>(draft.items.begin(), draft.items.end())};
    if (auto known = plans.find(key); known != plans.end()) {
      int64_t begin = arena.begin, end = arena.end;
      draft = known->second;
      draft.arena.begin = begin;
      draft.arena.end = end;
      return success();
    }
    // The problem to plan, and one whose slots count at their lower bound:
    // the lower bound reported.
    Problem problem, bound;
    for (unsigned index : draft.items) {
      const Item &item = items[index];
      arena.alignment = std::max(arena.alignment, item.alignment);
      problem.buffers.push_back(
          {item.bytes, item.start, item.end, item.alignment});
      uint64_t least = item.bytes;
      if (item.slots) {
        const IterationSlots &group = slots[*item.slots];
        least = group.lowerBound * group.iterations;
        arena.bytesWithoutReuse += group.bytesWithoutReuse * group.iterations;
      } else {
        arena.bytesWithoutReuse += item.bytes;
      }
      bound.buffers.push_back({least, item.start, item.end, 1});
    }
    FailureOr<Solution> solution =
        planAndValidate(function, problem, options.algorithm, options.search,
                        "pack the allocations of this function", "packing");
    if (failed(solution))
      return failure();
    for (auto [index, offset] :
         llvm::zip_equal(draft.items, solution->offsets)) {
      const Item &item = items[index];
      if (!item.slots) {
        arena.buffers.push_back(*item.buffer);
        arena.offsets.push_back(offset);
        arena.slotsOf.push_back(std::nullopt);
        continue;
      }
      const IterationSlots &group = slots[*item.slots];
      for (auto [buffer, inSlot] :
           llvm::zip_equal(group.buffers, group.offsets)) {
        arena.buffers.push_back(buffer);
        arena.offsets.push_back(offset + inSlot);
        arena.slotsOf.push_back(*item.slots);
      }
    }
    arena.bytes = solution->arenaSize;
    arena.lowerBound = computeLowerBound(bound);
    arena.search = solution->search;
    plans.emplace(std::move(key), draft);
    return success();
  }

  uint64_t alignmentOf(const AllocBuffer &buffer) const {
    return std::max(options.alignment, buffer.alignment);
  }

  /// What a buffer takes when allocated on its own, in the peaks: once per
  /// iteration of a parallel loop that allocates it.
  uint64_t footprint(const AllocBuffer &buffer) const {
    return llvm::SaturatingMultiply(
        llvm::alignTo(*buffer.bytes, alignmentOf(buffer)), buffer.iterations);
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
  std::vector<IterationSlots> &slots;
  SmallVector<Item> items;
  DenseMap<Block *, std::unique_ptr<BlockSpans>> spans;
  std::map<std::pair<Block *, std::vector<unsigned>>, DraftArena> plans;
};

} // namespace

FailureOr<FunctionPacking> memplan::planPacking(FunctionOpInterface function,
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
    SpacePacker packer(function, model, options, space, freed, packing.slots);
    SmallVector<Interval> all;
    for (const AllocBuffer &buffer : buffers)
      if (buffer.bytes && getMemorySpace(buffer) == space)
        all.push_back(
            {takesBytesFrom(buffer), buffer.end, packer.footprint(buffer)});
    uint64_t baseline = computePeak(all).peak;

    if (failed(packer.formItems(candidates, packing.leftAlone)))
      return failure();
    ArrayRef<Item> items = packer.getItems();
    // Every item starts in an arena of the function body.
    SmallVector<unsigned> active;
    DenseMap<unsigned, Block *> arenaBlock;
    for (unsigned index = 0; index < items.size(); ++index) {
      active.push_back(index);
      arenaBlock[index] = body;
    }
    std::vector<DraftArena> arenas;
    Load load;
    while (true) {
      FailureOr<std::vector<DraftArena>> formed =
          packer.formArenas(active, arenaBlock);
      if (failed(formed))
        return failure();
      arenas = std::move(*formed);

      DenseSet<unsigned> inArena;
      SmallVector<Interval> intervals;
      for (const DraftArena &draft : arenas) {
        intervals.push_back(
            {draft.arena.begin, draft.arena.end, draft.arena.bytes});
        inArena.insert(draft.arena.buffers.begin(), draft.arena.buffers.end());
      }
      for (auto [index, buffer] : llvm::enumerate(buffers))
        if (buffer.bytes && !inArena.contains(index) &&
            getMemorySpace(buffer) == space)
          intervals.push_back(
              {takesBytesFrom(buffer), buffer.end, packer.footprint(buffer)});
      load = computePeak(intervals);
      if (load.peak <= baseline)
        break;

      // The arena that adds most at the peak over its own live buffers.
      auto excess = [&](const DraftArena &draft) -> int64_t {
        const PackedArena &arena = draft.arena;
        if (arena.begin > load.at || load.at >= arena.end)
          return INT64_MIN;
        uint64_t live = 0;
        for (unsigned index : arena.buffers)
          if (buffers[index].start <= load.at && load.at < buffers[index].end)
            live = llvm::SaturatingAdd(live, packer.footprint(buffers[index]));
        return static_cast<int64_t>(arena.bytes) -
               static_cast<int64_t>(std::min<uint64_t>(live, INT64_MAX));
      };
      const DraftArena &worst =
          *llvm::max_element(arenas, [&](const auto &a, const auto &b) {
            return excess(a) < excess(b);
          });
      // Its items of nested blocks move to arenas of their own block.
      bool moved = false;
      if (!options.wholeFunction)
        for (unsigned index : worst.items)
          if (items[index].home != worst.arena.block) {
            arenaBlock[index] = items[index].home;
            moved = true;
          }
      if (moved)
        continue;
      std::string reason;
      llvm::raw_string_ostream os(reason);
      os << "its arena of " << worst.arena.bytes << " bytes would raise the "
         << "function's peak in " << describeMemorySpace(space) << " to "
         << load.peak << " bytes, above the " << baseline
         << " bytes it needs when every buffer is freed at its last use";
      DenseSet<unsigned> givenUp(worst.items.begin(), worst.items.end());
      for (unsigned index : worst.arena.buffers)
        packing.leftAlone.emplace_back(index, reason);
      llvm::erase_if(active,
                     [&](unsigned index) { return givenUp.contains(index); });
    }

    packing.peaks.push_back(
        {space, load.peak, baseline, static_cast<unsigned>(candidates.size())});
    DenseSet<unsigned> inArena;
    for (DraftArena &draft : arenas) {
      inArena.insert(draft.arena.buffers.begin(), draft.arena.buffers.end());
      packing.arenas.push_back(std::move(draft.arena));
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
