#!/usr/bin/env python3
"""Checks which way includes run across the tree; exits 1 naming each file
and include that runs the wrong way.

Between components: docs/design.md's table "Components" names each
component, its folders and the components it includes. Every source (.h,
.hpp, .cpp, .cc) below a component's folders is checked:
- a quoted include is resolved as the compiler would find it: next to the
  including file, else below one of INCLUDE_ROOTS; one that resolves nowhere
  is not this check's (Halide, CUDA, generated headers), unless a source of
  the tree has that name, which then must be named from its root;
- the included file's component is the including one or one its row names;
- every component a row names is included by some source of the row's
  component, so the table stays exact;
- the table has no cycle, and its folders exist;
- outside runtime/src, only the core's headers and the headers EXPORTED
  names are included from runtime/src.

Inside runtime/src: the arena core (CORE_FOLDERS: core/ and the core's
parts that keep a folder of their own) and one folder per feature; the
table's rows say which feature includes which. A feature folder holds its
state header (state.h: the feature's state of an arena, which the core
knows only as an opaque pointer), its logic, and abi.cpp with its hooks and
C entry points. Includes are written from runtime/src ("core/arena.h",
"streams/spans.h").
- Every source lies in a folder: none directly in runtime/src.
- The core includes no feature header.
- Within a feature, only abi.cpp includes core/arena.h: the rest of the
  feature works on its own state, the core's own headers, and the parts of
  the arena it is handed (streams/ a StreamArena, graph/ a GraphArena, each
  made by its abi.cpp).
- A feature includes no other feature's internals: of another feature, only
  its state.h, or a header EXPORTED names.
- An include of a runtime source names its folder ("core/errors.h", not
  "errors.h").

planner/pass is four folders over two shared headers. size/ decides which
buffers are planned and how large they are, rewrite/ turns the plan into the
statement's slices and runtime calls, report/ writes the plan report, and
generator/ attaches the pass to a generator. Includes are written from
planner/pass ("size/preamble.h", "types.h").
- A folder includes only its own files, the shared headers (SHARED: types.h,
  the types the folders share, and runtime_calls.h, the one place the pass
  names the runtime, which rewrite/ emits and report/ recognises) and the
  Halide layer (HALIDE_LAYER: what the pass knows of Halide itself, which
  includes nothing of the pass); generator/, which runs the pass, also
  arena_pass.h.
- The shared headers and the Halide layer include nothing of the folders;
  only arena_pass.cpp, which composes them, includes every folder.

planner/solver: the public headers on top, and behind solve() three folders
of detail/: common/ (what both ways of placing use), greedy/ (the greedy
passes) and exact/ (the exact search). Includes are written from planner
("solver/detail/common/prepared.h").
- common/ includes neither greedy/ nor exact/; greedy/ and exact/ include
  only their own files, common/ and the public headers, never each other
  (the exact search gets the greedy plan from solver.cpp, which composes
  them).

Usage: check_includes.py [REPOSITORY_ROOT]  (default: two folders above this file)
Python 3 standard library only.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_SUFFIXES = ('.h', '.hpp', '.cpp', '.cc')

RUNTIME_SRC = os.path.join('runtime', 'src')
CORE = 'core'
# The folders of the arena core: core/ and the parts of the core that keep a
# folder of their own (the CUDA binding, the slice log, statistics, the
# pipeline and argument ABI the pass emits).
CORE_FOLDERS = (CORE, 'cuda', 'slices', 'stats', 'pipeline', 'arguments')
ARENA_HEADER = 'core/arena.h'
STATE_HEADER = 'state.h'

# Headers of a feature other than state.h that other features may include.
EXPORTED = {
    'graph/unplanned_calls.h': 'the runners the override lends the graph cache for pipelines built without the arena',
    'graph/kernel_notes.h': 'where the launch path tells the graph cache which PTX each kernel it loads comes from',
}


PASS = os.path.join('planner', 'pass')
PASS_FOLDERS = ('size', 'rewrite', 'report', 'generator')
TYPES_HEADER = 'types.h'
SHARED = (TYPES_HEADER, 'runtime_calls.h')
HALIDE_LAYER = ('halide_compat.h', 'host_allocation.h')
PASS_ENTRY = 'arena_pass.h'
PASS_COMPOSER = 'arena_pass.cpp'
# The files that lie directly in planner/pass: the pass's entry, the shared
# headers and the Halide layer.
PASS_TOP_LEVEL = (PASS_ENTRY, PASS_COMPOSER, 'types.cpp', 'runtime_calls.cpp', 'host_allocation.cpp') + SHARED + HALIDE_LAYER


def sources(root, folder):
    """Source files below folder, as paths relative to it with '/' separators."""
    base = os.path.join(root, folder)
    found = []
    for top, dirs, files in os.walk(base):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                found.append(os.path.relpath(os.path.join(top, name), base).replace(os.sep, '/'))
    return found


def includes(path):
    """(line number, included name) of each quoted include in the file."""
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def folder_of(relative):
    return relative.split('/')[0] if '/' in relative else ''


def project_includes(base, prefix, files, placed, failures):
    """(file, where, included name, its folder) of each include of one of
    `files` by a file `placed` accepts (one it does not is a failure it
    reports and returns True for); an include of one by its bare name is a
    failure, and includes of anything else are not this check's."""
    known = set(files)
    basenames = {}
    for f in files:
        basenames.setdefault(os.path.basename(f), []).append(f)
    for f in files:
        if not placed(f):
            continue
        for number, name in includes(os.path.join(base, f)):
            at = f'{prefix}/{f}:{number}: #include "{name}"'
            if name in known:
                yield f, at, name, folder_of(name)
            elif '/' not in name and name in basenames:
                failures.append(f'{at}: name the folder ({" or ".join(basenames[name])})')


