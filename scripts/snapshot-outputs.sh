#!/usr/bin/env bash
# Writes every output memplan's tools produce for the inputs this repository
# carries into one folder, one file per output, so that two builds can be
# compared byte for byte (compare-outputs.sh does that):
#
#   * each bundled example planned by every algorithm (the search with a node
#     budget, so that it is deterministic): the planned IR, the JSON report,
#     the SVG, the memory report, and the generated CUDA;
#   * every memplan-gen model in every mode, and the CUDA of a small one;
#     the bundled Hugging Face configs; training options on LLaMA-7B;
#   * --memplan-pack-allocs on the upstream-IR programs of the test suite;
#   * memplan-plan on every CSV instance of the tests and the fuzz corpus.
#
# Usage: scripts/snapshot-outputs.sh BIN_DIR OUT_DIR
# A tool's diagnostics go to NAME.err, its exit code to NAME.rc: a failure is
# an output too.
set -uo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BIN_DIR OUT_DIR" >&2
  exit 2
fi
BIN="$(cd "$1" && pwd)"
OUT="$2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# run NAME COMMAND...: stdout to NAME, stderr to NAME.err, the exit code to
# NAME.rc. Paths of the scratch folder are replaced in what is kept.
run() {
  local name="$1"
  shift
  (cd "$WORK" && "$@") >"$OUT/$name" 2>"$OUT/$name.err"
  echo $? >"$OUT/$name.rc"
  sed -i "s#$WORK#WORK#g; s#$OUT#OUT#g; s#$ROOT#ROOT#g" "$OUT/$name.err"
}

# keep NAME FILE: a file a tool wrote, if it wrote one.
keep() {
  [ -e "$WORK/$2" ] && mv "$WORK/$2" "$OUT/$1"
  return 0
}

ALGORITHMS=(naive greedy-by-size greedy-by-breadth best-fit shared-objects
            search)
for example in "$ROOT"/examples/*.mlir; do
  base="$(basename "$example" .mlir)"
  for algorithm in "${ALGORITHMS[@]}"; do
    options="algorithm=$algorithm report=plan.json svg=plan.svg"
    [ "$algorithm" = search ] && options+=" search-nodes=20000"
    name="$base.$algorithm"
    run "$name.mlir" "$BIN/memplan-opt" "$example" \
      "--plan-offsets=$options" --memplan-verify-plan
    keep "$name.json" plan.json
    keep "$name.svg" plan.svg
    run "$name.memory" "$BIN/memplan-opt" "$OUT/$name.mlir" \
      "--memplan-memory-report=json=memory.json" -o /dev/null
    keep "$name.memory.json" memory.json
  done
  run "$base.cu" "$BIN/memplan-translate" --memplan-to-cuda \
    "$OUT/$base.greedy-by-size.mlir"
done

MODELS=(gpt2-small gpt2-medium gpt2-large gpt2-xl llama-7b llama-13b
        llama-70b bert-base bert-large)
for model in "${MODELS[@]}"; do
  for mode in prefill decode train; do
    name="gen.$model.$mode"
    run "$name.mlir" "$BIN/memplan-gen" "--model=$model" "--mode=$mode" \
      --layers=2 --seq=128
    run "$name.planned.mlir" "$BIN/memplan-opt" "$OUT/$name.mlir" \
      --plan-offsets
    run "$name.memory" "$BIN/memplan-opt" "$OUT/$name.planned.mlir" \
      --memplan-memory-report -o /dev/null
  done
done
run gen.gpt2-small.prefill.cu "$BIN/memplan-translate" --memplan-to-cuda \
  "$OUT/gen.gpt2-small.prefill.planned.mlir"

# The bundled Hugging Face configs, and the training options on one model.
for config in "$ROOT"/examples/hf-configs/*.json; do
  base="$(basename "$config" .json)"
  for mode in prefill train; do
    name="gen.hf.$base.$mode"
    run "$name.mlir" "$BIN/memplan-gen" "--hf-config=$config" \
      "--mode=$mode" --layers=2 --seq=128
    run "$name.memory" "$BIN/memplan-opt" "$OUT/$name.mlir" --plan-offsets \
      --memplan-memory-report -o /dev/null
  done
done
TRAIN_OPTIONS=("--stack=hf-trainer" "--stack=deepspeed-zero0" "--grad-accum=4"
               "--lora-rank=8" "--checkpointing=full --checkpoint-layers=2"
               "--lora-rank=8 --lora-dropout=0.05 --lora-dropout-shared"
               "--lora-rank=8 --qlora --rms-norm=eager")
for index in "${!TRAIN_OPTIONS[@]}"; do
  name="gen.llama-7b.train.options$index"
  # shellcheck disable=SC2086 # the options are words
  run "$name.mlir" "$BIN/memplan-gen" --model=llama-7b --mode=train \
    --layers=2 --seq=128 ${TRAIN_OPTIONS[$index]}
  run "$name.memory" "$BIN/memplan-opt" "$OUT/$name.mlir" --plan-offsets \
    --memplan-memory-report -o /dev/null
done

# memplan-fit's table and JSON for a small training step.
run fit.gpt2-small.train "$BIN/memplan-fit" --model=gpt2-small --layers=2 \
  --seq=128 --gpu-memory=4GiB "--json=$OUT/fit.gpt2-small.train.json"

# Upstream IR: the integration programs that carry no memplan ops.
for program in "$ROOT"/test/Integration/*.mlir \
               "$ROOT"/test/Integration/Inputs/*.mlir; do
  base="$(basename "$program" .mlir)"
  for mode in alloc arg; do
    run "pack.$base.$mode.mlir" "$BIN/memplan-opt" "$program" \
      "--memplan-pack-allocs=arena-mode=$mode" --memplan-verify-packing
  done
done

for csv in "$ROOT"/test/Tools/Inputs/*.csv "$ROOT"/test/fuzz/corpus/csv/*.csv; do
  base="$(basename "$csv" .csv)"
  for algorithm in "${ALGORITHMS[@]}"; do
    name="csv.$base.$algorithm"
    extra=()
    [ "$algorithm" = search ] && extra=(--search-nodes=20000)
    run "$name.stdout" "$BIN/memplan-plan" "--input=$csv" \
      "--algorithm=$algorithm" --output=plan.csv --svg=plan.svg "${extra[@]}"
    # The one line that varies from run to run: the time taken.
    sed -i -E 's/, [0-9.]+ s,/, T s,/' "$OUT/$name.stdout"
    keep "$name.csv" plan.csv
    keep "$name.svg" plan.svg
  done
done
