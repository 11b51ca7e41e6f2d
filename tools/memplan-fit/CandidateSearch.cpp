//===- CandidateSearch.cpp - One way to run a step, and its search --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CandidateSearch.h"

#include "GeneratorChoices.h"
#include "StepCost.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace memplan;
using namespace memplan::fit;
using namespace memplan::gen;

namespace {

/// Plans one candidate's graphs in its own context (candidates are weighed
/// in parallel), each micro-batch at most once.
class CandidateSearch {
public:
  CandidateSearch(const Candidate &candidate, const BatchSearchOptions &options)
      : candidate(candidate), options(options),
        context(mlir::MLIRContext::Threading::DISABLED) {
    context.loadDialect<MemPlanDialect, mlir::func::FuncDialect>();
  }

  /// See searchCandidate.
  Outcome run() {
    // The micro-batches tried, in increasing order; the search runs over
    // their indices.
    std::vector<int64_t> batches;
    for (int64_t batch = 1; batch <= options.maxBatch; ++batch)
      if (!candidate.layout || (candidate.samplesPerReplica % batch == 0 &&
                                candidate.samplesPerReplica / batch %
                                        microBatchGroup(*candidate.layout) ==
                                    0))
        batches.push_back(batch);
    // One micro-batch per step needs no gradient accumulation: without its
    // buffers that step can be smaller than one with a smaller micro-batch,
    // so it is weighed apart from the search, whose premise holds among
    // the steps that accumulate (their buffers are the same).
    std::optional<int64_t> whole;
    if (candidate.layout && batches.size() > 1 &&
        batches.back() == candidate.samplesPerReplica) {
      whole = batches.back();
      batches.pop_back();
    }
    Outcome outcome;
    FailureOrProbe first = probe(1, /*mayBound=*/true);
    if (!first.probe) {
      outcome.unavailable = first.error;
      outcome.graphs = graphs;
      outcome.boundedOut = boundedOut.size();
      return outcome;
    }
    const size_t count = batches.size();
    std::optional<size_t> fits, tooLarge;
    std::string tooLargeReason;
    auto tryIndex = [&](size_t index) {
      FailureOrProbe result = probe(batches[index], /*mayBound=*/true);
      if (result.probe && result.probe->peak <= options.gpuMemory) {
        fits = index;
        return true;
      }
      tooLarge = index;
      tooLargeReason = result.probe ? "" : result.error;
      return false;
    };
    if (options.linear) {
      for (size_t index = 0; index < count && tryIndex(index); ++index)
        ;
    } else {
      // Doubling: 1, 2, 4, ... of the list's positions.
      for (size_t index = 0; tryIndex(index) && index + 1 < count;)
        index = std::min(count - 1, 2 * index + 1);
      while (fits && tooLarge && *tooLarge - *fits > 1)
        tryIndex(*fits + (*tooLarge - *fits) / 2);
    }
    if (fits)
      outcome.largest = probes.at(batches[*fits]);
    if (tooLarge) {
      outcome.firstTooLarge = batches[*tooLarge];
      outcome.tooLargeReason = tooLargeReason;
    }
    if (options.wantedBatch > 0)
      if (FailureOrProbe wanted = probe(options.wantedBatch); wanted.probe)
        outcome.wanted = *wanted.probe;
    if (candidate.layout) {
      // Every micro-batch that fits, for the fastest.
      std::vector<int64_t> fitting;
      if (fits)
        fitting.assign(batches.begin(), batches.begin() + *fits + 1);
      if (whole) {
        FailureOrProbe result = probe(*whole, /*mayBound=*/true);
        if (result.probe && result.probe->peak <= options.gpuMemory) {
          fitting.push_back(*whole);
          outcome.largest = *result.probe;
        }
      }
      // Each one's time, from its graph (generated, and planned only if
      // the search planned it already: by the premise it fits); then the
      // fastest is planned for its peak. Ties go to the larger micro-batch.
      std::vector<std::pair<double, int64_t>> byTime;
      for (int64_t batch : fitting) {
        std::optional<StepTime> time;
        if (auto known = probes.find(batch); known != probes.end())
          time = known->second.time;
        else if (FailureOrProbe timed = evaluate(batch, /*plan=*/false);
                 timed.probe)
          time = timed.probe->time;
        if (!time)
          continue;
        outcome.timed.push_back({batch, *time});
        byTime.push_back({time->total(), -batch});
      }
      llvm::sort(byTime);
      for (auto [seconds, negated] : byTime) {
        FailureOrProbe result = probe(-negated);
        // The premise says each fits; one that does not is passed over.
        if (result.probe && result.probe->peak <= options.gpuMemory) {
          outcome.fastest = *result.probe;
          break;
        }
      }
    }
    outcome.graphs = graphs;
    outcome.boundedOut = boundedOut.size();
    return outcome;
  }

private:
  struct FailureOrProbe {
    std::optional<Probe> probe;
    std::string error;
  };