def runtime_failures(root):
    base = os.path.join(root, RUNTIME_SRC)
    if not os.path.isdir(base):
        return [f'{RUNTIME_SRC}: not found']
    files = sources(root, RUNTIME_SRC)
    failures = []

    def placed(f):
        if folder_of(f):
            return True
        failures.append(f'{RUNTIME_SRC}/{f}: lies directly in {RUNTIME_SRC}; put it in core/ or its feature\'s folder')
        return False

    for f, at, name, target in project_includes(base, RUNTIME_SRC, files, placed, failures):
        folder = folder_of(f)
        if target == folder:
            continue
        if folder in CORE_FOLDERS:
            if target not in CORE_FOLDERS:
                failures.append(f'{at}: the core includes no feature header; let the feature attach through '
                                f'a hook table of the core (core/checking.h, core/streams.h)')
            continue
        if name == ARENA_HEADER:
            if os.path.basename(f) != 'abi.cpp':
                failures.append(f'{at}: within a feature only abi.cpp includes {ARENA_HEADER}; move the code '
                                f'that needs the whole arena there, or work on the feature\'s state')
            continue
        if target in CORE_FOLDERS:
            continue
        if os.path.basename(name) != STATE_HEADER and name not in EXPORTED:
            failures.append(f'{at}: {name} is an internal of the feature {target}/; include its '
                            f'{STATE_HEADER}, or reach it through the core')
    for f in sorted(EXPORTED):
        if f not in files:
            failures.append(f'{__file__}: EXPORTED names {RUNTIME_SRC}/{f}, which does not exist')
    return failures


def pass_failures(root):
    base = os.path.join(root, PASS)
    if not os.path.isdir(base):
        return [f'{PASS}: not found']
    files = [f for f in sources(root, PASS) if not f.startswith('include/')]
    failures = []

    def placed(f):
        folder = folder_of(f)
        if (folder and folder not in PASS_FOLDERS) or (not folder and f not in PASS_TOP_LEVEL):
            failures.append(f'{PASS}/{f}: lies in no folder of the pass; put it in one of {", ".join(PASS_FOLDERS)}')
            return False
        return True

    for f, at, name, target in project_includes(base, PASS, files, placed, failures):
        folder = folder_of(f)
        if not folder:
            if f != PASS_COMPOSER and target:
                failures.append(f'{at}: only {PASS_COMPOSER} includes the folders; {f} lies below them')
            continue
        if target == folder or name in SHARED or name in HALIDE_LAYER:
            continue
        if name == PASS_ENTRY and folder == 'generator':
            continue
        failures.append(f'{at}: {folder}/ includes only its own files, {" and ".join(SHARED)} and the Halide '
                        f'layer; move what it needs into {TYPES_HEADER}, or let {PASS_COMPOSER} hand it over')
    return failures

SOLVER = os.path.join('planner', 'solver')
SOLVER_DETAIL = 'detail'
SOLVER_SHARED = 'common'
SOLVER_WAYS = ('greedy', 'exact')


def solver_failures(root):
    base = os.path.join(root, SOLVER)
    if not os.path.isdir(base):
        return [f'{SOLVER}: not found']
    failures = []
    for f in sources(root, SOLVER):
        parts = f.split('/')
        if parts[0] != SOLVER_DETAIL:
            continue
        if len(parts) < 3 or parts[1] not in (SOLVER_SHARED,) + SOLVER_WAYS:
            failures.append(f'{SOLVER}/{f}: lies in no folder of detail/; put it in one of '
                            f'{", ".join((SOLVER_SHARED,) + SOLVER_WAYS)}')
            continue
        folder = parts[1]
        for number, name in includes(os.path.join(base, f)):
            prefix = f'solver/{SOLVER_DETAIL}/'
            if not name.startswith(prefix):
                continue
            target = name[len(prefix):].split('/')[0]
            if target == folder or target == SOLVER_SHARED:
                continue
            failures.append(f'{SOLVER}/{f}:{number}: #include "{name}": detail/{folder}/ includes only its own '
                            f'files, detail/{SOLVER_SHARED}/ and the public headers; let solver.cpp hand over '
                            f'what it needs')
    return failures


