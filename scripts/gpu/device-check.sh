#!/usr/bin/env bash
# The GPU check, run on the GPU machine in a copy of this repository that
# carries .gpu/ (made by prepare-device-check.sh):
#   0. the CUDA context and the libraries' memory (cuda-context.py);
#   1. the generated CUDA: gpu-check.sh's `run` stage over the binaries built
#      by prepare-device-check.sh, alone on the GPU (its memory table reads
#      the device's free memory, which another process would disturb), and
#      PyTorch eager timed on the same shapes (eager-timing.py);
#   2. the training steps of training-cases.txt in PyTorch, a process each,
#      TRAINING_JOBS at a time (default 3; each reads its own allocator).
# CASES (a regular expression) runs only the cases whose names match it, and
# CODEGEN=0 leaves out step 1.
# Writes at most eight files into $OUT (default ./gpu-check-out): machine.txt,
# cuda-context.json, codegen.log, codegen-runs.log, eager-timing.jsonl,
# training.jsonl, training-errors.log, summary.txt.
set -u
shopt -s nullglob
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root/gpu-check-out}
mkdir -p "$out"
cd "$root" || exit 1
{
  nvidia-smi
  nvcc --version 2>/dev/null | tail -1
  python3 -c 'import torch, transformers, peft; print("torch", torch.__version__, "transformers", transformers.__version__, "peft", peft.__version__)'
} > "$out/machine.txt" 2>&1

# 0. The CUDA context, alone on the GPU.
timeout 120 python3 scripts/gpu/cuda-context.py > "$out/cuda-context.json" \
  2>> "$out/machine.txt"
echo "cuda context: exit $?" >> "$out/summary.txt"

# The binaries link cuBLAS dynamically.
for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
  $(python3 -c 'import nvidia.cublas as m; print(*[p + "/lib" for p in m.__path__])' 2>/dev/null); do
  if [[ -e $dir/libcublas.so.13 ]]; then
    export LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    break
  fi
done
work=$(mktemp -d)
tar xJf .gpu/codegen.tar.xz -C "$work"
ldd "$work/gpt2-small.planned" >> "$out/machine.txt" 2>&1
start=$SECONDS
[[ ${CODEGEN:-1} == 0 ]] || {
MEMPLAN_GPU_CHECK_STAGE=run timeout "${CODEGEN_TIMEOUT:-240}" bash \
  test/gpu/gpu-check.sh "$root" /nonexistent "$work/memplan-gpu-probe" false \
  x x x x false "$work" > "$out/codegen.log" 2>&1
echo "codegen check: exit $? in $((SECONDS - start)) s" >> "$out/summary.txt"
for log in "$work"/*.log; do
  echo "== $(basename "$log")"
  cat "$log"
done > "$out/codegen-runs.log" 2>&1
# PyTorch eager on the examples' shapes, alone on the GPU too.
timeout 300 python3 scripts/gpu/eager-timing.py 20 > "$out/eager-timing.jsonl" \
  2>> "$out/training-errors.log"
echo "eager timing: exit $?" >> "$out/summary.txt"
}

start=$SECONDS
tmp=$(mktemp -d)
grep -v '^#' scripts/gpu/training-cases.txt | while IFS='|' read -r name _ measure; do
  name=$(echo $name)
  [[ $name =~ ${CASES:-.} ]] && echo "$name $measure"
done | xargs -r -P "${TRAINING_JOBS:-3}" -L 1 bash -c \
  'timeout '"${CASE_TIMEOUT:-240}"' python3 scripts/gpu/training-peaks.py "$0" "$@" > '"$tmp"'/$0.json 2> '"$tmp"'/$0.err; echo "$0: exit $?" >> '"$tmp"'/status'
cat "$tmp"/*.json > "$out/training.jsonl" 2>/dev/null
for err in "$tmp"/*.err; do
  echo "== $(basename "$err")"
  tail -40 "$err"
done >> "$out/training-errors.log"
[[ ! -e $tmp/status ]] || sort "$tmp/status" >> "$out/summary.txt"
echo "training cases: $((SECONDS - start)) s" >> "$out/summary.txt"
cat "$out/summary.txt"
