//===- TransposeKernels.cu - Permutations and slices ----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A permutation that moves the last dimension is a batch of 2-D transposes
// between the input's last dimension (A) and the input dimension that
// becomes the output's last (B): each block moves a 32 x 32 tile through
// shared memory, reading rows of A and writing rows of B, so both the read
// and the write are coalesced (the classic tiled transpose; the tile has one
// padding column against bank conflicts). The other dimensions index the
// tile's batch (blockIdx.z, striding). A permutation that keeps the last
// dimension, and a slice, copy runs of contiguous elements with a gather in
// which consecutive threads read and write consecutive addresses.
//
// Elements are moved as unsigned integers of their size (1, 2, 4 or 8
// bytes): a transpose does not look at values.
//
//===----------------------------------------------------------------------===//

#include "DeviceElements.cuh"
#include "Launchers.h"

using namespace memplan::cuda;

namespace {

constexpr int kTile = 32;
constexpr int kTileRows = 8; ///< threadIdx.y extent: 4 elements per thread

struct TiledTranspose {
  int64_t lengthA, lengthB; ///< sizes of dimensions A and B
  int64_t inStrideB;        ///< input stride of B (A's is 1)
  int64_t outStrideA;       ///< output stride of A (B's is 1)
  int64_t batches;          ///< product of the other dimensions
  /// The other dimensions, outermost first: size, input and output stride.
  int64_t otherSizes[MPRT_MAX_RANK], otherIn[MPRT_MAX_RANK],
      otherOut[MPRT_MAX_RANK];
  int others;
};

template <typename E>
__global__ void tiledTransposeKernel(const E *in, E *out, TiledTranspose t) {
  __shared__ E tile[kTile][kTile + 1];
  int64_t a0 = int64_t(blockIdx.x) * kTile, b0 = int64_t(blockIdx.y) * kTile;
  for (int64_t batch = blockIdx.z; batch < t.batches; batch += gridDim.z) {
    int64_t inBase = 0, outBase = 0, rest = batch;
    for (int d = t.others - 1; d >= 0; --d) {
      int64_t index = rest % t.otherSizes[d];
      rest /= t.otherSizes[d];
      inBase += index * t.otherIn[d];
      outBase += index * t.otherOut[d];
    }
    // Read rows of A (contiguous in the input).
    int64_t a = a0 + threadIdx.x;
    for (int r = threadIdx.y; r < kTile; r += kTileRows) {
      int64_t b = b0 + r;
      if (a < t.lengthA && b < t.lengthB)
        tile[r][threadIdx.x] = in[inBase + b * t.inStrideB + a];
    }
    __syncthreads();
    // Write rows of B (contiguous in the output).
    int64_t b = b0 + threadIdx.x;
    for (int r = threadIdx.y; r < kTile; r += kTileRows) {
      int64_t aOut = a0 + r;
      if (aOut < t.lengthA && b < t.lengthB)
        out[outBase + aOut * t.outStrideA + b] = tile[threadIdx.x][r];
    }
    __syncthreads(); // the tile is reused by the next batch
  }
}

/// out[i] = in[source(i)]: output dimension d reads input dimension
/// perm[d] at offset offsets[d].
template <typename E>
__global__ void gatherKernel(const E *in, Shape inShape, Shape outShape,
                             Shape perm, Shape offsets, int rank, E *out,
                             int64_t count) {
  int64_t inStrides[MPRT_MAX_RANK];
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    inStrides[d] = stride;
    stride *= inShape.dims[d];
  }
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t source = 0, rest = i;
    for (int d = rank - 1; d >= 0; --d) {
      int64_t index = rest % outShape.dims[d] + offsets.dims[d];
      rest /= outShape.dims[d];
      source += index * inStrides[perm.dims[d]];
    }
    out[i] = in[source];
  }
}

