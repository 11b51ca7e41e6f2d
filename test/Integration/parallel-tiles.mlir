// Tiled kernels whose tiles run in parallel, in the style a tiling compiler
// emits (scf.forall over tiles with shared_outs, per-tile temporaries as
// tensors of the loop body): a row-tiled softmax and a 2-D tiled
// matmul + bias + ReLU. Bufferized upstream, freed by the deallocation
// pipeline, packed, lowered and run with and without packing; untiled
// reference kernels in the same program print the same values.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" --buffer-deallocation-pipeline -o %t.base.mlir
// RUN: memplan-opt %t.base.mlir --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.packed.mlir
// RUN: mlir-opt %t.base.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: diff %t.base.out %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.packed.out
// RUN: sed -n 1,8p %t.packed.out > %t.softmax.tiled
// RUN: sed -n 9,16p %t.packed.out > %t.softmax.reference
// RUN: diff %t.softmax.tiled %t.softmax.reference
// RUN: sed -n 17,24p %t.packed.out > %t.matmul.tiled
// RUN: sed -n 25,32p %t.packed.out > %t.matmul.reference
// RUN: diff %t.matmul.tiled %t.matmul.reference

// Each iteration of a parallel loop gets a slot of its own in the
// function's arena; buffers of one iteration reuse each other's bytes.
// In the peaks, a buffer of a parallel loop counts once per iteration
// (all iterations may run at once), with and without packing.
// REMARK: remark: memplan: each of the 4 iterations of 'scf.forall' has a slot of 192 bytes for its 3 allocations (144 bytes, lower bound 136 bytes)
// REMARK: remark: memplan: @softmax_rows: packed 3 allocations (576 bytes) into one arena of 768 bytes (lower bound 544 bytes, greedy-by-size); function peak 768 bytes, 768 bytes with every buffer freed at its last use
// REMARK: remark: memplan: each of the 4 iterations of 'scf.forall' has a slot of 128 bytes for its 2 allocations (128 bytes, lower bound 128 bytes)
// REMARK: remark: memplan: @matmul_bias_relu: packed 2 allocations (512 bytes) into one arena of 512 bytes (lower bound 512 bytes, greedy-by-size); function peak 512 bytes, 512 bytes with every buffer freed at its last use

// The slot of iteration k starts at k * 192 bytes; k counts the tiles.
// PACKED-LABEL: func.func @softmax_rows
// PACKED: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<768xi8>
// PACKED: scf.forall (%[[I:.*]]) = (0) to (8) step (2) {
// PACKED: %[[STEP:.*]] = arith.constant 2 : index
// PACKED: %[[K:.*]] = arith.divui %[[I]], %[[STEP]] : index
// PACKED: %[[STRIDE:.*]] = arith.constant 192 : index
// PACKED: %[[SKIP:.*]] = arith.muli %[[K]], %[[STRIDE]] : index
// PACKED: %[[AT:.*]] = arith.addi %{{.*}}, %[[SKIP]] : index
// PACKED: memref.view %[[ARENA]][%[[AT]]][] : memref<768xi8> to memref<2xf32>
// PACKED-NOT: memref.alloc
// PACKED: }
// PACKED: memref.dealloc %[[ARENA]] : memref<768xi8>

// The tiled kernels and the references print the same values, exactly
// (each tile sums in the order the reference does): four arrays, of 8 rows
// each, the first rows of the softmaxes and of the matmuls equal.
// OUTPUT: {{^}}[[SOFTMAX:\[\[0\.[0-9]+,.*]]
// OUTPUT-COUNT-7: {{^ \[}}
// OUTPUT-NEXT: {{^}}[[SOFTMAX]]
// OUTPUT-COUNT-7: {{^ \[}}
// OUTPUT-NEXT: {{^}}[[MATMUL:\[\[.*]]
// OUTPUT-COUNT-7: {{^ \[}}
// OUTPUT-NEXT: {{^}}[[MATMUL]]
// OUTPUT-COUNT-7: {{^ \[}}

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// Softmax of each row, two rows per tile.
func.func @softmax_rows(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %init = tensor.empty() : tensor<8x16xf32>
  %r = scf.forall (%i) = (0) to (8) step (2) shared_outs(%o = %init) -> (tensor<8x16xf32>) {
    %tile = tensor.extract_slice %x[%i, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
    %os = tensor.extract_slice %o[%i, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
    %ninf = arith.constant -3.0e38 : f32
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<2xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<2xf32>) -> tensor<2xf32>
    %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%tile : tensor<2x16xf32>) outs(%m0 : tensor<2xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = arith.maximumf %a, %acc : f32
      linalg.yield %v : f32
    } -> tensor<2xf32>
    %e1 = tensor.empty() : tensor<2x16xf32>
    %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%tile, %m : tensor<2x16xf32>, tensor<2xf32>) outs(%e1 : tensor<2x16xf32>) {
    ^bb0(%a: f32, %mx: f32, %out: f32):
      %d = arith.subf %a, %mx : f32
      %v = math.exp %d : f32
      linalg.yield %v : f32
    } -> tensor<2x16xf32>
    %e2 = tensor.empty() : tensor<2xf32>
    %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
    %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<2x16xf32>) outs(%s0 : tensor<2xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = arith.addf %a, %acc : f32
      linalg.yield %v : f32
    } -> tensor<2xf32>
    %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %s : tensor<2x16xf32>, tensor<2xf32>) outs(%os : tensor<2x16xf32>) {
    ^bb0(%a: f32, %sum: f32, %out: f32):
      %v = arith.divf %a, %sum : f32
      linalg.yield %v : f32
    } -> tensor<2x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %y into %o[%i, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
    }
  }
  return %r : tensor<8x16xf32>
}

