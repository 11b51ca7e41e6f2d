//===- InputBounds.cpp - Read inputs within stated bounds -----------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Support/InputBounds.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;

Expected<std::unique_ptr<MemoryBuffer>>
memplan::readBoundedInput(StringRef path, uint64_t maxStreamedBytes) {
  auto cannotRead = [&](std::error_code error) {
    return createStringError(error, "cannot read '%s': %s", path.str().c_str(),
                             error.message().c_str());
  };
  sys::fs::file_status status;
  if (path != "-") {
    if (std::error_code error = sys::fs::status(path, status))
      return cannotRead(error);
    if (sys::fs::is_directory(status))
      return createStringError(std::errc::is_a_directory,
                               "cannot read '%s': it is a directory",
                               path.str().c_str());
    if (sys::fs::is_regular_file(status)) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
          MemoryBuffer::getFile(path, /*IsText=*/true);
      if (!buffer)
        return cannotRead(buffer.getError());
      return std::move(*buffer);
    }
  }

  // A stream: read in chunks, and stop one byte past the bound.
  sys::fs::file_t handle = sys::fs::getStdinHandle();
  if (path != "-") {
    Expected<sys::fs::file_t> opened = sys::fs::openNativeFileForRead(path);
    if (!opened)
      return opened.takeError();
    handle = *opened;
  }
  SmallString<0> text;
  constexpr size_t kChunk = size_t(1) << 20;
  Error error = Error::success();
  while (true) {
    size_t size = text.size();
    if (size > maxStreamedBytes) {
      error = createStringError(
          std::errc::file_too_large,
          "'%s' goes on past %llu bytes, the bound on input that is not a "
          "regular file; write it to a file first",
          path.str().c_str(),
          static_cast<unsigned long long>(maxStreamedBytes));
      break;
    }
    size_t want = std::min<uint64_t>(kChunk, maxStreamedBytes + 1 - size);
    text.resize_for_overwrite(size + want);
    Expected<size_t> read = sys::fs::readNativeFile(
        handle, MutableArrayRef<char>(text.data() + size, want));
    if (!read) {
      error = read.takeError();
      break;
    }
    text.truncate(size + *read);
    if (*read == 0)
      break;
  }
  if (path != "-")
    sys::fs::closeFile(handle);
  if (error)
    return std::move(error);
  return MemoryBuffer::getMemBufferCopy(text, path == "-" ? "<stdin>" : path);
}

Error memplan::checkInputNesting(StringRef text, unsigned maxDepth) {
  unsigned depth = 0;
  size_t line = 1;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      break;
    case '"':
      // A string literal: skip to its closing quote (escapes included).
      for (++i; i < e && text[i] != '"'; ++i) {
        if (text[i] == '\\')
          ++i;
        else if (text[i] == '\n')
          ++line;
      }
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        while (i + 1 < e && text[i + 1] != '\n')
          ++i;
      break;
    case '{':
    case '(':
    case '[':
      if (++depth > maxDepth)
        return createStringError(
            std::errc::invalid_argument,
            "line %zu: the input nests brackets more than %u deep; memplan's "
            "tools refuse such input rather than overflow the parser's stack",
            line, maxDepth);
      break;
    case '}':
    case ')':
    case ']':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return Error::success();
}

Expected<std::unique_ptr<MemoryBuffer>>
memplan::readBoundedMlirInput(StringRef path, uint64_t maxStreamedBytes) {
  Expected<std::unique_ptr<MemoryBuffer>> input =
      readBoundedInput(path, maxStreamedBytes);
  if (!input)
    return input.takeError();
  if (Error deep = checkInputNesting((*input)->getBuffer()))
    return createStringError(inconvertibleErrorCode(),
                             path + ": " + toString(std::move(deep)));
  return input;
}
