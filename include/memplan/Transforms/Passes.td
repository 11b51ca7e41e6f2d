//===- Passes.td - memplan passes --------------------------*- tablegen -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_PASSES_TD
#define MEMPLAN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// The options every planning pass takes, declared once. The algorithm is an
// enum whose values come from the planner's table (AlgorithmOption.h); the
// budgets apply to each arena planned (a function's, for --plan-offsets).
defvar PlannerOptions = [
  Option<"algorithm", "algorithm", "::memplan::Algorithm",
         "::memplan::Algorithm::GreedyBySize", "Offset algorithm",
         "::memplan::algorithmValues()">,
  Option<"searchSeconds", "search-seconds", "double", "1.0",
         "search: wall-clock budget per arena">,
  Option<"searchNodes", "search-nodes", "uint64_t", "0",
         "search: node budget per arena, for reproducible results (0: "
         "none)">,
  Option<"capacity", "capacity", "uint64_t", "0",
         "search: every arena must fit in this many bytes (0: minimise); an "
         "arena that does not fit is an error">,
];

// --plan-offsets and --memplan-verify-plan run on a builtin.module (the
// plain flag) or on one function (scheduled by the pass manager, e.g.
// `builtin.module(func.func(plan-offsets))`, which plans functions in
// parallel); their canScheduleOn says so.
def PlanOffsets : Pass<"plan-offsets"> {
  let summary = "Place every intermediate tensor of each function in one arena";
  let description = [{
    Runs on a `builtin.module` (its functions and those of nested modules) or
    on a single function, where a pipeline nests it
    (`builtin.module(func.func(plan-offsets))`); the `report` and `svg` files
    cover a whole module and need the former.

    For every function with a body: computes the lifetime of every
    intermediate tensor (BufferLiveness), plans an offset for each in one
    arena with the chosen algorithm, checks the plan with the independent
    validator, and writes it into the IR:

    * `memplan.offsets = array<i64: ...>` on every op with planned results
      (-1 for results outside the arena: views of arguments, non-tensors,
      values in a caller's result buffer), `memplan.scratch_offset` on ops
      with scratch memory;
    * `memplan.destinations = array<i64: ...>` on ops whose results are
      computed in a caller's result buffer (destination passing, on unless
      `results-in-caller-buffers=false`): the result's index, -1 for others;
    * `memplan.arena_size`, `memplan.lower_bound` and `memplan.alignment` on
      the function.

    A remark per function sums the plan up: arena, lower bound, their ratio,
    bytes without reuse, buffer count. `report=` writes every buffer as JSON.

    Example:

    ```mlir
    func.func @f(%x: tensor<256xf32>) -> tensor<256xf32> {
      %0 = memplan.gelu %x : tensor<256xf32>
      %1 = memplan.relu %0 : tensor<256xf32>
      return %1 : tensor<256xf32>
    }
    ```

    becomes, with `in-place=false`:

    ```mlir
    func.func @f(%x: tensor<256xf32>) -> tensor<256xf32>
        attributes {memplan.alignment = 256 : i64, memplan.arena_size = 1024 : i64,
                    memplan.lower_bound = 1024 : i64} {
      %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
      %1 = memplan.relu %0 {memplan.destinations = array<i64: 0>,
                            memplan.offsets = array<i64: -1>} : tensor<256xf32>
      return %1 : tensor<256xf32>
    }
    ```
  }];
  let options = PlannerOptions # [
    Option<"alignment", "alignment", "uint64_t", "256",
           "Byte alignment of every offset (a power of two); 256 matches "
           "cudaMalloc, so every tensor is as aligned as its own allocation "
           "would be">,
    Option<"inPlace", "in-place", "bool", "true",
           "Let a result overwrite an operand that dies at its op, when the "
           "op allows it and the operand's buffer is large enough">,
    Option<"resultsInCallerBuffers", "results-in-caller-buffers", "bool",
           "true",
           "Compute each returned value (and what shares its memory) in the "
           "caller's buffer of that result, outside the arena "
           "(memplan.destinations), instead of in the arena">,
    Option<"schedule", "schedule", "bool", "false",
           "First reorder each function's ops to lower its lower bound, as "
           "--memplan-schedule does (measured with this pass's in-place and "
           "results-in-caller-buffers)">,
    Option<"fitBudget", "fit-budget", "uint64_t", "0",
           "Then, if non-zero, recompute kept values until each function's "
           "lower bound fits in this many bytes, as --memplan-fit-budget "
           "does (with schedule, as its schedule option: reordering between "
           "rounds)">,
    Option<"reportFile", "report", "std::string", "\"\"",
           "Write the plan as JSON to this file">,
    Option<"svgFile", "svg", "std::string", "\"\"",
           "Draw the plan as SVG to this file (with several functions, one "
           "file each: NAME.svg becomes NAME.<function>.svg)">,
  ];
  let dependentDialects = ["::memplan::MemPlanDialect"];
}

def ScheduleOps : Pass<"memplan-schedule", "::mlir::ModuleOp"> {
  let summary = "Reorder each function's ops to lower its arena's lower bound";
  let description = [{
    The most bytes live at once, the bound every offset plan is measured
    against, depends on the op order. This pass reorders the ops of each
    function's body (one block) within their dependencies and keeps the
    order with the lowest lower bound. Run it before `--plan-offsets`.

    Dependencies: SSA uses (also from inside an op's regions); around an op
    that writes into an operand's memory (`writesAliasedOperand`: a
    KV-cache update, an optimizer step in place), every other access to
    that memory keeps its side of the writer; ops with memory effects that
    do not describe their memory through `BufferPlanningOpInterface` keep
    their order among themselves; the terminator stays last.

    Candidates (`Scheduling.h`): the input order, two list schedulers (least
    bytes at the step first; most bytes freed first), depth-first,
    breadth-first and, for bodies of at most `exact-ops` ops, the exact
    order of least peak (dynamic programming over sets of scheduled ops).
    Each candidate's lower bound is measured exactly, by the liveness
    `--plan-offsets` uses (with its `in-place` and
    `results-in-caller-buffers` options), and the best is kept; ties keep
    the input order, so a function is never made worse. One remark per
    function gives the lower bound before and after.
  }];
  let options = [
    Option<"inPlace", "in-place", "bool", "true",
           "Measure lower bounds as --plan-offsets with in-place=true plans">,
    Option<"resultsInCallerBuffers", "results-in-caller-buffers", "bool",
           "true",
           "Measure lower bounds with returned values in the caller's "
           "buffers, as --plan-offsets does by default">,
    Option<"exactOps", "exact-ops", "unsigned", "16",
           "Search the exact order for bodies of at most this many ops "
           "(at most 24)">,
  ];
  let statistics = [
    Statistic<"numReordered", "reordered", "Functions whose order changed">,
    Statistic<"numKept", "kept", "Functions whose input order was best">,
  ];
  let dependentDialects = ["::memplan::MemPlanDialect"];
}

def FitBudget : Pass<"memplan-fit-budget", "::mlir::ModuleOp"> {
  let summary = "Recompute kept values to fit each function's lower bound "
                "in a budget";
  let description = [{
    When a function's lower bound (the most bytes live at once) exceeds
    `budget`, values that stay live across the peak without being used
    there (activations a training step keeps for its backward pass) are
    dropped after their last use before the peak and computed again, by
    clones of the ops that made them, right before their next use. Only
    ops implementing `RecomputableOpInterface` and free of memory effects
    are cloned; a clone never reads memory that an op writes in place
    (`writesAliasedOperand`) between the original and the clone. The
    recomputations are chosen greedily, the most bytes removed at the peak
    per operation (`getFlopCount`) first (`Rematerialization.h`), until the
    bound fits; the result is measured with the liveness `--plan-offsets`
    uses (its `in-place` and `results-in-caller-buffers` options). With
    `schedule` (the default), a round that leaves the bound over the budget
    is followed by a reordering of the ops (as `--memplan-schedule`, the
    clones kept late) and another round, while the bound falls; the rounds
    then run once more from the input in the order they ended with, and
    the better end is kept (fits, then fewer operations, then lower).
    `schedule=false` keeps the input order.

    Each clone carries `memplan.recomputed`; the function records the bound
    before (`memplan.unrematerialized_lower_bound`) and the operations
    added (`memplan.recomputed_flops`), which the memory report prints. A
    function that cannot be brought under the budget is an error that says
    how low recomputation gets, and is left as it was. Run it after
    `--memplan-schedule` (which lowers the bound without recomputing) and
    before `--plan-offsets`, or through `--plan-offsets=fit-budget=BYTES`.
  }];
  let options = [
    Option<"budget", "budget", "uint64_t", "0",
           "Bytes each function's lower bound must fit in (required)">,
    Option<"bestEffort", "best-effort", "bool", "false",
           "When a function cannot fit, keep the recomputations that lower "
           "its bound most and warn, instead of failing">,
    Option<"maxCopies", "max-copies", "unsigned", "1",
           "Most copies of one op (1: every op runs at most twice, so what "
           "is recomputed is at most one run of every recomputable op; more "
           "can reach lower bounds at a higher cost)">,
    Option<"schedule", "schedule", "bool", "true",
           "When a round of recomputation leaves the bound over the budget, "
           "reorder the ops as --memplan-schedule does (recomputations kept "
           "late) and recompute again from the new order (false: keep the "
           "input order)">,
    Option<"inPlace", "in-place", "bool", "true",
           "Measure lower bounds as --plan-offsets with in-place=true plans">,
    Option<"resultsInCallerBuffers", "results-in-caller-buffers", "bool",
           "true",
           "Measure lower bounds with returned values in the caller's "
           "buffers, as --plan-offsets does by default">,
  ];
  let statistics = [
    Statistic<"numRecomputedOps", "recomputed-ops", "Ops added to recompute "
              "values">,
    Statistic<"numRecomputedFlops", "recomputed-flops", "Arithmetic "
              "operations those ops perform">,
    Statistic<"numRerunsKept", "reruns-kept", "Functions where the rounds "
              "run again from the input, in the order the first rounds "
              "ended with, did better (schedule)">,
  ];
  let dependentDialects = ["::memplan::MemPlanDialect"];
}

