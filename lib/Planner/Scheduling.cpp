//===- Scheduling.cpp - Op orders that lower the peak ---------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Scheduling.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <deque>
#include <limits>

using namespace memplan;

namespace {

/// What each op creates and reads, and who must follow it.
struct OpIndex {
  std::vector<std::vector<uint32_t>> creates, reads, successors;

  explicit OpIndex(const ScheduleProblem &problem)
      : creates(problem.ops.size()), reads(problem.ops.size()),
        successors(problem.ops.size()) {
    for (uint32_t b = 0; b < problem.buffers.size(); ++b) {
      creates[problem.buffers[b].creator].push_back(b);
      for (uint32_t user : problem.buffers[b].users)
        reads[user].push_back(b);
    }
    for (uint32_t op = 0; op < problem.ops.size(); ++op)
      for (uint32_t predecessor : problem.ops[op].predecessors)
        successors[predecessor].push_back(op);
  }
};

uint64_t add(uint64_t a, uint64_t b) { return llvm::SaturatingAdd(a, b); }

/// List scheduling with `better(a, b)` choosing among ready ops, given the
/// bytes each would need at its step and the bytes it would free.
template <typename Better>
Schedule listSchedule(const ScheduleProblem &problem, Better better) {
  OpIndex index(problem);
  size_t n = problem.ops.size();
  std::vector<uint32_t> remainingUsers(problem.buffers.size());
  for (uint32_t b = 0; b < problem.buffers.size(); ++b)
    remainingUsers[b] = uint32_t(problem.buffers[b].users.size());
  std::vector<uint32_t> indegree(n);
  for (uint32_t op = 0; op < n; ++op)
    indegree[op] = uint32_t(problem.ops[op].predecessors.size());
  std::vector<uint32_t> ready;
  for (uint32_t op = 0; op < n; ++op)
    if (!indegree[op])
      ready.push_back(op);

  struct Step {
    uint64_t memory = 0, created = 0, freed = 0;
  };
  auto evaluate = [&](uint32_t op, uint64_t live) {
    Step step;
    for (uint32_t b : index.creates[op]) {
      step.created = add(step.created, problem.buffers[b].size);
      if (problem.buffers[b].users.empty())
        step.freed = add(step.freed, problem.buffers[b].size);
    }
    for (uint32_t b : index.reads[op])
      if (remainingUsers[b] == 1)
        step.freed = add(step.freed, problem.buffers[b].size);
    step.memory = add(add(live, step.created), problem.ops[op].scratch);
    return step;
  };

  Schedule order;
  order.reserve(n);
  uint64_t live = 0;
  while (!ready.empty()) {
    size_t chosen = 0;
    Step chosenStep = evaluate(ready[0], live);
    for (size_t i = 1; i < ready.size(); ++i) {
      Step step = evaluate(ready[i], live);
      if (better(step, ready[i], chosenStep, ready[chosen])) {
        chosen = i;
        chosenStep = step;
      }
    }
    uint32_t op = ready[chosen];
    ready.erase(ready.begin() + chosen);
    order.push_back(op);
    live = add(live, chosenStep.created);
    live -= std::min(live, chosenStep.freed);
    for (uint32_t b : index.reads[op])
      --remainingUsers[b];
    for (uint32_t successor : index.successors[op])
      if (--indegree[successor] == 0)
        ready.push_back(successor);
  }
  return order; // shorter than n if the constraints have a cycle
}

/// A topological order (Kahn, lowest index first among the ready).
Schedule topologicalOrder(const ScheduleProblem &problem,
                          const OpIndex &index) {
  size_t n = problem.ops.size();
  std::vector<uint32_t> indegree(n);
  for (uint32_t op = 0; op < n; ++op)
    indegree[op] = uint32_t(problem.ops[op].predecessors.size());
  std::deque<uint32_t> queue;
  for (uint32_t op = 0; op < n; ++op)
    if (!indegree[op])
      queue.push_back(op);
  Schedule order;
  while (!queue.empty()) {
    uint32_t op = queue.front();
    queue.pop_front();
    order.push_back(op);
    for (uint32_t successor : index.successors[op])
      if (--indegree[successor] == 0)
        queue.push_back(successor);
  }
  return order;
}

} // namespace

