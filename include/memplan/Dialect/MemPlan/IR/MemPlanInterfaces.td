//===- MemPlanInterfaces.td - What the planner asks an op --*- tablegen -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The memory planner never looks at op names. It asks through this
// interface: does a result alias an operand (a view, no new memory), may a
// result overwrite an operand that dies at this op (in-place reuse), how many
// scratch bytes does the op need while it runs, and is that scratch a math
// library's workspace. Rematerialisation asks a second interface: may the op
// be run again, and what does that cost.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANINTERFACES_TD
#define MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANINTERFACES_TD

include "mlir/IR/OpBase.td"

def MemPlan_BufferPlanningOpInterface
    : OpInterface<"BufferPlanningOpInterface"> {
  let cppNamespace = "::memplan";
  let description = [{
    Describes how an op's results use memory, for static memory planning.

    * `getAliasedOperand(r)`: if result `r` is a view of an operand's buffer
      (a reshape, or an update written into an operand), the index of that
      operand. The result then gets no memory of its own and stretches the
      lifetime of the operand's buffer.
    * `writesAliasedOperand(r)`: whether the op writes result `r` into the
      memory of its aliased operand (a KV-cache update, an optimizer step in
      place), so that the operand's old value is gone once the op has run;
      false for a pure view (a reshape), which only reads it. Memory is only
      sound if nothing reads the old value after such an op. By default any
      aliased result is a write, the conservative answer.
    * `getInPlaceOperands(r)`: operands whose buffer result `r` may overwrite,
      element by element, when that operand has its last use at this op and its
      buffer is at least as large as the result. The op's kernel must read each
      element before it writes the same element.
    * `getScratchBytes()`: bytes of temporary device memory the op needs while
      it runs (freed when it ends), or failure if the count overflows 64 bits.
    * `isScratchLibraryWorkspace()`: whether that scratch is a math library's
      workspace (the cuBLAS workspace of a GEMM) rather than the op's own
      temporaries. Planning treats both alike; the memory report shows the
      library workspace on its own line, because it is the part of a step's
      memory that depends on the library and the GPU, not on the model.

    Ops without this interface are planned conservatively: every result gets a
    fresh buffer, no in-place reuse, no scratch.
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/"Operand whose buffer result `resultIndex` is a view of.",
      /*retTy=*/"std::optional<unsigned>",
      /*methodName=*/"getAliasedOperand",
      /*args=*/(ins "unsigned":$resultIndex),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return std::nullopt;">,
    InterfaceMethod<
      /*desc=*/"Whether result `resultIndex` is written into the memory of "
               "its aliased operand (not a pure view).",
      /*retTy=*/"bool",
      /*methodName=*/"writesAliasedOperand",
      /*args=*/(ins "unsigned":$resultIndex),
      /*methodBody=*/"",
      /*defaultImplementation=*/
        "return ::mlir::cast<::memplan::BufferPlanningOpInterface>("
        "$_op.getOperation()).getAliasedOperand(resultIndex).has_value();">,
    InterfaceMethod<
      /*desc=*/"Operands whose buffer result `resultIndex` may overwrite.",
      /*retTy=*/"::llvm::SmallVector<unsigned>",
      /*methodName=*/"getInPlaceOperands",
      /*args=*/(ins "unsigned":$resultIndex),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return {};">,
    InterfaceMethod<
      /*desc=*/"Scratch bytes needed while the op runs.",
      /*retTy=*/"::mlir::FailureOr<uint64_t>",
      /*methodName=*/"getScratchBytes",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return uint64_t(0);">,
    InterfaceMethod<
      /*desc=*/"Whether the op's scratch is a math library's workspace.",
      /*retTy=*/"bool",
      /*methodName=*/"isScratchLibraryWorkspace",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return false;">,
  ];
}

def MemPlan_RecomputableOpInterface
    : OpInterface<"RecomputableOpInterface"> {
  let cppNamespace = "::memplan";
  let description = [{
    An op that may be run a second time to recompute its results, and what
    that costs, for rematerialisation (`--memplan-fit-budget`).

    Implementing it states that the op's results depend only on its operands
    and attributes, bit for bit (no randomness, no state), so a clone placed
    later, reading the same operand values, computes the same results. (The
    op must also be free of memory effects; the pass checks that too.)

    * `getFlopCount()`: the arithmetic operations one run performs, the
      cost the pass minimises. The default counts one per result element;
      ops override it where a run does more (a matmul: 2·M·N·K) or only
      moves data (a transpose: 0). docs/planning.md lists the counts.
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/"Arithmetic operations of one run of the op.",
      /*retTy=*/"uint64_t",
      /*methodName=*/"getFlopCount",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/
        "return ::memplan::countResultElements($_op.getOperation());">,
  ];
}

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANINTERFACES_TD
