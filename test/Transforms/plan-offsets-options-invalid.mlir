// Bad option values: one error each, a failing exit code, no output IR.

// The algorithm and the arena mode are enum options: a misspelt value is
// refused where the option is parsed, naming the option (--help lists the
// values), by the passes and by the pipelines that take their options, with
// no second, blank "error:" line after it.
// RUN: not memplan-opt %s --plan-offsets="algorithm=fastest" 2>&1 | FileCheck %s --check-prefix=ALGORITHM --implicit-check-not=error:
// ALGORITHM: for the --algorithm option: Cannot find option named 'fastest'!
// ALGORITHM-NOT: func.func @f(%arg0
// RUN: not memplan-opt %s --memplan-plan-pipeline="algorithm=fastest" 2>&1 | FileCheck %s --check-prefix=ALGORITHM --implicit-check-not=error:
// RUN: not memplan-opt %s --memplan-pack-allocs="arena-mode=heap" 2>&1 | FileCheck %s --check-prefix=ARENA-MODE --implicit-check-not=error:
// ARENA-MODE: for the --arena-mode option: Cannot find option named 'heap'!

// The other checks name the pass and the option.
// RUN: not memplan-opt %s --memplan-pack-pipeline="alignment=3" 2>&1 | FileCheck %s --check-prefix=PIPELINE-ALIGNMENT
// PIPELINE-ALIGNMENT: --memplan-pack-allocs:0:0: error: alignment must be a power of two, got 3
// RUN: not memplan-opt %s --plan-offsets="capacity=64" 2>&1 | FileCheck %s --check-prefix=CAPACITY
// CAPACITY: --plan-offsets:0:0: error: capacity needs algorithm=search

// RUN: not memplan-opt %s --plan-offsets="alignment=48" 2>&1 | FileCheck %s --check-prefix=ALIGNMENT
// ALIGNMENT: --plan-offsets:0:0: error: alignment must be a power of two, got 48
// ALIGNMENT-NOT: func.func @f(%arg0

// RUN: not memplan-opt %s --plan-offsets="alignment=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: alignment must be a power of two, got 0

// A search budget must be a finite number of seconds in [0, 10^6]: an
// infinite or huge one once overflowed the deadline (undefined behaviour),
// a negative or NaN one was taken as 0 without a word.
// RUN: not memplan-opt %s --plan-offsets="algorithm=search search-seconds=inf" 2>&1 | FileCheck %s --check-prefix=INF
// INF: error: search-seconds must be a number of seconds from 0 to 1000000, got inf
// INF-NOT: func.func @f(%arg0
// RUN: not memplan-opt %s --plan-offsets="algorithm=search search-seconds=nan" 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: error: search-seconds must be a number of seconds from 0 to 1000000, got nan
// RUN: not memplan-opt %s --plan-offsets="search-seconds=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: search-seconds must be a number of seconds from 0 to 1000000, got -1
// RUN: not memplan-opt %s --plan-offsets="search-seconds=1e300" 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: search-seconds must be a number of seconds from 0 to 1000000, got 1e+300
// RUN: not memplan-opt %s --memplan-pack-allocs="search-seconds=-0.5" 2>&1 | FileCheck %s --check-prefix=PACK
// PACK: error: search-seconds must be a number of seconds from 0 to 1000000, got -0.5

// RUN: not memplan-opt %s --plan-offsets="report=%t.missing/dir/report.json" 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: error: cannot write '{{.*}}.missing/dir/report.json': No such file or directory

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = memplan.gelu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
