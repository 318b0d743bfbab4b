#!/usr/bin/env bash
# On the GPU machine, in the folder prepare_stream_run.sh filled: the
# cross-stream suites (frames and the RMM adaptor, two and four streams), the
# same with every stream wait dropped (HARENA_TEST_DROP_STREAM_WAIT=1, which
# must fail), compute-sanitizer memcheck and racecheck RUNS times each (default
# 5) on smaller buffers, and harena-rmm-bench (before the sanitizers). Logs go to $1 (default
# results/); a table of exit codes and error counts is printed last.
set -uo pipefail
cd "$(dirname "$0")"
out=${1:-results}
runs=${RUNS:-5}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
suites=(harena-stream-gpu-tests harena-rmm-gpu-tests)
rows=()
# Each row also goes to $out/table.md at once, so that a run cut short keeps its rows.
row() {
  rows+=("$1")
  IFS='|' read -r name code what <<<"$1"
  echo "| $name | $code | $what |" >>"$out/table.md"
}
for s in "${suites[@]}"; do
  ./"$s" >"$out/$s.txt" 2>&1
  row "$s|$?|$(grep -c '^\[       OK \]' "$out/$s.txt") passed"
  HARENA_TEST_DROP_STREAM_WAIT=1 ./"$s" >"$out/$s.no-wait.txt" 2>&1
  row "$s, waits dropped|$?|$(grep -c '^\[  FAILED  \].*Streams' "$out/$s.no-wait.txt") failed"
done
./harena-rmm-bench >"$out/rmm-bench.txt" 2>&1
row "harena-rmm-bench|$?|"
for tool in memcheck racecheck; do
  for i in $(seq 1 "$runs"); do
    for s in "${suites[@]}"; do
      log="$out/$s.$tool.$i.txt"
      HARENA_STREAM_TEST_WORDS=16384 "$cs" --tool "$tool" --error-exitcode 9 ./"$s" >"$log" 2>&1
      row "$s $tool run $i|$?|$(grep -Eo 'ERROR SUMMARY: [0-9]+|RACECHECK SUMMARY: [0-9]+ hazards' "$log" | tail -1)"
    done
  done
done
cat "$out/rmm-bench.txt"
echo "| run | exit | result |"
echo "|---|---:|---|"
for r in "${rows[@]}"; do
  IFS='|' read -r name code what <<<"$r"
  echo "| $name | $code | $what |"
done
