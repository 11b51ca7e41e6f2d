// A LLaMA-style decoder layer on tensors, as a PyTorch export through
// linalg writes it: RMSNorm, Q/K/V projections with grouped-query attention
// (4 query heads share 2 key/value heads), rotary position embeddings
// (rotate-half through slices), a causal mask, softmax, the output
// projection and residual, RMSNorm, a SwiGLU MLP and residual. 8 tokens,
// hidden 32, head dim 8, MLP 64. Its helpers are inlined (one function, as
// an export writes it; RoPE keeps `?` head counts that are constants),
// bufferized upstream (returned buffers
// become out-params), freed by the deallocation pipeline, packed, lowered
// and run with and without packing: the printed output is identical.

// RUN: memplan-opt %s --inline %bufferize_for_packing --buffer-deallocation-pipeline -o %t.base.mlir
// RUN: memplan-opt %t.base.mlir --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mlir-opt %t.base.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: diff %t.base.out %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.packed.out

// Every intermediate of the layer in one arena at its lower bound; the
// function's peak is what freeing every buffer at its last use needs.
// REMARK: remark: memplan: @decoder_layer: packed {{[0-9]+}} allocations ({{[0-9]+}} bytes) into one arena of [[A:[0-9]+]] bytes (lower bound [[A]] bytes, greedy-by-size); function peak [[P:[0-9]+]] bytes, [[P]] bytes with every buffer freed at its last use

// OUTPUT: {{^\[\[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}
// OUTPUT-COUNT-7: {{^ \[-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?, }}

#mat = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#hsd = affine_map<(h, s, d) -> (h, s, d)>
#sd = affine_map<(h, s, d) -> (s, d)>
#q4 = affine_map<(h, s, t, d) -> (h, s, d)>
#kv4 = affine_map<(h, s, t, d) -> (h floordiv 2, t, d)>
#st4 = affine_map<(h, s, t, d) -> (h, s, t)>
#pv4 = affine_map<(h, s, d, t) -> (h, s, t)>
#vv4 = affine_map<(h, s, d, t) -> (h floordiv 2, t, d)>
#o4 = affine_map<(h, s, d, t) -> (h, s, d)>
#hst = affine_map<(h, s, t) -> (h, s, t)>
#hs = affine_map<(h, s, t) -> (h, s)>

