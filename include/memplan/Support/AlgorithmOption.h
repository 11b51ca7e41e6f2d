//===- AlgorithmOption.h - The algorithm as a command-line enum -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every option that names a planning algorithm (the planning passes'
// `algorithm=`, memplan-plan's `--algorithm`) is an enum option whose
// values come from the planner's own table, through this modifier:
//
//   llvm::cl::opt<memplan::Algorithm> algorithm(
//       "algorithm", llvm::cl::init(memplan::Algorithm::GreedyBySize),
//       memplan::algorithmValues());
//
// so the list is written once (lib/Planner/Algorithms.cpp), --help lists
// each algorithm with a line on what it does, and a misspelt name is
// refused where it is parsed.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_SUPPORT_ALGORITHMOPTION_H
#define MEMPLAN_SUPPORT_ALGORITHMOPTION_H

#include "memplan/Planner/Algorithms.h"
#include "llvm/ADT/StringRef.h"

namespace memplan {

/// A command-line modifier (like llvm::cl::values) adding every algorithm
/// as a literal value of an option of type Algorithm.
struct AlgorithmValues {
  template <typename Option> void apply(Option &option) const {
    for (Algorithm algorithm : kAllAlgorithms) {
      std::string_view name = getAlgorithmName(algorithm);
      std::string_view description = getAlgorithmDescription(algorithm);
      option.getParser().addLiteralOption(
          llvm::StringRef(name.data(), name.size()), algorithm,
          llvm::StringRef(description.data(), description.size()));
    }
  }
};

inline AlgorithmValues algorithmValues() { return {}; }

} // namespace memplan

#endif // MEMPLAN_SUPPORT_ALGORITHMOPTION_H
