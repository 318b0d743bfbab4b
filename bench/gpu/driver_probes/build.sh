#!/usr/bin/env bash
# Builds the driver probes into build-probes/ (git-ignored): kernels.cu to PTX
# with nvcc, the probes with g++ against the CUDA toolkit's libcuda stub (the
# driver itself is found at run time). Needs the CUDA toolkit, not a GPU.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
out=${1:-$here/../../../build-probes}
mkdir -p "$out"
"$cuda/bin/nvcc" -ptx -arch=compute_75 "$here/kernels.cu" -o "$out/kernels.ptx"
{ printf 'extern "C" const char kernels_ptx[] = R"PTX('; cat "$out/kernels.ptx"; printf ')PTX";\n'; } > "$out/kernels_ptx.cpp"
for probe in graph_waits two_gpus; do
  g++ -O2 -std=c++17 -I"$cuda/include" -I"$here" "$here/$probe.cpp" "$out/kernels_ptx.cpp" \
      -o "$out/harena-probe-${probe//_/-}" -L"$cuda/lib64/stubs" -lcuda -lpthread
done
echo "built: $(ls "$out"/harena-probe-* | tr '\n' ' ')"
