#!/usr/bin/env python3
"""A reference converter from Firefox-Profiler JSON to folded stacks, for the tests.

    ffprof2folded.py PROFILE.json[.gz] [--thread N] [--ordered] [--samples] > out.folded

It shares no code with foldsvg and is written to be read, not to be fast: the whole file
is loaded with the json module and every sample is a Python object. The rules are those of
docs/firefox-profiles.md:

- gzip is recognised by its magic bytes; a {"profile": {...}} wrapper without "meta" is
  unwrapped. Processed format when meta.preprocessedProfileVersion is a number or
  threads[0] has a stringArray (unversioned); Gecko format otherwise.
- Gecko: tables are {schema, data}; cells are found through the schema, a short row has null
  cells. A frame's name is the thread's stringTable[location]; a stack's parent is its
  prefix. A sample weighs 1, or its threadCPUDelta cell (1 when null or absent) in a
  profile whose meta.product is "SP1 ZKVM" (sub-profiles without a product inherit it).
  Threads stored as JSON strings and processes[] entries are sub-profiles.
- Processed: column tables, the thread's own or profile.shared's; strings in the thread's
  stringArray or shared.stringArray. name = strings[funcTable.name[frameTable.func[
  stackTable.frame[s]]]]; parent = prefix[s], or s - prefixOffset[s] (0: none). A sample
  weighs samples.weight[i], 1 each when there is no weight array (before v29: the duration
  array when there is one).
- Threads in document order (the numbers of --thread): a profile's object threads, then
  its sub-profiles from string entries, then those of processes[], each depth first. All
  threads are merged unless --thread picks one.
- Names: ';' becomes ':', '\\n' and '\\r' become a space. A null stack is "[unknown]".
  Zero weights are dropped, equal stacks summed exactly (fractions when a weight is not a
  whole number, each stack's sum then rounded half up; a stack that rounds to 0 is left
  out). Lines "STACK COUNT" sorted by the UTF-8 bytes of STACK; a lone surrogate from a
  JSON escape is written as its 3-byte WTF-8 form.

--ordered writes one thread's samples in their order instead (--thread N, or the one thread
that has samples): a line per sample with a weight ("STACK WEIGHT", zero weights left out),
the lines of a flame chart; --samples weighs every sample 1 (foldsvg's --weight samples).
Fractional weights are rounded where they end up: a sample's count is the rounded running
total after it minus the rounded total before it.

Malformed input (an index out of range, a cycle of prefixes, a missing table) stops with
an error rather than guessing. Standard error lists the threads, one line each:
"  thread N ORIGIN name='NAME' process='PROCESS' samples=ROWS weight=TOTAL".
Python 3 standard library only.
"""
import argparse
import gzip
import json
import sys
from fractions import Fraction

SP1 = "SP1 ZKVM"
UNKNOWN = "[unknown]"


class BadProfile(Exception):
    pass


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def index(seq, i, what):
    if not isinstance(seq, list):
        raise BadProfile("%s is not an array" % what)
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(seq):
        raise BadProfile("index %r out of range of %s (%d entries)" % (i, what, len(seq)))
    return seq[i]


def clean(name):
    if not isinstance(name, str):
        raise BadProfile("a frame name that is not a string: %r" % (name,))
    # whitespace at a name's ends goes: folded text cannot carry it (docs/cli.md)
    return name.replace(";", ":").replace("\n", " ").replace("\r", " ").strip(" \t\n\r\v\f")


class Thread:
    """A thread as functions over its stack indexes, and its samples (stack, weight)."""

    def __init__(self, origin, obj, count, parent, name, samples):
        self.origin = origin
        self.name = obj.get("name")
        self.process = obj.get("processName")
        self.count = count      # number of stacks
        self.parent = parent    # stack -> parent stack or None
        self.frame_name = name  # stack -> raw frame name
        self.samples = samples  # [(stack or None, weight)]
        self.memo = {}

    def folded(self, stack):
        if stack is None:
            return UNKNOWN
        if stack in self.memo:
            return self.memo[stack]
        names, s = [], stack
        while s is not None:
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < self.count:
                raise BadProfile("%s: stack index %r out of range" % (self.origin, s))
            if len(names) >= self.count:
                raise BadProfile("%s: the prefixes of stack %d form a cycle" % (self.origin, stack))
            names.append(clean(self.frame_name(s)))
            s = self.parent(s)
        text = ";".join(reversed(names)) if any(names) else UNKNOWN  # all empty: no stack
        self.memo[stack] = text
        return text


