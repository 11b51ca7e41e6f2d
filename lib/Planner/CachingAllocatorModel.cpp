//===- CachingAllocatorModel.cpp - PyTorch's CUDA caching allocator -------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/CachingAllocatorModel.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

using namespace memplan;

namespace {

constexpr uint64_t kMinBlockSize = 512;
constexpr uint64_t kSmallSize = uint64_t(1) << 20;      // 1 MiB
constexpr uint64_t kSmallBuffer = uint64_t(2) << 20;    // 2 MiB
constexpr uint64_t kLargeBuffer = uint64_t(20) << 20;   // 20 MiB
constexpr uint64_t kMinLargeAlloc = uint64_t(10) << 20; // 10 MiB
constexpr uint64_t kRoundLarge = uint64_t(2) << 20;     // 2 MiB

uint64_t roundSize(uint64_t bytes) {
  return bytes < kMinBlockSize ? kMinBlockSize
                               : llvm::alignTo(bytes, kMinBlockSize);
}

uint64_t segmentSize(uint64_t rounded) {
  if (rounded <= kSmallSize)
    return kSmallBuffer;
  if (rounded < kMinLargeAlloc)
    return kLargeBuffer;
  return llvm::alignTo(rounded, kRoundLarge);
}

/// The segments and their blocks, by pool. A block is (segment, offset);
/// each segment maps its block offsets to (size, free).
class Allocator {
public:
  /// Allocates `bytes`; returns the block.
  std::pair<uint64_t, uint64_t> allocate(uint64_t bytes) {
    uint64_t size = roundSize(bytes);
    bool small = size <= kSmallSize;
    auto &pool = small ? smallFree : largeFree;
    auto it = pool.lower_bound({size, 0, 0});
    uint64_t segment, offset, blockSize;
    if (it != pool.end()) {
      std::tie(blockSize, segment, offset) = *it;
      pool.erase(it);
    } else {
      segment = segments.size();
      blockSize = segmentSize(size);
      offset = 0;
      segments.push_back({{0, {blockSize, false}}});
      segmentSmall.push_back(small);
      reserved += blockSize;
      peaks.maxReserved = std::max(peaks.maxReserved, reserved);
      ++peaks.segments;
    }
    uint64_t remaining = blockSize - size;
    bool split = small ? remaining >= kMinBlockSize : remaining > kSmallSize;
    auto &blocks = segments[segment];
    if (split) {
      blocks[offset] = {size, false};
      blocks[offset + size] = {remaining, true};
      pool.insert({remaining, segment, offset + size});
      blockSize = size;
    } else {
      blocks[offset] = {blockSize, false};
    }
    allocated += blockSize;
    peaks.maxAllocated = std::max(peaks.maxAllocated, allocated);
    return {segment, offset};
  }

  void free(std::pair<uint64_t, uint64_t> block) {
    auto [segment, offset] = block;
    auto &blocks = segments[segment];
    auto &pool = segmentSmall[segment] ? smallFree : largeFree;
    auto it = blocks.find(offset);
    allocated -= it->second.first;
    it->second.second = true;
    // Merge with the free block after it, then with the free one before.
    auto next = std::next(it);
    if (next != blocks.end() && next->second.second) {
      pool.erase({next->second.first, segment, next->first});
      it->second.first += next->second.first;
      blocks.erase(next);
    }
    if (it != blocks.begin()) {
      auto previous = std::prev(it);
      if (previous->second.second) {
        pool.erase({previous->second.first, segment, previous->first});
        previous->second.first += it->second.first;
        blocks.erase(it);
        it = previous;
      }
    }
    pool.insert({it->second.first, segment, it->first});
  }

  /// What reset_peak_memory_stats() does: the peaks start again from what
  /// is allocated and reserved now.
  void resetPeaks() {
    peaks.maxAllocated = allocated;
    peaks.maxReserved = reserved;
  }

  CachingAllocatorPeaks peaks;

private:
  /// Free blocks by (size, segment, offset): the smallest that fits first,
  /// then the older segment and the lower address.
  std::set<std::tuple<uint64_t, uint64_t, uint64_t>> smallFree, largeFree;
  /// Per segment: offset -> (size, free).
  std::vector<std::map<uint64_t, std::pair<uint64_t, bool>>> segments;
  std::vector<bool> segmentSmall;
  uint64_t allocated = 0, reserved = 0;
};

} // namespace

CachingAllocatorPeaks
memplan::simulateCachingAllocator(const std::vector<TensorLifetime> &tensors,
                                  unsigned steps) {
  // Allocations in (start, index) order, frees in (end, index) order; at a
  // position, frees come first.
  std::vector<size_t> byStart(tensors.size()), byEnd(tensors.size());
  std::iota(byStart.begin(), byStart.end(), 0);
  std::iota(byEnd.begin(), byEnd.end(), 0);
  std::stable_sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) {
    return tensors[a].start < tensors[b].start;
  });
  std::stable_sort(byEnd.begin(), byEnd.end(), [&](size_t a, size_t b) {
    return tensors[a].end < tensors[b].end;
  });
  Allocator allocator;
  std::vector<std::pair<uint64_t, uint64_t>> blocks(tensors.size());
  std::vector<bool> allocated(tensors.size(), false);
  // The previous step's results, freed when this step has returned.
  std::vector<std::pair<uint64_t, uint64_t>> heldFromThePreviousStep;
  for (unsigned step = 0; step < std::max(steps, 1u); ++step) {
    // torch.cuda.reset_peak_memory_stats() before the last step: its peaks
    // start from what is allocated and reserved then.
    if (step && step + 1 == steps)
      allocator.resetPeaks();
    size_t nextFree = 0;
    auto freeUpTo = [&](int64_t position) {
      for (;
           nextFree < byEnd.size() && tensors[byEnd[nextFree]].end <= position;
           ++nextFree)
        if (allocated[byEnd[nextFree]]) {
          allocator.free(blocks[byEnd[nextFree]]);
          allocated[byEnd[nextFree]] = false;
        }
    };
    for (size_t index : byStart) {
      const TensorLifetime &tensor = tensors[index];
      freeUpTo(tensor.start);
      if (tensor.bytes == 0 || tensor.end <= tensor.start)
        continue;
      if (step && tensor.end == kKeptForGood)
        continue; // allocated in the first step, never freed
      if (!step && tensor.fromTheSecondStep)
        continue;
      blocks[index] = allocator.allocate(tensor.bytes);
      allocated[index] = true;
    }
    // The step's tensors still allocated at its end are freed before the
    // next one, but its results, held through the next step, and those kept
    // for good; the previous step's results go now.
    freeUpTo(kHeldThroughTheNextStep - 1);
    for (std::pair<uint64_t, uint64_t> block : heldFromThePreviousStep)
      allocator.free(block);
    heldFromThePreviousStep.clear();
    for (; nextFree < byEnd.size() &&
           tensors[byEnd[nextFree]].end == kHeldThroughTheNextStep;
         ++nextFree)
      if (allocated[byEnd[nextFree]]) {
        heldFromThePreviousStep.push_back(blocks[byEnd[nextFree]]);
        allocated[byEnd[nextFree]] = false;
      }
  }
  return allocator.peaks;
}
