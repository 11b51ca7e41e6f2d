// A whole small BERT on tensors, as a PyTorch export through linalg writes
// it: word, position and token-type embeddings (a gather through
// tensor.extract), LayerNorm, two encoder layers (multi-head attention with
// an additive padding mask, output projection, residual and LayerNorm; a
// GELU feed-forward, residual and LayerNorm) and the pooler (tanh of a dense
// layer on the first token). 8 tokens, hidden 16, 2 heads, feed-forward 32,
// vocabulary 24. Its helpers are inlined (one function), bufferized
// upstream, freed by the deallocation pipeline, packed, lowered and run with
// and without packing (math ops to LLVM, then erf to libm): both outputs print the same.

// RUN: memplan-opt %s --inline %bufferize_for_packing --buffer-deallocation-pipeline -o %t.base.mlir
// RUN: memplan-opt %t.base.mlir --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mlir-opt %t.base.mlir --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm --convert-math-to-libm --convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm --convert-math-to-libm --convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: diff %t.base.out %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.packed.out

// Every intermediate of the model in one arena at its lower bound; the
// function's peak is below what freeing every buffer at its last use needs.
// REMARK: remark: memplan: @bert: packed 42 allocations (16352 bytes) into one arena of 2592 bytes (lower bound 2592 bytes, greedy-by-size); function peak 2592 bytes, 2624 bytes with every buffer freed at its last use

// The sequence output (8 rows), then the pooled output.
// OUTPUT: {{^\[\[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}
// OUTPUT-COUNT-7: {{^ \[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}
// OUTPUT: {{^\[\[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}

#mat = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#q4 = affine_map<(h, s, t, d) -> (h, s, d)>
#k4 = affine_map<(h, s, t, d) -> (h, t, d)>
#st4 = affine_map<(h, s, t, d) -> (h, s, t)>
#pv4 = affine_map<(h, s, d, t) -> (h, s, t)>
#vv4 = affine_map<(h, s, d, t) -> (h, t, d)>
#o4 = affine_map<(h, s, d, t) -> (h, s, d)>
#hst = affine_map<(h, s, t) -> (h, s, t)>
#hs = affine_map<(h, s, t) -> (h, s)>
#t3 = affine_map<(h, s, t) -> (t)>
#w3 = affine_map<(l, i, j) -> (l, i, j)>

