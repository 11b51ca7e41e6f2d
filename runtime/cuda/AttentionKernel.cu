//===- AttentionKernel.cu - Tiled attention with online softmax -----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// FlashAttention's structure (Dao et al. 2022, Algorithm 1; FlashAttention-2
// splits work the same way over query blocks): a block owns a block of
// kQueryRows query rows of one (batch, head) and walks the keys in tiles:
// each K and V tile is loaded once into shared memory and used by every
// query row of the block, while each row's query, running maximum, running
// sum and output accumulator stay in registers (online softmax, rescaled as
// the maximum grows). Scores never reach global memory; the only extra
// memory is the (maximum, sum) pair per row written to the op's scratch,
// the statistics a backward pass would reuse.
//
// Work split: 4 warps per block, kRowsPerWarp query rows per warp; a lane
// holds dimensions lane, lane + 32, ... of each of its rows' query and
// accumulator (head_dim and v_dim <= 256: 8 each). A score is a warp-wide
// dot product (one shuffle reduction per row and key).
//
// Grouped-query attention: query head h reads key/value head
// h / (q_heads / kv_heads); the K/V tile of a block is that head's. Causal:
// query i sees keys j <= i + (kv_len - q_len); tiles beyond the block's
// last visible key are never loaded. A row that sees no key is 0
// (attentionOutput). With token_major a row's output goes to row
// (batch, query, head) of [batch, q_len, q_heads]; the statistics keep the
// [batch, q_heads, q_len] order either way.
//
// Unlike FlashAttention's kernels this one does not use tensor cores
// (mma/wgmma): the dot products are FP32 FMAs. It keeps the memory
// behaviour (K and V read once per query block, not once per query).
//
//===----------------------------------------------------------------------===//

#include "DeviceElements.cuh"
#include "Launchers.h"

using namespace memplan::cuda;

namespace {

constexpr int kWarps = 4;
constexpr int kRowsPerWarp = 4;
constexpr int kQueryRows = kWarps * kRowsPerWarp;
constexpr int kSlots = int(kMaxAttentionDim) / kWarp; // dims per lane
constexpr int kMaxKeyTile = 32;

template <typename T>
__global__ void __launch_bounds__(kWarps *kWarp)
    attentionKernel(mprt_attention_desc d, const T *q, const T *k, const T *v,
                    T *out, float *stats, int keyTile) {
  extern __shared__ float tiles[]; // K tile, then V tile
  float *kTile = tiles;
  float *vTile = tiles + keyTile * d.head_dim;

  int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  int64_t bh = blockIdx.x; // batch * q_heads + head
  int64_t head = bh % d.q_heads, b = bh / d.q_heads;
  int64_t kvHead = head / (d.q_heads / d.kv_heads);
  int64_t kvBase = (b * d.kv_heads + kvHead) * d.kv_len;
  int64_t offset = d.kv_len - d.q_len; // query i sits at key i + offset
  int64_t firstRow = int64_t(blockIdx.y) * kQueryRows;

  // This warp's rows: query, statistics, accumulator in registers.
  float query[kRowsPerWarp][kSlots], accumulator[kRowsPerWarp][kSlots];
  float maximum[kRowsPerWarp], sum[kRowsPerWarp];
  int64_t visible[kRowsPerWarp];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    int64_t i = firstRow + warp * kRowsPerWarp + r;
    bool valid = i < d.q_len;
    visible[r] = !valid ? 0 : d.causal ? i + offset + 1 : d.kv_len;
    if (visible[r] < 0)
      visible[r] = 0;
    maximum[r] = -INFINITY;
    sum[r] = 0;
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      int64_t c = lane + int64_t(s) * kWarp;
      query[r][s] = valid && c < d.head_dim
                        ? toFloat(q[(bh * d.q_len + i) * d.head_dim + c])
                        : 0.0f;
      accumulator[r][s] = 0;
    }
  }

  // Keys any row of the block sees.
  int64_t lastRow = firstRow + kQueryRows - 1;
  if (lastRow >= d.q_len)
    lastRow = d.q_len - 1;
  int64_t blockKeys = d.causal ? lastRow + offset + 1 : d.kv_len;
  if (blockKeys > d.kv_len)
    blockKeys = d.kv_len;

  for (int64_t j0 = 0; j0 < blockKeys; j0 += keyTile) {
    int64_t tileKeys = blockKeys - j0 < keyTile ? blockKeys - j0 : keyTile;
    // Load the K and V tiles (coalesced: consecutive threads, consecutive
    // elements of the contiguous rows j0 .. j0 + tileKeys).
    for (int64_t e = threadIdx.x; e < tileKeys * d.head_dim; e += blockDim.x)
      kTile[e] = toFloat(k[(kvBase + j0) * d.head_dim + e]);
    for (int64_t e = threadIdx.x; e < tileKeys * d.v_dim; e += blockDim.x)
      vTile[e] = toFloat(v[(kvBase + j0) * d.v_dim + e]);
    __syncthreads();

    for (int jj = 0; jj < tileKeys; ++jj) {
      int64_t j = j0 + jj;
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) {
        if (j >= visible[r]) // the same for the whole warp
          continue;
        float partial = 0;
#pragma unroll
        for (int s = 0; s < kSlots; ++s) {
          int64_t c = lane + int64_t(s) * kWarp;
          if (c < d.head_dim)
            partial += query[r][s] * kTile[jj * d.head_dim + c];
        }
        float score = warpSum(partial) * float(d.scale);
        float newMaximum = fmaxf(maximum[r], score);
        float correction = expf(maximum[r] - newMaximum);
        float p = expf(score - newMaximum);
        sum[r] = sum[r] * correction + p;
#pragma unroll
        for (int s = 0; s < kSlots; ++s) {
          int64_t c = lane + int64_t(s) * kWarp;
          if (c < d.v_dim)
            accumulator[r][s] =
                accumulator[r][s] * correction + p * vTile[jj * d.v_dim + c];
        }
        maximum[r] = newMaximum;
      }
    }
    __syncthreads(); // the tiles are overwritten next
  }

