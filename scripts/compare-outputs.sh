#!/usr/bin/env bash
# Compares every output of two builds byte for byte (see
# snapshot-outputs.sh for what is produced): run it before landing a change
# that should not change any plan, report, picture or generated code.
#
# Usage: scripts/compare-outputs.sh BASE_BIN_DIR NEW_BIN_DIR
# For example, against the last commit:
#   git worktree add /tmp/base HEAD && cmake -G Ninja -S /tmp/base \
#     -B /tmp/base/build -DCMAKE_BUILD_TYPE=Release \
#     -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir && cmake --build /tmp/base/build
#   scripts/compare-outputs.sh /tmp/base/build/bin build/bin
# Exit code 0 when every output is identical, 1 otherwise (the differing
# files are listed, with the start of each diff).
set -uo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BASE_BIN_DIR NEW_BIN_DIR" >&2
  exit 2
fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SNAPSHOTS="$(mktemp -d)"
trap 'rm -rf "$SNAPSHOTS"' EXIT

"$HERE/snapshot-outputs.sh" "$1" "$SNAPSHOTS/base"
"$HERE/snapshot-outputs.sh" "$2" "$SNAPSHOTS/new"

count=$(find "$SNAPSHOTS/new" -type f | wc -l)
if diff -rq "$SNAPSHOTS/base" "$SNAPSHOTS/new" >"$SNAPSHOTS/differ"; then
  echo "identical: $count outputs"
  exit 0
fi
cat "$SNAPSHOTS/differ"
diff -r "$SNAPSHOTS/base" "$SNAPSHOTS/new" | head -40
echo "$(wc -l <"$SNAPSHOTS/differ") of $count outputs differ"
exit 1
