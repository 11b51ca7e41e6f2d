// An scf.for loop carrying a tensor through three GELU layers, between
// layers outside the loop: bufferized upstream (returned buffers become
// out-params), freed by the deallocation pipeline, packed, and run with and
// without the packing: the printed output is unchanged.

// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops" --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" --buffer-deallocation-pipeline -o %t.base.mlir
// RUN: memplan-opt %t.base.mlir --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.packed.mlir
// RUN: mlir-opt %t.base.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: diff %t.base.out %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.packed.out

// The deallocation pipeline frees the loop's initial value through a helper
// that compares pointers (extract_aligned_pointer_as_index): it stays. Each
// iteration's output is yielded to the next: it outlives its iteration and
// stays. The two layers before the loop, the two after it and the
// deallocation helper's own small buffers get three arenas, each freed
// before the next is allocated, so the function's peak stays at 1024 bytes.
// REMARK: remark: memplan: not packed: it is used by 'memref.extract_aligned_pointer_as_index', which neither reads nor writes it (it may keep or expose it)
// REMARK: remark: memplan: not packed: it lives on after the iteration of 'scf.for' that allocates it
// REMARK: remark: memplan: @looped: packed 9 allocations (1044 bytes) into 3 arenas of 512 + 512 + 130 bytes, each live only over the stretch of its buffers (lower bound 512 bytes, greedy-by-size); function peak 1024 bytes, 1024 bytes with every buffer freed at its last use

// PACKED-LABEL: func.func @looped
// PACKED: %[[A:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<512xi8>
// PACKED: memref.dealloc %[[A]] : memref<512xi8>
// PACKED-NEXT: scf.for
// PACKED: %[[B:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<512xi8>
// PACKED: memref.dealloc %[[B]] : memref<512xi8>

// OUTPUT: {{^\[\[-?[0-9]+\.[0-9]+, -?[0-9]+\.[0-9]+}}
// OUTPUT-COUNT-3: {{^ \[-?[0-9]+\.[0-9]+, -?[0-9]+\.[0-9]+}}

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>

func.func @looped(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // Before the loop: two layers.
  %e0 = tensor.empty() : tensor<4x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m0 = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e1 = tensor.empty() : tensor<4x16xf32>
  %h0 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]} ins(%m0, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%e1 : tensor<4x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m1 = linalg.matmul ins(%h0, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  // The loop.
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %m1) -> (tensor<4x16xf32>) {
    %e = tensor.empty() : tensor<4x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    %m = linalg.matmul ins(%h, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
    %e3 = tensor.empty() : tensor<4x16xf32>
    %n = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%e3 : tensor<4x16xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      %t = math.tanh %s : f32
      linalg.yield %t : f32
    } -> tensor<4x16xf32>
    scf.yield %n : tensor<4x16xf32>
  }
  // After the loop: two more layers.
  %e4 = tensor.empty() : tensor<4x16xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m4 = linalg.matmul ins(%r, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f4 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e5 = tensor.empty() : tensor<4x16xf32>
  %h5 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]} ins(%m4, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%e5 : tensor<4x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  %e6 = tensor.empty() : tensor<4x16xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m6 = linalg.matmul ins(%h5, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f6 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m6 : tensor<4x16xf32>
}

func.func @main() {
  %e = tensor.empty() : tensor<16x16xf32>
  %w = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<16x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.muli %i, %j : index
    %s = arith.addi %ij, %i : index
    %k = arith.index_cast %s : index to i32
    %f = arith.sitofp %k : i32 to f32
    %c = arith.constant 0.013 : f32
    %v = arith.mulf %f, %c : f32
    %r = math.sin %v : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %x = tensor.extract_slice %w[3, 0] [4, 16] [1, 1] : tensor<16x16xf32> to tensor<4x16xf32>
  %b = tensor.extract_slice %w[5, 0] [1, 16] [1, 1] : tensor<16x16xf32> to tensor<16xf32>
  %y = func.call @looped(%x, %w, %b) : (tensor<4x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %u = tensor.cast %y : tensor<4x16xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(%ptr : tensor<*xf32>)
