// One decode step of a 2-layer model with a KV cache, as a serving
// compiler writes it on tensors: an scf.for over the layers with stacked
// weights, the new token's keys and values written into the caller's caches
// at its position (writable arguments, updated in place), an i1 attention
// mask (key position <= token position) selecting the scores, softmax over
// the cache with grouped-query attention, output projection and residual.
// Bufferized upstream, freed by the deallocation pipeline, packed, lowered
// and run with and without packing: the hidden state and both caches print
// the same.
//
// memplan once sized the i1 mask by its bits (1 byte per 8 positions) and
// placed other buffers inside it; it takes one byte per position.

// RUN: memplan-opt %s --inline --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops" --drop-equivalent-buffer-results --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" --buffer-deallocation-pipeline -o %t.base.mlir
// RUN: memplan-opt %t.base.mlir --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.packed.mlir
// RUN: mlir-opt %t.base.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: diff %t.base.out %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.packed.out

// REMARK: remark: memplan: @decode_step: packed 7 allocations (944 bytes) into one arena of 672 bytes (lower bound 672 bytes, greedy-by-size); function peak 800 bytes, 832 bytes with every buffer freed at its last use

// The mask is a view of 32 bytes, one per cache position.
// PACKED-LABEL: func.func @decode_step
// PACKED: memref.view {{.*}} to memref<1x32xi1>

// The hidden state, then the two caches.
// OUTPUT: {{^\[\[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}
// OUTPUT: {{^\[\[\[\[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}
// OUTPUT: {{^\[\[\[\[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}

#mat = affine_map<(i, j) -> (i, j)>
#mask = affine_map<(h, t) -> (0, t)>
#ht = affine_map<(h, t) -> (h, t)>
#h = affine_map<(h, t) -> (h)>
#qd3 = affine_map<(h, t, d) -> (h, d)>
#kd3 = affine_map<(h, t, d) -> (h floordiv 2, t, d)>
#st3 = affine_map<(h, t, d) -> (h, t)>
#pv3 = affine_map<(h, d, t) -> (h, t)>
#vv3 = affine_map<(h, d, t) -> (h floordiv 2, t, d)>
#o3 = affine_map<(h, d, t) -> (h, d)>
#w3 = affine_map<(l, i, j) -> (l, i, j)>
#w4 = affine_map<(l, h, t, d) -> (l, h, t, d)>

