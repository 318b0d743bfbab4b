#!/usr/bin/env bash
# Fails if any tracked C or C++ file differs from what the root .clang-format
# makes of it; prints the files and the command that fixes them.
set -euo pipefail
cd "$(dirname "$0")/../.."
clang_format=${1:-clang-format-14}
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h' '*.hpp' '*.cu')
unformatted=()
for f in "${files[@]}"; do
    if ! "$clang_format" --dry-run --Werror "$f" >/dev/null 2>&1; then
        unformatted+=("$f")
    fi
done
if ((${#unformatted[@]})); then
    echo "not formatted (${#unformatted[@]} of ${#files[@]} files):"
    printf '  %s\n' "${unformatted[@]}"
    echo "fix with: $clang_format -i ${unformatted[*]}"
    exit 1
fi
echo "all ${#files[@]} C/C++ files formatted"
