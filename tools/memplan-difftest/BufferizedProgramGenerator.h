//===- BufferizedProgramGenerator.h - Random programs --------- -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Writes random programs in the style of bufferized upstream IR, to be
// packed, lowered and run: the oracle is the same program run unpacked.
//
// A program is a function @kernel(%in, %out, %cond, %n) -> memref<16xf32>
// that allocates buffers, fills them from the input and from each other,
// and finally adds every buffer's contents into %out; and @main, which calls
// it twice (both branches of %cond) and returns a checksum of %out and of
// the returned buffers. Every buffer gets distinct contents and every one is
// read after the buffers born while it lives were written, so two live
// buffers that share bytes change the checksum.
//
// What the kernels use, at random: f32, f64, i8, i1, i4, index and
// vector<3xf32> elements; memory space 1; 2-D buffers accessed through
// collapse_shape; subviews, reinterpret_casts and casts; arith.select of
// two buffers; scf.if branches, scf.index_switch cases, scf.execute_region,
// and scf.for/scf.while/affine.for bodies with buffers of their own (and an
// outer buffer updated inside), sometimes one region op nested in another
// while a buffer of the outer one lives; scf.forall/scf.parallel iterations
// with buffers of their own; a buffer carried through scf.for iter_args;
// elementwise linalg.generic writes, 1-D or 2-D through expand_shape, some
// in place or reading their output; linalg.fill and memref.copy of a
// prefix; linalg.matmul into a filled buffer; calls of functions that read or
// write a buffer; an address taken with extract_aligned_pointer_as_index and
// read through later; memref.assume_alignment of an alloc (its attribute's
// alignment, or malloc's 16 bytes); i8 allocs viewed as f32 or f64 by
// memref.view; a returned buffer; `?` sizes given by
// constants; no
// deallocs, deallocs at each buffer's last use, or all at the end.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_DIFFTEST_BUFFERIZEDPROGRAMGENERATOR_H
#define MEMPLAN_TOOLS_DIFFTEST_BUFFERIZEDPROGRAMGENERATOR_H

#include <cstdint>
#include <string>

namespace memplan {

struct ProgramFeatures {
  unsigned buffers = 0;  ///< memref.alloc ops written
  unsigned nested = 0;   ///< of which inside an scf region
  unsigned escapes = 0;  ///< addresses taken
  unsigned views = 0;    ///< subviews, casts, collapses, selects
  unsigned spaceOne = 0; ///< buffers in memory space 1
  unsigned subByte = 0;  ///< i1 and i4 buffers
  unsigned parallel = 0; ///< scf.forall and scf.parallel loops
  unsigned linalg = 0;   ///< linalg.generic, and linalg.fill (+ memref.copy)
  unsigned otherRegions = 0; ///< affine.for, scf.index_switch, execute_region
  unsigned lastUseInRegion = 0; ///< buffers read for the last time in a
                                ///< region op, before its own buffers
  unsigned nestedRegionOps = 0; ///< region ops inside region ops
  unsigned assumedAlignments = 0; ///< memref.assume_alignment of an alloc
  unsigned typedByteViews = 0;    ///< i8 allocs viewed as f32/f64
  unsigned hoistedAllocs = 0;     ///< allocs written at their block's start
  unsigned firstWrittenInLoop = 0; ///< buffers first written in an scf.for

  ProgramFeatures &operator+=(const ProgramFeatures &other) {
    buffers += other.buffers;
    nested += other.nested;
    escapes += other.escapes;
    views += other.views;
    spaceOne += other.spaceOne;
    subByte += other.subByte;
    parallel += other.parallel;
    linalg += other.linalg;
    otherRegions += other.otherRegions;
    lastUseInRegion += other.lastUseInRegion;
    nestedRegionOps += other.nestedRegionOps;
    assumedAlignments += other.assumedAlignments;
    typedByteViews += other.typedByteViews;
    hoistedAllocs += other.hoistedAllocs;
    firstWrittenInLoop += other.firstWrittenInLoop;
    return *this;
  }
};

/// The program of `seed` (the same seed always gives the same text).
std::string generateBufferizedProgram(uint64_t seed,
                                      ProgramFeatures *features = nullptr);

} // namespace memplan

#endif // MEMPLAN_TOOLS_DIFFTEST_BUFFERIZEDPROGRAMGENERATOR_H
