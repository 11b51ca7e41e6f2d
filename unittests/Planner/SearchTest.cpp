//===- SearchTest.cpp - Search reaches the optimum ------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ExhaustiveSolver.h"
#include "PlannerTestUtils.h"

#include "ProblemGenerators.h"
#include "memplan/Planner/Search.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <pthread.h>
#include <random>

using namespace memplan;
using namespace memplan::test;

namespace {

Solution search(const Problem &problem, SearchOptions options) {
  PlanResult result = planSearch(problem, options);
  EXPECT_TRUE(result.ok()) << result.error;
  std::optional<ValidationError> error =
      validateSolution(problem, result.solution);
  EXPECT_FALSE(error) << error->message;
  EXPECT_TRUE(result.solution.search.has_value());
  EXPECT_EQ(result.solution.search->rejectedPlans, 0u);
  return result.solution;
}

TEST(Search, MatchesAnExhaustiveSolverOnSmallProblems) {
  SearchOptions options;
  options.seconds = 30;
  int belowGreedy = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    Problem problem =
        generateRandomProblem(seed, 3 + seed % 5, 5, 4, 3 + seed % 17);
    uint64_t optimum = exhaustiveOptimum(problem);
    Solution solution = search(problem, options);
    EXPECT_EQ(solution.arenaSize, optimum) << "seed " << seed;
    EXPECT_TRUE(solution.search->provenOptimal) << "seed " << seed;
    belowGreedy +=
        solution.arenaSize < planGreedyBySize(problem).solution.arenaSize;
  }
  // The problems are not all easy: greedy by size misses the optimum on
  // some of these. (The search's start, the best of the portfolio's nine,
  // misses it on two; elsewhere the search's work is the proof.)
  EXPECT_GT(belowGreedy, 20) << belowGreedy;
}

// Wider lifetimes and sizes than above: where a spot is left empty, a buffer
// may later sit above it on a buffer not placed yet (found by the fuzzer:
// the search once claimed 1100 bytes optimal for a problem that fits 1080,
// the first case below).
TEST(Search, MatchesAnExhaustiveSolverWhereSpotsStayEmpty) {
  Problem found = makeProblem({{905, 3, 11},
                               {755, 20, 29},
                               {175, 3, 20},
                               {120, 19, 40},
                               {50, 18, 27},
                               {405, 11, 20}});
  ASSERT_EQ(exhaustiveOptimum(found), 1080u);
  SearchOptions options;
  options.seconds = 30;
  Solution solution = search(found, options);
  EXPECT_EQ(solution.arenaSize, 1080u);
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    Problem problem = generateRandomProblem(seed, 4 + seed % 4, 40, 25, 1000);
    uint64_t optimum = exhaustiveOptimum(problem);
    Solution solution = search(problem, options);
    EXPECT_EQ(solution.arenaSize, optimum) << "seed " << seed;
    EXPECT_TRUE(solution.search->provenOptimal) << "seed " << seed;
  }
}

// Packed problems (every section full at the lower bound) with a few random
// buffers on top: where sections are full at a capacity, the search chains
// buffers that must share offsets there, which must never lose the optimum;
// the reduced and the original problem are searched in turns on one thread,
// or side by side on two.
class SearchOnThreads : public ::testing::TestWithParam<unsigned> {};

TEST_P(SearchOnThreads, MatchesAnExhaustiveSolverOnPackedProblemsWithExtras) {
  SearchOptions options;
  options.seconds = 30;
  options.threads = GetParam();
  int packedOnly = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    size_t pieces = 5 + seed % 4;
    Problem problem = generatePackedProblem(seed, pieces, 5, 12);
    Problem extra =
        generateRandomProblem(seed, pieces < 7 ? seed % 3 : 0, 5, 3, 6);
    problem.buffers.insert(problem.buffers.end(), extra.buffers.begin(),
                           extra.buffers.end());
    uint64_t optimum = exhaustiveOptimum(problem);
    Solution solution = search(problem, options);
    EXPECT_EQ(solution.arenaSize, optimum) << "seed " << seed;
    EXPECT_TRUE(solution.search->provenOptimal) << "seed " << seed;
    packedOnly += extra.buffers.empty();
  }
  EXPECT_GT(packedOnly, 50);
}

