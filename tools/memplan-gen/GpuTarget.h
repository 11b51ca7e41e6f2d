//===- GpuTarget.h - What a graph needs from its GPU ------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANGEN_GPUTARGET_H
#define MEMPLAN_TOOLS_MEMPLANGEN_GPUTARGET_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace memplan::gen {

/// The compute capability named by `sm_<major><minor>` (sm_80, sm_90,
/// sm_100, ...), as major * 10 + minor; none for anything else.
std::optional<int> parseComputeCapability(llvm::StringRef gpu);

/// The cuBLAS workspace NVIDIA recommends for a GPU of compute capability
/// `capability` (major * 10 + minor).
int64_t recommendedCublasWorkspace(int capability);

/// The device memory a PyTorch process holds outside its caching allocator
/// on a GPU of compute capability `capability` once a step's libraries have
/// run: the CUDA context (kernels, the driver's own buffers, the context's
/// stacks) and cuBLAS's and the attention kernels' modules. Not part of any
/// plan: a runtime overhead that tools report on a line of its own.
int64_t typicalCudaContextBytes(int capability);

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_GPUTARGET_H
