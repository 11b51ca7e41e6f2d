//===- TranslateToCuda.h - Planned graphs to CUDA C++ -----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A direct emitter: reads the plan written by --plan-offsets (never plans
// again), proves it with the validator, and writes C++ that calls the
// memplan runtime (runtime/include/memplan/runtime/Runtime.h). See
// docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TARGET_CUDA_TRANSLATETOCUDA_H
#define MEMPLAN_TARGET_CUDA_TRANSLATETOCUDA_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace memplan {

struct CudaEmitterOptions {
  /// Also emit a `main` that fills the arguments deterministically, runs one
  /// function once and prints the arena, device memory and a checksum.
  bool emitMain = false;
  /// The function `main` runs; empty: the first function with a body.
  std::string mainFunction;
};

/// Writes the CUDA C++ of every planned function of `module` to `os`. Fails,
/// with a diagnostic and nothing written, on an unplanned function, an
/// invalid plan, or an op without a lowering.
mlir::LogicalResult translateToCuda(mlir::Operation *module,
                                    llvm::raw_ostream &os,
                                    const CudaEmitterOptions &options);

/// Registers `--memplan-to-cuda` with mlir-translate style drivers.
void registerToCudaTranslation();

} // namespace memplan

#endif // MEMPLAN_TARGET_CUDA_TRANSLATETOCUDA_H
