//===- LowerBoundTest.cpp - Peak live bytes -------------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PlannerTestUtils.h"

using namespace memplan;
using namespace memplan::test;

namespace {

TEST(LowerBound, EmptyIsZero) { EXPECT_EQ(computeLowerBound(Problem()), 0u); }

TEST(LowerBound, HalfOpenIntervalsDoNotTouch) {
  // [0, 2) and [2, 4) are never live together.
  EXPECT_EQ(computeLowerBound(makeProblem({{10, 0, 2}, {20, 2, 4}})), 20u);
  EXPECT_EQ(computeLowerBound(makeProblem({{10, 0, 3}, {20, 2, 4}})), 30u);
}

TEST(LowerBound, PeakInTheMiddle) {
  Problem problem =
      makeProblem({{5, 0, 10}, {7, 2, 4}, {11, 3, 6}, {13, 5, 7}, {17, 8, 9}});
  // Position 3: 5 + 7 + 11 = 23; position 5: 5 + 11 + 13 = 29; 8: 22.
  EXPECT_EQ(computeLowerBound(problem), 29u);
}

TEST(LowerBound, NegativeAndSparsePositions) {
  Problem problem =
      makeProblem({{4, -1000000000000, 5}, {6, 4, 1000000000000}});
  EXPECT_EQ(computeLowerBound(problem), 10u);
}

TEST(LowerBound, SaturatesInsteadOfWrapping) {
  Problem problem = makeProblem({{UINT64_MAX - 1, 0, 2}, {5, 1, 3}});
  EXPECT_EQ(computeLowerBound(problem), UINT64_MAX);
  EXPECT_EQ(computeBytesWithoutReuse(problem), UINT64_MAX);
}

TEST(LowerBound, BytesWithoutReuse) {
  EXPECT_EQ(computeBytesWithoutReuse(makeProblem({{3, 0, 1}, {4, 5, 6}})), 7u);
}

TEST(AlignUp, RoundsAndDetectsOverflow) {
  EXPECT_EQ(alignUp(0, 256), 0u);
  EXPECT_EQ(alignUp(1, 256), 256u);
  EXPECT_EQ(alignUp(256, 256), 256u);
  EXPECT_EQ(alignUp(257, 1), 257u);
  EXPECT_FALSE(alignUp(UINT64_MAX - 3, 64).has_value());
}

} // namespace
