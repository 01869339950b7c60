#!/usr/bin/env python3
"""Tests of the test tools themselves: the oracles must be able to fail, and must agree with
the reference data they stand in for.
    FOLDSVG_BIN=build/foldsvg test_tools.py     (the binary for the runner's tests)
Python 3 standard library only."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data")
sys.path.insert(0, HERE)
import svgframes  # noqa: E402
import ffprof2folded  # noqa: E402

SVG = """<?xml version="1.0" standalone="no"?>
<svg version="1.1" width="1200" height="70" xmlns="http://www.w3.org/2000/svg"
     xmlns:fg="http://github.com/jonhoo/inferno">
<text id="p-title" x="50%" y="24">Flame Graph</text><text id="p-details" x="10" y="60"> </text>
<svg id="p-frames" x="10" width="1180" total_samples="4">
<g><title>b (1 samples, 25.00%)</title><rect x="75.0000%" y="21" width="25.0000%" height="15"
 fill="rgb(1,2,3)" fg:x="3" fg:w="1"/><text x="75.2500%" y="31.50">b</text></g>
<g><title>all (4 samples, 100%)</title><rect x="0.0000%" y="37" width="100.0000%" height="15"
 fill="rgb(4,5,6)" fg:x="0" fg:w="4"/><text x="0.2500%" y="47.50"></text></g>
<a href="x"><title>a (3 samples, 75.00%)</title><rect x="0.0000%" y="21" width="75.0000%"
 height="15" fill="rgb(7,8,9)" fg:x="0" fg:w="3"/><text x="0.2500%" y="31.50">a</text></a>
