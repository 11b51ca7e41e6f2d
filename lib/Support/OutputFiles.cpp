//===- OutputFiles.cpp - Write every output or none -----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Support/OutputFiles.h"

#include "llvm/ADT/STLExtras.h"
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
  // A path that exists and is not a regular file (/dev/null, /dev/stdout, a
  // pipe) is written in place: renaming a temporary over it would replace
  // the device or pipe with a file. It is written after every temporary, so
  // that its failure (/dev/full) still leaves no regular file changed, and
  // two outputs may name it (`--output /dev/null --svg /dev/null`).
  auto isSpecial = [](StringRef path) {
    sys::fs::file_status status;
    return !sys::fs::status(path, status) && sys::fs::exists(status) &&
           !sys::fs::is_regular_file(status) && !sys::fs::is_directory(status);
  };
  for (size_t i = 0; i < files.size(); ++i)
    for (size_t j = i + 1; j < files.size(); ++j)
      if (normalise(files[i].path) == normalise(files[j].path) &&
          !isSpecial(files[i].path))
        return createStringError(inconvertibleErrorCode(),
                                 "two outputs would be written to '" +
                                     files[j].path + "'");

  SmallVector<std::string> temporaries(files.size());
  auto removeTemporaries = [&] {
    for (const std::string &temporary : temporaries)
      if (!temporary.empty())
        (void)sys::fs::remove(temporary);
  };
  auto write = [](int descriptor, StringRef text) -> std::error_code {
    raw_fd_ostream os(descriptor, /*shouldClose=*/true);
    os << text;
    os.close();
    std::error_code error = os.error();
    os.clear_error();
    return error;
  };
  for (auto [index, file] : llvm::enumerate(files)) {
    if (isSpecial(file.path))
      continue;
    int descriptor = -1;
    SmallString<256> temporary;
    if (std::error_code error = sys::fs::createUniqueFile(
            file.path + "-%%%%%%%%.tmp", descriptor, temporary,
            sys::fs::OF_None, sys::fs::all_read | sys::fs::all_write)) {
      removeTemporaries();
      return cannotWrite(file.path, error.message());
    }
    temporaries[index] = std::string(temporary);
    if (std::error_code error = write(descriptor, file.text)) {
      removeTemporaries();
      return cannotWrite(file.path, error.message());
    }
  }
  for (auto [index, file] : llvm::enumerate(files)) {
    if (!temporaries[index].empty())
      continue;
    int descriptor = -1;
    std::error_code error = sys::fs::openFileForWrite(
        file.path, descriptor, sys::fs::CD_OpenExisting, sys::fs::OF_None);
    if (!error)
      error = write(descriptor, file.text);
    if (error) {
      removeTemporaries();
      return cannotWrite(file.path, error.message());
    }
  }
  for (auto [index, file] : llvm::enumerate(files)) {
    if (temporaries[index].empty())
      continue;
    if (std::error_code error =
            sys::fs::rename(temporaries[index], file.path)) {
      // Those renamed already stay: each is complete. The rest are removed.
      for (size_t k = index; k < files.size(); ++k)
        if (!temporaries[k].empty())
          (void)sys::fs::remove(temporaries[k]);
      return cannotWrite(file.path, error.message());
    }
  }
  return Error::success();
}

Error memplan::keepOutput(ToolOutputFile &output) {
  raw_fd_ostream &os = output.os();
  os.flush();
  if (os.has_error()) {
    std::error_code error = os.error();
    os.clear_error();
    return cannotWrite(output.getFilename(), error.message());
  }
  output.keep();
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
