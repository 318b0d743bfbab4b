"""Planning Python pipelines from Python (halide_arena.plan), as a Python user
writes and calls them: each pipeline built twice, planned into an arena and
not, realized over calls with new numpy inputs of several sizes, the outputs
compared bit for bit. Host cases; cuda_test.py runs the same on CUDA."""
import os
import re
import sys
import unittest

import numpy as np
import halide as hl

import halide_arena

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jit_pipelines import DetailFilter, RadiusBlur  # noqa: E402

# (width, height) of each call: the estimates, smaller, and the estimates again.
CALL_SIZES = [(320, 240), (200, 150), (320, 240), (64, 48), (320, 240), (128, 96)]
BLUR_CALLS = [((256, 192), 2), ((100, 80), 1), ((256, 192), 2), ((64, 64), 2), ((256, 192), 1), ((32, 40), 2)]


def new_image(seed, shape, dtype):
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        return rng.random(shape, dtype=np.float32)
    return rng.integers(0, 4096, size=shape, dtype=dtype)


class HostJit(unittest.TestCase):
    """Host target; subclasses change target() and how the arena is made."""

    def target(self):
        return hl.get_host_target()

    def arena_buffer(self, nbytes):
        """The arena as a numpy array (halide_arena.host_arena: aligned as a
        plan needs), through Halide's own conversion of the buffer. A
        halide.Buffer made from an array borrows its memory, so the test
        keeps the array alive."""
        return hl.Buffer(self.keep(halide_arena.host_arena(nbytes)))

    def keep(self, array):
        self.__dict__.setdefault("_kept", []).append(array)
        return array

    def realize(self, pipeline, buffer):
        pipeline.realize(buffer, self.target())
        buffer.copy_to_host()
        return np.asarray(buffer).tobytes()

    def planned(self, build):
        """`build` twice: planned into an arena of its bytes at the
        estimates, and as it is. Returns (planned, plan, plain)."""
        target = self.target()
        planned, plain = build(target), build(target)
        arena = hl.ImageParam(hl.UInt(8), 1, "arena")
        plan = halide_arena.plan(planned.output, arena, target)
        self.assertGreater(plan.buffers, 0)
        self.assertEqual(plan.buffers_planned, plan.buffers, plan.unplanned)
        self.assertGreater(plan.bytes_at_estimates, 0)
        arena.set(self.arena_buffer(plan.bytes_at_estimates))
        planned.arena = arena
        return planned, plan, plain

    def test_detail_filter_planned_calls_match_unplanned_bit_for_bit(self):
        planned, plan, plain = self.planned(DetailFilter)
        for call, (w, h) in enumerate(CALL_SIZES):
            image = new_image(100 + call, (3, h, w), np.float32)
            planned.bind(image)
            plain.bind(image)
            got = self.realize(plan.pipeline, hl.Buffer(hl.Float(32), [w, h, 3]))
            want = self.realize(hl.Pipeline(plain.output), hl.Buffer(hl.Float(32), [w, h, 3]))
            self.assertEqual(got, want, f"call {call} at {w}x{h}")

    def test_radius_blur_planned_calls_match_unplanned_bit_for_bit(self):
        planned, plan, plain = self.planned(RadiusBlur)
        for call, ((w, h), radius) in enumerate(BLUR_CALLS):
            image = new_image(200 + call, (h, w), np.uint16)
            planned.bind(image, radius)
            plain.bind(image, radius)
            got = self.realize(plan.pipeline, hl.Buffer(hl.UInt(16), [w, h]))
            want = self.realize(hl.Pipeline(plain.output), hl.Buffer(hl.UInt(16), [w, h]))
            self.assertEqual(got, want, f"call {call} at {w}x{h}, radius {radius}")

    def test_bytes_for_is_what_a_call_at_those_sizes_needs(self):
        planned, plan, _ = self.planned(DetailFilter)
        w, h = 200, 150
        # An output is named as its Func is (Halide makes a repeated name unique).
        out = planned.output.name()
        needed = plan.bytes_for({"input": (w, h, 3), out: (w, h, 3)})
        self.assertLess(needed, plan.bytes_at_estimates)
        self.assertEqual(plan.bytes_for({"input": (320, 240, 3), out: (320, 240, 3)}), plan.bytes_at_estimates)
        planned.bind(new_image(7, (3, h, w), np.float32))
        planned.arena.set(self.arena_buffer(needed))
        self.realize(plan.pipeline, hl.Buffer(hl.Float(32), [w, h, 3]))
        short = needed - 256  # the plan's sizes are whole units of its 256-byte alignment
        planned.arena.set(self.arena_buffer(short))
        with self.assertRaisesRegex(hl.HalideError,
                                    rf"arena argument 'arena' of {re.escape(out)} holds {short} bytes; this call needs \d+"):
            self.realize(plan.pipeline, hl.Buffer(hl.Float(32), [w, h, 3]))

    def test_a_call_larger_than_the_estimates_is_refused_naming_both_sizes(self):
        planned, plan, _ = self.planned(DetailFilter)
        w, h = 640, 480
        planned.bind(new_image(8, (3, h, w), np.float32))
        needed = plan.bytes_for({"input": (w, h, 3), planned.output.name(): (w, h, 3)})
        with self.assertRaises(hl.HalideError) as raised:
            self.realize(plan.pipeline, hl.Buffer(hl.Float(32), [w, h, 3]))
        message = str(raised.exception)
        self.assertIn(f"holds {plan.bytes_at_estimates} bytes; this call needs ", message)
        need = int(message.split("this call needs ")[1].split(":")[0])
        self.assertTrue(needed - 256 < need <= needed, (need, needed))

    def test_bytes_for_names_what_it_does_not_know(self):
        _, plan, _ = self.planned(RadiusBlur)
        self.assertGreater(plan.bytes_for({"radius": 7}), plan.bytes_for({"radius": 1}))
        with self.assertRaisesRegex(Exception, r"has no argument 'radios' \(its arguments: .*radius"):
            plan.bytes_for({"radios": 3})
        with self.assertRaisesRegex(Exception, r"'input' is a buffer of 2 dimensions"):
            plan.bytes_for({"input": (3, 4, 5)})

    def test_a_host_arena_that_starts_unaligned_is_refused(self):
        if self.target().has_gpu_feature():
            self.skipTest("a device plan lies in the buffer's device memory")
        planned, plan, _ = self.planned(RadiusBlur)
        storage = self.keep(halide_arena.host_arena(plan.bytes_at_estimates + 64))
        planned.arena.set(hl.Buffer(storage[64:]))
        planned.bind(new_image(9, (192, 256), np.uint16), 2)
        with self.assertRaisesRegex(hl.HalideError, r"arena argument 'arena' of .* starts at an address that is not "
                                                    r"a multiple of 128 bytes"):
            self.realize(plan.pipeline, hl.Buffer(hl.UInt(16), [256, 192]))

    def test_an_arena_of_the_wrong_type_is_refused(self):
        target = self.target()
        pipeline = DetailFilter(target)
        with self.assertRaisesRegex(Exception, r"the arena 'wide' must be a buffer of UInt\(8\) and one dimension"):
            halide_arena.plan(pipeline.output, hl.ImageParam(hl.UInt(16), 1, "wide"), target)


