//===- FunctionPlan.cpp - Plan one function -------------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FunctionPlan.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Planner/PlanSvg.h"
#include "memplan/Planner/Validator.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/JSON.h"

#include <sstream>

using namespace mlir;
using namespace mlir::memplan;

FailureOr<FunctionPlan> mlir::memplan::planFunction(
    FunctionOpInterface function, ::memplan::Algorithm algorithm,
    uint64_t alignment, bool inPlace, const ::memplan::SearchOptions *search) {
  InPlacePolicy policy;
  if (inPlace)
    policy = [](OpResult, unsigned) { return true; };
  FailureOr<BufferLiveness> liveness =
      BufferLiveness::compute(function.getFunctionBody(), policy);
  if (failed(liveness))
    return failure();

  FunctionPlan plan{
      function, std::move(*liveness), algorithm, alignment, {}, {}, 0, 0};
  plan.problem = plan.liveness.toProblem(alignment);
  FailureOr<::memplan::Solution> solution = planAndValidate(
      function, plan.problem, algorithm, search, "plan this function", "plan");
  if (failed(solution))
    return failure();
  plan.solution = std::move(*solution);
  plan.lowerBound = ::memplan::computeLowerBound(plan.problem);
  plan.bytesWithoutReuse = ::memplan::computeBytesWithoutReuse(plan.problem);
  return plan;
}