# ------------------------------------------------------------------ Gecko

def gecko_table(thread, key, origin):
    t = thread.get(key)
    if not (isinstance(t, dict) and isinstance(t.get("schema"), dict)
            and isinstance(t.get("data"), list)):
        raise BadProfile("%s: no %s {schema, data}" % (origin, key))
    return t["schema"], t["data"]


def cell(row, column):
    if column is None:
        return None
    if not isinstance(row, list):
        raise BadProfile("a table row that is not an array: %r" % (row,))
    return row[column] if column < len(row) else None


def gecko_thread(obj, origin, sp1):
    strings = obj.get("stringTable")
    fschema, frames = gecko_table(obj, "frameTable", origin)
    sschema, stacks = gecko_table(obj, "stackTable", origin)
    if "samples" in obj:
        mschema, rows = gecko_table(obj, "samples", origin)
    else:
        mschema, rows = {"stack": 0}, []
    location, prefix, frame = fschema.get("location"), sschema.get("prefix"), sschema.get("frame")
    stack_col = mschema.get("stack")
    delta_col = mschema.get("threadCPUDelta")

    def parent(s):
        return cell(stacks[s], prefix)

    def name(s):
        f = index(frames, cell(stacks[s], frame), origin + " frameTable")
        return index(strings, cell(f, location), origin + " stringTable")

    samples = []
    for row in rows:
        weight = 1
        if sp1:
            d = cell(row, delta_col)
            weight = 1 if d is None else d
        samples.append((cell(row, stack_col), weight))
    return Thread(origin, obj, len(stacks), parent, name, samples)


def gecko_threads(profile, origin, product, out):
    meta = profile.get("meta")
    if isinstance(meta, dict) and "product" in meta:
        product = meta["product"]
    later = []
    for i, t in enumerate(profile.get("threads") or []):
        where = "%sthreads[%d]" % (origin, i)
        if isinstance(t, str):
            later.append((where + ":", json.loads(t)))
        elif isinstance(t, dict):
            out.append(gecko_thread(t, where, product == SP1))
        else:
            raise BadProfile("%s is neither an object nor a string" % where)
    for i, p in enumerate(profile.get("processes") or []):
        later.append(("%sprocesses[%d]." % (origin, i), json.loads(p) if isinstance(p, str) else p))
    for where, sub in later:
        if not isinstance(sub, dict):
            raise BadProfile("%s is not a profile object" % where)
        gecko_threads(sub, where, product, out)


# ------------------------------------------------------------------ processed

def processed_threads(profile, version):
    shared = profile.get("shared") or {}
    out = []
    for i, t in enumerate(profile.get("threads") or []):
        origin = "threads[%d]" % i

        def own_or_shared(key, t=t, origin=origin):
            if key in t:
                return t[key]
            if key in shared:
                return shared[key]
            raise BadProfile("%s: no %s, in the thread or in shared" % (origin, key))

        st, ft = own_or_shared("stackTable"), own_or_shared("frameTable")
        fn, strings = own_or_shared("funcTable"), own_or_shared("stringArray")
        frame_of, func_of, name_of = st["frame"], ft["func"], fn["name"]
        if "prefixOffset" in st:
            def parent(s, offsets=st["prefixOffset"]):
                o = offsets[s]
                return None if o == 0 else s - o
        else:
            def parent(s, prefixes=st["prefix"]):
                return prefixes[s]

        def name(s, frame_of=frame_of, func_of=func_of, name_of=name_of, strings=strings,
                 origin=origin):
            f = index(frame_of, s, origin + " stackTable.frame")
            func = index(func_of, f, origin + " frameTable.func")
            return index(strings, index(name_of, func, origin + " funcTable.name"),
                         origin + " stringArray")

        if st.get("length", len(frame_of)) != len(frame_of):
            raise BadProfile("%s: stackTable.length is not the length of its columns" % origin)
        samples = t.get("samples") or {}
        stacks = samples.get("stack") or []
        weights = samples.get("weight")
        if weights is None and version < 29 and isinstance(samples.get("duration"), list):
            weights = samples["duration"]
        if weights is None:
            weights = [1] * len(stacks)
        if len(weights) != len(stacks):
            raise BadProfile("%s: %d weights for %d samples" % (origin, len(weights), len(stacks)))
        out.append(Thread(origin, t, len(frame_of), parent, name, list(zip(stacks, weights))))
    return out


