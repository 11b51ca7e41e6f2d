//===- MemPlanDialect.td - The memplan dialect -------------*- tablegen -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_TD
#define MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_TD

include "mlir/IR/OpBase.td"

def MemPlan_Dialect : Dialect {
  let name = "memplan";
  let cppNamespace = "::mlir::memplan";
  let summary = "Transformer graphs on statically shaped tensors, for memory planning";
  let description = [{
    The `memplan` dialect describes transformer graphs (GPT, LLaMA, BERT
    blocks; inference and training steps) as ops on ranked, statically shaped
    tensors. Every op knows the shapes it accepts and produces, and tells the
    memory planner through `BufferPlanningOpInterface` which results are views,
    which may be computed in place, and how much scratch memory it needs.
    `memplan.op` is a generic op for anything else whose sizes are all the
    planner needs.

    A plan is written as discardable `memplan.*` attributes (see
    `PlanAttributes.h`), which the dialect verifies.
  }];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
}

class MemPlan_Op<string mnemonic, list<Trait> traits = []>
    : Op<MemPlan_Dialect, mnemonic, traits>;

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_TD
