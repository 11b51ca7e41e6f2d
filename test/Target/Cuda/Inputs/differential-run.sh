#!/usr/bin/env bash
# Differential execution of random graphs (random-graph.sh) on the host
# runtime: for each seed, the graph is planned twice, with the default plan
# (greedy-by-size, in place, results in the caller's buffers) and with no
# reuse at all (naive, not in place, results copied out of the arena);
# both are translated with a main, compiled, run, and their outputs must be
# bit-identical. Prints one line per seed and "all N identical" at the end;
# exits 1 at the first difference.
#
#   differential-run.sh "CXX [FLAGS]" RUNTIME_INCLUDE RUNTIME_LIB WORKDIR FIRST COUNT [OPS] [MODE]
#
# MODE schedule runs --memplan-schedule before planning the default variant
# (ops reordered to lower the bound), so the reordered program is compared
# with the unscheduled, unplanned one. MODE remat runs
# --memplan-fit-budget with a budget of 1 byte, best effort, before
# planning: every value that can be recomputed after the peak is, so the
# program with its recomputations is compared with the plain one;
# break-remat then turns every recomputed GELU into a ReLU (a copy that is
# not the op it copies): the outputs must differ. remat-schedule is remat
# with the fit-budget option schedule=true: ops reordered between rounds of
# recomputation.
#
# memplan-opt and memplan-translate are taken from PATH (lit puts the build's
# there).
#
# With BREAK=break, every elementwise kernel of the planned program that
# writes into the arena writes 4 bytes above the place its readers read (a
# planning bug the contract would refuse, injected after it, in the C++):
# the outputs must then differ. (The arena's size is a multiple of 256 and
# its allocation has slack, so the last 4 bytes land in the heap block.)
# With break-workspace, every planned matmul with a workspace is given its
# left operand as the workspace (a plan that overlaps the two): the runtime
# overwrites the workspace, so the outputs must differ.
set -euo pipefail
cxx=$1 include=$2 lib=$3 work=$4 first=$5 count=$6 ops=${7:-40}
mode=${8:-}
here=$(dirname "$0")
mkdir -p "$work"
for ((seed = first; seed < first + count; ++seed)); do
  base=$work/random$seed
  bash "$here/random-graph.sh" "$seed" "$ops" > "$base.mlir"
  schedule=()
  [[ $mode == schedule ]] && schedule=(--memplan-schedule)
  input=$base.mlir
  if [[ $mode == remat || $mode == break-remat || $mode == remat-schedule ]]; then
    input=$base.remat.mlir
    reorder=false
    [[ $mode == remat-schedule ]] && reorder=true
    memplan-opt "$base.mlir" \
      --memplan-fit-budget="budget=1 best-effort=true schedule=$reorder" \
      -o "$input" 2>/dev/null
    # A recomputation that is not the op it copies: every recomputed GELU
    # becomes a ReLU.
    [[ $mode == break-remat ]] &&
      sed -i 's/memplan.gelu \(.*\) {memplan.recomputed}/memplan.relu \1 {memplan.recomputed}/' \
        "$input"
  fi
  memplan-opt "$input" "${schedule[@]}" --plan-offsets \
    -o "$base.planned.mlir" 2>/dev/null
  memplan-opt "$base.mlir" \
    --plan-offsets="algorithm=naive in-place=false results-in-caller-buffers=false" \
    -o "$base.naive.mlir" 2>/dev/null
  for variant in planned naive; do
    memplan-translate --memplan-to-cuda --memplan-cuda-main \
      "$base.$variant.mlir" -o "$base.$variant.cpp"
  done
  if [[ $mode == break ]]; then
    # mprt_unary(ctx, op, dtype, in, out, count): "(base + N), COUNT));".
    sed -i 's/(base + \([0-9]*\)), \([0-9]*\)));$/(base + \1 + 4), \2));/' \
      "$base.planned.cpp"
  elif [[ $mode == break-workspace ]]; then
    # mprt_matmul(ctx, &desc, a, b, c, workspace, bytes) with bytes > 0.
    sed -i 's/mprt_matmul(ctx, &desc, \([^,]*\), \([^,]*\), \([^,]*\), [^,]*, \([1-9][0-9]*\)));$/mprt_matmul(ctx, \&desc, \1, \2, \3, (void *)(\1), \4));/' \
      "$base.planned.cpp"
  fi
  for variant in planned naive; do
    # shellcheck disable=SC2086 # CXX may carry flags (the sanitizers')
    $cxx -std=c++17 -O1 -I"$include" -x c++ "$base.$variant.cpp" -x none \
      "$lib" -o "$base.$variant"
    "$base.$variant" "$base.$variant.out" > "$base.$variant.log"
  done
  arena=$(sed -n 's/^arena bytes: //p' "$base.planned.log")
  naive=$(sed -n 's/^arena bytes: //p' "$base.naive.log")
  if ! cmp -s "$base.planned.out" "$base.naive.out"; then
    echo "seed $seed: outputs differ (arena $arena vs $naive bytes)"
    exit 1
  fi
  echo "seed $seed: identical (arena $arena vs $naive bytes)"
done
echo "all $count identical"
