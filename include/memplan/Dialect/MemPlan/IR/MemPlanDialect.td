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
  let cppNamespace = "::memplan";
  let summary = "Transformer graphs on statically shaped tensors, for memory planning";
  let description = [{
    The `memplan` dialect describes transformer graphs (GPT, LLaMA, BERT
    blocks; inference and training steps) as ops on ranked, statically shaped
    tensors. Every op knows the shapes it accepts and produces, and tells the
    memory planner through `BufferPlanningOpInterface` which results are views,
    which may be computed in place, and how much scratch memory it needs.
    `memplan.op` is a generic op for anything else whose sizes are all the
    planner needs.

    A plan, and the roles of arguments and results, are written as the
    discardable attributes below (`memplan.offsets`, ...; see
    `PlanAttributes.h` for what each means), read and written through the
    generated helpers (`MemPlanDialect::OffsetsAttrHelper`, ...) and verified
    by the dialect's hooks.
  }];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let useDefaultAttributePrinterParser = 1;
  let discardableAttrs = (ins
    // The plan of --plan-offsets.
    "::mlir::DenseI64ArrayAttr":$offsets,
    "::mlir::DenseI64ArrayAttr":$destinations,
    "::mlir::IntegerAttr":$scratch_offset,
    "::mlir::IntegerAttr":$arena_size,
    "::mlir::IntegerAttr":$lower_bound,
    "::mlir::IntegerAttr":$alignment,
    // The lower bound of the input order, written by --memplan-schedule.
    "::mlir::IntegerAttr":$unscheduled_lower_bound,
    // Rematerialisation (--memplan-fit-budget): on each op it added, and on
    // the function, the lower bound before it and the operations added.
    "::mlir::UnitAttr":$recomputed,
    "::mlir::IntegerAttr":$unrematerialized_lower_bound,
    "::mlir::IntegerAttr":$recomputed_flops,
    // Roles and names, written by memplan-gen.
    "::memplan::ArgumentRoleAttr":$role,
    // On an argument in the host's (pinned CPU) memory, not the GPU's:
    // ZeRO-Offload's optimizer partition. Not in the device total.
    "::mlir::UnitAttr":$host,
    // On an argument the framework creates in the first step, not before
    // it: torch.optim's optimizer states, autograd's .grad. Read by the
    // caching-allocator model of --memplan-memory-report.
    "::mlir::UnitAttr":$created_in_first_step,
    "::mlir::StringAttr":$name,
    "::mlir::ArrayAttr":$result_roles,
    // The arenas of --memplan-pack-allocs.
    "::mlir::UnitAttr":$arena,
    "::mlir::IntegerAttr":$arena_alignment
  );
}

class MemPlan_Op<string mnemonic, list<Trait> traits = []>
    : Op<MemPlan_Dialect, mnemonic, traits>;

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_TD
