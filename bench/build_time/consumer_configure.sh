#!/usr/bin/env bash
# Times the configure of a user's project of the size real ones have: one
# generator and N add_halide_library targets (CUDA, with and without the
# arena), found through find_package(HalideArena) in an installed tree.
#
# usage: bench/build_time/consumer_configure.sh PREFIX [N] [RUNS] [-- cmake arguments...]
#   PREFIX  where halide-arena is installed (cmake --install BUILD --prefix PREFIX)
#   N       add_halide_library targets (default 20); RUNS: configures timed (default 3)
#   cmake arguments: the Halide the install was built with, e.g.
#           -DHalide_DIR=... -DPython_EXECUTABLE=...; CMAKE names the cmake to run.
# Prints each run's wall seconds and their median.
set -euo pipefail
prefix=$(realpath "$1")
count=${2:-20}
runs=${3:-3}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = "--" ] && shift
cmake=${CMAKE:-cmake}
repo=$(cd "$(dirname "$0")/../.." && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$repo/tests/package/consumer/blur_generator.cpp" "$work/"
{
  echo 'cmake_minimum_required(VERSION 3.22)'
  echo 'project(consumer_configure C CXX)'
  echo 'set(CMAKE_CXX_STANDARD 17)'
  echo 'find_package(HalideArena REQUIRED)'
  echo 'add_halide_arena_generator(blur.generator SOURCES blur_generator.cpp)'
  for i in $(seq 1 "$count"); do
    features="cuda"
    ((i % 2)) && features="cuda arena"
    echo "add_halide_library(blur_$i FROM blur.generator GENERATOR blur TARGETS host FEATURES $features)"
  done
} >"$work/CMakeLists.txt"

times=()
for run in $(seq 1 "$runs"); do
  rm -rf "$work/build"
  start=$(date +%s.%N)
  "$cmake" -S "$work" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log" >&2; exit 1; }
  end=$(date +%s.%N)
  times+=("$(echo "$end - $start" | bc)")
  echo "run $run: ${times[-1]} s"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END{printf "median of %d: %.1f s (%d add_halide_library targets)\n", NR, a[int((NR+1)/2)], '"$count"'}'
