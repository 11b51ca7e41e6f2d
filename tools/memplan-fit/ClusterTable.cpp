//===- ClusterTable.cpp - memplan-fit --gpus' table and JSON --------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ClusterTable.h"

#include "memplan/Support/FormatBytes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <map>

using namespace memplan;
using namespace memplan::fit;

std::vector<ClusterRow> memplan::fit::rankRows(std::vector<ClusterRow> rows) {
  auto fits = [](const ClusterRow &row) {
    return row.outcome->fastest.has_value();
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const ClusterRow &a, const ClusterRow &b) {
                     if (fits(a) != fits(b))
                       return fits(a);
                     if (!fits(a))
                       return false;
                     if (a.candidate->preference != b.candidate->preference)
                       return a.candidate->preference < b.candidate->preference;
                     const Probe &x = *a.outcome->fastest;
                     const Probe &y = *b.outcome->fastest;
                     if (x.time.total() != y.time.total())
                       return x.time.total() < y.time.total();
                     return x.peak < y.peak;
                   });
  return rows;
}

/// Three significant digits and a unit (seconds, or an SI prefix).
static std::string formatScaled(double value, llvm::StringRef unit,
                                bool seconds) {
  static const std::pair<double, const char *> kPrefixes[] = {
      {1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"},
      {1e6, "M"},  {1e3, "k"},  {1, ""}};
  static const std::pair<double, const char *> kSeconds[] = {
      {1, ""}, {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}};
  llvm::ArrayRef<std::pair<double, const char *>> scales =
      seconds ? llvm::ArrayRef(kSeconds) : llvm::ArrayRef(kPrefixes);
  std::pair<double, const char *> scale = scales.back();
  for (const auto &candidate : scales)
    if (value >= candidate.first) {
      scale = candidate;
      break;
    }
  std::string text;
  llvm::raw_string_ostream os(text);
  double scaled = value / scale.first;
  os << llvm::format(scaled >= 100  ? "%.0f"
                     : scaled >= 10 ? "%.1f"
                                    : "%.2f",
                     scaled)
     << " " << scale.second << unit;
  return text;
}

void memplan::fit::printClusterTable(llvm::raw_ostream &os,
                                     const std::vector<ClusterRow> &ranked,
                                     size_t top, uint64_t gpuMemory) {
  size_t fitting = llvm::count_if(ranked, [](const ClusterRow &row) {
    return row.outcome->fastest.has_value();
  });
  size_t shown = top ? std::min(top, fitting) : fitting;
  size_t layoutWidth = 6, labelWidth = 9;
  for (size_t index = 0; index < shown; ++index) {
    layoutWidth = std::max(
        layoutWidth, describeLayout(*ranked[index].candidate->layout).size());
    labelWidth = std::max(labelWidth, ranked[index].label.size());
  }
  os << llvm::left_justify("layout", layoutWidth + 2)
     << llvm::left_justify("candidate", labelWidth + 2)
     << llvm::right_justify("micro-batch", 12)
     << llvm::right_justify("largest", 8)
     << llvm::right_justify("peak per GPU", 14)
     << llvm::right_justify("headroom", 12)
     << llvm::right_justify("FLOP/GPU", 11)
     << llvm::right_justify("sent/GPU", 12)
     << llvm::right_justify("step time", 11) << "\n";
  for (size_t index = 0; index < shown; ++index) {
    const ClusterRow &row = ranked[index];
    const Probe &fastest = *row.outcome->fastest;
    os << llvm::left_justify(describeLayout(*row.candidate->layout),
                             layoutWidth + 2)
       << llvm::left_justify(row.label, labelWidth + 2)
       << llvm::right_justify(std::to_string(fastest.batch), 12)
       << llvm::right_justify(std::to_string(row.outcome->largest->batch), 8)
       << llvm::right_justify(formatBytes(fastest.peak), 14)
       << llvm::right_justify(formatBytes(gpuMemory - fastest.peak), 12)
       << llvm::right_justify(
              formatScaled(double(fastest.time.flops), "", false), 11)
       << llvm::right_justify(formatBytes(fastest.time.sent), 12)
       << llvm::right_justify(formatScaled(fastest.time.total(), "s", true), 11)
       << "\n";
  }
  if (shown < fitting)
    os << "(" << fitting - shown << " more that fit: --top 0 shows all)\n";

  // What did not fit, and why the rest could not be generated: the same
  // reason (a model's heads that do not split) usually covers many rows.
  size_t tooLarge = 0;
  std::map<std::string, size_t> reasons;
  for (const ClusterRow &row : ranked) {
    if (row.outcome->fastest)
      continue;
    if (row.outcome->unavailable.empty())
      ++tooLarge;
    else
      ++reasons[row.outcome->unavailable];
  }
  os << fitting << " of " << ranked.size() << " fit";
  if (tooLarge)
    os << "; " << tooLarge << " do not fit at any micro-batch";
  os << "\n";
  for (const auto &[reason, count] : reasons)
    os << "  " << count << " cannot be generated: " << reason << "\n";
  if (fitting)
    os << "fastest: " << describeLayout(*ranked.front().candidate->layout)
       << ", " << ranked.front().label << ", micro-batch "
       << ranked.front().outcome->fastest->batch << "\n";
  else
    os << "nothing fits\n";
}

void memplan::fit::writeClusterRows(llvm::json::OStream &out,
                                    const std::vector<ClusterRow> &ranked,
                                    uint64_t gpuMemory) {
  auto probeObject = [&](const Probe &probe) {
    out.object([&] {
      out.attribute("micro_batch", probe.batch);
      out.attribute("peak_bytes", probe.peak);
      out.attribute("headroom_bytes", int64_t(gpuMemory) - int64_t(probe.peak));
      out.attribute("deciding_stage", probe.stage);
      out.attribute("plan_total_bytes", probe.memory.total());
      out.attribute("flops_per_gpu", probe.time.flops);
      out.attribute("sent_bytes_per_gpu", probe.time.sent);
      out.attribute("host_bytes_per_gpu", probe.time.host);
      out.attribute("host_memory_bytes", probe.memory.host);
      out.attribute("compute_seconds", probe.time.compute);
      out.attribute("communication_seconds", probe.time.communication);
      out.attribute("host_transfer_seconds", probe.time.hostTransfer);
      out.attribute("bubble_seconds", probe.time.bubble);
      out.attribute("step_seconds", probe.time.total());
    });
  };
  out.attributeArray("layouts", [&] {
    for (const ClusterRow &row : ranked)
      out.object([&] {
        const Layout &layout = *row.candidate->layout;
        out.attribute("layout", describeLayout(layout));
        out.attribute("tensor_parallel", layout.tensor);
        out.attribute("sequence_parallel", layout.sequenceParallel);
        out.attribute("pipeline_parallel", layout.pipeline);
        out.attribute("virtual_stages", layout.virtualStages);
        out.attribute("data_parallel", layout.data);
        out.attribute("zero_stage", layout.zero);
        out.attribute("offload_optimizer", layout.offload);
        out.attribute("fsdp", layout.fsdp);
        out.attribute("candidate", row.label);
        out.attribute("graphs_planned", row.outcome->graphs);
        if (!row.outcome->unavailable.empty()) {
          out.attribute("unavailable", row.outcome->unavailable);
          return;
        }
        if (!row.outcome->fastest) {
          out.attribute("fastest", nullptr);
          return;
        }
        out.attributeBegin("fastest");
        probeObject(*row.outcome->fastest);
        out.attributeEnd();
        out.attributeBegin("largest");
        probeObject(*row.outcome->largest);
        out.attributeEnd();
      });
  });
}
