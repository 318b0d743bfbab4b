"""The planned unsharp mask as a PyTorch operator (tests/pytorch), on a
launch-bound image (3 x 64 x 64, five kernels): eager calls of the unplanned
and the planned op against replays of the planned op captured in a
torch.cuda.graph. Host microseconds per call, back to back on one stream,
median of the samples, taken alternately in one run.

Usage: python3 pytorch_graph_bench.py OPS_LIBRARY PLAN_DIR [calls] [samples]
"""

import json
import os
import statistics
import sys
import time

import torch

OPS_LIBRARY, PLAN_DIR = sys.argv[1], sys.argv[2]
CALLS = int(sys.argv[3]) if len(sys.argv) > 3 else 500
SAMPLES = int(sys.argv[4]) if len(sys.argv) > 4 else 9
torch.ops.load_library(OPS_LIBRARY)
ops = torch.ops.harena

with open(os.path.join(PLAN_DIR, "argument_unsharp_cuda_arena_torch.arena.json")) as f:
    arena = torch.empty(json.load(f)["arena_bytes_at_estimates"], dtype=torch.uint8, device="cuda")
image = torch.rand((3, 64, 64), device="cuda")
output = torch.empty_like(image)


def eager(op):
    return lambda: op(image, arena, output)


def captured(op):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        op(image, arena, output)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        op(image, arena, output)
    return graph.replay


def microseconds_per_call(run):
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(CALLS):
        run()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / CALLS * 1e6


regimes = {
    "eager, unplanned": eager(ops.unsharp_plain),
    "eager, planned": eager(ops.unsharp_planned),
    "graph replay, planned": captured(ops.unsharp_planned),
}
for run in regimes.values():
    microseconds_per_call(run)  # warm up: modules loaded, clocks up
samples = {name: [] for name in regimes}
for _ in range(SAMPLES):
    for name, run in regimes.items():
        samples[name].append(microseconds_per_call(run))

print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}; 3x64x64 unsharp, "
      f"{CALLS} calls per sample, median of {SAMPLES}")
print("| regime | us per call | eager planned / this |")
print("|---|---:|---:|")
planned = statistics.median(samples["eager, planned"])
for name, values in samples.items():
    median = statistics.median(values)
    print(f"| {name} | {median:.1f} | {planned / median:.2f}x |")
