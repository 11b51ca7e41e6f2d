//===- GpuProbe.cu - Is there a GPU to run on? ----------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Exit 0 and print the device's name and compute capability if a CUDA
// device can be used; otherwise print why and exit 77, the code the `gpu`
// tests (gpu-check.sh) pass on to ctest as "skipped".
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cstdio>

int main() {
  int count = 0;
  cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess || count == 0) {
    std::printf("no GPU: %s\n", error != cudaSuccess ? cudaGetErrorString(error)
                                                     : "no CUDA device");
    return 77;
  }
  cudaDeviceProp properties;
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) {
    std::printf("no GPU: cannot read the properties of device 0\n");
    return 77;
  }
  std::printf("GPU: %s, compute capability %d.%d, %zu bytes\n", properties.name,
              properties.major, properties.minor, properties.totalGlobalMem);
  return 0;
}
