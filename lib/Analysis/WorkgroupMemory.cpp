//===- WorkgroupMemory.cpp - Memory a workgroup's threads share -----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

bool memplan::isWorkgroupMemorySpace(Attribute memorySpace) {
  if (gpu::GPUDialect::isWorkgroupMemoryAddressSpace(memorySpace))
    return true;
  // After gpu-to-nvvm or gpu-to-rocdl the space is a number: 3 on both
  // targets (NVPTX's shared, AMDGPU's LDS).
  auto number = dyn_cast_if_present<IntegerAttr>(memorySpace);
  return number && number.getValue() == 3;
}

bool memplan::isWorkgroupBarrier(Operation *op) {
  return isa<gpu::BarrierOp>(op);
}
