#!/usr/bin/env bash
# On a GPU machine, from the folder gather_cuda_fuzz.sh fills (this script's
# own), in one command of under 9 minutes: the schedule fuzzer's CUDA cases.
# A probe first (where no CUDA device is usable it says so and exits 77);
# then seeds FIRST .. FIRST + CASES - 1 in SHARDS processes at once (shard k:
# --first FIRST + k --every SHARDS), each starting no case after RUN_SECONDS;
# then the first MEMCHECK_CASES of them under compute-sanitizer memcheck in
# MEMCHECK_SHARDS processes, starting none later than what is left before
# DEADLINE allows. A shard past its time is killed and counted. Outputs in
# $OUT (default: out/ beside this script): cuda-fuzz-<pass>-<shard>.txt; the
# failures, a verdict and a table, printed last (also cuda-fuzz-table.txt).
# Exits 1 on a failed case, a steady-state heap allocation, a memcheck
# error, a shard without its table (or its memcheck summary), or fewer than
# MIN_CASES cases run.
#   bash build-cuda-fuzz-run/run_cuda_fuzz.sh
# Environment (defaults): FIRST (1), CASES (480), SHARDS (the cores), CALLS
# (2), RUN_SECONDS (240), MIN_CASES (200), MEMCHECK_CASES (32; 0: none),
# MEMCHECK_SHARDS (half of SHARDS), DEADLINE (500: seconds from the start),
# COMPUTE_SANITIZER (on PATH, else /usr/local/cuda/bin/compute-sanitizer),
# COMPILE_ONLY (1: plan and compile the cases, run none; the check of this
# script on a machine without a GPU).
set -u
start=$SECONDS
dir=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$dir/out}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
first=${FIRST:-1}
cases=${CASES:-480}
shards=${SHARDS:-$(nproc)}
calls=${CALLS:-2}
run_seconds=${RUN_SECONDS:-240}
min_cases=${MIN_CASES:-200}
memcheck_cases=${MEMCHECK_CASES:-32}
memcheck_shards=${MEMCHECK_SHARDS:-$(((shards + 1) / 2))}
deadline=${DEADLINE:-500}
cs=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
mode=(--cuda)
[[ ${COMPILE_ONLY:-0} = 1 ]] && mode+=(--compile-only)
fuzz=$dir/harena-schedule-fuzz
rm -f "$out"/cuda-fuzz-*

