#!/usr/bin/env bash
# Builds everything a GPU run needs on this (GPU-less) machine, gathers the
# binaries into build-gpu-run/ (git-ignored, a few MiB: they need only libc,
# libstdc++ and the driver's libcuda) and prints the command to run there.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${HARENA_BUILD_DIR:-build}
[[ -f "$build/CMakeCache.txt" ]] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)" --target harena-gpu-bench harena-corpus-bench harena_e2e_gpu_tests harena_e2e_gpu_override_tests harena_e2e_gpu_graph_tests harena_e2e_gpu_graph_fallback_tests \
  harena_e2e_gpu_guard_tests harena_corpus_gpu_tests harena_corpus_gpu_graph_tests harena-runtime-gpu-tests \
  harena-demo harena-pyramid harena-small-chain harena-override-example harena-threads-bench
rm -rf build-gpu-run && mkdir -p build-gpu-run
cp "$build"/bench/gpu/harena-gpu-bench "$build"/bench/corpus/harena-corpus-bench "$build"/tests/e2e/harena_e2e_gpu_tests "$build"/tests/e2e/harena_e2e_gpu_override_tests \
   "$build"/tests/e2e/harena_e2e_gpu_graph_tests "$build"/tests/e2e/harena_e2e_gpu_graph_fallback_tests "$build"/tests/e2e/harena_e2e_gpu_guard_tests \
   "$build"/tests/corpus/harena_corpus_gpu_tests "$build"/tests/corpus/harena_corpus_gpu_graph_tests \
   "$build"/tests/runtime/harena-runtime-gpu-tests "$build"/apps/variable_k/harena-demo \
   "$build"/apps/pyramid/harena-pyramid "$build"/apps/small_chain/harena-small-chain \
   "$build"/apps/override_example/harena-override-example "$build"/bench/gpu/harena-threads-bench build-gpu-run/
du -sh build-gpu-run
cat <<'CMD'
On the GPU machine, from the repository root with build-gpu-run/ beside it:
  cd build-gpu-run && mkdir -p results && ./harena_e2e_gpu_tests && ./harena_e2e_gpu_override_tests && \
  ./harena_e2e_gpu_graph_tests && ./harena_e2e_gpu_graph_fallback_tests && ./harena_e2e_gpu_guard_tests && ./harena_corpus_gpu_tests && ./harena_corpus_gpu_graph_tests && \
  ./harena-runtime-gpu-tests && ./harena-demo && ./harena-pyramid && ./harena-small-chain && \
  ./harena-override-example && \
  ./harena-gpu-bench --out results | tee results/bench.txt && \
  ./harena-corpus-bench | tee results/corpus.txt
Then copy results/ into bench/gpu/results/ and update bench/gpu/RESULTS.md.
CMD
