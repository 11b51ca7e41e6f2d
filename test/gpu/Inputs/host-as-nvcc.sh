#!/usr/bin/env bash
# Stands in for nvcc in gpu-check-dry-run.test: compiles and links with the
# host C++ compiler ($MEMPLAN_HOST_CXX) against the host runtime, so that
# gpu-check.sh runs end to end on a machine without a GPU. CUDA-only
# arguments (-x cu, cuBLAS) are dropped.
set -euo pipefail
cxx=${MEMPLAN_HOST_CXX:?set MEMPLAN_HOST_CXX to the host C++ compiler}
args=()
while (($#)); do
  case $1 in
  -x) args+=(-x c++); shift ;;
  -lcublas | -L*) ;;
  *) args+=("$1") ;;
  esac
  shift
done
# shellcheck disable=SC2086 # CXX may carry flags
exec $cxx "${args[@]}"
