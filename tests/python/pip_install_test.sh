#!/usr/bin/env bash
# The pip path as a user takes it: a venv holding PyPI's Halide 21, then
# `pip install <checkout>`, then `import halide, halide_arena`, the
# python-jit starter, copied out of the tree and run as shipped, and the C++
# JIT starter built against the CMake package the wheel holds (found through
# halide_arena.cmake_dir()). The venv,
# its wheel build folder and the pip cache stay in WORK_DIR, so a later run
# rebuilds only what changed; ccache serves what it already compiled.
#
# Usage: pip_install_test.sh SOURCE_DIR WORK_DIR PYTHON CMAKE
set -euo pipefail
source_dir=$1 work=$2 python=$3 cmake=$4
mkdir -p "$work"
venv=$work/venv
if [[ ! -x $venv/bin/python ]]; then
    "$python" -m venv "$venv"
fi
pip=("$venv/bin/pip" --disable-pip-version-check -q)
"${pip[@]}" install halide==21.0.0
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
start=$(date +%s)
CMAKE_ARGS="${launcher[*]}" "${pip[@]}" install --force-reinstall --no-deps \
    -Cbuild-dir="$work/wheel-build" "$source_dir"
echo "pip install of halide-arena: $(($(date +%s) - start)) s"
cd "$work"
"$venv/bin/python" -c "import halide, halide_arena; print('halide_arena from', halide_arena.__file__)"
"$venv/bin/python" -c "import halide_arena, os; d = halide_arena.cmake_dir(); assert d and os.path.isfile(os.path.join(d, 'HalideArenaConfig.cmake')), d"
rm -rf cpp-starter && cp -r "$source_dir/apps/starters/jit" cpp-starter
package_dir=$("$venv/bin/python" -c "import halide_arena; print(halide_arena.cmake_dir())")
halide_dir=$("$venv/bin/python" -c "import halide, os; print(os.path.join(os.path.dirname(halide.__file__), 'lib64', 'cmake', 'Halide'))")
"$cmake" -S cpp-starter -B cpp-starter/build -DHalideArena_DIR="$package_dir" -DHalide_DIR="$halide_dir" \
    -DPython_EXECUTABLE="$venv/bin/python" >cpp-starter.log
"$cmake" --build cpp-starter/build >>cpp-starter.log
cpp-starter/build/sharpen_jit
rm -rf starter && cp -r "$source_dir/apps/starters/python-jit" starter
cd starter && "$venv/bin/python" main.py
