#!/usr/bin/env bash
# Issue 17's criterion, checked on one memplan-gen training step: at the
# lower bound that full activation checkpointing reaches (memplan-gen
# --checkpointing full, then --memplan-schedule), --memplan-fit-budget on
# the same step without checkpointing (scheduled) must fit and recompute
# no more operations than the policy. The two numbers come from different
# code: the policy's clones are written by memplan-gen, its bound measured
# by --memplan-schedule; the pass's by its own model, its bound printed by
# the pass and measured again here by --memplan-schedule on its output.
#
# Usage: against-checkpointing.sh BIN_DIR WORK_PREFIX MEMPLAN_GEN_OPTIONS...
# (FIT_OPTIONS in the environment: more --memplan-fit-budget options, such
# as schedule=false.)
# Prints "policy BOUND FLOPS" and "pass BOUND FLOPS"; exits 1 when the pass
# does not fit or recomputes more.
set -euo pipefail
bin=$1 work=$2
shift 2

"$bin/memplan-gen" "$@" --checkpointing full -o "$work.full.mlir"
"$bin/memplan-opt" "$work.full.mlir" --memplan-schedule -o /dev/null \
  2> "$work.full.log"
bound=$(grep -o 'lower bound [0-9]*\( -> [0-9]*\)\? bytes' "$work.full.log" |
  grep -o '[0-9]*' | tail -1)
policy=$(grep -o 'memplan.recomputed_flops = [0-9]*' "$work.full.mlir" |
  grep -o '[0-9]*$')
echo "policy $bound $policy"

"$bin/memplan-gen" "$@" -o "$work.none.mlir"
"$bin/memplan-opt" "$work.none.mlir" --memplan-schedule \
  -o "$work.scheduled.mlir" 2> /dev/null
"$bin/memplan-opt" "$work.scheduled.mlir" \
  --memplan-fit-budget="budget=$bound best-effort=true ${FIT_OPTIONS:-}" \
  -o "$work.remat.mlir" 2> "$work.remat.log"
flops=$(grep -o 'memplan.recomputed_flops = [0-9]*' "$work.remat.mlir" |
  grep -o '[0-9]*$')
# The pass's output measured apart from the pass: --memplan-schedule's
# liveness of the rewritten step (it keeps the clones where they are).
"$bin/memplan-opt" "$work.remat.mlir" --memplan-schedule -o /dev/null \
  2> "$work.remat-bound.log"
reached=$(grep -o 'lower bound [0-9]*\( -> [0-9]*\)\? bytes' \
  "$work.remat-bound.log" | grep -o '[0-9]*' | tail -1)
echo "pass $reached $flops"
if [ "$reached" -gt "$bound" ]; then
  echo "error: the pass reaches $reached bytes, over the policy's $bound" >&2
  exit 1
fi
if [ "$flops" -gt "$policy" ]; then
  echo "error: the pass recomputes $flops operations, the policy $policy" >&2
  exit 1
fi
