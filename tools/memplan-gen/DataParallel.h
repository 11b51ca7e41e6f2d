//===- DataParallel.h - One rank's step: DDP and ZeRO 1-3 -------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The end of a data-parallel training step as one rank runs it, from the
// weights' gradients (GraphBuilder::backward): DDP's bucketed all-reduce,
// and ZeRO's reduction and step on this rank's partition
// (DataParallelOptions says what each stage keeps). ZeRO-3's weight
// gathering is the graph builder's (GraphBuilder::shardWeights).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANGEN_DATAPARALLEL_H
#define MEMPLAN_TOOLS_MEMPLANGEN_DATAPARALLEL_H

#include "GraphBuilder.h"
#include "TransformerGenerator.h"

#include <string>
#include <utility>

namespace memplan::gen {

/// A trainable weight and what holds its gradient (the backward pass's
/// value, or the gradient buffer it was accumulated into).
using Gradient = std::pair<mlir::Value, mlir::Value>;

/// DDP: each gradient copied into its bucket as it is computed, each bucket
/// all-reduced once full; returns what the optimizer reads for each weight
/// (the gradient, copied back from its bucket, or the bucket itself with
/// gradient_as_bucket_view).
llvm::SmallVector<Gradient>
allReduceBuckets(GraphBuilder &g, const GeneratorOptions &o,
                 llvm::SmallVector<Gradient> gradients);

/// ZeRO stages 1-3: the reduction (stage 1: of the gradient buffers the
/// gradients were accumulated into), the optimizer step on this rank's
/// partition and, for stages 1 and 2, the weights all-gathered in place.
/// `act` is the activation (and float weight) type.
void zeroStep(GraphBuilder &g, const GeneratorOptions &o, mlir::Type act,
              llvm::SmallVector<Gradient> gradients);

/// Bytes of one gradient element as the data-parallel reduction moves it:
/// 4 with f32 gradient buffers or f32 weights, else the 16-bit weights' 2.
int64_t reducedGradientBytes(const GeneratorOptions &o);

/// The bucket size when --bucket-size is not given: DDP's bucket_cap_mb
/// (25 MiB), or DeepSpeed's reduce_bucket_size of 5e8 reduced elements.
int64_t defaultBucketBytes(const GeneratorOptions &o);

/// Why the data-parallel options cannot make a step; empty if they can.
std::string checkDataParallel(const GeneratorOptions &o);

/// The error for `--<flag> index` outside [0, count) of `what` ("--rank 4
/// is not one of the 4 data-parallel ranks (0 to 3)"); empty if inside.
std::string checkIndex(llvm::StringRef flag, int64_t index, int64_t count,
                       llvm::StringRef what);

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_DATAPARALLEL_H
