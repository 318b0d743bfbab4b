#!/usr/bin/env python3
"""Checks the project's Markdown pages; exits 1 naming each failure.

- Every relative link in README.md, docs/**/*.md, bench/**/README.md and
  tests/**/README.md resolves to a file or folder of the tree. Links with a
  scheme (https:, mailto:) are not checked; a link starting with / is taken
  from the repository root, as GitHub does. Links inside code (fenced blocks,
  `spans`) are not links and are skipped.
- A link's #fragment into a Markdown page (or into the same page) names one
  of that page's headings, as GitHub makes their anchors.
- A section of a results page quoted by its title right after a link to the
  page (`[gpu-bench.md](...), "Many threads"`) is the start of one of that
  page's headings, so that a renamed section is not cited under its old name.
- Every folder directly under docs/results/ is linked (the folder itself or
  something inside it) from at least one of those pages, and so is every run
  below it: each folder below docs/results/<page>/ that holds files is
  linked, or a folder above it (below docs/results/<page>/) is, or something
  inside it is. A link to docs/results/<page>/ vouches for the files directly
  in it, not for the run folders below it.
- docs/results/README.md is the index: a table whose header names the date,
  commit, GPU, Halide release and command, with a row linking every other
  page of docs/results/.
- README.md is shorter than 200 lines: detail belongs in docs/usage/ and
  docs/results/, the README says what the project is and where to read on.

Facts that the pages state about the tree:
- Every count of the corpus's pipelines ("the sixteen pipelines of
  generators/corpus", "all 16 corpus pipelines", "generators/corpus, sixteen
  pipelines"), in words or digits and across a line break, equals the number
  of generators generators/corpus/CMakeLists.txt lists in
  HARENA_CORPUS_GENERATORS. A count of some of them ("two corpus pipelines")
  is not a claim about the whole and is not checked.
- The source-tree table (docs/usage/install.md, "The source tree") names, in
  its first column, every folder directly under planner/ and runtime/ and the
  top-level generators, apps, bench and tests, and no folder that does not
  exist.
- The table of fuzz targets in tests/fuzz/README.md names exactly the targets
  tests/fuzz/fuzz_targets.cmake defines (harena_fuzz_target), and every file
  of its "file" column exists in tests/fuzz/ (a `*` matches as in a shell).

Usage: check_docs.py [REPOSITORY_ROOT]  (default: two folders above this file)
Python 3 standard library only.
"""
import glob
import os
import re
import sys
import urllib.parse

README_MAX_LINES = 200
RESULTS = os.path.join('docs', 'results')
INDEX = os.path.join(RESULTS, 'README.md')
INDEX_COLUMNS = ('date', 'commit', 'gpu', 'halide', 'command')

CORPUS_CMAKE = os.path.join('generators', 'corpus', 'CMakeLists.txt')
# set(HARENA_CORPUS_GENERATORS a b c): the first such set with names, not ${...}.
CORPUS_SET = re.compile(r'set\(\s*HARENA_CORPUS_GENERATORS\s+([^)$]*)\)')
NUMBER_WORDS = ('zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen '
                'sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three twenty-four '
                'twenty-five twenty-six twenty-seven twenty-eight twenty-nine thirty').split()
COUNT = r'(?P<count>\d+|' + '|'.join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r')'
# Claims about the whole corpus, matched in a paragraph with its code marks dropped.
CORPUS_CLAIMS = tuple(re.compile(pattern, re.IGNORECASE) for pattern in (
    r'\b(?:the|all|all the)\s+' + COUNT + r'\s+corpus\s+pipelines\b',
    r'\b(?:the|all|all the)\s+' + COUNT + r'\s+pipelines\s+(?:of|in)\s+(?:the\s+)?(?:generators/corpus|corpus)\b',
    r"\bcorpus(?:'s)?\s+" + COUNT + r'\s+pipelines\b',
    r'\bgenerators/corpus/?,\s+' + COUNT + r'\s+pipelines\b',
))

