//===- OutputFiles.cpp - Write every output or none -----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Support/OutputFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {

/// The path as an absolute one without `.` and `..` components, to tell
/// whether two outputs name one file (symbolic links are not followed: the
/// files may not exist yet).
std::string normalise(StringRef path) {
  SmallString<256> absolute(path);
  (void)sys::fs::make_absolute(absolute);
  sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return std::string(absolute);
}

Error cannotWrite(StringRef path, const Twine &why) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot write '" + path + "': " + why);
}

} // namespace

Error memplan::writeOutputFiles(ArrayRef<OutputFile> files) {
  for (size_t i = 0; i < files.size(); ++i)
    for (size_t j = i + 1; j < files.size(); ++j)
      if (normalise(files[i].path) == normalise(files[j].path))
        return createStringError(inconvertibleErrorCode(),
                                 "two outputs would be written to '" +
                                     files[j].path + "'");

  SmallVector<std::string> temporaries;
  auto removeTemporaries = [&] {
    for (const std::string &temporary : temporaries)
      (void)sys::fs::remove(temporary);
  };
  for (const OutputFile &file : files) {
    int descriptor = -1;
    SmallString<256> temporary;
    if (std::error_code error = sys::fs::createUniqueFile(
            file.path + "-%%%%%%%%.tmp", descriptor, temporary,
            sys::fs::OF_None, sys::fs::all_read | sys::fs::all_write)) {
      removeTemporaries();
      return cannotWrite(file.path, error.message());
    }
    temporaries.push_back(std::string(temporary));
    raw_fd_ostream os(descriptor, /*shouldClose=*/true);
    os << file.text;
    os.close();
    if (os.has_error()) {
      std::error_code error = os.error();
      os.clear_error();
      removeTemporaries();
      return cannotWrite(file.path, error.message());
    }
  }
  for (size_t i = 0; i < files.size(); ++i)
    if (std::error_code error =
            sys::fs::rename(temporaries[i], files[i].path)) {
      // Those renamed already stay: each is complete. The rest are removed.
      for (size_t k = i; k < files.size(); ++k)
        (void)sys::fs::remove(temporaries[k]);
      return cannotWrite(files[i].path, error.message());
    }
  return Error::success();
}

std::string memplan::sanitizeFileNamePart(StringRef name) {
  std::string result;
  result.reserve(name.size());
  for (char c : name)
    result.push_back(isAlnum(c) || c == '_' || c == '-' || c == '.' ? c : '_');
  if (result.find_first_not_of('.') == std::string::npos)
    result = "_" + result;
  return result;
}
