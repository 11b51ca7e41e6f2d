//===- CandidateSearch.cpp - One way to run a step, and its search --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CandidateSearch.h"

#include "GeneratorChoices.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Transforms/Pipelines.h"
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
    const int64_t limit = options.maxBatch;
    Outcome outcome;
    FailureOrProbe first = probe(1);
    if (!first.probe) {
      outcome.unavailable = first.error;
      outcome.graphs = graphs;
      return outcome;
    }
    int64_t fits = 0, tooLarge = 0;
    std::string tooLargeReason;
    auto tryBatch = [&](int64_t batch) {
      FailureOrProbe result = probe(batch);
      if (result.probe && result.probe->peak <= options.gpuMemory) {
        fits = batch;
        return true;
      }
      tooLarge = batch;
      tooLargeReason = result.probe ? "" : result.error;
      return false;
    };
    if (options.linear) {
      for (int64_t batch = 1; batch <= limit && tryBatch(batch); ++batch)
        ;
    } else {
      for (int64_t batch = 1; tryBatch(batch) && batch < limit;)
        batch = std::min(limit, 2 * batch);
      while (fits && tooLarge && tooLarge - fits > 1)
        tryBatch(fits + (tooLarge - fits) / 2);
    }
    if (fits)
      outcome.largest = probes.at(fits);
    if (tooLarge) {
      outcome.firstTooLarge = tooLarge;
      outcome.tooLargeReason = tooLargeReason;
    }
    if (FailureOrProbe wanted = probe(options.wantedBatch); wanted.probe)
      outcome.wanted = *wanted.probe;
    outcome.graphs = graphs;
    return outcome;
  }

private:
  struct FailureOrProbe {
    std::optional<Probe> probe;
    std::string error;
  };

  /// Generates, plans (--plan-offsets and --memplan-verify-plan) and
  /// measures the step at micro-batch `batch`.
  FailureOrProbe probe(int64_t batch) {
    if (auto known = probes.find(batch); known != probes.end())
      return {known->second, ""};
    if (auto known = errors.find(batch); known != errors.end())
      return {std::nullopt, known->second};
    FailureOrProbe result = generateAndPlan(batch);
    ++graphs;
    if (result.probe)
      probes[batch] = *result.probe;
    else
      errors[batch] = result.error;
    return result;
  }

  FailureOrProbe generateAndPlan(int64_t batch) {
    GeneratorOptions generator = candidate.options;
    generator.batch = batch;
    std::string error;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        generateTransformer(&context, generator, error);
    if (!module)
      return {std::nullopt, error};
    // The planner's diagnostics become the candidate's reason (a plan that
    // does not prove is an internal error, never a number).
    mlir::ScopedDiagnosticHandler handler(
        &context, [&](mlir::Diagnostic &diagnostic) {
          if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error &&
              error.empty())
            error = "internal error: " + diagnostic.str();
          return mlir::success();
        });
    mlir::PassManager pm(&context);
    buildPlanOffsetsPipeline(pm);
    if (mlir::failed(pm.run(*module)))
      return {std::nullopt,
              error.empty() ? "internal error: planning failed" : error};
    std::optional<Probe> best;
    for (auto function : module->getOps<mlir::FunctionOpInterface>()) {
      if (function.isExternal())
        continue;
      mlir::FailureOr<FunctionMemory> memory = measureFunctionMemory(function);
      if (mlir::failed(memory))
        return {std::nullopt, error};
      Probe probe;
      probe.batch = batch;
      probe.peak =
          (options.onPytorch ? memory->pytorch.maxReserved : memory->total()) +
          options.contextBytes;
      probe.memory = std::move(*memory);
      if (!best || probe.peak > best->peak)
        best = std::move(probe);
    }
    if (!best)
      return {std::nullopt, "internal error: no function was generated"};
    return {std::move(best), ""};
  }

  const Candidate &candidate;
  const BatchSearchOptions &options;
  mlir::MLIRContext context;
  std::map<int64_t, Probe> probes;
  std::map<int64_t, std::string> errors;
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