</svg></svg>
"""


def run(*cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


class SvgFrames(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.svg = os.path.join(self.dir.name, "a.svg")
        with open(self.svg, "w") as f:
            f.write(SVG)

    def tearDown(self):
        self.dir.cleanup()

    def variant(self, old, new):
        path = os.path.join(self.dir.name, "b.svg")
        self.assertIn(old, SVG)
        with open(path, "w") as f:
            f.write(SVG.replace(old, new))
        return svgframes.read(path)

    def test_table(self):
        header, rows = svgframes.read(self.svg)
        self.assertEqual(header["text.title"], "Flame Graph")
        self.assertEqual(header["text.details"], "")
        self.assertEqual(header["total_samples"], "4")
        # sorted by y then x; the <a> frame is not a row
        self.assertEqual([r[7] for r in rows], ["b (1 samples, 25.00%)", "all (4 samples, 100%)"])
        self.assertEqual(rows[0][:7], (21.0, 75.0, 25.0, 15.0, "rgb(1,2,3)", "3", "1"))

    def test_table_round_trip(self):
        tsv = os.path.join(self.dir.name, "a.frames.tsv")
        with open(tsv, "w") as f:
            f.write(svgframes.table(self.svg))
        self.assertEqual(svgframes.differences(svgframes.read(tsv), svgframes.read(self.svg)), [])

    def test_differences_found(self):
        want = svgframes.read(self.svg)
        cases = [
            ('width="25.0000%"', 'width="25.0002%"', "width"),
            ('fill="rgb(1,2,3)"', 'fill="rgb(1,2,4)"', "fill"),
            ('fg:w="1"', 'fg:w="2"', "fg:w"),
            ('<text x="75.2500%" y="31.50">b</text>', '<text x="75.2500%" y="31.50">b..</text>',
             "label"),
            ("Flame Graph", "Icicle Graph", "text.title"),
            ('total_samples="4"', 'total_samples="5"', "total_samples"),
            (SVG[SVG.index("<g><title>b"):SVG.index("<g><title>all")], "", "frames"),
        ]
        for old, new, what in cases:
            d = svgframes.differences(want, self.variant(old, new))
            self.assertTrue(d and what in d[0], "%s: %r" % (what, d))

    def test_tolerance_and_order(self):
        # the 4th decimal may differ by one; the order of the <g> elements does not matter
        got = self.variant('width="25.0000%"', 'width="25.0001%"')
        self.assertEqual(svgframes.differences(svgframes.read(self.svg), got), [])
        g1, g2 = SVG.split("<g>")[1], SVG.split("<g>")[2].split("<a ")[0]
        swapped = self.variant("<g>" + g1 + "<g>" + g2, "<g>" + g2 + "<g>" + g1)
        self.assertEqual(svgframes.differences(svgframes.read(self.svg), swapped), [])
        colored = self.variant('fill="rgb(1,2,3)"', 'fill="rgb(9,9,9)"')
        self.assertEqual(svgframes.differences(svgframes.read(self.svg), colored,
                                               ignore_color=True), [])

    def test_command_line(self):
        r = run(sys.executable, os.path.join(HERE, "svgframes.py"), "compare", self.svg, self.svg)
        self.assertEqual(r.returncode, 0, r.stdout)
        other = os.path.join(self.dir.name, "c.svg")
        with open(other, "w") as f:
            f.write(SVG.replace("rgb(4,5,6)", "rgb(0,0,0)"))
        r = run(sys.executable, os.path.join(HERE, "svgframes.py"), "compare", self.svg, other)
        self.assertEqual(r.returncode, 1)
        self.assertIn("fill", r.stdout)


class Oracle(unittest.TestCase):
    def test_fixtures(self):
        """The converter reproduces every expected output of the fixtures."""
        fixtures = os.path.join(DATA, "firefox")
        names = [n for n in sorted(os.listdir(fixtures)) if n.endswith((".json", ".json.gz"))]
        self.assertGreaterEqual(len(names), 11)
        for n in names:
            counts, _ = ffprof2folded.fold(ffprof2folded.threads_of(
                ffprof2folded.load(os.path.join(fixtures, n))))
            got = b"".join(b"%s %d\n" % kv for kv in
                           sorted((k.encode("utf-8", "surrogatepass"), c)
                                  for k, c in counts.items()))
            with open(os.path.join(fixtures, "expected", n + ".folded"), "rb") as f:
                self.assertEqual(got, f.read(), n)

    def test_rules(self):
        doc = {"meta": {"version": 24, "product": "SP1 ZKVM"},
               "threads": [{"stringTable": ["a;b", "c\nd", "e"],
                            "frameTable": {"schema": {"location": 0}, "data": [[0], [1], [2]]},
                            "stackTable": {"schema": {"frame": 1, "prefix": 0},
                                           "data": [[None, 0], [0, 1], [1, 2]]},
                            "samples": {"schema": {"stack": 0, "threadCPUDelta": 1},
                                        "data": [[2, 5], [None, 2], [1, 0], [2], [2, 1.5]]}}]}
        counts, totals = ffprof2folded.fold(ffprof2folded.threads_of(doc))
        # 5 + 1 (no cell: 1) + 1.5 = 7.5 rounds half up to 8; the zero weight is dropped
        self.assertEqual(counts, {"a:b;c d;e": 8, "[unknown]": 2})
        doc["threads"][0]["stackTable"]["data"][0] = [2, 0]  # a cycle of prefixes
        with self.assertRaises(ffprof2folded.BadProfile):
            ffprof2folded.fold(ffprof2folded.threads_of(doc))


class Generators(unittest.TestCase):
    def gen(self, *args):
        r = subprocess.run([sys.executable] + list(args), capture_output=True, check=True)
        return r.stdout

    def test_folded(self):
        g = os.path.join(HERE, "gen_folded.py")
        a = self.gen(g, "-n", "500", "--seed", "3")
        self.assertEqual(a, self.gen(g, "-n", "500", "--seed", "3"))
        lines = a.split(b"\n")[:-1]
        self.assertEqual(len(lines), 500)
        self.assertEqual(lines, sorted(lines))
        stacks = [ln.rsplit(b" ", 1)[0] for ln in lines]
        self.assertEqual(len(set(stacks)), 500)
        self.assertTrue(all(10 <= s.count(b";") + 1 <= 40 for s in stacks))
        shuffled = self.gen(g, "-n", "500", "--seed", "3", "--shuffle", "1").split(b"\n")[:-1]
        self.assertNotEqual(shuffled, lines)
        self.assertEqual(sorted(shuffled), lines)
        rep = self.gen(g, "-n", "20", "--seed", "3", "--repeat", "50K")
        self.assertGreaterEqual(len(rep), 50000)
        self.assertEqual(len(set(ln.rsplit(b" ", 1)[0] for ln in rep.split(b"\n")[:-1])), 20)

    def test_sp1_profile(self):
        g = os.path.join(HERE, "gen_sp1_profile.py")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "p.json.gz")
            self.gen(g, "-n", "3000", "--seed", "5", "--rate", "4", "-o", path)
            doc = ffprof2folded.load(path)
            self.assertEqual(doc["meta"]["product"], "SP1 ZKVM")
            self.assertEqual(list(doc["threads"][0])[-1], "stringTable")
            counts, _ = ffprof2folded.fold(ffprof2folded.threads_of(doc))
            self.assertEqual(sum(counts.values()), 3000 * 4)
            self.assertIn("[unknown]", counts)  # the leading null stacks
            strings = doc["threads"][0]["stringTable"]
            self.assertTrue(any("; " in s for s in strings))  # array types, as [u8; 32]
            self.assertIn("", strings)  # --nasty: hostile names
            self.assertTrue(any("\n" in s for s in strings))
            self.assertEqual(self.gen(g, "-n", "3000", "--seed", "5", "--rate", "4"),
                             self.gen(g, "-n", "3000", "--seed", "5", "--rate", "4"))
            for stack in counts:
                frames = stack.split(";")
                self.assertEqual(len(frames), len(set(frames)), "recursion in " + stack)


@unittest.skipUnless(os.environ.get("FOLDSVG_BIN"), "FOLDSVG_BIN names the binary")
class Runner(unittest.TestCase):
    def compat(self, binary, *cases):
        return run(sys.executable, os.path.join(HERE, "compat.py"), "flamegraph", binary, *cases)

    def test_passes_and_fails(self):
        r = self.compat(os.environ["FOLDSVG_BIN"], "factor", "inverted")
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("flamegraph: 2 passed, 0 failed", r.stdout)
        with tempfile.TemporaryDirectory() as d:
            # a binary that draws other frames: widths pruned differently
            wrong = os.path.join(d, "wrong")
            with open(wrong, "w") as f:
                f.write('#!/bin/sh\nexec "%s" --minwidth 1 "$@"\n' % os.environ["FOLDSVG_BIN"])
            os.chmod(wrong, 0o755)
            r = self.compat(wrong, "factor")
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn("FAIL factor", r.stdout)
        r = self.compat(os.environ["FOLDSVG_BIN"], "no-such-case")
        self.assertEqual(r.returncode, 1)

    def test_diff_runner_fails(self):
        def diff(binary, *cases):
            return run(sys.executable, os.path.join(HERE, "compat.py"), "diff", binary, *cases)
        r = diff(os.environ["FOLDSVG_BIN"], "small", "small-normalize")
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("diff: 2 passed, 0 failed", r.stdout)
        with tempfile.TemporaryDirectory() as d:
            # the sides swapped: other lines, other colors; and a folded writer that leaves a
            # line out (the SVG still right): each is found
            swapped = os.path.join(d, "swapped")
            with open(swapped, "w") as f:
                f.write('#!/bin/sh\nshift; a=$1; b=$2; shift 2\nexec "%s" --diff "$b" "$a" "$@"\n'
                        % os.environ["FOLDSVG_BIN"])
            short = os.path.join(d, "short")
            with open(short, "w") as f:
                f.write('#!/bin/sh\nfor o; do out=$o; done\n"%s" "$@" || exit\n'
                        'case $out in *.folded) sed -i 1d "$out" ;; esac\n'
                        % os.environ["FOLDSVG_BIN"])
            for fake in (swapped, short):
                os.chmod(fake, 0o755)
            r = diff(swapped, "small")
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn("folded: line 1", r.stdout)
            self.assertIn("svg: ", r.stdout)
            r = diff(short, "small")
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn("FAIL small", r.stdout)
            self.assertNotIn("svg: ", r.stdout)


if __name__ == "__main__":
    unittest.main()
