//===- StepCost.cpp - What one GPU's step computes and sends --------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "StepCost.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"
#include "llvm/Support/MathExtras.h"

using namespace memplan;
using namespace memplan::fit;

uint64_t StepCost::sentOver(ProcessGroup group, llvm::StringRef name) const {
  uint64_t bytes = 0;
  for (const auto &[key, value] : sent)
    if (key.first == group && (name.empty() || key.second == name))
      bytes = llvm::SaturatingAdd(bytes, value);
  return bytes;
}

StepCost memplan::fit::extrapolateStepCost(const StepCost &at,
                                           const StepCost &next,
                                           uint64_t steps) {
  auto grow = [&](uint64_t from, uint64_t to) {
    return llvm::SaturatingAdd(
        from, llvm::SaturatingMultiply(to > from ? to - from : 0, steps));
  };
  StepCost cost;
  cost.flops = grow(at.flops, next.flops);
  for (const auto &[key, bytes] : next.sent) {
    auto it = at.sent.find(key);
    cost.sent[key] = grow(it == at.sent.end() ? 0 : it->second, bytes);
  }
  for (const auto &[key, bytes] : at.sent)
    cost.sent.insert({key, bytes});
  return cost;
}

StepCost memplan::fit::countStepCost(mlir::FunctionOpInterface function) {
  StepCost cost;
  function->walk([&](mlir::Operation *op) {
    if (auto recomputable = llvm::dyn_cast<RecomputableOpInterface>(op)) {
      cost.flops = llvm::SaturatingAdd(cost.flops, recomputable.getFlopCount());
      return;
    }
    auto generic = llvm::dyn_cast<GenericOp>(op);
    if (!generic)
      return;
    if (std::optional<uint64_t> flops = generic.getFlops())
      cost.flops = llvm::SaturatingAdd(cost.flops, *flops);
    if (CommunicationAttr comm = generic.getCommAttr()) {
      uint64_t &bytes = cost.sent[{comm.getGroup(), generic.getName().str()}];
      bytes = llvm::SaturatingAdd(bytes, uint64_t(comm.getSentBytes()));
    }
  });
  return cost;
}
