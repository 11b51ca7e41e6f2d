#!/usr/bin/env bash
# memplan quick start. Installs what is missing (Debian 12), configures and
# builds once (later runs reuse the builds), then:
#   ./quickstart.sh demo   plans the bundled GPT-2 block and prints the result
#   ./quickstart.sh test   everything CI runs: lit + GoogleTest, the same
#                          suite again in an ASan + UBSan build, and each
#                          libFuzzer target for a minute
#   ./quickstart.sh check  lit + GoogleTest only (the quick loop)
# Environment: MEMPLAN_BUILD_DIR (default ./build), MEMPLAN_SANITIZE_BUILD_DIR
# (default ./build-sanitize), MEMPLAN_FUZZ_SECONDS (default 60).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="${MEMPLAN_BUILD_DIR:-$ROOT/build}"
SANITIZE_DIR="${MEMPLAN_SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}"
FUZZ_SECONDS="${MEMPLAN_FUZZ_SECONDS:-60}"
LLVM_PREFIX=/usr/lib/llvm-22
PACKAGES=(cmake ninja-build g++ lld ccache libgtest-dev libgmock-dev
          libbenchmark-dev libmlir-22-dev mlir-22-tools llvm-22-dev
          llvm-22-tools libxml2-utils clang-14 libclang-rt-14-dev)

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

# configure DIR [cmake options...]: once; later runs reuse the directory.
configure() {
  local dir="$1"
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    log "configuring $dir"
    cmake -G Ninja -S "$ROOT" -B "$dir" \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_USE_LINKER=lld \
      -DCMAKE_C_COMPILER_LAUNCHER=ccache \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@" >/dev/null
  fi
}

build() {
  export CCACHE_BASEDIR="$ROOT"
  configure "$BUILD_DIR"
  log "building $BUILD_DIR"
  cmake --build "$BUILD_DIR"
}

# The sanitizer build: clang, ASan + UBSan everywhere, libFuzzer targets.
build_sanitized() {
  export CCACHE_BASEDIR="$ROOT"
  configure "$SANITIZE_DIR" \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DMEMPLAN_SANITIZE=ON -DMEMPLAN_ENABLE_FUZZERS=ON \
    -DMEMPLAN_ENABLE_CUDA=OFF -DMEMPLAN_ENABLE_BENCHMARKS=OFF
  log "building $SANITIZE_DIR"
  cmake --build "$SANITIZE_DIR"
}

run_demo() {
  local example="$ROOT/examples/gpt2-block.mlir"
  log "memplan-opt --plan-offsets $example"
  "$BUILD_DIR/bin/memplan-opt" --plan-offsets "$example"
}

# Totals over every suite run, for the closing line.
TOTAL_PASSED=0
TOTAL_FAILED=0
STATUS=0

# count FILE PATTERN: the sum of the numbers after PATTERN's colon.
count() {
  (grep -E "$2" "$1" || true) | sed 's/.*: *\([0-9]*\).*/\1/' |
    awk '{s += $1} END {print s + 0}'
}

# run_suite NAME BUILD_DIR: lit and ctest of one build.
run_suite() {
  local name="$1" dir="$2" lit_log ctest_log
  lit_log="$(mktemp)"
  ctest_log="$(mktemp)"
  log "$name: lit suite"
  "$LLVM_PREFIX/bin/lit" -sv "$dir/test" | tee "$lit_log" || STATUS=1
  log "$name: GoogleTest suite (ctest)"
  ctest --test-dir "$dir" --output-on-failure | tee "$ctest_log" || STATUS=1

  local lit_passed lit_failed ctest_total ctest_failed ctest_skipped
  lit_passed=$(count "$lit_log" '^ *Passed *:')
  lit_failed=$(count "$lit_log" '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:')
  ctest_total=$( (grep -E 'tests failed out of' "$ctest_log" || true) |
                 sed 's/.*out of \([0-9]*\).*/\1/' | awk '{s += $1} END {print s + 0}')
  ctest_failed=$( (grep -E 'tests failed out of' "$ctest_log" || true) |
                  sed 's/.* \([0-9]*\) tests failed out of.*/\1/' |
                  awk '{s += $1} END {print s + 0}')
  # Skipped tests (the `gpu` label without a GPU) are neither.
  ctest_skipped=$( (grep -E '\(Skipped\)$' "$ctest_log" || true) | wc -l)
  rm -f "$lit_log" "$ctest_log"
  SUMMARY+=("$name lit:   $lit_passed passed, $lit_failed failed"
            "$name ctest: $((ctest_total - ctest_failed - ctest_skipped)) passed, $ctest_failed failed, $ctest_skipped skipped")
  if [ "$lit_passed" -eq 0 ] || [ "$ctest_total" -eq 0 ]; then
    echo "error: a $name suite ran no test" >&2
    STATUS=1
  fi
  TOTAL_PASSED=$((TOTAL_PASSED + lit_passed + ctest_total - ctest_failed - ctest_skipped))
  TOTAL_FAILED=$((TOTAL_FAILED + lit_failed + ctest_failed))
}

# run_fuzzer NAME CORPUS: FUZZ_SECONDS of libFuzzer from the seed corpus (a
# scratch copy, so the repository is not written); a crash or an oracle
# failure fails it.
run_fuzzer() {
  local name="$1" seeds="$2" work
  work="$(mktemp -d)"
  log "fuzzing $name for ${FUZZ_SECONDS}s"
  if (cd "$work" && "$SANITIZE_DIR/fuzz/$name" -max_total_time="$FUZZ_SECONDS" \
        -max_len=4096 -print_final_stats=1 "$work" "$seeds" >"$work/log" 2>&1); then
    SUMMARY+=("fuzz $name: $(grep -o 'Done [0-9]* runs' "$work/log" || echo 'done'), no failure")
    TOTAL_PASSED=$((TOTAL_PASSED + 1))
  else
    tail -60 "$work/log" >&2
    SUMMARY+=("fuzz $name: FAILED (see the log above)")
    TOTAL_FAILED=$((TOTAL_FAILED + 1))
    STATUS=1
  fi
  rm -rf "$work"
}

print_summary() {
  echo
  printf '%s\n' "${SUMMARY[@]}"
  echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
  [ "$TOTAL_FAILED" -eq 0 ] || STATUS=1
  return $STATUS
}

SUMMARY=()

case "${1:-}" in
  demo)
    install_missing_packages
    build
    run_demo
    ;;
  check)
    install_missing_packages
    build
    run_suite release "$BUILD_DIR"
    print_summary
    ;;
  test)
    install_missing_packages
    build
    run_suite release "$BUILD_DIR"
    build_sanitized
    run_suite asan+ubsan "$SANITIZE_DIR"
    run_fuzzer csv-planner-fuzzer "$ROOT/test/fuzz/corpus/csv"
    run_fuzzer mlir-planner-fuzzer "$ROOT/test/fuzz/corpus/mlir"
    print_summary
    ;;
  *) echo "usage: $0 demo|test|check" >&2; exit 2 ;;
esac
