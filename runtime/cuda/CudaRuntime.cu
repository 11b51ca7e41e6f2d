//===- CudaRuntime.cu - The runtime interface on a CUDA GPU ---------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime interface of Runtime.h on a CUDA GPU: the context (a stream,
// a cuBLAS handle, one device word of data-error bits), argument checks,
// matmuls through cuBLAS (cublasGemmStridedBatchedEx) on the workspace the
// caller carves from the arena, and copies; every other op is a kernel
// launched through Launchers.h (ElementwiseKernels.cu, RowKernels.cu,
// TransposeKernels.cu, AttentionKernel.cu). No function here allocates
// device memory after mprt_create, none waits for the device except
// mprt_synchronize and mprt_checksum, and every CUDA and cuBLAS status is
// checked and returned.
//
//===----------------------------------------------------------------------===//

#include "memplan/runtime/Runtime.h"

#include "../common/ElementSemantics.h"
#include "Launchers.h"

#include <cublas_v2.h>

#include <cstdio>
#include <new>
#include <vector>

using namespace memplan::cuda;

struct mprt_context {
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
  int *errorFlag = nullptr; // device word of memplan::rt::DataError bits
  char lastError[256] = "";
};

namespace {

int cudaFailed(mprt_context *context, cudaError_t error, const char *what) {
  snprintf(context->lastError, sizeof(context->lastError), "%s: %s", what,
           cudaGetErrorString(error));
  return MPRT_ERROR_CUDA;
}

int cublasFailed(mprt_context *context, cublasStatus_t status,
                 const char *what) {
  snprintf(context->lastError, sizeof(context->lastError), "%s: %s", what,
           cublasGetStatusString(status));
  return MPRT_ERROR_CUBLAS;
}

int invalid(mprt_context *context, const char *message) {
  snprintf(context->lastError, sizeof(context->lastError), "%s", message);
  return MPRT_ERROR_INVALID_ARGUMENT;
}

/// The status of a launcher's queued kernel.
int launched(mprt_context *context, cudaError_t error, const char *what) {
  if (error == cudaSuccess)
    return MPRT_OK;
  // Launchers answer cudaErrorInvalidValue for a dtype or size their kernels
  // do not handle (as CUDA does for a launch it cannot make): say which.
  if (error == cudaErrorInvalidValue) {
    snprintf(context->lastError, sizeof(context->lastError),
             "%s: a dtype, size or launch shape it does not handle", what);
    return MPRT_ERROR_INVALID_ARGUMENT;
  }
  return cudaFailed(context, error, what);
}

bool isFloat(mprt_dtype dtype) {
  return dtype == MPRT_F32 || dtype == MPRT_F16 || dtype == MPRT_BF16;
}

cudaDataType_t cudaTypeOf(mprt_dtype dtype) {
  switch (dtype) {
  case MPRT_F16:
    return CUDA_R_16F;
  case MPRT_BF16:
    return CUDA_R_16BF;
  default:
    return CUDA_R_32F;
  }
}

} // namespace

extern "C" {

int mprt_create(mprt_context **result) {
  mprt_context *context = new (std::nothrow) mprt_context();
  if (!context)
    return MPRT_ERROR_OUT_OF_MEMORY;
  *result = context;
  cudaError_t error = cudaStreamCreate(&context->stream);
  if (error != cudaSuccess)
    return cudaFailed(context, error, "cudaStreamCreate");
  error =
      cudaMalloc(reinterpret_cast<void **>(&context->errorFlag), sizeof(int));
  if (error != cudaSuccess)
    return cudaFailed(context, error, "cudaMalloc (error flag)");
  error = cudaMemset(context->errorFlag, 0, sizeof(int));
  if (error != cudaSuccess)
    return cudaFailed(context, error, "cudaMemset");
  cublasStatus_t status = cublasCreate(&context->cublas);
  if (status != CUBLAS_STATUS_SUCCESS)
    return cublasFailed(context, status, "cublasCreate");
  // cublasSetStream resets the workspace to cuBLAS's own pool; every matmul
  // sets the arena's workspace again right before its GEMM.
  status = cublasSetStream(context->cublas, context->stream);
  if (status != CUBLAS_STATUS_SUCCESS)
    return cublasFailed(context, status, "cublasSetStream");
  return MPRT_OK;
}

void mprt_destroy(mprt_context *context) {
  if (!context)
    return;
  if (context->cublas)
    cublasDestroy(context->cublas);
  if (context->errorFlag)
    cudaFree(context->errorFlag);
  if (context->stream)
    cudaStreamDestroy(context->stream);
  delete context;
}

int mprt_synchronize(mprt_context *context) {
  cudaError_t error = cudaStreamSynchronize(context->stream);
  if (error != cudaSuccess)
    return cudaFailed(context, error, "synchronize");
  // Errors the kernels found in data since the last synchronisation.
  int errors = 0;
  error = cudaMemcpy(&errors, context->errorFlag, sizeof(int),
                     cudaMemcpyDeviceToHost);
  if (error != cudaSuccess)
    return cudaFailed(context, error, "error flag read");
  if (!errors)
    return MPRT_OK;
  error = cudaMemset(context->errorFlag, 0, sizeof(int));
  if (error != cudaSuccess)
    return cudaFailed(context, error, "error flag reset");
  return invalid(context, memplan::rt::dataErrorMessage(errors));
}

const char *mprt_status_string(int status) {
  return memplan::rt::statusString(status);
}

const char *mprt_last_error(mprt_context *context) {
  return context ? context->lastError : "";
}

size_t mprt_dtype_bytes(mprt_dtype dtype) {
  return memplan::rt::dtypeBytes(dtype);
}

int mprt_copy(mprt_context *context, void *dst, const void *src, size_t bytes) {
  if (!bytes || dst == src)
    return MPRT_OK;
  cudaError_t error = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                                      context->stream);
  return error == cudaSuccess ? MPRT_OK
                              : cudaFailed(context, error, "cudaMemcpyAsync");
}

int mprt_matmul(mprt_context *context, const mprt_matmul_desc *d, const void *a,
                const void *b, void *c, void *workspace,
                size_t workspaceBytes) {
  if (!isFloat(d->dtype))
    return invalid(context, "matmul needs a float dtype");
  if (!workspace && workspaceBytes)
    return invalid(context, "matmul workspace is null but has bytes");
  cublasStatus_t status =
      cublasSetWorkspace(context->cublas, workspace, workspaceBytes);
  if (status != CUBLAS_STATUS_SUCCESS)
    return cublasFailed(context, status, "cublasSetWorkspace");
  // Row-major C = A B is column-major C^T = B^T A^T.
  float alpha = 1.0f, beta = 0.0f;
  cudaDataType_t type = cudaTypeOf(d->dtype);
  status = cublasGemmStridedBatchedEx(
      context->cublas, d->transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N,
      d->transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N, int(d->n), int(d->m),
      int(d->k), &alpha, b, type, int(d->transpose_b ? d->k : d->n),
      d->stride_b, a, type, int(d->transpose_a ? d->m : d->k), d->stride_a,
      &beta, c, type, int(d->n), d->m * d->n, int(d->batch), CUBLAS_COMPUTE_32F,
      CUBLAS_GEMM_DEFAULT);
  return status == CUBLAS_STATUS_SUCCESS
             ? MPRT_OK
             : cublasFailed(context, status, "cublasGemmStridedBatchedEx");
}

int mprt_binary(mprt_context *context, mprt_binary_op op, mprt_dtype dtype,
                const void *a, const int64_t *aShape, const void *b,
                const int64_t *bShape, void *out, const int64_t *outShape,
                int rank) {
  if (rank > MPRT_MAX_RANK)
    return invalid(context, "rank too large");
  return launched(context,
                  launchBinary(context->stream, op, dtype, a, aShape, b, bShape,
                               out, outShape, rank, context->errorFlag),
                  "binary kernel");
}

int mprt_unary(mprt_context *context, mprt_unary_op op, mprt_dtype dtype,
               const void *in, void *out, int64_t count) {
  if (!isFloat(dtype))
    return invalid(context, "activations need a float dtype");
  return launched(context,
                  launchUnary(context->stream, op, dtype, in, out, count),
                  "unary kernel");
}

int mprt_softmax(mprt_context *context, mprt_dtype dtype, const void *in,
                 void *out, int64_t outer, int64_t axis, int64_t inner) {
  if (!isFloat(dtype))
    return invalid(context, "softmax needs a float dtype");
  return launched(
      context,
      launchSoftmax(context->stream, dtype, in, out, outer, axis, inner),
      "softmax kernel");
}

int mprt_norm(mprt_context *context, mprt_dtype dtype, int rms, const void *in,
              const void *gamma, const void *beta, void *out, int64_t rows,
              int64_t cols, double epsilon) {
  if (!isFloat(dtype))
    return invalid(context, "normalisation needs a float dtype");
  return launched(context,
                  launchNorm(context->stream, dtype, rms, in, gamma, beta, out,
                             rows, cols, float(epsilon)),
                  "norm kernel");
}

int mprt_embedding(mprt_context *context, mprt_dtype dtype, const void *table,
                   mprt_dtype idDtype, const void *ids, void *out,
                   int64_t count, int64_t vocab, int64_t hidden) {
  if (!isFloat(dtype))
    return MPRT_ERROR_UNSUPPORTED;
  // Ids are device data: the kernel flags a bad one and mprt_synchronize
  // reports it, so the stream never waits here.
  return launched(context,
                  launchEmbedding(context->stream, dtype, table, idDtype, ids,
                                  out, count, vocab, hidden,
                                  context->errorFlag),
                  "embedding kernel");
}

