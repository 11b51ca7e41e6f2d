#!/usr/bin/env bash
# What one more layer adds to a training step's scheduled lower bound, in
# units of s*b*h (tokens x batch x hidden), and the rest: the bytes every
# layer keeps for its backward pass at the loss, where the scheduled
# step's peak is (no workspace, so that nothing else grows with a layer).
#
# Usage: per-layer-bytes.sh HIDDEN TOKENS MEMPLAN_GEN_OPTIONS...
# Prints "per-layer BYTES = N sbh + R" (N whole, R the remainder).
set -euo pipefail
hidden=$1 tokens=$2
shift 2
bound() {
  memplan-gen "$@" --matmul-workspace 0 |
    memplan-opt --memplan-schedule -o /dev/null 2>&1 |
    grep -o 'lower bound [0-9]*\( -> [0-9]*\)\? bytes' | grep -o '[0-9]*' |
    tail -1
}
two=$(bound "$@" --layers 2)
three=$(bound "$@" --layers 3)
delta=$((three - two))
sbh=$((hidden * tokens))
echo "per-layer $delta = $((delta / sbh)) sbh + $((delta % sbh))"
