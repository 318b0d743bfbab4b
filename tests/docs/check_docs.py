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

Usage: check_docs.py [REPOSITORY_ROOT]  (default: two folders above this file)
Python 3 standard library only.
"""
import os
import re
import sys
import urllib.parse

README_MAX_LINES = 200
RESULTS = os.path.join('docs', 'results')
INDEX = os.path.join(RESULTS, 'README.md')
INDEX_COLUMNS = ('date', 'commit', 'gpu', 'halide', 'command')

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


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    failures, linked, checked = check_links(root)
    failures += check_quoted_sections(root)
    results_failures, folders = check_results_linked(root, linked)
    failures += results_failures
    failures += check_results_index(root)
    failures += check_readme_length(root)
    for failure in failures:
        print(failure)
    print(f'{len(pages(root))} pages, {checked} relative links, {folders} results folders: '
          f'{"ok" if not failures else f"{len(failures)} failure(s)"}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