/// Calls `f(E{})` with the unsigned integer type of `bytes`.
template <typename F> bool dispatchBytes(size_t bytes, F &&f) {
  switch (bytes) {
  case 1:
    f(uint8_t{});
    return true;
  case 2:
    f(uint16_t{});
    return true;
  case 4:
    f(uint32_t{});
    return true;
  case 8:
    f(uint64_t{});
    return true;
  default:
    return false;
  }
}

cudaError_t gather(cudaStream_t stream, size_t elementBytes, const void *in,
                   const Shape &inShape, const Shape &outShape,
                   const Shape &perm, const Shape &offsets, int rank, void *out,
                   int64_t count) {
  bool known = dispatchBytes(elementBytes, [&](auto tag) {
    using E = decltype(tag);
    gatherKernel<E><<<blocksFor(count), kThreads, 0, stream>>>(
        static_cast<const E *>(in), inShape, outShape, perm, offsets, rank,
        static_cast<E *>(out), count);
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

} // namespace

cudaError_t memplan::cuda::launchTranspose(cudaStream_t stream,
                                           size_t elementBytes, const void *in,
                                           const int64_t *inShape,
                                           const int64_t *perm, int rank,
                                           void *out) {
  Shape outShape{}, zero{};
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    outShape.dims[d] = inShape[perm[d]];
    count *= outShape.dims[d];
  }
  if (count == 0)
    return cudaSuccess;
  int dimA = rank - 1, dimB = rank > 0 ? int(perm[rank - 1]) : 0;
  if (rank < 2 || dimA == dimB)
    return gather(stream, elementBytes, in, toShape(inShape, rank), outShape,
                  toShape(perm, rank), zero, rank, out, count);

  int64_t inStrides[MPRT_MAX_RANK], outStrides[MPRT_MAX_RANK],
      outStrideOfInput[MPRT_MAX_RANK];
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    inStrides[d] = stride;
    stride *= inShape[d];
  }
  stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    outStrides[d] = stride;
    stride *= outShape.dims[d];
  }
  for (int d = 0; d < rank; ++d)
    outStrideOfInput[perm[d]] = outStrides[d];
  TiledTranspose t{};
  t.lengthA = inShape[dimA];
  t.lengthB = inShape[dimB];
  t.inStrideB = inStrides[dimB];
  t.outStrideA = outStrideOfInput[dimA];
  t.batches = 1;
  for (int d = 0; d < rank; ++d) {
    if (d == dimA || d == dimB)
      continue;
    t.otherSizes[t.others] = inShape[d];
    t.otherIn[t.others] = inStrides[d];
    t.otherOut[t.others] = outStrideOfInput[d];
    t.batches *= inShape[d];
    ++t.others;
  }
  int64_t tilesA = (t.lengthA + kTile - 1) / kTile;
  int64_t tilesB = (t.lengthB + kTile - 1) / kTile;
  if (tilesA > 0x7fffffff || tilesB > 65535)
    return gather(stream, elementBytes, in, toShape(inShape, rank), outShape,
                  toShape(perm, rank), zero, rank, out, count);
  dim3 grid(unsigned(tilesA), unsigned(tilesB),
            unsigned(t.batches < 65535 ? t.batches : 65535));
  dim3 block(kTile, kTileRows);
  bool known = dispatchBytes(elementBytes, [&](auto tag) {
    using E = decltype(tag);
    tiledTransposeKernel<E><<<grid, block, 0, stream>>>(
        static_cast<const E *>(in), static_cast<E *>(out), t);
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t memplan::cuda::launchSlice(cudaStream_t stream, size_t elementBytes,
                                       const void *in, const int64_t *inShape,
                                       const int64_t *offsets,
                                       const int64_t *outShape, int rank,
                                       void *out) {
  Shape identity{};
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    identity.dims[d] = d;
    count *= outShape[d];
  }
  if (count == 0)
    return cudaSuccess;
  return gather(stream, elementBytes, in, toShape(inShape, rank),
                toShape(outShape, rank), identity, toShape(offsets, rank), rank,
                out, count);
}
