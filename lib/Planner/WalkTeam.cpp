//===- WalkTeam.cpp - Threads that share one gap walk ---------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "WalkTeam.h"

#include "GapWalk.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

using namespace memplan;

namespace {

/// Spins before a waiting thread yields (a result) or sleeps (the next
/// walk): about a tenth of a millisecond, many times a walk's length.
constexpr unsigned kSpins = 1 << 12;

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

/// Waits until `value` reads `number`; spins, then yields.
void waitFor(const std::atomic<uint64_t> &value, uint64_t number) {
  for (unsigned spins = 0; value.load(std::memory_order_acquire) != number;
       ++spins) {
    if (spins < kSpins)
      pause();
    else
      std::this_thread::yield();
  }
}

} // namespace

struct WalkTeam::Impl {
  /// What one thread does and leaves for the others, each on lines of its
  /// own.
  struct alignas(64) Member {
    std::atomic<uint64_t> topDone{0}; // the walk whose first pass is done
    uint64_t top = 0;                 // the range's highest top meeting
    alignas(64) std::atomic<uint64_t> searchDone{0};
    GapSearch result{0, 0, false};
    SplitGapWalk split;
    std::thread thread;
  };

  /// The walk the threads share, written by the caller before `walkNumber`.
  struct Walk {
    const OffsetOrderedList *list = nullptr;
    uint32_t first = 0, last = 0;
    GapSearch search{0, 0, false};
    bool vector = true;
  };

  explicit Impl(unsigned threads) {
    assert(threads >= 2);
    for (unsigned k = 0; k < threads; ++k)
      members.push_back(std::make_unique<Member>());
    for (unsigned k = 1; k < threads; ++k)
      members[k]->thread = std::thread([this, k] { help(k); });
  }

  ~Impl() {
    stopping = true;
    announce(walkNumber.load() + 1);
    for (size_t k = 1; k < members.size(); ++k)
      members[k]->thread.join();
  }

  /// Publishes walk `number` (or the stop) and wakes sleeping helpers.
  void announce(uint64_t number) {
    walkNumber.store(number); // sequentially consistent with `sleepers`
    if (sleepers.load() > 0) {
      std::lock_guard<std::mutex> lock(mutex);
      wake.notify_all();
    }
  }

  /// A helper's life: each walk as it is announced, until the stop.
  void help(unsigned k) {
    uint64_t seen = 0;
    while (true) {
      for (unsigned spins = 0;
           walkNumber.load(std::memory_order_acquire) == seen && spins < kSpins;
           ++spins)
        pause();
      if (walkNumber.load() == seen) {
        std::unique_lock<std::mutex> lock(mutex);
        ++sleepers;
        wake.wait(lock, [&] { return walkNumber.load() != seen; });
        --sleepers;
      }
      seen = walkNumber.load();
      if (stopping)
        return;
      run(k, seen);
    }
  }

  /// Thread k's share of walk `number`: its range's two passes, the second
  /// from the cursor of the ranges before it.
  void run(unsigned k, uint64_t number) {
    Member &member = *members[k];
    size_t blocks = walk.list->blockCount(), threads = members.size();
    size_t begin = blocks * k / threads, end = blocks * (k + 1) / threads;
    member.top = member.split.firstPass(*walk.list, begin, end, walk.first,
                                        walk.last, walk.vector);
    member.topDone.store(number, std::memory_order_release);
    GapSearch search = walk.search;
    for (unsigned j = 0; j < k; ++j) {
      waitFor(members[j]->topDone, number);
      search.cursor = std::max(search.cursor, members[j]->top);
    }
    member.split.secondPass(search);
    member.result = search;
    member.searchDone.store(number, std::memory_order_release);
  }

  std::vector<std::unique_ptr<Member>> members; // 0: the caller's
  Walk walk;
  alignas(64) std::atomic<uint64_t> walkNumber{0};
  std::atomic<unsigned> sleepers{0};
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::condition_variable wake;
};

WalkTeam::WalkTeam(unsigned threads) : impl(new Impl(threads)) {}
WalkTeam::~WalkTeam() = default;

unsigned WalkTeam::size() const {
  return static_cast<unsigned>(impl->members.size());
}

bool WalkTeam::pays(const OffsetOrderedList &list) const {
  return list.blockCount() >= kBlocksPerThread * impl->members.size();
}

void WalkTeam::walk(const OffsetOrderedList &list, uint32_t first,
                    uint32_t last, GapSearch &search, bool vector) {
  assert(!search.recorded && !search.found);
  impl->walk = {&list, first, last, search, vector};
  uint64_t number = impl->walkNumber.load(std::memory_order_relaxed) + 1;
  impl->announce(number);
  impl->run(0, number);
  // One walk stops at the first range whose search is decided (first fit
  // found its gap, or best fit one of exactly the size, which nothing
  // beats), with that range's cursor; otherwise it ends with the cursor
  // above every range, the last range's. The gap is the earliest range's
  // (first fit) or the smallest, the earliest of equal ones.
  GapSearch result = search;
  for (size_t k = 0; k < impl->members.size(); ++k) {
    if (k)
      waitFor(impl->members[k]->searchDone, number);
    const GapSearch &range = impl->members[k]->result;
    result.cursor = range.cursor;
    if (range.found && (!result.found || range.bestGap < result.bestGap)) {
      result.found = true;
      result.bestGap = range.bestGap;
      result.bestOffset = range.bestOffset;
    }
    if (range.found && (search.firstFit || range.bestGap == search.size))
      break;
  }
  // Every helper is done before the list may change.
  for (size_t k = 1; k < impl->members.size(); ++k)
    waitFor(impl->members[k]->searchDone, number);
  search = result;
}