uint64_t memplan::computeSchedulePeak(const ScheduleProblem &problem,
                                      const Schedule &order) {
  size_t n = order.size();
  std::vector<int64_t> position(problem.ops.size(), -1);
  for (size_t p = 0; p < n; ++p)
    position[order[p]] = int64_t(p);
  // Bytes entering at a position and leaving after it.
  std::vector<uint64_t> entering(n + 1, 0), leaving(n + 1, 0);
  for (const ScheduleProblem::Buffer &buffer : problem.buffers) {
    int64_t start = position[buffer.creator], end = start;
    for (uint32_t user : buffer.users)
      end = std::max(end, position[user]);
    if (start < 0)
      continue;
    entering[size_t(start)] = add(entering[size_t(start)], buffer.size);
    leaving[size_t(end) + 1] = add(leaving[size_t(end) + 1], buffer.size);
  }
  uint64_t live = 0, peak = 0;
  for (size_t p = 0; p < n; ++p) {
    live -= std::min(live, leaving[p]);
    live = add(live, entering[p]);
    peak = std::max(peak, add(live, problem.ops[order[p]].scratch));
  }
  return peak;
}

bool memplan::isValidSchedule(const ScheduleProblem &problem,
                              const Schedule &order) {
  if (order.size() != problem.ops.size())
    return false;
  std::vector<int64_t> position(problem.ops.size(), -1);
  for (size_t p = 0; p < order.size(); ++p) {
    if (order[p] >= problem.ops.size() || position[order[p]] >= 0)
      return false;
    position[order[p]] = int64_t(p);
  }
  for (uint32_t op = 0; op < problem.ops.size(); ++op)
    for (uint32_t predecessor : problem.ops[op].predecessors)
      if (position[predecessor] >= position[op])
        return false;
  return true;
}

Schedule memplan::scheduleInOrder(const ScheduleProblem &problem) {
  Schedule order(problem.ops.size());
  for (uint32_t op = 0; op < order.size(); ++op)
    order[op] = op;
  return order;
}

Schedule memplan::scheduleLeastPeakFirst(const ScheduleProblem &problem) {
  return listSchedule(
      problem, [](const auto &a, uint32_t aOp, const auto &b, uint32_t bOp) {
        if (a.memory != b.memory)
          return a.memory < b.memory;
        if (a.freed != b.freed)
          return a.freed > b.freed;
        return aOp < bOp;
      });
}

Schedule memplan::scheduleMostFreedFirst(const ScheduleProblem &problem) {
  return listSchedule(
      problem, [](const auto &a, uint32_t aOp, const auto &b, uint32_t bOp) {
        // Net bytes freed, as a signed comparison without overflow.
        bool aNet = a.freed >= a.created, bNet = b.freed >= b.created;
        uint64_t aAmount = aNet ? a.freed - a.created : a.created - a.freed;
        uint64_t bAmount = bNet ? b.freed - b.created : b.created - b.freed;
        if (aNet != bNet)
          return aNet;
        if (aAmount != bAmount)
          return aNet ? aAmount > bAmount : aAmount < bAmount;
        if (a.memory != b.memory)
          return a.memory < b.memory;
        return aOp < bOp;
      });
}

Schedule memplan::scheduleDepthFirst(const ScheduleProblem &problem) {
  OpIndex index(problem);
  size_t n = problem.ops.size();
  // Bytes created upstream of each op (ancestors counted once per path:
  // a ranking, not a measure).
  Schedule topological = topologicalOrder(problem, index);
  if (topological.size() != n)
    return topological; // a cycle: no valid schedule
  std::vector<uint64_t> upstream(n, 0);
  for (uint32_t op : topological) {
    uint64_t bytes = 0;
    for (uint32_t b : index.creates[op])
      bytes = add(bytes, problem.buffers[b].size);
    for (uint32_t predecessor : problem.ops[op].predecessors)
      bytes = add(bytes, upstream[predecessor]);
    upstream[op] = bytes;
  }
  std::vector<std::vector<uint32_t>> sortedPredecessors(n);
  for (uint32_t op = 0; op < n; ++op) {
    sortedPredecessors[op] = problem.ops[op].predecessors;
    std::stable_sort(
        sortedPredecessors[op].begin(), sortedPredecessors[op].end(),
        [&](uint32_t a, uint32_t b) { return upstream[a] > upstream[b]; });
  }
  // Iterative post-order (graphs are deep: one chain per layer).
  std::vector<bool> visited(n, false);
  Schedule order;
  order.reserve(n);
  std::vector<std::pair<uint32_t, size_t>> stack;
  for (uint32_t root = uint32_t(n); root-- > 0;) {
    if (visited[root] || !index.successors[root].empty())
      continue;
    stack.push_back({root, 0});
    visited[root] = true;
    while (!stack.empty()) {
      auto &[op, next] = stack.back();
      if (next < sortedPredecessors[op].size()) {
        uint32_t predecessor = sortedPredecessors[op][next++];
        if (!visited[predecessor]) {
          visited[predecessor] = true;
          stack.push_back({predecessor, 0});
        }
        continue;
      }
      order.push_back(op);
      stack.pop_back();
    }
  }
  return order;
}

