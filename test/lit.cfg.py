# -*- Python -*-
# lit configuration for memplan: the only Python in the project.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "memplan"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "consumer", "corpus"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.memplan_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%examples", os.path.join(config.memplan_src_root, "examples")))
config.substitutions.append(("%memplan_src_root", config.memplan_src_root))
config.substitutions.append(("%memplan_tools_dir", config.memplan_tools_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Scripts that tests run (Inputs/differential-run.sh) find memplan's tools.
llvm_config.with_environment("PATH", config.memplan_tools_dir, append_path=True)
tool_dirs = [config.memplan_tools_dir, config.llvm_tools_dir]
tools = ["memplan-opt", "memplan-plan", "memplan-translate", "memplan-gen", "memplan-fit", "memplan-difftest"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
# Upstream tools for the integration tests: lowering to LLVM and running.
llvm_config.add_tool_substitutions(["mlir-opt", "mlir-runner"], [config.llvm_tools_dir])
config.substitutions.append(("%mlir_runner_utils", os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(("%mlir_c_runner_utils", os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so")))
config.substitutions.append(("%lower_to_llvm",
    "--convert-linalg-to-loops --scf-forall-to-parallel "
    "--expand-strided-metadata --lower-affine --convert-scf-to-cf "
    "--finalize-memref-to-llvm --convert-vector-to-llvm "
    "--convert-math-to-llvm "
    "--convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm "
    "--reconcile-unrealized-casts"))

# The bufferization recipe that docs/integration.md recommends before
# --memplan-pack-allocs: returned buffers become the caller's out-params, so
# nothing packable is returned.
config.substitutions.append(("%bufferize_for_packing",
    "--one-shot-bufferize=\"bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map\" "
    "--buffer-results-to-out-params=\"hoist-static-allocs "
    "modify-public-functions\""))

# Compiling and running generated code: the host runtime always, nvcc where
# it was found at configure time (tests that need it say REQUIRES: nvcc and
# show as UNSUPPORTED elsewhere).
# In a sanitizer build, code linked against memplan's libraries needs the
# same instrumentation.
# Programs of the differential execution test: fewer under the sanitizers,
# where every fork copies the address sanitizer's shadow mappings.
config.substitutions.append(("%difftest_count", "6" if config.sanitizer_flags else "30"))
# Random graphs compiled and run by random-graphs.test (each compile takes
# longer with the sanitizers).
config.substitutions.append(("%random_graph_count", "3" if config.sanitizer_flags else "8"))
if config.sanitizer_flags:
    config.available_features.add("sanitizers")
    config.substitutions.append(("%host_cxx", config.host_cxx + " " + config.sanitizer_flags))
else:
    config.substitutions.append(("%host_cxx", config.host_cxx))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%mlir_cmake_dir", config.mlir_cmake_dir))
config.substitutions.append(("%memplan_obj_root", config.memplan_obj_root))
config.substitutions.append(("%runtime_include", config.runtime_include))
config.substitutions.append(("%runtime_host_lib", config.runtime_host_lib))
# The benchmark programs (not in the sanitizer build): their test runs a
# small instance of what docs/benchmarks.md records.
if config.benchmarks_enabled:
    config.available_features.add("benchmarks")
    llvm_config.add_tool_substitutions(["memplan-search-benchmark"], tool_dirs)
if config.cuda_enabled:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))
    config.substitutions.append(("%runtime_cuda_lib", config.runtime_cuda_lib))
    config.substitutions.append(("%cuda_lib_dir", config.cuda_toolkit_lib))
