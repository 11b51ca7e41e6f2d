//===- OutputFiles.h - Write every output or none ---------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Part of memplan. The tools and passes that write files beside their
// main output (plans, SVG pictures, JSON reports) write them through here,
// so that a failing run leaves no file half-written, replaced or behind:
// every text goes to a temporary file next to its path, and only when all
// of them are written are they renamed into place, each rename atomic.
// (llvm::writeToOutput does this for one file; a run writes several.)
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_SUPPORT_OUTPUTFILES_H
#define MEMPLAN_SUPPORT_OUTPUTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ToolOutputFile.h"

#include <string>

namespace memplan {

/// One file to write: its path and its whole contents.
struct OutputFile {
  std::string path;
  std::string text;
};

/// Writes all of `files` or none of them. Fails, writing nothing, when two
/// of them name one file (the same path up to `.` and `..` components) or
/// when a file cannot be created, written or renamed into place; the error
/// names the path. A path that existed before is replaced only on success.
llvm::Error writeOutputFiles(llvm::ArrayRef<OutputFile> files);

/// Flushes a tool's main output and keeps it (ToolOutputFile::keep) when
/// every byte was written; otherwise returns the error (a full disk), and the
/// file is removed when `output` is destroyed. Without this, a write error
/// is reported by the stream's destructor as an `LLVM ERROR`.
llvm::Error keepOutput(llvm::ToolOutputFile &output);

/// `name` made safe as part of a file name: letters, digits, `_`, `-` and
/// `.` are kept, every other byte becomes `_`, and a name that would be
/// empty or only dots becomes `_` (so no `/`, no `..`, no control
/// characters reach a path from a symbol name).
std::string sanitizeFileNamePart(llvm::StringRef name);

} // namespace memplan

#endif // MEMPLAN_SUPPORT_OUTPUTFILES_H