INSTANTIATE_TEST_SUITE_P(Search, SearchOnThreads, ::testing::Values(1u, 2u));

// Where one buffer ends at a point between full sections and several start
// there, these fill its bytes; only if they also end together are they one
// block with it. Here they do not: as a block they would keep s1's bytes
// until s2 ends, and t, which needs the bytes of v and s1, would not fit.
TEST(Search, ChainsOnlyBuffersThatEndTogether) {
  Problem problem;
  problem.buffers = {{4, 0, 1, 1},  // e: ends at 1
                     {2, 0, 2, 1},  // v: beside e, then beside s1 and s2
                     {2, 1, 2, 1},  // s1: starts where e ends
                     {2, 1, 3, 1},  // s2: starts there too, ends later
                     {4, 2, 3, 1}}; // t: takes what v and s1 free
  ASSERT_EQ(computeLowerBound(problem), 6u);
  ASSERT_EQ(exhaustiveOptimum(problem), 6u);
  SearchOptions options;
  options.capacity = 6;
  Solution solution = search(problem, options);
  EXPECT_EQ(solution.arenaSize, 6u);
  EXPECT_FALSE(solution.search->capacityImpossible);
}

TEST(Search, ReachesTheLowerBoundOnPackedProblems) {
  SearchOptions options;
  options.seconds = 30;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Problem problem = generatePackedProblem(seed, 30 + seed, 40, 1000);
    ASSERT_EQ(computeLowerBound(problem), 1000u);
    Solution solution = search(problem, options);
    EXPECT_EQ(solution.arenaSize, 1000u) << "seed " << seed;
    EXPECT_TRUE(solution.search->provenOptimal);
  }
}

// The search branches at the most constrained valley of the skyline, not
// just the lowest one. On this 500-buffer perfect packing that finds the
// bound in about 10,000 nodes; branching only at the lowest valley does not
// find it in 1,000,000.
TEST(Search, BranchesWhereTheSkylineIsMostConstrained) {
  Problem problem = generatePackedProblem(500007, 500, 500, uint64_t(1) << 20);
  ASSERT_EQ(computeLowerBound(problem), uint64_t(1) << 20);
  SearchOptions options;
  options.seconds = 1000;
  options.nodeLimit = 50000;
  Solution solution = search(problem, options);
  EXPECT_EQ(solution.arenaSize, uint64_t(1) << 20);
  EXPECT_TRUE(solution.search->provenOptimal);
  EXPECT_LT(solution.search->nodes, 20000u);
}

/// The smallest arena of the portfolio's members, each plan validated.
uint64_t bestGreedyArena(const Problem &problem) {
  uint64_t best = UINT64_MAX;
  for (Algorithm member : kGreedyPlacements)
    best = std::min(best, planAndValidate(problem, member).arenaSize);
  return best;
}

// The start is the best of the portfolio's nine members at every size, so
// the search never returns more than Algorithm::Portfolio would: on small
// random problems, and on small trace-like ones (mixed alignments, long
// lifetimes), where the exact search rarely lowers its start and a start
// from greedy by size, best fit and greedy by breadth alone ended above the
// portfolio's plan.
TEST(Search, NeverWorseThanGreedy) {
  SearchOptions options;
  options.nodeLimit = 2000;
  options.seconds = 30;
  std::mt19937_64 rng(2026120207);
  for (uint64_t seed = 0; seed < 110; ++seed) {
    Problem problem = seed < 100
                          ? generateRandomProblem(seed, 60, 30, 10, 1000)
                          : generateRandomProblem(rng, traceLikeShape(200));
    Solution solution = search(problem, options);
    uint64_t greedy = bestGreedyArena(problem);
    EXPECT_EQ(solution.search->startArena, greedy) << "seed " << seed;
    EXPECT_LE(solution.arenaSize, greedy) << "seed " << seed;
    EXPECT_GE(solution.arenaSize, computeLowerBound(problem));
  }
}

