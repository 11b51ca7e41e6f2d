//===- memplan-translate.cpp - memplan translations -----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   memplan-translate --memplan-to-cuda planned.mlir -o model.cu
//
//===----------------------------------------------------------------------===//

#include "memplan/Target/Cuda/TranslateToCuda.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::memplan::registerToCudaTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "memplan translation driver\n"));
}
