#!/usr/bin/env bash
# Regression check of the solver on the published instances: every CSV file
# under the shared traces planned by this tree's harena-plan and by the one
# built from a reference commit (default HEAD~1, the commit before), with the
# same options. A file is WORSE when its arena is larger than the
# reference's, when its CPU time is more than twice the reference's (and over
# 0.1 s, below which times are noise), or, for a file named X.<capacity>.csv,
# when capacity mode no longer fits where the reference's did. Any WORSE row
# makes the script exit 1.
#
# usage: bench/solver/regression_check.sh [REF] [--families] [-- harena-plan options]
#   REF         the reference commit (default HEAD~1)
#   --families  also the real-trace-shaped generated families
#               (harena-solver-bench --write-traces, 1,000-62,000 buffers,
#               one seed): extra coverage, about a minute more
# Environment: HARENA_TRACES, the folder of instances (default
# ../shared/traces beside the repository); HARENA_REGRESSION_DIR, where the
# reference's worktree and both builds go (default /tmp/harena-regression).
# Only harena-plan (and, with --families, harena-solver-bench) is built, in
# a project of its own that adds planner/solver and planner/tools (and, for
# the benchmark, its problem generators, tests/support/solver_instances):
# never the whole tree. Both planners run on one core (taskset -c 1 where available);
# arenas are deterministic, times are CPU seconds (user + system).
set -euo pipefail

repo=$(git rev-parse --show-toplevel)
ref=HEAD~1
families=0
while [ $# -gt 0 ]; do
    case $1 in
    --families) families=1; shift ;;
    --) shift; break ;;
    *) ref=$1; shift ;;
    esac
done
traces=${HARENA_TRACES:-$repo/../shared/traces}
root=${HARENA_REGRESSION_DIR:-/tmp/harena-regression}
refsha=$(git -C "$repo" rev-parse --short "$ref^{commit}")
refsrc=$root/src-$refsha
mkdir -p "$root"

# build SRC OUT TARGET...: builds the targets from the solver and tools of
# source tree SRC in a project of their own under OUT.
build() {
    local src=$1 out=$2
    shift 2
    mkdir -p "$out"
    cat >"$out/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(harena_solver_only CXX)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
add_subdirectory("$src/planner/solver" solver)
add_subdirectory("$src/planner/tools" tools)
if(EXISTS "$src/bench/solver/CMakeLists.txt" AND "$*" MATCHES "bench")
  if(EXISTS "$src/tests/support/solver_instances/CMakeLists.txt")
    add_subdirectory("$src/tests/support/solver_instances" solver_instances)
  endif()
  add_subdirectory("$src/bench/solver" bench)
endif()
EOF
    cmake -S "$out" -B "$out/build" >/dev/null
    cmake --build "$out/build" -j2 --target "$@" >&2
}

[ -d "$refsrc" ] || git -C "$repo" worktree add --detach "$refsrc" "$refsha" >&2
build "$refsrc" "$root/build-$refsha" harena-plan
build "$repo" "$root/build-tree" harena-plan harena-solver-bench
refplan=$(find "$root/build-$refsha/build" -name harena-plan -type f -perm -u+x | head -1)
plan=$(find "$root/build-tree/build" -name harena-plan -type f -perm -u+x | head -1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)

# run PLANNER FILE ARGS...: prints "arena lower_bound cpu_seconds status".
run() {
    local planner=$1 file=$2
    shift 2
    local status=0
    /usr/bin/time -f "%U %S" -o "$work/time" "${pin[@]}" "$planner" "$file" "$@" >"$work/out" 2>/dev/null || status=$?
    awk -v s="$status" 'NR == FNR {cpu = $1 + $2; next} /^arena bytes/{a=$3} /^lower bound/{b=$3}
        END{print a, b, cpu, s}' <(tail -1 "$work/time") "$work/out"
}

files=$(cd "$traces" && find . -name '*.csv' | sed 's|^\./||' | sort)
if [ $families = 1 ]; then
    mkdir -p "$work/families"
    "$(find "$root/build-tree/build" -name harena-solver-bench -type f | head -1)" --write-traces "$work/families" 1
fi

echo "reference $refsha ($(git -C "$repo" log -1 --format=%s "$refsha" | cut -c1-60)), this tree $(git -C "$repo" rev-parse --short HEAD) and its changes; options: ${*:-default}"
echo
echo "| file | buffers | reference ratio | CPU s | this tree ratio | CPU s | capacity fits (reference / this tree) | verdict |"
echo "|---|---:|---:|---:|---:|---:|---|---|"
bad=0
for f in $files $( [ $families = 1 ] && ls "$work/families" | sed 's|^|families/|'); do
    path=$traces/$f
    [[ $f == families/* ]] && path=$work/$f
    buffers=$(($(wc -l <"$path") - 1))
    read -r ra rb rt _ <<<"$(run "$refplan" "$path" "$@")"
    read -r na nb nt _ <<<"$(run "$plan" "$path" "$@")"
    verdict=same
    [ "$na" -lt "$ra" ] && verdict=better
    worse=""
    [ "$na" -gt "$ra" ] && worse="larger arena"
    awk -v n="$nt" -v r="$rt" 'BEGIN{exit !(n > 2 * r && n > 0.1)}' && worse="${worse:+$worse, }over 2x the time"
    fits=""
    capacity=$(basename "$f" .csv | sed -n 's/^.*\.\([0-9][0-9]*\)$/\1/p')
    if [ -n "$capacity" ]; then
        read -r _ _ _ rs <<<"$(run "$refplan" "$path" --capacity "$capacity")"
        read -r _ _ _ ns <<<"$(run "$plan" "$path" --capacity "$capacity")"
        fits="$([ "$rs" = 0 ] && echo yes || echo no) / $([ "$ns" = 0 ] && echo yes || echo no)"
        [ "$rs" = 0 ] && [ "$ns" != 0 ] && worse="${worse:+$worse, }no longer fits"
    fi
    if [ -n "$worse" ]; then
        verdict="WORSE: $worse"
        bad=1
    fi
    awk -v f="$f" -v n="$buffers" -v ra="$ra" -v rb="$rb" -v rt="$rt" -v na="$na" -v nt="$nt" -v c="$fits" -v v="$verdict" \
        'BEGIN{printf "| %s | %d | %.6f | %.2f | %.6f | %.2f | %s | %s |\n", f, n, ra / rb, rt, na / rb, nt, c, v}'
done
echo
[ $bad = 0 ] && echo "verdict: no file worse" || echo "verdict: WORSE (see the rows above)"
exit $bad
