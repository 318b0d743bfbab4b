#!/usr/bin/env bash
# Compile time of a generator with and without the planner pass: runs the
# generator N times for each target, alternating, and prints the medians of
# the CPU time (user + system, less disturbed by other load than wall time)
# and their ratio, the same for the minima (the least disturbed runs), then the pass's own time as it reports it. Given a second
# generator executable (another build of the same generator, e.g. before a
# change), its runs alternate with the first's in every round, so that both
# see the same load, and each gets its own line.
# Usage: measure.sh <generator executable> <generator name> [N] [base target] [second executable]
set -euo pipefail
name=$2 runs=${3:-9} base=${4:-host}
gens=("$1")
[[ $# -ge 5 ]] && gens+=("$5")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A times
TIMEFORMAT='%3U %3S'
for ((i = 0; i < runs; i++)); do
  for g in "${!gens[@]}"; do
    for variant in plain arena; do
      target="$base-no_runtime"
      [[ $variant == arena ]] && target="$base-arena-no_runtime"
      # bash's time reads the child's CPU time to the millisecond (GNU time prints hundredths).
      elapsed=$({ time "${gens[$g]}" -g "$name" -o "$out" -e object,c_header -f "${name}_$variant" \
                    "target=$target" harena.trace=0 >/dev/null 2>&1; } 2>&1 | awk 'END {printf "%d", ($1 + $2) * 1000}')
      times[$g.$variant]+="$elapsed "
    done
  done
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
minimum() { printf '%s\n' "$@" | sort -n | head -1; }
for g in "${!gens[@]}"; do
  read -r -a plain <<< "${times[$g.plain]}"
  read -r -a arena <<< "${times[$g.arena]}"
  p=$(median "${plain[@]}") a=$(median "${arena[@]}")
  [[ ${#gens[@]} -gt 1 ]] && echo "${gens[$g]}:"
  echo "generator $name, target $base, $runs runs each (ms): plain ${plain[*]}"
  echo "generator $name, target $base-arena, $runs runs each (ms): arena ${arena[*]}"
  awk -v p="$p" -v a="$a" 'BEGIN {printf "median compile CPU time: without the pass %d ms, with it %d ms, ratio %.3f\n", p, a, a / p}'
  p=$(minimum "${plain[@]}") a=$(minimum "${arena[@]}")
  awk -v p="$p" -v a="$a" 'BEGIN {printf "minimum compile CPU time: without the pass %d ms, with it %d ms, ratio %.3f\n", p, a, a / p}'
  "${gens[$g]}" -g "$name" -o "$out" -e object -f "${name}_arena" "target=$base-arena-no_runtime" harena.trace=2 2>&1 | tail -1
done
