//===- InputBounds.h - Read inputs within stated bounds ---------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tools that parse MLIR read their input through here, so that input
// without an end (`/dev/zero`, an endless pipe) is an error once it passes a
// stated size instead of exhausting memory (an `LLVM ERROR` or the OOM
// killer), and nesting deep enough to overflow the parser's stack (MLIR's
// parser recurses once per region, attribute and type level) is an error
// before parsing starts instead of a crash.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_SUPPORT_INPUTBOUNDS_H
#define MEMPLAN_SUPPORT_INPUTBOUNDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace memplan {

/// The default bound on an input that is not a regular file (a pipe, a
/// device): 1 GiB. A regular file's size is known before it is read and is
/// not bounded.
constexpr uint64_t kDefaultMaxStreamedInputBytes = uint64_t(1) << 30;

/// The deepest nesting of `{`, `(` and `[` accepted, counted outside string
/// literals and comments: far above any real program (a few dozen levels),
/// far below what overflows an 8 MiB stack (about 4,000 nested regions).
constexpr unsigned kMaxInputNesting = 1000;

/// Reads `path` ("-": standard input). A regular file is mapped whole;
/// anything else is read up to `maxStreamedBytes`, and an input that goes on
/// past them is an error naming the bound.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readBoundedInput(llvm::StringRef path,
                 uint64_t maxStreamedBytes = kDefaultMaxStreamedInputBytes);

/// Checks that MLIR text nests no deeper than `maxDepth` (see
/// kMaxInputNesting); the error names the line where the bound is passed.
llvm::Error checkInputNesting(llvm::StringRef text,
                              unsigned maxDepth = kMaxInputNesting);

/// How the tools that parse MLIR read it: readBoundedInput, then
/// checkInputNesting (its error prefixed with `path`).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readBoundedMlirInput(llvm::StringRef path, uint64_t maxStreamedBytes);

} // namespace memplan

#endif // MEMPLAN_SUPPORT_INPUTBOUNDS_H