Schedule memplan::scheduleBreadthFirst(const ScheduleProblem &problem) {
  OpIndex index(problem);
  return topologicalOrder(problem, index);
}

std::optional<Schedule> memplan::scheduleExact(const ScheduleProblem &problem,
                                               unsigned maxOps,
                                               uint64_t maxStates) {
  size_t n = problem.ops.size();
  if (n > std::min(maxOps, 24u) || (uint64_t(1) << n) > maxStates)
    return std::nullopt;
  OpIndex index(problem);
  std::vector<uint32_t> predecessorMask(n, 0);
  for (uint32_t op = 0; op < n; ++op)
    for (uint32_t predecessor : problem.ops[op].predecessors)
      predecessorMask[op] |= 1u << predecessor;
  std::vector<uint32_t> userMask(problem.buffers.size(), 0);
  for (uint32_t b = 0; b < problem.buffers.size(); ++b)
    for (uint32_t user : problem.buffers[b].users)
      userMask[b] |= 1u << user;

  const uint64_t unreached = std::numeric_limits<uint64_t>::max();
  size_t states = size_t(1) << n;
  std::vector<uint64_t> best(states, unreached), live(states, 0);
  std::vector<uint8_t> last(states, 0);
  best[0] = 0;
  for (uint32_t set = 0; set + 1 < states; ++set) {
    if (best[set] == unreached)
      continue;
    for (uint32_t op = 0; op < n; ++op) {
      uint32_t bit = 1u << op;
      if ((set & bit) || (predecessorMask[op] & ~set))
        continue;
      uint64_t created = 0, freed = 0;
      uint32_t next = set | bit;
      for (uint32_t b : index.creates[op]) {
        created = add(created, problem.buffers[b].size);
        if ((userMask[b] & ~next) == 0) // no user left: dies after op
          freed = add(freed, problem.buffers[b].size);
      }
      for (uint32_t b : index.reads[op])
        if (!(problem.buffers[b].creator == op) && (userMask[b] & ~next) == 0)
          freed = add(freed, problem.buffers[b].size);
      uint64_t step = add(add(live[set], created), problem.ops[op].scratch);
      uint64_t peak = std::max(best[set], step);
      if (best[next] == unreached) {
        uint64_t after = add(live[set], created);
        live[next] = after - std::min(after, freed);
      }
      if (peak < best[next]) {
        best[next] = peak;
        last[next] = uint8_t(op);
      }
    }
  }
  uint32_t full = uint32_t(states - 1);
  if (best[full] == unreached)
    return std::nullopt; // a cycle
  Schedule order(n);
  for (uint32_t set = full, p = uint32_t(n); p-- > 0;) {
    order[p] = last[set];
    set &= ~(1u << last[set]);
  }
  return order;
}

/// The peak of each step of `order` (a valid schedule), step by step.
static std::vector<uint64_t> stepMemory(const ScheduleProblem &problem,
                                        const Schedule &order) {
  size_t n = order.size();
  std::vector<size_t> position(n);
  for (size_t p = 0; p < n; ++p)
    position[order[p]] = p;
  std::vector<uint64_t> memory(n, 0);
  std::vector<int64_t> delta(n + 1, 0);
  for (const ScheduleProblem::Buffer &buffer : problem.buffers) {
    size_t first = position[buffer.creator], lastUse = first;
    for (uint32_t user : buffer.users)
      lastUse = std::max(lastUse, position[user]);
    delta[first] += int64_t(buffer.size);
    delta[lastUse + 1] -= int64_t(buffer.size);
  }
  int64_t running = 0;
  for (size_t p = 0; p < n; ++p) {
    running += delta[p];
    memory[p] = uint64_t(running) + problem.ops[order[p]].scratch;
  }
  return memory;
}