# libHalide, unpacked outside the folder (which may be read-only).
lib=$(mktemp -d "${TMPDIR:-/tmp}/cuda-fuzz-lib.XXXXXX") || exit 1
trap 'rm -rf "$lib"' EXIT
for packed in "$dir"/*.xz; do
    xz -dc "$packed" >"$lib/$(basename "$packed" .xz)" || exit 1
done
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

table_header() {
    echo "pass | cases run | passed | failed | skipped (refused by Halide, nondeterministic) | memcheck errors | buffers planned | cases with slots | steady-state heap allocations | shards without a table (or memcheck summary) | seconds"
    echo "---|---|---|---|---|---|---|---|---|---|---"
}

# The probe: a run of no cases starts the fuzzer and asks for a device.
"$fuzz" "${mode[@]}" --cases 0 >"$out/cuda-fuzz-probe.txt" 2>&1
probe=$?
if ((probe == 77)); then
    echo "no usable CUDA device on this machine: $(grep -h '^SKIPPED' "$out/cuda-fuzz-probe.txt")"
    {
        table_header
        echo "run | 0 | 0 | 0 | all: no usable CUDA device | - | - | - | - | - | $((SECONDS - start))"
    } | tee "$out/cuda-fuzz-table.txt"
    exit 77
elif ((probe != 0)); then
    echo "the fuzzer does not start here (exit $probe):"
    tail -5 "$out/cuda-fuzz-probe.txt"
    ldd "$fuzz" | grep 'not found'
    exit 1
fi

# pass NAME CASES SHARDS SECONDS [WRAPPER...]: seeds FIRST .. FIRST + CASES
# - 1 in SHARDS processes at once, each under the wrapper, starting no case
# after SECONDS and killed when the pass's time (its `limit`) is up.
pass() {
    local name=$1 n=$2 count=$3 seconds=$4 limit=$5
    shift 5
    local k
    for ((k = 0; k < count && k < n; k++)); do
        (
            timeout -k 5 "$limit" "$@" "$fuzz" "${mode[@]}" --calls "$calls" --seconds "$seconds" \
                --first $((first + k)) --every "$count" --cases $(((n - k + count - 1) / count)) \
                >"$out/cuda-fuzz-$name-$k.txt" 2>&1
            echo $? >"$out/cuda-fuzz-$name-$k.rc"
        ) &
    done
    wait
}

# summary NAME MEMCHECK SECONDS: the pass's row of the table, from its
# shards' outputs (the fuzzer's table row; memcheck's error summary).
summary() {
    local name=$1 memcheck=$2 seconds=$3 missing=0 file
    for file in "$out"/cuda-fuzz-"$name"-*.txt; do
        grep -qE '^\| [0-9]+ \| [0-9]+ \|' "$file" || missing=$((missing + 1))
        if ((memcheck)) && ! grep -q 'ERROR SUMMARY: [0-9]* error' "$file"; then
            missing=$((missing + 1))
        fi
    done
    cat "$out"/cuda-fuzz-"$name"-*.txt | awk -v name="$name" -v memcheck="$memcheck" -v missing="$missing" \
        -v seconds="$seconds" '
        /^\| [0-9]+ \| [0-9]+ \|/ {
            split($0, c, "|")
            split(c[7], planned, " of ")
            cases += c[2]; matched += c[3]; refused += c[4]; nondet += c[5]; failed += c[6]
            planned_buffers += planned[1]; buffers += planned[2]; slots += c[9]; heap += c[10]
        }
        /ERROR SUMMARY: [0-9]+ error/ { errors += $(NF - 1) }
        END {
            printf "%s | %d | %d | %d | %d (%d, %d) | %s | %d of %d | %d | %d | %d | %d\n", name, cases, matched,
                   failed, refused + nondet, refused, nondet, memcheck ? errors : "-", planned_buffers, buffers,
                   slots, heap, missing, seconds
        }'
}

verdict=PASSED
notes=()
# fail NOTE: the run fails, for the reason the note gives.
fail() {
    notes+=("$1")
    verdict=FAILED
}
pass_start=$SECONDS
pass run "$cases" "$shards" "$run_seconds" $((run_seconds + 60))
rows=("$(summary run 0 $((SECONDS - pass_start)))")
if ((memcheck_cases > 0)); then
    left=$((deadline - (SECONDS - start)))
    if [[ ! -x $cs ]]; then
        fail "compute-sanitizer not found at $cs (set COMPUTE_SANITIZER): no memcheck pass"
    elif ((left < 150)); then
        fail "${left} s left before the deadline: no memcheck pass"
    else
        pass_start=$SECONDS
        pass memcheck "$memcheck_cases" "$memcheck_shards" $((left - 120)) $((left - 15)) \
            "$cs" --tool memcheck --print-limit 20
        rows+=("$(summary memcheck 1 $((SECONDS - pass_start)))")
    fi
fi
# From the rows: pass | cases | passed | failed | skipped | memcheck errors |
# planned | slots | heap | shards without a table | seconds.
IFS='|' read -r _ run_cases _ <<<"${rows[0]}"
if ((run_cases < min_cases)); then
    fail "$((run_cases)) cases run, fewer than $min_cases"
fi
for row in "${rows[@]}"; do
    IFS='|' read -r _ _ _ failed _ errors _ _ heap missing _ <<<"$row"
    errors=${errors// /}
    if ((failed > 0 || heap > 0 || missing > 0)) || [[ $errors != - && $errors != 0 ]]; then
        verdict=FAILED
    fi
done
{
    grep -h '^FAILED case\|^reproduce:\|heap allocations after the first call\|ERROR SUMMARY: [1-9]' \
        "$out"/cuda-fuzz-{run,memcheck}-*.txt 2>/dev/null | head -40
    for rc in "$out"/cuda-fuzz-*-*.rc; do
        case $(cat "$rc") in
        124 | 137) echo "$(basename "$rc" .rc): killed at its pass's time limit" ;;
        esac
    done
    ((${#notes[@]} > 0)) && printf '%s\n' "${notes[@]}"
    echo "$verdict: $(basename "$fuzz") ${mode[*]}, seeds from $first, outputs in $out"
    table_header
    printf '%s\n' "${rows[@]}"
} | tee "$out/cuda-fuzz-table.txt"
[[ $verdict = PASSED ]]
