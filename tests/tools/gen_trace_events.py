#!/usr/bin/env python3
"""Writes a trace of X (complete) events with a fixed seed, Python stdlib only, for the bench:
{"traceEvents": [...]} of two threads, each a run of calls of one program (each of its 200
functions calls a few others, chosen once: a few thousand distinct stacks, up to 7 deep). --order time writes each call when it begins (parents before their children, as
tracers that write at the start do); --order ends writes it when it ends (children before
their parents, as Chrome's own X events and many tracers do). The same seed gives the same
calls in either order.

usage: gen_trace_events.py -o OUT [--size-mb M] [--seed S] [--order time|ends]"""
import argparse
import random


def calls(rnd, graph, name, ts, depth, out, order):
    """One call at TS and its children into OUT in ORDER; returns its duration."""
    here = len(out)
    if order == "time":
        out.append(None)  # its place, before its children
    t = ts + rnd.randint(1, 5)
    if depth < 6:
        for _ in range(rnd.choice([0, 0, 1, 2, 3])):
            t += calls(rnd, graph, rnd.choice(graph[name]), t, depth + 1, out, order)
            t += rnd.randint(0, 5)
    dur = t - ts + rnd.randint(1, 5)
    ev = (name, ts, dur)
    if order == "time":
        out[here] = ev
    else:
        out.append(ev)
    return dur


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", dest="out", required=True)
    ap.add_argument("--size-mb", type=float, default=100)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--order", choices=["time", "ends"], default="ends")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    limit, size = int(a.size_mb * 1e6), 0
    ts = {1: 0, 2: 0}
    names = ["task%d" % i for i in range(8)] + ["fn%d" % i for i in range(200)]
    graph = {n: ["fn%d" % rnd.randrange(200) for _ in range(3)] for n in names}
    with open(a.out, "w") as f:
        f.write('{"traceEvents":[{"pid":1,"tid":1,"ph":"M","name":"thread_name",'
                '"args":{"name":"main"}},{"pid":1,"tid":2,"ph":"M","name":"thread_name",'
                '"args":{"name":"worker"}}')
        while size < limit:
            tid = rnd.choice([1, 1, 2])
            out = []
            ts[tid] += calls(rnd, graph, "task%d" % rnd.randrange(8), ts[tid], 0, out,
                             a.order) + 10
            text = "".join(',{"pid":1,"tid":%d,"ph":"X","name":"%s","ts":%d,"dur":%d}'
                           % (tid, n, t, d) for n, t, d in out)
            f.write(text)
            size += len(text)
        f.write("]}\n")


if __name__ == "__main__":
    main()