def PackAllocs : Pass<"memplan-pack-allocs", "::mlir::ModuleOp"> {
  let summary = "Pack the memref.alloc buffers of each function into arenas";
  let description = [{
    For upstream IR after bufferization (before or after a deallocation
    pipeline): plans every `memref.alloc` that may share bytes with others
    into an arena, replaces it by a `memref.view` of the arena at its planned
    offset, and removes its deallocations.

    Which buffers may share bytes, and when they are live, is decided by one
    model of memref aliasing and escape (`MemRefAliasModel.h`) built on
    `BufferViewFlowAnalysis` and `MemoryEffectOpInterface`: a buffer is
    packed only when every use of it and of its aliases is understood, and
    lives from the first use of any alias (an allocation hoisted away from
    it plans as if made there) to the last. A buffer of GPU workgroup
    memory, shared by the threads of a workgroup, lives on to the next
    `gpu.barrier` of the function's body (with `workgroup-barriers`, the
    pass inserts the barriers its packing needs instead). Buffers that are
    returned, kept by a call, exposed as a pointer or another type, used by
    ops of unknown effect, allocated in parallel loops or in functions with
    unstructured control flow are left alone, each with a remark naming the
    reason and the op. Allocations inside `scf.for`/`scf.while` bodies and `scf.if`
    branches are packed when they die within their iteration; `?` sizes
    given by constants count as static. Sizes are the lowering's: the
    DataLayout size of each element rounded to its ABI alignment (`i1`:
    1 byte, `vector<3xf32>`: 16 bytes). Offsets keep every alignment the
    program states or assumes of a buffer: the alloc's attribute, its
    elements' and every alias's elements' (a byte buffer viewed as `f64`),
    `memref.assume_alignment` of an alias, an access's `alignment`.

    There is one arena per memory space, and per stretch of the function in
    which buffers are live: an arena is allocated before the top-level op
    where its first buffer is born and freed after the one where its last
    dies (when the buffers it replaces were freed). The function's peak --
    the arenas plus every buffer left alone, freed at its last use -- is
    never above the peak with every buffer freed at its last use: an arena
    that would raise it is given up. A remark per memory space reports the
    arenas, their lower bound and both peaks.

    With `arena-mode=arg`, the caller passes the arena: the function takes
    one more argument per memory space (`memref<Nxi8>`, marked
    `memplan.arena`), and `@<name>_arena_size()` returns the sizes.

    ```mlir
    %a = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
    ... uses of %a ...
    %b = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
    ... uses of %b ...
    memref.dealloc %a : memref<4x16xf32>
    memref.dealloc %b : memref<4x16xf32>
    ```

    becomes, when %a is dead before %b is born:

    ```mlir
    %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
    %a = memref.view %arena[%c0][] : memref<256xi8> to memref<4x16xf32>
    ...
    %b = memref.view %arena[%c0][] : memref<256xi8> to memref<4x16xf32>
    ...
    memref.dealloc %arena : memref<256xi8>
    ```
  }];
  let options = PlannerOptions # [
    Option<"alignment", "alignment", "uint64_t", "64",
           "Minimum byte alignment of every offset (a power of two); each "
           "alloc's own alignment attribute and element type can ask for "
           "more">,
    Option<"arenaMode", "arena-mode", "::memplan::ArenaMode",
           "::memplan::ArenaMode::Alloc",
           "Who allocates the arenas",
           [{::llvm::cl::values(
               clEnumValN(::memplan::ArenaMode::Alloc, "alloc",
                          "the function allocates its arenas"),
               clEnumValN(::memplan::ArenaMode::Argument, "arg",
                          "the caller passes one arena per memory space as "
                          "trailing arguments, sized by the generated "
                          "@<name>_arena_size()"))}]>,
    Option<"workgroupBarriers", "workgroup-barriers", "bool", "false",
           "Let a GPU workgroup buffer take the bytes of one last used "
           "before it without a gpu.barrier between them, inserting one "
           "before its first use (each function must run in every thread "
           "of a workgroup, in uniform control flow: a kernel)">,
  ];
  let statistics = [
    Statistic<"numPacked", "packed", "Allocations replaced by arena views">,
    Statistic<"numLeftAlone", "left-alone", "Allocations left alone">,
    Statistic<"numArenas", "arenas", "Arenas allocated">,
    Statistic<"numBarriers", "barriers",
              "gpu.barrier ops inserted (workgroup-barriers)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect"];
}