SOURCE_TREE_PAGE = os.path.join('docs', 'usage', 'install.md')
SOURCE_TREE_HEADING = 'The source tree'
# Every folder directly under these is a part of the product the table names...
PRODUCT_PARENTS = ('planner', 'runtime')
# ...and so are these top-level folders.
PRODUCT_TOP = ('generators', 'apps', 'bench', 'tests')

FUZZ_README = os.path.join('tests', 'fuzz', 'README.md')
FUZZ_TARGETS = os.path.join('tests', 'fuzz', 'fuzz_targets.cmake')
FUZZ_TARGET = re.compile(r'^\s*harena_fuzz_target\(\s*([A-Za-z0-9_]+)', re.MULTILINE)

# [text](target) and ![alt](target); the target may be <wrapped> and may be
# followed by a "title". Nested brackets in the text are rare in these pages
# and not supported.
INLINE_LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)')
# [label]: target
REFERENCE_DEFINITION = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)')
FENCE = re.compile(r'^\s{0,3}(```|~~~)')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')
SCHEME = re.compile(r'^[A-Za-z][A-Za-z0-9+.-]*:')
HEADING = re.compile(r'^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$')
# After a link: `, "Title"`, `, sections "A" and "B"`, `"A" ([raw](...)) and "B"`.
QUOTED_TITLE = re.compile(r'\s*(?:,|:|\band\b|\bsections?\b|\([^()]*\))*\s*"([^"]+)"')


def pages(root):
    """The Markdown files the check reads, as paths relative to root."""
    found = []
    if os.path.isfile(os.path.join(root, 'README.md')):
        found.append('README.md')
    for top, only_readme in (('docs', False), ('bench', True), ('tests', True)):
        base = os.path.join(root, top)
        for folder, dirs, files in os.walk(base):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith('.md'):
                    continue
                if only_readme and name != 'README.md':
                    continue
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return found


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    in_fence = None
    for number, line in enumerate(text.splitlines(), start=1):
        fence = FENCE.match(line)
        if fence:
            if in_fence is None:
                in_fence = fence.group(1)
            elif fence.group(1) == in_fence:
                in_fence = None
            continue
        if in_fence is None:
            yield number, line


def links(text):
    """(line number, target) for every link outside code."""
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub('', line)
        definition = REFERENCE_DEFINITION.match(line)
        if definition:
            yield number, definition.group(1)
            continue
        for match in INLINE_LINK.finditer(line):
            yield number, match.group(1)


def split_target(target):
    """(path, fragment) of a relative link, or None for links not checked."""
    if target.startswith('<') and target.endswith('>'):
        target = target[1:-1]
    if not target or SCHEME.match(target):
        return None
    path, _, fragment = target.partition('#')
    return urllib.parse.unquote(path.split('?', 1)[0]), urllib.parse.unquote(fragment)


def resolve(root, page, path):
    """The link's path relative to root; '' for a link into the same page."""
    if not path:
        return page
    if path.startswith('/'):
        return os.path.normpath(path.lstrip('/'))
    return os.path.relpath(os.path.normpath(os.path.join(root, os.path.dirname(page), path)), root)


def headings(text):
    """Each heading's text, with inline code marks and link targets dropped."""
    found = []
    for _, line in prose_lines(text):
        match = HEADING.match(line)
        if match:
            title = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', match.group(1))
            found.append(title.replace('`', ''))
    return found


def anchors(text):
    """The anchors GitHub gives a page's headings (repeats get -1, -2, ...)."""
    seen = {}
    result = set()
    for title in headings(text):
        slug = re.sub(r'[^\w\- ]', '', title.strip().lower()).replace(' ', '-')
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else f'{slug}-{count}')
    return result


def paragraphs(text):
    """(text, [(offset, line number)]) of each run of non-blank prose lines, joined by spaces.

    Backticks are dropped, so that `generators/corpus` reads as the words it holds."""
    lines = []
    for number, line in prose_lines(text):
        if line.strip():
            lines.append((number, line.replace('`', '')))
            continue
        if lines:
            yield join_lines(lines)
            lines = []
    if lines:
        yield join_lines(lines)


def join_lines(lines):
    starts = []
    offset = 0
    for number, line in lines:
        starts.append((offset, number))
        offset += len(line) + 1
    return ' '.join(line for _, line in lines), starts


