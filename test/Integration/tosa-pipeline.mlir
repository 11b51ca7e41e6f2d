// A TOSA model, as a PyTorch export through TOSA produces it, taken through
// a whole upstream pipeline and memplan's passes in ONE memplan-opt
// invocation: TOSA to linalg, bufferization (returned buffers become
// out-params), deallocation, packing, the independent check of the
// packing, and the lowering to LLVM. Run with mlir-runner with and without
// --memplan-pack-allocs: the printed output is identical.

// RUN: memplan-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, tosa-to-tensor), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-results-to-out-params{hoist-static-allocs modify-public-functions}, buffer-deallocation-pipeline, memplan-pack-allocs, memplan-verify-packing, convert-linalg-to-loops, convert-scf-to-cf, expand-strided-metadata, lower-affine, finalize-memref-to-llvm, convert-math-to-llvm, convert-arith-to-llvm, convert-func-to-llvm, convert-cf-to-llvm, reconcile-unrealized-casts)" -o %t.packed.ll.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: memplan-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, tosa-to-tensor), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-results-to-out-params{hoist-static-allocs modify-public-functions}, buffer-deallocation-pipeline, convert-linalg-to-loops, convert-scf-to-cf, expand-strided-metadata, lower-affine, finalize-memref-to-llvm, convert-math-to-llvm, convert-arith-to-llvm, convert-func-to-llvm, convert-cf-to-llvm, reconcile-unrealized-casts)" -o %t.base.ll.mlir
// RUN: mlir-runner %t.base.ll.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-runner %t.packed.ll.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: diff %t.base.out %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.packed.out

// Two dense layers with a ReLU between them (matmul, bias, clamp, matmul,
// bias): five intermediates of 4x8 f32 (128 bytes), at most two live.
// REMARK: remark: memplan: @mlp: packed {{[0-9]+}} allocations ({{[0-9]+}} bytes) into one arena of 256 bytes (lower bound 256 bytes, greedy-by-size); function peak 256 bytes, 256 bytes with every buffer freed at its last use

// OUTPUT: {{^\[\[\[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}

func.func @mlp(%x: tensor<1x4x8xf32>, %w1: tensor<1x8x8xf32>, %b1: tensor<1x1x8xf32>, %w2: tensor<1x8x8xf32>, %b2: tensor<1x1x8xf32>) -> tensor<1x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %h = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %hb = tosa.add %h, %b1 : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
  %r = tosa.clamp %hb {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %o = tosa.matmul %r, %w2, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %ob = tosa.add %o, %b2 : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
  return %ob : tensor<1x4x8xf32>
}

func.func @main() {
  %x = "tosa.const"() <{values = dense<[[[0.5, -1.0, 2.0, 0.25, -0.5, 1.5, 3.0, -2.0], [1.0, 0.0, -1.0, 2.0, 0.5, 0.5, -0.25, 1.0], [-1.5, 2.5, 0.0, 1.0, -1.0, 0.75, 2.0, 0.5], [0.0, 1.0, 1.0, -3.0, 2.0, -0.5, 0.25, 1.25]]]> : tensor<1x4x8xf32>}> : () -> tensor<1x4x8xf32>
  %w1 = "tosa.const"() <{values = dense<0.125> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %b1 = "tosa.const"() <{values = dense<[[[0.5, -0.5, 0.25, -0.25, 1.0, -1.0, 0.0, 0.75]]]> : tensor<1x1x8xf32>}> : () -> tensor<1x1x8xf32>
  %w2 = "tosa.const"() <{values = dense<-0.25> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %b2 = "tosa.const"() <{values = dense<1.0> : tensor<1x1x8xf32>}> : () -> tensor<1x1x8xf32>
  %y = func.call @mlp(%x, %w1, %b1, %w2, %b2) : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1x1x8xf32>, tensor<1x8x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
  %u = tensor.cast %y : tensor<1x4x8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
