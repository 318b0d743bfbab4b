#!/usr/bin/env bash
# The GPU suites the parallel slots touch, both releases, then memcheck on
# parallel_strips (slots and their fallback). Results under $OUT/results.
# Usage (on the GPU machine): bash bench/gpu/run_slot_suites.sh RUN_FOLDER, where
# RUN_FOLDER holds h14/ and h21/ with the stripped test binaries of build/ and
# build-h21/ (tests/e2e/harena_e2e_gpu_*tests, tests/runtime/harena-runtime-gpu-tests).
cd "$1" || exit 2
out=$OUT/results
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
: > "$out/summary.txt"
for rel in h14 h21; do
  for t in harena_e2e_gpu_tests harena_e2e_gpu_override_tests harena_e2e_gpu_graph_tests \
           harena_e2e_gpu_graph_fallback_tests harena_e2e_gpu_guard_tests harena-runtime-gpu-tests; do
    [[ -x $rel/$t ]] || continue
    timeout 300 ./$rel/$t > "$out/$rel-$t.txt" 2>&1
    rc=$?
    echo "$rel $t rc=$rc $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$rel-$t.txt" | tr '\n' ' ')" >> "$out/summary.txt"
  done
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 ./$rel/harena_e2e_gpu_tests \
    --gtest_filter='*ParallelStrips*:*parallel_strips*' > "$out/$rel-memcheck.txt" 2>&1
  echo "$rel memcheck parallel_strips rc=$? $(grep -E 'ERROR SUMMARY' "$out/$rel-memcheck.txt")" >> "$out/summary.txt"
done
tar czf "$OUT/results.tgz" -C "$OUT" results
cat "$out/gpu.txt" "$out/summary.txt"
