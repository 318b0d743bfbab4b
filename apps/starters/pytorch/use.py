"""Calls the planned operator: python3 use.py build/libsharpen_ops.so."""

import sys

import torch

library = sys.argv[1]
torch.ops.load_library(library)
device = "cuda" if torch.cuda.is_available() else "cpu"

image = torch.rand(1024, 1536, device=device)  # (y, x): larger than the estimates
output = torch.empty_like(image)
# The arena: the pipeline of this device (sharpen_cpu or sharpen_cuda) says
# how many bytes a call at these sizes needs.
arena = torch.empty(torch.ops.starter.sharpen_arena_bytes(image, output), dtype=torch.uint8, device=device)

for call in range(3):  # one arena for every call of these sizes
    image = torch.rand(1024, 1536, device=device)
    torch.ops.starter.sharpen(image, arena, output)  # intermediates lie in `arena`
    assert torch.isfinite(output).all()
flat = torch.full((1024, 1536), 0.5, device=device)
torch.ops.starter.sharpen(flat, arena, output)
assert (output == 0.5).all(), "a flat image stays flat"
try:
    torch.ops.starter.sharpen(flat, arena[:-1], output)
    raise AssertionError("an arena a byte short of the answer was accepted")
except RuntimeError as e:
    assert "this call needs %d:" % arena.numel() in str(e), e
print("sharpen on", device, ": 4 calls, arena of", arena.numel(), "bytes, a byte less refused")
