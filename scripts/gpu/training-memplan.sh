#!/usr/bin/env bash
# memplan's side of the GPU check's training steps: for each case of
# training-cases.txt, the memory report's modelled PyTorch numbers and
# memplan's own total, as JSON lines (run from the repository's root, with
# memplan-gen and memplan-opt on PATH or in build/bin). MEMPLAN_ALLOCATOR_STEPS
# sets the caching-allocator model's steps (default 2, the second step's
# peaks; 1 for the first step's, which the measurements also record).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH=${MEMPLAN_TOOLS_DIR:-$PWD/build/bin}:$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' scripts/gpu/training-cases.txt | while IFS='|' read -r name gen _; do
  name=$(echo $name)
  # shellcheck disable=SC2086 # the options are words
  memplan-gen $gen < /dev/null | memplan-opt --plan-offsets \
    --memplan-memory-report="allocator-steps=${MEMPLAN_ALLOCATOR_STEPS:-2} json=$tmp/report.json" \
    -o /dev/null > /dev/null 2>&1
  printf '{"name": "%s", "report": %s}\n' "$name" "$(tr -d '\n' < "$tmp/report.json")"
done
