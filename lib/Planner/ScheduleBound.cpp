//===- ScheduleBound.cpp - A peak no op order goes below ------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Why the bound holds, also under in-place reuse (BufferLiveness with a
// result computed over an operand that dies at its op, never a larger
// result than the buffer it reuses): at op x, a buffer b made by an
// ancestor of x and read by a descendant of x is live at x in every order.
// Two such buffers never share a storage: sharing needs one to die at the
// op that makes the other, but both are made before x and read after it.
// Nor do they share with x's operands that may die at x, or x's results.
// x's results are live at x; each either takes new bytes or reuses one
// operand dying at x, at least as large, and only a result marked
// mayBeInPlace can. So the bytes at x are at least those buffers, x's
// scratch, and the larger of: x's results; x's other operands and the
// results that cannot be in place (without in-place reuse, all of them). A
// buffer that may end in the caller's buffer (mayLeaveArena) is left out.
//
// Ancestors and descendants are bit sets over the ops; a buffer's
// contribution is the bit set desc(creator) & (anc(user_1) | ...), added
// op by op.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Scheduling.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace memplan;

ScheduleBound memplan::scheduleLowerBound(const ScheduleProblem &problem,
                                          bool inPlaceReuse, size_t maxOps) {
  size_t n = problem.ops.size();
  if (n == 0 || n > maxOps)
    return {};
  // A topological order (Kahn); none if the constraints have a cycle.
  std::vector<std::vector<uint32_t>> successors(n);
  std::vector<uint32_t> waiting(n, 0);
  for (uint32_t op = 0; op < n; ++op)
    for (uint32_t before : problem.ops[op].predecessors) {
      successors[before].push_back(op);
      ++waiting[op];
    }
  std::vector<uint32_t> topological;
  topological.reserve(n);
  for (uint32_t op = 0; op < n; ++op)
    if (waiting[op] == 0)
      topological.push_back(op);
  for (size_t i = 0; i < topological.size(); ++i)
    for (uint32_t next : successors[topological[i]])
      if (--waiting[next] == 0)
        topological.push_back(next);
  if (topological.size() != n)
    return {};

  size_t words = (n + 63) / 64;
  std::vector<uint64_t> ancestors(n * words, 0), descendants(n * words, 0);
  auto row = [&](std::vector<uint64_t> &sets, uint32_t op) {
    return sets.data() + size_t(op) * words;
  };
  auto set = [](uint64_t *bits, uint32_t op) {
    bits[op / 64] |= uint64_t(1) << (op % 64);
  };
  for (uint32_t op : topological)
    for (uint32_t before : problem.ops[op].predecessors) {
      uint64_t *into = row(ancestors, op);
      const uint64_t *from = row(ancestors, before);
      for (size_t w = 0; w < words; ++w)
        into[w] |= from[w];
      set(into, before);
    }
  for (auto it = topological.rbegin(); it != topological.rend(); ++it)
    for (uint32_t after : successors[*it]) {
      uint32_t op = *it;
      uint64_t *into = row(descendants, op);
      const uint64_t *from = row(descendants, after);
      for (size_t w = 0; w < words; ++w)
        into[w] |= from[w];
      set(into, after);
    }

  // Bytes live across each op in every order, and each op's own side.
  std::vector<uint64_t> across(n, 0), results(n, 0), operands(n, 0),
      fresh(n, 0);
  std::vector<uint64_t> readLater(words);
  for (const ScheduleProblem::Buffer &buffer : problem.buffers) {
    if (buffer.mayLeaveArena || buffer.size == 0)
      continue;
    results[buffer.creator] =
        llvm::SaturatingAdd(results[buffer.creator], buffer.size);
    if (!inPlaceReuse || !buffer.mayBeInPlace)
      fresh[buffer.creator] =
          llvm::SaturatingAdd(fresh[buffer.creator], buffer.size);
    std::fill(readLater.begin(), readLater.end(), 0);
    for (uint32_t user : buffer.users) {
      const uint64_t *from = row(ancestors, user);
      for (size_t w = 0; w < words; ++w)
        readLater[w] |= from[w];
    }
    const uint64_t *made = row(descendants, buffer.creator);
    for (size_t w = 0; w < words; ++w)
      for (uint64_t bits = made[w] & readLater[w]; bits; bits &= bits - 1) {
        size_t op = w * 64 + size_t(llvm::countr_zero(bits));
        across[op] = llvm::SaturatingAdd(across[op], buffer.size);
      }
    // An operand of a user it is not live across (counted there above).
    for (uint32_t user : buffer.users) {
      bool liveAcross =
          (made[user / 64] & readLater[user / 64]) >> (user % 64) & 1;
      if (user != buffer.creator && !liveAcross)
        operands[user] = llvm::SaturatingAdd(operands[user], buffer.size);
    }
  }
  ScheduleBound bound;
  for (uint32_t op = 0; op < n; ++op) {
    uint64_t bytes = llvm::SaturatingAdd(
        llvm::SaturatingAdd(across[op], problem.ops[op].scratch),
        std::max(results[op], llvm::SaturatingAdd(operands[op], fresh[op])));
    if (bytes > bound.bytes)
      bound = {bytes, op};
  }
  return bound;
}