def VerifyPacking : Pass<"memplan-verify-packing", "::mlir::ModuleOp"> {
  let summary = "Check packed memref IR, independently of the planner";
  let description = [{
    Checks the output of `--memplan-pack-allocs` (or any IR that carves
    buffers out of one `memref<Nxi8>` with `memref.view`s) with a checker
    written apart from the planner and deliberately more conservative: it
    shares neither the alias model nor the positions nor the size code.

    * Every use of an arena is a `memref.view` at a constant offset (or its
      `memref.dealloc`); each view's byte range, computed from the LLVM
      types the lowering produces, lies inside the arena and is aligned for
      its element type, for the element types of every memref it reaches,
      and for what their uses assume (`memref.assume_alignment`) or state
      (an access's `alignment`).
    * Each view reaches the memref values derived from it by any op (every
      memref result, region argument and, through terminators, result of
      the enclosing op), and a use by an op that does not only read or write
      it (a pointer extraction, a cast, an unknown op, an external call)
      makes it live forever. A view that is freed, returned, or lives on
      into the next iteration of its loop lives forever too.
    * Two views whose bytes overlap must be dead at each other's uses:
      their uses, seen from the innermost block holding both, must occupy
      disjoint positions, or lie in mutually exclusive branches; views
      inside a loop whose iterations may run at once never share bytes.
    * The arena's dealloc comes after the last use of every view (but for
      a byte buffer of the program's own, unmarked and viewed once, whose
      free is the program's affair).

    The first violation is an error naming both values.
  }];
  // The byte sizes come from the LLVM types of the lowering; the dialect is
  // loaded before functions are checked in parallel.
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def VerifyPlan : Pass<"memplan-verify-plan"> {
  let summary = "Check the offsets written in the IR with the validator";
  let description = [{
    Runs on a `builtin.module` or on a single function, as --plan-offsets.
    Reads a plan from the IR (written by --plan-offsets, by hand or by another
    tool), recomputes the lifetimes, and proves it with the independent
    validator: no two tensors live at the same time overlap in memory, every
    offset is aligned to `memplan.alignment`, the arena is exactly the end of
    the highest buffer, and every view sits at its source's offset. A result
    at the same offset as an operand that dies at its op counts as computed
    in place when the op allows it. The first conflict is an error naming both
    values.
  }];
  let dependentDialects = ["::memplan::MemPlanDialect"];
}

def MemoryReport : Pass<"memplan-memory-report", "::mlir::ModuleOp"> {
  let summary = "Report every byte a planned function needs, by role";
  let description = [{
    For each planned function (run --plan-offsets first), prints a table of
    the device memory it needs: weights by element type and parameter count,
    KV caches, inputs, optimizer states, master weights, gradient and
    communication buffers (from the arguments' `memplan.role`), the planned
    activation arena against its lower bound and the bytes without reuse,
    the scratch, the gradients and the gathered weights inside the arena
    (from `memplan.result_roles`), the outputs (caller buffers in generated
    code), the total and the bytes per parameter, and what PyTorch's
    caching allocator would show for the same tensors (a model). With
    several functions it ends with the largest total and its function.
    `cuda-context=` adds the CUDA context as a runtime overhead on its own
    line, with the total that includes it. `allocator-steps=` sets how many
    steps the caching-allocator model runs (its peaks are the last step's;
    default 2, as a training loop shows them from its second step on).
    `json=` also writes it as JSON.
  }];
  let dependentDialects = ["::memplan::MemPlanDialect"];
  let options = [
    Option<"jsonFile", "json", "std::string", "\"\"",
           "Also write the report as JSON to this file">,
    Option<"cudaContext", "cuda-context", "uint64_t", "0",
           "Bytes of the CUDA context: a runtime overhead, printed on its "
           "own line with the total beside it, never part of the plan">,
    Option<"allocatorSteps", "allocator-steps", "unsigned", "2",
           "Steps the caching-allocator model runs, reporting the last "
           "one's peaks: 1 is the first step, with the arguments made in "
           "it (memplan.created_in_first_step); from 1 to 1000">,
  ];
}

#endif // MEMPLAN_TRANSFORMS_PASSES_TD
