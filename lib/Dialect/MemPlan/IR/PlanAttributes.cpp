//===- PlanAttributes.cpp - Typed access to roles -------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace memplan;

std::optional<ArgumentRole>
memplan::getArgumentRole(FunctionOpInterface function, unsigned index) {
  MemPlanDialect::RoleAttrHelper role(function.getContext());
  if (auto attr =
          function.getArgAttrOfType<ArgumentRoleAttr>(index, role.getName()))
    return attr.getValue();
  return std::nullopt;
}

bool memplan::isHostArgument(FunctionOpInterface function, unsigned index) {
  return function.getArgAttr(
             index, MemPlanDialect::HostAttrHelper::getNameStr()) != nullptr;
}

bool memplan::isCreatedInFirstStep(FunctionOpInterface function,
                                   unsigned index) {
  return function.getArgAttr(
             index,
             MemPlanDialect::CreatedInFirstStepAttrHelper::getNameStr()) !=
         nullptr;
}

ResultRole memplan::getResultRole(OpResult result) {
  Operation *op = result.getOwner();
  ArrayAttr roles =
      MemPlanDialect::ResultRolesAttrHelper(op->getContext()).getAttr(op);
  if (!roles || result.getResultNumber() >= roles.size())
    return ResultRole::Activation;
  if (auto role = dyn_cast<ResultRoleAttr>(roles[result.getResultNumber()]))
    return role.getValue();
  return ResultRole::Activation;
}

void memplan::setResultRoles(Operation *op, ArrayRef<ResultRole> roles) {
  MLIRContext *context = op->getContext();
  SmallVector<Attribute> attrs =
      llvm::map_to_vector(roles, [&](ResultRole role) -> Attribute {
        return ResultRoleAttr::get(context, role);
      });
  MemPlanDialect::ResultRolesAttrHelper(context).setAttr(
      op, ArrayAttr::get(context, attrs));
}
