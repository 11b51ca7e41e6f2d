//===- memplan-translate.cpp - memplan translations -----------------------===//
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