int mprt_rope(mprt_context *context, mprt_dtype dtype, const void *in,
              mprt_dtype positionDtype, const void *positions, void *out,
              int64_t batch, int64_t seq, int64_t heads, int64_t headDim,
              double theta) {
  if (!isFloat(dtype))
    return invalid(context, "rope needs a float dtype");
  if (headDim > kMaxRopeHeadDim)
    return MPRT_ERROR_UNSUPPORTED;
  return launched(context,
                  launchRope(context->stream, dtype, in, positionDtype,
                             positions, out, batch, seq, heads, headDim, theta),
                  "rope kernel");
}

int mprt_transpose(mprt_context *context, size_t elementBytes, const void *in,
                   const int64_t *inShape, const int64_t *perm, int rank,
                   void *out) {
  if (rank > MPRT_MAX_RANK)
    return invalid(context, "rank too large");
  return launched(context,
                  launchTranspose(context->stream, elementBytes, in, inShape,
                                  perm, rank, out),
                  "transpose kernel");
}

int mprt_slice(mprt_context *context, size_t elementBytes, const void *in,
               const int64_t *inShape, const int64_t *offsets,
               const int64_t *outShape, int rank, void *out) {
  if (rank > MPRT_MAX_RANK)
    return invalid(context, "rank too large");
  return launched(context,
                  launchSlice(context->stream, elementBytes, in, inShape,
                              offsets, outShape, rank, out),
                  "slice kernel");
}

int mprt_concat_part(mprt_context *context, size_t elementBytes, const void *in,
                     void *out, int64_t outer, int64_t inAxis, int64_t outAxis,
                     int64_t at, int64_t inner) {
  size_t width = size_t(inAxis * inner) * elementBytes;
  if (width == 0 || outer == 0)
    return MPRT_OK;
  cudaError_t error = cudaMemcpy2DAsync(
      static_cast<char *>(out) + size_t(at * inner) * elementBytes,
      size_t(outAxis * inner) * elementBytes, in, width, width, size_t(outer),
      cudaMemcpyDeviceToDevice, context->stream);
  return error == cudaSuccess ? MPRT_OK
                              : cudaFailed(context, error, "concat copy");
}

int mprt_cast(mprt_context *context, mprt_dtype from, const void *in,
              mprt_dtype to, void *out, int64_t count) {
  return launched(context,
                  launchCast(context->stream, from, in, to, out, count),
                  "cast kernel");
}

int mprt_attention(mprt_context *context, const mprt_attention_desc *d,
                   const void *q, const void *k, const void *v, void *out,
                   void *scratch) {
  if (d->kv_heads <= 0 || d->q_heads % d->kv_heads != 0)
    return invalid(context, "query heads must be a multiple of kv heads");
  if (!isFloat(d->dtype))
    return invalid(context, "attention needs a float dtype");
  if (d->head_dim > kMaxAttentionDim || d->v_dim > kMaxAttentionDim)
    return MPRT_ERROR_UNSUPPORTED;
  return launched(context,
                  launchAttention(context->stream, *d, q, k, v, out,
                                  static_cast<float *>(scratch)),
                  "attention kernel");
}

int mprt_kv_cache_update(mprt_context *context, size_t elementBytes,
                         void *cache, const void *update, int64_t batch,
                         int64_t heads, int64_t maxLen, int64_t newLen,
                         int64_t headDim, int64_t position) {
  if (position < 0 || position > maxLen - newLen)
    return invalid(context, "KV-cache position out of range");
  size_t width = size_t(newLen * headDim) * elementBytes;
  if (width == 0 || batch * heads == 0)
    return MPRT_OK;
  cudaError_t error = cudaMemcpy2DAsync(
      static_cast<char *>(cache) + size_t(position * headDim) * elementBytes,
      size_t(maxLen * headDim) * elementBytes, update, width, width,
      size_t(batch * heads), cudaMemcpyDeviceToDevice, context->stream);
  return error == cudaSuccess ? MPRT_OK
                              : cudaFailed(context, error, "KV-cache copy");
}

int mprt_fill(mprt_context *context, mprt_dtype dtype, void *data,
              int64_t count, int64_t seed) {
  return launched(context,
                  launchFill(context->stream, dtype, data, count, seed),
                  "fill kernel");
}

int mprt_checksum(mprt_context *context, const void *data, size_t bytes,
                  uint64_t *hash) {
  std::vector<unsigned char> host(bytes);
  if (bytes) {
    cudaError_t error = cudaMemcpyAsync(
        host.data(), data, bytes, cudaMemcpyDeviceToHost, context->stream);
    if (error == cudaSuccess)
      error = cudaStreamSynchronize(context->stream);
    if (error != cudaSuccess)
      return cudaFailed(context, error, "checksum copy");
  }
  uint64_t h = 1469598103934665603ull;
  for (unsigned char byte : host) {
    h ^= byte;
    h *= 1099511628211ull;
  }
  *hash = h;
  return MPRT_OK;
}

} // extern "C"
