/*===- HostCudaShim.h - CUDA runtime calls, on the CPU ---------------------===*
 *
 * Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
 * See the LICENSE file at the root of the repository.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *-===*
 *
 * Generated code allocates its arena with cudaMalloc and reports memory with
 * cudaMemGetInfo. Built against the host runtime, these calls are served from
 * the process heap (runtime/host/HostCudaShim.cpp), so the same generated
 * source runs without a GPU.
 *
 *===----------------------------------------------------------------------===*/

#ifndef MEMPLAN_RUNTIME_HOSTCUDASHIM_H
#define MEMPLAN_RUNTIME_HOSTCUDASHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int cudaError_t;
#define cudaSuccess 0
#define cudaErrorMemoryAllocation 2
#define cudaMemcpyHostToDevice 1
#define cudaMemcpyDeviceToHost 2
#define cudaMemcpyDeviceToDevice 3
typedef int cudaMemcpyKind;

cudaError_t cudaMalloc(void **pointer, size_t bytes);
cudaError_t cudaFree(void *pointer);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes,
                       cudaMemcpyKind kind);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaDeviceSynchronize(void);
const char *cudaGetErrorString(cudaError_t error);

#ifdef __cplusplus
}
#endif

#endif /* MEMPLAN_RUNTIME_HOSTCUDASHIM_H */
