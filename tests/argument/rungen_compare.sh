#!/usr/bin/env bash
# Runs a planned library whose arena is its `arena` argument through Halide's
# RunGen, as RunGen's users do (--estimate_all: every buffer from its
# estimate, the arena too; --benchmarks=all: the call repeated), and the
# unplanned build of the same generator, and compares their outputs byte
# for byte. Exits 77 (skipped) where the library needs a GPU and none is usable.
#
# usage: rungen_compare.sh PLAIN_RUNGEN PLANNED_RUNGEN WORK_DIR
set -uo pipefail
plain=$1 planned=$2 work=$3
# Each output is written as output.mat in a folder of its own: the file
# names the array after itself, and the .tmp writer fails on device outputs.
mkdir -p "$work/plain" "$work/planned"
rm -f "$work"/plain/output.mat "$work"/planned/output.mat
common=(--estimate_all --benchmarks=all --benchmark_min_time=0.05)
# The unplanned build has the same (unused) arena input, without an estimate.
if ! "$plain" "${common[@]}" arena=zero:[1] output="$work/plain/output.mat" >"$work/plain.log" 2>&1; then
    if grep -qiE "cuInit|CUDA_ERROR|libcuda|cuda.*(not|no) (found|device)" "$work/plain.log"; then
        echo "skipped: no usable CUDA device"; cat "$work/plain.log"; exit 77
    fi
    cat "$work/plain.log"; exit 1
fi
"$planned" "${common[@]}" output="$work/planned/output.mat" >"$work/planned.log" 2>&1 || { cat "$work/planned.log"; exit 1; }
cat "$work/planned.log"
cmp "$work/plain/output.mat" "$work/planned/output.mat" || { echo "outputs differ"; exit 1; }
echo "outputs identical ($(stat -c %s "$work/planned/output.mat") bytes)"
