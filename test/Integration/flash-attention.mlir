// A tiled flash-attention kernel (online softmax) on tensors, in the style a
// tiling compiler emits: scf.for over query tiles and key tiles, running
// max/sum/accumulator carried through iter_args, every per-tile temporary
// (scores, probabilities, correction factors, the rescaled accumulator) a
// tensor of the loop body. Bufferized upstream, freed by the deallocation
// pipeline, packed, lowered and run with and without packing; a plain
// softmax(Q K^T) V computed by the same program is printed beside it.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops" --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" --buffer-deallocation-pipeline -o %t.base.mlir
// RUN: memplan-opt %t.base.mlir --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.packed.mlir
// RUN: mlir-opt %t.base.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: diff %t.base.out %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.packed.out

// memplan once packed nothing here: every buffer lives in a loop body. The
// per-tile temporaries are now packed. One arena of the function for them
// would stay allocated while the buffers carried to the next iteration (left
// alone: the deallocation pipeline compares their pointers) peak, so the
// temporaries get arenas of the loop bodies, freed after their last use in
// each iteration: the function's peak stays under what freeing every
// buffer at its last use needs.
// REMARK: remark: memplan: not packed: it lives on after the iteration of 'scf.for' that allocates it
// REMARK: remark: memplan: @flash_attention: packed 9 allocations (284 bytes) into 3 arenas of 144 + 134 + 80 bytes, each live only over the stretch of its buffers (lower bound 144 bytes, greedy-by-size); function peak 1168 bytes, 1216 bytes with every buffer freed at its last use

// An arena allocated and freed in each iteration of the inner loop.
// PACKED-LABEL: func.func @flash_attention
// PACKED: scf.for
// PACKED: scf.for
// PACKED: %[[INNER:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<{{[0-9]+}}xi8>
// PACKED: memref.view %[[INNER]]
// PACKED: memref.dealloc %[[INNER]]
// PACKED: scf.yield

// The tiled kernel and the reference print the same 16x8 values (up to
// rounding: the online softmax sums in another order).
// OUTPUT-COUNT-2: {{^\[\[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}

#qk = affine_map<(i, j, d) -> (i, d)>
#kk = affine_map<(i, j, d) -> (j, d)>
#ss = affine_map<(i, j, d) -> (i, j)>
#mat = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#vec = affine_map<(i) -> (i)>