FailureOr<::memplan::Solution> mlir::memplan::planAndValidate(
    FunctionOpInterface function, const ::memplan::Problem &problem,
    ::memplan::Algorithm algorithm, const ::memplan::SearchOptions *search,
    StringRef action, StringRef noun) {
  ::memplan::PlanResult result = ::memplan::plan(problem, algorithm, search);
  if (!result.ok())
    return function.emitError() << "cannot " << action << ": " << result.error;
  if (result.solution.arenaSize > static_cast<uint64_t>(INT64_MAX))
    return function.emitError()
           << "cannot " << action << ": the arena of "
           << result.solution.arenaSize << " bytes exceeds 2^63 - 1 bytes";
  if (std::optional<::memplan::ValidationError> error =
          ::memplan::validateSolution(problem, result.solution))
    return function.emitError()
           << "internal error: the " << ::memplan::getAlgorithmName(algorithm)
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

LogicalResult mlir::memplan::configurePlanner(
    MLIRContext *context, StringRef passArgument,
    ::memplan::Algorithm algorithm, uint64_t alignment, double searchSeconds,
    uint64_t searchNodes, uint64_t capacity, ::memplan::SearchOptions &search) {
  // Options have no place in the input; the error is located at the pass as
  // it is spelt on the command line, and names the option.
  Location location =
      FileLineColLoc::get(StringAttr::get(context, "--" + passArgument), 0, 0);
  if (alignment == 0 || (alignment & (alignment - 1)))
    return emitError(location)
           << "alignment must be a power of two, got " << alignment;
  if (capacity && algorithm != ::memplan::Algorithm::Search)
    return emitError(location) << "capacity needs algorithm=search";
  if (!::memplan::isValidSearchSeconds(searchSeconds)) {
    std::ostringstream got;
    got << searchSeconds;
    return emitError(location)
           << "search-seconds must be a number of seconds from 0 to "
           << static_cast<uint64_t>(::memplan::kMaxSearchSeconds) << ", got "
           << got.str();
  }
  search.seconds = searchSeconds;
  search.nodeLimit = searchNodes;
  // A second search thread only where MLIR may use threads itself
  // (--mlir-disable-threading keeps the search on one).
  if (!context->isMultithreadingEnabled())
    search.threads = 1;
  if (capacity)
    search.capacity = capacity;
  return success();
}

void mlir::memplan::annotateFunction(const FunctionPlan &plan) {
  FunctionOpInterface function = plan.function;
  Builder builder(function.getContext());
  // Forget an older plan.
  function.getFunctionBody().walk([](Operation *op) {
    op->removeAttr(kOffsetsAttrName);
    op->removeAttr(kScratchOffsetAttrName);
  });

  const BufferLiveness &liveness = plan.liveness;
  for (Block &block : function.getFunctionBody()) {
    for (Operation &op : block) {
      SmallVector<int64_t> offsets;
      bool anyPlanned = false;
      for (Value result : op.getResults()) {
        std::optional<unsigned> index = liveness.getBufferIndex(result);
        anyPlanned |= index.has_value();
        offsets.push_back(
            index ? static_cast<int64_t>(plan.solution.offsets[*index]) : -1);
      }
      if (anyPlanned)
        op.setAttr(kOffsetsAttrName, builder.getDenseI64ArrayAttr(offsets));
    }
  }
  for (auto [index, buffer] : llvm::enumerate(liveness.getBuffers()))
    if (buffer.kind == LiveBuffer::Kind::Scratch)
      buffer.op->setAttr(
          kScratchOffsetAttrName,
          builder.getI64IntegerAttr(plan.solution.offsets[index]));

  function->setAttr(kArenaSizeAttrName,
                    builder.getI64IntegerAttr(plan.solution.arenaSize));
  function->setAttr(kLowerBoundAttrName,
                    builder.getI64IntegerAttr(static_cast<int64_t>(
                        std::min<uint64_t>(plan.lowerBound, INT64_MAX))));
  function->setAttr(kAlignmentAttrName,
                    builder.getI64IntegerAttr(plan.alignment));
}

/// The algorithm's option spelling, as a StringRef.
static StringRef algorithmName(const FunctionPlan &plan) {
  std::string_view name = ::memplan::getAlgorithmName(plan.algorithm);
  return StringRef(name.data(), name.size());
}

void mlir::memplan::emitPlanRemark(const FunctionPlan &plan) {
  double ratio = plan.lowerBound == 0
                     ? 1.0
                     : double(plan.solution.arenaSize) / plan.lowerBound;
  char ratioText[32];
  snprintf(ratioText, sizeof(ratioText), "%.3f", ratio);
  // At the function's return, whose source line is short (a generated
  // function's signature can fill a line of megabytes), naming the function.
  FunctionOpInterface function = plan.function;
  Location location = function->getLoc();
  Region &body = function.getFunctionBody();
  if (!body.empty() && !body.front().empty())
    location = body.front().back().getLoc();
  InFlightDiagnostic remark = mlir::emitRemark(location);
  remark << "memplan: @" << function.getName() << ": arena "
         << plan.solution.arenaSize << " bytes, lower bound " << plan.lowerBound
         << " bytes (ratio " << ratioText << "), " << plan.bytesWithoutReuse
         << " bytes without reuse, " << plan.problem.buffers.size()
         << " buffers, " << plan.liveness.getExternalBytes()
         << " external bytes (" << algorithmName(plan) << ")";
  if (const auto &shared = plan.solution.sharedObjects)
    remark << "; " << shared->objectCount << " shared objects, "
           << shared->totalBytes << " bytes";
  if (const auto &summary = plan.solution.search)
    remark << "; from " << summary->startArena << " bytes (greedy), "
           << summary->nodes << " search nodes"
           << (summary->provenOptimal ? ", proven optimal" : "");
}

/// `%3`, `%arg0`: the value as printed in the function.
static std::string nameOf(Value value, AsmState &state) {
  std::string name;
  llvm::raw_string_ostream os(name);
  value.printAsOperand(os, state);
  return name;
}

static const char *roleName(BufferValue::Role role) {
  switch (role) {
  case BufferValue::Role::Defines:
    return "defines";
  case BufferValue::Role::View:
    return "view";
  case BufferValue::Role::InPlace:
    return "in-place";
  }
  return "unknown";
}

void mlir::memplan::writePlanReport(raw_ostream &os,
                                    ArrayRef<FunctionPlan> plans) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.objectBegin();
  json.attributeArray("functions", [&] {
    for (const FunctionPlan &plan : plans) {
      FunctionOpInterface function = plan.function;
      AsmState state(function);
      const BufferLiveness &liveness = plan.liveness;
      json.objectBegin();
      json.attribute("name", function.getName());
      json.attribute("algorithm", algorithmName(plan));
      json.attribute("alignment", plan.alignment);
      json.attribute("arena_bytes", plan.solution.arenaSize);
      json.attribute("lower_bound_bytes", plan.lowerBound);
      json.attribute("bytes_without_reuse", plan.bytesWithoutReuse);
      json.attribute("external_bytes", liveness.getExternalBytes());
      json.attribute("buffer_count",
                     static_cast<uint64_t>(liveness.getBuffers().size()));
      if (const auto &shared = plan.solution.sharedObjects) {
        json.attribute("shared_object_count", shared->objectCount);
        json.attribute("shared_object_bytes", shared->totalBytes);
      }
      json.attributeArray("buffers", [&] {
        ArrayRef<LiveBuffer> buffers = liveness.getBuffers();
        for (size_t index = 0; index < buffers.size(); ++index) {
          const LiveBuffer &buffer = buffers[index];
          bool scratch = buffer.kind == LiveBuffer::Kind::Scratch;
          json.objectBegin();
          json.attribute("id", static_cast<uint64_t>(index));
          json.attribute("kind", scratch ? "scratch" : "result");
          if (!scratch)
            json.attribute("value", nameOf(buffer.values.front().value, state));
          json.attribute("op", buffer.op->getName().getStringRef());
          json.attribute("bytes", buffer.bytes);
          json.attribute("start", buffer.start);
          json.attribute("end", buffer.end);
          json.attribute("offset", plan.solution.offsets[index]);
          if (buffer.values.size() > 1)
            json.attributeArray("shared_with", [&] {
              for (const BufferValue &value :
                   ArrayRef(buffer.values).drop_front())
                json.object([&] {
                  json.attribute("value", nameOf(value.value, state));
                  json.attribute("role", roleName(value.role));
                });
            });
          json.objectEnd();
        }
      });
      json.attributeArray("externals", [&] {
        for (const ExternalValue &external : liveness.getExternals())
          json.object([&] {
            json.attribute("value", nameOf(external.value, state));
            json.attribute("kind",
                           external.kind == ExternalValue::Kind::Argument
                               ? "argument"
                               : "constant");
            json.attribute("bytes", external.bytes);
          });
      });
      json.objectEnd();
    }
  });
  json.objectEnd();
  os << "\n";
}

