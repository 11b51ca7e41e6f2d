//===- WorkgroupMemory.h - Memory a workgroup's threads share ---*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A function whose buffers live in GPU workgroup memory is run by every
// thread of a workgroup at once, each at its own pace, on the same buffers.
// One thread's last use of a buffer says nothing about another's: a buffer
// may give its bytes to a later one only where every thread has passed a
// barrier after the last use (gpu.barrier: all threads wait there, and the
// accesses before it are visible after it). The other memory spaces are
// each execution's own (a thread's private memory, or what an allocation on
// the host or a device heap gives one caller), as memplan plans them.
//
// No upstream interface says which memory spaces an op's threads share or
// which ops synchronise them, so both are named here, in one place.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_WORKGROUPMEMORY_H
#define MEMPLAN_ANALYSIS_WORKGROUPMEMORY_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Operation.h"

namespace memplan {

/// Whether `memorySpace` is GPU workgroup memory: the GPU dialect's
/// #gpu.address_space<workgroup>, address space 3, its number in the NVVM
/// and ROCDL lowerings (NVGPU's shared memory takes either), or another
/// dialect's space whose name says workgroup (#spirv.storage_class<Workgroup>).
bool isWorkgroupMemorySpace(mlir::Attribute memorySpace);

/// Whether `op` holds every thread of a workgroup until all have reached
/// it, and makes their workgroup memory accesses before it visible to all
/// after it (gpu.barrier). Other barriers (nvvm.barrier0, a SPIR-V control
/// barrier) are not recognised: buffers around them stay apart.
bool isWorkgroupBarrier(mlir::Operation *op);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_WORKGROUPMEMORY_H
