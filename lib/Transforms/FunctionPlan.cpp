//===- FunctionPlan.cpp - Liveness -> problem -> plan -> IR ---------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FunctionPlan.h"

#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Planner/Validator.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace memplan;

FailureOr<FunctionPlan> memplan::planFunction(FunctionOpInterface function,
                                              Algorithm algorithm,
                                              uint64_t alignment, bool inPlace,
                                              bool resultsInCallerBuffers,
                                              const SearchOptions *search) {
  FailureOr<BufferLiveness> liveness = BufferLiveness::compute(
      function.getFunctionBody(), inPlaceWhereAllowed(inPlace),
      memplan::resultsInCallerBuffers(resultsInCallerBuffers));
  if (failed(liveness))
    return failure();

  FunctionPlan plan{
      function, std::move(*liveness), algorithm, alignment, {}, {}, 0, 0};
  plan.problem = plan.liveness.toProblem(alignment);
  FailureOr<Solution> solution = planAndValidate(
      function, plan.problem, algorithm, search, "plan this function", "plan");
  if (failed(solution))
    return failure();
  plan.solution = std::move(*solution);
  plan.lowerBound = computeLowerBound(plan.problem);
  plan.bytesWithoutReuse = computeBytesWithoutReuse(plan.problem);
  return plan;
}

FailureOr<Solution> memplan::planAndValidate(FunctionOpInterface function,
                                             const Problem &problem,
                                             Algorithm algorithm,
                                             const SearchOptions *search,
                                             StringRef action, StringRef noun) {
  // The passes plan functions side by side (forEachFunctionInParallel): a
  // greedy placement keeps to its own thread here rather than share its
  // walks with helpers that would spin beside the other functions'
  // (lib/Planner/WalkTeam.h). The search and the portfolio take the
  // pass's threads.
  SearchOptions options = search ? *search : SearchOptions();
  if (algorithm != Algorithm::Search && algorithm != Algorithm::Portfolio)
    options.threads = 1;
  PlanResult result = plan(problem, algorithm, &options);
  if (!result.ok())
    return function.emitError() << "cannot " << action << ": " << result.error;
  if (result.solution.arenaSize > static_cast<uint64_t>(INT64_MAX))
    return function.emitError()
           << "cannot " << action << ": the arena of "
           << result.solution.arenaSize << " bytes exceeds 2^63 - 1 bytes";
  if (std::optional<ValidationError> error =
          validateSolution(problem, result.solution))
    return function.emitError()
           << "internal error: the " << getAlgorithmName(algorithm)
           << " plan failed validation: " << error->message;
  if (const auto &summary = result.solution.search;
      summary && !summary->capacityMet)
    return function.emitError()
           << "no " << noun << " fits in " << *search->capacity << " bytes: "
           << (summary->capacityImpossible
                   ? "the search proved it impossible"
                   : "the search found none within its budget")
           << " (the best arena found is " << result.solution.arenaSize
           << " bytes)";
  return std::move(result.solution);
}

void memplan::annotateFunction(const FunctionPlan &plan) {
  FunctionOpInterface function = plan.function;
  MLIRContext *context = function.getContext();
  Builder builder(context);
  MemPlanDialect::OffsetsAttrHelper offsetsAttr(context);
  MemPlanDialect::DestinationsAttrHelper destinationsAttr(context);
  MemPlanDialect::ScratchOffsetAttrHelper scratchOffsetAttr(context);
  // Forget an older plan.
  function.getFunctionBody().walk([&](Operation *op) {
    op->removeAttr(offsetsAttr.getName());
    op->removeAttr(destinationsAttr.getName());
    op->removeAttr(scratchOffsetAttr.getName());
  });

  const BufferLiveness &liveness = plan.liveness;
  for (Block &block : function.getFunctionBody()) {
    for (Operation &op : block) {
      SmallVector<int64_t> offsets, destinations;
      bool anyPlanned = false, anyDestination = false;
      for (Value result : op.getResults()) {
        std::optional<unsigned> index = liveness.getBufferIndex(result);
        anyPlanned |= index.has_value();
        std::optional<unsigned> destination;
        if (index)
          destination = liveness.getBuffers()[*index].destination;
        anyDestination |= destination.has_value();
        offsets.push_back(
            index && !destination
                ? static_cast<int64_t>(plan.solution.offsets[*index])
                : -1);
        destinations.push_back(destination ? int64_t(*destination) : -1);
      }
      if (anyPlanned)
        offsetsAttr.setAttr(&op, builder.getDenseI64ArrayAttr(offsets));
      if (anyDestination)
        destinationsAttr.setAttr(&op,
                                 builder.getDenseI64ArrayAttr(destinations));
    }
  }
  for (auto [index, buffer] : llvm::enumerate(liveness.getBuffers()))
    if (buffer.kind == LiveBuffer::Kind::Scratch)
      scratchOffsetAttr.setAttr(
          buffer.op, builder.getI64IntegerAttr(plan.solution.offsets[index]));

  MemPlanDialect::ArenaSizeAttrHelper(context).setAttr(
      function, builder.getI64IntegerAttr(plan.solution.arenaSize));
  MemPlanDialect::LowerBoundAttrHelper(context).setAttr(
      function, builder.getI64IntegerAttr(static_cast<int64_t>(
                    std::min<uint64_t>(plan.lowerBound, INT64_MAX))));
  MemPlanDialect::AlignmentAttrHelper(context).setAttr(
      function, builder.getI64IntegerAttr(plan.alignment));
}
