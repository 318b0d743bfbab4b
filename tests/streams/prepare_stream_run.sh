#!/usr/bin/env bash
# Gathers the cross-stream suites, harena-rmm-bench and the RMM libraries
# they load into one folder (git-ignored) to carry to the GPU machine, where
# run_stream_suites.sh runs them.
#   prepare_stream_run.sh BUILD_DIR [RUN_DIR (default build-streams-run)]
set -euo pipefail
build=$1
run_dir=${2:-build-streams-run}
cmake --build "$build" -j 2 --target harena-stream-gpu-tests harena-rmm-gpu-tests harena-rmm-bench
rm -rf "$run_dir" && mkdir -p "$run_dir/lib"
for b in tests/streams/harena-stream-gpu-tests tests/streams/harena-rmm-gpu-tests bench/rmm/harena-rmm-bench; do
  strip -o "$run_dir/${b##*/}" "$build/$b"
done
for lib in librmm.so librapids_logger.so; do
  cp "$(ldd "$run_dir/harena-rmm-bench" | awk -v l="$lib" '$1 == l {print $3}')" "$run_dir/lib/"
done
cp "$(dirname "$0")/run_stream_suites.sh" "$run_dir/"
du -sh "$run_dir"