// Below 1,000 buffers too, where the exact search's attempt at the lower
// bound runs out of budget, moves around the top, plans from perturbed orders
// and jostling get a fifth of what is left before the bisection. On small
// trace-like problems the exact search alone rarely lowers its start (with
// mixed alignments there is no reduced problem, and the start is within a
// few per cent of the bound); with them, most starts are lowered.
TEST(Search, SmallDenseProblemsAreLoweredBelowTheirStart) {
  std::mt19937_64 rng(2026120208);
  int lowered = 0;
  const int rounds = 6;
  for (int round = 0; round < rounds; ++round) {
    Problem problem = generateRandomProblem(rng, traceLikeShape(300));
    SearchOptions options;
    options.nodeLimit = 20000;
    options.seconds = 600;
    Solution solution = search(problem, options);
    EXPECT_LE(solution.arenaSize, solution.search->startArena);
    lowered += solution.arenaSize < solution.search->startArena;
  }
  EXPECT_GE(lowered, rounds * 2 / 3);
}

// From 1,000 buffers the start is the best of nine members (the skyline
// among them, as the fallback), one after the other or side by side. Long
// lifetimes over 1,500 positions make the skyline the best on some, and
// the long-lived skyline on others.
TEST(Search, LargeProblemsStartFromTheBestGreedyMember) {
  std::mt19937_64 rng(2026112402);
  int skylineBest = 0, longLivedBest = 0;
  for (int round = 0; round < 6; ++round) {
    RandomProblemShape shape = traceLikeShape(1000 + 100 * round);
    shape.positions = 1500;
    shape.maxLength = 1300;
    Problem problem = generateRandomProblem(rng, shape);
    uint64_t best = UINT64_MAX;
    for (Algorithm member : kGreedyPlacements) {
      uint64_t arena = planAndValidate(problem, member).arenaSize;
      skylineBest += member == Algorithm::Skyline && arena < best;
      longLivedBest += member == Algorithm::LongLivedSkyline && arena < best;
      best = std::min(best, arena);
    }
    for (unsigned threads : {1u, 2u}) {
      SearchOptions options;
      options.nodeLimit = 1;
      options.seconds = 600;
      options.threads = threads;
      Solution solution = search(problem, options);
      EXPECT_EQ(solution.search->startArena, best)
          << "round " << round << ", " << threads << " threads";
    }
  }
  EXPECT_GT(skylineBest, 0);
  EXPECT_GT(longLivedBest, 0);
}

TEST(Search, NodeLimitMakesResultsReproducible) {
  SearchOptions options;
  options.nodeLimit = 5000;
  options.seconds = 60;
  Problem problem = generateRandomProblem(7, 120, 40, 12, 5000);
  Solution first = search(problem, options);
  Solution second = search(problem, options);
  EXPECT_EQ(first.offsets, second.offsets);
  EXPECT_EQ(first.search->nodes, second.search->nodes);
  EXPECT_LE(first.search->nodes, 5000u);
}

TEST(Search, CapacityMode) {
  SearchOptions options;
  options.seconds = 30;
  Problem problem = generatePackedProblem(3, 60, 50, 4096);
  // Enough room: the greedy plan is returned as it is.
  options.capacity = planGreedyBySize(problem).solution.arenaSize;
  Solution roomy = search(problem, options);
  EXPECT_TRUE(roomy.search->capacityMet);
  EXPECT_EQ(roomy.search->nodes, 0u);
  // Exactly the optimum.
  options.capacity = 4096;
  Solution tight = search(problem, options);
  EXPECT_TRUE(tight.search->capacityMet);
  EXPECT_EQ(tight.arenaSize, 4096u);
  // Below the lower bound: proven impossible, the best plan still returned.
  options.capacity = 4095;
  Solution impossible = search(problem, options);
  EXPECT_FALSE(impossible.search->capacityMet);
  EXPECT_TRUE(impossible.search->capacityImpossible);
}

