#!/usr/bin/env bash
# The `gpu` ctest label (ctest -L gpu): what the host tests check, on a GPU.
# Skipped (exit 77) where GpuProbe finds no CUDA device.
#
#   gpu-check.sh SOURCE_DIR BIN_DIR PROBE NVCC RUNTIME_INCLUDE CUDA_LIB HOST_LIB CUDA_LIB_DIR HOST_CXX WORK_DIR
#
# 1. Runtime edge cases (test/Target/Cuda/Inputs/edge-cases.cpp): the CUDA
#    runtime's output equals the host runtime's, line for line.
# 2. The tiny GPT-2 block and LLaMA layer (f32): planned (greedy-by-size, in
#    place, results in the caller's buffers) and naive (no reuse, results
#    copied): bit-identical outputs on the GPU, both within the tolerance of
#    the independent reference (Inputs/reference.cpp), as on the host.
# 3. The bundled examples at full size (f16; GPT-2 small, the LLaMA-7B
#    layer, the BERT-base layer): planned and naive bit-identical; device
#    memory by stage from the generated main (cudaMemGetInfo): the arena and
#    run must add no more than the arena rounded up to the driver's 2 MiB
#    granularity, so that nothing else is allocated while a step runs.
# 4. Each example's step timed (MEMPLAN_TIMED_RUNS, in the runs of 2 and
#    3), planned and naive.
# Prints one line per check and summary tables of the memory and the time;
# exits 1 at the first failure. MEMPLAN_GPU_CHECK_EXAMPLES (paths) replaces
# the examples of step 3: gpu-check-dry-run.test runs this script on the
# host runtime, with small ones, to test the script itself.
#
# MEMPLAN_GPU_CHECK_STAGE splits the work for a GPU machine that has no
# MLIR (a lent machine without LLVM 22, say): `build` plans, translates and
# compiles every binary into WORK_DIR on this machine, with no device needed
# (MEMPLAN_NVCC_FLAGS, e.g. `-gencode arch=compute_90,code=sm_90`, picks the
# GPU), and `run`, on the GPU machine, runs what WORK_DIR holds and checks
# it; then only WORK_DIR and this script travel. `all` (the default) does
# both in one go.
set -euo pipefail
src=$1 bin=$2 probe=$3 nvcc=$4 include=$5 cudalib=$6 hostlib=$7 libdir=$8
hostcxx=$9 work=${10}
inputs=$src/test/Target/Cuda/Inputs
export PATH=$bin:$PATH
stage=${MEMPLAN_GPU_CHECK_STAGE:-all}
case $stage in
all | build | run) ;;
*)
  echo "MEMPLAN_GPU_CHECK_STAGE must be all, build or run, not '$stage'"
  exit 2
  ;;
esac
building() { [[ $stage != run ]]; }
running() { [[ $stage != build ]]; }

if running && ! "$probe"; then
  echo "skipped: the gpu checks need a CUDA device"
  exit 77
fi
if building; then
  rm -rf "$work" && mkdir -p "$work"
fi
cd "$work" || {
  echo "FAILED: no $work to run (build it first: MEMPLAN_GPU_CHECK_STAGE=build)"
  exit 1
}

fail() {
  echo "FAILED: $*"
  exit 1
}

# build NAME SOURCE: a CUDA binary of generated or test C++ source.
build() {
  # shellcheck disable=SC2086 # the flags are words
  "$nvcc" -std=c++17 -O2 ${MEMPLAN_NVCC_FLAGS:-} -I"$include" -x cu -c "$2" \
    -o "$1.o"
  # shellcheck disable=SC2086
  "$nvcc" ${MEMPLAN_NVCC_FLAGS:-} "$1.o" "$cudalib" -L"$libdir" -lcublas \
    -o "$1"
}

# 1. Edge cases.
if building; then
  $hostcxx -std=c++17 -O1 -I"$include" "$inputs/edge-cases.cpp" "$hostlib" \
    -o edge.host
  build edge.cuda "$inputs/edge-cases.cpp"
  ./edge.host > edge.host.out
fi
if running; then
  ./edge.cuda > edge.cuda.out || fail "edge cases on the GPU: $(tail -1 edge.cuda.out)"
  diff edge.host.out edge.cuda.out || fail "edge cases differ between the runtimes"
  echo "edge cases: the CUDA runtime prints what the host runtime prints"
