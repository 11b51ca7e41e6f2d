//===- PlanSvg.cpp - A plan as an SVG picture -----------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Support/PlanSvg.h"

#include "memplan/Support/FormatBytes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

using namespace memplan;

namespace {

/// A palette that stays distinguishable for a dozen categories.
constexpr const char *kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                    "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                    "#9c755f", "#bab0ac", "#1f77b4", "#aec7e8",
                                    "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94"};

std::string escape(const std::string &text) {
  std::string result;
  for (char c : text) {
    switch (c) {
    case '&':
      result += "&amp;";
      break;
    case '<':
      result += "&lt;";
      break;
    case '>':
      result += "&gt;";
      break;
    case '"':
      result += "&quot;";
      break;
    default:
      result += c;
    }
  }
  return result;
}

std::string number(double value) {
  char text[32];
  snprintf(text, sizeof(text), "%.2f", value);
  return text;
}

} // namespace

std::string memplan::sizeClassOf(uint64_t bytes) {
  if (bytes < 1024)
    return "< 1 KiB";
  if (bytes < (uint64_t(1) << 20))
    return "1 KiB - 1 MiB";
  if (bytes < (uint64_t(1) << 30))
    return "1 MiB - 1 GiB";
  return ">= 1 GiB";
}

void memplan::writePlanSvg(std::ostream &os, const Problem &problem,
                           const Solution &solution,
                           const std::vector<SvgBufferInfo> &info,
                           const std::string &title) {
  const std::vector<Buffer> &buffers = problem.buffers;
  int64_t first = 0, last = 1;
  if (!buffers.empty()) {
    first = buffers[0].start;
    last = buffers[0].end;
    for (const Buffer &buffer : buffers) {
      first = std::min(first, buffer.start);
      last = std::max(last, buffer.end);
    }
  }
  uint64_t lowerBound = computeLowerBound(problem);
  uint64_t top = std::max<uint64_t>({solution.arenaSize, lowerBound, 1});

  // Categories in order of first appearance, each with a colour.
  std::vector<std::string> categories;
  std::map<std::string, size_t> colourOf;
  auto categoryOf = [&](size_t i) {
    return info.empty() ? sizeClassOf(buffers[i].size) : info[i].category;
  };
  for (size_t i = 0; i < buffers.size(); ++i) {
    std::string category = categoryOf(i);
    if (colourOf.emplace(category, categories.size()).second)
      categories.push_back(category);
  }

  const double plotLeft = 140, plotTop = 40, plotWidth = 900, plotHeight = 500;
  const double legendLeft = plotLeft + plotWidth + 20;
  const double width = legendLeft + 260;
  const double height = std::max(plotTop + plotHeight + 60,
                                 plotTop + 40 + 18.0 * categories.size());
  double span = double(last - first);
  auto x = [&](int64_t position) {
    return plotLeft + plotWidth * double(position - first) / span;
  };
  auto y = [&](long double offset) {
    return plotTop + plotHeight - plotHeight * double(offset / top);
  };

  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width)
     << "\" height=\"" << number(height) << "\" viewBox=\"0 0 " << number(width)
     << " " << number(height) << "\">\n";
  os << "<title>" << escape(title) << "</title>\n";
  os << "<style>rect.buffer{stroke:#222;stroke-width:0.2}"
        "text{font-family:sans-serif;font-size:12px}"
        "line.bound{stroke-width:1.5;stroke-dasharray:6 4}</style>\n";
  os << "<rect x=\"0\" y=\"0\" width=\"" << number(width) << "\" height=\""
     << number(height) << "\" fill=\"white\"/>\n";
  os << "<text x=\"" << number(plotLeft) << "\" y=\"24\" font-weight=\"bold\">"
     << escape(title) << ": arena " << escape(formatBytes(solution.arenaSize))
     << ", lower bound " << escape(formatBytes(lowerBound)) << ", "
     << buffers.size() << " buffers</text>\n";
  // Axes.
  os << "<rect x=\"" << number(plotLeft) << "\" y=\"" << number(plotTop)
     << "\" width=\"" << number(plotWidth) << "\" height=\""
     << number(plotHeight) << "\" fill=\"none\" stroke=\"#888\"/>\n";
  os << "<text x=\"" << number(plotLeft) << "\" y=\""
     << number(plotTop + plotHeight + 18) << "\">" << first << "</text>\n";
  os << "<text x=\"" << number(plotLeft + plotWidth) << "\" y=\""
     << number(plotTop + plotHeight + 18) << "\" text-anchor=\"end\">" << last
     << "</text>\n";
  os << "<text x=\"" << number(plotLeft + plotWidth / 2) << "\" y=\""
     << number(plotTop + plotHeight + 36)
     << "\" text-anchor=\"middle\">position in the schedule</text>\n";
  os << "<text x=\"" << number(plotLeft - 8) << "\" y=\""
     << number(plotTop + plotHeight) << "\" text-anchor=\"end\">0</text>\n";
  os << "<text x=\"" << number(plotLeft - 8) << "\" y=\""
     << number(plotTop + plotHeight / 2)
     << "\" text-anchor=\"end\">offset</text>\n";

  // Buffers: one rectangle each, in index order.
  os << "<g id=\"buffers\">\n";
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer &buffer = buffers[i];
    uint64_t offset = i < solution.offsets.size() ? solution.offsets[i] : 0;
    double x0 = x(buffer.start), x1 = x(buffer.end);
    double y1 = y(offset), y0 = y((long double)offset + buffer.size);
    os << "<rect class=\"buffer\" x=\"" << number(x0) << "\" y=\"" << number(y0)
       << "\" width=\"" << number(std::max(x1 - x0, 0.3)) << "\" height=\""
       << number(std::max(y1 - y0, 0.3)) << "\" fill=\""
       << kPalette[colourOf[categoryOf(i)] % 16] << "\"><title>"
       << escape(info.empty() ? "buffer " + std::to_string(i) : info[i].label)
       << " (" << escape(categoryOf(i)) << "): " << buffer.size
       << " bytes at offset " << offset << ", live [" << buffer.start << ", "
       << buffer.end << ")</title></rect>\n";
  }
  os << "</g>\n";

  // The lower bound and the arena.
  auto bound = [&](uint64_t value, const char *colour, const char *name) {
    os << "<line class=\"bound\" x1=\"" << number(plotLeft) << "\" y1=\""
       << number(y(value)) << "\" x2=\"" << number(plotLeft + plotWidth)
       << "\" y2=\"" << number(y(value)) << "\" stroke=\"" << colour
       << "\"/>\n";
    os << "<text x=\"" << number(plotLeft - 8) << "\" y=\""
       << number(y(value) + 4) << "\" text-anchor=\"end\" fill=\"" << colour
       << "\">" << name << "</text>\n";
  };
  // One label where the two lines are too close to tell apart.
  if (std::abs(y(lowerBound) - y(solution.arenaSize)) < 14) {
    bound(solution.arenaSize, "#c22", "arena = lower bound");
  } else {
    bound(lowerBound, "#2a9d2a", "lower bound");
    bound(solution.arenaSize, "#c22", "arena");
  }

  // Legend.
  os << "<g id=\"legend\">\n";
  os << "<text x=\"" << number(legendLeft) << "\" y=\"" << number(plotTop + 12)
     << "\" font-weight=\"bold\">buffers by "
     << (info.empty() ? "size" : "kind") << "</text>\n";
  for (size_t c = 0; c < categories.size(); ++c) {
    double row = plotTop + 24 + 18.0 * c;
    os << "<rect x=\"" << number(legendLeft) << "\" y=\"" << number(row)
       << "\" width=\"12\" height=\"12\" fill=\"" << kPalette[c % 16]
       << "\"/>\n";
    os << "<text x=\"" << number(legendLeft + 18) << "\" y=\""
       << number(row + 10) << "\">" << escape(categories[c]) << "</text>\n";
  }
  os << "</g>\n</svg>\n";
}
