//===- CandidateSearch.h - One way to run a step, and its search *- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A candidate (what is trained, the weights' precision, the recomputation)
// and the search for the largest micro-batch whose step fits a GPU: every
// micro-batch tried is a graph generated, planned by the --plan-offsets
// pipeline and measured from its proven plan.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANFIT_CANDIDATESEARCH_H
#define MEMPLAN_TOOLS_MEMPLANFIT_CANDIDATESEARCH_H

#include "ClusterLayout.h"
#include "TransformerGenerator.h"

#include "memplan/Analysis/FunctionMemory.h"
#include "memplan/Planner/Algorithms.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace memplan::fit {

using gen::Checkpointing;
using gen::GeneratorOptions;
using gen::Mode;

enum class Method { Full, Lora, Qlora };

/// One way to run the step; its micro-batch is what the search varies.
struct Candidate {
  Method method = Method::Full;
  std::string weightType;
  Checkpointing checkpointing = Checkpointing::None;
  GeneratorOptions options;
  /// Several GPUs (memplan-fit --gpus): how the step is split, and the
  /// sequences each data-parallel replica runs per optimizer step, in
  /// micro-batches of the size searched (which must divide it).
  std::optional<Layout> layout;
  int64_t samplesPerReplica = 0;
  /// Its place in the order of preference of what is trained and the
  /// precision (lower first): layouts are ranked by it before their time.
  unsigned preference = 0;
};

/// One planned graph.
struct Probe {
  int64_t batch = 0;
  FunctionMemory memory;
  /// What must fit: the chosen measure plus the CUDA context.
  uint64_t peak = 0;
  /// Not planned: `peak` is what boundFunctionMemory knows of the step's
  /// (a lower bound of the plan's total, or the allocator model's peak,
  /// plus the context) and already exceeds the memory; `memory` is empty.
  /// Only the search's "does it fit" sees such a probe.
  bool bounded = false;
  /// With a layout: the pipeline stage whose peak this is, and the step's
  /// modelled time (the slowest planned stage's).
  int64_t stage = 0;
  StepTime time;
};

/// What the search found for one candidate.
struct Outcome {
  /// Why the candidate cannot be generated or planned at micro-batch 1
  /// (the model has no such projection, train needs float weights, ...).
  std::string unavailable;
  std::optional<Probe> largest; ///< the largest micro-batch that fits
  std::optional<Probe> wanted;  ///< the micro-batch asked for
  /// The smallest micro-batch found not to fit, if one was tried.
  std::optional<int64_t> firstTooLarge;
  /// Why the first micro-batch that does not fit was not planned, if it
  /// could not be generated (a tensor over 2^63 bytes).
  std::string tooLargeReason;
  /// With a layout: every micro-batch up to the largest that fits, with its
  /// modelled time, and the fastest of them, planned.
  std::vector<std::pair<int64_t, StepTime>> timed;
  std::optional<Probe> fastest;
  /// Micro-batches planned, and those set aside unplanned because a
  /// graph's peak known before planning (boundFunctionMemory) already
  /// exceeded the memory.
  unsigned graphs = 0, boundedOut = 0;
};

/// --methods' names of what is trained (the JSON's "method" too).
inline const std::pair<llvm::StringRef, Method> kMethods[] = {
    {"full", Method::Full}, {"lora", Method::Lora}, {"qlora", Method::Qlora}};

/// A candidate as the table shows it ("LoRA r=8 (q,v), bf16, full
/// checkpointing"; "int8 weights" in inference).
std::string describeCandidate(const Candidate &candidate, Mode mode);

/// What a search measures and where it stops.
struct BatchSearchOptions {
  uint64_t gpuMemory = 0;    ///< what the peak must not exceed
  uint64_t contextBytes = 0; ///< the CUDA context, added to every peak
  /// The peak is the caching-allocator model's max_memory_reserved, not
  /// the plan's total.
  bool onPytorch = false;
  /// How each graph is planned (--plan-offsets's `algorithm`).
  Algorithm algorithm = Algorithm::GreedyBySize;
  /// Also planned, for its peak (0: none; a cluster's table has no such
  /// column).
  int64_t wantedBatch = 1;
  int64_t maxBatch = 1024; ///< the largest micro-batch tried
  /// Tries every micro-batch from 1 up instead of doubling and bisecting:
  /// a check of the search (and of its premise) at one graph per batch.
  bool linear = false;
  /// Plans every micro-batch the search tries, even one whose lower bound
  /// alone says it does not fit: a check that the bound changes no answer.
  bool planEvery = false;
  /// With a layout: the rates of the step-time model.
  CostModel costModel;
};

/// The largest micro-batch of `candidate` whose step fits: doubles the
/// micro-batch from 1 while the step fits (up to the limit), then bisects
/// between the last that fit and the first that did not. The search relies
/// on the peak growing with the micro-batch: every activation does, and
/// nothing shrinks. With a layout, only the micro-batches that divide the
/// replica's samples are tried (the doubling and bisection run over that
/// list), each planned rank is a generated graph (the peak is the largest,
/// see plannedStages), and every micro-batch below the largest is timed
/// from its generated graph, the fastest planned. The premise holds among the
/// steps that accumulate gradients over micro-batches; the step of one
/// micro-batch (all of the replica's samples) keeps no accumulation buffer and
/// may be smaller than those, so it is planned apart. Runs in its own MLIR
/// context, so that candidates can be searched on several threads at once.
Outcome searchCandidate(const Candidate &candidate,
                        const BatchSearchOptions &options);

} // namespace memplan::fit

#endif // MEMPLAN_TOOLS_MEMPLANFIT_CANDIDATESEARCH_H
