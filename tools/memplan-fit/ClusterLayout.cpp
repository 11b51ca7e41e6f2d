//===- ClusterLayout.cpp - How a step is split over GPUs, and its time ----===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ClusterLayout.h"

#include "llvm/Support/MathExtras.h"

using namespace memplan;
using namespace memplan::fit;
using namespace memplan::gen;

std::vector<Layout> memplan::fit::enumerateLayouts(int64_t gpus,
                                                   int64_t maxTensor,
                                                   int64_t globalBatch,
                                                   bool offload,
                                                   int64_t virtualStages) {
  std::vector<Layout> layouts;
  for (int64_t tensor = 1; tensor <= std::min(gpus, maxTensor); ++tensor) {
    if (gpus % tensor)
      continue;
    for (int64_t pipeline = 1; pipeline <= gpus / tensor; ++pipeline) {
      if ((gpus / tensor) % pipeline)
        continue;
      int64_t data = gpus / tensor / pipeline;
      if (globalBatch % data)
        continue;
      for (bool sequenceParallel : {false, true}) {
        if (sequenceParallel && tensor == 1)
          continue;
        int64_t maxZero = data == 1 ? 0 : pipeline > 1 ? 1 : 3;
        for (int64_t zero = 0; zero <= maxZero; ++zero)
          for (bool offloaded : {false, true})
            if (!offloaded || (offload && zero > 0))
              layouts.push_back(
                  {tensor, pipeline, data, zero, sequenceParallel, offloaded});
        if (maxZero == 3)
          layouts.push_back({tensor, pipeline, data, 3, sequenceParallel,
                             /*offload=*/false, /*fsdp=*/true});
      }
    }
  }
  // Each pipeline also interleaved, if asked.
  size_t plain = layouts.size();
  for (size_t i = 0; virtualStages > 1 && i < plain; ++i)
    if (layouts[i].pipeline > 1) {
      layouts.push_back(layouts[i]);
      layouts.back().virtualStages = virtualStages;
    }
  return layouts;
}

std::string memplan::fit::describeLayout(const Layout &layout) {
  std::string text = "TP " + std::to_string(layout.tensor);
  if (layout.sequenceParallel)
    text += " + SP";
  text += ", PP " + std::to_string(layout.pipeline);
  if (layout.virtualStages > 1)
    text += " x " + std::to_string(layout.virtualStages) + " chunks";
  text += ", DP " + std::to_string(layout.data);
  if (layout.fsdp)
    text += ", FSDP";
  else if (layout.zero)
    text += ", ZeRO-" + std::to_string(layout.zero);
  if (layout.offload)
    text += " + offload";
  return text;
}

void memplan::fit::applyLayout(const Layout &layout, int64_t microBatches,
                               GeneratorOptions &options) {
  options.tensorParallel.ranks = layout.tensor;
  options.tensorParallel.sequenceParallel = layout.sequenceParallel;
  options.pipeline.stages = layout.pipeline;
  options.pipeline.virtualStages = layout.virtualStages;
  options.dataParallel.ranks = layout.data;
  options.dataParallel.rank = layout.data - 1;
  options.dataParallel.zeroStage = layout.zero;
  options.dataParallel.offloadOptimizer = layout.offload;
  options.dataParallel.fsdp = layout.fsdp;
  options.microBatches = microBatches;
  if (microBatches > 1 && layout.zero < 2 &&
      options.gradientBuffer == GradientBuffer::None)
    options.gradientBuffer = GradientBuffer::WeightType;
}

std::vector<int64_t> memplan::fit::plannedStages(const Layout &layout) {
  if (layout.pipeline == 1)
    return {0};
  return {0, layout.pipeline - 1};
}

int64_t memplan::fit::plannedMicroBatches(const Layout &layout,
                                          int64_t microBatches) {
  if (layout.pipeline == 1)
    return microBatches;
  if (layout.virtualStages > 1)
    return std::min(microBatches, 3 * layout.pipeline);
  return std::min(microBatches, layout.pipeline + 2);
}

int64_t memplan::fit::microBatchGroup(const Layout &layout) {
  return layout.virtualStages > 1 ? layout.pipeline : 1;
}

namespace {
/// A GPU generation's data-sheet rates (see ClusterLayout.h).
struct GpuRates {
  int capability;
  double flops, link, host;
};
} // namespace

static const GpuRates kGpuRates[] = {
    {70, 125e12, 150e9, 16e9}, // V100: NVLink 2, PCIe 3.0
    {80, 312e12, 300e9, 32e9}, // A100: NVLink 3, PCIe 4.0
    {89, 362e12, 32e9, 32e9},  // L40S: no NVLink, PCIe 4.0
    {90, 989e12, 450e9, 64e9}, // H100 SXM: NVLink 4, PCIe 5.0
};

/// The rates of `capability`, or none.
static const GpuRates *ratesOf(int capability) {
  for (const GpuRates &rates : kGpuRates)
    if (rates.capability == capability)
      return &rates;
  return nullptr;
}

double memplan::fit::peakFlopsPerSecond(int capability) {
  const GpuRates *rates = ratesOf(capability);
  return rates ? rates->flops : 0;
}

double memplan::fit::linkBytesPerSecond(int capability) {
  const GpuRates *rates = ratesOf(capability);
  return rates ? rates->link : 0;
}

double memplan::fit::hostBytesPerSecond(int capability) {
  const GpuRates *rates = ratesOf(capability);
  return rates ? rates->host : 0;
}

StepTime memplan::fit::estimateStepTime(const Layout &layout,
                                        int64_t microBatches,
                                        const StepCost &cost,
                                        const CostModel &model) {
  StepTime time;
  uint64_t m = uint64_t(microBatches);
  uint64_t tensor = cost.sentOver(ProcessGroup::Tensor);
  uint64_t pipeline = cost.sentOver(ProcessGroup::Pipeline);
  uint64_t data = cost.sentOver(ProcessGroup::Data);
  uint64_t host = cost.sentOver(ProcessGroup::Host);
  if (layout.pipeline > 1) {
    // The stage's graph runs every micro-batch.
    time.flops = cost.flops;
    time.sent = tensor + pipeline + data;
    time.host = host;
  } else {
    // The graph is the last micro-batch and the step.
    uint64_t everyMicroBatch =
        layout.zero == 3   ? data
        : layout.zero == 2 ? cost.sentOver(ProcessGroup::Data, "reduce_scatter")
                           : 0;
    time.flops = llvm::SaturatingMultiply(cost.flops, m);
    time.sent = llvm::SaturatingAdd(
        llvm::SaturatingMultiply(tensor + pipeline + everyMicroBatch, m),
        data - everyMicroBatch);
    // Offloaded gradients go to the host as often as they are reduced.
    uint64_t toHost = layout.zero >= 2
                          ? cost.sentOver(ProcessGroup::Host, "copy_to_host")
                          : 0;
    time.host =
        llvm::SaturatingAdd(llvm::SaturatingMultiply(toHost, m), host - toHost);
  }
  time.compute = double(time.flops) / model.flopsPerSecond;
  time.communication = double(time.sent) / model.bytesPerSecond;
  if (time.host)
    time.hostTransfer = double(time.host) / model.hostBytesPerSecond;
  if (layout.pipeline > 1)
    time.bubble = (time.compute + time.communication + time.hostTransfer) *
                  double(layout.pipeline - 1) /
                  double(microBatches * layout.virtualStages);
  return time;
}
