#!/bin/bash
R=$OUT/r; mkdir -p $R
(OUT=$R bash bench/gpu/run_guard_nvtx.sh > $R/guard-nvtx.log 2>&1; tail -25 $R/guard-nvtx.log > $R/guard-table.txt)
cd build-gpu-run && mkdir -p $R/h14-results
timeout 240 ./harena-gpu-bench --repeats 3 --out $R/h14-results > $R/h14-gpu-bench.txt 2>&1; echo "gpu-bench rc $?" >> $R/summary.txt
timeout 200 ./harena-corpus-bench > $R/h14-corpus-bench.txt 2>&1; echo "corpus-bench rc $?" >> $R/summary.txt
