//===- FormatBytes.h - Byte counts for people -------------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_SUPPORT_FORMATBYTES_H
#define MEMPLAN_SUPPORT_FORMATBYTES_H

#include <cstdint>
#include <string>

namespace memplan {

/// `bytes` in the largest binary unit that keeps at least 1: "512 B",
/// "1.50 KiB", "88.64 MiB", up to EiB. Used by the SVG pictures and the
/// memory report, so that both print a size the same way.
std::string formatBytes(uint64_t bytes);

} // namespace memplan

#endif // MEMPLAN_SUPPORT_FORMATBYTES_H
