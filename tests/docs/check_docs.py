#!/usr/bin/env python3
"""Checks the project's Markdown pages; exits 1 naming each failure.

- Every relative link in README.md, docs/**/*.md, bench/**/README.md and
  tests/**/README.md resolves to a file or folder of the tree. Links with a
  scheme (https:, mailto:) and links to an anchor of the same page (#...)
  are not checked; a #fragment is dropped before the path is looked up. A
  link starting with / is taken from the repository root, as GitHub does.
  Links inside code (fenced blocks, `spans`) are not links and are skipped.
- Every folder directly under docs/results/ is linked (the folder itself or
  something inside it) from at least one of those pages, so that no result
  set is left without a page that says what it is.
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

# [text](target) and ![alt](target); the target may be <wrapped> and may be
# followed by a "title". Nested brackets in the text are rare in these pages
# and not supported.
INLINE_LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)')
# [label]: target
REFERENCE_DEFINITION = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)')
FENCE = re.compile(r'^\s{0,3}(```|~~~)')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')
SCHEME = re.compile(r'^[A-Za-z][A-Za-z0-9+.-]*:')


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


def links(text):
    """(line number, target) for every link outside code."""
    in_fence = None
    for number, line in enumerate(text.splitlines(), start=1):
        fence = FENCE.match(line)
        if fence:
            if in_fence is None:
                in_fence = fence.group(1)
            elif fence.group(1) == in_fence:
                in_fence = None
            continue
        if in_fence is not None:
            continue
        line = CODE_SPAN.sub('', line)
        definition = REFERENCE_DEFINITION.match(line)
        if definition:
            yield number, definition.group(1)
            continue
        for match in INLINE_LINK.finditer(line):
            yield number, match.group(1)


def local_path(target):
    """The path part of a relative link, or None for links not checked."""
    if target.startswith('<') and target.endswith('>'):
        target = target[1:-1]
    if not target or target.startswith('#') or SCHEME.match(target):
        return None
    path = target.split('#', 1)[0].split('?', 1)[0]
    return urllib.parse.unquote(path) if path else None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    failures = []
    checked = 0
    linked = set()  # every resolved path a page links to, relative to root

    for page in pages(root):
        with open(os.path.join(root, page), encoding='utf-8') as f:
            text = f.read()
        for number, target in links(text):
            path = local_path(target)
            if path is None:
                continue
            checked += 1
            if path.startswith('/'):
                resolved = os.path.normpath(os.path.join(root, path.lstrip('/')))
            else:
                resolved = os.path.normpath(os.path.join(root, os.path.dirname(page), path))
            if not os.path.exists(resolved):
                failures.append(f'{page}:{number}: broken link "{target}" (no {os.path.relpath(resolved, root)})')
                continue
            linked.add(os.path.relpath(resolved, root))

    results = os.path.join(root, 'docs', 'results')
    folders = sorted(name for name in os.listdir(results) if os.path.isdir(os.path.join(results, name))) \
        if os.path.isdir(results) else []
    for name in folders:
        folder = os.path.join('docs', 'results', name)
        if not any(p == folder or p.startswith(folder + os.sep) for p in linked):
            failures.append(f'{folder}/: no page links to this results folder or anything in it')

    readme = os.path.join(root, 'README.md')
    if os.path.isfile(readme):
        with open(readme, encoding='utf-8') as f:
            lines = len(f.read().splitlines())
        if lines >= README_MAX_LINES:
            failures.append(f'README.md: {lines} lines; it must stay under {README_MAX_LINES} '
                            '(move detail to docs/usage/ or docs/results/)')

    for failure in failures:
        print(failure)
    print(f'{len(pages(root))} pages, {checked} relative links, {len(folders)} results folders: '
          f'{"ok" if not failures else f"{len(failures)} failure(s)"}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
