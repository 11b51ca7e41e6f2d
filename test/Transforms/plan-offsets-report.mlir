// RUN: memplan-opt %s --plan-offsets="report=%t.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --input-file=%t.json

// The view %1 shares the matmul's buffer, the gelu is computed in place over
// the attention output, and the attention's scratch is a buffer of its own.
// The gelu's result is returned, so its buffer (with the attention output)
// is the caller's buffer of result 0: a destination, not an offset.

// CHECK:      {
// CHECK-NEXT:   "functions": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "name": "block",
// CHECK-NEXT:       "algorithm": "greedy-by-size",
// CHECK-NEXT:       "alignment": 256,
// CHECK-NEXT:       "arena_bytes": 1152,
// CHECK-NEXT:       "lower_bound_bytes": 1152,
// CHECK-NEXT:       "bytes_without_reuse": 1152,
// CHECK-NEXT:       "external_bytes": 5120,
// CHECK-NEXT:       "buffer_count": 3,
// CHECK-NEXT:       "buffers": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "id": 0,
// CHECK-NEXT:           "kind": "result",
// CHECK-NEXT:           "value": "%0",
// CHECK-NEXT:           "op": "memplan.matmul",
// CHECK-NEXT:           "bytes": 1024,
// CHECK-NEXT:           "start": 0,
// CHECK-NEXT:           "end": 3,
// CHECK-NEXT:           "offset": 0,
// CHECK-NEXT:           "shared_with": [
// CHECK-NEXT:             {
// CHECK-NEXT:               "value": "%1",
// CHECK-NEXT:               "role": "view"
// CHECK-NEXT:             }
// CHECK-NEXT:           ]
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "id": 1,
// CHECK-NEXT:           "kind": "result",
// CHECK-NEXT:           "value": "%2",
// CHECK-NEXT:           "op": "memplan.attention",
// CHECK-NEXT:           "bytes": 1024,
// CHECK-NEXT:           "start": 2,
// CHECK-NEXT:           "end": 5,
// CHECK-NEXT:           "destination": 0,
// CHECK-NEXT:           "shared_with": [
// CHECK-NEXT:             {
// CHECK-NEXT:               "value": "%3",
// CHECK-NEXT:               "role": "in-place"
// CHECK-NEXT:             }
// CHECK-NEXT:           ]
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "id": 2,
// CHECK-NEXT:           "kind": "scratch",
// CHECK-NEXT:           "op": "memplan.attention",
// CHECK-NEXT:           "bytes": 128,
// CHECK-NEXT:           "start": 2,
// CHECK-NEXT:           "end": 3,
// CHECK-NEXT:           "offset": 1024
// CHECK-NEXT:         }
// CHECK-NEXT:       ],
// CHECK-NEXT:       "externals": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "value": "%arg0",
// CHECK-NEXT:           "kind": "argument",
// CHECK-NEXT:           "bytes": 1024
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "value": "%arg1",
// CHECK-NEXT:           "kind": "argument",
// CHECK-NEXT:           "bytes": 4096
// CHECK-NEXT:         }
// CHECK-NEXT:       ]
// CHECK-NEXT:     }
// CHECK-NEXT:   ]
// CHECK-NEXT: }
func.func @block(%x: tensor<1x8x32xf32>, %w: tensor<32x32xf32>) -> tensor<1x2x8x16xf32> {
  %0 = memplan.matmul %x, %w : tensor<1x8x32xf32>, tensor<32x32xf32> -> tensor<1x8x32xf32>
  %1 = memplan.reshape %0 : tensor<1x8x32xf32> -> tensor<1x2x8x16xf32>
  %2 = memplan.attention %1, %1, %1 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  %3 = memplan.gelu %2 : tensor<1x2x8x16xf32>
  return %3 : tensor<1x2x8x16xf32>
}
