#!/usr/bin/env bash
# On the GPU machine, from the repository root, with build-gpu-run/ from
# bench/gpu/prepare_gpu_run.sh beside it: every GPU test suite; the same under
# compute-sanitizer memcheck with the arena's NVTX memory regions (all must be
# clean); each planted out-of-slice write of tests/e2e/gpu_guard_test.cpp under
# memcheck with the regions and without them (reported only with them); the
# apps in debug mode. Writes $OUT/guard-nvtx.txt (or ./guard-nvtx.txt) and
# prints the table last.
cd "$(dirname "$0")/../../build-gpu-run" || exit 1
out=${OUT:-.}/guard-nvtx.txt
: > "$out"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
table=()
log() { echo "$*" >> "$out"; }
run() {  # name, command...: appends the output, returns gtest's and memcheck's last words
    local name=$1; shift
    log "===== $name: $*"
    timeout 300 "$@" >> "$out" 2>&1
    local rc=$?
    log "===== $name: exit $rc"
    return $rc
}
summary() { tac "$out" | sed -n "1,/^===== $1: /p" | grep -E "^\[  PASSED|^\[  FAILED  \] [0-9]|ERROR SUMMARY" | tac | tr '\n' ' '; }

log "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $($cs --version | tail -1)"
for t in harena_e2e_gpu_tests harena_e2e_gpu_override_tests harena_e2e_gpu_graph_tests harena_e2e_gpu_guard_tests \
         harena_corpus_gpu_tests harena-runtime-gpu-tests; do
    run "$t" ./$t; table+=("$t | plain | rc $? | $(summary "$t")")
done
for a in harena-demo harena-pyramid harena-small-chain harena-override-example; do
    run "$a" env HARENA_DEBUG=1 ./$a; table+=("$a | HARENA_DEBUG=1 | rc $? |")
done
for t in harena_e2e_gpu_tests harena_e2e_gpu_override_tests harena_e2e_gpu_graph_tests harena-runtime-gpu-tests \
         "harena_corpus_gpu_tests --gtest_filter=*estimate*"; do
    name="memcheck-nvtx ${t%% *}"
    run "$name" $cs --tool memcheck --nvtx yes ./$t; table+=("$t | memcheck, NVTX regions | rc $? | $(summary "$name")")
done
# Guard mode's planted writes land in bands, which are no slice: memcheck runs
# it without the regions, where it must find nothing wrong with the bands' copies.
run "memcheck guard" $cs --tool memcheck --nvtx no ./harena_e2e_gpu_guard_tests --gtest_filter='Cuda/GpuGuard.*'
table+=("harena_e2e_gpu_guard_tests (guard mode) | memcheck --nvtx no | rc $? | $(summary "memcheck guard")")
for c in PlannedElement PlannedRow OverrideElement OverrideRow; do
    for nvtx in yes no; do
        run "planted $c nvtx=$nvtx" env HARENA_TEST_PLANTED_WRITES=1 $cs --tool memcheck --nvtx $nvtx \
            ./harena_e2e_gpu_guard_tests --gtest_filter="*GpuPlantedWrite*/$c"
        n=$(tac "$out" | sed -n "1,/^===== planted $c nvtx=$nvtx: /p" | grep -c "Invalid __global__ write")
        table+=("planted $c | memcheck --nvtx $nvtx | invalid writes reported: $n |")
    done
done
printf '%s\n' "" "what | how | result | tests" "${table[@]}" | tee -a "$out"