# ------------------------------------------------------------------ the whole file

def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw)
    if isinstance(doc, dict) and "meta" not in doc and isinstance(doc.get("profile"), dict):
        doc = doc["profile"]
    if not isinstance(doc, dict) or not isinstance(doc.get("meta"), dict):
        raise BadProfile("%s: not a Firefox profile (no meta object)" % path)
    return doc


def threads_of(doc):
    meta = doc["meta"]
    version = meta.get("preprocessedProfileVersion")
    first = (doc.get("threads") or [None])[0]
    if is_number(version) or (isinstance(first, dict) and "stringArray" in first):
        return processed_threads(doc, version if is_number(version) else 0)
    out = []
    gecko_threads(doc, "", None, out)
    return out


def exact(w, where):
    if not is_number(w):
        raise BadProfile("%s: a weight that is not a number: %r" % (where, w))
    if isinstance(w, float):
        return int(w) if w.is_integer() else Fraction(w)
    return w


def fold(threads, only=None):
    """{stack: count} over the selected threads, and each thread's total weight."""
    sums, totals = {}, []
    for i, th in enumerate(threads):
        if only is not None and i != only:
            totals.append(None)
            continue
        total = 0
        for stack, w in th.samples:
            w = exact(w, th.origin)
            if w == 0:
                continue
            key = th.folded(stack)
            sums[key] = sums.get(key, 0) + w
            total += w
        totals.append(total)
    counts = {}
    for key, c in sums.items():
        if isinstance(c, Fraction):
            c = (c + Fraction(1, 2)).__floor__()
        if c:
            counts[key] = c
    return counts, totals


def ordered(th, samples=False):
    """A thread's samples in order, as (stack, count) pairs."""
    out, total, shown = [], 0, 0
    for stack, w in th.samples:
        total += 1 if samples else exact(w, th.origin)
        upto = (total + Fraction(1, 2)).__floor__() if isinstance(total, Fraction) else total
        if upto != shown:
            out.append((th.folded(stack), upto - shown))
        shown = upto
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("profile")
    ap.add_argument("--thread", type=int, help="only thread N (0-based, document order)")
    ap.add_argument("--ordered", action="store_true",
                    help="one thread's samples in their order, a line each")
    ap.add_argument("--samples", action="store_true", help="with --ordered: each sample weighs 1")
    a = ap.parse_args(argv)
    try:
        threads = threads_of(load(a.profile))
        if a.thread is not None and not 0 <= a.thread < len(threads):
            raise BadProfile("--thread %d: the profile has %d threads" % (a.thread, len(threads)))
        if a.ordered:
            busy = [i for i, th in enumerate(threads) if th.samples
                    and (a.thread is None or i == a.thread)]
            if len(busy) > 1:
                raise BadProfile("--ordered: threads %s have samples: choose one" % busy)
            out = sys.stdout.buffer
            for k, c in ordered(threads[busy[0]], a.samples) if busy else []:
                out.write(b"%s %d\n" % (k.encode("utf-8", "surrogatepass"), c))
            out.flush()
            return 0
        counts, totals = fold(threads, a.thread)
    except (BadProfile, OSError, ValueError, KeyError, TypeError) as e:
        print("ffprof2folded: %s" % e, file=sys.stderr)
        return 1
    lines = sorted((k.encode("utf-8", "surrogatepass"), c) for k, c in counts.items())
    out = sys.stdout.buffer
    for k, c in lines:
        out.write(b"%s %d\n" % (k, c))
    out.flush()
    for i, (th, total) in enumerate(zip(threads, totals)):
        shown = "" if total is None else " weight=%s" % (total if not isinstance(total, Fraction)
                                                         else float(total))
        print("  thread %d %s name=%r process=%r samples=%d%s"
              % (i, th.origin, th.name, th.process, len(th.samples), shown), file=sys.stderr)
    print("%d threads, %d unique stacks" % (len(threads), len(lines)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
