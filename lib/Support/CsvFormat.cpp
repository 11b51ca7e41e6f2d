//===- CsvFormat.cpp - Buffers as CSV -------------------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Support/CsvFormat.h"

#include <array>
#include <cstdint>
#include <unordered_set>

using namespace memplan;

namespace {

enum Column { Id, Lower, Upper, Size, Alignment, ColumnCount };
constexpr std::array<const char *, ColumnCount> kColumnNames = {
    "id", "lower", "upper", "size", "alignment"};

std::vector<std::string> splitFields(const std::string &line) {
  std::vector<std::string> fields(1);
  for (char c : line) {
    if (c == ',')
      fields.emplace_back();
    else
      fields.back() += c;
  }
  return fields;
}

std::string trim(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos)
    return {};
  size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

/// A decimal integer in [0, 2^63 - 1]: sizes and positions both fit int64.
bool parseNumber(const std::string &text, uint64_t &value) {
  if (text.empty())
    return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    if (value > (uint64_t(INT64_MAX) - uint64_t(c - '0')) / 10)
      return false;
    value = value * 10 + uint64_t(c - '0');
  }
  return true;
}

} // namespace

bool memplan::readProblemCsv(std::istream &input, CsvProblem &result,
                             std::string &error) {
  result = CsvProblem();
  auto fail = [&](size_t line, const std::string &message) {
    error = "line " + std::to_string(line) + ": " + message;
    return false;
  };

  std::string line;
  size_t lineNumber = 0;
  auto nextLine = [&]() -> bool {
    if (!std::getline(input, line))
      return false;
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') // Windows line endings
      line.pop_back();
    return true;
  };

  if (!nextLine())
    return fail(1, "empty file: expected a header `id,lower,upper,size`");
  // A UTF-8 byte-order mark, as spreadsheet programs write: not part of the
  // first column's name (it once made the header unknown, with an error
  // that looked like the right name).
  if (line.compare(0, 3, "\xEF\xBB\xBF") == 0)
    line.erase(0, 3);
  std::array<int, ColumnCount> position;
  position.fill(-1);
  std::vector<std::string> header = splitFields(line);
  for (size_t i = 0; i < header.size(); ++i) {
    std::string name = trim(header[i]);
    int column = -1;
    for (int c = 0; c < ColumnCount; ++c)
      if (name == kColumnNames[c])
        column = c;
    if (column < 0)
      return fail(lineNumber, "unknown column '" + name +
                                  "' in the header (expected id, lower, "
                                  "upper, size and optionally alignment)");
    if (position[column] >= 0)
      return fail(lineNumber, "column '" + name + "' appears twice");
    position[column] = static_cast<int>(i);
  }
  for (int c = 0; c < Alignment; ++c)
    if (position[c] < 0)
      return fail(lineNumber, std::string("missing column '") +
                                  kColumnNames[c] + "' in the header");
  result.hasAlignment = position[Alignment] >= 0;

  std::unordered_set<std::string> seen;
  while (nextLine()) {
    if (trim(line).empty())
      continue;
    std::vector<std::string> fields = splitFields(line);
    if (fields.size() != header.size())
      return fail(lineNumber, "expected " + std::to_string(header.size()) +
                                  " fields, found " +
                                  std::to_string(fields.size()));
    std::string id = trim(fields[position[Id]]);
    if (id.empty())
      return fail(lineNumber, "empty id");
    if (!seen.insert(id).second)
      return fail(lineNumber, "duplicate id '" + id + "'");
    uint64_t values[ColumnCount] = {0, 0, 0, 0, 1};
    for (int c = Lower; c < ColumnCount; ++c) {
      if (position[c] < 0)
        continue;
      std::string text = trim(fields[position[c]]);
      if (!parseNumber(text, values[c]))
        return fail(lineNumber, std::string("field '") + kColumnNames[c] +
                                    "' is '" + text +
                                    "': expected an integer in [0, 2^63)");
    }
    if (values[Lower] >= values[Upper])
      return fail(lineNumber, "lower (" + std::to_string(values[Lower]) +
                                  ") must be less than upper (" +
                                  std::to_string(values[Upper]) +
                                  "): lifetimes are [lower, upper)");
    uint64_t alignment = values[Alignment];
    if (alignment == 0 || (alignment & (alignment - 1)))
      return fail(lineNumber, "alignment " + std::to_string(alignment) +
                                  " is not a power of two");
    Buffer buffer;
    buffer.start = static_cast<int64_t>(values[Lower]);
    buffer.end = static_cast<int64_t>(values[Upper]);
    buffer.size = values[Size];
    buffer.alignment = alignment;
    result.problem.buffers.push_back(buffer);
    result.ids.push_back(std::move(id));
  }
  if (input.bad())
    return fail(lineNumber, "read error");
  return true;
}

void memplan::writePlanCsv(std::ostream &output, const CsvProblem &csv,
                           const Solution &solution) {
  output << "id,lower,upper,size" << (csv.hasAlignment ? ",alignment" : "")
         << ",offset\n";
  for (size_t i = 0; i < csv.ids.size(); ++i) {
    const Buffer &buffer = csv.problem.buffers[i];
    output << csv.ids[i] << ',' << buffer.start << ',' << buffer.end << ','
           << buffer.size;
    if (csv.hasAlignment)
      output << ',' << buffer.alignment;
    output << ',' << solution.offsets[i] << '\n';
  }
}
