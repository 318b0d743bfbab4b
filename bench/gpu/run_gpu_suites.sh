#!/usr/bin/env bash
# On the GPU machine, from the repository root, with a folder gathered by
# bench/gpu/prepare_gpu_run.sh beside it (default build-gpu-run/; name another
# as $1, e.g. build-gpu-run-h21): every GPU test suite, the apps, the PyTorch
# starter's use.py where the folder has it (under $TORCH_PYTHON), memcheck on
# the suites that exercise new code ($MEMCHECK_FILTER narrows the corpus
# ones), then the benchmarks ($BENCH=0 skips them; $CORPUS_SECONDS: the corpus
# benchmark's seconds per workload, default 5; $THREADS_SECONDS: the threads
# benchmark's per measurement, default 0.5; $LAUNCH_ONLY: the pipelines the
# corpus benchmark with the arena's launch path times, default mip_levels and
# yuv_planes). Each command's output goes
# to $OUT/<label>-<what>.txt (label: $2, default the folder's name); the
# table of results is printed last.
set -u
dir=${1:-build-gpu-run}
label=${2:-$dir}
cd "$(dirname "$0")/../../$dir" || exit 1
out=${OUT:-.}
mkdir -p "$out" || exit 1
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
table=()
run() {  # what, command...: output to $out/$label-$what.txt; appends a table row
    local what=$1; shift
    local file="$out/$label-$what.txt"
    timeout 900 "$@" > "$file" 2>&1
    local rc=$?
    local last
    last=$(grep -E "^\[  PASSED|^\[  FAILED  \] [0-9]|ERROR SUMMARY|^\[  SKIPPED" "$file" | tr '\n' ' ')
    table+=("$label | $what | rc $rc | $last")
}
echo "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $($cs --version | tail -1)" \
    > "$out/$label-device.txt"
for t in harena_e2e_gpu_tests harena_e2e_gpu_override_tests harena_e2e_gpu_graph_tests \
         harena_e2e_gpu_graph_fallback_tests harena_e2e_gpu_guard_tests harena_e2e_gpu_devices_tests harena_corpus_gpu_tests \
         harena_corpus_gpu_graph_tests harena-runtime-gpu-tests harena-launch-gpu-tests harena_argument_tests; do
    run "$t" ./$t
done
for a in harena-demo harena-pyramid harena-small-chain harena-override-example; do
    run "$a" ./$a
done
# The PyTorch starter's own script, unchanged, under the machine's PyTorch
# ($TORCH_PYTHON), where prepare_gpu_run.sh found it built.
torch_python=${TORCH_PYTHON:-/opt/torch/.venv/bin/python3}
if [[ -d starter-pytorch && -x $torch_python ]]; then
    run starter-pytorch "$torch_python" starter-pytorch/use.py starter-pytorch/libsharpen_ops.so
    table[-1]+="$(tail -1 "$out/$label-starter-pytorch.txt")"
    run memcheck-starter-pytorch $cs --tool memcheck "$torch_python" starter-pytorch/use.py starter-pytorch/libsharpen_ops.so
fi
filter=${MEMCHECK_FILTER:-*half*}
run memcheck-graph $cs --tool memcheck ./harena_e2e_gpu_graph_tests
run memcheck-corpus-graph $cs --tool memcheck ./harena_corpus_gpu_graph_tests --gtest_filter="$filter"
run memcheck-runtime $cs --tool memcheck ./harena-runtime-gpu-tests
run memcheck-launch $cs --tool memcheck ./harena-launch-gpu-tests
run memcheck-devices $cs --tool memcheck ./harena_e2e_gpu_devices_tests
run memcheck-argument $cs --tool memcheck ./harena_argument_tests --gtest_filter='ArgumentCuda.*'
run memcheck-threads $cs --tool memcheck ./harena-threads-bench --seconds 0.05 --threads 4 --only chain4
if [[ ${BENCH:-1} != 0 ]]; then
    mkdir -p "$out/$label-results"
    run gpu-bench ./harena-gpu-bench --repeats 3 --out "$out/$label-results"
    run corpus-bench ./harena-corpus-bench --seconds "${CORPUS_SECONDS:-5}"
    # The arena's launch path: graphs with kernels side by side, and as
    # captured, on the pipelines whose kernels can run side by side
    # ($LAUNCH_ONLY, a comma-separated list; "" for all).
    only=${LAUNCH_ONLY-mip_levels,yuv_planes}
    run corpus-bench-launch ./harena-corpus-bench-launch --seconds "${CORPUS_SECONDS:-5}" ${only:+--only "$only"}
    run corpus-bench-launch-captured env HARENA_GRAPH_KERNEL_ORDER=captured \
        ./harena-corpus-bench-launch --seconds "${CORPUS_SECONDS:-5}" ${only:+--only "$only"}
    run threads-bench ./harena-threads-bench --seconds "${THREADS_SECONDS:-0.5}" --out "$out/$label-results"
    run argument-bench ./harena-argument-bench
fi
printf '%s\n' "" "build | what | exit | gtest / memcheck" "${table[@]}" | tee "$out/$label-table.txt"
