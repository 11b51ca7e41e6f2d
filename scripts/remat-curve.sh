#!/usr/bin/env bash
# The recomputation curve of a training step (docs/benchmarks.md,
# "Rematerialisation"): memplan-gen writes the step, --memplan-schedule
# orders it, and --memplan-fit-budget is run at budgets from the scheduled
# lower bound down to the lowest it reaches; each point is the lower bound
# reached and the operations recomputed. Writes PREFIX.csv and PREFIX.svg.
#
# Usage: scripts/remat-curve.sh BIN_DIR PREFIX POINTS [memplan-gen options]
#   scripts/remat-curve.sh build/bin docs/remat-llama-7b 8 --model llama-7b \
#     --mode train --seq 512 --weight-dtype bf16 --activation-dtype bf16
#
# Columns: budget, lower bound reached, whether it fits, ops added,
# operations recomputed, and (on every row) one run of every recomputable
# op of the step, the most max-copies=1 can recompute. The last rows are
# the lowest bound with max-copies=1 (the default) and with max-copies=4.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 BIN_DIR PREFIX POINTS MEMPLAN_GEN_OPTIONS..." >&2
  exit 2
fi
bin=$1 prefix=$2 points=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin/memplan-gen" "$@" -o "$work/step.mlir"
"$bin/memplan-opt" "$work/step.mlir" --memplan-schedule \
  -o "$work/scheduled.mlir" 2> "$work/schedule.log"
# "... lower bound A -> B bytes" or "... lower bound A bytes ...".
scheduled=$(grep -o 'lower bound [0-9]*\( -> [0-9]*\)\? bytes' \
  "$work/schedule.log" | grep -o '[0-9]*' | tail -1)

# One run: budget, max-copies -> "bound fits ops operations one-run".
fit() {
  local out
  out=$("$bin/memplan-opt" "$work/scheduled.mlir" \
    --memplan-fit-budget="budget=$1 best-effort=true max-copies=$2" \
    -o /dev/null 2>&1 | grep -o 'memplan: @.*' || true)
  local bound ops flops once fits
  ops=0 flops=0 bound=$scheduled once=
  if [[ $out == *"recomputed "*" ops ("* ]]; then
    ops=$(sed 's/.*recomputed \([0-9]*\) ops.*/\1/' <<< "$out")
    flops=$(sed 's/.*ops (\([0-9]*\) operations).*/\1/' <<< "$out")
  fi
  # Reordering alone ("ops reordered, nothing recomputed") lowers it too.
  if [[ $out == *" -> "*" bytes"* ]]; then
    bound=$(sed 's/.*-> \([0-9]*\) bytes.*/\1/' <<< "$out")
  fi
  if [[ $out == *"one run of every recomputable op: "* ]]; then
    once=$(sed 's/.*one run of every recomputable op: \([0-9]*\).*/\1/' <<< "$out")
  fi
  fits=$([[ $bound -le $1 ]] && echo yes || echo no)
  echo "$bound $fits $ops $flops $once"
}

read -r floor _ _ _ once <<< "$(fit 1 1)"
{
  echo "budget,lower_bound,fits,recomputed_ops,recomputed_operations,one_run_operations"
  for ((i = 0; i <= points; ++i)); do
    budget=$((scheduled - (scheduled - floor) * i / points))
    read -r bound fits ops flops _ <<< "$(fit "$budget" 1)"
    echo "$budget,$bound,$fits,$ops,$flops,$once"
  done
  read -r bound fits ops flops _ <<< "$(fit 1 4)"
  echo "max-copies=4,$bound,$fits,$ops,$flops,$once"
} > "$prefix.csv"

# The picture: operations recomputed against the bound reached, and the
# line of one run of every recomputable op.
awk -F, -v title="$*" '
  BEGIN { n = 0 }
  NR == 1 || $3 != "yes" && $1 != "max-copies=4" { next }
  { x[n] = $2; y[n] = $5; once = $6; n++ }
  END {
    w = 640; h = 400; l = 80; r = 20; t = 40; b = 60
    xmin = x[0]; xmax = x[0]; ymax = once
    for (i = 0; i < n; ++i) {
      if (x[i] < xmin) xmin = x[i]; if (x[i] > xmax) xmax = x[i]
      if (y[i] > ymax) ymax = y[i]
    }
    if (xmax == xmin) xmax = xmin + 1
    if (ymax == 0) ymax = 1
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", w, h
    printf "<text x=\"%d\" y=\"20\">memplan-gen %s</text>\n", l, title
    printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", l, h - b, w - r, h - b
    printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", l, t, l, h - b
    printf "<text x=\"%d\" y=\"%d\">lower bound reached (MiB): %.0f to %.0f</text>\n", l, h - 20, xmin / 1048576, xmax / 1048576
    printf "<text x=\"10\" y=\"%d\" transform=\"rotate(-90 10 %d)\">recomputed GFLOP (0 to %.0f)</text>\n", h - b, h - b, ymax / 1e9
    oy = h - b - (h - b - t) * once / ymax
    printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"gray\" stroke-dasharray=\"4\"/>\n", l, oy, w - r, oy
    printf "<text x=\"%d\" y=\"%.1f\" fill=\"gray\">one run of every recomputable op: %.0f GFLOP</text>\n", l + 10, oy - 4, once / 1e9
    printf "<polyline fill=\"none\" stroke=\"steelblue\" stroke-width=\"2\" points=\""
    for (i = 0; i < n; ++i)
      printf "%.1f,%.1f ", l + (w - l - r) * (x[i] - xmin) / (xmax - xmin), h - b - (h - b - t) * y[i] / ymax
    printf "\"/>\n"
    for (i = 0; i < n; ++i)
      printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"steelblue\"/>\n", l + (w - l - r) * (x[i] - xmin) / (xmax - xmin), h - b - (h - b - t) * y[i] / ymax
    printf "</svg>\n"
  }' "$prefix.csv" > "$prefix.svg"
cat "$prefix.csv"