/// The steps [first, first + count) of `order` as a problem of their own:
/// the ops before them have run, those after have not, so the bytes live
/// at every step outside do not depend on how the steps inside are
/// ordered. The window's ops are numbered 0..count-1 in `order`'s order,
/// then a source op (count) before them that creates the buffers made
/// earlier and read inside, and a sink op (count + 1) after them that
/// reads the buffers read after the window; the bytes live across the
/// whole window are scratch of every op.
static ScheduleProblem windowProblem(const ScheduleProblem &problem,
                                     const Schedule &order, size_t first,
                                     size_t count) {
  size_t n = order.size();
  std::vector<int64_t> position(n);
  for (size_t p = 0; p < n; ++p)
    position[order[p]] = int64_t(p);
  int64_t begin = int64_t(first), end = int64_t(first + count);
  uint32_t source = uint32_t(count), sink = uint32_t(count + 1);
  ScheduleProblem window;
  window.ops.resize(count + 2);
  auto local = [&](uint32_t op) { return uint32_t(position[op] - begin); };
  for (size_t i = 0; i < count; ++i) {
    const ScheduleProblem::Op &op = problem.ops[order[first + i]];
    window.ops[i].scratch = op.scratch;
    window.ops[i].predecessors.push_back(source);
    for (uint32_t predecessor : op.predecessors)
      if (position[predecessor] >= begin)
        window.ops[i].predecessors.push_back(local(predecessor));
    window.ops[sink].predecessors.push_back(uint32_t(i));
  }
  window.ops[sink].predecessors.push_back(source);
  uint64_t across = 0;
  for (const ScheduleProblem::Buffer &buffer : problem.buffers) {
    int64_t created = position[buffer.creator];
    bool readInside = false, readAfter = false;
    std::vector<uint32_t> users;
    for (uint32_t user : buffer.users) {
      int64_t at = position[user];
      readAfter |= at >= end;
      if (at >= begin && at < end && at != created) {
        readInside = true;
        users.push_back(local(user));
      }
    }
    bool inside = created >= begin && created < end;
    if (!inside && created >= end)
      continue;
    if (!inside) {
      if (readAfter)
        across = add(across, buffer.size); // live through the window
      else if (readInside)
        window.buffers.push_back({buffer.size, source, users});
      continue;
    }
    if (readAfter)
      users.push_back(sink);
    window.buffers.push_back({buffer.size, local(buffer.creator), users});
  }
  for (ScheduleProblem::Op &op : window.ops)
    op.scratch = add(op.scratch, across);
  return window;
}

/// The window's identity order: source, its ops as in `order`, sink.
static Schedule windowInOrder(size_t count) {
  Schedule current(count + 2);
  current[0] = uint32_t(count);
  for (size_t i = 0; i < count; ++i)
    current[i + 1] = uint32_t(i);
  current[count + 1] = uint32_t(count + 1);
  return current;
}

/// `order` with the window's steps in `windowOrder`'s order.
static void applyWindow(Schedule &order, size_t first, size_t count,
                        const Schedule &windowOrder) {
  Schedule reordered;
  reordered.reserve(count);
  for (uint32_t op : windowOrder)
    if (op < count)
      reordered.push_back(order[first + op]);
  std::copy(reordered.begin(), reordered.end(), order.begin() + first);
}

/// The steps [first, first + count) of `order` reordered exactly; true if
/// the window's peak fell.
static bool improveWindow(const ScheduleProblem &problem, Schedule &order,
                          size_t first, size_t count) {
  ScheduleProblem window = windowProblem(problem, order, first, count);
  std::optional<Schedule> best = scheduleExact(window, 24, 1u << 24);
  if (!best)
    return false;
  if (computeSchedulePeak(window, *best) >=
      computeSchedulePeak(window, windowInOrder(count)))
    return false;
  applyWindow(order, first, count, *best);
  return true;
}

Schedule memplan::improveByWindows(const ScheduleProblem &problem,
                                   Schedule order, unsigned windowOps,
                                   unsigned maxWindows) {
  size_t n = order.size();
  windowOps = std::min<unsigned>(windowOps, 22);
  if (n < 2 || windowOps < 2)
    return order;
  size_t width = std::min<size_t>(windowOps, n);
  unsigned tried = 0;
  // Windows that hold the peak step, from the one ending at it to the one
  // starting at it; after each improvement, again at the new peak.
  bool improved = true;
  while (improved && tried < maxWindows) {
    improved = false;
    std::vector<uint64_t> memory = stepMemory(problem, order);
    size_t peak =
        std::max_element(memory.begin(), memory.end()) - memory.begin();
    size_t lowest = peak + 1 >= width ? peak + 1 - width : 0;
    size_t highest = std::min(peak, n - width);
    for (size_t first = lowest; first <= highest && tried < maxWindows;
         ++first, ++tried) {
      uint64_t before = *std::max_element(memory.begin(), memory.end());
      Schedule candidate = order;
      if (!improveWindow(problem, candidate, first, width))
        continue;
      if (computeSchedulePeak(problem, candidate) < before) {
        order = std::move(candidate);
        improved = true;
        break;
      }
    }
  }
  return order;
}

