//===- TestPasses.h - memplan's test passes ---------------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Passes that exist for memplan's own tests: registered by memplan-opt when
// it is built with the tests (MEMPLAN_ENABLE_TESTS), never installed.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TEST_LIB_TESTPASSES_H
#define MEMPLAN_TEST_LIB_TESTPASSES_H

namespace memplan::test {

/// Registers --memplan-print-liveness.
void registerTestPasses();

} // namespace memplan::test

#endif // MEMPLAN_TEST_LIB_TESTPASSES_H
