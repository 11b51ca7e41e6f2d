//===- MemoryReport.cpp - --memplan-memory-report -------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every byte a planned function needs, by role: what is outside the arena
// (arguments by memplan.role, outputs) and what is inside it (activations,
// scratch, gradients), from the plan written in the IR.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "ModuleFunctions.h"
#include "memplan/Support/FormatBytes.h"

#include "memplan/Analysis/FunctionMemory.h"
#include "memplan/Support/OutputFiles.h"
#include "llvm/Support/JSON.h"

namespace memplan {
#define GEN_PASS_DEF_MEMORYREPORT
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

std::string withCommas(uint64_t value) {
  std::string digits = std::to_string(value), result;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      result += ',';
    result += digits[i];
  }
  return result;
}

void printTable(raw_ostream &os, const FunctionMemory &m,
                uint64_t cudaContext) {
  auto row = [&](StringRef label, uint64_t bytes) {
    os << llvm::left_justify(label, 36)
       << llvm::right_justify(withCommas(bytes), 20) << " B"
       << llvm::right_justify(formatBytes(bytes), 14) << "\n";
  };
  os << "memory of @" << m.name << "\n";
  os << llvm::left_justify("  parameters", 36)
     << llvm::right_justify(withCommas(m.parameters), 20) << "\n";
  row("  weights", m.weights);
  for (const auto &[type, bytes] : m.weightsByType)
    row("    " + type, bytes);
  row("  kv cache", m.kvCache);
  row("  inputs", m.inputs);
  row("  optimizer states", m.optimizerStates);
  row("  master weights", m.masterWeights);
  if (m.gradientAccumulators)
    row("  gradient accumulators", m.gradientAccumulators);
  if (m.communicationBuffers)
    row("  communication buffers", m.communicationBuffers);
  if (m.otherArguments)
    row("  other arguments", m.otherArguments);
  row("  activation arena (planned)", m.arena);
  row("    lower bound", m.lowerBound);
  if (m.unscheduledLowerBound)
    row("    lower bound before scheduling", *m.unscheduledLowerBound);
  if (m.unrematerializedLowerBound)
    row("    lower bound before recomputation", *m.unrematerializedLowerBound);
  if (m.recomputedFlops)
    os << llvm::left_justify("    recomputed operations", 36)
       << llvm::right_justify(withCommas(*m.recomputedFlops), 20) << "\n";
  row("    without reuse", m.withoutReuse);
  row("    scratch buffers", m.scratch);
  row("      library workspace (largest)", m.libraryWorkspace);
  row("      library workspace at the peak", m.libraryWorkspaceAtPeak);
  row("    gradient buffers", m.gradients);
  if (m.gathered)
    row("    gathered weights", m.gathered);
  row("  outputs (caller buffers)", m.outputs);
  row("  total", m.total());
  if (m.host)
    row("  host memory (not in the total)", m.host);
  if (cudaContext) {
    row("  CUDA context (runtime, unplanned)", cudaContext);
    row("  total with the CUDA context", m.total() + cudaContext);
  }
  char perParameter[32];
  snprintf(perParameter, sizeof(perParameter), "%.2f",
           m.parameters ? double(m.total()) / double(m.parameters) : 0.0);
  os << llvm::left_justify("  bytes per parameter", 36)
     << llvm::right_justify(perParameter, 20) << "\n";
  os << "  PyTorch's caching allocator (a model: each tensor allocated on its "
        "own)\n";
  row("    max_memory_allocated", m.pytorch.maxAllocated);
  row("    max_memory_reserved", m.pytorch.maxReserved);
}

/// The function with the largest total (the first of equals).
const FunctionMemory *peakFunction(ArrayRef<FunctionMemory> functions) {
  const FunctionMemory *peak = nullptr;
  for (const FunctionMemory &memory : functions)
    if (!peak || memory.total() > peak->total())
      peak = &memory;
  return peak;
}