Schedule memplan::reorderAfterPeaks(const ScheduleProblem &problem,
                                    Schedule order, unsigned levels) {
  size_t n = order.size();
  size_t from = 0; // the steps before `from` are settled
  for (unsigned level = 0; level < levels && from < n; ++level) {
    std::vector<uint64_t> memory = stepMemory(problem, order);
    size_t peak =
        std::max_element(memory.begin() + from, memory.end()) - memory.begin();
    size_t first = peak + 1, count = n - first;
    if (count < 2)
      break;
    ScheduleProblem rest = windowProblem(problem, order, first, count);
    Schedule kept = windowInOrder(count);
    // The peak, then the bytes x steps (how long memory stays taken), in
    // one walk over the steps.
    auto key = [&](const Schedule &candidate) {
      uint64_t peak = 0, total = 0;
      for (uint64_t bytes : stepMemory(rest, candidate)) {
        peak = std::max(peak, bytes);
        total = add(total, bytes);
      }
      return std::make_pair(peak, total);
    };
    auto keptKey = key(kept);
    for (Schedule candidate :
         {scheduleLeastPeakFirst(rest), scheduleMostFreedFirst(rest),
          scheduleDepthFirst(rest), scheduleBreadthFirst(rest)}) {
      if (!isValidSchedule(rest, candidate))
        continue;
      auto candidateKey = key(candidate);
      if (candidateKey < keptKey) {
        kept = std::move(candidate);
        keptKey = candidateKey;
      }
    }
    applyWindow(order, first, count, kept);
    from = first;
  }
  return order;
}

std::vector<ScheduleCandidate>
memplan::scheduleCandidates(const ScheduleProblem &problem,
                            unsigned exactMaxOps) {
  std::vector<ScheduleCandidate> candidates;
  auto consider = [&](std::string name, Schedule order, bool proven) {
    if (!isValidSchedule(problem, order))
      return;
    uint64_t peak = computeSchedulePeak(problem, order);
    candidates.push_back({std::move(name), std::move(order), peak, proven});
  };
  consider("input", scheduleInOrder(problem), false);
  consider("least-peak", scheduleLeastPeakFirst(problem), false);
  consider("most-freed", scheduleMostFreedFirst(problem), false);
  consider("depth-first", scheduleDepthFirst(problem), false);
  consider("breadth-first", scheduleBreadthFirst(problem), false);
  // The first candidate of least model peak.
  auto lowestPeak = [&]() -> const ScheduleCandidate * {
    const ScheduleCandidate *best = nullptr;
    for (const ScheduleCandidate &candidate : candidates)
      if (!best || candidate.peak < best->peak)
        best = &candidate;
    return best;
  };
  // Exact windows around the peak of the best heuristic order.
  const ScheduleCandidate *best = lowestPeak();
  if (best && exactMaxOps >= 2) {
    Schedule windows =
        improveByWindows(problem, best->order, std::min(exactMaxOps, 10u));
    consider("windows(" + best->name + ")", std::move(windows), false);
  }
  // The input and the best so far, each stretch after its peak reordered
  // on its own (the model's peak ignores in-place reuse, so the input may
  // be best as measured even when it is not here).
  best = lowestPeak();
  std::vector<const ScheduleCandidate *> refine = {&candidates.front()};
  if (best && best != refine.front())
    refine.push_back(best);
  std::vector<ScheduleCandidate> refined;
  for (const ScheduleCandidate *candidate : refine) {
    Schedule order = reorderAfterPeaks(problem, candidate->order);
    if (order != candidate->order)
      refined.push_back(
          {"after-peaks(" + candidate->name + ")", std::move(order), 0, false});
  }
  for (ScheduleCandidate &candidate : refined)
    consider(std::move(candidate.name), std::move(candidate.order), false);
  if (std::optional<Schedule> exact = scheduleExact(problem, exactMaxOps))
    consider("exact", std::move(*exact), true);
  return candidates;
}
