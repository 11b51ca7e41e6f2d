#!/usr/bin/env bash
# Prints a random memplan graph (f32), deterministic in its seed, for the
# differential run of random-graphs.test. Values are tensor<8x16xf32> ("A")
# or tensor<16x8xf32> ("B"); ops: gelu, silu, relu, softmax (in place where
# the planner may), add, mul, matmul by a weight argument (with a cuBLAS
# workspace of 0, 256 or 512 bytes, which the host runtime overwrites as
# cuBLAS may), transpose, and reshape (a view). Any earlier value may be read later, so lifetimes vary;
# the function returns 1 to 3 values, possibly the same one twice, a view,
# or an argument.
#
#   random-graph.sh SEED [OPS]
set -euo pipefail
RANDOM=$1
ops=${2:-40}
A="tensor<8x16xf32>"
B="tensor<16x8xf32>"
names=(%x %y)
shapes=(A B)
pick() { # a random value of shape $1 into $pv
  local candidates=() i
  for i in "${!names[@]}"; do
    [[ ${shapes[$i]} == "$1" ]] && candidates+=("${names[$i]}")
  done
  pv=${candidates[RANDOM % ${#candidates[@]}]}
}
type_of() { [[ $1 == A ]] && echo "$A" || echo "$B"; }
other() { [[ $1 == A ]] && echo B || echo A; }

body=""
for ((n = 0; n < ops; ++n)); do
  # RANDOM only in this shell: a subshell would draw from its own sequence.
  if ((RANDOM % 2 == 0)); then s=A; else s=B; fi
  t=$(type_of "$s")
  result=%v$n
  out=$s
  case $((RANDOM % 10)) in
  0) pick "$s"; line="$result = memplan.gelu $pv : $t" ;;
  1) pick "$s"; line="$result = memplan.silu $pv : $t" ;;
  2) pick "$s"; line="$result = memplan.relu $pv : $t" ;;
  3) pick "$s"; line="$result = memplan.softmax $pv axis(-1) : $t" ;;
  4) pick "$s"; a=$pv; pick "$s"
     line="$result = memplan.add $a, $pv : $t, $t -> $t" ;;
  5) pick "$s"; a=$pv; pick "$s"
     line="$result = memplan.mul $a, $pv : $t, $t -> $t" ;;
  6) pick "$s"
     if [[ $s == A ]]; then w="%wa : tensor<16x16xf32>"; else w="%wb : tensor<8x8xf32>"; fi
     workspace=$((RANDOM % 3 * 256))
     attributes=""
     ((workspace)) && attributes=" {workspace_bytes = $workspace : i64}"
     line="$result = memplan.matmul $pv, ${w%% :*}$attributes : $t, ${w##*: } -> $t" ;;
  7) pick "$s"; out=$(other "$s")
     line="$result = memplan.transpose $pv permutation = [1, 0] : $t -> $(type_of "$out")" ;;
  *) pick "$s"; out=$(other "$s")
     line="$result = memplan.reshape $pv : $t -> $(type_of "$out")" ;;
  esac
  body+="  $line"$'\n'
  names+=("$result")
  shapes+=("$out")
done

count=$((1 + RANDOM % 3))
values=() types=()
for ((r = 0; r < count; ++r)); do
  i=$(( ${#names[@]} - 1 - RANDOM % 6 ))
  (( i < 0 )) && i=0
  values+=("${names[$i]}")
  types+=("$(type_of "${shapes[$i]}")")
done
join() { local IFS=,; echo "$*" | sed 's/,/, /g'; }

echo "// random-graph.sh $1 $ops"
echo "func.func @random(%x: $A, %y: $B, %wa: tensor<16x16xf32>, %wb: tensor<8x8xf32>) -> ($(join "${types[@]}")) {"
printf '%s' "$body"
echo "  return $(join "${values[@]}") : $(join "${types[@]}")"
echo "}"
