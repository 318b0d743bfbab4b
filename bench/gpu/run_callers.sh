#!/usr/bin/env bash
# On the GPU machine: the arena-argument callers gathered by
# gather_callers.sh (in $1/callers) under PyTorch's Python: the Python
# extension's and the PyTorch operators' tests, each once more under
# compute-sanitizer memcheck, the JIT tests, and the PyTorch graph benchmark.
# Output to $OUT/<label>-callers-<what>.txt; prints a table last.
set -u
dir=$(cd "$(dirname "$0")/../../$1/callers" && pwd) || exit 1
label=${2:-$1}
out=${OUT:-.}
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
python=${PYTHON:-python3}
cd "$dir" || exit 1
xz -dkf libHalide.so.xz
export LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
table=()
run() {  # what, command...
    local what=$1; shift
    local file="$out/$label-callers-$what.txt"
    timeout 600 "$@" > "$file" 2>&1
    local rc=$?
    table+=("$label | $what | rc $rc | $(grep -E "^Ran |^OK|^FAILED|^\[  PASSED|^\[  FAILED  \] [0-9]|ERROR SUMMARY|skipped" "$file" | tr '\n' ' ' | cut -c1-160)")
}
run python "$python" python_extension_test.py .
run pytorch "$python" pytorch_test.py libharena_torch_unsharp.so .
run jit ./harena_jit_tests
run memcheck-python $cs --tool memcheck "$python" python_extension_test.py . CudaArenaArgument
run memcheck-pytorch $cs --tool memcheck "$python" pytorch_test.py libharena_torch_unsharp.so . CudaOp
run memcheck-jit $cs --tool memcheck ./harena_jit_tests --gtest_filter='*cuda*'
if [[ ${BENCH:-1} != 0 ]]; then
    run pytorch-graph-bench "$python" pytorch_graph_bench.py libharena_torch_unsharp.so .
fi
printf '%s\n' "" "build | what | exit | result" "${table[@]}" | tee "$out/$label-callers-table.txt"