func.func @decode_step(%x: tensor<1x32xf32>, %pos: index, %wq: tensor<2x32x32xf32>, %wk: tensor<2x32x16xf32>, %wv: tensor<2x32x16xf32>, %wo: tensor<2x32x32xf32>, %kc: tensor<2x2x32x8xf32> {bufferization.writable = true}, %vc: tensor<2x2x32x8xf32> {bufferization.writable = true}) -> (tensor<1x32xf32>, tensor<2x2x32x8xf32>, tensor<2x2x32x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %scale = arith.constant 0.35355339 : f32
  // Keys at positions up to the token's are visible.
  %em = tensor.empty() : tensor<1x32xi1>
  %mask = linalg.generic {indexing_maps = [#mat], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<1x32xi1>) {
  ^bb0(%o: i1):
    %t = linalg.index 1 : index
    %visible = arith.cmpi ule, %t, %pos : index
    linalg.yield %visible : i1
  } -> tensor<1x32xi1>
  %res:3 = scf.for %l = %c0 to %c2 step %c1 iter_args(%h = %x, %k = %kc, %v = %vc) -> (tensor<1x32xf32>, tensor<2x2x32x8xf32>, tensor<2x2x32x8xf32>) {
    %wql = tensor.extract_slice %wq[%l, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<2x32x32xf32> to tensor<32x32xf32>
    %wkl = tensor.extract_slice %wk[%l, 0, 0] [1, 32, 16] [1, 1, 1] : tensor<2x32x16xf32> to tensor<32x16xf32>
    %wvl = tensor.extract_slice %wv[%l, 0, 0] [1, 32, 16] [1, 1, 1] : tensor<2x32x16xf32> to tensor<32x16xf32>
    %wol = tensor.extract_slice %wo[%l, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<2x32x32xf32> to tensor<32x32xf32>
    %e32 = tensor.empty() : tensor<1x32xf32>
    %z32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x32xf32>) -> tensor<1x32xf32>
    %q = linalg.matmul ins(%h, %wql : tensor<1x32xf32>, tensor<32x32xf32>) outs(%z32 : tensor<1x32xf32>) -> tensor<1x32xf32>
    %e16 = tensor.empty() : tensor<1x16xf32>
    %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %kn = linalg.matmul ins(%h, %wkl : tensor<1x32xf32>, tensor<32x16xf32>) outs(%z16 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %vn = linalg.matmul ins(%h, %wvl : tensor<1x32xf32>, tensor<32x16xf32>) outs(%z16 : tensor<1x16xf32>) -> tensor<1x16xf32>
    // Write the token's keys and values into the caches at its position.
    %kn2 = tensor.collapse_shape %kn [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
    %kn3 = tensor.expand_shape %kn2 [[0, 1]] output_shape [2, 8] : tensor<16xf32> into tensor<2x8xf32>
    %vn2 = tensor.collapse_shape %vn [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
    %vn3 = tensor.expand_shape %vn2 [[0, 1]] output_shape [2, 8] : tensor<16xf32> into tensor<2x8xf32>
    %k2 = tensor.insert_slice %kn3 into %k[%l, 0, %pos, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<2x8xf32> into tensor<2x2x32x8xf32>
    %v2 = tensor.insert_slice %vn3 into %v[%l, 0, %pos, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<2x8xf32> into tensor<2x2x32x8xf32>
    %kl = tensor.extract_slice %k2[%l, 0, 0, 0] [1, 2, 32, 8] [1, 1, 1, 1] : tensor<2x2x32x8xf32> to tensor<2x32x8xf32>
    %vl = tensor.extract_slice %v2[%l, 0, 0, 0] [1, 2, 32, 8] [1, 1, 1, 1] : tensor<2x2x32x8xf32> to tensor<2x32x8xf32>
    // Scores of the 4 query heads against the cache (2 key/value heads).
    %q1 = tensor.collapse_shape %q [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
    %q2 = tensor.expand_shape %q1 [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
    %es = tensor.empty() : tensor<4x32xf32>
    %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<4x32xf32>) -> tensor<4x32xf32>
    %s = linalg.generic {indexing_maps = [#qd3, #kd3, #st3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q2, %kl : tensor<4x8xf32>, tensor<2x32x8xf32>) outs(%s0 : tensor<4x32xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %p = arith.mulf %a, %b : f32
      %ps = arith.mulf %p, %scale : f32
      %r = arith.addf %acc, %ps : f32
      linalg.yield %r : f32
    } -> tensor<4x32xf32>
    %masked = linalg.generic {indexing_maps = [#ht, #mask, #ht], iterator_types = ["parallel", "parallel"]} ins(%s, %mask : tensor<4x32xf32>, tensor<1x32xi1>) outs(%es : tensor<4x32xf32>) {
    ^bb0(%a: f32, %m: i1, %o: f32):
      %r = arith.select %m, %a, %ninf : f32
      linalg.yield %r : f32
    } -> tensor<4x32xf32>
    %e4 = tensor.empty() : tensor<4xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %mx = linalg.generic {indexing_maps = [#ht, #h], iterator_types = ["parallel", "reduction"]} ins(%masked : tensor<4x32xf32>) outs(%m0 : tensor<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    } -> tensor<4xf32>
    %ex = linalg.generic {indexing_maps = [#ht, #h, #ht], iterator_types = ["parallel", "parallel"]} ins(%masked, %mx : tensor<4x32xf32>, tensor<4xf32>) outs(%es : tensor<4x32xf32>) {
    ^bb0(%a: f32, %m: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      linalg.yield %r : f32
    } -> tensor<4x32xf32>
    %sum0 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %sum = linalg.generic {indexing_maps = [#ht, #h], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<4x32xf32>) outs(%sum0 : tensor<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    } -> tensor<4xf32>
    %pr = linalg.generic {indexing_maps = [#ht, #h, #ht], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<4x32xf32>, tensor<4xf32>) outs(%es : tensor<4x32xf32>) {
    ^bb0(%a: f32, %t: f32, %o: f32):
      %r = arith.divf %a, %t : f32
      linalg.yield %r : f32
    } -> tensor<4x32xf32>
    %ea = tensor.empty() : tensor<4x8xf32>
    %a0 = linalg.fill ins(%zero : f32) outs(%ea : tensor<4x8xf32>) -> tensor<4x8xf32>
    %att = linalg.generic {indexing_maps = [#pv3, #vv3, #o3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%pr, %vl : tensor<4x32xf32>, tensor<2x32x8xf32>) outs(%a0 : tensor<4x8xf32>) {
    ^bb0(%p: f32, %b: f32, %acc: f32):
      %m = arith.mulf %p, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %af = tensor.collapse_shape %att [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
    %a2 = tensor.expand_shape %af [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32>
    %proj = linalg.matmul ins(%a2, %wol : tensor<1x32xf32>, tensor<32x32xf32>) outs(%z32 : tensor<1x32xf32>) -> tensor<1x32xf32>
    %hn = linalg.add ins(%h, %proj : tensor<1x32xf32>, tensor<1x32xf32>) outs(%e32 : tensor<1x32xf32>) -> tensor<1x32xf32>
    scf.yield %hn, %k2, %v2 : tensor<1x32xf32>, tensor<2x2x32x8xf32>, tensor<2x2x32x8xf32>
  }
  return %res#0, %res#1, %res#2 : tensor<1x32xf32>, tensor<2x2x32x8xf32>, tensor<2x2x32x8xf32>
}

// Deterministic values: 0.2 * sin(phase * flat index).
func.func @pattern3(%e: tensor<2x?x?xf32>, %phase: f32) -> tensor<2x?x?xf32> {
  %t = linalg.generic {indexing_maps = [#w3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x?x?xf32>) {
  ^bb0(%o: f32):
    %l = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c97 = arith.constant 97 : index
    %c9409 = arith.constant 9409 : index
    %a = arith.muli %l, %c9409 : index
    %b = arith.muli %i, %c97 : index
    %ab = arith.addi %a, %b : index
    %n = arith.addi %ab, %j : index
    %w = arith.index_cast %n : index to i32
    %f = arith.sitofp %w : i32 to f32
    %x = arith.mulf %f, %phase : f32
    %s = math.sin %x : f32
    %k = arith.constant 0.2 : f32
    %y = arith.mulf %s, %k : f32
    linalg.yield %y : f32
  } -> tensor<2x?x?xf32>
  return %t : tensor<2x?x?xf32>
}

func.func @main() {
  %pos = arith.constant 5 : index
  %p0 = arith.constant 0.91 : f32
  %p1 = arith.constant 0.37 : f32
  %p2 = arith.constant 0.53 : f32
  %p3 = arith.constant 0.71 : f32
  %p4 = arith.constant 0.29 : f32
  %p5 = arith.constant 0.43 : f32
  %p6 = arith.constant 0.61 : f32
  %ex = tensor.empty() : tensor<2x1x32xf32>
  %exd = tensor.cast %ex : tensor<2x1x32xf32> to tensor<2x?x?xf32>
  %xs = func.call @pattern3(%exd, %p0) : (tensor<2x?x?xf32>, f32) -> tensor<2x?x?xf32>
  %x3 = tensor.cast %xs : tensor<2x?x?xf32> to tensor<2x1x32xf32>
  %x = tensor.extract_slice %x3[0, 0, 0] [1, 1, 32] [1, 1, 1] : tensor<2x1x32xf32> to tensor<1x32xf32>
  %e1 = tensor.empty() : tensor<2x32x32xf32>
  %e1d = tensor.cast %e1 : tensor<2x32x32xf32> to tensor<2x?x?xf32>
  %wqd = func.call @pattern3(%e1d, %p1) : (tensor<2x?x?xf32>, f32) -> tensor<2x?x?xf32>
  %wod = func.call @pattern3(%e1d, %p4) : (tensor<2x?x?xf32>, f32) -> tensor<2x?x?xf32>
  %e2 = tensor.empty() : tensor<2x32x16xf32>
  %e2d = tensor.cast %e2 : tensor<2x32x16xf32> to tensor<2x?x?xf32>
  %wkd = func.call @pattern3(%e2d, %p2) : (tensor<2x?x?xf32>, f32) -> tensor<2x?x?xf32>
  %wvd = func.call @pattern3(%e2d, %p3) : (tensor<2x?x?xf32>, f32) -> tensor<2x?x?xf32>
  %wq = tensor.cast %wqd : tensor<2x?x?xf32> to tensor<2x32x32xf32>
  %wo = tensor.cast %wod : tensor<2x?x?xf32> to tensor<2x32x32xf32>
  %wk = tensor.cast %wkd : tensor<2x?x?xf32> to tensor<2x32x16xf32>
  %wv = tensor.cast %wvd : tensor<2x?x?xf32> to tensor<2x32x16xf32>
  %ec = tensor.empty() : tensor<2x64x8xf32>
  %ecd = tensor.cast %ec : tensor<2x64x8xf32> to tensor<2x?x?xf32>
  %kcd = func.call @pattern3(%ecd, %p5) : (tensor<2x?x?xf32>, f32) -> tensor<2x?x?xf32>
  %vcd = func.call @pattern3(%ecd, %p6) : (tensor<2x?x?xf32>, f32) -> tensor<2x?x?xf32>
  %kc3 = tensor.cast %kcd : tensor<2x?x?xf32> to tensor<2x64x8xf32>
  %vc3 = tensor.cast %vcd : tensor<2x?x?xf32> to tensor<2x64x8xf32>
  %kc = tensor.expand_shape %kc3 [[0], [1, 2], [3]] output_shape [2, 2, 32, 8] : tensor<2x64x8xf32> into tensor<2x2x32x8xf32>
  %vc = tensor.expand_shape %vc3 [[0], [1, 2], [3]] output_shape [2, 2, 32, 8] : tensor<2x64x8xf32> into tensor<2x2x32x8xf32>
  %r:3 = func.call @decode_step(%x, %pos, %wq, %wk, %wv, %wo, %kc, %vc) : (tensor<1x32xf32>, index, tensor<2x32x32xf32>, tensor<2x32x16xf32>, tensor<2x32x16xf32>, tensor<2x32x32xf32>, tensor<2x2x32x8xf32>, tensor<2x2x32x8xf32>) -> (tensor<1x32xf32>, tensor<2x2x32x8xf32>, tensor<2x2x32x8xf32>)
  %u0 = tensor.cast %r#0 : tensor<1x32xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<2x2x32x8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<2x2x32x8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
