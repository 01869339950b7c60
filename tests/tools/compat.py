#!/usr/bin/env python3
"""Runs the reference cases of tests/data against a foldsvg binary.

    compat.py flamegraph BIN [CASE...]  tests/data/compat: each case rendered to SVG must draw
                                        the frames inferno drew (expected/CASE.frames.tsv)
    compat.py perf BIN [CASE...]        tests/data/compat-perf: raw `perf script` text read
                                        with inferno-collapse-perf's flags must give the folded
                                        text inferno gave (expected/CASE.folded), byte for byte
                                        after trim_names.py (the one documented difference)
    compat.py diff BIN [CASE...]        tests/data/compat-diff: `--diff BEFORE AFTER` must give
                                        inferno-diff-folded's lines (expected/CASE.folded, in
                                        any order) and draw inferno's frames (CASE.frames.tsv)
Options: --data DIR (default: tests/data beside this script's folder), --keep DIR (keep each
case's output there). Prints one line per failing case and a closing "KIND: N passed, M
failed"; exits 0 when every selected case passed and at least one ran.

Flamegraph cases run as `BIN --no-javascript [--countname samples] FLAGS INPUTS -o out.svg`
in a folder that holds the inputs' top directories (the cases name inputs, --nameattr files
and palette maps by paths relative to inputs/) and, for palette cases, ./palette.map.
`--countname samples` is added unless the case sets its own: inferno counts samples, foldsvg
cycles. Python 3 standard library only.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trim_names import trim_folded  # noqa: E402
import svgframes  # noqa: E402


def cases(path, columns, wanted):
    """The rows of a cases.tsv with COLUMNS cells each ('-' for none), filtered by name."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) != columns:
                raise SystemExit("%s:%d: %d columns, want %d" % (path, n, len(cells), columns))
            cells = [None if c == "-" else c for c in cells]
            if not wanted or cells[0] in wanted:
                yield cells


def run(cmd, cwd):
    r = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True)
    return r.returncode, r.stderr.decode("utf-8", "replace").strip()


def frames_problems(expected, svg):
    try:
        d = svgframes.differences(svgframes.read(expected), svgframes.read(svg))
    except (OSError, ValueError, svgframes.ET.ParseError) as e:
        return [str(e)]
    return d


def flamegraph(bin_, data, work, name, inputs, flags, palette):
    here = os.path.join(work, name)
    os.mkdir(here)
    for top in os.listdir(os.path.join(data, "inputs")):
        os.symlink(os.path.join(data, "inputs", top), os.path.join(here, top))
    if palette:
        shutil.copy(os.path.join(data, "inputs", palette), os.path.join(here, "palette.map"))
    words = shlex.split(flags or "")
    extra = [] if "--countname" in words else ["--countname", "samples"]
    cmd = [bin_, "--no-javascript"] + extra + words + inputs.split() + ["-o", "out.svg"]
    rc, err = run(cmd, here)
    if rc != 0:
        return ["exit %d: %s" % (rc, err)], None
    out = os.path.join(here, "out.svg")
    return frames_problems(os.path.join(data, "expected", name + ".frames.tsv"), out), out


def perf(bin_, data, work, name, input_, flags):
    out = os.path.join(work, name + ".folded")
    cmd = [bin_] + shlex.split(flags or "") + [os.path.join(data, "inputs", input_), "-o", out]
    rc, err = run(cmd, work)
    if rc != 0:
        return ["exit %d: %s" % (rc, err)], None
    with open(out, "rb") as f:
        got = f.read()
    with open(os.path.join(data, "expected", name + ".folded"), "rb") as f:
        want = trim_folded(f.read())  # the one documented difference (trim_names.py)
    return first_line_difference(want.split(b"\n"), got.split(b"\n")), out


def first_line_difference(want, got):
    if want == got:
        return []
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            return ["line %d: want %r, got %r" % (i + 1, a[:120], b[:120])]
    return ["%d lines wanted, %d written" % (len(want), len(got))]


def lines_of(data):
    """The lines of a text as `sort` sees them: split on newlines only, the last one ended."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def diff(bin_, data, work, name, before, after, dflags, gflags):
    """What compat-diff's run.sh checks: the folded output, sorted, is expected/NAME.folded
    line for line; the SVG draws expected/NAME.frames.tsv. Both are run whatever the other
    gave."""
    inputs = [os.path.join(data, "inputs", before), os.path.join(data, "inputs", after)]
    d, g = shlex.split(dflags or ""), shlex.split(gflags or "")
    folded = os.path.join(work, name + ".folded")
    svg = os.path.join(work, name + ".svg")
    problems = []
    rc, err = run([bin_, "--diff"] + inputs + d + ["-o", folded], work)
    if rc != 0:
        problems.append("folded: exit %d: %s" % (rc, err))
    else:
        with open(folded, "rb") as f:
            got = sorted(lines_of(f.read()))
        with open(os.path.join(data, "expected", name + ".folded"), "rb") as f:
            want = sorted(lines_of(f.read()))
        problems += ["folded: " + p for p in first_line_difference(want, got)]
    cmd = [bin_, "--diff"] + inputs + d + ["--no-javascript", "--countname", "samples"] + g
    rc, err = run(cmd + ["-o", svg], work)
    if rc != 0:
        return problems + ["svg: exit %d: %s" % (rc, err)], None
    expected = os.path.join(data, "expected", name + ".frames.tsv")
    return problems + ["svg: " + p for p in frames_problems(expected, svg)], svg


KINDS = {
    # kind: (folder under tests/data, cells per case row, runner)
    "flamegraph": ("compat", 4, flamegraph),
    "perf": ("compat-perf", 3, perf),
    "diff": ("compat-diff", 5, diff),
}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("bin")
    ap.add_argument("cases", nargs="*")
    default = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
    ap.add_argument("--data", default=default)
    ap.add_argument("--keep")
    a = ap.parse_args(argv)
    folder, columns, runner = KINDS[a.kind]
    data = os.path.join(a.data, folder)
    bin_ = os.path.abspath(a.bin)
    passed = failed = 0
    seen = set()
    with tempfile.TemporaryDirectory(prefix="foldsvg-compat-") as work:
        for row in cases(os.path.join(data, "cases.tsv"), columns, set(a.cases)):
            seen.add(row[0])
            problems, out = runner(bin_, data, work, *row)
            if a.keep and out:
                os.makedirs(a.keep, exist_ok=True)
                shutil.copy(out, os.path.join(a.keep, os.path.basename(out)
                                              if a.kind != "flamegraph" else row[0] + ".svg"))
            if problems:
                failed += 1
                print("FAIL %s" % row[0])
                for p in problems[:8]:
                    print("    " + p)
                if len(problems) > 8:
                    print("    ... and %d more" % (len(problems) - 8))
            else:
                passed += 1
    for name in sorted(set(a.cases) - seen):
        failed += 1
        print("FAIL %s: no such case in %s" % (name, os.path.join(data, "cases.tsv")))
    print("%s: %d passed, %d failed" % (a.kind, passed, failed))
    return 0 if passed and not failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
