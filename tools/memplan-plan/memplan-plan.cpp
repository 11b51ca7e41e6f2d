//===- memplan-plan.cpp - Plan a CSV of buffers ---------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   memplan-plan --input buffers.csv --output plan.csv
//                [--algorithm greedy-by-size] [--alignment N]
//
// Reads buffers in the CSV format of the public static-allocation benchmark
// suites (id,lower,upper,size[,alignment]; live on [lower, upper)), plans
// them, proves the plan with the validator, writes the rows with an `offset`
// column, and prints one summary line. On malformed input it prints the line
// number of the error and writes no output file.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Algorithms.h"
#include "memplan/Planner/Search.h"
#include "memplan/Planner/Validator.h"
#include "memplan/Support/AlgorithmOption.h"
#include "memplan/Support/CsvFormat.h"
#include "memplan/Support/InputBounds.h"
#include "memplan/Support/OutputFiles.h"
#include "memplan/Support/PlanSvg.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace memplan;

/// Only these appear in --help (not the LLVM libraries' options).
static llvm::cl::OptionCategory toolOptions("memplan-plan options");

static llvm::cl::opt<std::string>
    inputPath("input", llvm::cl::desc("CSV of buffers to plan"),
              llvm::cl::value_desc("file"), llvm::cl::Required,
              llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    outputPath("output", llvm::cl::desc("CSV of the plan to write"),
               llvm::cl::value_desc("file"), llvm::cl::Required,
               llvm::cl::cat(toolOptions));
static llvm::cl::opt<Algorithm>
    algorithm("algorithm", llvm::cl::desc("Offset algorithm"),
              llvm::cl::init(Algorithm::GreedyBySize), algorithmValues(),
              llvm::cl::cat(toolOptions));
static llvm::cl::opt<uint64_t> maxInputBytes(
    "max-input-bytes",
    llvm::cl::desc("Read at most this many bytes of an input that is not a "
                   "regular file (a pipe, a device)"),
    llvm::cl::init(kDefaultMaxStreamedInputBytes), llvm::cl::cat(toolOptions));
static llvm::cl::opt<uint64_t> minimumAlignment(
    "alignment",
    llvm::cl::desc("Align every offset to at least this many bytes (a power "
                   "of two; an alignment column can ask for more)"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));

static llvm::cl::opt<double>
    searchSeconds("search-seconds",
                  llvm::cl::desc("search: wall-clock budget (default 10)"),
                  llvm::cl::init(10.0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<uint64_t> searchNodes(
    "search-nodes",
    llvm::cl::desc("search: node budget, for reproducible results (default: "
                   "none)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<unsigned> searchThreads(
    "search-threads",
    llvm::cl::desc("search: threads to use, at most 64: the exact search "
                   "uses up to 2, the neighbourhood search (1,000 buffers or "
                   "more) one walk per thread (default 0: the machine's "
                   "hardware threads; with a node budget, 1); portfolio: its "
                   "nine members side by side on as many; the placements "
                   "into the smallest gap: their walks over thousands of "
                   "buffers live at once shared by as many (at most the "
                   "machine's), with the same plan"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<uint64_t> capacity(
    "capacity",
    llvm::cl::desc("search: find a plan of at most this many bytes (exit "
                   "code 2 if none is found)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    svgPath("svg", llvm::cl::desc("Also draw the plan as SVG to this file"),
            llvm::cl::value_desc("file"), llvm::cl::init(""),
            llvm::cl::cat(toolOptions));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "memplan-plan: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "memplan-plan: plan a CSV of buffers\n");

  if (minimumAlignment == 0 || (minimumAlignment & (minimumAlignment - 1)))
    return fail("--alignment must be a power of two, got " +
                llvm::Twine(minimumAlignment.getValue()));

  // Read within bounds: a CSV from a pipe or device that never ends is an
  // error past --max-input-bytes, not a line that grows until memory runs
  // out.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readBoundedInput(inputPath, maxInputBytes);
  if (!buffer)
    return fail(llvm::toString(buffer.takeError()));
  std::istringstream input(std::string((*buffer)->getBuffer()));
  CsvProblem csv;
  std::string error;
  if (!readProblemCsv(input, csv, error))
    return fail(inputPath + ": " + error);
  for (Buffer &buffer : csv.problem.buffers)
    buffer.alignment = std::max<uint64_t>(buffer.alignment, minimumAlignment);

  if (capacity.getNumOccurrences() && algorithm != Algorithm::Search)
    return fail("--capacity needs --algorithm search");
  if (!isValidSearchSeconds(searchSeconds)) {
    std::ostringstream got;
    got << searchSeconds;
    return fail("--search-seconds must be a number of seconds from 0 to " +
                std::to_string(static_cast<uint64_t>(kMaxSearchSeconds)) +
                ", got " + got.str());
  }
  if (searchThreads > kMaxSearchThreads)
    return fail("--search-threads must be at most " +
                std::to_string(kMaxSearchThreads) + ", got " +
                std::to_string(searchThreads));
  SearchOptions search;
  search.seconds = searchSeconds;
  search.nodeLimit = searchNodes;
  search.threads = searchThreads;
  if (capacity.getNumOccurrences())
    search.capacity = capacity.getValue();
  auto begin = std::chrono::steady_clock::now();
  PlanResult result = plan(csv.problem, algorithm, &search);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  if (!result.ok())
    return fail(inputPath + ": " + result.error);
  if (std::optional<ValidationError> invalid =
          validateSolution(csv.problem, result.solution))
    return fail("internal error: the plan failed validation: " +
                invalid->message);

  // The plan and its picture are written together or not at all.
  std::vector<OutputFile> outputs;
  std::ostringstream planText;
  writePlanCsv(planText, csv, result.solution);
  outputs.push_back({outputPath, planText.str()});
  if (!svgPath.empty()) {
    std::ostringstream svgText;
    std::vector<SvgBufferInfo> info;
    writePlanSvg(svgText, csv.problem, result.solution, info,
                 std::string(inputPath) + " (" +
                     std::string(getAlgorithmName(algorithm)) + ")");
    outputs.push_back({svgPath, svgText.str()});
  }
  if (llvm::Error written = writeOutputFiles(outputs))
    return fail(llvm::toString(std::move(written)));

  uint64_t lowerBound = computeLowerBound(csv.problem);
  uint64_t arena = result.solution.arenaSize;
  char summary[256];
  snprintf(summary, sizeof(summary),
           "%zu buffers, arena %llu bytes, lower bound %llu bytes, ratio "
           "%.4f, %.3f s",
           csv.problem.buffers.size(), (unsigned long long)arena,
           (unsigned long long)lowerBound,
           lowerBound == 0 ? 1.0 : double(arena) / double(lowerBound), seconds);
  llvm::outs() << summary;
  if (const auto &shared = result.solution.sharedObjects)
    llvm::outs() << ", " << shared->objectCount << " shared objects";
  if (const auto &summary = result.solution.search) {
    llvm::outs() << ", from " << summary->startArena
                 << (summary->startedFromNaive
                         ? " naive (greedy ran out of time), "
                         : " greedy, ")
                 << summary->nodes << " nodes";
    if (summary->neighbourhoodImprovements)
      llvm::outs() << ", " << summary->neighbourhoodImprovements
                   << " neighbourhood moves lowered the arena";
    if (summary->provenOptimal)
      llvm::outs() << ", proven optimal";
    else if (summary->provenBound > lowerBound)
      llvm::outs() << ", none below " << summary->provenBound
                   << " bytes (proven)";
  }
  if (const auto &portfolio = result.solution.portfolio) {
    llvm::outs() << ", " << portfolio->winner << " won (";
    llvm::interleave(
        portfolio->arenas, llvm::outs(),
        [](const auto &member) {
          llvm::outs() << member.first << " " << member.second;
        },
        ", ");
    llvm::outs() << ")";
  }
  llvm::outs() << " (" << getAlgorithmName(algorithm) << ")\n";
  // A summary that cannot be written (stdout on a full disk) is an error
  // here, not an `LLVM ERROR` from the stream at exit.
  llvm::outs().flush();
  if (llvm::outs().has_error()) {
    std::error_code error = llvm::outs().error();
    llvm::outs().clear_error();
    return fail("cannot write the summary to standard output: " +
                error.message());
  }
  if (const auto &summary = result.solution.search;
      summary && !summary->capacityMet) {
    llvm::errs() << "memplan-plan: no plan within " << capacity.getValue()
                 << " bytes "
                 << (summary->capacityImpossible ? "exists (search exhausted)"
                                                 : "found within the budget")
                 << "; the best plan found was written\n";
    return 2;
  }
  return 0;
}
