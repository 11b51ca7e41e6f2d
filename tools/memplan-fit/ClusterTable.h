//===- ClusterTable.h - memplan-fit --gpus' table and JSON ------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What memplan-fit prints for several GPUs: the layouts that fit, fastest
// first by the stated cost model, each at its fastest micro-batch, and why
// the others do not.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANFIT_CLUSTERTABLE_H
#define MEMPLAN_TOOLS_MEMPLANFIT_CLUSTERTABLE_H

#include "CandidateSearch.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace memplan::fit {

/// One weighed (layout, candidate) pair.
struct ClusterRow {
  const Candidate *candidate = nullptr;
  const Outcome *outcome = nullptr;
  std::string label; ///< what is trained, precision, checkpointing
};

/// The rows in the order the table shows them: those that fit, by what is
/// trained and the precision in the order of preference, then fastest first
/// (ties: the lower peak, then the order weighed).
std::vector<ClusterRow> rankRows(std::vector<ClusterRow> rows);

/// The table of the `top` fastest rows that fit (all with top = 0), then
/// how many did not fit and why the rest could not be generated.
void printClusterTable(llvm::raw_ostream &os,
                       const std::vector<ClusterRow> &ranked, size_t top,
                       uint64_t gpuMemory);

/// Every row, fitting or not, as JSON objects (memplan-fit --json).
void writeClusterRows(llvm::json::OStream &out,
                      const std::vector<ClusterRow> &ranked,
                      uint64_t gpuMemory);

} // namespace memplan::fit

#endif // MEMPLAN_TOOLS_MEMPLANFIT_CLUSTERTABLE_H
