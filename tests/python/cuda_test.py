"""The JIT cases of jit_test.py on CUDA, and the steady state: after its
first call, a planned call at a new size makes no device allocation, where
the unplanned pipeline allocates. Every case skips where there is no usable
CUDA device.

    PYTHONPATH=<build>/python python -m unittest -v cuda_test   (in tests/python)
"""
import ctypes
import os
import subprocess
import sys
import unittest

import halide as hl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jit_test  # noqa: E402


def cuda_usable():
    """A device the driver reports, asked without Halide (whose CUDA runtime
    reports a missing device through an error)."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


def cuda_target():
    return hl.get_host_target().with_feature(hl.TargetFeature.CUDA)


@unittest.skipUnless(cuda_usable(), "no usable CUDA device")
class CudaJit(jit_test.HostJit):
    """A numpy arena: its device memory comes at the first call and stays."""

    def target(self):
        return cuda_target()


@unittest.skipUnless(cuda_usable(), "no usable CUDA device")
class CudaJitHalideBufferArena(jit_test.HostJitHalideBufferArena):

    def target(self):
        return cuda_target()


# Runs in a child process with Halide's debug runtime, whose CUDA part
# prints a line with "cuMemAlloc" for each allocation it asks the driver for;
# prints "call N" before each call. The radius grows every call, so a
# stage's device buffer grows too and Halide's allocation cache cannot serve it.
STEADY_STATE = r'''
import sys, numpy as np, halide as hl, halide_arena
sys.path.insert(0, sys.argv[1])
from jit_pipelines import RadiusBlur
planned = sys.argv[2] == "planned"
target = hl.get_host_target().with_feature(hl.TargetFeature.CUDA).with_feature(hl.TargetFeature.Debug)
blur = RadiusBlur(target)
pipeline = hl.Pipeline(blur.output)
w, h, radii = 256, 192, [1, 2, 3, 4, 5, 6]
if planned:
    arena = hl.ImageParam(hl.UInt(8), 1, "arena")
    plan = halide_arena.plan(blur.output, arena, target)
    memory = halide_arena.host_arena(plan.bytes_for({"radius": max(radii)}))
    arena.set(hl.Buffer(memory))
    pipeline = plan.pipeline
host_input = np.zeros((h, w), np.uint16)
image = hl.Buffer(host_input)
output = hl.Buffer(hl.UInt(16), [w, h])
for call, radius in enumerate(radii):
    host_input[:] = np.random.default_rng(call).integers(0, 4096, (h, w), dtype=np.uint16)
    image.set_host_dirty(True)
    blur.bind_buffer(image, radius)
    print(f"call {call}", flush=True)
    pipeline.realize(output, target)
    output.copy_to_host()
print("done", flush=True)
'''


def allocations_per_call(kind):
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run([sys.executable, "-c", STEADY_STATE, here, kind], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0 or "done" not in done.stdout:
        raise AssertionError(f"the {kind} calls failed ({done.returncode}):\n{done.stdout[-4000:]}")
    counts = []
    for line in done.stdout.splitlines():
        if line.startswith("call "):
            counts.append(0)
        elif "cuMemAlloc" in line and counts:
            counts[-1] += 1
    return counts


@unittest.skipUnless(cuda_usable(), "no usable CUDA device")
class CudaSteadyState(unittest.TestCase):

    def test_planned_calls_allocate_no_device_memory_after_the_first(self):
        plain, planned = allocations_per_call("plain"), allocations_per_call("planned")
        self.assertEqual(len(planned), 6)
        self.assertTrue(all(n > 0 for n in plain[1:]), f"the unplanned calls allocate {plain}: the case tests nothing")
        self.assertEqual(planned[1:], [0] * 5, f"planned calls allocate {planned} (unplanned {plain})")


if __name__ == "__main__":
    unittest.main()
