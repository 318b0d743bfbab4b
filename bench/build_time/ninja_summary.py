# Per-category build time from a .ninja_log (v5/v6): each command once
# (outputs of one command share start and end), CPU-ish seconds summed.
import sys, collections, re
seen = {}
for line in open(sys.argv[1]):
    if line.startswith('#'): continue
    start, end, _, out, *_ = line.split('\t')
    key = (start, end, out.split('/')[0] if not out.startswith('/') else '')
    seen.setdefault((start, end), []).append(out)
cat = collections.Counter(); n = collections.Counter()
for (s, e), outs in seen.items():
    o = sorted(outs, key=len)[0]
    t = (int(e) - int(s)) / 1000
    if '/CMakeFiles/' in o and o.endswith('.o'):
        if 'planner/pass' in o: c = 'compile: pass (Halide.h)'
        elif '.generator.dir' in o: c = 'compile: generators (Halide.h)'
        elif 'planner/solver' in o or 'planner/tools' in o: c = 'compile: solver'
        elif o.startswith('runtime/'): c = 'compile: runtime'
        elif o.startswith('tests/'): c = 'compile: tests'
        elif o.startswith('bench/'): c = 'compile: bench'
        elif o.startswith('apps/'): c = 'compile: apps'
        else: c = 'compile: other'
    elif o.endswith('.runtime.o') or o.endswith('.runtime.a'): c = 'generate: Halide runtimes'
    elif o.endswith(('.h', '.o', '.a', '.json', '.stmt', '.html', '.csv', '.svg', '.ptx')) and '/CMakeFiles/' not in o:
        c = 'generate: pipelines (run generator)' if not o.endswith('.a') else 'archive'
    elif 'fuzz' in o: c = 'fuzzers (clang, ExternalProject)'
    else: c = 'link/other'
    cat[c] += t; n[c] += 1
tot = sum(cat.values())
print('| step | commands | seconds | share |'); print('|---|---:|---:|---:|')
for c, t in cat.most_common(): print(f'| {c} | {n[c]} | {t:.0f} | {100*t/tot:.0f}% |')
print(f'| all | {sum(n.values())} | {tot:.0f} | |')
