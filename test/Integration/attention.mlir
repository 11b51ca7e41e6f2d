// A single-head attention block on tensors (Q/K/V projections, K transposed,
// scores, a row softmax from linalg.reduce and linalg.generic, the weighted
// sum and the output projection): bufferized upstream, packed by memplan,
// lowered and run with and without the packing: the printed output must be
// identical.

// RUN: memplan-opt %s %bufferize_for_packing --buffer-deallocation-pipeline -o %t.base.mlir
// RUN: memplan-opt %t.base.mlir --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.packed.mlir
// RUN: mlir-opt %t.base.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: diff %t.base.out %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.packed.out

// Q, K, V, K^T and O are 512 bytes each (8x16 f32), the scores, their
// exponentials and the probabilities 256 (8x8), the row max and sum 32: 3392
// bytes in 10 buffers. The lower bound is Q, K, V and K^T live together.
// REMARK: remark: memplan: @attention: packed 10 allocations (3392 bytes) into one arena of 2048 bytes (lower bound 2048 bytes, greedy-by-size); function peak 2048 bytes, 2048 bytes with every buffer freed at its last use

// Exactly one allocation: the arena (the output is the caller's).
// PACKED-LABEL: func.func @attention
// PACKED: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<{{[0-9]+}}xi8>
// PACKED-NOT: memref.alloc()
// PACKED: return
// PACKED-LABEL: func.func @main

// OUTPUT: {{^\[\[-?[0-9]+\.[0-9]+, -?[0-9]+\.[0-9]+}}
// OUTPUT-COUNT-7: {{^ \[-?[0-9]+\.[0-9]+, -?[0-9]+\.[0-9]+}}

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @attention(%x: tensor<8x16xf32>, %wq: tensor<16x16xf32>, %wk: tensor<16x16xf32>,
                     %wv: tensor<16x16xf32>, %wo: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ek = tensor.empty() : tensor<8x16xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<8x16xf32>) -> tensor<8x16xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<8x16xf32>, tensor<16x16xf32>) outs(%zk : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ev = tensor.empty() : tensor<8x16xf32>
  %zv = linalg.fill ins(%zero : f32) outs(%ev : tensor<8x16xf32>) -> tensor<8x16xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<8x16xf32>, tensor<16x16xf32>) outs(%zv : tensor<8x16xf32>) -> tensor<8x16xf32>
  %et = tensor.empty() : tensor<16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<8x16xf32>) outs(%et : tensor<16x8xf32>) permutation = [1, 0]
  %es = tensor.empty() : tensor<8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x16xf32>, tensor<16x8xf32>) outs(%zs : tensor<8x8xf32>) -> tensor<8x8xf32>
  %em = tensor.empty() : tensor<8xf32>
  %im = linalg.fill ins(%ninf : f32) outs(%em : tensor<8xf32>) -> tensor<8xf32>
  %mx = linalg.reduce ins(%s : tensor<8x8xf32>) outs(%im : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %ee = tensor.empty() : tensor<8x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %mx : tensor<8x8xf32>, tensor<8xf32>) outs(%ee : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %en = tensor.empty() : tensor<8xf32>
  %in0 = linalg.fill ins(%zero : f32) outs(%en : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%ex : tensor<8x8xf32>) outs(%in0 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %ep = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<8x8xf32>, tensor<8xf32>) outs(%ep : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %eo = tensor.empty() : tensor<8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x16xf32>) -> tensor<8x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x16xf32>) outs(%zo : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ey = tensor.empty() : tensor<8x16xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%o, %wo : tensor<8x16xf32>, tensor<16x16xf32>) outs(%zy : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

func.func @main() {
  %e = tensor.empty() : tensor<16x16xf32>
  %w = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<16x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.muli %i, %j : index
    %s = arith.addi %ij, %j : index
    %k = arith.index_cast %s : index to i32
    %f = arith.sitofp %k : i32 to f32
    %c = arith.constant 0.021 : f32
    %v = arith.mulf %f, %c : f32
    %r = math.cos %v : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %x = tensor.extract_slice %w[2, 0] [8, 16] [1, 1] : tensor<16x16xf32> to tensor<8x16xf32>
  %y = func.call @attention(%x, %w, %w, %w, %w) : (tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %u = tensor.cast %y : tensor<8x16xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(%ptr : tensor<*xf32>)