#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    int64_t i = firstRow + warp * kRowsPerWarp + r;
    if (i >= d.q_len)
      continue;
    int64_t row = bh * d.q_len + i;
    int64_t outRow = memplan::rt::attentionOutputRow(d, b, head, i);
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      int64_t c = lane + int64_t(s) * kWarp;
      if (c < d.v_dim)
        out[outRow * d.v_dim + c] = fromFloat<T>(
            memplan::rt::attentionOutput(accumulator[r][s], sum[r]));
    }
    if (lane == 0) {
      stats[2 * row] = maximum[r];
      stats[2 * row + 1] = sum[r];
    }
  }
}

} // namespace

cudaError_t memplan::cuda::launchAttention(cudaStream_t stream,
                                           const mprt_attention_desc &d,
                                           const void *q, const void *k,
                                           const void *v, void *out,
                                           float *stats) {
  int64_t rows = d.batch * d.q_heads * d.q_len;
  if (rows == 0)
    return cudaSuccess;
  int64_t queryBlocks = (d.q_len + kQueryRows - 1) / kQueryRows;
  if (d.head_dim > kMaxAttentionDim || d.v_dim > kMaxAttentionDim ||
      d.batch * d.q_heads > 0x7fffffff || queryBlocks > 65535)
    return cudaErrorInvalidValue;
  // The largest key tile whose K and V fit in 48 KiB of shared memory (the
  // default limit, no opt-in needed).
  int keyTile = kMaxKeyTile;
  size_t rowBytes = size_t(d.head_dim + d.v_dim) * sizeof(float);
  while (keyTile > 1 && size_t(keyTile) * rowBytes > 48 * 1024)
    keyTile /= 2;
  size_t shared = size_t(keyTile) * rowBytes;
  dim3 grid(unsigned(d.batch * d.q_heads), unsigned(queryBlocks));
  bool known = dispatchFloat(d.dtype, [&](auto tag) {
    using T = decltype(tag);
    attentionKernel<T><<<grid, kWarps * kWarp, shared, stream>>>(
        d, static_cast<const T *>(q), static_cast<const T *>(k),
        static_cast<const T *>(v), static_cast<T *>(out), stats, keyTile);
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}