// Capacity mode on problems of 1,000 buffers or more, where the steps before
// the jostling share nine tenths of the budget and the jostling runs last
// (Search.cpp): a capacity below the greedy plan's arena that the search
// reaches is met, within the nodes, the same plan again; one below the lower
// bound is proven impossible at once, the jostling skipped, and the best
// plan still returned.
TEST(Search, CapacityModeOnLargeProblems) {
  std::mt19937_64 rng(2026120206);
  for (int round = 0; round < 3; ++round) {
    Problem problem =
        generateRandomProblem(rng, traceLikeShape(1000 + 300 * round));
    SearchOptions options;
    options.seconds = 600;
    options.nodeLimit = 1000;
    Solution minimised = search(problem, options);
    ASSERT_LT(minimised.arenaSize, minimised.search->startArena)
        << "round " << round;

    options.capacity = minimised.search->startArena - 1;
    Solution met = search(problem, options);
    EXPECT_TRUE(met.search->capacityMet) << "round " << round;
    EXPECT_LE(met.arenaSize, *options.capacity);
    EXPECT_LE(met.search->nodes, options.nodeLimit);
    EXPECT_EQ(search(problem, options).offsets, met.offsets);

    options.capacity = computeLowerBound(problem) - 1;
    Solution impossible = search(problem, options);
    EXPECT_FALSE(impossible.search->capacityMet);
    EXPECT_TRUE(impossible.search->capacityImpossible) << "round " << round;
    EXPECT_EQ(impossible.arenaSize, impossible.search->startArena);
  }
}

/// Problems for the exhaustive solver: `count` buffers over 6 positions,
/// lifetimes of up to 4, sizes 1 to `maxSize`; every `alignedEvery`-th
/// buffer aligned to 2^0 to 2^`maxShift` (none where `alignedEvery` is 0).
RandomProblemShape tinyShape(size_t count, uint64_t maxSize,
                             size_t alignedEvery, int maxShift) {
  RandomProblemShape shape{count, 6, 4, 1, maxSize, alignedEvery != 0};
  shape.alignedEvery = alignedEvery ? alignedEvery : 1;
  shape.maxAlignmentShift = maxShift;
  return shape;
}

// Mixed alignments: the search places every buffer at a multiple of its own
// alignment (no padding to the largest), so its optimum and its proofs agree
// with the exhaustive solver's, which knows nothing of the search.
TEST(Search, MatchesAnExhaustiveSolverWithMixedAlignments) {
  SearchOptions options;
  options.seconds = 30;
  std::mt19937_64 rng(18);
  int missed = 0;
  for (int round = 0; round < 600; ++round) {
    Problem problem =
        generateRandomProblem(rng, tinyShape(3 + round % 5, 3 + round % 300,
                                             1 + round % 3, 1 + round % 7));
    uint64_t optimum = exhaustiveOptimum(problem);
    Solution solution = search(problem, options);
    missed += solution.arenaSize != optimum;
    EXPECT_EQ(solution.arenaSize, optimum) << "round " << round;
    EXPECT_TRUE(solution.search->provenOptimal) << "round " << round;
  }
  EXPECT_EQ(missed, 0);
}

// The bound the search reports (no plan below it) is checked against the
// exhaustive solver with node budgets too small to finish: it never claims
// more than the optimum, it is at least the lower bound, and it equals the
// arena exactly when the arena is proven optimal.
TEST(Search, ProvenBoundsHoldAgainstAnExhaustiveSolver) {
  std::mt19937_64 rng(1818);
  int raised = 0;
  for (int round = 0; round < 400; ++round) {
    Problem problem = generateRandomProblem(
        rng, tinyShape(4 + round % 4, 20 + round % 200, round % 2 ? 0 : 2, 6));
    uint64_t optimum = exhaustiveOptimum(problem);
    uint64_t lowerBound = computeLowerBound(problem);
    for (uint64_t nodes : {20, 200, 2000}) {
      SearchOptions options;
      options.seconds = 60;
      options.nodeLimit = nodes;
      Solution solution = search(problem, options);
      const SearchSummary &summary = *solution.search;
      EXPECT_LE(summary.provenBound, optimum) << "round " << round;
      EXPECT_GE(summary.provenBound, lowerBound) << "round " << round;
      EXPECT_GE(solution.arenaSize, optimum) << "round " << round;
      EXPECT_EQ(summary.provenOptimal,
                summary.provenBound == solution.arenaSize)
          << "round " << round;
      raised += summary.provenBound > lowerBound;
    }
  }
  // The bound does rise above the lower bound on some of these.
  EXPECT_GT(raised, 50) << raised;
}

