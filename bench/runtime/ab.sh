#!/bin/bash
# Runs two builds of harena-runtime-bench alternately, pinned to one core,
# and prints each row's median over the rounds and the median of the
# rounds' ratios B/A with its 95% interval.
#   bench/runtime/ab.sh A_BENCH B_BENCH [ROUNDS (default 9)] [CPU (default 1)]
# e.g. A built from main in a second worktree, B from a branch:
#   bench/runtime/ab.sh ../base/build/bench/runtime/harena-runtime-bench \
#                       build/bench/runtime/harena-runtime-bench 9
set -euo pipefail
a=$1
b=$2
rounds=${3:-9}
cpu=${4:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq 1 "$rounds"); do
    taskset -c "$cpu" "$a" >"$out/a.$i"
    taskset -c "$cpu" "$b" >"$out/b.$i"
done
python3 - "$out" "$rounds" <<'PY'
import math
import re
import statistics
import sys

out, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for side in "ab":
    for i in range(1, rounds + 1):
        cold = ""
        for line in open(f"{out}/{side}.{i}"):
            if line.startswith("caches cold"):
                cold = "cold: "  # the rows after it repeat the hot rows' names
            m = re.match(r"\s+(.*?)\s+([\d.]+) ns median", line)
            if m:
                rows.setdefault(cold + m.group(1), {}).setdefault(side, []).append(float(m.group(2)))


def interval(samples):
    """bench/common/median.h's median_interval: a distribution-free 95%
    interval for the median, from the binomial ranks."""
    s, n = sorted(samples), len(samples)
    below, k = 0.0, 0
    for j in range(n):
        below += math.comb(n, j) / 2**n
        if below > 0.025:
            break
        k = j + 1
    k = max(k, 1)
    return s[k - 1], s[n - k]


print(f"{rounds} rounds; B/A is the median of the rounds' ratios (each round runs A, then B) and its 95% interval")
print(f"{'row (median ns over the rounds)':44s} {'A':>8s} {'B':>8s} {'B/A':>6s}  interval")
for name, sides in rows.items():
    a, b = statistics.median(sides["a"]), statistics.median(sides["b"])
    ratios = [y / x for x, y in zip(sides["a"], sides["b"])]
    low, high = interval(ratios)
    print(f"{name:44s} {a:8.1f} {b:8.1f} {statistics.median(ratios):6.3f}  [{low:.3f}, {high:.3f}]")
PY
