//===- Workloads.cpp - Synthetic allocation problems for benchmarks -------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Workloads.h"

#include "ProblemGenerators.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace memplan;

Problem bench::transformerLike(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint64_t hidden = 1024 * 768 * 2; // one f16 activation of GPT-2 small
  const uint64_t sizes[] = {hidden, 3 * hidden, 4 * hidden, hidden / 4};
  std::uniform_int_distribution<int> pick(0, 3), shortLife(1, 3);
  Problem problem;
  problem.buffers.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    int64_t start = static_cast<int64_t>(i);
    Buffer buffer;
    buffer.start = start;
    buffer.alignment = 256;
    if (i % 50 == 0) { // saved for a backward pass
      buffer.size = hidden;
      buffer.end = start + 200;
    } else if (i % 6 == 0) { // residual stream
      buffer.size = hidden;
      buffer.end = start + 6;
    } else {
      buffer.size = sizes[pick(rng)];
      buffer.end = start + shortLife(rng);
    }
    problem.buffers.push_back(buffer);
  }
  return problem;
}

Problem bench::randomIntervals(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> start(0,
                                               static_cast<int64_t>(count / 4));
  std::uniform_int_distribution<int64_t> length(1, 64);
  std::uniform_int_distribution<uint64_t> size(1, 1 << 20);
  Problem problem;
  problem.buffers.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    Buffer buffer;
    buffer.start = start(rng);
    buffer.end = buffer.start + length(rng);
    buffer.size = size(rng);
    buffer.alignment = 256;
    problem.buffers.push_back(buffer);
  }
  return problem;
}

Problem bench::denseTrace(size_t count, uint64_t seed) {
  return generateDenseTrace(count, seed);
}