DESIGN = os.path.join('docs', 'design.md')
TABLE_HEADING = 'Components'
TABLE_COLUMNS = ('component', 'folders', 'includes')
# Where a quoted include that is not next to its file is looked for, as the
# targets' include directories give them (CMakeLists.txt files).
INCLUDE_ROOTS = ('runtime/src', 'runtime/include', 'runtime/rmm/include', 'runtime/libcuda', 'planner',
                 'planner/pass', 'planner/pass/include', 'tests/support', 'tests/support/corpus', 'bench/common', 'bench/gpu',
                 'apps/common')


def component_table(root):
    """{component: (folders, included components)} from the design page's
    table, in the table's order, or a failure text."""
    path = os.path.join(root, DESIGN)
    if not os.path.isfile(path):
        return None, f'{DESIGN}: not found; it holds the table of components this check enforces'
    rows, heading, in_table = {}, None, False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('## '):
                heading = line[3:].strip()
                continue
            if heading != TABLE_HEADING or not line.startswith('|'):
                in_table = in_table and line.startswith('|')
                continue
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if tuple(c.lower() for c in cells) == TABLE_COLUMNS:
                in_table = True
                continue
            if not in_table or set(''.join(cells)) <= set('-: '):
                continue
            if len(cells) != len(TABLE_COLUMNS):
                return None, f'{DESIGN}: a row of "{TABLE_HEADING}" has {len(cells)} cells: {line.strip()}'
            split = lambda cell: tuple(c.strip() for c in cell.split(',') if c.strip())
            rows[cells[0]] = (split(cells[1]), split(cells[2]))
    if not rows:
        return None, f'{DESIGN}: no table with columns {", ".join(TABLE_COLUMNS)} under "## {TABLE_HEADING}"'
    return rows, None


def table_failures(root, rows):
    failures = []
    for name, (folders, uses) in rows.items():
        for folder in folders:
            if not os.path.isdir(os.path.join(root, folder)):
                failures.append(f'{DESIGN}: component {name} names {folder}, which does not exist')
        for used in uses:
            if used not in rows:
                failures.append(f'{DESIGN}: component {name} includes {used}, which is no component of the table')
    # Depth-first search for a cycle among the rows.
    state = {}

    def visit(name, path):
        state[name] = 'open'
        for used in rows[name][1]:
            if used not in rows:
                continue
            if state.get(used) == 'open':
                failures.append(f'{DESIGN}: the components form a cycle: {" -> ".join(path + [name, used])}')
            elif used not in state:
                visit(used, path + [name])
        state[name] = 'done'

    for name in rows:
        if name not in state:
            visit(name, [])
    return failures


def owner(rows, relative):
    """The component whose folder holds the file (the longest folder wins), or None."""
    best, length = None, -1
    for name, (folders, _) in rows.items():
        for folder in folders:
            if (relative == folder or relative.startswith(folder + '/')) and len(folder) > length:
                best, length = name, len(folder)
    return best


def resolve(root, relative, name):
    """The tree's file (relative to root) that `#include "name"` in `relative`
    finds, or None."""
    for candidate in [os.path.join(os.path.dirname(relative), name)] + [os.path.join(r, name) for r in INCLUDE_ROOTS]:
        candidate = os.path.normpath(candidate).replace(os.sep, '/')
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def component_failures(root):
    rows, failure = component_table(root)
    if failure:
        return [failure]
    failures = table_failures(root, rows)
    files = {}
    for name, (folders, _) in rows.items():
        for folder in folders:
            for f in sources(root, folder):
                files[f'{folder}/{f}'] = name
    basenames = {}
    for f in files:
        basenames.setdefault(os.path.basename(f), []).append(f)
    used = set()
    for f, component in sorted(files.items()):
        for number, name in includes(os.path.join(root, f)):
            at = f'{f}:{number}: #include "{name}"'
            target = resolve(root, f, name)
            if target is None:
                if os.path.basename(name) in basenames:
                    failures.append(f'{at}: found only through an include directory; name it from its root '
                                    f'({" or ".join(basenames[os.path.basename(name)])})')
                continue
            target_component = owner(rows, target)
            if target_component is None or target_component == component:
                continue
            if target_component not in rows[component][1]:
                failures.append(f'{at}: {component} does not include {target_component} ({target}); '
                                f'{DESIGN}\'s table says what {component} includes')
                continue
            used.add((component, target_component))
            inside = target[len(RUNTIME_SRC) + 1:] if target.startswith(RUNTIME_SRC + '/') else None
            if (inside is not None and not f.startswith(RUNTIME_SRC + '/') and folder_of(inside) not in CORE_FOLDERS
                    and inside not in EXPORTED):
                failures.append(f'{at}: {inside} is an internal of the runtime\'s feature {folder_of(inside)}/; '
                                f'outside runtime/src include the core\'s headers, or a header EXPORTED names')
    for name, (_, uses) in rows.items():
        for u in uses:
            if u in rows and (name, u) not in used:
                failures.append(f'{DESIGN}: the table says {name} includes {u}, but no source of {name} does; '
                                f'remove it from the row')
    return failures


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    failures = component_failures(root) + runtime_failures(root) + pass_failures(root) + solver_failures(root)
    for failure in failures:
        print(failure)
    if failures:
        print(f'check_includes: {len(failures)} include(s) run the wrong way')
        return 1
    print('check_includes: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
