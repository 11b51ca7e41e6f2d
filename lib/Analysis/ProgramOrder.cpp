//===- ProgramOrder.cpp - Positions of every op of a function -------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/ProgramOrder.h"

using namespace mlir;
using namespace memplan;

ProgramOrder::ProgramOrder(Region &body) {
  // Pre-order gives each op its begin; post-order, which visits an op after
  // everything inside it, closes its span.
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    spans[op] = {count, count + 1};
    ++count;
  });
  body.walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t last = spans[op].second;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty())
          last = std::max(last, spans[&block.back()].second);
    spans[op].second = last;
  });
}