  /// The cost of the graph of `generator`, generated and not planned.
  std::optional<StepCost> countRank(const GeneratorOptions &generator) {
    std::string error;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        generateTransformer(&context, generator, error);
    if (!module)
      return std::nullopt;
    auto functions = module->getOps<mlir::FunctionOpInterface>();
    if (functions.empty())
      return std::nullopt;
    return countStepCost(*functions.begin());
  }

  /// Generates, plans (--plan-offsets, proven by measureFunctionMemory)
  /// and measures the step at micro-batch `batch`. With `mayBound` (the
  /// search asks only whether it fits), a step whose lower bound is already
  /// above the memory is not planned: its probe's peak is that bound and
  /// nothing else is measured, and a later call without `mayBound` plans it.
  FailureOrProbe probe(int64_t batch, bool mayBound = false) {
    if (auto known = probes.find(batch); known != probes.end())
      return {known->second, ""};
    if (auto known = errors.find(batch); known != errors.end())
      return {std::nullopt, known->second};
    if (auto known = boundedOut.find(batch);
        mayBound && known != boundedOut.end())
      return {known->second, ""};
    FailureOrProbe result =
        evaluate(batch, /*plan=*/true, mayBound && boundsSuffice());
    if (result.probe && result.probe->bounded) {
      boundedOut[batch] = *result.probe;
      return result;
    }
    ++graphs;
    if (result.probe)
      probes[batch] = *result.probe;
    else
      errors[batch] = result.error;
    return result;
  }

  /// Whether a step may be set aside by what boundFunctionMemory knows
  /// before planning: a lower bound of the plan's total, or the
  /// caching-allocator model's peak itself (--fit-on pytorch).
  bool boundsSuffice() const { return !options.planEvery; }

  /// One planned rank: its peak and its cost.
  struct Rank {
    FunctionMemory memory;
    StepCost cost;
  };
  /// A planned rank, or why there is none, or (asked to bound first) the
  /// lower bound of its peak that already exceeds the memory.
  struct RankOrError {
    std::optional<Rank> rank;
    std::string error;
    std::optional<uint64_t> boundedPeak;
  };

  /// The step at micro-batch `batch`: generated, and planned and measured
  /// if `plan` (else only its time is known; a graph that cannot be
  /// generated here was generated by the search before, so it can). With
  /// `bound`, a rank whose lower bound exceeds the memory ends it unplanned
  /// (a probe marked `bounded`).
  FailureOrProbe evaluate(int64_t batch, bool plan, bool bound = false) {
    GeneratorOptions generator = candidate.options;
    generator.batch = batch;
    auto boundedProbe = [&](uint64_t peak, int64_t stage) {
      Probe probe;
      probe.batch = batch;
      probe.peak = peak;
      probe.stage = stage;
      probe.bounded = true;
      return FailureOrProbe{std::move(probe), ""};
    };
    if (!candidate.layout) {
      RankOrError planned = planRank(generator, bound);
      if (planned.boundedPeak)
        return boundedProbe(*planned.boundedPeak, 0);
      if (!planned.rank)
        return {std::nullopt, planned.error};
      Probe probe;
      probe.batch = batch;
      probe.peak = peakOf(planned.rank->memory);
      probe.memory = std::move(planned.rank->memory);
      return {std::move(probe), ""};
    }
    const Layout &layout = *candidate.layout;
    int64_t microBatches = candidate.samplesPerReplica / batch;
    int64_t plannedCount = plannedMicroBatches(layout, microBatches);
    applyLayout(layout, plannedCount, generator);
    std::optional<Probe> best;
    std::optional<StepTime> slowest;
    for (int64_t stage : plannedStages(layout)) {
      generator.pipeline.stage = stage;
      RankOrError planned;
      if (plan) {
        planned = planRank(generator, bound);
        if (planned.boundedPeak)
          return boundedProbe(*planned.boundedPeak, stage);
      } else if (std::optional<StepCost> counted = countRank(generator)) {
        planned.rank = Rank{FunctionMemory(), *counted};
      } else {
        planned.error = "internal error: the step cannot be generated";
      }
      if (!planned.rank)
        return {std::nullopt, planned.error};
      StepCost cost = planned.rank->cost;
      if (plannedCount < microBatches) {
        // The step's cost from one micro-batch (or group) more.
        int64_t group = microBatchGroup(layout);
        GeneratorOptions next = generator;
        next.microBatches = plannedCount + group;
        std::optional<StepCost> nextCost = countRank(next);
        if (!nextCost)
          return {std::nullopt, "internal error: the step of " +
                                    std::to_string(next.microBatches) +
                                    " micro-batches cannot be generated"};
        cost = extrapolateStepCost(
            cost, *nextCost, uint64_t((microBatches - plannedCount) / group));
      }
      StepTime time =
          estimateStepTime(layout, microBatches, cost, options.costModel);
      // The step takes as long as its slowest stage.
      if (!slowest || time.total() > slowest->total())
        slowest = time;
      uint64_t peak = peakOf(planned.rank->memory);
      if (best && peak <= best->peak)
        continue;
      best.emplace();
      best->batch = batch;
      best->peak = peak;
      best->stage = stage;
      best->memory = std::move(planned.rank->memory);
    }
    best->time = *slowest;
    return {std::move(best), ""};
  }

