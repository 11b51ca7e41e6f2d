//===- Scheduling.h - Op orders that lower the peak -------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The lower bound of an arena (the most bytes live at once) is a property of
// the op order. Given ops, the buffers they create and read, and the order
// constraints between ops, these functions find orders with a lower peak:
// fast heuristics (list scheduling, depth-first, breadth-first) and, for
// small graphs, an exact dynamic program over the sets of scheduled ops
// (Serenity's formulation: the live bytes after a set of ops do not depend
// on their order, so the best peak of a set is a function of the set).
// Plain C++17, no MLIR; the --memplan-schedule pass builds the problem from
// IR.
//
// The model, as BufferLiveness plans it: a buffer is live from the op that
// creates it through its last user, inclusive; a buffer nobody reads is live
// at its creator only; an op's scratch is live at the op only. The memory at
// an op is everything live there; the peak of an order is the largest.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_PLANNER_SCHEDULING_H
#define MEMPLAN_PLANNER_SCHEDULING_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memplan {

struct ScheduleProblem {
  struct Op {
    uint64_t scratch = 0;
    /// Ops that must come before this one (data and memory-effect order).
    std::vector<uint32_t> predecessors;
  };
  struct Buffer {
    uint64_t size = 0;
    uint32_t creator = 0;
    /// Ops that read it (each at most once; the creator may be one).
    std::vector<uint32_t> users;
    /// In some order it may take no arena bytes (it could come to share,
    /// through results computed in place, the storage of a value returned
    /// in the caller's buffer): scheduleLowerBound does not count it.
    bool mayLeaveArena = false;
    /// Its creator may compute it in place over a buffer it reads (as the
    /// liveness with in-place reuse may): scheduleLowerBound does not count
    /// it at its creator beside that creator's operands.
    bool mayBeInPlace = false;
  };
  std::vector<Op> ops;
  std::vector<Buffer> buffers;
};

/// A schedule: a permutation of the op indices.
using Schedule = std::vector<uint32_t>;

/// The peak of `order` under the model; `order` must be a valid schedule.
uint64_t computeSchedulePeak(const ScheduleProblem &problem,
                             const Schedule &order);

/// Whether `order` is a permutation of the ops that puts every op after its
/// predecessors. (The planner's own check; tests use one written apart.)
bool isValidSchedule(const ScheduleProblem &problem, const Schedule &order);

/// The ops in index order (the input order, when the problem was built from
/// IR).
Schedule scheduleInOrder(const ScheduleProblem &problem);

/// List scheduling: among the ready ops, the one whose step needs the
/// fewest bytes (live bytes + its new buffers + its scratch); ties: the one
/// that frees the most bytes, then the lowest index.
Schedule scheduleLeastPeakFirst(const ScheduleProblem &problem);

/// List scheduling: among the ready ops, the one that frees the most bytes
/// net of what it creates; ties: the fewest bytes at its step, then the
/// lowest index.
Schedule scheduleMostFreedFirst(const ScheduleProblem &problem);

/// Depth-first: from the last op backwards, each op after a post-order walk
/// of its predecessors, the one with the most bytes upstream first (the
/// order XLA's DFS scheduler uses).
Schedule scheduleDepthFirst(const ScheduleProblem &problem);

/// Breadth-first (Kahn's algorithm, first-ready first-scheduled).
Schedule scheduleBreadthFirst(const ScheduleProblem &problem);

/// The order of least peak, by dynamic programming over sets of scheduled
/// ops, if the graph has at most `maxOps` ops (at most 24) and the search
/// visits at most `maxStates` sets; none otherwise.
std::optional<Schedule> scheduleExact(const ScheduleProblem &problem,
                                      unsigned maxOps = 20,
                                      uint64_t maxStates = 1u << 22);

/// `order` with windows of `windowOps` consecutive steps (at most 22)
/// around its peak reordered exactly, one after another, as long as the
/// peak falls (at most `maxWindows` windows tried). Never worse than
/// `order`: the bound search for graphs too large for scheduleExact.
Schedule improveByWindows(const ScheduleProblem &problem, Schedule order,
                          unsigned windowOps = 10, unsigned maxWindows = 128);

/// `order` with the steps after its peak reordered as a problem of their
/// own (what is live there fixed) by the list, depth-first and
/// breadth-first schedulers, the best by its peak and then by bytes x steps
/// kept (never worse than as it was); then again after the peak of that
/// rest, `levels` times. The peak does not move; what follows it falls:
/// memory the peak hid (gradients kept to the end of a training step while
/// the loss's peak dominates), which matters once recomputation lowers the
/// peak.
Schedule reorderAfterPeaks(const ScheduleProblem &problem, Schedule order,
                           unsigned levels = 3);

/// A peak no order goes below, and an op where it holds.
struct ScheduleBound {
  uint64_t bytes = 0;
  uint32_t op = 0;
};

/// The most bytes that are live at one op in every valid order: at op x,
/// every buffer made by an op that must precede x and read by an op that
/// must follow it, x's scratch, and x's own results and its other
/// operands. With `inPlaceReuse` (the liveness may compute a result in
/// place over an operand that dies at x, where the buffer says
/// mayBeInPlace) the results that may are certain only where they outweigh
/// the operands; the bound then holds for that liveness too (buffers live
/// across x are in distinct storages; see ScheduleBound.cpp). When
/// the best order's peak equals it, that order is optimal. Ancestor and
/// descendant sets as bit sets: O(n^2 / 8) bytes, so graphs of more than
/// `maxOps` ops get none (bytes 0).
ScheduleBound scheduleLowerBound(const ScheduleProblem &problem,
                                 bool inPlaceReuse = true,
                                 size_t maxOps = 12288);

struct ScheduleCandidate {
  std::string name; ///< "input", "least-peak", ..., "windows(...)", "exact"
  Schedule order;
  uint64_t peak = 0;          ///< under the model
  bool provenOptimal = false; ///< "exact": no order has a lower peak
};

/// Every heuristic's schedule, the best of them improved by exact windows
/// (of min(exactMaxOps, 10) ops), the best so far reordered after its
/// peaks, and the exact one where it runs; input first, each with its
/// model peak; deterministic.
std::vector<ScheduleCandidate>
scheduleCandidates(const ScheduleProblem &problem, unsigned exactMaxOps = 20);

} // namespace memplan

#endif // MEMPLAN_PLANNER_SCHEDULING_H