func.func @softmax_reference(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %os = tensor.empty() : tensor<8x16xf32>
  %ninf = arith.constant -3.0e38 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x16xf32>) outs(%m0 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.maximumf %a, %acc : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8x16xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<8x16xf32>, tensor<8xf32>) outs(%e1 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %d = arith.subf %a, %mx : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<8x16xf32>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %a, %acc : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %s : tensor<8x16xf32>, tensor<8xf32>) outs(%os : tensor<8x16xf32>) {
  ^bb0(%a: f32, %sum: f32, %out: f32):
    %v = arith.divf %a, %sum : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// relu(a b + bias) in 4x4 tiles of the 8x8 result: a 2-D parallel loop.
func.func @matmul_bias_relu(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %bias: tensor<8xf32>) -> tensor<8x8xf32> {
  %init = tensor.empty() : tensor<8x8xf32>
  %r = scf.forall (%i, %j) = (0, 0) to (8, 8) step (4, 4) shared_outs(%o = %init) -> (tensor<8x8xf32>) {
    %ta = tensor.extract_slice %a[%i, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
    %tb = tensor.extract_slice %b[0, %j] [8, 4] [1, 1] : tensor<8x8xf32> to tensor<8x4xf32>
    %tc = tensor.extract_slice %bias[%j] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %os = tensor.extract_slice %o[%i, %j] [4, 4] [1, 1] : tensor<8x8xf32> to tensor<4x4xf32>
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<4x4xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %acc = linalg.matmul ins(%ta, %tb : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc0 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %e1 = tensor.empty() : tensor<4x4xf32>
    %biased = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %tc : tensor<4x4xf32>, tensor<4xf32>) outs(%e1 : tensor<4x4xf32>) {
    ^bb0(%x: f32, %c: f32, %out: f32):
      %v = arith.addf %x, %c : f32
      linalg.yield %v : f32
    } -> tensor<4x4xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%biased : tensor<4x4xf32>) outs(%os : tensor<4x4xf32>) {
    ^bb0(%x: f32, %out: f32):
      %v = arith.maximumf %x, %zero : f32
      linalg.yield %v : f32
    } -> tensor<4x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %y into %o[%i, %j] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
    }
  }
  return %r : tensor<8x8xf32>
}

func.func @matmul_reference(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %bias: tensor<8xf32>) -> tensor<8x8xf32> {
  %os = tensor.empty() : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x8xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %acc = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%acc0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<8x8xf32>
  %biased = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %bias : tensor<8x8xf32>, tensor<8xf32>) outs(%e1 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %c: f32, %out: f32):
    %v = arith.addf %x, %c : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%biased : tensor<8x8xf32>) outs(%os : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %v = arith.maximumf %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// Deterministic inputs: sin of the element index times a phase.
func.func @pattern(%phase: f32) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %t = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c16 = arith.constant 16 : index
    %r = arith.muli %i, %c16 : index
    %n = arith.addi %r, %j : index
    %w = arith.index_cast %n : index to i32
    %f = arith.sitofp %w : i32 to f32
    %p = arith.mulf %f, %phase : f32
    %s = math.sin %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %t : tensor<8x16xf32>
}

func.func @main() {
  %p1 = arith.constant 0.37 : f32
  %p2 = arith.constant 0.53 : f32
  %x = func.call @pattern(%p1) : (f32) -> tensor<8x16xf32>
  %w = func.call @pattern(%p2) : (f32) -> tensor<8x16xf32>
  %s1 = func.call @softmax_rows(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s2 = func.call @softmax_reference(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = tensor.extract_slice %x[0, 0] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
  %b = tensor.extract_slice %w[0, 8] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
  %bias = tensor.extract_slice %w[3, 0] [1, 8] [1, 1] : tensor<8x16xf32> to tensor<8xf32>
  %m1 = func.call @matmul_bias_relu(%a, %b, %bias) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
  %m2 = func.call @matmul_reference(%a, %b, %bias) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
  %u1 = tensor.cast %s1 : tensor<8x16xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %s2 : tensor<8x16xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %m1 : tensor<8x8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %m2 : tensor<8x8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
