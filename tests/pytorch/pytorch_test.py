"""The arena argument from PyTorch: Halide's PyTorch wrappers of the planned
and unplanned unsharp mask (unsharp_ops.cpp), called with tensors as a
PyTorch user calls them: new inputs on every call, the arena a torch.uint8
tensor from PyTorch's allocator, the current stream PyTorch's, and the
planned op captured and replayed inside torch.cuda.graph.

Usage: python3 pytorch_test.py OPS_LIBRARY PLAN_DIR [unittest arguments]
OPS_LIBRARY is libharena_torch_unsharp.so; PLAN_DIR holds the plans' JSON
reports (the build's generators/argument). CUDA cases skip without a GPU.
"""

import json
import os
import sys
import unittest

import torch

OPS_LIBRARY, PLAN_DIR = sys.argv[1], sys.argv[2]
torch.ops.load_library(OPS_LIBRARY)
ops = torch.ops.harena

# (width, height) of each call: the estimates, and smaller calls between.
SIZES = [(256, 192), (200, 150), (256, 192), (64, 48), (256, 192), (128, 96)]


def plan_bytes(library):
    """The arena bytes the plan needs at the estimates, from its report."""
    with open(os.path.join(PLAN_DIR, library + ".arena.json")) as f:
        return json.load(f)["arena_bytes_at_estimates"]


def new_input(call, width, height, device):
    """A fresh image for each call, (channel, y, x) in PyTorch's order, which
    Halide sees as (x, y, channel)."""
    generator = torch.Generator().manual_seed(2000 + call)
    return torch.rand((3, height, width), generator=generator).to(device)


def bits(t):
    return t.cpu().view(torch.int32)


class CpuOp(unittest.TestCase):
    def test_planned_output_matches_unplanned_on_every_call(self):
        arena = torch.empty(plan_bytes("argument_unsharp_arena"), dtype=torch.uint8)
        for call, (width, height) in enumerate(SIZES):
            with self.subTest(call=call):
                image = new_input(call, width, height, "cpu")
                expected = torch.full_like(image, float("nan"))
                actual = torch.full_like(image, float("nan"))
                ops.unsharp_plain(image, arena, expected)
                ops.unsharp_planned(image, arena, actual)
                self.assertFalse(expected.isnan().any())
                self.assertTrue(torch.equal(bits(actual), bits(expected)))


@unittest.skipUnless(torch.cuda.is_available(), "no CUDA device")
class CudaOp(unittest.TestCase):
    def setUp(self):
        self.bytes = plan_bytes("argument_unsharp_cuda_arena_torch")

    def test_planned_output_matches_unplanned_on_every_call_without_device_allocations(self):
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            arena = torch.empty(self.bytes, dtype=torch.uint8, device="cuda")
            ops.unsharp_planned(new_input(0, 64, 48, "cuda"), arena, torch.empty(3, 48, 64, device="cuda"))
            plain_allocations = 0
            planned_allocations = 0
            for call, (width, height) in enumerate(SIZES):
                with self.subTest(call=call):
                    image = new_input(call, width, height, "cuda")
                    expected = torch.full_like(image, float("nan"))
                    actual = torch.full_like(image, float("nan"))
                    before = ops.device_allocations()
                    ops.unsharp_plain(image, arena, expected)
                    middle = ops.device_allocations()
                    ops.unsharp_planned(image, arena, actual)
                    plain_allocations += middle - before
                    planned_allocations += ops.device_allocations() - middle
                    self.assertFalse(expected.isnan().any())
                    self.assertTrue(torch.equal(bits(actual), bits(expected)))
        self.assertGreater(plain_allocations, 0, "the unplanned op allocated nothing: the count sees nothing")
        self.assertEqual(planned_allocations, 0)

    def test_captured_in_a_cuda_graph_and_replayed_with_new_inputs(self):
        width, height = SIZES[0]
        arena = torch.empty(self.bytes, dtype=torch.uint8, device="cuda")
        static_input = new_input(0, width, height, "cuda")
        static_output = torch.empty_like(static_input)
        warmup = torch.cuda.Stream()
        warmup.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(warmup):
            ops.unsharp_planned(static_input, arena, static_output)
        torch.cuda.current_stream().wait_stream(warmup)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            ops.unsharp_planned(static_input, arena, static_output)
        for call in range(1, 7):
            with self.subTest(replay=call):
                image = new_input(call, width, height, "cuda")
                expected = torch.empty_like(image)
                ops.unsharp_plain(image, arena, expected)
                static_input.copy_(image)
                static_output.fill_(float("nan"))
                graph.replay()
                torch.cuda.synchronize()
                self.assertTrue(torch.equal(bits(static_output), bits(expected)))

    def test_a_too_small_arena_fails_the_call_and_names_the_sizes(self):
        arena = torch.full((64,), 0xA5, dtype=torch.uint8, device="cuda")
        image = new_input(0, 256, 192, "cuda")
        output = torch.full_like(image, 7.0)
        with self.assertRaisesRegex(RuntimeError, r"arena argument 'arena' of argument_unsharp_cuda_arena_torch "
                                    r"holds 64 bytes; this call needs \d+"):
            ops.unsharp_planned(image, arena, output)
        torch.cuda.synchronize()
        self.assertTrue(bool((arena == 0xA5).all()), "the refused call wrote into the arena")
        self.assertTrue(bool((output == 7.0).all()), "the refused call wrote its output")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