func.func @flash_attention(%q: tensor<16x8xf32>, %k: tensor<16x8xf32>, %v: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  %scale = arith.constant 0.35355339 : f32
  %empty = tensor.empty() : tensor<16x8xf32>
  %out = scf.for %qi = %c0 to %c16 step %c4 iter_args(%o_all = %empty) -> (tensor<16x8xf32>) {
    %qt = tensor.extract_slice %q[%qi, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
    %e4 = tensor.empty() : tensor<4xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %l0 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %e48 = tensor.empty() : tensor<4x8xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e48 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %res:3 = scf.for %kj = %c0 to %c16 step %c4 iter_args(%m = %m0, %l = %l0, %acc = %acc0) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>) {
      %kt = tensor.extract_slice %k[%kj, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
      %vt = tensor.extract_slice %v[%kj, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
      // Scores of the tile: Q_t K_t^T / sqrt(d).
      %e44 = tensor.empty() : tensor<4x4xf32>
      %s0 = linalg.fill ins(%zero : f32) outs(%e44 : tensor<4x4xf32>) -> tensor<4x4xf32>
      %s = linalg.generic {indexing_maps = [#qk, #kk, #ss], iterator_types = ["parallel", "parallel", "reduction"]} ins(%qt, %kt : tensor<4x8xf32>, tensor<4x8xf32>) outs(%s0 : tensor<4x4xf32>) {
      ^bb0(%a: f32, %b: f32, %acc_s: f32):
        %p = arith.mulf %a, %b : f32
        %ps = arith.mulf %p, %scale : f32
        %n = arith.addf %acc_s, %ps : f32
        linalg.yield %n : f32
      } -> tensor<4x4xf32>
      // The new running max.
      %mn0 = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%m : tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<4xf32>
      %mnew = linalg.generic {indexing_maps = [#mat, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x4xf32>) outs(%mn0 : tensor<4xf32>) {
      ^bb0(%a: f32, %o: f32):
        %n = arith.maximumf %a, %o : f32
        linalg.yield %n : f32
      } -> tensor<4xf32>
      // Probabilities of the tile, and the correction of what came before.
      %p = linalg.generic {indexing_maps = [#mat, #row, #mat], iterator_types = ["parallel", "parallel"]} ins(%s, %mnew : tensor<4x4xf32>, tensor<4xf32>) outs(%e44 : tensor<4x4xf32>) {
      ^bb0(%a: f32, %mx: f32, %o: f32):
        %d = arith.subf %a, %mx : f32
        %x = math.exp %d : f32
        linalg.yield %x : f32
      } -> tensor<4x4xf32>
      %alpha = linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"]} ins(%m, %mnew : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
      ^bb0(%old: f32, %new: f32, %o: f32):
        %d = arith.subf %old, %new : f32
        %x = math.exp %d : f32
        linalg.yield %x : f32
      } -> tensor<4xf32>
      // l = alpha * l + rowsum(P).
      %ls = linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"]} ins(%alpha, %l : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %x = arith.mulf %a, %b : f32
        linalg.yield %x : f32
      } -> tensor<4xf32>
      %lnew = linalg.generic {indexing_maps = [#mat, #row], iterator_types = ["parallel", "reduction"]} ins(%p : tensor<4x4xf32>) outs(%ls : tensor<4xf32>) {
      ^bb0(%a: f32, %o: f32):
        %x = arith.addf %a, %o : f32
        linalg.yield %x : f32
      } -> tensor<4xf32>
      // acc = alpha * acc + P V_t.
      %scaled = linalg.generic {indexing_maps = [#mat, #row, #mat], iterator_types = ["parallel", "parallel"]} ins(%acc, %alpha : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %x = arith.mulf %a, %b : f32
        linalg.yield %x : f32
      } -> tensor<4x8xf32>
      %accnew = linalg.matmul ins(%p, %vt : tensor<4x4xf32>, tensor<4x8xf32>) outs(%scaled : tensor<4x8xf32>) -> tensor<4x8xf32>
      scf.yield %mnew, %lnew, %accnew : tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>
    }
    %ot = linalg.generic {indexing_maps = [#mat, #row, #mat], iterator_types = ["parallel", "parallel"]} ins(%res#2, %res#1 : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %x = arith.divf %a, %b : f32
      linalg.yield %x : f32
    } -> tensor<4x8xf32>
    %o_next = tensor.insert_slice %ot into %o_all[%qi, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x8xf32>
    scf.yield %o_next : tensor<16x8xf32>
  }
  return %out : tensor<16x8xf32>
}

// softmax(Q K^T / sqrt(d)) V, untiled.
func.func @reference(%q: tensor<16x8xf32>, %k: tensor<16x8xf32>, %v: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  %scale = arith.constant 0.35355339 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #ss], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<16x8xf32>, tensor<16x8xf32>) outs(%s0 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %ps = arith.mulf %p, %scale : f32
    %n = arith.addf %acc, %ps : f32
    linalg.yield %n : f32
  } -> tensor<16x16xf32>
  %e16 = tensor.empty() : tensor<16xf32>
  %mx0 = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %mx = linalg.generic {indexing_maps = [#mat, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<16x16xf32>) outs(%mx0 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.maximumf %a, %o : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %x = linalg.generic {indexing_maps = [#mat, #row, #mat], iterator_types = ["parallel", "parallel"]} ins(%s, %mx : tensor<16x16xf32>, tensor<16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#mat, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x16xf32>) outs(%sum0 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.addf %a, %o : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %pr = linalg.generic {indexing_maps = [#mat, #row, #mat], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<16x16xf32>, tensor<16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.divf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %eo = tensor.empty() : tensor<16x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%pr, %v : tensor<16x16xf32>, tensor<16x8xf32>) outs(%o0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// Deterministic inputs: sin of the element index, three phases.
func.func @pattern(%phase: f32) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.generic {indexing_maps = [#mat], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<16x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c8 = arith.constant 8 : index
    %r = arith.muli %i, %c8 : index
    %n = arith.addi %r, %j : index
    %w = arith.index_cast %n : index to i32
    %f = arith.sitofp %w : i32 to f32
    %a = arith.mulf %f, %phase : f32
    %s = math.sin %a : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %t : tensor<16x8xf32>
}

func.func @main() {
  %p1 = arith.constant 0.37 : f32
  %p2 = arith.constant 0.53 : f32
  %p3 = arith.constant 0.71 : f32
  %q = func.call @pattern(%p1) : (f32) -> tensor<16x8xf32>
  %k = func.call @pattern(%p2) : (f32) -> tensor<16x8xf32>
  %v = func.call @pattern(%p3) : (f32) -> tensor<16x8xf32>
  %o = func.call @flash_attention(%q, %k, %v) : (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = func.call @reference(%q, %k, %v) : (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %u = tensor.cast %o : tensor<16x8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %w = tensor.cast %r : tensor<16x8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%w) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
