#!/usr/bin/env bash
# Gathers what the schedule fuzzer's CUDA cases need on a GPU machine that
# has no Halide and no compiler into build-cuda-fuzz-run/ at the repository
# root (git-ignored): the fuzzer, stripped; libHalide, stripped and
# xz-compressed (the cases are compiled there by JIT, and libHalide alone is
# over the 64 MiB a run can carry); and run_cuda_fuzz.sh, which runs them:
#   bash build-cuda-fuzz-run/run_cuda_fuzz.sh
# GPU cases load no autoscheduler plugin. Builds the fuzzer first.
#   gather_cuda_fuzz.sh [BUILD_DIR]   (default build-h21)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-h21}
dest=build-cuda-fuzz-run
limit_bytes=$((64 * 1024 * 1024))
cmake=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")
"$cmake" --build "$build" --target harena-schedule-fuzz
fuzz=$build/tests/schedules/harena-schedule-fuzz
# The library under the name the fuzzer asks for (libHalide.so; Debian's
# Halide 14: libHalide.so.14).
read -r soname halide_lib < <(ldd "$fuzz" | awk '/libHalide/ {print $1, $3}') || true
if [[ -z ${halide_lib:-} || ! -f $halide_lib ]]; then
  echo "$fuzz: libHalide not found by ldd" >&2
  exit 1
fi
# Compressed once per build folder and library (minutes on two cores).
packed=$build/$soname.xz
if [[ ! $packed -nt "$halide_lib" ]]; then
  strip -o "$build/$soname" "$halide_lib"
  xz -T0 -3 -f "$build/$soname"
fi
rm -rf "$dest" && mkdir -p "$dest"
strip -o "$dest/harena-schedule-fuzz" "$fuzz"
cp "$packed" tests/schedules/run_cuda_fuzz.sh "$dest/"
# What else the fuzzer links beyond the C and C++ runtimes the GPU machine
# must have; named here so that a failed start there is explained.
ldd "$fuzz" | awk '!/libHalide|linux-vdso|ld-linux|libc\.so|libm\.so|libstdc\+\+|libgcc_s|libdl\.so|libpthread|librt\.so/ {print "also needed: " $1}'
bytes=$(du -sb "$dest" | cut -f1)
echo "$dest: $((bytes / 1024 / 1024)) MiB; on the GPU machine: bash $dest/run_cuda_fuzz.sh"
if ((bytes >= limit_bytes)); then
  echo "$dest is over the 64 MiB a run can carry" >&2
  exit 1
fi