  /// What must fit for a rank's plan.
  uint64_t peakOf(const FunctionMemory &memory) const {
    return peakOf(memory.total(), memory.pytorch);
  }
  /// The same from a plan's total (or its lower bound) and the allocator
  /// model's peaks.
  uint64_t peakOf(uint64_t planTotal,
                  const CachingAllocatorPeaks &pytorch) const {
    return (options.onPytorch ? pytorch.maxReserved : planTotal) +
           options.contextBytes;
  }

  /// Generates, plans (--plan-offsets) and measures (measureFunctionMemory,
  /// which proves the plan first, as --memplan-verify-plan does) the graph
  /// of `generator`: the memory of its function whose total is largest,
  /// and that function's cost. With `bound`, a graph with a function whose
  /// peak known before planning (boundFunctionMemory, for the same
  /// --plan-offsets options: the total's lower bound, or the allocator
  /// model's peak) plus the context exceeds the memory is not planned:
  /// `boundedPeak`.
  RankOrError planRank(const GeneratorOptions &generator, bool bound = false) {
    std::string error;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        generateTransformer(&context, generator, error);
    if (!module)
      return {std::nullopt, error, std::nullopt};
    // The planner's diagnostics become the candidate's reason (a plan that
    // does not prove is an internal error, never a number).
    mlir::ScopedDiagnosticHandler handler(
        &context, [&](mlir::Diagnostic &diagnostic) {
          if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error &&
              error.empty())
            error = "internal error: " + diagnostic.str();
          return mlir::success();
        });
    PlanOffsetsOptions planOptions;
    planOptions.algorithm = options.algorithm;
    if (bound)
      for (auto function : module->getOps<mlir::FunctionOpInterface>()) {
        if (function.isExternal())
          continue;
        mlir::FailureOr<FunctionMemoryBounds> bounds = boundFunctionMemory(
            function, planOptions.inPlace, planOptions.resultsInCallerBuffers);
        if (mlir::failed(bounds))
          return {std::nullopt,
                  error.empty() ? "internal error: no liveness" : error,
                  std::nullopt};
        uint64_t peak = peakOf(bounds->total, bounds->pytorch);
        if (peak > options.gpuMemory)
          return {std::nullopt, "", peak};
      }
    mlir::PassManager pm(&context);
    pm.addPass(createPlanOffsets(planOptions));
    if (mlir::failed(pm.run(*module)))
      return {std::nullopt,
              error.empty() ? "internal error: planning failed" : error,
              std::nullopt};
    std::optional<Rank> best;
    for (auto function : module->getOps<mlir::FunctionOpInterface>()) {
      if (function.isExternal())
        continue;
      mlir::FailureOr<FunctionMemory> memory = measureFunctionMemory(function);
      if (mlir::failed(memory))
        return {std::nullopt, error, std::nullopt};
      if (!best || peakOf(*memory) > peakOf(best->memory))
        best = Rank{std::move(*memory), countStepCost(function)};
    }
    if (!best)
      return {std::nullopt, "internal error: no function was generated",
              std::nullopt};
    return {std::move(best), "", std::nullopt};
  }

  const Candidate &candidate;
  const BatchSearchOptions &options;
  mlir::MLIRContext context;
  std::map<int64_t, Probe> probes;
  std::map<int64_t, std::string> errors;
  /// Micro-batches set aside by their lower bound, not planned.
  std::map<int64_t, Probe> boundedOut;
  unsigned graphs = 0;
};

} // namespace

Outcome memplan::fit::searchCandidate(const Candidate &candidate,
                                      const BatchSearchOptions &options) {
  return CandidateSearch(candidate, options).run();
}

std::string memplan::fit::describeCandidate(const Candidate &candidate,
                                            Mode mode) {
  std::string text;
  if (mode == Mode::Train) {
    switch (candidate.method) {
    case Method::Full:
      text = "full fine-tuning";
      break;
    case Method::Lora:
    case Method::Qlora: {
      text = (candidate.method == Method::Lora ? "LoRA r=" : "QLoRA r=") +
             std::to_string(candidate.options.loraRank) + " (";
      llvm::ListSeparator comma(",");
      for (auto [name, bit] : kLoraTargets)
        if (candidate.options.loraTargets & bit)
          text += (llvm::Twine(comma) + name).str();
      text += ")";
      break;
    }
    }
    // QLoRA's layers are NF4; the embeddings, norms and head keep the
    // weight type.
    text += (candidate.method == Method::Qlora ? ", nf4 + " : ", ") +
            candidate.weightType;
    text += candidate.checkpointing == Checkpointing::None
                ? ", no checkpointing"
                : (llvm::Twine(", ") +
                   choiceName<Checkpointing>(kCheckpointings,
                                             candidate.checkpointing) +
                   " checkpointing")
                      .str();
    return text;
  }
  return candidate.weightType + " weights";
}