// Twelve buffers, every other one aligned to 64 bytes (the others to 1):
// every optimum lies within 64 bytes above the lower bound, and proving it
// means refuting every capacity in between, where floors differ by a few
// bytes of padding. Failed states that dominate (lower floors, same buffers
// placed) cut those refutations: without them 4 of these 50 did not finish
// in 5 s; with them, 3.6 million nodes in all. The node limit keeps the run
// reproducible.
TEST(Search, ProvesOptimaWithMixedAlignments) {
  SearchOptions options;
  options.seconds = 600;
  options.nodeLimit = 4000000;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Problem problem = generateRandomProblem(seed, 12, 10, 5, 700);
    for (size_t i = 0; i < problem.buffers.size(); ++i)
      problem.buffers[i].alignment = i % 2 ? 64 : 1;
    Solution solution = search(problem, options);
    EXPECT_LE(solution.arenaSize, solution.search->startArena);
    EXPECT_TRUE(solution.search->provenOptimal) << "seed " << seed;
  }
}

// Problems of 1,000 buffers or more, shaped like compiler traces (many
// buffers live at once, sizes over four orders of magnitude), where the
// exact search does not finish: moves around the arena's top never raise
// the best greedy plan, lower it on most of these (a start can be a local
// optimum they do not leave within the budget: the third here), and are
// reproducible with a node budget (offset for offset).
TEST(Search, NeighbourhoodMovesLowerLargeProblems) {
  std::mt19937_64 rng(2026);
  int lowered = 0;
  for (int round = 0; round < 4; ++round) {
    Problem problem =
        generateRandomProblem(rng, traceLikeShape(1000 + 200 * round));
    SearchOptions options;
    options.seconds = 600;
    options.nodeLimit = 800;
    Solution first = search(problem, options);
    const SearchSummary &summary = *first.search;
    EXPECT_LE(first.arenaSize, summary.startArena) << "round " << round;
    EXPECT_EQ(
        first
            .arenaSize<summary.startArena, summary.neighbourhoodImprovements> 0)
        << "round " << round;
    lowered += first.arenaSize < summary.startArena;
    EXPECT_LE(summary.nodes, options.nodeLimit);
    Solution again = search(problem, options);
    EXPECT_EQ(again.offsets, first.offsets) << "round " << round;
    // Three walks on their own threads, a third of the nodes each: never
    // worse than the start, within the nodes, and the same plan whatever
    // the threads' timing.
    options.threads = 3;
    Solution walked = search(problem, options);
    // The starting plans ran side by side on those threads, and all five
    // finished: the start is the one the sequential run took.
    EXPECT_EQ(walked.search->startArena, summary.startArena)
        << "round " << round;
    EXPECT_LE(walked.arenaSize, walked.search->startArena) << "round " << round;
    EXPECT_LE(walked.search->nodes, options.nodeLimit);
    EXPECT_EQ(search(problem, options).offsets, walked.offsets)
        << "round " << round;
  }
  EXPECT_GE(lowered, 3);
}

// Without a node limit on two threads, a problem of 5,000 buffers or more
// with alignments (no reduced problem to search beside the original) has
// plans from perturbed orders built on the second thread while the exact
// search keeps the first (Search.cpp, decideBesideReorderings), and their
// walk goes on from where it stopped in the later steps: the plan stays
// valid (search() checks it apart from the planner) and never worse than
// the start.
TEST(Search, LargeAlignedProblemsBuildPlansBesideTheExactSearch) {
  std::mt19937_64 rng(2026120103);
  for (int round = 0; round < 2; ++round) {
    Problem problem =
        generateRandomProblem(rng, traceLikeShape(5000 + 1000 * round));
    SearchOptions options;
    options.seconds = 1.5;
    options.threads = 2;
    Solution solution = search(problem, options);
    EXPECT_LE(solution.arenaSize, solution.search->startArena)
        << "round " << round;
    EXPECT_GT(solution.search->nodes, 0u) << "round " << round;
    EXPECT_GE(solution.arenaSize, computeLowerBound(problem));
  }
}

