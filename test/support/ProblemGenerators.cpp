//===- ProblemGenerators.cpp - Problems for tests and benchmarks ----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//-===//

#include "ProblemGenerators.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace memplan;

Problem memplan::generateRandomProblem(std::mt19937_64 &rng,
                                       const RandomProblemShape &shape) {
  std::uniform_int_distribution<int64_t> start(0, shape.positions - 1);
  std::uniform_int_distribution<int64_t> length(1, shape.maxLength);
  std::uniform_int_distribution<uint64_t> size(shape.minSize, shape.maxSize);
  std::uniform_int_distribution<int> alignmentShift(0, shape.maxAlignmentShift);
  Problem problem;
  for (size_t i = 0; i < shape.count; ++i) {
    Buffer buffer;
    buffer.start = start(rng);
    buffer.end = buffer.start + length(rng);
    buffer.size = size(rng);
    if (shape.someAligned && i % shape.alignedEvery == 0)
      buffer.alignment = uint64_t(1) << alignmentShift(rng);
    problem.buffers.push_back(buffer);
  }
  return problem;
}

Problem memplan::generateRandomProblem(uint64_t seed, size_t count,
                                       int64_t positions, int64_t maxLength,
                                       uint64_t maxSize) {
  std::mt19937_64 rng(seed);
  return generateRandomProblem(
      rng, {count, positions, maxLength, 1, maxSize, /*someAligned=*/false});
}

RandomProblemShape memplan::traceLikeShape(size_t count) {
  RandomProblemShape shape{};
  shape.count = count;
  shape.positions = 500;
  shape.maxLength = 300;
  shape.minSize = 64;
  shape.maxSize = 1 << 20;
  shape.someAligned = true;
  shape.alignedEvery = 2;
  shape.maxAlignmentShift = 8;
  return shape;
}

Problem memplan::generatePackedProblem(uint64_t seed, size_t count,
                                       int64_t positions, uint64_t height) {
  struct Piece {
    int64_t start, end;
    uint64_t bottom, top;
  };
  std::mt19937_64 rng(seed);
  std::vector<Piece> pieces = {{0, positions, 0, height}};
  // Cut a piece chosen with a probability proportional to its share of the
  // rectangle (its lifetime x its bytes, relative to the whole), so that
  // large pieces are cut more often than thin ones; give up after many
  // misses.
  auto share = [&](const Piece &p) {
    return (double(p.end - p.start) / double(positions)) *
           (double(p.top - p.bottom) / double(height));
  };
  for (size_t misses = 0; pieces.size() < count && misses < 100 * count;) {
    double total = 0;
    for (const Piece &p : pieces)
      total += share(p);
    double pick = std::uniform_real_distribution<double>(0, total)(rng);
    size_t index = 0;
    for (; index + 1 < pieces.size(); ++index) {
      pick -= share(pieces[index]);
      if (pick <= 0)
        break;
    }
    Piece piece = pieces[index];
    bool acrossTime = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    if (acrossTime && piece.end - piece.start >= 2) {
      int64_t at = std::uniform_int_distribution<int64_t>(piece.start + 1,
                                                          piece.end - 1)(rng);
      pieces[index].end = at;
      pieces.push_back({at, piece.end, piece.bottom, piece.top});
    } else if (!acrossTime && piece.top - piece.bottom >= 2) {
      uint64_t at = std::uniform_int_distribution<uint64_t>(piece.bottom + 1,
                                                            piece.top - 1)(rng);
      pieces[index].top = at;
      pieces.push_back({piece.start, piece.end, at, piece.top});
    } else {
      ++misses;
    }
  }
  Problem problem;
  for (const Piece &piece : pieces)
    problem.buffers.push_back(
        {piece.top - piece.bottom, piece.start, piece.end, 1});
  // Present the buffers in a shuffled order, as a compiler would not list
  // them by their packed offsets.
  std::shuffle(problem.buffers.begin(), problem.buffers.end(), rng);
  return problem;
}

Problem memplan::generateDenseTrace(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int64_t positions = std::max<int64_t>(2, count / 2);
  std::uniform_int_distribution<int64_t> start(0, positions - 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto logUniform = [&](double low, double high) {
    return std::exp(std::log(low) +
                    unit(rng) * (std::log(high) - std::log(low)));
  };
  Problem problem;
  problem.buffers.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    Buffer buffer;
    buffer.start = start(rng);
    double kind = unit(rng), length;
    if (kind < 0.25)
      length = 1 + std::floor(unit(rng) * 16);
    else if (kind < 0.4)
      length = logUniform(16, 1024);
    else
      length = logUniform(positions / 10.0 + 1, positions * 0.7 + 2);
    // start < positions, so the clipped end still lies past the start.
    buffer.end = std::min<int64_t>(positions,
                                   buffer.start + std::max<int64_t>(1, length));
    buffer.size = static_cast<uint64_t>(logUniform(64, 8 << 20));
    buffer.alignment = 64;
    problem.buffers.push_back(buffer);
  }
  return problem;
}
