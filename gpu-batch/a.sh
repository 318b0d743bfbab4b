#!/bin/bash
R=$OUT/r; mkdir -p $R
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
OUT=$R BENCH=0 bash bench/gpu/run_gpu_suites.sh build-gpu-run h14 > $R/h14-suites.log 2>&1
OUT=$R BENCH=0 bash bench/gpu/run_gpu_suites.sh build-gpu-run-h21 h21 > $R/h21-suites.log 2>&1
(cd build-gpu-run && timeout 300 $cs --tool memcheck ./harena_corpus_gpu_tests --gtest_filter='*half*' > $R/h14-memcheck-corpus.txt 2>&1; echo "h14 memcheck corpus rc $? $(grep -E '^\[  PASSED|^\[  FAILED  \] [0-9]|ERROR SUMMARY' $R/h14-memcheck-corpus.txt | tr '\n' ' ')" >> $R/summary.txt)
cat $R/h14-table.txt $R/h21-table.txt >> $R/summary.txt
