"""The Python side of the JIT report comparison (generator_test.py): builds a
Python generator's pipeline in the process, plans it into an arena argument
with halide_arena.plan, and compiles it for JIT, which writes its plan report.

Usage: python_jit_report.py GENERATOR_FILE GENERATOR TARGET REPORT_DIR
"""
import runpy
import sys

import halide as hl
import halide_arena

source, name, target_string, report_dir = sys.argv[1:]
runpy.run_path(source, run_name="__halide_arena_generators__")
target = hl.Target(target_string)
with hl.GeneratorContext(target):
    generator = hl._create_python_generator(name, hl.GeneratorContext(target))
    pipeline = generator._build_pipeline()
arena = hl.ImageParam(hl.UInt(8), 1, "arena")
plan = halide_arena.plan(pipeline, arena, target, pipeline_name=name, report_dir=report_dir)
pipeline.compile_jit(target)
print(plan.bytes_at_estimates)
