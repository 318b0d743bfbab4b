#!/usr/bin/env python3
"""check_includes.py must fail on each kind of include it forbids: copies
runtime/src and planner/pass into a temporary folder, plants one violation of
each rule, and expects exit 1 with a message naming each one (and exit 0 on
the untouched copy).

Usage: planted_violations_test.py REPOSITORY_ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check_includes.py')

# (file to append to, or to create, relative to the copy; text; what the
# check must print about it)
PLANTED = [
    ('runtime/src/streams/order.cpp', '#include "core/arena.h"\n', 'within a feature only abi.cpp includes'),
    ('runtime/src/graph/key.cpp', '#include "errors.h"\n', 'name the folder (core/errors.h)'),
    ('runtime/src/stats/stats.cpp', '#include "graph/cache.h"\n', 'graph/cache.h is an internal of the feature'),
    ('runtime/src/core/bump.cpp', '#include "streams/state.h"\n', 'the core includes no feature header'),
    ('runtime/src/loose.cpp', '\n', 'lies directly in runtime/src'),
    ('planner/pass/size/preamble.cpp', '#include "report/capturability.h"\n', 'size/ includes only its own files'),
    ('planner/pass/types.cpp', '#include "size/preamble.h"\n', 'only arena_pass.cpp includes the folders'),
    ('planner/pass/stray.cpp', '\n', 'planner/pass/stray.cpp: lies in no folder of the pass'),
]


def check(root):
    done = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)
    return done.returncode, done.stdout


def main(argv):
    repo = argv[1]
    with tempfile.TemporaryDirectory() as copy:
        for tree in ('runtime/src', 'planner/pass'):
            shutil.copytree(os.path.join(repo, tree), os.path.join(copy, tree))
        code, out = check(copy)
        if code != 0:
            print(f'the untouched copy fails the check:\n{out}')
            return 1
        for path, text, _ in PLANTED:
            with open(os.path.join(copy, path), 'a', encoding='utf-8') as f:
                f.write(text)
        code, out = check(copy)
        missing = [f'{path}: expected "{expected}"' for path, _, expected in PLANTED
                   if not any(path in line and expected in line for line in out.splitlines())]
        if code != 1 or missing:
            print(f'exit {code}; not reported:\n' + '\n'.join(missing) + f'\ncheck printed:\n{out}')
            return 1
    print(f'planted_violations_test: all {len(PLANTED)} planted includes reported')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
