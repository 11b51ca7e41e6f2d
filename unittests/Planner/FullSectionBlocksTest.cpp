//===- FullSectionBlocksTest.cpp - Blocks that full sections force --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The reduction is internal to the planner (lib/Planner); its exactness is
// also checked end to end by SearchTest against an exhaustive solver.
//
//===----------------------------------------------------------------------===//

#include "FullSectionBlocks.h"

#include <gtest/gtest.h>

using namespace memplan;

namespace {

// At 4 bytes every section is full: a, then b (one each side of point 1:
// same bytes), then c and d, which start where b ends and end together
// (they fill b's bytes, stacked). One block of 4 bytes over [0, 3).
Problem chainThenStack() {
  Problem problem;
  problem.buffers = {{4, 0, 1, 1},  // a
                     {4, 1, 2, 1},  // b
                     {2, 2, 3, 1},  // c
                     {2, 2, 3, 1}}; // d
  return problem;
}

TEST(FullSectionBlocks, ChainsAndStacksWhereSectionsAreFull) {
  MergedProblem merged = reduceAtFullBoundaries(chainThenStack(), 4);
  ASSERT_EQ(merged.problem.buffers.size(), 1u);
  const Buffer &block = merged.problem.buffers[0];
  EXPECT_EQ(block.size, 4u);
  EXPECT_EQ(block.start, 0);
  EXPECT_EQ(block.end, 3);
  EXPECT_EQ(merged.blockOf, (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_EQ(merged.within, (std::vector<uint64_t>{0, 0, 0, 2}));
}

TEST(FullSectionBlocks, NothingMergesWithSlack) {
  MergedProblem merged = reduceAtFullBoundaries(chainThenStack(), 5);
  EXPECT_EQ(merged.problem.buffers.size(), 4u);
  EXPECT_EQ(merged.blockOf, (std::vector<uint32_t>{0, 1, 2, 3}));
}

// Starting buffers that end apart are not a block: a plan may use the bytes
// of the one that ends first for something else (see
// SearchTest's ChainsOnlyBuffersThatEndTogether).
TEST(FullSectionBlocks, StartingBuffersThatEndApartStaySeparate) {
  Problem problem;
  problem.buffers = {{4, 0, 1, 1},  // e
                     {2, 0, 2, 1},  // v
                     {2, 1, 2, 1},  // s1
                     {2, 1, 3, 1},  // s2
                     {4, 2, 3, 1}}; // t
  MergedProblem merged = reduceAtFullBoundaries(problem, 6);
  EXPECT_EQ(merged.problem.buffers.size(), 5u);
}

// Backwards in time: x and y end where z starts, having started together;
// z takes exactly their bytes.
TEST(FullSectionBlocks, StacksThatStartedTogetherJoinTheBufferAfterThem) {
  Problem problem;
  problem.buffers = {{1, 0, 1, 1},  // x
                     {3, 0, 1, 1},  // y
                     {4, 1, 2, 1}}; // z
  MergedProblem merged = reduceAtFullBoundaries(problem, 4);
  ASSERT_EQ(merged.problem.buffers.size(), 1u);
  EXPECT_EQ(merged.problem.buffers[0].size, 4u);
  // x and y stacked in either order: [0, 1) + [1, 4) or [0, 3) + [3, 4).
  bool xFirst = merged.within[0] == 0 && merged.within[1] == 1;
  bool yFirst = merged.within[1] == 0 && merged.within[0] == 3;
  EXPECT_TRUE(xFirst || yFirst);
  EXPECT_EQ(merged.within[2], 0u);
}

} // namespace
