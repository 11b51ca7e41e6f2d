//===- PlanReports.cpp - A plan as a remark, JSON and SVG -----------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PlanReports.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Support/PlanSvg.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/JSON.h"

#include <sstream>

using namespace mlir;
using namespace memplan;

/// The algorithm's option spelling, as a StringRef.
static StringRef algorithmName(const FunctionPlan &plan) {
  std::string_view name = getAlgorithmName(plan.algorithm);
  return StringRef(name.data(), name.size());
}

void memplan::emitPlanRemark(const FunctionPlan &plan) {
  double ratio = plan.lowerBound == 0
                     ? 1.0
                     : double(plan.solution.arenaSize) / plan.lowerBound;
  // A copy for the diagnostic: it keeps a char array by reference (as if a
  // literal), and remarks of functions planned in parallel are printed after
  // this frame is gone.
  char ratioBuffer[32];
  snprintf(ratioBuffer, sizeof(ratioBuffer), "%.3f", ratio);
  std::string ratioText = ratioBuffer;
  // At the function's return, whose source line is short (a generated
  // function's signature can fill a line of megabytes), naming the function.
  FunctionOpInterface function = plan.function;
  Location location = function->getLoc();
  Region &body = function.getFunctionBody();
  if (!body.empty() && !body.front().empty())
    location = body.front().back().getLoc();
  size_t inResultBuffers =
      llvm::count_if(plan.liveness.getBuffers(), [](const LiveBuffer &buffer) {
        return buffer.destination.has_value();
      });
  InFlightDiagnostic remark = mlir::emitRemark(location);
  remark << "memplan: @" << function.getName() << ": arena "
         << plan.solution.arenaSize << " bytes, lower bound " << plan.lowerBound
         << " bytes (ratio " << ratioText << "), " << plan.bytesWithoutReuse
         << " bytes without reuse, " << plan.problem.buffers.size()
         << " buffers";
  if (inResultBuffers)
    remark << " (" << inResultBuffers << " in the caller's result buffers)";
  remark << ", " << plan.liveness.getExternalBytes() << " external bytes ("
         << algorithmName(plan) << ")";
  if (const auto &shared = plan.solution.sharedObjects)
    remark << "; " << shared->objectCount << " shared objects, "
           << shared->totalBytes << " bytes";
  if (const auto &portfolio = plan.solution.portfolio)
    remark << "; " << portfolio->winner << " won";
  if (const auto &summary = plan.solution.search) {
    remark << "; from " << summary->startArena << " bytes ("
           << searchStartName(summary->startedFromNaive) << "), "
           << summary->nodes << " search nodes"
           << (summary->provenOptimal ? ", proven optimal" : "");
    if (summary->neighbourhoodImprovements)
      remark << ", " << summary->neighbourhoodImprovements
             << " neighbourhood moves lowered the arena";
    if (!summary->provenOptimal && summary->provenBound > plan.lowerBound)
      remark << ", none below " << summary->provenBound << " bytes (proven)";
  }
}

/// `%3`, `%arg0`: the value as printed in the function.
StringRef memplan::searchStartName(bool startedFromNaive) {
  return startedFromNaive ? "naive layout: greedy ran out of time" : "greedy";
}

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

void memplan::writePlanReport(raw_ostream &os, ArrayRef<FunctionPlan> plans) {
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
      if (const auto &search = plan.solution.search) {
        json.attribute("search_nodes", search->nodes);
        json.attribute("proven_optimal", search->provenOptimal);
        json.attribute("proven_bound_bytes", search->provenBound);
      }
      json.attributeArray("buffers", [&] {
        ArrayRef<LiveBuffer> buffers = liveness.getBuffers();
        for (size_t index = 0; index < buffers.size(); ++index) {
          const LiveBuffer &buffer = buffers[index];
          bool scratch = buffer.kind == LiveBuffer::Kind::Scratch;
          json.objectBegin();
          json.attribute("id", static_cast<uint64_t>(index));
          json.attribute("kind", !scratch ? "result"
                                 : buffer.isLibraryWorkspace()
                                     ? "library_workspace"
                                     : "scratch");
          if (!scratch)
            json.attribute("value", nameOf(buffer.values.front().value, state));
          json.attribute("op", buffer.op->getName().getStringRef());
          json.attribute("bytes", buffer.bytes);
          json.attribute("start", buffer.start);
          json.attribute("end", buffer.end);
          if (buffer.destination)
            json.attribute("destination", *buffer.destination);
          else
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

void memplan::writePlanSvg(raw_ostream &os, const FunctionPlan &plan) {
  FunctionOpInterface function = plan.function;
  AsmState state(function);
  std::vector<SvgBufferInfo> info;
  for (const LiveBuffer &buffer : plan.liveness.getBuffers()) {
    // The op kind; a generic op by its name; weight gradients apart.
    std::string op = buffer.op->getName().getStringRef().str();
    if (auto generic = dyn_cast<GenericOp>(buffer.op))
      op = "op \"" + generic.getName().str() + "\"";
    if (buffer.isLibraryWorkspace()) {
      info.push_back({"library workspace", "library workspace of " + op});
      continue;
    }
    if (buffer.kind == LiveBuffer::Kind::Scratch) {
      info.push_back({"scratch", "scratch of " + op});
      continue;
    }
    Value value = buffer.values.front().value;
    std::string category = op;
    auto result = cast<OpResult>(value);
    if (getResultRole(result) == ResultRole::Gradient)
      category = "weight gradient";
    info.push_back({category, nameOf(value, state) + " = " + op});
  }
  std::ostringstream svg;
  writePlanSvg(svg, plan.problem, plan.solution, info,
               "@" + function.getName().str());
  os << svg.str();
}
