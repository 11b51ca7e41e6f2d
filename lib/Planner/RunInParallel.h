//===- RunInParallel.h - Independent calls on a few threads -----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. A handful of long, independent calls (the
// portfolio's members, the search's starting plans) over threads of their
// own. llvm::parallelFor would share LLVM's global executor, whose size the
// planner's callers do not set, and runs nested calls one after another; the
// planner's thread counts are its own options (SearchOptions::threads), as
// its search threads are, so it starts exactly that many here.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_RUNINPARALLEL_H
#define MEMPLAN_LIB_PLANNER_RUNINPARALLEL_H

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace memplan {

/// The threads to use for `threads` requested (0: the machine's hardware
/// threads, at least one) and `tasks` tasks.
inline unsigned threadsFor(unsigned threads, size_t tasks) {
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<size_t>(threads, tasks));
}

/// Calls `fn(i)` for every i in [0, count), on up to `threads` threads (the
/// calling one included; see threadsFor), each taking the next index as it
/// becomes free, and returns when every call has. Which thread runs which
/// index depends on timing: `fn(i)` must depend only on `i`, and write only
/// what index `i` owns.
template <typename Fn>
void runInParallel(size_t count, unsigned threads, Fn &&fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < count; i = next++)
      fn(i);
  };
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threadsFor(threads, count); ++t)
    helpers.emplace_back(work);
  work();
  for (std::thread &helper : helpers)
    helper.join();
}

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_RUNINPARALLEL_H