// The search recurses once per buffer it places. It runs on a stack of its
// own, so a caller on a small stack (here 256 KiB, a few hundred levels)
// does not overflow on a problem of thousands of buffers that the search
// places deep: 300 small packings side by side under one buffer live
// throughout (no point splits the problem).
TEST(Search, DeepSearchesDoNotNeedTheCallersStack) {
  Problem problem;
  problem.buffers.push_back({1, 0, 3000, 1});
  for (uint64_t copy = 0; copy < 300; ++copy)
    for (Buffer buffer : generatePackedProblem(copy, 12, 10, 64).buffers) {
      buffer.start += int64_t(copy) * 10;
      buffer.end += int64_t(copy) * 10;
      problem.buffers.push_back(buffer);
    }
  struct Run {
    const Problem *problem;
    PlanResult result;
  } run{&problem, {}};
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, 256 << 10), 0);
  pthread_t thread;
  auto body = [](void *argument) -> void * {
    Run &run = *static_cast<Run *>(argument);
    SearchOptions options;
    options.nodeLimit = 20000;
    options.seconds = 60;
    run.result = planSearch(*run.problem, options);
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, body, &run), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
  ASSERT_TRUE(run.result.ok());
  EXPECT_FALSE(validateSolution(problem, run.result.solution));
  EXPECT_GT(run.result.solution.search->nodes, 1000u);
}

TEST(Search, ThroughPlanDispatch) {
  Problem problem = generatePackedProblem(11, 40, 30, 512);
  PlanResult result = plan(problem, Algorithm::Search);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(validateSolution(problem, result.solution));
  EXPECT_EQ(parseAlgorithm("search"), Algorithm::Search);
}

// Budgets outside [0, kMaxSearchSeconds] reach the library unchecked from
// any caller: infinity or 1e300 seconds once overflowed the deadline's
// integer ticks (undefined behaviour, flagged by UBSan in the sanitizer
// build), NaN and negative budgets must not hang. Each is clamped; a node
// budget ends the search, and the plan is valid.
TEST(Search, ClampsBudgetsOutsideItsRange) {
  Problem problem = generateRandomProblem(7, 40, 20, 6, 64);
  for (double seconds : {std::numeric_limits<double>::infinity(), 1e300, -1.0,
                         std::numeric_limits<double>::quiet_NaN(),
                         -std::numeric_limits<double>::infinity()}) {
    SearchOptions options;
    options.seconds = seconds;
    options.nodeLimit = 2000;
    options.capacity = 1; // unreachable: the search runs to its budget
    Solution solution = search(problem, options);
    EXPECT_LE(solution.search->nodes, 2000u) << seconds;
    EXPECT_FALSE(solution.search->capacityMet) << seconds;
  }
  EXPECT_FALSE(isValidSearchSeconds(std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(isValidSearchSeconds(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(isValidSearchSeconds(-0.5));
  EXPECT_FALSE(isValidSearchSeconds(kMaxSearchSeconds * 2));
  EXPECT_TRUE(isValidSearchSeconds(0));
  EXPECT_TRUE(isValidSearchSeconds(kMaxSearchSeconds));
}

// The starting plan honours the budget: greedy placement is quadratic where
// many buffers are live at once (100,000 always-live buffers once took 45 s
// of a 10 s budget), so it stops at the deadline and the search starts from
// the naive layout. A budget of 0 s is past at the first clock read
// (placement 256), so this is deterministic.
TEST(Search, StartingPlanStopsAtTheDeadline) {
  Problem problem = generateRandomProblem(11, 2000, 50, 8, 256);
  PlanResult greedy = planGreedyBySize(problem);
  PlanResult naive = planNaive(problem);
  ASSERT_TRUE(greedy.ok() && naive.ok());
  ASSERT_LT(greedy.solution.arenaSize, naive.solution.arenaSize);

  SearchOptions options;
  options.seconds = 0;
  Solution solution = search(problem, options);
  EXPECT_EQ(solution.search->startArena, naive.solution.arenaSize);
  EXPECT_EQ(solution.arenaSize, naive.solution.arenaSize);
  // With time, the same search starts from greedy by size (or better).
  options.seconds = 5;
  options.nodeLimit = 1;
  EXPECT_LE(search(problem, options).search->startArena,
            greedy.solution.arenaSize);
}

} // namespace
