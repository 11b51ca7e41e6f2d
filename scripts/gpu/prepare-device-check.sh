#!/usr/bin/env bash
# Prepares the GPU check for a lent GPU machine that has CUDA and PyTorch
# but no MLIR (docs/codegen.md, "On a GPU"): builds every binary of
# test/gpu/gpu-check.sh here (its `build` stage, for sm_90 unless
# MEMPLAN_NVCC_FLAGS says otherwise) and packs them, with the GPU probe,
# into .gpu/codegen.tar.xz, which device-check.sh unpacks and runs there.
# Run from a configured build with CUDA (build/, or BUILD_DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -x $build/bin/memplan-gpu-probe ]] || {
  echo "no $build/bin/memplan-gpu-probe: configure with nvcc (MEMPLAN_ENABLE_CUDA)"
  exit 1
}
MEMPLAN_GPU_CHECK_STAGE=build \
  MEMPLAN_NVCC_FLAGS=${MEMPLAN_NVCC_FLAGS:--gencode arch=compute_90,code=sm_90} \
  bash "$root/test/gpu/gpu-check.sh" "$root" "$build/bin" false \
  "${NVCC:-/usr/local/cuda/bin/nvcc}" "$root/runtime/include" \
  "$build/lib/libmemplan_runtime_cuda.a" "$build/lib/libmemplan_runtime_host.a" \
  "${CUDA_LIB_DIR:-/usr/local/cuda/lib64}" "${CXX:-c++}" "$work/codegen"
cp "$build/bin/memplan-gpu-probe" "$work/codegen/"
mkdir -p "$root/.gpu"
# Only what the run stage reads: the binaries, the host's edge-case output
# and the reference (sources, objects and IR stay here).
(cd "$work/codegen" && find . -maxdepth 1 -type f ! -name '*.o' ! -name '*.cu' \
  ! -name '*.mlir' -printf '%f\n' | sort | tar cf - -T - | xz -9 -T2) \
  > "$root/.gpu/codegen.tar.xz"
echo "packed $(du -h "$root/.gpu/codegen.tar.xz" | cut -f1): carry .gpu to the GPU machine and run scripts/gpu/device-check.sh"
