//===- CachingAllocatorModel.h - PyTorch's caching allocator ----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What `torch.cuda.max_memory_allocated()` and `max_memory_reserved()` would
// show for a program whose tensors are allocated and freed as a plan's
// buffers live, when every tensor is its own allocation in PyTorch's CUDA
// caching allocator (c10/cuda/CUDACachingAllocator.cpp, default settings:
// no expandable segments, no max_split_size, one stream, no empty_cache):
//
//   * a request is rounded up to a multiple of 512 bytes (at least 512);
//   * requests of at most 1 MiB come from the small pool, whose segments are
//     2 MiB; larger ones from the large pool, whose segments are 20 MiB for
//     requests under 10 MiB and the request rounded up to 2 MiB otherwise;
//   * a request takes the smallest free block of its pool that fits (ties:
//     the older segment, the lower address), else a new segment;
//   * the block is split when what remains is at least 512 bytes (small
//     pool) or more than 1 MiB (large pool), else handed out whole;
//   * a freed block merges with free neighbours of its segment; segments are
//     never released, so a training loop's later steps run on the segments
//     its earlier steps made (simulateCachingAllocator's `steps`).
//
// "Allocated" counts the blocks handed out (a block not split counts whole),
// "reserved" the segments. This is a model of memplan's, not PyTorch's code:
// it reproduces the documented policy, not its every detail.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_PLANNER_CACHINGALLOCATORMODEL_H
#define MEMPLAN_PLANNER_CACHINGALLOCATORMODEL_H

#include <cstdint>
#include <limits>
#include <vector>

namespace memplan {

/// The end of a tensor that is never freed (the weights, a kept workspace):
/// allocated in the first step only.
constexpr int64_t kKeptForGood = std::numeric_limits<int64_t>::max();
/// The end of a tensor a step returns: held until the next step has
/// returned its own (a loop that reassigns the result drops the old one
/// then), so a step ends with the last step's result and its own.
constexpr int64_t kHeldThroughTheNextStep = kKeptForGood - 1;

/// One tensor: `bytes`, allocated before position `start` and freed after
/// position `end - 1` (as a plan's buffer lives over [start, end)), never
/// (`end` kKeptForGood), or at the end of the next step (`end`
/// kHeldThroughTheNextStep).
struct TensorLifetime {
  uint64_t bytes = 0;
  int64_t start = 0;
  int64_t end = 0;
  /// Not allocated in the first step, where another tensor holds its
  /// memory (the `.grad` that takes over the first gradient).
  bool fromTheSecondStep = false;
};

struct CachingAllocatorPeaks {
  uint64_t maxAllocated = 0; ///< torch.cuda.max_memory_allocated()
  uint64_t maxReserved = 0;  ///< torch.cuda.max_memory_reserved()
  uint64_t segments = 0;     ///< cudaMalloc calls
};

/// Replays the tensors through the model `steps` times, as a training loop
/// runs its step: at each position, the tensors whose lifetime ended are
/// freed first, then those that start there are allocated, in the order
/// given. A tensor kept for good is allocated in the first step only; one
/// held through the next step in every step, and freed at the end of the
/// step after it. The later steps run on the segments the earlier ones
/// left (never released). With more than one step the peaks are the last
/// step's, as read after torch.cuda.reset_peak_memory_stats() before it;
/// `segments` counts every step's.
CachingAllocatorPeaks
simulateCachingAllocator(const std::vector<TensorLifetime> &tensors,
                         unsigned steps = 1);

} // namespace memplan

#endif // MEMPLAN_PLANNER_CACHINGALLOCATORMODEL_H
