//===- PlannerOptions.cpp - The planning passes' shared options -----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FunctionPlan.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <sstream>

using namespace mlir;
using namespace memplan;

LogicalResult memplan::configurePlanner(MLIRContext *context,
                                        StringRef passArgument,
                                        Algorithm algorithm, uint64_t alignment,
                                        double searchSeconds,
                                        uint64_t searchNodes, uint64_t capacity,
                                        SearchOptions &search) {
  // Options have no place in the input; the error is located at the pass as
  // it is spelt on the command line, and names the option.
  Location location =
      FileLineColLoc::get(StringAttr::get(context, "--" + passArgument), 0, 0);
  if (alignment == 0 || (alignment & (alignment - 1)))
    return emitError(location)
           << "alignment must be a power of two, got " << alignment;
  if (capacity && algorithm != Algorithm::Search)
    return emitError(location) << "capacity needs algorithm=search";
  if (!isValidSearchSeconds(searchSeconds)) {
    std::ostringstream got;
    got << searchSeconds;
    return emitError(location)
           << "search-seconds must be a number of seconds from 0 to "
           << static_cast<uint64_t>(kMaxSearchSeconds) << ", got " << got.str();
  }
  search.seconds = searchSeconds;
  search.nodeLimit = searchNodes;
  // A second search thread only where MLIR may use threads itself
  // (--mlir-disable-threading keeps the search on one).
  if (!context->isMultithreadingEnabled())
    search.threads = 1;
  if (capacity)
    search.capacity = capacity;
  return success();
}
