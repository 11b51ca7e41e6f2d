//===- CsvFormatTest.cpp - Reading and writing buffer CSVs ----------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Support/CsvFormat.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace memplan;

namespace {

bool read(const std::string &text, CsvProblem &csv, std::string &error) {
  std::istringstream input(text);
  return readProblemCsv(input, csv, error);
}

std::string errorOf(const std::string &text) {
  CsvProblem csv;
  std::string error;
  EXPECT_FALSE(read(text, csv, error)) << text;
  return error;
}

TEST(CsvFormat, ReadsTheBenchmarkFormat) {
  CsvProblem csv;
  std::string error;
  ASSERT_TRUE(read("id,lower,upper,size\nb0,0,3,64\nb1,2,5,32\n", csv, error))
      << error;
  ASSERT_EQ(csv.problem.buffers.size(), 2u);
  EXPECT_EQ(csv.ids[1], "b1");
  EXPECT_EQ(csv.problem.buffers[1].start, 2);
  EXPECT_EQ(csv.problem.buffers[1].end, 5);
  EXPECT_EQ(csv.problem.buffers[1].size, 32u);
  EXPECT_EQ(csv.problem.buffers[1].alignment, 1u);
  EXPECT_FALSE(csv.hasAlignment);
}

TEST(CsvFormat, ColumnsInAnyOrderWithAlignmentAndCrlf) {
  CsvProblem csv;
  std::string error;
  ASSERT_TRUE(
      read("size,upper,alignment,lower,id\r\n16,4,64,1,x\r\n", csv, error))
      << error;
  ASSERT_EQ(csv.problem.buffers.size(), 1u);
  EXPECT_EQ(csv.problem.buffers[0].alignment, 64u);
  EXPECT_EQ(csv.problem.buffers[0].start, 1);
  EXPECT_TRUE(csv.hasAlignment);
}

TEST(CsvFormat, HeaderOnlyIsAnEmptyProblem) {
  CsvProblem csv;
  std::string error;
  ASSERT_TRUE(read("id,lower,upper,size\n", csv, error));
  EXPECT_TRUE(csv.problem.buffers.empty());
}

TEST(CsvFormat, ErrorsNameTheLine) {
  EXPECT_EQ(errorOf(""), "line 1: empty file: expected a header "
                         "`id,lower,upper,size`");
  EXPECT_EQ(errorOf("id,lower,size\n"),
            "line 1: missing column 'upper' in the header");
  EXPECT_EQ(errorOf("id,lower,upper,size,color\n"),
            "line 1: unknown column 'color' in the header (expected id, "
            "lower, upper, size and optionally alignment)");
  EXPECT_EQ(errorOf("id,lower,upper,size\na,0,1,4\nb,0,1\n"),
            "line 3: expected 4 fields, found 3");
  EXPECT_EQ(errorOf("id,lower,upper,size\na,0,1,4,5\n"),
            "line 2: expected 4 fields, found 5");
  EXPECT_EQ(errorOf("id,lower,upper,size\na,0,x1,4\n"),
            "line 2: field 'upper' is 'x1': expected an integer in [0, 2^63)");
  EXPECT_EQ(errorOf("id,lower,upper,size\na,0,1,-4\n"),
            "line 2: field 'size' is '-4': expected an integer in [0, 2^63)");
  EXPECT_EQ(errorOf("id,lower,upper,size\na,0,1,9223372036854775808\n"),
            "line 2: field 'size' is '9223372036854775808': expected an "
            "integer in [0, 2^63)");
  EXPECT_EQ(errorOf("id,lower,upper,size\na,3,3,4\n"),
            "line 2: lower (3) must be less than upper (3): lifetimes are "
            "[lower, upper)");
  EXPECT_EQ(errorOf("id,lower,upper,size\na,0,1,4\na,1,2,4\n"),
            "line 3: duplicate id 'a'");
  EXPECT_EQ(errorOf("id,lower,upper,size,alignment\na,0,1,4,3\n"),
            "line 2: alignment 3 is not a power of two");
}

TEST(CsvFormat, WritesOffsets) {
  CsvProblem csv;
  std::string error;
  ASSERT_TRUE(read("id,lower,upper,size\nb0,0,3,64\nb1,2,5,32\n", csv, error));
  Solution solution;
  solution.offsets = {0, 64};
  solution.arenaSize = 96;
  std::ostringstream output;
  writePlanCsv(output, csv, solution);
  EXPECT_EQ(output.str(),
            "id,lower,upper,size,offset\nb0,0,3,64,0\nb1,2,5,32,64\n");
}

} // namespace