void mlir::memplan::writePlanSvg(raw_ostream &os, const FunctionPlan &plan) {
  FunctionOpInterface function = plan.function;
  AsmState state(function);
  std::vector<::memplan::SvgBufferInfo> info;
  for (const LiveBuffer &buffer : plan.liveness.getBuffers()) {
    // The op kind; a generic op by its name; weight gradients apart.
    std::string op = buffer.op->getName().getStringRef().str();
    if (auto generic = dyn_cast<GenericOp>(buffer.op))
      op = "op \"" + generic.getName().str() + "\"";
    if (buffer.kind == LiveBuffer::Kind::Scratch) {
      info.push_back({"scratch", "scratch of " + op});
      continue;
    }
    Value value = buffer.values.front().value;
    std::string category = op;
    auto result = cast<OpResult>(value);
    if (auto roles = buffer.op->getAttrOfType<ArrayAttr>(kResultRolesAttrName))
      if (result.getResultNumber() < roles.size() &&
          cast<StringAttr>(roles[result.getResultNumber()]).getValue() ==
              "gradient")
        category = "weight gradient";
    info.push_back({category, nameOf(value, state) + " = " + op});
  }
  std::ostringstream svg;
  ::memplan::writePlanSvg(svg, plan.problem, plan.solution, info,
                          "@" + function.getName().str());
  os << svg.str();
}
