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

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANATTRIBUTES_TD
