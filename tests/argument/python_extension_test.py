"""The arena argument from Python: Halide's Python extension of the planned
unsharp mask (generators/argument), called as a Python user calls it, with
numpy arrays in and out, against the unplanned build of the same generator.

Usage: python3 python_extension_test.py BUILD_DIR [unittest arguments]
BUILD_DIR holds harena_argument_unsharp.abi3.so and the plans' JSON reports.
The CUDA cases skip where no CUDA device is usable.
"""

import contextlib
import ctypes
import json
import os
import sys
import tempfile
import unittest

import numpy as np

BUILD_DIR = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HARENA_ARGUMENT_BUILD_DIR", ".")
sys.path.insert(0, BUILD_DIR)
import harena_argument_unsharp as unsharp  # noqa: E402

# The starter's query helper, as the Python starter uses it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "apps", "starters", "python"))
from arena_bytes import arena_bytes  # noqa: E402

CALLS = 6
SIZES = [(256, 192), (256, 192), (200, 150), (256, 192), (64, 48), (256, 192)]


def plan_bytes(library):
    """The arena bytes the plan needs at the estimates, from its report."""
    with open(os.path.join(BUILD_DIR, library + ".arena.json")) as f:
        return json.load(f)["arena_bytes_at_estimates"]


def cuda_usable():
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


def new_input(call, width, height):
    """A fresh image for each call: (channel, y, x) in numpy's order, which
    Halide sees as (x, y, channel)."""
    rng = np.random.default_rng(1000 + call)
    return rng.random((3, height, width), dtype=np.float32)


@contextlib.contextmanager
def captured_stderr():
    """What the extension's C code writes to file descriptor 2."""
    text = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as f:
        os.dup2(f.fileno(), 2)
        try:
            yield text
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            f.seek(0)
            text.append(f.read().decode(errors="replace"))


class ArenaArgumentFromPython:
    """The cases shared by the host and the CUDA build (mixin)."""

    plain = None
    planned = None
    library = None

    def test_planned_output_matches_unplanned_on_every_call(self):
        arena = np.zeros(plan_bytes(self.library), dtype=np.uint8)
        outputs = {}  # one pair of output arrays per size, reused by every call of that size
        for call, (width, height) in enumerate(SIZES[:CALLS]):
            with self.subTest(call=call, width=width, height=height):
                image = new_input(call, width, height)
                expected, actual = outputs.setdefault((width, height), (np.empty_like(image), np.empty_like(image)))
                expected.fill(np.nan)
                actual.fill(np.nan)
                self.plain(image, arena, expected)
                self.planned(image, arena, actual)
                self.assertFalse(np.isnan(expected).any())
                np.testing.assert_array_equal(actual.view(np.uint32), expected.view(np.uint32))

    def test_the_answer_is_exactly_the_bytes_the_call_needs(self):
        for call, (width, height) in enumerate([(256, 192), (700, 500), (64, 48), (333, 201)]):
            with self.subTest(width=width, height=height):
                image = new_input(call, width, height)
                expected, actual = np.empty_like(image), np.full_like(image, np.nan)
                needed = arena_bytes(lambda a: self.planned(image, a, actual))
                self.assertGreater(needed, 0)
                self.assertTrue(np.isnan(actual).all(), "the query ran the pipeline")
                self.plain(image, np.zeros(1, dtype=np.uint8), expected)
                self.planned(image, np.zeros(needed, dtype=np.uint8), actual)
                np.testing.assert_array_equal(actual.view(np.uint32), expected.view(np.uint32))
                with captured_stderr() as err, self.assertRaises(RuntimeError):
                    self.planned(image, np.zeros(needed - 1, dtype=np.uint8), actual)
                self.assertIn("holds %d bytes; this call needs %d:" % (needed - 1, needed), err[0])

    def test_the_unplanned_build_needs_no_bytes(self):
        image = new_input(0, 256, 192)
        self.assertEqual(arena_bytes(lambda a: self.plain(image, a, np.empty_like(image))), 0)

    def test_a_too_small_arena_fails_the_call_and_names_the_sizes(self):
        arena = np.full(64, 0xA5, dtype=np.uint8)
        image = new_input(0, 256, 192)
        output = np.full_like(image, 7.0)
        with captured_stderr() as err, self.assertRaises(RuntimeError):
            self.planned(image, arena, output)
        self.assertRegex(err[0], r"arena argument 'arena' of %s holds 64 bytes; this call needs \d+" % self.library)
        self.assertTrue((arena == 0xA5).all(), "the refused call wrote into the arena")
        self.assertTrue((output == 7.0).all(), "the refused call wrote its output")


class HostArenaArgument(ArenaArgumentFromPython, unittest.TestCase):
    plain = staticmethod(unsharp.argument_unsharp_plain)
    planned = staticmethod(unsharp.argument_unsharp_arena)
    library = "argument_unsharp_arena"

    def test_a_halide_buffer_serves_as_the_arena(self):
        try:
            import halide as hl
        except ImportError:
            self.skipTest("Halide's Python bindings are not installed")
        arena = hl.Buffer(hl.UInt(8), [plan_bytes(self.library)])
        image = new_input(0, 256, 192)
        expected = np.zeros_like(image)
        actual = np.zeros_like(image)
        self.plain(image, arena, expected)
        self.planned(image, arena, actual)
        np.testing.assert_array_equal(actual.view(np.uint32), expected.view(np.uint32))


@unittest.skipUnless(cuda_usable(), "no usable CUDA device")
class CudaArenaArgument(ArenaArgumentFromPython, unittest.TestCase):
    plain = staticmethod(unsharp.argument_unsharp_cuda_plain)
    planned = staticmethod(unsharp.argument_unsharp_cuda_arena)
    library = "argument_unsharp_cuda_arena"


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[2:], verbosity=2)