def line_at(starts, offset):
    """The line number of a paragraph's offset."""
    number = starts[0][1]
    for start, line in starts:
        if start > offset:
            break
        number = line
    return number


def number_value(text):
    text = text.lower()
    return int(text) if text.isdigit() else NUMBER_WORDS.index(text)


def table_rows(lines):
    """(line number, cells) of each row of the first table in lines, the separator row left out."""
    rows = []
    for number, line in lines:
        if line.lstrip().startswith('|'):
            cells = [cell.strip() for cell in line.strip().strip('|').split('|')]
            if not all(re.fullmatch(r':?-+:?', cell) for cell in cells if cell):
                rows.append((number, cells))
        elif rows:
            break
    return rows


def section_table(text, heading):
    """The rows (header first) of the first table below the heading of that title, or []."""
    lines = list(prose_lines(text))
    for index, (_, line) in enumerate(lines):
        match = HEADING.match(line)
        if match and match.group(1).replace('`', '') == heading:
            body = []
            for number, rest in lines[index + 1:]:
                if HEADING.match(rest):
                    break
                body.append((number, rest))
            return table_rows(body)
    return []


def code_spans(cell):
    """The text of each `code span` of a table cell."""
    return [match.group(0).strip('`').strip() for match in CODE_SPAN.finditer(cell)]


def read(root, path):
    with open(os.path.join(root, path), encoding='utf-8') as f:
        return f.read()


def check_links(root):
    """Failures of links and anchors, and every path a page links to."""
    failures = []
    linked = set()
    checked = 0
    for page in pages(root):
        for number, target in links(read(root, page)):
            parts = split_target(target)
            if parts is None:
                continue
            checked += 1
            path, fragment = parts
            resolved = resolve(root, page, path)
            where = f'{page}:{number}'
            if not os.path.exists(os.path.join(root, resolved)):
                failures.append(f'{where}: broken link "{target}" (no {resolved})')
                continue
            linked.add(resolved)
            if fragment and resolved.endswith('.md') and fragment not in anchors(read(root, resolved)):
                failures.append(f'{where}: "{target}": {resolved} has no heading with the anchor #{fragment}')
    return failures, linked, checked


def check_quoted_sections(root):
    """A results page's section quoted by title after a link to the page exists."""
    failures = []
    for page in pages(root):
        text = ' '.join(line for _, line in prose_lines(read(root, page)))
        text = CODE_SPAN.sub('', text)
        for match in INLINE_LINK.finditer(text):
            parts = split_target(match.group(1))
            if parts is None or not parts[0].endswith('.md'):
                continue
            target = resolve(root, page, parts[0])
            if not target.startswith(RESULTS + os.sep) or not os.path.isfile(os.path.join(root, target)):
                continue
            titles = headings(read(root, target))
            position = match.end()
            quoted = QUOTED_TITLE.match(text, position)
            while quoted:
                name = quoted.group(1).replace('`', '')
                if not any(title.startswith(name) for title in titles):
                    failures.append(f'{page}: "{name}" is quoted as a section of {target}, which has no heading '
                                    'starting so')
                quoted = QUOTED_TITLE.match(text, quoted.end())
    return failures


def run_folders(root):
    """(folder, its results folder) for each folder below docs/results/<page>/ that holds files."""
    runs = []
    base = os.path.join(root, RESULTS)
    if not os.path.isdir(base):
        return runs
    for top in sorted(os.listdir(base)):
        if not os.path.isdir(os.path.join(base, top)):
            continue
        for folder, dirs, files in os.walk(os.path.join(base, top)):
            dirs.sort()
            relative = os.path.relpath(folder, root)
            if files and relative != os.path.join(RESULTS, top):
                runs.append((relative, os.path.join(RESULTS, top)))
    return runs


def covers(linked, path):
    """Whether a page links to path or to something inside it."""
    return any(p == path or p.startswith(path + os.sep) for p in linked)


