#!/usr/bin/env bash
# Regression check of the solver on the real-trace-shaped families: every
# instance planned by this tree's harena-plan and by the one built from the
# reference commit (fbea47b, the solver before the speed work), with the
# same options. Per family, the verdict is "worse" when any instance's arena
# is larger than the reference's; the script then exits 1.
#
# usage: bench/solver/regression_check.sh [BUILD_DIR] [SEEDS] [-- harena-plan options]
#   BUILD_DIR  this tree's configured build folder (default: build)
#   SEEDS      instances per family and size (default: 2)
# The reference is checked out and built under $HARENA_REF_DIR (default
# /tmp/harena-fbea47b) on first use. Both planners run on one core
# (taskset -c 1 where available); arenas are deterministic, times are not.
set -euo pipefail

ref=fbea47b
repo=$(git rev-parse --show-toplevel)
build=$(realpath "${1:-$repo/build}")
seeds=${2:-2}
shift $(($# < 2 ? $# : 2))
[ "${1:-}" = "--" ] && shift
refdir=${HARENA_REF_DIR:-/tmp/harena-$ref}

if [ ! -x "$refdir/build/planner/tools/harena-plan" ]; then
    [ -d "$refdir" ] || git -C "$repo" worktree add --detach "$refdir" "$ref" >&2
    cmake -S "$refdir" -B "$refdir/build" -DCMAKE_BUILD_TYPE=Release >&2
    cmake --build "$refdir/build" -j2 --target harena-plan >&2
fi
cmake --build "$build" -j2 --target harena-plan harena-solver-bench >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bench/solver/harena-solver-bench" --write-traces "$work" "$seeds"

pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)
# Prints "arena lower_bound ms" for one run.
plan() {
    "${pin[@]}" "$@" | awk '/^arena bytes/{a=$3} /^lower bound/{b=$3} /^solve time/{t=$3} END{print a, b, t}'
}

echo "| instance | buffers | reference ratio | ms | this tree ratio | ms | |"
echo "|---|---:|---:|---:|---:|---:|---|"
for f in $(ls "$work"/*.csv | sort -V); do
    name=$(basename "$f" .csv)
    read -r ra rb rt <<<"$(plan "$refdir/build/planner/tools/harena-plan" "$f")"
    read -r na nb nt <<<"$(plan "$build/planner/tools/harena-plan" "$f" "$@")"
    verdict=same
    [ "$na" -lt "$ra" ] && verdict=better
    [ "$na" -gt "$ra" ] && verdict=worse
    echo "$name $ra $rb $rt $na $nt $verdict" >>"$work/rows"
    awk -v n="$name" -v ra="$ra" -v rb="$rb" -v rt="$rt" -v na="$na" -v nt="$nt" -v v="$verdict" 'BEGIN{
        split(n, p, "-"); printf "| %s | %s | %.6f | %.0f | %.6f | %.0f | %s |\n", n, p[2], ra / rb, rt, na / rb, nt, v}'
done
echo
echo "| family | instances | better | same | worse | verdict |"
echo "|---|---:|---:|---:|---:|---|"
awk '{split($1, p, "-"); f = p[1]; n[f]++; c[f, $7]++}
     END{bad = 0
         for (f in n) {
             v = c[f, "worse"] > 0 ? "WORSE" : "not worse"; bad += c[f, "worse"] > 0
             printf "| %s | %d | %d | %d | %d | %s |\n", f, n[f], c[f, "better"], c[f, "same"], c[f, "worse"], v
         }
         exit bad > 0}' "$work/rows"
