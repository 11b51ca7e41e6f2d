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

#include "memplan/Analysis/PlanVerification.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "memplan/Planner/CachingAllocatorModel.h"
#include "memplan/Planner/Problem.h"
#include "memplan/Support/OutputFiles.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"

#include <limits>
#include <map>

namespace memplan {
#define GEN_PASS_DEF_MEMORYREPORT
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

struct FunctionMemory {
  std::string name;
  uint64_t parameters = 0;
  std::map<std::string, uint64_t> weightsByType;
  uint64_t weights = 0, kvCache = 0, inputs = 0, optimizerStates = 0,
           masterWeights = 0, gradientAccumulators = 0, otherArguments = 0;
  uint64_t arena = 0, lowerBound = 0, withoutReuse = 0, bufferCount = 0;
  /// The same tensors in PyTorch's caching allocator (a model).
  CachingAllocatorPeaks pytorch;
  /// The lower bound of the order as written, if --memplan-schedule ran.
  std::optional<uint64_t> unscheduledLowerBound;
  /// The lower bound before --memplan-fit-budget, and the arithmetic
  /// operations its recomputations add to a step, if it ran.
  std::optional<uint64_t> unrematerializedLowerBound, recomputedFlops;
  uint64_t scratch = 0, gradients = 0, outputs = 0;
  /// The largest math-library workspace one op takes, and how much the
  /// workspaces add to the lower bound (the most bytes live at once with
  /// them, less the most without them): the report's own line, so that a
  /// total can be compared without the library's share.
  uint64_t libraryWorkspace = 0, libraryWorkspaceAtPeak = 0;

