#!/usr/bin/env bash
# Builds everything a GPU run needs on this (GPU-less) machine from one build
# folder, gathers the binaries, stripped, into one run folder (git-ignored) and
# prints the command to run there. The binaries may need only the C and C++
# runtime libraries: libcuda is loaded at run time, libHalide is only the
# compiler's. The run folder must stay under 64 MiB to be carried.
#   HARENA_BUILD_DIR    the configured build folder (default build: Halide 14;
#                       ./run test configures build-h21 with Halide 21)
#   HARENA_GPU_RUN_DIR  the folder to gather into (default build-gpu-run)
# e.g. HARENA_BUILD_DIR=build-h21 HARENA_GPU_RUN_DIR=build-gpu-run-h21 bash bench/gpu/prepare_gpu_run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${HARENA_BUILD_DIR:-build}
run_dir=${HARENA_GPU_RUN_DIR:-build-gpu-run}
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  if [[ $build != build ]]; then
    echo "$build is not configured: configure it first (HARENA_HALIDE=21 ./run test configures build-h21)" >&2
    exit 1
  fi
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
# The CMake that configured the folder (Halide 21's package needs >= 3.28).
cmake=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")
halide=$(sed -n 's/^Halide_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")

binaries=(
  bench/gpu/harena-gpu-bench bench/gpu/harena-threads-bench bench/gpu/harena-threads-bench-halide-launch
  bench/gpu/harena-call-costs
  bench/corpus/harena-corpus-bench bench/corpus/harena-corpus-bench-launch
  tests/e2e/harena_e2e_gpu_tests tests/e2e/harena_e2e_gpu_override_tests tests/e2e/harena_e2e_gpu_graph_tests
  tests/e2e/harena_e2e_gpu_graph_fallback_tests tests/e2e/harena_e2e_gpu_guard_tests tests/e2e/harena_e2e_gpu_devices_tests
  tests/corpus/harena_corpus_gpu_tests tests/corpus/harena_corpus_gpu_graph_tests
  tests/runtime/harena-runtime-gpu-tests tests/runtime/harena-launch-gpu-tests
  tests/argument/harena_argument_tests bench/argument/harena-argument-bench
  apps/variable_k/harena-demo apps/pyramid/harena-pyramid apps/small_chain/harena-small-chain
  apps/override_example/harena-override-example
)
"$cmake" --build "$build" -j "$(nproc)" --target "${binaries[@]##*/}"

rm -rf "$run_dir" && mkdir -p "$run_dir"
for b in "${binaries[@]}"; do
  strip -o "$run_dir/${b##*/}" "$build/$b"
done
# The PyTorch starter as ctest's package test built it (Halide 21 with
# PyTorch's link kit), with its plan reports and its own use.py as shipped:
# run_gpu_suites.sh runs it under the GPU machine's PyTorch.
starter=$build/tests/package/Starter.PyTorch/build
if [[ -f $starter/libsharpen_ops.so ]]; then
  mkdir -p "$run_dir/starter-pytorch"
  strip -o "$run_dir/starter-pytorch/libsharpen_ops.so" "$starter/libsharpen_ops.so"
  cp "$starter"/sharpen_cpu.arena.json "$starter"/sharpen_cuda.arena.json apps/starters/pytorch/use.py \
     "$run_dir/starter-pytorch/"
fi

# CUPTI, which the benchmarks' kernel-busy clock loads from beside them
# (bench/common/kernel_busy.h), from the toolkit whose headers they were
# built with.
cupti=$(sed -n 's/^CUDA_cupti_LIBRARY:[A-Z]*=//p' "$build/CMakeCache.txt")
if [[ -f $cupti ]]; then
  cp -L "$cupti" "$run_dir/libcupti.so.13"
else
  echo "warning: $build found no CUPTI library (CUDA_cupti_LIBRARY): the benchmarks will print no kernel-busy time" >&2
fi

# What the dynamic linker must find on the GPU machine.
allowed='^(linux-vdso|ld-linux-x86-64|libc|libstdc\+\+|libm|libgcc_s|libdl|libpthread|librt|libutil)\.so'
status=0
for f in "$run_dir"/*; do
  [[ -f $f ]] || continue
  extra=$(ldd "$f" | awk '{print $1}' | sed 's#.*/##' | grep -Ev "$allowed" || true)
  if [[ -n $extra ]]; then
    echo "$f needs $(echo $extra) (only glibc's libraries, libstdc++ and libgcc_s may be needed)" >&2
    status=1
  fi
done
((status == 0)) || exit 1
size_kib=$(du -sk "$run_dir" | cut -f1)
if ((size_kib >= 64 * 1024)); then
  echo "$run_dir is $((size_kib / 1024)) MiB: over the 64 MiB a GPU run can carry" >&2
  exit 1
fi
echo "$run_dir: ${#binaries[@]} binaries from $build (Halide from ${halide:-the default search}), $((size_kib / 1024)) MiB"
cat <<CMD
On the GPU machine, from the repository root with $run_dir/ beside it:
  cd $run_dir && mkdir -p results && ./harena_e2e_gpu_tests && ./harena_e2e_gpu_override_tests && \\
  ./harena_e2e_gpu_graph_tests && ./harena_e2e_gpu_graph_fallback_tests && ./harena_e2e_gpu_guard_tests && \\
  ./harena_corpus_gpu_tests && ./harena_corpus_gpu_graph_tests && ./harena-runtime-gpu-tests && \\
  ./harena-demo && ./harena-pyramid && ./harena-small-chain && ./harena-override-example && \\
  ./harena-gpu-bench --out results | tee results/bench.txt && \\
  ./harena-threads-bench --out results | tee results/threads.txt && \\
  ./harena-corpus-bench | tee results/corpus.txt
Then put results/ under docs/results/gpu-bench/<date>-<commit>/ in place of the run it supersedes
(git rm it: history keeps it), and update that run's section of docs/results/gpu-bench.md and its
row in docs/results/README.md.
CMD
