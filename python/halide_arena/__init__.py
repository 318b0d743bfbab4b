"""halide-arena from Python: plan a pipeline's intermediate buffers into one
arena argument (JIT), and build Python generators with the `arena` target
feature (halide_arena.generate).

    import halide as hl, halide_arena, numpy as np
    arena = hl.ImageParam(hl.UInt(8), 1, "arena")
    plan = halide_arena.plan(output, arena, target)   # output: a Func or a Pipeline
    memory = halide_arena.host_arena(plan.bytes_at_estimates)   # keep it alive
    arena.set(hl.Buffer(memory))
    output.realize(result, target)                    # intermediates lie in the arena
"""
import os as _os

# `halide` first: its module loads the libHalide this package links, so the
# process holds one.
import halide as _hl

from ._planning import JitPlanner  # noqa: E402
from ._callable import create_callable_from_generator  # noqa: E402,F401

__all__ = ["plan", "host_arena", "main", "create_callable_from_generator", "cmake_dir", "JitPlanner"]


def plan(pipeline, arena, target=None, *, pipeline_name="", report_dir="", trace=0, parallel_slots=16):
    """Plans `pipeline`'s intermediates (a halide.Pipeline, or a Func for its
    pipeline) into `arena`, a halide.ImageParam of UInt(8) and one dimension
    that no stage reads, whenever the pipeline is compiled for `target`
    (default: the host); compile it for that target only. Given a Func, the
    plan is of a new halide.Pipeline(func): realize `plan.pipeline`, not
    the Func (Halide 21 keeps a Func's own pipeline out of reach, so
    Func.realize stays unplanned). Returns the plan:
    `bytes_at_estimates` is what a call at the estimates needs,
    `bytes_for({name: extents or value, ...})` what a call at other sizes
    needs. Call it once, before the pipeline is first compiled. A call whose
    arena is too small raises halide.HalideError naming the arena, the bytes
    it holds and the bytes the call needs."""
    if isinstance(pipeline, _hl.Func):
        pipeline = _hl.Pipeline(pipeline)
    if not isinstance(pipeline, _hl.Pipeline):
        raise TypeError(f"halide_arena.plan: expected a halide.Pipeline or halide.Func, not {type(pipeline).__name__}")
    if not isinstance(arena, _hl.ImageParam):
        raise TypeError(f"halide_arena.plan: the arena is a halide.ImageParam(hl.UInt(8), 1, name), not "
                        f"{type(arena).__name__}")
    if target is None:
        target = _hl.get_host_target()
    return JitPlanner(pipeline, arena.parameter(), target, pipeline_name=pipeline_name, report_dir=str(report_dir),
                      trace=trace, parallel_slots=parallel_slots)


ALIGNMENT = 256  # the plan's offsets are multiples of it, from the arena's start


def host_arena(nbytes):
    """A numpy uint8 array of `nbytes` that starts at a multiple of 256 bytes
    (a host plan needs 128, as Halide's own allocations have; numpy aligns to
    16 only): pass
    halide.Buffer(host_arena(n)) and keep the array alive."""
    import numpy as np
    storage = np.zeros(int(nbytes) + ALIGNMENT, dtype=np.uint8)
    start = -storage.ctypes.data % ALIGNMENT
    return storage[start:start + int(nbytes)]


def main(argv=None):
    """halide.main() with the `arena` target feature and the harena.* options
    of halide-arena's C++ generator main, for the Python generators defined
    so far: `python my_generator.py -g name -o out target=host-arena`."""
    from .generate import run
    run(argv)


def cmake_dir():
    """The folder of HalideArenaConfig.cmake, for -DHalideArena_DIR (as
    pybind11 --cmakedir), or None where the package was not installed with
    its CMake package (a build tree)."""
    d = _os.path.join(_os.path.dirname(__file__), "lib", "cmake", "HalideArena")
    return d if _os.path.isfile(_os.path.join(d, "HalideArenaConfig.cmake")) else None
