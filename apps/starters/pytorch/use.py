"""Calls the planned operator: python3 use.py build/libsharpen_ops.so."""

import sys

import torch

torch.ops.load_library(sys.argv[1])
device = "cuda" if torch.cuda.is_available() else "cpu"
image = torch.rand(768, 1024, device=device)  # (y, x)
output = torch.empty_like(image)
# The arena: at least the plan's bytes at the estimates (sharpen_*.arena.json in
# the build, arena_bytes_at_estimates); a call larger than the estimates
# raises with the bytes it needs.
arena = torch.empty(4 << 20, dtype=torch.uint8, device=device)
torch.ops.starter.sharpen(image, arena, output)
print("sharpen on", device, "max", output.max().item())
