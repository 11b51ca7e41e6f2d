//===- MemPlanAttributes.td - Roles, as enum attributes -- -*- tablegen -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANATTRIBUTES_TD
#define MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANATTRIBUTES_TD

include "memplan/Dialect/MemPlan/IR/MemPlanDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def MemPlan_ArgumentRole : I32EnumAttr<"ArgumentRole",
    "what a function argument holds", [
  I32EnumAttrCase<"Weight", 0, "weight">,
  I32EnumAttrCase<"QuantizationScale", 1, "quantization_scale">,
  I32EnumAttrCase<"Input", 2, "input">,
  I32EnumAttrCase<"KvCache", 3, "kv_cache">,
  I32EnumAttrCase<"OptimizerState", 4, "optimizer_state">,
  I32EnumAttrCase<"MasterWeight", 5, "master_weight">,
  I32EnumAttrCase<"GradientAccumulator", 6, "gradient_accumulator">,
  I32EnumAttrCase<"CommunicationBuffer", 7, "communication_buffer">,
]> {
  let cppNamespace = "::memplan";
  let genSpecializedAttr = 0;
}

def MemPlan_ResultRole : I32EnumAttr<"ResultRole",
    "what an op's result holds", [
  I32EnumAttrCase<"Activation", 0, "activation">,
  I32EnumAttrCase<"Gradient", 1, "gradient">,
  I32EnumAttrCase<"Loss", 2, "loss">,
  I32EnumAttrCase<"Gathered", 3, "gathered">,
]> {
  let cppNamespace = "::memplan";
  let genSpecializedAttr = 0;
}

def MemPlan_ProcessGroup : I32EnumAttr<"ProcessGroup",
    "the GPUs a communication op runs over", [
  I32EnumAttrCase<"Data", 0, "data">,
  I32EnumAttrCase<"Tensor", 1, "tensor">,
  I32EnumAttrCase<"Pipeline", 2, "pipeline">,
  I32EnumAttrCase<"Host", 3, "host">,
]> {
  let cppNamespace = "::memplan";
  let genSpecializedAttr = 0;
}

/// `#memplan.role<weight>`: the role of a function argument (memplan.role).
def MemPlan_ArgumentRoleAttr
    : EnumAttr<MemPlan_Dialect, MemPlan_ArgumentRole, "role"> {
  let assemblyFormat = "`<` $value `>`";
}

/// `#memplan.result_role<gradient>`: the role of a result, in the array
/// memplan.result_roles (one per result).
def MemPlan_ResultRoleAttr
    : EnumAttr<MemPlan_Dialect, MemPlan_ResultRole, "result_role"> {
  let assemblyFormat = "`<` $value `>`";
}

/// `#memplan.comm<tensor, ranks = 4, sent_bytes = 786432>`: a generic op
/// that communicates (a collective, a send or a receive), what it runs over,
/// and the bytes this GPU sends when it runs.
def MemPlan_CommunicationAttr
    : AttrDef<MemPlan_Dialect, "Communication"> {
  let mnemonic = "comm";
  let summary = "The process group of a communication op and what it sends";
  let description = [{
    `group` is the process group (the data-parallel, tensor-parallel or
    pipeline GPUs), or `host` for a copy between the GPU and its host's
    memory (PCIe; `ranks` = 1), `ranks` the GPUs in it, and `sent_bytes`
    the bytes this GPU sends over its links (for `host`: moves over that
    link, either way) each time the op runs, as its producer
    implements the op (memplan-gen: ring collectives, 2 (n - 1) / n of the
    buffer for an all-reduce, (n - 1) / n of the whole for an all-gather or
    a reduce-scatter, the tensor for a send, nothing for a receive). Cost
    models read it (memplan-fit's step time); memory planning does not.
  }];
  let parameters = (ins EnumParameter<MemPlan_ProcessGroup>:$group,
                        "int64_t":$ranks, "int64_t":$sentBytes);
  let assemblyFormat = [{
    `<` $group `,` `ranks` `=` $ranks `,` `sent_bytes` `=` $sentBytes `>`
  }];
  let genVerifyDecl = 1;
}

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANATTRIBUTES_TD
