//===- AsanDefaultOptions.cpp - ASan options of sanitized builds ----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiled into every executable of a MEMPLAN_SANITIZE build. memplan is
// instrumented; Debian's LLVM and MLIR are not. LLVM's headers poison and
// unpoison BumpPtrAllocator slabs when the including code is instrumented
// (LLVM_ADDRESS_SANITIZER_BUILD), so an instrumented copy of an allocator
// function that the linker picks for all callers poisons memory that the
// uninstrumented MLIR code then uses without unpoisoning: a false
// use-after-poison in MLIRContext's constructor. Manual poisoning is turned
// off; every other ASan check stays on.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
