# Summarise a `cmake --profiling-format=google-trace` file: inclusive time per
# top-level-ish call site (command name + location), B/E pairs.
import json, sys, collections
ev = json.load(open(sys.argv[1]))
stack = []; incl = collections.Counter(); cnt = collections.Counter()
for e in ev:
    if e['ph'] == 'B':
        stack.append(e)
    elif e['ph'] == 'E':
        b = stack.pop()
        a = b.get('args', {})
        key = f"{b['name']} @ {a.get('location','')}"
        # only count call sites at depth<=N to avoid double counting in listing
        incl[(len(stack), key)] += e['ts'] - b['ts']; cnt[(len(stack), key)] += 1
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 1
rows = [(d, k, v) for (d, k), v in incl.items() if d <= depth]
rows.sort(key=lambda r: -r[2])
for d, k, v in rows[:25]:
    print(f"{v/1e6:8.2f}s x{cnt[(d,k)]:4d} d{d} {k}")
