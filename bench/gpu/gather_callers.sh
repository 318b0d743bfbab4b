#!/usr/bin/env bash
# Gathers what the arena-argument callers need on the GPU machine from a
# Halide 21 build folder into $2/callers: the Python extension and the
# PyTorch operators library with the plan reports they read, their tests and
# benchmark, and the JIT tests with libHalide (xz-compressed: JIT compiles on
# the GPU machine, and libHalide is over the 64 MiB a run can carry).
# Builds the targets first; run_callers.sh runs them. A run of its own beside
# prepare_gpu_run.sh's: libHalide alone fills most of what one run can carry.
#   gather_callers.sh BUILD_DIR RUN_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
build=$1
dest=$2/callers
cmake=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")
torch=$(sed -n 's/^HARENA_TORCH_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
if [[ -z $torch ]]; then
  echo "$build has no HARENA_TORCH_DIR: configure it with -DHARENA_TORCH_DIR=<unpacked torch wheel>/torch" >&2
  exit 1
fi
"$cmake" --build "$build" --target harena_argument_unsharp harena_torch_unsharp harena_jit_tests
rm -rf "$dest" && mkdir -p "$dest"
cp "$build"/generators/argument/harena_argument_unsharp.abi3.so "$build"/generators/argument/*.arena.json "$dest"/
strip -o "$dest/libharena_torch_unsharp.so" "$build/tests/pytorch/libharena_torch_unsharp.so"
strip -o "$dest/harena_jit_tests" "$build/tests/argument/harena_jit_tests"
cp tests/argument/python_extension_test.py tests/pytorch/pytorch_test.py bench/argument/pytorch_graph_bench.py "$dest"/
halide_lib=$(ldd "$build/tests/argument/harena_jit_tests" | awk '/libHalide/ {print $3}')
# Compressed once per build folder (minutes on two cores).
if [[ ! "$build/libHalide.so.xz" -nt "$halide_lib" ]]; then
  strip -o "$build/libHalide.so" "$halide_lib"
  xz -T0 -3 -f "$build/libHalide.so"
fi
cp "$build/libHalide.so.xz" "$dest/"
echo "$dest: $(du -sh "$dest" | cut -f1)"
