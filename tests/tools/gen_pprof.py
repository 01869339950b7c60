#!/usr/bin/env python3
"""Writes a pprof profile (profile.proto) with a fixed seed, Python stdlib only: for the tests
(thread labels, inlined lines, address-only locations, several sample types, Go's field order)
and the bench (a large one).

usage: gen_pprof.py [-o] OUT [--samples N] [--functions N] [--depth N] [--seed S] [--gzip]
                        [--go-order] [--labels] [--inline] [--addresses]
                        [--default-type NAME] [--size-mb M]
--size-mb M: samples are added until the encoded profile reaches about M MB."""
import argparse
import gzip
import random


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def f_varint(field, v):
    return key(field, 0) + varint(v)


def f_bytes(field, b):
    return key(field, 2) + varint(len(b)) + b


def packed(field, values):
    return f_bytes(field, b"".join(varint(v) for v in values))


class Strings:
    def __init__(self):
        self.table, self.index = [""], {"": 0}

    def __call__(self, s):
        if s not in self.index:
            self.index[s] = len(self.table)
            self.table.append(s)
        return self.index[s]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?")
    ap.add_argument("-o", dest="out_opt")
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--functions", type=int, default=200)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gzip", action="store_true")
    ap.add_argument("--go-order", action="store_true", help="time_nanos and period_type first")
    ap.add_argument("--labels", action="store_true", help="thread_name and request labels")
    ap.add_argument("--inline", action="store_true", help="locations with inlined lines")
    ap.add_argument("--addresses", action="store_true", help="some locations without lines")
    ap.add_argument("--default-type", default="")
    ap.add_argument("--size-mb", type=float, default=0)
    a = ap.parse_args()
    a.out = a.out_opt or a.out
    if not a.out:
        ap.error("no output file")
    rnd = random.Random(a.seed)
    st = Strings()
    types = [("samples", "count"), ("cpu", "nanoseconds"), ("alloc_space", "bytes")]
    sample_types = b"".join(f_bytes(1, f_varint(1, st(t)) + f_varint(2, st(u))) for t, u in types)
    functions = []
    for i in range(1, a.functions + 1):
        functions.append(f_bytes(5, f_varint(1, i) + f_varint(2, st(f"pkg{i % 7}.func{i}")) +
                                 f_varint(3, st(f"pkg{i % 7}.func{i}")) +
                                 f_varint(4, st(f"src/pkg{i % 7}.go")) + f_varint(5, i)))
    locations = []
    nloc = a.functions
    for i in range(1, nloc + 1):
        body = f_varint(1, i) + f_varint(2, 1) + f_varint(3, 0x400000 + 16 * i)
        if a.addresses and i % 17 == 0:
            pass  # no lines: drawn as its address
        else:
            body += f_bytes(4, f_varint(1, i) + f_varint(2, 10 + i))
            if a.inline and i % 5 == 0:
                # an inlined callee first, the caller it was inlined into last
                callee = (i * 7) % a.functions + 1
                body = f_varint(1, i) + f_varint(2, 1) + f_varint(3, 0x400000 + 16 * i) + \
                    f_bytes(4, f_varint(1, callee) + f_varint(2, 3)) + \
                    f_bytes(4, f_varint(1, i) + f_varint(2, 10 + i))
        locations.append(f_bytes(4, body))
    mapping = f_bytes(3, f_varint(1, 1) + f_varint(2, 0x400000) + f_varint(3, 0x800000) +
                      f_varint(5, st("/usr/bin/prog")) + f_varint(7, 1))
    threads = ["main", "worker-1", "worker-2"]
    key_thread, key_req = st("thread_name"), st("request")
    for t in threads:
        st(t)
    reqs = [st(f"/api/{k}") for k in range(4)]
    # a few hundred distinct stacks, sampled many times over
    stacks = []
    for _ in range(max(8, a.functions * 2)):
        d = rnd.randint(2, a.depth)
        stacks.append([rnd.randint(1, nloc) for _ in range(d)])
    samples = []
    size = 0
    n = 0
    limit = a.size_mb * 1e6
    while (n < a.samples and not limit) or (limit and size < limit):
        locs = stacks[rnd.randrange(len(stacks))]
        c = rnd.randint(1, 5)
        body = packed(1, locs) + packed(2, [c, c * 10000000, c * rnd.randint(16, 4096)])
        if a.labels:
            body += f_bytes(3, f_varint(1, key_thread) + f_varint(2, st(threads[n % 3])))
            body += f_bytes(3, f_varint(1, key_req) + f_varint(2, reqs[(n // 3) % 4]))
        s = f_bytes(2, body)
        samples.append(s)
        size += len(s)
        n += 1
    dflt = st(a.default_type) if a.default_type else 0
    head = b""
    if a.go_order:
        head = f_varint(9, 1700000000000000000) + f_bytes(11, f_varint(1, st("cpu")) +
                                                          f_varint(2, st("nanoseconds")))
    tail = f_varint(10, 10000000000) + f_varint(12, 10000000)
    if not a.go_order:
        tail += f_bytes(11, f_varint(1, st("cpu")) + f_varint(2, st("nanoseconds")))
    if dflt:
        tail += f_varint(14, dflt)
    strings = b"".join(f_bytes(6, s.encode()) for s in st.table)
    data = head + sample_types + b"".join(samples) + mapping + b"".join(locations) + \
        b"".join(functions) + strings + tail
    if a.gzip:
        data = gzip.compress(data, 6, mtime=0)
    with open(a.out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
