// memplan-opt reads whatever mlir-opt 22 reads: every upstream dialect is
// registered. (It once knew seven dialects, misparsed the generic form of
// affine.for as affine.if under --allow-unregistered-dialect, and crashed
// on one file.)
// RUN: memplan-opt %s | FileCheck %s
// RUN: memplan-opt %s --mlir-print-op-generic | memplan-opt | FileCheck %s
// RUN: memplan-opt %s | mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @kernels
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK: affine.apply
// CHECK: affine.load
// CHECK: math.exp
// CHECK: affine.store
// CHECK: vector.transfer_read
// CHECK: vector.transfer_write
// CHECK: tosa.clamp
// CHECK: tensor.pad
// CHECK: llvm.func @raw
// CHECK: gpu.module @device
// CHECK: gpu.func @kernel() kernel
#double = affine_map<(d0) -> (d0 * 2)>
module {
  func.func @kernels(%x: memref<8xf32>, %t: tensor<4xf32>) -> (vector<4xf32>, tensor<4xf32>, tensor<6xf32>) {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    affine.for %i = 0 to 4 {
      %j = affine.apply #double(%i)
      %e = affine.load %x[%j] : memref<8xf32>
      %s = math.exp %e : f32
      affine.store %s, %x[%j] : memref<8xf32>
    }
    %v = vector.transfer_read %x[%c0], %pad : memref<8xf32>, vector<4xf32>
    vector.transfer_write %v, %x[%c0] : vector<4xf32>, memref<8xf32>
    %r = tosa.clamp %t {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
    %p = tensor.pad %r low[1] high[1] {
    ^bb0(%k: index):
      tensor.yield %pad : f32
    } : tensor<4xf32> to tensor<6xf32>
    return %v, %r, %p : vector<4xf32>, tensor<4xf32>, tensor<6xf32>
  }
  llvm.func @raw(%p: !llvm.ptr) -> f32 {
    %v = llvm.load %p : !llvm.ptr -> f32
    llvm.return %v : f32
  }
  gpu.module @device {
    gpu.func @kernel() kernel {
      gpu.return
    }
  }
}
