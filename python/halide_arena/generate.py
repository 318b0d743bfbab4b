"""halide-arena's generator main for Python generators.

    python -m halide_arena.generate my_generators.py -g sharpen -o out -e static_library,c_header \\
        target=host-arena harena.argument=arena

imports each .py file named before the generator arguments (its
@halide.generator classes register themselves), then runs as halide.main()
does, where `arena` in a target and harena.* options mean what they mean to
the C++ generator main (docs/usage/generator.md). A generator file can
instead end in `halide_arena.main()` and run as a script.
"""
import runpy
import sys

import halide  # noqa: F401  (registers nothing, but loads libHalide first)

from . import _planning


def run(argv=None):
    """Runs the generator main on argv (default sys.argv); exits with its code
    when it fails."""
    argv = list(sys.argv if argv is None else argv)
    code = _planning.generator_main(argv)
    if code != 0:
        raise SystemExit(code)


def _main():
    args = sys.argv[1:]
    files = []
    while args and args[0].endswith(".py"):
        files.append(args.pop(0))
    for f in files:
        runpy.run_path(f, run_name="__halide_arena_generators__")
    run(["halide_arena.generate"] + args)


if __name__ == "__main__":
    _main()