fi

# plan_and_run NAME INPUT: planned and naive variants, built and run;
# their outputs must be bit-identical.
plan_and_run() {
  local name=$1 input=$2
  if building; then
    memplan-opt "$input" --plan-offsets -o "$name.planned.mlir" 2>/dev/null
    memplan-opt "$input" \
      --plan-offsets="algorithm=naive in-place=false results-in-caller-buffers=false" \
      -o "$name.naive.mlir" 2>/dev/null
    for variant in planned naive; do
      memplan-translate --memplan-to-cuda --memplan-cuda-main \
        "$name.$variant.mlir" -o "$name.$variant.cu"
      build "$name.$variant" "$name.$variant.cu"
    done
  fi
  running || return 0
  # Each run also times its step (step 4) after the checked run.
  for variant in planned naive; do
    MEMPLAN_TIMED_RUNS=${MEMPLAN_GPU_CHECK_TIMED_RUNS:-20} \
      "./$name.$variant" "$name.$variant.out" > "$name.$variant.log" ||
      fail "$name ($variant): $(tail -1 "$name.$variant.log")"
  done
  cmp -s "$name.planned.out" "$name.naive.out" ||
    fail "$name: planned and naive outputs differ"
  echo "$name: planned and naive outputs bit-identical"
}

# reference_check MODEL NAME: the planned output within the independent
# reference's tolerance.
reference_check() {
  running || return 0
  ./reference "$1" "$2.planned.out" || fail "$2: reference"
}

# 2. Tiny models against the reference.
if building; then
  $hostcxx -std=c++17 -O1 "$inputs/reference.cpp" -o reference
fi
plan_and_run gpt2-tiny "$inputs/gpt2-block-tiny.mlir"
reference_check gpt2 gpt2-tiny
plan_and_run llama-tiny "$inputs/llama-layer-tiny.mlir"
reference_check llama llama-tiny
plan_and_run qwen3-tiny "$inputs/qwen3-layer-tiny.mlir"
reference_check qwen3 qwen3-tiny

# 3. Full-size examples: bit-identity and device memory.
granularity=$((2 * 1024 * 1024))
printf '%-16s %14s %16s %22s %16s %14s\n' example "runtime ctx" \
  "args+results" "(asked)" "arena+run" "(arena)" > memory.txt
examples=${MEMPLAN_GPU_CHECK_EXAMPLES:-$src/examples/gpt2-small.mlir \
  $src/examples/llama7b-layer.mlir $src/examples/bert-base-layer.mlir}
for path in $examples; do
  example=$(basename "$path" .mlir)
  plan_and_run "$example" "$path"
  running || continue
  line=$(grep '^device memory by stage:' "$example.planned.log")
  read -r context args asked run arena < <(echo "$line" |
    sed 's/[^0-9 ]//g; s/  */ /g; s/^ //')
  printf '%-16s %14s %16s %22s %16s %14s\n' "$example" "$context" "$args" \
    "$asked" "$run" "$arena" >> memory.txt
  limit=$(( (arena + granularity - 1) / granularity * granularity ))
  (( run <= limit )) ||
    fail "$example: the arena and run took $run bytes, more than the arena ($arena) rounded to 2 MiB"
done
if ! running; then
  echo "built: run MEMPLAN_GPU_CHECK_STAGE=run on the GPU machine"
  exit 0
fi
cat memory.txt

# 4. Time: each example's step, run MEMPLAN_GPU_CHECK_TIMED_RUNS times more
# (default 20) after its checked run in step 3, planned and naive.
printf '%-16s %14s %14s\n' example "planned (ms)" "naive (ms)" > timing.txt
for path in $examples; do
  example=$(basename "$path" .mlir)
  times=()
  for variant in planned naive; do
    times+=("$(sed -n 's/^timed runs: [0-9]*, \([0-9.]*\) ms each$/\1/p' \
      "$example.$variant.log")")
  done
  printf '%-16s %14s %14s\n' "$example" "${times[0]}" "${times[1]}" >> timing.txt
done
cat timing.txt
echo "all gpu checks passed"
