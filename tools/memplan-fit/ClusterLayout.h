//===- ClusterLayout.h - GPU layouts and their step time --------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The layouts memplan-fit --gpus weighs (tensor x pipeline x data
// parallelism, the ZeRO stage, sequence parallelism), the generator's
// options for the rank whose memory decides, and the stated cost model that
// ranks them: a step's time at the GPU's peak arithmetic rate and link
// bandwidth, from the FLOPs and bytes the planned graphs' ops state.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANFIT_CLUSTERLAYOUT_H
#define MEMPLAN_TOOLS_MEMPLANFIT_CLUSTERLAYOUT_H

#include "StepCost.h"
#include "TransformerGenerator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memplan::fit {

struct Layout {
  int64_t tensor = 1;   ///< GPUs each layer is split over (Megatron's TP)
  int64_t pipeline = 1; ///< pipeline stages
  int64_t data = 1;     ///< data-parallel replicas
  int64_t zero = 0;     ///< ZeRO stage of the data-parallel step
  bool sequenceParallel = false;
  /// ZeRO-Offload: the optimizer partition and its step on the host.
  bool offload = false;
  /// Stage 3 as PyTorch FSDP runs it (zero is 3).
  bool fsdp = false;
  /// Model chunks per pipeline stage: Megatron-LM's interleaved schedule
  /// above 1.
  int64_t virtualStages = 1;
};

/// Every layout of `gpus` GPUs with tensor parallelism up to `maxTensor`
/// whose data-parallel replicas divide `globalBatch`: each factorisation
/// gpus = tensor x pipeline x data, with and without sequence parallelism
/// when tensor > 1, and each ZeRO stage when data > 1 (0 and 1 with a
/// pipeline, as DeepSpeed's pipeline engine allows), each ZeRO stage also
/// with its optimizer offloaded when `offload`, FSDP (without a pipeline),
/// and, with `virtualStages` above 1, each pipeline also interleaved with
/// that many model chunks per stage. Layouts
/// the model cannot take (heads or layers that do not split) are left to the
/// generator, which says why.
std::vector<Layout> enumerateLayouts(int64_t gpus, int64_t maxTensor,
                                     int64_t globalBatch, bool offload,
                                     int64_t virtualStages = 1);

/// "TP 2 + SP, PP 4, DP 1" or "TP 1, PP 1, DP 8, ZeRO-3 + offload".
std::string describeLayout(const Layout &layout);

/// `options` for the rank of `layout` whose memory is largest for a
/// pipeline stage: the last data-parallel rank (ZeRO gives it the largest
/// share, ceil(W / N)); any tensor-parallel rank (they hold equal shares).
/// `microBatches` micro-batches accumulate into the optimizer step
/// (PyTorch's .grad, in the weights' type, where the stack keeps no
/// gradient buffer of its own).
void applyLayout(const Layout &layout, int64_t microBatches,
                 gen::GeneratorOptions &options);

/// The pipeline stages whose graphs are planned: the first (it keeps the
/// most micro-batches in flight and the embeddings) and the last (the head
/// and the loss). A middle stage holds what the first holds, less the
/// embeddings, with fewer micro-batches in flight; a unit test checks that
/// none is larger.
std::vector<int64_t> plannedStages(const Layout &layout);

/// The micro-batches a pipeline stage's graph is planned with for a step of
/// `microBatches`: 1F1B repeats one forward and one backward pass in its
/// steady state, so the stage's peak is reached within p + 2 micro-batches
/// (warm-up, two steady rounds, cool-down) and a longer step repeats it;
/// `ClusterFitTest` checks the peak against the full step's on every stage.
/// The cost of the rest is extrapolated from one micro-batch more
/// (extrapolateStepCost), which the test checks too.
/// Interleaved, micro-batches run in groups of p: the graph is planned with
/// min(m, 3p), where the test finds the peak settled from 2p on, and the
/// cost extrapolated from one group more.
int64_t plannedMicroBatches(const Layout &layout, int64_t microBatches);

/// The micro-batches a step's count must be a multiple of, and the step of
/// the cost's extrapolation: the stages when interleaved, else 1.
int64_t microBatchGroup(const Layout &layout);

/// The rates the cost model assumes.
struct CostModel {
  double flopsPerSecond = 0;     ///< one GPU's peak for the activation type
  double bytesPerSecond = 0;     ///< one GPU's link bandwidth, each direction
  double hostBytesPerSecond = 0; ///< one GPU's link to its host (PCIe)
};

/// Peak dense tensor-core rate of a GPU generation for 16-bit types (bf16,
/// f16), or 0 when memplan has no figure: V100 125, A100 312, L40S 362,
/// H100 SXM 989 TFLOP/s (the vendors' data sheets).
double peakFlopsPerSecond(int capability);

/// NVLink bandwidth per GPU and direction, or 0 when memplan has no
/// figure: V100 150, A100 300, H100 450 GB/s (NVLink 2, 3, 4); L40S has
/// no NVLink: PCIe 4.0 x16, 32 GB/s.
double linkBytesPerSecond(int capability);

/// The GPU's PCIe link to its host, per direction, or 0 when memplan has no
/// figure: V100 16 (PCIe 3.0 x16), A100 and L40S 32 (4.0), H100 64 GB/s
/// (5.0).
double hostBytesPerSecond(int capability);

/// A step's modelled time and what it is made of.
struct StepTime {
  uint64_t flops = 0; ///< per GPU per step, recomputation included
  uint64_t sent = 0;  ///< bytes per GPU per step to other GPUs
  uint64_t host = 0;  ///< bytes per GPU per step to and from its host
  double compute = 0, communication = 0, hostTransfer = 0;
  /// The pipeline's fill and drain: (p - 1) / m of the stage's time.
  double bubble = 0;
  double total() const {
    return compute + communication + hostTransfer + bubble;
  }
};

/// The cost model: a step runs at the peak rates, communication does not
/// overlap computation, and a pipeline idles (p - 1) micro-batch times
/// (1F1B). `cost` is the planned graph of one rank at `microBatches`
/// micro-batches. A pipeline stage's graph holds all of them; any other
/// graph is the step's last micro-batch, so its FLOPs and tensor-parallel
/// bytes count `microBatches` times, and its data-parallel bytes once
/// (DDP and ZeRO-1 reduce when the step's gradients are complete), or once
/// per micro-batch for what ZeRO-2 (reduce-scatter) and ZeRO-3 (every
/// collective) run in each backward pass. With offload, the reduced
/// gradients go to the host as often as they are reduced, the updated
/// share comes back once; the host's optimizer step takes no time in the
/// model.
StepTime estimateStepTime(const Layout &layout, int64_t microBatches,
                          const StepCost &cost, const CostModel &model);

} // namespace memplan::fit

#endif // MEMPLAN_TOOLS_MEMPLANFIT_CLUSTERLAYOUT_H
