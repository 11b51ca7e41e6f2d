// Bad option values: one error each, a failing exit code, no output IR.

// RUN: not memplan-opt %s --plan-offsets="algorithm=fastest" 2>&1 | FileCheck %s --check-prefix=ALGORITHM
// ALGORITHM: error: unknown algorithm 'fastest'; expected one of: naive, greedy-by-size, greedy-by-breadth, best-fit, shared-objects, search
// ALGORITHM-NOT: func.func @f(%arg0

// RUN: not memplan-opt %s --plan-offsets="alignment=48" 2>&1 | FileCheck %s --check-prefix=ALIGNMENT
// ALIGNMENT: error: alignment must be a power of two, got 48
// ALIGNMENT-NOT: func.func @f(%arg0

// RUN: not memplan-opt %s --plan-offsets="alignment=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: alignment must be a power of two, got 0

// RUN: not memplan-opt %s --plan-offsets="report=%t.missing/dir/report.json" 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: error: cannot write '{{.*}}.missing/dir/report.json': cannot open output file

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = memplan.gelu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
