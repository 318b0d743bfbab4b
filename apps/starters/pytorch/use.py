"""Calls the planned operator: python3 use.py build/libsharpen_ops.so."""

import json
import os
import sys

import torch

library = sys.argv[1]
torch.ops.load_library(library)
device = "cuda" if torch.cuda.is_available() else "cpu"
# The arena: the plan's bytes at the estimates, from the plan report beside the
# library, of the build this device calls (sharpen_cpu or sharpen_cuda). A call
# larger than the estimates raises with the bytes it needs.
with open(os.path.join(os.path.dirname(library), f"sharpen_{device}.arena.json")) as f:
    arena = torch.empty(json.load(f)["arena_bytes_at_estimates"], dtype=torch.uint8, device=device)

for call in range(3):  # one arena for every call
    image = torch.rand(768, 1024, device=device)  # (y, x)
    output = torch.empty_like(image)
    torch.ops.starter.sharpen(image, arena, output)  # intermediates lie in `arena`
    assert torch.isfinite(output).all()
flat = torch.full((768, 1024), 0.5, device=device)
torch.ops.starter.sharpen(flat, arena, output)
assert (output == 0.5).all(), "a flat image stays flat"
print("sharpen on", device, ": 4 calls, arena of", arena.numel(), "bytes")
