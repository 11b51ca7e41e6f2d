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
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

bool memplan::isWorkgroupMemorySpace(Attribute memorySpace) {
  if (gpu::GPUDialect::isWorkgroupMemoryAddressSpace(memorySpace))
    return true;
  if (!memorySpace)
    return false;
  // After gpu-to-nvvm or gpu-to-rocdl the space is a number: 3 on both
  // targets (NVPTX's shared, AMDGPU's LDS).
  if (auto number = dyn_cast<IntegerAttr>(memorySpace))
    return number.getValue() == 3;
  // Other dialects' spaces (SPIR-V's Workgroup storage class) are known by
  // name: a space that calls itself a workgroup's is taken for one, which
  // at worst keeps buffers apart that could share.
  std::string text;
  llvm::raw_string_ostream os(text);
  memorySpace.print(os);
  return StringRef(text).contains_insensitive("workgroup");
}

bool memplan::isWorkgroupBarrier(Operation *op) {
  return isa<gpu::BarrierOp>(op);
}