void writeJson(raw_ostream &os, ArrayRef<FunctionMemory> functions,
               uint64_t cudaContext) {
  llvm::json::OStream json(os, 2);
  json.objectBegin();
  if (functions.size() > 1)
    json.attribute("largest_total_function", peakFunction(functions)->name);
  json.attributeArray("functions", [&] {
    for (const FunctionMemory &m : functions)
      json.object([&] {
        json.attribute("name", m.name);
        json.attribute("parameters", m.parameters);
        json.attribute("weight_bytes", m.weights);
        json.attributeObject("weight_bytes_by_type", [&] {
          for (const auto &[type, bytes] : m.weightsByType)
            json.attribute(type, bytes);
        });
        json.attribute("kv_cache_bytes", m.kvCache);
        json.attribute("input_bytes", m.inputs);
        json.attribute("optimizer_state_bytes", m.optimizerStates);
        json.attribute("master_weight_bytes", m.masterWeights);
        if (m.gradientAccumulators)
          json.attribute("gradient_accumulator_bytes", m.gradientAccumulators);
        if (m.communicationBuffers)
          json.attribute("communication_buffer_bytes", m.communicationBuffers);
        if (m.host)
          json.attribute("host_bytes", m.host);
        json.attribute("other_argument_bytes", m.otherArguments);
        json.attribute("arena_bytes", m.arena);
        json.attribute("lower_bound_bytes", m.lowerBound);
        if (m.unscheduledLowerBound)
          json.attribute("unscheduled_lower_bound_bytes",
                         *m.unscheduledLowerBound);
        if (m.unrematerializedLowerBound)
          json.attribute("unrematerialized_lower_bound_bytes",
                         *m.unrematerializedLowerBound);
        if (m.recomputedFlops)
          json.attribute("recomputed_operations", *m.recomputedFlops);
        json.attribute("bytes_without_reuse", m.withoutReuse);
        json.attribute("buffer_count", m.bufferCount);
        json.attribute("scratch_bytes", m.scratch);
        json.attribute("library_workspace_bytes", m.libraryWorkspace);
        json.attribute("library_workspace_at_peak_bytes",
                       m.libraryWorkspaceAtPeak);
        json.attribute("gradient_bytes", m.gradients);
        if (m.gathered)
          json.attribute("gathered_bytes", m.gathered);
        json.attribute("output_bytes", m.outputs);
        json.attribute("total_bytes", m.total());
        if (cudaContext) {
          json.attribute("cuda_context_bytes", cudaContext);
          json.attribute("total_with_cuda_context_bytes",
                         m.total() + cudaContext);
        }
        json.attribute("pytorch_max_memory_allocated_bytes",
                       m.pytorch.maxAllocated);
        json.attribute("pytorch_max_memory_reserved_bytes",
                       m.pytorch.maxReserved);
      });
  });
  json.objectEnd();
  os << "\n";
}

struct MemoryReportPass
    : public memplan::impl::MemoryReportBase<MemoryReportPass> {
  using MemoryReportBase::MemoryReportBase;

  void runOnOperation() override {
    if (allocatorSteps < 1 || allocatorSteps > 1000) {
      emitError(getOperation().getLoc())
          << "--memplan-memory-report: allocator-steps must be from 1 to "
             "1000, not "
          << unsigned(allocatorSteps);
      return signalPassFailure();
    }
    // Measured in parallel, printed in the functions' order; nothing is
    // printed when a plan is refused.
    SmallVector<FunctionOpInterface> planned =
        collectModuleFunctions(getOperation());
    std::vector<FunctionMemory> functions(planned.size());
    if (failed(forEachFunctionInParallel(
            &getContext(), planned,
            [&](size_t index, FunctionOpInterface function) {
              FailureOr<FunctionMemory> memory =
                  measureFunctionMemory(function, allocatorSteps);
              if (failed(memory))
                return failure();
              functions[index] = std::move(*memory);
              return success();
            })))
      return signalPassFailure();
    for (const FunctionMemory &memory : functions)
      printTable(llvm::outs(), memory, cudaContext);
    // Several steps (one per pipeline stage, say): the largest decides
    // whether they fit GPUs of one size.
    if (functions.size() > 1) {
      const FunctionMemory &peak = *peakFunction(functions);
      llvm::outs() << "largest total of " << functions.size() << " functions: @"
                   << peak.name << ", " << withCommas(peak.total()) << " B\n";
    }
    // A table that cannot be written (stdout on a full disk) is an error of
    // the pass, not an `LLVM ERROR` from the stream at exit.
    llvm::outs().flush();
    if (llvm::outs().has_error()) {
      std::error_code error = llvm::outs().error();
      llvm::outs().clear_error();
      emitError(getOperation().getLoc())
          << "cannot write the memory report to standard output: "
          << error.message();
      return signalPassFailure();
    }
    if (!jsonFile.empty()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      writeJson(os, functions, cudaContext);
      if (llvm::Error written =
              writeOutputFiles({{jsonFile, std::move(text)}})) {
        emitError(getOperation().getLoc())
            << llvm::toString(std::move(written));
        return signalPassFailure();
      }
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
