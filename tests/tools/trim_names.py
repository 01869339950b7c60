#!/usr/bin/env python3
"""Folded text as foldsvg writes it for structured inputs: every frame name without
Unicode White_Space at its ends, a
stack of only empty names as [unknown], equal stacks summed, lines sorted by their bytes
(docs/cli.md, "Names"). inferno-collapse-perf keeps such whitespace (the " " of a symbol
that perf printed empty); the reference cases of tests/data/compat-perf are compared after
this, so that the one documented difference is the only one allowed.

    trim_names.py IN OUT     OUT gets IN normalized; exit status 0, or 3 when OUT differs
                             from IN (the difference is real in that case)
Python 3 standard library only.
"""
import sys

# Unicode White_Space, as foldsvg trims names (src/util/utf8.c)
WS = " \t\n\r\x0b\x0c\x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + \
    "\u2028\u2029\u202f\u205f\u3000"


def trim_folded(data):
    """DATA (bytes, folded lines "STACK COUNT") normalized."""
    totals = {}
    for line in data.split(b"\n"):
        if not line:
            continue
        stack, count = line.rsplit(b" ", 1)
        names = [n.decode("utf-8", "surrogateescape").strip(WS).encode("utf-8", "surrogateescape")
                 for n in stack.split(b";")]
        key = b";".join(names) if any(names) else b"[unknown]"
        totals[key] = totals.get(key, 0) + int(count)
    return b"".join(b"%s %d\n" % (k, totals[k]) for k in sorted(totals))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], "rb") as f:
        data = f.read()
    out = trim_folded(data)
    with open(argv[2], "wb") as f:
        f.write(out)
    return 0 if out == data else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv))