func.func @rms_norm(%x: tensor<8x32xf32>, %w: tensor<32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %ss = linalg.generic {indexing_maps = [#mat, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x32xf32>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %y = linalg.generic {indexing_maps = [#mat, #row, #col, #mat], iterator_types = ["parallel", "parallel"]} ins(%x, %ss, %w : tensor<8x32xf32>, tensor<8xf32>, tensor<32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%a: f32, %s: f32, %g: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %me = arith.addf %mean, %eps : f32
    %r = math.rsqrt %me : f32
    %an = arith.mulf %a, %r : f32
    %out = arith.mulf %an, %g : f32
    linalg.yield %out : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// rotate_half(x) * sin + x * cos, for heads of dim 8.
func.func @rope(%x: tensor<?x8x8xf32>, %cos: tensor<8x8xf32>, %sin: tensor<8x8xf32>) -> tensor<?x8x8xf32> {
  %c0 = arith.constant 0 : index
  %heads = tensor.dim %x, %c0 : tensor<?x8x8xf32>
  %x1 = tensor.extract_slice %x[0, 0, 0] [%heads, 8, 4] [1, 1, 1] : tensor<?x8x8xf32> to tensor<?x8x4xf32>
  %x2 = tensor.extract_slice %x[0, 0, 4] [%heads, 8, 4] [1, 1, 1] : tensor<?x8x8xf32> to tensor<?x8x4xf32>
  %en = tensor.empty(%heads) : tensor<?x8x4xf32>
  %neg = linalg.generic {indexing_maps = [#hsd, #hsd], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x2 : tensor<?x8x4xf32>) outs(%en : tensor<?x8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<?x8x4xf32>
  %er = tensor.empty(%heads) : tensor<?x8x8xf32>
  %r1 = tensor.insert_slice %neg into %er[0, 0, 0] [%heads, 8, 4] [1, 1, 1] : tensor<?x8x4xf32> into tensor<?x8x8xf32>
  %rot = tensor.insert_slice %x1 into %r1[0, 0, 4] [%heads, 8, 4] [1, 1, 1] : tensor<?x8x4xf32> into tensor<?x8x8xf32>
  %y = linalg.generic {indexing_maps = [#hsd, #hsd, #sd, #sd, #hsd], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %rot, %cos, %sin : tensor<?x8x8xf32>, tensor<?x8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) outs(%er : tensor<?x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %s: f32, %o: f32):
    %ac = arith.mulf %a, %c : f32
    %bs = arith.mulf %b, %s : f32
    %r = arith.addf %ac, %bs : f32
    linalg.yield %r : f32
  } -> tensor<?x8x8xf32>
  return %y : tensor<?x8x8xf32>
}

func.func @decoder_layer(%x: tensor<8x32xf32>, %wq: tensor<32x32xf32>, %wk: tensor<32x16xf32>, %wv: tensor<32x16xf32>, %wo: tensor<32x32xf32>, %wg: tensor<32x64xf32>, %wu: tensor<32x64xf32>, %wd: tensor<64x32xf32>, %norm1: tensor<32xf32>, %norm2: tensor<32xf32>, %cos: tensor<8x8xf32>, %sin: tensor<8x8xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %scale = arith.constant 0.35355339 : f32
  %one = arith.constant 1.0 : f32
  // Attention block.
  %y = func.call @rms_norm(%x, %norm1) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %e32 = tensor.empty() : tensor<8x32xf32>
  %z32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %q = linalg.matmul ins(%y, %wq : tensor<8x32xf32>, tensor<32x32xf32>) outs(%z32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e16 = tensor.empty() : tensor<8x16xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %k = linalg.matmul ins(%y, %wk : tensor<8x32xf32>, tensor<32x16xf32>) outs(%z16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %v = linalg.matmul ins(%y, %wv : tensor<8x32xf32>, tensor<32x16xf32>) outs(%z16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %q3 = tensor.expand_shape %q [[0], [1, 2]] output_shape [8, 4, 8] : tensor<8x32xf32> into tensor<8x4x8xf32>
  %k3 = tensor.expand_shape %k [[0], [1, 2]] output_shape [8, 2, 8] : tensor<8x16xf32> into tensor<8x2x8xf32>
  %v3 = tensor.expand_shape %v [[0], [1, 2]] output_shape [8, 2, 8] : tensor<8x16xf32> into tensor<8x2x8xf32>
  %eq = tensor.empty() : tensor<4x8x8xf32>
  %qt = linalg.transpose ins(%q3 : tensor<8x4x8xf32>) outs(%eq : tensor<4x8x8xf32>) permutation = [1, 0, 2]
  %ek = tensor.empty() : tensor<2x8x8xf32>
  %kt = linalg.transpose ins(%k3 : tensor<8x2x8xf32>) outs(%ek : tensor<2x8x8xf32>) permutation = [1, 0, 2]
  %vt = linalg.transpose ins(%v3 : tensor<8x2x8xf32>) outs(%ek : tensor<2x8x8xf32>) permutation = [1, 0, 2]
  %qd = tensor.cast %qt : tensor<4x8x8xf32> to tensor<?x8x8xf32>
  %kd = tensor.cast %kt : tensor<2x8x8xf32> to tensor<?x8x8xf32>
  %qr = func.call @rope(%qd, %cos, %sin) : (tensor<?x8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<?x8x8xf32>
  %kr = func.call @rope(%kd, %cos, %sin) : (tensor<?x8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<?x8x8xf32>
  %qs = tensor.cast %qr : tensor<?x8x8xf32> to tensor<4x8x8xf32>
  %ks = tensor.cast %kr : tensor<?x8x8xf32> to tensor<2x8x8xf32>
  // Scores with grouped-query attention: query head h reads key head h / 2.
  %es = tensor.empty() : tensor<4x8x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q4, #kv4, #st4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qs, %ks : tensor<4x8x8xf32>, tensor<2x8x8xf32>) outs(%s0 : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %ps = arith.mulf %p, %scale : f32
    %r = arith.addf %acc, %ps : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  // Causal mask, then softmax over the keys.
  %masked = linalg.generic {indexing_maps = [#hst, #hst], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x8x8xf32>) outs(%es : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %future = arith.cmpi ugt, %j, %i : index
    %r = arith.select %future, %ninf, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %e48 = tensor.empty() : tensor<4x8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e48 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mx = linalg.generic {indexing_maps = [#hst, #hs], iterator_types = ["parallel", "parallel", "reduction"]} ins(%masked : tensor<4x8x8xf32>) outs(%m0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [#hst, #hs, #hst], iterator_types = ["parallel", "parallel", "parallel"]} ins(%masked, %mx : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%es : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e48 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#hst, #hs], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x8x8xf32>) outs(%sum0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %pr = linalg.generic {indexing_maps = [#hst, #hs, #hst], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%es : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  // Weighted values, again through the shared key/value heads.
  %a0 = linalg.fill ins(%zero : f32) outs(%eq : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %att = linalg.generic {indexing_maps = [#pv4, #vv4, #o4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %vt : tensor<4x8x8xf32>, tensor<2x8x8xf32>) outs(%a0 : tensor<4x8x8xf32>) {
  ^bb0(%p: f32, %b: f32, %acc: f32):
    %m = arith.mulf %p, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %eb = tensor.empty() : tensor<8x4x8xf32>
  %ab = linalg.transpose ins(%att : tensor<4x8x8xf32>) outs(%eb : tensor<8x4x8xf32>) permutation = [1, 0, 2]
  %af = tensor.collapse_shape %ab [[0], [1, 2]] : tensor<8x4x8xf32> into tensor<8x32xf32>
  %proj = linalg.matmul ins(%af, %wo : tensor<8x32xf32>, tensor<32x32xf32>) outs(%z32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.add ins(%x, %proj : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  // MLP block: down(silu(gate(y)) * up(y)).
  %y2 = func.call @rms_norm(%h, %norm2) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %e64 = tensor.empty() : tensor<8x64xf32>
  %z64 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %g = linalg.matmul ins(%y2, %wg : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %u = linalg.matmul ins(%y2, %wu : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %act = linalg.generic {indexing_maps = [#mat, #mat, #mat], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e64 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %silu = arith.divf %a, %d : f32
    %r = arith.mulf %silu, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x64xf32>
  %dn = linalg.matmul ins(%act, %wd : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %out = linalg.add ins(%h, %dn : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %out : tensor<8x32xf32>
}

// Deterministic weights: 0.2 * sin(phase * (i * columns + j)).
func.func @pattern(%e: tensor<?x?xf32>, %phase: f32) -> tensor<?x?xf32> {
  %t = linalg.generic {indexing_maps = [#mat], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c97 = arith.constant 97 : index
    %r = arith.muli %i, %c97 : index
    %n = arith.addi %r, %j : index
    %w = arith.index_cast %n : index to i32
    %f = arith.sitofp %w : i32 to f32
    %a = arith.mulf %f, %phase : f32
    %s = math.sin %a : f32
    %k = arith.constant 0.2 : f32
    %y = arith.mulf %s, %k : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

func.func @matrix(%rows: index, %cols: index, %phase: f32) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %t = func.call @pattern(%e, %phase) : (tensor<?x?xf32>, f32) -> tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %p0 = arith.constant 0.91 : f32
  %p1 = arith.constant 0.37 : f32
  %p2 = arith.constant 0.53 : f32
  %p3 = arith.constant 0.71 : f32
  %p4 = arith.constant 0.29 : f32
  %p5 = arith.constant 0.43 : f32
  %p6 = arith.constant 0.61 : f32
  %p7 = arith.constant 0.17 : f32
  %p8 = arith.constant 0.83 : f32
  %xd = func.call @matrix(%c8, %c32, %p0) : (index, index, f32) -> tensor<?x?xf32>
  %wqd = func.call @matrix(%c32, %c32, %p1) : (index, index, f32) -> tensor<?x?xf32>
  %wkd = func.call @matrix(%c32, %c16, %p2) : (index, index, f32) -> tensor<?x?xf32>
  %wvd = func.call @matrix(%c32, %c16, %p3) : (index, index, f32) -> tensor<?x?xf32>
  %wod = func.call @matrix(%c32, %c32, %p4) : (index, index, f32) -> tensor<?x?xf32>
  %wgd = func.call @matrix(%c32, %c64, %p5) : (index, index, f32) -> tensor<?x?xf32>
  %wud = func.call @matrix(%c32, %c64, %p6) : (index, index, f32) -> tensor<?x?xf32>
  %wdd = func.call @matrix(%c64, %c32, %p7) : (index, index, f32) -> tensor<?x?xf32>
  %nd = func.call @matrix(%c1, %c32, %p8) : (index, index, f32) -> tensor<?x?xf32>
  %x = tensor.cast %xd : tensor<?x?xf32> to tensor<8x32xf32>
  %wq = tensor.cast %wqd : tensor<?x?xf32> to tensor<32x32xf32>
  %wk = tensor.cast %wkd : tensor<?x?xf32> to tensor<32x16xf32>
  %wv = tensor.cast %wvd : tensor<?x?xf32> to tensor<32x16xf32>
  %wo = tensor.cast %wod : tensor<?x?xf32> to tensor<32x32xf32>
  %wg = tensor.cast %wgd : tensor<?x?xf32> to tensor<32x64xf32>
  %wu = tensor.cast %wud : tensor<?x?xf32> to tensor<32x64xf32>
  %wd = tensor.cast %wdd : tensor<?x?xf32> to tensor<64x32xf32>
  %nrow = tensor.cast %nd : tensor<?x?xf32> to tensor<1x32xf32>
  %norm = tensor.collapse_shape %nrow [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
  // Rotary tables: angle = position * 10000^(-j / 4) for j < 4, repeated.
  %e = tensor.empty() : tensor<8x8xf32>
  %angles = linalg.generic {indexing_maps = [#mat], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x8xf32>) {
  ^bb0(%o: f32):
    %pos = linalg.index 0 : index
    %d = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %j = arith.remui %d, %c4 : index
    %pi = arith.index_cast %pos : index to i32
    %pf = arith.sitofp %pi : i32 to f32
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %quarter = arith.constant -0.25 : f32
    %ex = arith.mulf %jf, %quarter : f32
    %base = arith.constant 10000.0 : f32
    %freq = math.powf %base, %ex : f32
    %a = arith.mulf %pf, %freq : f32
    linalg.yield %a : f32
  } -> tensor<8x8xf32>
  %cos = linalg.generic {indexing_maps = [#mat, #mat], iterator_types = ["parallel", "parallel"]} ins(%angles : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.cos %a : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %sin = linalg.generic {indexing_maps = [#mat, #mat], iterator_types = ["parallel", "parallel"]} ins(%angles : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.sin %a : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %y = func.call @decoder_layer(%x, %wq, %wk, %wv, %wo, %wg, %wu, %wd, %norm, %norm, %cos, %sin) : (tensor<8x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x32xf32>
  %u = tensor.cast %y : tensor<8x32xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