func.func @layer_norm(%x: tensor<8x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-12 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#mat, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x16xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %var = linalg.generic {indexing_maps = [#mat, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %sum : tensor<8x16xf32>, tensor<8xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %a, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#mat, #row, #row, #col, #col, #mat], iterator_types = ["parallel", "parallel"]} ins(%x, %sum, %var, %g, %b : tensor<8x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %s: f32, %v: f32, %gg: f32, %bb: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %variance = arith.divf %v, %n : f32
    %ve = arith.addf %variance, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %mean : f32
    %dn = arith.mulf %d, %r : f32
    %sc = arith.mulf %dn, %gg : f32
    %out = arith.addf %sc, %bb : f32
    linalg.yield %out : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// x W + b.
func.func @dense(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#mat, #col, #mat], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<8x16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

func.func @encoder_layer(%x: tensor<8x16xf32>, %mask: tensor<8xf32>, %w: tensor<4x16x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>, %b: tensor<6x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %scale = arith.constant 0.35355339 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678 : f32
  %wq = tensor.extract_slice %w[0, 0, 0] [1, 16, 16] [1, 1, 1] : tensor<4x16x16xf32> to tensor<16x16xf32>
  %wk = tensor.extract_slice %w[1, 0, 0] [1, 16, 16] [1, 1, 1] : tensor<4x16x16xf32> to tensor<16x16xf32>
  %wv = tensor.extract_slice %w[2, 0, 0] [1, 16, 16] [1, 1, 1] : tensor<4x16x16xf32> to tensor<16x16xf32>
  %wo = tensor.extract_slice %w[3, 0, 0] [1, 16, 16] [1, 1, 1] : tensor<4x16x16xf32> to tensor<16x16xf32>
  %bq = tensor.extract_slice %b[0, 0] [1, 16] [1, 1] : tensor<6x16xf32> to tensor<16xf32>
  %bk = tensor.extract_slice %b[1, 0] [1, 16] [1, 1] : tensor<6x16xf32> to tensor<16xf32>
  %bv = tensor.extract_slice %b[2, 0] [1, 16] [1, 1] : tensor<6x16xf32> to tensor<16xf32>
  %bo = tensor.extract_slice %b[3, 0] [1, 16] [1, 1] : tensor<6x16xf32> to tensor<16xf32>
  %g = tensor.extract_slice %b[4, 0] [1, 16] [1, 1] : tensor<6x16xf32> to tensor<16xf32>
  %beta = tensor.extract_slice %b[5, 0] [1, 16] [1, 1] : tensor<6x16xf32> to tensor<16xf32>
  %q = func.call @dense(%x, %wq, %bq) : (tensor<8x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %k = func.call @dense(%x, %wk, %bk) : (tensor<8x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %v = func.call @dense(%x, %wv, %bv) : (tensor<8x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %q3 = tensor.expand_shape %q [[0], [1, 2]] output_shape [8, 2, 8] : tensor<8x16xf32> into tensor<8x2x8xf32>
  %k3 = tensor.expand_shape %k [[0], [1, 2]] output_shape [8, 2, 8] : tensor<8x16xf32> into tensor<8x2x8xf32>
  %v3 = tensor.expand_shape %v [[0], [1, 2]] output_shape [8, 2, 8] : tensor<8x16xf32> into tensor<8x2x8xf32>
  %eh = tensor.empty() : tensor<2x8x8xf32>
  %qt = linalg.transpose ins(%q3 : tensor<8x2x8xf32>) outs(%eh : tensor<2x8x8xf32>) permutation = [1, 0, 2]
  %kt = linalg.transpose ins(%k3 : tensor<8x2x8xf32>) outs(%eh : tensor<2x8x8xf32>) permutation = [1, 0, 2]
  %vt = linalg.transpose ins(%v3 : tensor<8x2x8xf32>) outs(%eh : tensor<2x8x8xf32>) permutation = [1, 0, 2]
  %s0 = linalg.fill ins(%zero : f32) outs(%eh : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q4, #k4, #st4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qt, %kt : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %p = arith.mulf %a, %c : f32
    %ps = arith.mulf %p, %scale : f32
    %r = arith.addf %acc, %ps : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  // The padding mask: 0 for tokens, -1e30 for padding, added to the scores.
  %sm = linalg.generic {indexing_maps = [#hst, #t3, #hst], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x8x8xf32>, tensor<8xf32>) outs(%eh : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %e28 = tensor.empty() : tensor<2x8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e28 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %mx = linalg.generic {indexing_maps = [#hst, #hs], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sm : tensor<2x8x8xf32>) outs(%m0 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#hst, #hs, #hst], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sm, %mx : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%eh : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e28 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#hst, #hs], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%sum0 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %pr = linalg.generic {indexing_maps = [#hst, #hs, #hst], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%eh : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%eh : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %att = linalg.generic {indexing_maps = [#pv4, #vv4, #o4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %vt : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%a0 : tensor<2x8x8xf32>) {
  ^bb0(%p: f32, %c: f32, %acc: f32):
    %m = arith.mulf %p, %c : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %eb = tensor.empty() : tensor<8x2x8xf32>
  %ab = linalg.transpose ins(%att : tensor<2x8x8xf32>) outs(%eb : tensor<8x2x8xf32>) permutation = [1, 0, 2]
  %af = tensor.collapse_shape %ab [[0], [1, 2]] : tensor<8x2x8xf32> into tensor<8x16xf32>
  %proj = func.call @dense(%af, %wo, %bo) : (tensor<8x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %res1 = linalg.add ins(%x, %proj : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %h = func.call @layer_norm(%res1, %g, %beta) : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // Feed-forward with the erf GELU.
  %e32 = tensor.empty() : tensor<8x32xf32>
  %z32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %up = linalg.matmul ins(%h, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %gelu = linalg.generic {indexing_maps = [#mat, #mat], iterator_types = ["parallel", "parallel"]} ins(%up : tensor<8x32xf32>) outs(%e32 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %xs = arith.mulf %a, %rsqrt2 : f32
    %er = math.erf %xs : f32
    %ep = arith.addf %er, %one : f32
    %hx = arith.mulf %a, %half : f32
    %r = arith.mulf %hx, %ep : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %down = linalg.matmul ins(%gelu, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%z16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %res2 = linalg.add ins(%h, %down : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %out = func.call @layer_norm(%res2, %g, %beta) : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  return %out : tensor<8x16xf32>
}

func.func @bert(%tokens: tensor<8xi64>, %length: index, %words: tensor<24x16xf32>, %positions: tensor<8x16xf32>, %types: tensor<16xf32>, %w: tensor<2x4x16x16xf32>, %w1: tensor<2x16x32xf32>, %w2: tensor<2x32x16xf32>, %b: tensor<2x6x16xf32>, %embNorm: tensor<2x16xf32>, %pool: tensor<16x16xf32>, %poolBias: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<1x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  // Embeddings: words gathered by token id, plus positions and token type.
  %e = tensor.empty() : tensor<8x16xf32>
  %emb = linalg.generic {indexing_maps = [#row, #mat, #col, #mat], iterator_types = ["parallel", "parallel"]} ins(%tokens, %positions, %types : tensor<8xi64>, tensor<8x16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%id: i64, %p: f32, %t: f32, %o: f32):
    %j = linalg.index 1 : index
    %row = arith.index_cast %id : i64 to index
    %word = tensor.extract %words[%row, %j] : tensor<24x16xf32>
    %wp = arith.addf %word, %p : f32
    %r = arith.addf %wp, %t : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %g0 = tensor.extract_slice %embNorm[0, 0] [1, 16] [1, 1] : tensor<2x16xf32> to tensor<16xf32>
  %b0 = tensor.extract_slice %embNorm[1, 0] [1, 16] [1, 1] : tensor<2x16xf32> to tensor<16xf32>
  %x0 = func.call @layer_norm(%emb, %g0, %b0) : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // Padding: tokens at or after %length are masked out.
  %em = tensor.empty() : tensor<8xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(t) -> (t)>], iterator_types = ["parallel"]} outs(%em : tensor<8xf32>) {
  ^bb0(%o: f32):
    %t = linalg.index 0 : index
    %pad = arith.cmpi uge, %t, %length : index
    %r = arith.select %pad, %ninf, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %wa = tensor.extract_slice %w[0, 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1] : tensor<2x4x16x16xf32> to tensor<4x16x16xf32>
  %w1a = tensor.extract_slice %w1[0, 0, 0] [1, 16, 32] [1, 1, 1] : tensor<2x16x32xf32> to tensor<16x32xf32>
  %w2a = tensor.extract_slice %w2[0, 0, 0] [1, 32, 16] [1, 1, 1] : tensor<2x32x16xf32> to tensor<32x16xf32>
  %ba = tensor.extract_slice %b[0, 0, 0] [1, 6, 16] [1, 1, 1] : tensor<2x6x16xf32> to tensor<6x16xf32>
  %x1 = func.call @encoder_layer(%x0, %mask, %wa, %w1a, %w2a, %ba) : (tensor<8x16xf32>, tensor<8xf32>, tensor<4x16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<6x16xf32>) -> tensor<8x16xf32>
  %wb = tensor.extract_slice %w[1, 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1] : tensor<2x4x16x16xf32> to tensor<4x16x16xf32>
  %w1b = tensor.extract_slice %w1[1, 0, 0] [1, 16, 32] [1, 1, 1] : tensor<2x16x32xf32> to tensor<16x32xf32>
  %w2b = tensor.extract_slice %w2[1, 0, 0] [1, 32, 16] [1, 1, 1] : tensor<2x32x16xf32> to tensor<32x16xf32>
  %bb = tensor.extract_slice %b[1, 0, 0] [1, 6, 16] [1, 1, 1] : tensor<2x6x16xf32> to tensor<6x16xf32>
  %x2 = func.call @encoder_layer(%x1, %mask, %wb, %w1b, %w2b, %bb) : (tensor<8x16xf32>, tensor<8xf32>, tensor<4x16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<6x16xf32>) -> tensor<8x16xf32>
  // Pooler: tanh(W x[0] + b).
  %first = tensor.extract_slice %x2[0, 0] [1, 16] [1, 1] : tensor<8x16xf32> to tensor<1x16xf32>
  %ep = tensor.empty() : tensor<1x16xf32>
  %zp = linalg.fill ins(%zero : f32) outs(%ep : tensor<1x16xf32>) -> tensor<1x16xf32>
  %pm = linalg.matmul ins(%first, %pool : tensor<1x16xf32>, tensor<16x16xf32>) outs(%zp : tensor<1x16xf32>) -> tensor<1x16xf32>
  %pooled = linalg.generic {indexing_maps = [#mat, #col, #mat], iterator_types = ["parallel", "parallel"]} ins(%pm, %poolBias : tensor<1x16xf32>, tensor<16xf32>) outs(%ep : tensor<1x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %r = math.tanh %s : f32
    linalg.yield %r : f32
  } -> tensor<1x16xf32>
  return %x2, %pooled : tensor<8x16xf32>, tensor<1x16xf32>
}

// Deterministic values: 0.3 * sin(phase * flat index).
func.func @pattern(%e: tensor<?x?x?xf32>, %phase: f32) -> tensor<?x?x?xf32> {
  %t = linalg.generic {indexing_maps = [#w3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%o: f32):
    %l = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c97 = arith.constant 97 : index
    %c9409 = arith.constant 9409 : index
    %a = arith.muli %l, %c9409 : index
    %c = arith.muli %i, %c97 : index
    %ac = arith.addi %a, %c : index
    %n = arith.addi %ac, %j : index
    %w = arith.index_cast %n : index to i32
    %f = arith.sitofp %w : i32 to f32
    %x = arith.mulf %f, %phase : f32
    %s = math.sin %x : f32
    %k = arith.constant 0.3 : f32
    %y = arith.mulf %s, %k : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
  return %t : tensor<?x?x?xf32>
}

func.func @values(%a: index, %b: index, %c: index, %phase: f32) -> tensor<?x?x?xf32> {
  %e = tensor.empty(%a, %b, %c) : tensor<?x?x?xf32>
  %t = func.call @pattern(%e, %phase) : (tensor<?x?x?xf32>, f32) -> tensor<?x?x?xf32>
  return %t : tensor<?x?x?xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %length = arith.constant 6 : index
  %p0 = arith.constant 0.91 : f32
  %p1 = arith.constant 0.37 : f32
  %p2 = arith.constant 0.53 : f32
  %p3 = arith.constant 0.71 : f32
  %p4 = arith.constant 0.29 : f32
  %p5 = arith.constant 0.43 : f32
  %p6 = arith.constant 0.61 : f32
  %p7 = arith.constant 0.17 : f32
  %p8 = arith.constant 0.83 : f32
  %tokens = arith.constant dense<[3, 17, 5, 22, 9, 11, 0, 0]> : tensor<8xi64>
  %wordsd = func.call @values(%c1, %c24, %c16, %p0) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %posd = func.call @values(%c1, %c8, %c16, %p1) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %typed = func.call @values(%c1, %c1, %c16, %p2) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %wd = func.call @values(%c8, %c16, %c16, %p3) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %w1d = func.call @values(%c2, %c16, %c32, %p4) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %w2d = func.call @values(%c2, %c32, %c16, %p5) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %bd = func.call @values(%c2, %c6, %c16, %p6) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %nd = func.call @values(%c1, %c2, %c16, %p7) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %poold = func.call @values(%c1, %c16, %c16, %p8) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %words3 = tensor.cast %wordsd : tensor<?x?x?xf32> to tensor<1x24x16xf32>
  %words = tensor.collapse_shape %words3 [[0, 1], [2]] : tensor<1x24x16xf32> into tensor<24x16xf32>
  %pos3 = tensor.cast %posd : tensor<?x?x?xf32> to tensor<1x8x16xf32>
  %positions = tensor.collapse_shape %pos3 [[0, 1], [2]] : tensor<1x8x16xf32> into tensor<8x16xf32>
  %type3 = tensor.cast %typed : tensor<?x?x?xf32> to tensor<1x1x16xf32>
  %types = tensor.collapse_shape %type3 [[0, 1, 2]] : tensor<1x1x16xf32> into tensor<16xf32>
  %w3 = tensor.cast %wd : tensor<?x?x?xf32> to tensor<8x16x16xf32>
  %w = tensor.expand_shape %w3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  %w1 = tensor.cast %w1d : tensor<?x?x?xf32> to tensor<2x16x32xf32>
  %w2 = tensor.cast %w2d : tensor<?x?x?xf32> to tensor<2x32x16xf32>
  %b = tensor.cast %bd : tensor<?x?x?xf32> to tensor<2x6x16xf32>
  %n3 = tensor.cast %nd : tensor<?x?x?xf32> to tensor<1x2x16xf32>
  %embNorm = tensor.collapse_shape %n3 [[0, 1], [2]] : tensor<1x2x16xf32> into tensor<2x16xf32>
  %pool3 = tensor.cast %poold : tensor<?x?x?xf32> to tensor<1x16x16xf32>
  %pool = tensor.collapse_shape %pool3 [[0, 1], [2]] : tensor<1x16x16xf32> into tensor<16x16xf32>
  %poolBias = tensor.collapse_shape %type3 [[0, 1, 2]] : tensor<1x1x16xf32> into tensor<16xf32>
  %r:2 = func.call @bert(%tokens, %length, %words, %positions, %types, %w, %w1, %w2, %b, %embNorm, %pool, %poolBias) : (tensor<8xi64>, index, tensor<24x16xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<2x4x16x16xf32>, tensor<2x16x32xf32>, tensor<2x32x16xf32>, tensor<2x6x16xf32>, tensor<2x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<1x16xf32>)
  %u0 = tensor.cast %r#0 : tensor<8x16xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<1x16xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
