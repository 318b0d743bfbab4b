"""Calls the planned pipeline from Python: python3 main.py BUILD_DIR."""

import json
import os
import sys

import numpy as np

build = sys.argv[1]
sys.path.insert(0, build)
import sharpen_ext  # noqa: E402

# The plan's bytes at the estimates, from the plan report beside the library.
with open(os.path.join(build, "sharpen.arena.json")) as f:
    arena = np.zeros(json.load(f)["arena_bytes_at_estimates"], dtype=np.uint8)

for call in range(3):
    image = np.random.default_rng(call).random((768, 1024), dtype=np.float32)  # (y, x)
    output = np.empty_like(image)
    sharpen_ext.sharpen(image, arena, output)  # intermediates lie in `arena`
    assert np.isfinite(output).all()
flat = np.full((768, 1024), 0.5, dtype=np.float32)
sharpen_ext.sharpen(flat, arena, output)
assert (output == 0.5).all(), "a flat image stays flat"
print("sharpen from Python: 3 calls, arena of", arena.size, "bytes")