def check_results_linked(root, linked):
    """Every results folder and every run folder below one is linked from a page."""
    failures = []
    base = os.path.join(root, RESULTS)
    tops = sorted(n for n in os.listdir(base) if os.path.isdir(os.path.join(base, n))) if os.path.isdir(base) else []
    for name in tops:
        folder = os.path.join(RESULTS, name)
        if not covers(linked, folder):
            failures.append(f'{folder}/: no page links to this results folder or anything in it')
    for path, top in run_folders(root):
        candidates = [path]
        parent = os.path.dirname(path)
        while parent != top and parent.startswith(top + os.sep):
            candidates.append(parent)
            parent = os.path.dirname(parent)
        if not any(covers(linked, candidate) for candidate in candidates):
            failures.append(f'{path}/: no page links to this run folder, to a folder above it below {top}/, '
                            'or to anything in it')
    return failures, len(tops)


def check_results_index(root):
    """docs/results/README.md's table names date, commit, GPU, Halide and command, and every page."""
    if not os.path.isfile(os.path.join(root, INDEX)):
        return [f'{INDEX}: missing; it is the index of the results pages'] if os.path.isdir(
            os.path.join(root, RESULTS)) else []
    rows = [line for _, line in prose_lines(read(root, INDEX)) if line.lstrip().startswith('|')]
    if not rows:
        return [f'{INDEX}: no table; the index is a table of the results pages']
    header = rows[0].lower()
    failures = [f'{INDEX}: the table has no "{column}" column' for column in INDEX_COLUMNS if column not in header]
    indexed = set()
    for row in rows[1:]:
        for match in INLINE_LINK.finditer(row):
            parts = split_target(match.group(1))
            if parts is not None:
                indexed.add(resolve(root, INDEX, parts[0]))
    results_pages = sorted(os.path.join(RESULTS, n) for n in os.listdir(os.path.join(root, RESULTS))
                           if n.endswith('.md') and n != 'README.md')
    failures += [f'{INDEX}: no table row links to {page}' for page in results_pages if page not in indexed]
    return failures


def check_readme_length(root):
    readme = os.path.join(root, 'README.md')
    if not os.path.isfile(readme):
        return []
    lines = len(read(root, 'README.md').splitlines())
    if lines < README_MAX_LINES:
        return []
    return [f'README.md: {lines} lines; it must stay under {README_MAX_LINES} '
            '(move detail to docs/usage/ or docs/results/)']


def corpus_generators(root):
    """The generators generators/corpus/CMakeLists.txt lists, or None where it lists none."""
    path = os.path.join(root, CORPUS_CMAKE)
    if not os.path.isfile(path):
        return None
    match = CORPUS_SET.search(read(root, CORPUS_CMAKE))
    return match.group(1).split() if match else None


def check_corpus_counts(root):
    """Every count of the whole corpus's pipelines in a page equals the generators CMake lists."""
    generators = corpus_generators(root)
    if generators is None:
        return [f'{CORPUS_CMAKE}: no set(HARENA_CORPUS_GENERATORS ...) naming the corpus generators; '
                'check_docs.py counts the corpus from it']
    failures = []
    for page in pages(root):
        for text, starts in paragraphs(read(root, page)):
            for claim in CORPUS_CLAIMS:
                for match in claim.finditer(text):
                    said = match.group('count')
                    if number_value(said) != len(generators):
                        failures.append(f'{page}:{line_at(starts, match.start())}: "{match.group(0)}": '
                                        f'{CORPUS_CMAKE} lists {len(generators)} corpus generators; '
                                        'write that number, or no number')
    return failures


def product_folders(root):
    """The folders the source-tree table must name: those directly under PRODUCT_PARENTS, and PRODUCT_TOP."""
    folders = []
    for parent in PRODUCT_PARENTS:
        base = os.path.join(root, parent)
        if os.path.isdir(base):
            folders += [f'{parent}/{name}' for name in sorted(os.listdir(base))
                        if not name.startswith('.') and os.path.isdir(os.path.join(base, name))]
    return folders + [name for name in PRODUCT_TOP if os.path.isdir(os.path.join(root, name))]