  uint64_t total() const {
    return weights + kvCache + inputs + optimizerStates + masterWeights +
           gradientAccumulators + otherArguments + arena + outputs;
  }
};

/// The function's tensors as PyTorch's eager mode holds them, each its own
/// allocation: the arguments first (in order, for the whole step), then each
/// buffer over its planned lifetime, a returned one to the end; the library
/// workspace once, at its first use, for good (PyTorch keeps one cuBLAS
/// workspace per handle).
std::vector<TensorLifetime> eagerTensors(FunctionOpInterface function,
                                         const BufferLiveness &liveness) {
  constexpr int64_t kForever = std::numeric_limits<int64_t>::max();
  std::vector<TensorLifetime> tensors;
  for (BlockArgument argument : function.getArguments())
    if (ByteSize size = getByteSize(argument.getType()); size.ok())
      tensors.push_back({size.bytes, -1, kForever});
  std::optional<size_t> workspace;
  for (const LiveBuffer &buffer : liveness.getBuffers()) {
    if (buffer.isLibraryWorkspace()) {
      if (!workspace) {
        workspace = tensors.size();
        tensors.push_back({buffer.bytes, buffer.start, kForever});
      }
      tensors[*workspace].bytes =
          std::max(tensors[*workspace].bytes, buffer.bytes);
      continue;
    }
    tensors.push_back({buffer.bytes, buffer.start,
                       buffer.destination ? kForever : buffer.end});
  }
  return tensors;
}

FailureOr<FunctionMemory> measure(FunctionOpInterface function) {
  // A report counts what the plan claims, so the claim is proven first (a
  // hand-edited plan with a buffer outside its arena would report an arena
  // too small).
  if (failed(verifyFunctionPlan(function)))
    return failure();
  FunctionMemory memory;
  memory.name = function.getName().str();
  MLIRContext *context = function.getContext();
  memory.arena = *getPlannedArenaSize(function);
  if (IntegerAttr bound =
          MemPlanDialect::LowerBoundAttrHelper(context).getAttr(function))
    memory.lowerBound = bound.getInt();
  if (IntegerAttr bound =
          MemPlanDialect::UnscheduledLowerBoundAttrHelper(context).getAttr(
              function))
    memory.unscheduledLowerBound = bound.getInt();
  if (IntegerAttr bound =
          MemPlanDialect::UnrematerializedLowerBoundAttrHelper(context).getAttr(
              function))
    memory.unrematerializedLowerBound = bound.getInt();
  if (IntegerAttr flops =
          MemPlanDialect::RecomputedFlopsAttrHelper(context).getAttr(function))
    memory.recomputedFlops = flops.getInt();

  for (BlockArgument argument : function.getArguments()) {
    ByteSize size = getByteSize(argument.getType());
    if (!size.ok())
      continue; // index positions and other scalars
    std::optional<ArgumentRole> role =
        getArgumentRole(function, argument.getArgNumber());
    if (!role) {
      memory.otherArguments += size.bytes;
      continue;
    }
    switch (*role) {
    case ArgumentRole::Weight:
    case ArgumentRole::QuantizationScale: {
      // Scales are weight bytes, not parameters.
      auto type = cast<ShapedType>(argument.getType());
      std::string element;
      llvm::raw_string_ostream os(element);
      os << type.getElementType();
      memory.weightsByType[element] += size.bytes;
      memory.weights += size.bytes;
      if (*role == ArgumentRole::Weight)
        memory.parameters += type.getNumElements();
      break;
    }
    case ArgumentRole::KvCache:
      memory.kvCache += size.bytes;
      break;
    case ArgumentRole::Input:
      memory.inputs += size.bytes;
      break;
    case ArgumentRole::OptimizerState:
      memory.optimizerStates += size.bytes;
      break;
    case ArgumentRole::MasterWeight:
      memory.masterWeights += size.bytes;
      break;
    case ArgumentRole::GradientAccumulator:
      memory.gradientAccumulators += size.bytes;
      break;
    }
  }

  FailureOr<BufferLiveness> liveness = computePlannedLiveness(function);
  if (failed(liveness))
    return failure();
  // The same buffers without the library workspaces, for their share of the
  // lower bound (sizes do not depend on the alignment).
  Problem withWorkspaces = liveness->toProblem(/*alignment=*/1);
  Problem withoutWorkspaces = withWorkspaces;
  for (auto [index, buffer] : llvm::enumerate(liveness->getBuffers())) {
    if (buffer.destination)
      continue; // in the caller's result buffer: an output below
    memory.withoutReuse += buffer.bytes;
    ++memory.bufferCount;
    if (buffer.kind == LiveBuffer::Kind::Scratch) {
      memory.scratch += buffer.bytes;
      if (buffer.isLibraryWorkspace()) {
        memory.libraryWorkspace =
            std::max(memory.libraryWorkspace, buffer.bytes);
        withoutWorkspaces.buffers[index].size = 0;
      }
    } else if (getResultRole(cast<OpResult>(buffer.values.front().value)) ==
               ResultRole::Gradient)
      memory.gradients += buffer.bytes;
  }
  memory.libraryWorkspaceAtPeak =
      computeLowerBound(withWorkspaces) - computeLowerBound(withoutWorkspaces);
  memory.pytorch = simulateCachingAllocator(eagerTensors(function, *liveness));
  // The caller's result buffers (liveness accepted a body of one block):
  // each returned value that is not in an argument's memory (an updated KV
  // cache is the caller's cache, counted above). Values computed in a result
  // buffer take no arena bytes, so each byte is counted once.
  Region &body = function.getFunctionBody();
  if (!body.empty())
    if (Operation *terminator = body.front().getTerminator())
      for (Value value : terminator->getOperands()) {
        if (liveness->isExternal(value) &&
            liveness->getExternal(value).kind == ExternalValue::Kind::Argument)
          continue;
        if (ByteSize size = getByteSize(value.getType()); size.ok())
          memory.outputs += size.bytes;
      }
  return memory;
}

std::string withCommas(uint64_t value) {
  std::string digits = std::to_string(value), result;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      result += ',';
    result += digits[i];
  }
  return result;
}

void printTable(raw_ostream &os, const FunctionMemory &m) {
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
  row("  outputs (caller buffers)", m.outputs);
  row("  total", m.total());
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

void writeJson(raw_ostream &os, ArrayRef<FunctionMemory> functions) {
  llvm::json::OStream json(os, 2);
  json.objectBegin();
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
        json.attribute("output_bytes", m.outputs);
        json.attribute("total_bytes", m.total());
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
    // Measured in parallel, printed in the functions' order; nothing is
    // printed when a plan is refused.
    SmallVector<FunctionOpInterface> planned =
        collectModuleFunctions(getOperation());
    std::vector<FunctionMemory> functions(planned.size());
    if (failed(forEachFunctionInParallel(
            &getContext(), planned,
            [&](size_t index, FunctionOpInterface function) {
              FailureOr<FunctionMemory> memory = measure(function);
              if (failed(memory))
                return failure();
              functions[index] = std::move(*memory);
              return success();
            })))
      return signalPassFailure();
    for (const FunctionMemory &memory : functions)
      printTable(llvm::outs(), memory);
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
      writeJson(os, functions);
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
