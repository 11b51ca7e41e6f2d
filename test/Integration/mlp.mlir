// A 3-layer MLP (matmul + bias + GELU, twice, then a matmul) on tensors,
// bufferized upstream, packed by memplan, lowered to LLVM and run. The
// printed output must not change; the packed function keeps one arena
// allocation. The returned buffer becomes the caller's out-param
// (%bufferize_for_packing, the recipe of docs/integration.md): returned, it
// would sit on top of the arena and raise the function's peak, so it could
// not be packed.

// RUN: memplan-opt %s %bufferize_for_packing --buffer-deallocation-pipeline -o %t.base.mlir
// RUN: memplan-opt %t.base.mlir --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.packed.mlir
// RUN: mlir-opt %t.base.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: diff %t.base.out %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.packed.out

// The comparison can fail: the same packing with every buffer moved to
// offset 0 (live buffers overlapping) prints something else.
// RUN: sed -e 's/arith.constant 256 : index/arith.constant 0 : index/' %t.packed.mlir > %t.broken.mlir
// RUN: mlir-opt %t.broken.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.broken.out
// RUN: not diff %t.base.out %t.broken.out

// Four 4x16 f32 intermediates (256 bytes each): matmul, bias+gelu, matmul,
// bias+gelu; the last matmul writes the caller's out-param. Each dies after
// the next op, so two slots suffice: 1024 bytes packed into 512, and the
// function's peak is what freeing every buffer at its last use needs.
// REMARK: remark: memplan: @mlp: packed 4 allocations (1024 bytes) into one arena of 512 bytes (lower bound 512 bytes, greedy-by-size); function peak 512 bytes, 512 bytes with every buffer freed at its last use

// PACKED-LABEL: func.func @mlp
// PACKED: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<512xi8>
// PACKED-COUNT-4: memref.view
// PACKED-NOT: memref.alloc
// PACKED: memref.dealloc %{{.*}} : memref<512xi8>
// PACKED-NEXT: return
// PACKED-LABEL: func.func @main

// Four rows of sixteen distinct values (the header with the address is
// filtered out, as it differs from run to run).
// OUTPUT: {{^\[\[-?[0-9]+\.[0-9]+, -?[0-9]+\.[0-9]+}}
// OUTPUT-COUNT-3: {{^ \[-?[0-9]+\.[0-9]+, -?[0-9]+\.[0-9]+}}

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>

func.func @dense_gelu(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%e2 : tensor<4x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    // x * sigmoid(1.702 x), the sigmoid approximation of GELU
    %s = arith.addf %a, %c : f32
    %k = arith.constant 1.702 : f32
    %t = arith.mulf %s, %k : f32
    %n = arith.negf %t : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %ex : f32
    %r = arith.divf %s, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %g : tensor<4x16xf32>
}

func.func @mlp(%x: tensor<4x16xf32>, %w1: tensor<16x16xf32>, %b1: tensor<16xf32>,
               %w2: tensor<16x16xf32>, %b2: tensor<16xf32>, %w3: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e1 = tensor.empty() : tensor<4x16xf32>
  %h1 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]} ins(%m1, %b1 : tensor<4x16xf32>, tensor<16xf32>) outs(%e1 : tensor<4x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %k = arith.constant 1.702 : f32
    %t = arith.mulf %s, %k : f32
    %n = arith.negf %t : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %ex : f32
    %r = arith.divf %s, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m2 = linalg.matmul ins(%h1, %w2 : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e3 = tensor.empty() : tensor<4x16xf32>
  %h2 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]} ins(%m2, %b2 : tensor<4x16xf32>, tensor<16xf32>) outs(%e3 : tensor<4x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %k = arith.constant 1.702 : f32
    %t = arith.mulf %s, %k : f32
    %n = arith.negf %t : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %ex : f32
    %r = arith.divf %s, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %e4 = tensor.empty() : tensor<4x16xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m3 = linalg.matmul ins(%h2, %w3 : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f4 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m3 : tensor<4x16xf32>
}

// Inputs that differ in every element: a * i + b * j + c, rescaled.
func.func @pattern2(%rows: index, %a: f32, %b: f32, %c: f32) -> tensor<16x16xf32> {
  %e = tensor.empty() : tensor<16x16xf32>
  %t = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<16x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %x = arith.mulf %fi, %a : f32
    %y = arith.mulf %fj, %b : f32
    %s = arith.addf %x, %y : f32
    %v = arith.addf %s, %c : f32
    %w = math.sin %v : f32
    linalg.yield %w : f32
  } -> tensor<16x16xf32>
  return %t : tensor<16x16xf32>
}

func.func @main() {
  %c16 = arith.constant 16 : index
  %a1 = arith.constant 0.37 : f32
  %a2 = arith.constant 0.11 : f32
  %a3 = arith.constant 0.53 : f32
  %x16 = func.call @pattern2(%c16, %a1, %a2, %a3) : (index, f32, f32, f32) -> tensor<16x16xf32>
  %x = tensor.extract_slice %x16[0, 0] [4, 16] [1, 1] : tensor<16x16xf32> to tensor<4x16xf32>
  %w1 = func.call @pattern2(%c16, %a2, %a3, %a1) : (index, f32, f32, f32) -> tensor<16x16xf32>
  %w2 = func.call @pattern2(%c16, %a3, %a1, %a2) : (index, f32, f32, f32) -> tensor<16x16xf32>
  %w3 = func.call @pattern2(%c16, %a1, %a3, %a2) : (index, f32, f32, f32) -> tensor<16x16xf32>
  %bb = func.call @pattern2(%c16, %a2, %a1, %a3) : (index, f32, f32, f32) -> tensor<16x16xf32>
  %b1 = tensor.extract_slice %bb[0, 0] [1, 16] [1, 1] : tensor<16x16xf32> to tensor<16xf32>
  %b2 = tensor.extract_slice %bb[1, 0] [1, 16] [1, 1] : tensor<16x16xf32> to tensor<16xf32>
  %y = func.call @mlp(%x, %w1, %b1, %w2, %b2, %w3) : (tensor<4x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %u = tensor.cast %y : tensor<4x16xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(%ptr : tensor<*xf32>)
