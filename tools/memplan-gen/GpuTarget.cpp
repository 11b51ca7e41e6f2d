//===- GpuTarget.cpp - What a graph needs from its GPU --------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The cuBLAS API reference (cublasSetWorkspace) recommends a user-provided
// workspace of at least 4 MiB, the size of cuBLAS's own default pool, on
// every GPU but Hopper, and 32 MiB on Hopper. PyTorch applies the 32 MiB to
// every GPU of compute capability 9.0 and above (pytorch/pytorch#120925);
// memplan does the same.
//
//===----------------------------------------------------------------------===//

#include "GpuTarget.h"

using namespace memplan::gen;

std::optional<int> memplan::gen::parseComputeCapability(llvm::StringRef gpu) {
  if (!gpu.consume_front("sm_"))
    return std::nullopt;
  // An optional architecture-specific suffix (sm_90a, sm_100a) names the
  // same GPUs.
  if (gpu.ends_with("a") || gpu.ends_with("f"))
    gpu = gpu.drop_back();
  unsigned capability = 0;
  if (gpu.size() < 2 || gpu.size() > 3 || gpu.getAsInteger(10, capability) ||
      capability < 50)
    return std::nullopt;
  return static_cast<int>(capability);
}

int64_t memplan::gen::recommendedCublasWorkspace(int capability) {
  constexpr int64_t kMiB = 1024 * 1024;
  return capability >= 90 ? 32 * kMiB : 4 * kMiB;
}

int64_t memplan::gen::typicalCudaContextBytes(int capability) {
  // Hopper (sm_90: H100, H200), measured on an H200 on 2026-11-27 with
  // PyTorch 2.11 and CUDA 13.0 (scripts/gpu/cuda-context.py, docs/fit.md):
  // the device memory a PyTorch process holds outside its caching allocator
  // once a cuBLAS matmul and a fused attention have run, 692.8 MiB.
  if (capability >= 90 && capability < 100)
    return 726466560;
  // Other generations are not measured yet. With lazy module loading (CUDA
  // 11.7 and later; the default on Linux since CUDA 12.2) only the kernels a
  // process runs are loaded, and a PyTorch maintainer puts the context at
  // "~300MB", against more than 1000 MB when every kernel was loaded at
  // start-up (pytorch/pytorch#107667, 2023). --cuda-context overrides both.
  constexpr int64_t kMiB = 1024 * 1024;
  return 300 * kMiB;
}
