#!/usr/bin/env bash
# memplan quick start. Installs what is missing (Debian 12), configures and
# builds once (later runs reuse the build), then:
#   ./quickstart.sh demo   plans the bundled GPT-2 block and prints the result
#   ./quickstart.sh test   runs the whole test suite (lit + GoogleTest)
# Environment: MEMPLAN_BUILD_DIR (default ./build).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="${MEMPLAN_BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22
PACKAGES=(cmake ninja-build g++ lld ccache libgtest-dev libgmock-dev
          libbenchmark-dev libmlir-22-dev mlir-22-tools llvm-22-dev
          llvm-22-tools libxml2-utils)

log() { printf '==> %s\n' "$*" >&2; }

install_missing_packages() {
  local missing=() pkg
  for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  log "installing: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
}

build() {
  export CCACHE_BASEDIR="$ROOT"
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    log "configuring $BUILD_DIR"
    cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_USE_LINKER=lld \
      -DCMAKE_C_COMPILER_LAUNCHER=ccache \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
  fi
  log "building"
  cmake --build "$BUILD_DIR"
}

run_demo() {
  local example="$ROOT/examples/gpt2-block.mlir"
  log "memplan-opt --plan-offsets $example"
  "$BUILD_DIR/bin/memplan-opt" --plan-offsets "$example"
}

run_tests() {
  local lit_log ctest_log status=0
  lit_log="$(mktemp)"
  ctest_log="$(mktemp)"
  log "lit suite"
  "$LLVM_PREFIX/bin/lit" -sv "$BUILD_DIR/test" | tee "$lit_log" || status=1
  log "GoogleTest suite (ctest)"
  ctest --test-dir "$BUILD_DIR" --output-on-failure | tee "$ctest_log" ||
    status=1

  # Counts from the runners' own summaries (grep finds nothing when a
  # category is empty, hence the `|| true`).
  local lit_passed lit_failed ctest_total ctest_failed
  lit_passed=$( (grep -E '^ *Passed *:' "$lit_log" || true) |
                sed 's/.*: *\([0-9]*\).*/\1/' | awk '{s += $1} END {print s + 0}')
  lit_failed=$( (grep -E '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:' \
                  "$lit_log" || true) |
                sed 's/.*: *\([0-9]*\).*/\1/' | awk '{s += $1} END {print s + 0}')
  ctest_total=$( (grep -E 'tests failed out of' "$ctest_log" || true) |
                 sed 's/.*out of \([0-9]*\).*/\1/' | awk '{s += $1} END {print s + 0}')
  ctest_failed=$( (grep -E 'tests failed out of' "$ctest_log" || true) |
                  sed 's/.* \([0-9]*\) tests failed out of.*/\1/' |
                  awk '{s += $1} END {print s + 0}')
  rm -f "$lit_log" "$ctest_log"

  echo
  echo "lit:   $lit_passed passed, $lit_failed failed"
  echo "ctest: $((ctest_total - ctest_failed)) passed, $ctest_failed failed"
  echo "$((lit_passed + ctest_total - ctest_failed)) passed, $((lit_failed + ctest_failed)) failed"
  if [ "$lit_passed" -eq 0 ] || [ "$ctest_total" -eq 0 ]; then
    echo "error: a suite ran no test" >&2
    status=1
  fi
  [ $((lit_failed + ctest_failed)) -eq 0 ] || status=1
  return $status
}

case "${1:-}" in
  demo) install_missing_packages; build; run_demo ;;
  test) install_missing_packages; build; run_tests ;;
  *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac
