"""halide.create_callable_from_generator with the plan: a Python generator
whose unread Input buffer of UInt(8) and one dimension is the arena (as the
C++ generator main's harena.argument makes one)."""
import halide as hl

from ._planning import JitPlanner


def create_callable_from_generator(context, name, generator_params=None, *, arena="arena", pipeline_name="",
                                   report_dir="", trace=0, parallel_slots=16):
    """Builds the Python generator registered as `name` in `context` (a
    halide.GeneratorContext, or a halide.Target), plans it into its Input
    `arena`, and compiles it. Returns (callable, plan): the callable takes
    the generator's inputs and outputs as halide's does, the arena among
    them; plan.bytes_at_estimates is what a call at the estimates needs."""
    if isinstance(context, hl.Target):
        context = hl.GeneratorContext(context)
    generator = hl._create_python_generator(name, context)
    if generator is None:
        known = ", ".join(sorted(hl._get_python_generator_names())) or "none"
        raise ValueError(f"halide_arena: no Python generator '{name}' (defined: {known})")
    for key, value in (generator_params or {}).items():
        generator._set_generatorparam_value(key, value)
    pipeline = generator._build_pipeline()
    inputs = [a.name for a in generator._get_arginfos() if a.dir == hl.ArgInfoDirection.Input]
    if arena not in inputs:
        raise ValueError(f"halide_arena: generator '{name}' has no Input '{arena}' (its inputs: "
                         f"{', '.join(inputs) or 'none'}); declare {arena} = hl.InputBuffer(hl.UInt(8), 1) "
                         f"and leave it unread: its memory is the arena")
    target = context.target()
    plan = JitPlanner(pipeline, generator._get_input_parameter(arena), target,
                      pipeline_name=pipeline_name or name, report_dir=str(report_dir), trace=trace,
                      parallel_slots=parallel_slots)
    arguments = [generator._get_input_parameter(n)._to_argument() for n in inputs]
    return pipeline.compile_to_callable(arguments, target), plan