def check_source_tree(root):
    """The source-tree table names every product folder, and only folders that exist."""
    if not os.path.isfile(os.path.join(root, SOURCE_TREE_PAGE)):
        return [f'{SOURCE_TREE_PAGE}: missing; it holds the source-tree table ("{SOURCE_TREE_HEADING}")']
    rows = section_table(read(root, SOURCE_TREE_PAGE), SOURCE_TREE_HEADING)
    if len(rows) < 2:
        return [f'{SOURCE_TREE_PAGE}: no table under a heading "{SOURCE_TREE_HEADING}"; '
                'the source tree is a table of folder | what']
    failures = []
    named = set()
    for number, cells in rows[1:]:
        for folder in code_spans(cells[0]):
            folder = folder.rstrip('/')
            named.add(folder)
            if not os.path.isdir(os.path.join(root, folder)):
                failures.append(f'{SOURCE_TREE_PAGE}:{number}: the source tree names `{folder}`, which is not a '
                                'folder of the tree: remove the row or correct the path')
    header_line = rows[0][0]
    for folder in product_folders(root):
        if folder not in named:
            failures.append(f'{SOURCE_TREE_PAGE}:{header_line}: the source tree has no row for `{folder}`: '
                            'add one saying what it holds')
    return failures


def fuzz_table(root):
    """The rows (header first) of tests/fuzz/README.md's table of targets, or [] where it has none."""
    return next((table for table in split_tables(read(root, FUZZ_README))
                 if table and table[0][1][0].lower() == 'target'), [])


def check_fuzz_targets(root):
    """tests/fuzz/README.md's table names exactly the fuzz targets fuzz_targets.cmake defines."""
    if not os.path.isfile(os.path.join(root, FUZZ_TARGETS)):
        return []
    if not os.path.isfile(os.path.join(root, FUZZ_README)):
        return [f'{FUZZ_README}: missing; it describes the fuzz targets of {FUZZ_TARGETS}']
    rows = fuzz_table(root)
    if not rows:
        return [f'{FUZZ_README}: no table whose first column is "target"; it lists the fuzz targets']
    defined = FUZZ_TARGET.findall(read(root, FUZZ_TARGETS))
    failures = []
    listed = []
    for number, cells in rows[1:]:
        for name in code_spans(cells[0]):
            listed.append(name)
            if name not in defined:
                failures.append(f'{FUZZ_README}:{number}: `{name}` is not a target of {FUZZ_TARGETS}: '
                                'remove the row or define the target')
    failures += [f'{FUZZ_README}:{rows[0][0]}: {FUZZ_TARGETS} defines the target `{name}`, which the table does '
                 'not list: add a row' for name in defined if name not in listed]
    return failures


def check_fuzz_files(root):
    """Every file of the fuzz targets' "file" column exists in tests/fuzz/."""
    if not os.path.isfile(os.path.join(root, FUZZ_README)):
        return []
    rows = fuzz_table(root)
    header = [cell.lower() for cell in rows[0][1]] if rows else []
    if 'file' not in header:
        return []
    column = header.index('file')
    folder = os.path.dirname(FUZZ_README)
    failures = []
    for number, cells in rows[1:]:
        for pattern in code_spans(cells[column]) if column < len(cells) else []:
            if not glob.glob(os.path.join(root, folder, pattern)):
                failures.append(f'{FUZZ_README}:{number}: no file {pattern} in {folder}/: correct the name')
    return failures


def split_tables(text):
    """Every table of a page, each as its rows (header first)."""
    tables = []
    current = []
    for number, line in prose_lines(text):
        if line.lstrip().startswith('|'):
            current.append((number, line))
        elif current:
            tables.append(table_rows(current))
            current = []
    if current:
        tables.append(table_rows(current))
    return tables


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    failures, linked, checked = check_links(root)
    failures += check_quoted_sections(root)
    results_failures, folders = check_results_linked(root, linked)
    failures += results_failures
    failures += check_results_index(root)
    failures += check_readme_length(root)
    failures += check_corpus_counts(root)
    failures += check_source_tree(root)
    failures += check_fuzz_targets(root)
    failures += check_fuzz_files(root)
    for failure in failures:
        print(failure)
    print(f'{len(pages(root))} pages, {checked} relative links, {folders} results folders: '
          f'{"ok" if not failures else f"{len(failures)} failure(s)"}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
