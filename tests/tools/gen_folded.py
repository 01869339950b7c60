#!/usr/bin/env python3
"""Writes synthetic folded stacks (`frame;frame;... COUNT` lines) for tests and benchmarks.

    gen_folded.py [-n STACKS] [--seed S]                  distinct stacks, sorted by bytes
    gen_folded.py [-n STACKS] [--seed S] --shuffle SEED   the same lines in random order
    gen_folded.py [-n STACKS] [--seed S] --repeat SIZE    SIZE bytes (K, M, G: powers of
                    [--repeat-seed SEED]                  1000) of lines drawn at random from
                                                          the STACKS stacks, counts 1..50
    gen_folded.py [-n STACKS] [--seed S] --variant SEED   a second run of the same program,
                                                          for diffs: each stack left out with
                                                          probability 1/20, STACKS/20 new ones
                                                          (the walks that come next), every
                                                          count drawn again; sorted

The stacks are random walks down a fixed synthetic call graph, so they share prefixes the
way real profiles do: 20,000 function names (Rust, C++, Java, kernel and Python style,
27 bytes on average, some with inferno's _[k] / _[j] annotations), each calling 2 to 8
others, the first callees the hottest; 6 roots; depth 10 to 40 (25 on average). Counts of
the distinct stacks are heavy-tailed (1 to a few thousand). 200,000 stacks (seed 42) make
about 142 MB. The output depends only on the arguments. Python 3 standard library only.
"""
import argparse
import random
import sys

MODULES = ["std::io", "std::collections::hash::map", "alloc::raw_vec", "core::fmt",
           "tokio::runtime::task", "hyper::proto::h1", "serde_json::de", "regex::pikevm",
           "app::handlers", "app::store", "libc", "[kernel.kallsyms]", "java/util/concurrent",
           "v8::internal", "python3.11"]
VERBS = ["poll", "parse", "alloc", "read", "write", "lock", "call", "flush", "hash", "emit"]
VOCABULARY = 20000


def function_names(rng):
    names = []
    for i in range(VOCABULARY):
        m = rng.choice(MODULES)
        name = "%s::%s_%05d" % (m, rng.choice(VERBS), i)
        if m.startswith("java/"):
            name = "%s/Worker%d:::%s_%05d_[j]" % (m, i % 97, rng.choice(VERBS), i)
        elif m.startswith("["):
            name = "%s_%05d_[k]" % (rng.choice(VERBS), i)
        elif rng.random() < 0.2:
            name += "<T%d>" % rng.randrange(10)
        names.append(name)
    return names


def stacks(n, seed):
    """N distinct stacks, each a tuple of function ids, root first."""
    rng = random.Random(seed)
    names = function_names(rng)
    callees = [[rng.randrange(VOCABULARY) for _ in range(rng.randint(2, 8))]
               for _ in range(VOCABULARY)]
    roots = rng.sample(range(VOCABULARY), 6)
    found, order = set(), []
    while len(order) < n:
        f = rng.choice(roots)
        stack = [f]
        for _ in range(rng.randint(10, 40) - 1):
            c = callees[f]
            f = c[min(int(rng.expovariate(1.0)), len(c) - 1)]
            stack.append(f)
        stack = tuple(stack)
        if stack not in found:
            found.add(stack)
            order.append(stack)
    return names, order, rng


def size(text):
    units = {"K": 10**3, "M": 10**6, "G": 10**9}
    t = text.upper()
    if t[-1:] in units:
        return int(float(t[:-1]) * units[t[-1]])
    return int(t)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--stacks", type=int, default=200000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--shuffle", type=int, metavar="SEED", help="write the lines shuffled")
    ap.add_argument("--repeat", type=size, metavar="SIZE",
                    help="write SIZE bytes of lines drawn at random from the stacks")
    ap.add_argument("--repeat-seed", type=int, default=1)
    ap.add_argument("--variant", type=int, metavar="SEED",
                    help="write a perturbed run of the same stacks (for --diff)")
    ap.add_argument("-o", "--out", default="-")
    a = ap.parse_args(argv)
    if a.variant is not None:
        names, order, _ = stacks(a.stacks + a.stacks // 20, a.seed)
        r = random.Random(a.variant)
        kept = [s for i, s in enumerate(order) if i >= a.stacks or r.random() >= 0.05]
        lines = ["%s %d\n" % (";".join(names[f] for f in s), max(1, int(r.paretovariate(1.2))))
                 for s in kept]
        lines.sort()
        out = sys.stdout if a.out == "-" else open(a.out, "w", encoding="ascii", newline="\n")
        out.writelines(lines)
        if out is not sys.stdout:
            out.close()
        return 0
    names, order, rng = stacks(a.stacks, a.seed)
    text = [";".join(names[f] for f in s) for s in order]
    out = sys.stdout if a.out == "-" else open(a.out, "w", encoding="ascii", newline="\n")
    if a.repeat is not None:
        r = random.Random(a.repeat_seed)
        written, chunk = 0, []
        while written < a.repeat:
            line = "%s %d\n" % (text[r.randrange(len(text))], r.randint(1, 50))
            chunk.append(line)
            written += len(line)
            if len(chunk) == 20000:
                out.write("".join(chunk))
                chunk = []
        out.write("".join(chunk))
    else:
        lines = ["%s %d\n" % (t, max(1, int(rng.paretovariate(1.2)))) for t in text]
        if a.shuffle is None:
            lines.sort()
        else:
            lines.sort()
            random.Random(a.shuffle).shuffle(lines)
        out.writelines(lines)
    if out is not sys.stdout:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
