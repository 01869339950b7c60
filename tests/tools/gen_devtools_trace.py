#!/usr/bin/env python3
"""Writes a Chrome DevTools Performance trace with a fixed seed, Python stdlib only, for the
bench: {"traceEvents": [...]} with thread metadata, a Profile event and ProfileChunk events
(new nodes now and then, 100 samples and time deltas each) among the many other events
DevTools records (X events with args, instant events), as the Performance panel saves them.

usage: gen_devtools_trace.py -o OUT [--size-mb M] [--seed S]"""
import argparse
import json
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", dest="out", required=True)
    ap.add_argument("--size-mb", type=float, default=200)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    limit = int(a.size_mb * 1e6)
    pid, tid = 4242, 775
    names = [f"fn{i}" for i in range(2000)] + [""] * 50
    urls = [f"https://example.com/static/js/chunk{i}.js" for i in range(40)]
    nodes = {1: 0}  # id -> parent
    next_id = [2]

    def node_obj(i, parent):
        fn = rnd.choice(names) if i > 3 else ["(root)", "(program)", "(garbage collector)"][i - 1]
        return {"id": i, "callFrame": {"functionName": fn, "scriptId": str(i % 90),
                                       "url": rnd.choice(urls), "lineNumber": i % 3000,
                                       "columnNumber": i % 80},
                **({"parent": parent} if parent else {})}

    def new_nodes(k):
        out = []
        for _ in range(k):
            i = next_id[0]
            next_id[0] += 1
            # (program) and (garbage collector) have no children in V8's profiles
            parent = 1 if i <= 4 else rnd.choice([n for n in list(nodes)[-400:] if n not in (2, 3)])
            nodes[i] = parent
            out.append(node_obj(i, parent))
        return out

    with open(a.out, "w") as f:
        size = f.write('{"traceEvents":[\n')
        first = [
            {"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "ts": 0, "cat": "__metadata",
             "args": {"name": "CrRendererMain"}},
            {"name": "Profile", "ph": "P", "id": "0x1", "pid": pid, "tid": tid, "ts": 1000,
             "cat": "disabled-by-default-v8.cpu_profiler", "args": {"data": {"startTime": 1000}}},
            {"name": "ProfileChunk", "ph": "P", "id": "0x1", "pid": pid, "tid": 777, "ts": 1001,
             "cat": "disabled-by-default-v8.cpu_profiler",
             "args": {"data": {"cpuProfile": {"nodes": [node_obj(1, 0), node_obj(2, 1), node_obj(3, 1)]},
                               "timeDeltas": []}}},
        ]
        for e in first:
            size += f.write(json.dumps(e, separators=(",", ":")) + ",\n")
        ts = 2000
        while size < limit:
            k = rnd.random()
            if k < 0.15:
                fresh = new_nodes(rnd.randint(0, 8)) if len(nodes) < 30000 else []
                ids = list(nodes)
                hot = ids[-600:]
                samples = [rnd.choice(hot) if rnd.random() < 0.9 else rnd.choice(ids[:3])
                           for _ in range(100)]
                deltas = [rnd.randint(80, 180) for _ in range(100)]
                e = {"args": {"data": {"cpuProfile": {"nodes": fresh, "samples": samples},
                                       "timeDeltas": deltas}},
                     "cat": "disabled-by-default-v8.cpu_profiler", "id": "0x1", "name": "ProfileChunk",
                     "ph": "P", "pid": pid, "tid": 777, "ts": ts}
            elif k < 0.8:
                e = {"args": {"data": {"frame": "F0A1", "url": rnd.choice(urls)}},
                     "cat": "devtools.timeline", "dur": rnd.randint(1, 500), "name":
                     rnd.choice(["RunTask", "FunctionCall", "EvaluateScript", "ParseHTML", "Layout"]),
                     "ph": "X", "pid": pid, "tid": tid, "ts": ts, "tdur": 3, "tts": ts // 2}
            else:
                e = {"args": {}, "cat": "devtools.timeline", "name": "UpdateCounters", "ph": "I",
                     "pid": pid, "s": "t", "tid": tid, "ts": ts}
            ts += rnd.randint(1, 300)
            size += f.write(json.dumps(e, separators=(",", ":")) + ",\n")
        f.write(json.dumps({"name": "thread_name", "ph": "M", "pid": pid, "tid": 777,
                            "args": {"name": "v8:ProfEvntProc"}}) + "]}\n")


if __name__ == "__main__":
    main()
