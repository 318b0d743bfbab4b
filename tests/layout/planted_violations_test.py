#!/usr/bin/env python3
"""check_includes.py must fail on each kind of include it forbids, in every
folder it covers: copies the checked folders and docs/design.md (whose table
the check reads) into a temporary folder, plants one violation of each rule
and one in each component's folders, and expects exit 1 with a message
naming each one (and exit 0 on the untouched copy).

Usage: planted_violations_test.py REPOSITORY_ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check_includes.py')
DESIGN = os.path.join('docs', 'design.md')
# The folders the check covers (docs/design.md's table).
CHECKED = ('planner/solver', 'planner/pass', 'planner/tools', 'runtime', 'generators', 'apps', 'bench', 'tests/support',
           'python')

# (file to append to, or to create, relative to the copy; text; what the
# check must print about it)
PLANTED = [
    ('runtime/src/streams/order.cpp', '#include "core/arena.h"\n', 'within a feature only abi.cpp includes'),
    ('runtime/src/graph/key.cpp', '#include "errors.h"\n', 'name the folder (core/errors.h)'),
    ('runtime/src/graph/key.cpp', '#include "nvtx/client.h"\n', 'nvtx/client.h is an internal of the feature'),
    ('runtime/src/core/bump.cpp', '#include "streams/state.h"\n', 'the core includes no feature header'),
    ('runtime/src/stats/stats.cpp', '#include "graph/cache.h"\n', 'the core includes no feature header'),
    ('runtime/src/loose.cpp', '\n', 'lies directly in runtime/src'),
    ('planner/pass/size/preamble.cpp', '#include "report/capturability.h"\n', 'size/ includes only its own files'),
    ('planner/pass/types.cpp', '#include "size/preamble.h"\n', 'only arena_pass.cpp includes the folders'),
    ('planner/pass/stray.cpp', '\n', 'planner/pass/stray.cpp: lies in no folder of the pass'),
    # One include of a component its row does not name, in each component.
    ('planner/solver/problem.cpp', '#include "harena/runtime.h"\n', 'solver does not include runtime API'),
    ('runtime/include/harena/runtime.h', '#include "solver/problem.h"\n', 'runtime API does not include solver'),
    ('planner/pass/types.cpp', '#include "harena_libcuda.h"\n', 'pass does not include libcuda'),
    ('planner/tools/harena_plan.cpp', '#include "harena/runtime.h"\n', 'tools does not include runtime API'),
    ('runtime/libcuda/current_context.h', '#include "harena/runtime.h"\n', 'libcuda does not include runtime API'),
    ('runtime/src/core/errors.cpp', '#include "solver/problem.h"\n', 'runtime core does not include solver'),
    ('runtime/src/debug/records.cpp', '#include "growth/state.h"\n', 'checking does not include growth'),
    ('runtime/src/measure/measure.cpp', '#include "streams/state.h"\n', 'growth does not include stream order'),
    ('runtime/src/companion/abi.cpp', '#include "checking/state.h"\n', 'host companion does not include checking'),
    ('runtime/src/streams/spans.cpp', '#include "graph/key.h"\n', 'stream order does not include graphs'),
    ('runtime/src/graph/key.cpp', '#include "streams/state.h"\n', 'graphs does not include stream order'),
    ('runtime/src/graph/cache.cpp', '#include "nvtx/state.h"\n', 'graphs does not include checking'),
    ('runtime/override/counters.cpp', '#include "harena/rmm.hpp"\n', 'override does not include RMM'),
    ('runtime/launch/module_table.cpp', '#include "solver/problem.h"\n', 'launch does not include solver'),
    ('runtime/rmm/src/resource_arena.cpp', '#include "core/errors.h"\n', 'RMM does not include runtime core'),
    ('generators/corpus/planted.cpp', '#include "harena/runtime.h"\n', 'generators does not include runtime API'),
    ('apps/planted.cpp', '#include "solver/problem.h"\n', 'apps does not include solver'),
    ('tests/support/planted.cpp', '#include "harena/rmm.hpp"\n', 'test support does not include RMM'),
    ('python/src/module.cpp', '#include "harena/runtime.h"\n', 'python does not include runtime API'),
    # The solver's folders.
    ('planner/solver/detail/common/describe.cpp', '#include "solver/detail/greedy/first_fit.h"\n',
     'detail/common/ includes only its own files'),
    ('planner/solver/detail/greedy/first_fit.cpp', '#include "solver/detail/exact/search.h"\n',
     'detail/greedy/ includes only its own files'),
    ('planner/solver/detail/exact/cuts.cpp', '#include "solver/detail/greedy/free_list.h"\n',
     'detail/exact/ includes only its own files'),
    ('planner/solver/detail/loose.cpp', '\n', 'lies in no folder of detail/'),
    ('bench/planted.cpp', '#include "core/errors.h"\n', 'bench does not include runtime core'),
    # Outside runtime/src, a feature's internal; a runtime header by its bare name.
    ('runtime/override/counters.cpp', '#include "graph/cache.h"\n', 'graph/cache.h is an internal of the runtime'),
    ('runtime/launch/module_table.cpp', '#include "arena_core.h"\n', 'name it from its root'),
]
# Rows of the design page's table changed in the copy: (old row, new row,
# what the check must print).
PLANTED_ROWS = [
    ('| solver | planner/solver | |', '| solver | planner/solver | tools |', 'the components form a cycle'),
    ('| libcuda | runtime/libcuda | |', '| libcuda | runtime/libcuda | solver |',
     'the table says libcuda includes solver, but no source of libcuda does'),
]


def check(root):
    done = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)
    return done.returncode, done.stdout


def main(argv):
    repo = argv[1]
    with tempfile.TemporaryDirectory() as copy:
        for tree in CHECKED:
            shutil.copytree(os.path.join(repo, tree), os.path.join(copy, tree))
        os.makedirs(os.path.join(copy, 'docs'))
        shutil.copy(os.path.join(repo, DESIGN), os.path.join(copy, DESIGN))
        code, out = check(copy)
        if code != 0:
            print(f'the untouched copy fails the check:\n{out}')
            return 1
        for path, text, _ in PLANTED:
            with open(os.path.join(copy, path), 'a', encoding='utf-8') as f:
                f.write(text)
        design = os.path.join(copy, DESIGN)
        with open(design, encoding='utf-8') as f:
            page = f.read()
        for old, new, _ in PLANTED_ROWS:
            if old not in page:
                print(f'{DESIGN} has no row {old}: update PLANTED_ROWS')
                return 1
            page = page.replace(old, new)
        with open(design, 'w', encoding='utf-8') as f:
            f.write(page)
        code, out = check(copy)
        lines = out.splitlines()
        missing = [f'{path}: expected "{expected}"' for path, _, expected in PLANTED
                   if not any(path in line and expected in line for line in lines)]
        missing += [f'{DESIGN} row {new}: expected "{expected}"' for _, new, expected in PLANTED_ROWS
                    if not any(DESIGN in line and expected in line for line in lines)]
        if code != 1 or missing:
            print(f'exit {code}; not reported:\n' + '\n'.join(missing) + f'\ncheck printed:\n{out}')
            return 1
    print(f'planted_violations_test: all {len(PLANTED)} planted includes and {len(PLANTED_ROWS)} planted rows reported')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
