"""Calls the planned pipeline from Python: python3 main.py BUILD_DIR [OUTPUT.npy]."""

import os
import sys

import numpy as np

build = sys.argv[1]
sys.path.insert(0, build)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sharpen_ext  # noqa: E402
from arena_bytes import arena_bytes  # noqa: E402

image = np.random.default_rng(0).random((1024, 1536), dtype=np.float32)  # (y, x): larger than the estimates
output = np.empty_like(image)
# The pipeline says how many bytes a call at these sizes needs.
arena = np.zeros(arena_bytes(lambda a: sharpen_ext.sharpen(image, a, output)), dtype=np.uint8)
for call in range(3):  # one arena for every call of these sizes
    sharpen_ext.sharpen(image, arena, output)  # intermediates lie in `arena`
    assert np.isfinite(output).all()
if len(sys.argv) > 2:
    np.save(sys.argv[2], output)
flat = np.full((1024, 1536), 0.5, dtype=np.float32)
flat_output = np.empty_like(flat)
sharpen_ext.sharpen(flat, arena, flat_output)
assert (flat_output == 0.5).all(), "a flat image stays flat"
print("sharpen from Python: 4 calls, arena of", arena.size, "bytes")