class HostJitHalideBufferArena(HostJit):
    """The arena as a halide.Buffer of its own."""

    def arena_buffer(self, nbytes):
        return hl.Buffer(hl.UInt(8), [nbytes])


class HostJitTorchArena(HostJit):
    """The arena as a torch tensor (through numpy, which shares its memory)."""

    def setUp(self):
        try:
            import torch  # noqa: F401
        except ImportError:
            self.skipTest("torch is not installed")

    def arena_buffer(self, nbytes):
        import torch
        storage = self.keep(torch.zeros(nbytes + 256, dtype=torch.uint8))
        start = -storage.data_ptr() % 256
        return hl.Buffer(storage[start:start + nbytes].numpy())


class PlannedCallableFromGenerator(unittest.TestCase):
    """halide_arena.create_callable_from_generator against the generator's
    own compile_to_callable (Halide's create_callable_from_generator builds
    C++ generators only)."""

    def setUp(self):
        here = os.path.dirname(os.path.abspath(__file__))
        sys.path.insert(0, os.path.join(here, "generators"))
        import sharpen  # registers arena_sharpen
        self.generator_class = sharpen.ArenaSharpen

    def target(self):
        return hl.get_host_target()

    def test_planned_callable_matches_halide_callable_bit_for_bit(self):
        target = self.target()
        planned, plan = halide_arena.create_callable_from_generator(target, "arena_sharpen")
        with hl.GeneratorContext(target):
            plain = self.generator_class().compile_to_callable()
        self.assertEqual(plan.buffers_planned, 2, plan.unplanned)
        arena_memory, unused_memory = halide_arena.host_arena(plan.bytes_at_estimates), np.zeros(1, dtype=np.uint8)
        arena, unused = hl.Buffer(arena_memory), hl.Buffer(unused_memory)
        for call, (w, h) in enumerate([(256, 256), (100, 60), (256, 256), (17, 33), (256, 200), (128, 128)]):
            image = hl.Buffer(new_image(300 + call, (h, w), np.float32))
            got, want = hl.Buffer(hl.Float(32), [w, h]), hl.Buffer(hl.Float(32), [w, h])
            planned(image, arena, got)
            plain(image, unused, want)
            got.copy_to_host()
            want.copy_to_host()
            self.assertEqual(np.asarray(got).tobytes(), np.asarray(want).tobytes(), f"call {call}")

    def test_a_generator_without_the_arena_input_is_named(self):
        with self.assertRaisesRegex(ValueError, r"has no Input 'memory' \(its inputs: input, arena\)"):
            halide_arena.create_callable_from_generator(self.target(), "arena_sharpen", arena="memory")


if __name__ == "__main__":
    unittest.main()
