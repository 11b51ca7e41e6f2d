//===- ArenaPacking.cpp - Which buffers go into which arena ---------------===//

#include "ArenaPacking.h"

#include "memplan/Planner/Validator.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

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

/// The top-level ops of the function body, to round lifetimes out to them:
/// an arena is allocated and freed between top-level ops.
class TopLevelSpans {
public:
  TopLevelSpans(Block &body, const ProgramOrder &order) {
    for (Operation &op : body) {
      begins.push_back(order.begin(&op));
      ends.push_back(order.end(&op));
    }
  }

  /// [begin, end) of the top-level ops that hold positions [start, end).
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

std::string describeSpace(Attribute space) {
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

} // namespace

FailureOr<FunctionPacking>
mlir::memplan::planPacking(FunctionOpInterface function,
                           const MemRefAliasModel &model,
                           const PackingOptions &options) {
  FunctionPacking packing;
  ArrayRef<AllocBuffer> buffers = model.getBuffers();
  const ProgramOrder &order = model.getOrder();
  TopLevelSpans spans(function.getFunctionBody().front(), order);

  // Buffers that are freed and buffers that are not (IR before a
  // deallocation pipeline) are not mixed in one memory space: an arena is
  // freed exactly when the buffers it replaces were.
  DenseSet<Attribute> freedSpaces;
  for (const AllocBuffer &buffer : buffers)
    if (buffer.isPackable() && !buffer.deallocs.empty())
      freedSpaces.insert(getMemorySpace(buffer));
  // Every allocation, an arena or a buffer of its own, counts rounded up to
  // its alignment: an aligned allocation takes at least that much.
  auto alignmentOf = [&](const AllocBuffer &buffer) {
    return std::max(options.alignment, buffer.alignment);
  };
  auto footprint = [&](const AllocBuffer &buffer) {
    return llvm::alignTo(*buffer.bytes, alignmentOf(buffer));
  };
  llvm::MapVector<Attribute, SmallVector<unsigned>> candidatesBySpace;
  llvm::MapVector<Attribute, SmallVector<Interval>> allBySpace;
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    Attribute space = getMemorySpace(buffer);
    if (buffer.bytes)
      allBySpace[space].push_back(
          {buffer.start, buffer.end, footprint(buffer)});
    if (!buffer.isPackable())
      continue;
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
    // The stretches of the function: buffers whose top-level spans overlap
    // share an arena.
    // Buffers that nothing frees (before a deallocation pipeline) or whose
    // arena the caller passes share one arena per memory space: nothing
    // would free a first arena before a second one is allocated.
    bool oneArena = options.wholeFunction || !freed;
    SmallVector<std::pair<int64_t, int64_t>> cover;
    for (unsigned index : candidates)
      cover.push_back(
          options.wholeFunction
              ? std::pair<int64_t, int64_t>(0, order.size())
              : spans.cover(buffers[index].start, buffers[index].end));
    SmallVector<unsigned> byStart(candidates.size());
    for (unsigned i = 0; i < byStart.size(); ++i)
      byStart[i] = i;
    llvm::stable_sort(byStart, [&](unsigned a, unsigned b) {
      return cover[a].first < cover[b].first;
    });
    SmallVector<PackedArena> arenas;
    for (unsigned i : byStart) {
      if (arenas.empty() ||
          (!oneArena && cover[i].first >= arenas.back().end)) {
        PackedArena arena;
        arena.memorySpace = space;
        arena.freed = freed && !options.wholeFunction;
        arena.begin = cover[i].first;
        arena.end = cover[i].second;
        arenas.push_back(std::move(arena));
      }
      arenas.back().buffers.push_back(candidates[i]);
      arenas.back().end = std::max(arenas.back().end, cover[i].second);
    }

    for (PackedArena &arena : arenas) {
      // An arena for one buffer is that buffer again (except where the
      // caller passes the arena).
      if (arena.buffers.size() < 2 && !options.wholeFunction)
        continue;
      ::memplan::Problem problem;
      for (unsigned index : arena.buffers) {
        const AllocBuffer &buffer = buffers[index];
        uint64_t alignment = alignmentOf(buffer);
        arena.alignment = std::max(arena.alignment, alignment);
        problem.buffers.push_back(
            {*buffer.bytes, buffer.start, buffer.end, alignment});
      }
      ::memplan::PlanResult result =
          ::memplan::plan(problem, options.algorithm, options.search);
      if (!result.ok())
        return function.emitError()
               << "cannot pack the allocations of this function: "
               << result.error;
      if (std::optional<::memplan::ValidationError> error =
              ::memplan::validateSolution(problem, result.solution))
        return function.emitError()
               << "internal error: the plan failed validation: "
               << error->message;
      if (const auto &summary = result.solution.search;
          summary && !summary->capacityMet)
        return function.emitError()
               << "no packing fits in " << *options.search->capacity
               << " bytes: "
               << (summary->capacityImpossible
                       ? "the search proved it impossible"
                       : "the search found none within its budget")
               << " (the best arena found is " << result.solution.arenaSize
               << " bytes)";
      if (result.solution.arenaSize > static_cast<uint64_t>(INT64_MAX))
        return function.emitError()
               << "cannot pack the allocations of this function: the arena "
                  "of "
               << result.solution.arenaSize << " bytes exceeds 2^63 - 1 bytes";
      arena.offsets.assign(result.solution.offsets.begin(),
                           result.solution.offsets.end());
      arena.bytes = result.solution.arenaSize;
      arena.lowerBound = ::memplan::computeLowerBound(problem);
      arena.bytesWithoutReuse = ::memplan::computeBytesWithoutReuse(problem);
      arena.search = result.solution.search;
    }
    llvm::erase_if(
        arenas, [](const PackedArena &arena) { return arena.offsets.empty(); });

    // The peak never rises: give up the arena that adds most at the peak
    // until the packed function's peak is no higher than with every buffer
    // freed at its last use.
    const SmallVector<Interval> &all = allBySpace[space];
    uint64_t baseline = computePeak(all).peak;
    Load load;
    while (true) {
      DenseSet<unsigned> inArena;
      SmallVector<Interval> intervals;
      for (const PackedArena &arena : arenas) {
        intervals.push_back({arena.begin, arena.end,
                             llvm::alignTo(arena.bytes, arena.alignment)});
        inArena.insert(arena.buffers.begin(), arena.buffers.end());
      }
      for (auto [index, buffer] : llvm::enumerate(buffers))
        if (buffer.bytes && !inArena.contains(index) &&
            getMemorySpace(buffer) == space)
          intervals.push_back({buffer.start, buffer.end, footprint(buffer)});
      load = computePeak(intervals);
      if (load.peak <= baseline)
        break;
      // What each arena live at the peak adds over its own live buffers.
      auto excess = [&](const PackedArena &arena) -> int64_t {
        if (arena.begin > load.at || load.at >= arena.end)
          return INT64_MIN;
        uint64_t live = 0;
        for (unsigned index : arena.buffers)
          if (buffers[index].start <= load.at && load.at < buffers[index].end)
            live += footprint(buffers[index]);
        return static_cast<int64_t>(
                   llvm::alignTo(arena.bytes, arena.alignment)) -
               static_cast<int64_t>(live);
      };
      auto worst = llvm::max_element(arenas, [&](const auto &a, const auto &b) {
        return excess(a) < excess(b);
      });
      std::string reason;
      llvm::raw_string_ostream os(reason);
      os << "its arena of " << worst->bytes << " bytes would raise the "
         << "function's peak in " << describeSpace(space) << " to " << load.peak
         << " bytes, above the " << baseline
         << " bytes it needs when every buffer is freed at its last use";
      for (unsigned index : worst->buffers)
        packing.leftAlone.emplace_back(index, reason);
      arenas.erase(worst);
    }
    packing.peaks.push_back({space, load.peak, baseline});
    DenseSet<unsigned> inArena;
    for (PackedArena &arena : arenas) {
      inArena.insert(arena.buffers.begin(), arena.buffers.end());
      packing.arenas.push_back(std::move(arena));
    }
    if (freed)
      for (unsigned index : candidates) {
        const AllocBuffer &buffer = buffers[index];
        memref::AllocOp alloc = buffer.alloc;
        if (!inArena.contains(index) &&
            alloc->getParentOp() == function.getOperation())
          packing.freeAtLastUse.emplace_back(
              index, spans.cover(buffer.start, buffer.end).second);
      }
  }
  return packing;
}
