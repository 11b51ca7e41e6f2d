//===- HostCudaShim.cpp - cudaMalloc and friends on the CPU ---------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The few CUDA runtime calls generated code makes, served from the heap. The
// "device" has 16 GiB; cudaMemGetInfo reports what generated code holds.
//
//===----------------------------------------------------------------------===//

#include "memplan/runtime/HostCudaShim.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace {
constexpr size_t kTotalBytes = size_t(16) << 30;
std::mutex mutex;
size_t inUse = 0;
std::unordered_map<void *, size_t> &sizes() {
  static std::unordered_map<void *, size_t> map;
  return map;
}
} // namespace

extern "C" {

cudaError_t cudaMalloc(void **pointer, size_t bytes) {
  // 256-byte aligned, as cudaMalloc guarantees.
  size_t rounded = (bytes + 255) / 256 * 256;
  void *memory = std::aligned_alloc(256, rounded ? rounded : 256);
  if (!memory)
    return cudaErrorMemoryAllocation;
  std::lock_guard<std::mutex> lock(mutex);
  sizes()[memory] = bytes;
  inUse += bytes;
  *pointer = memory;
  return cudaSuccess;
}

cudaError_t cudaFree(void *pointer) {
  if (!pointer)
    return cudaSuccess;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = sizes().find(pointer);
  if (it != sizes().end()) {
    inUse -= it->second;
    sizes().erase(it);
  }
  std::free(pointer);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes,
                       cudaMemcpyKind) {
  if (bytes)
    std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *freeBytes, size_t *totalBytes) {
  std::lock_guard<std::mutex> lock(mutex);
  *freeBytes = kTotalBytes - inUse;
  *totalBytes = kTotalBytes;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

const char *cudaGetErrorString(cudaError_t error) {
  return error == cudaSuccess ? "no error" : "out of memory";
}

} // extern "C"
