//===- Launchers.h - How the CUDA runtime launches kernels ------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One host function per kernel family, defined next to its kernels
// (ElementwiseKernels.cu, RowKernels.cu, TransposeKernels.cu,
// AttentionKernel.cu): each picks the template instance for the dtype and a
// launch shape, queues the kernel on `stream` and returns the launch's
// status (cudaErrorInvalidValue for a dtype it does not handle). Arguments
// are checked by CudaRuntime.cu before.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_RUNTIME_CUDA_LAUNCHERS_H
#define MEMPLAN_RUNTIME_CUDA_LAUNCHERS_H

#include "memplan/runtime/Runtime.h"

#include <cuda_runtime.h>

namespace memplan::cuda {

cudaError_t launchBinary(cudaStream_t stream, mprt_binary_op op,
                         mprt_dtype dtype, const void *a, const int64_t *aShape,
                         const void *b, const int64_t *bShape, void *out,
                         const int64_t *outShape, int rank, int *errorFlag);
cudaError_t launchUnary(cudaStream_t stream, mprt_unary_op op, mprt_dtype dtype,
                        const void *in, void *out, int64_t count);
cudaError_t launchCast(cudaStream_t stream, mprt_dtype from, const void *in,
                       mprt_dtype to, void *out, int64_t count);
cudaError_t launchFill(cudaStream_t stream, mprt_dtype dtype, void *data,
                       int64_t count, int64_t seed);
cudaError_t launchEmbedding(cudaStream_t stream, mprt_dtype dtype,
                            const void *table, mprt_dtype idDtype,
                            const void *ids, void *out, int64_t count,
                            int64_t vocab, int64_t hidden, int *errorFlag);

cudaError_t launchSoftmax(cudaStream_t stream, mprt_dtype dtype, const void *in,
                          void *out, int64_t outer, int64_t axis,
                          int64_t inner);
cudaError_t launchNorm(cudaStream_t stream, mprt_dtype dtype, int rms,
                       const void *in, const void *gamma, const void *beta,
                       void *out, int64_t rows, int64_t cols, float epsilon);
/// RoPE over heads of at most kMaxRopeHeadDim elements.
constexpr int64_t kMaxRopeHeadDim = 1024;
cudaError_t launchRope(cudaStream_t stream, mprt_dtype dtype, const void *in,
                       mprt_dtype positionDtype, const void *positions,
                       void *out, int64_t batch, int64_t seq, int64_t heads,
                       int64_t headDim, double theta);

cudaError_t launchTranspose(cudaStream_t stream, size_t elementBytes,
                            const void *in, const int64_t *inShape,
                            const int64_t *perm, int rank, void *out);
cudaError_t launchSlice(cudaStream_t stream, size_t elementBytes,
                        const void *in, const int64_t *inShape,
                        const int64_t *offsets, const int64_t *outShape,
                        int rank, void *out);

/// Attention with head_dim and v_dim of at most kMaxAttentionDim.
constexpr int64_t kMaxAttentionDim = 256;
cudaError_t launchAttention(cudaStream_t stream, const mprt_attention_desc &d,
                            const void *q, const void *k, const void *v,
                            void *out, float *stats);

} // namespace memplan::cuda

#endif // MEMPLAN_RUNTIME_CUDA_LAUNCHERS_H
