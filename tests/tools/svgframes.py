#!/usr/bin/env python3
"""The frames a flamegraph SVG draws, as a table, and the differences between two of them.

    svgframes.py list FILE.svg            the table of FILE.svg on stdout
    svgframes.py compare WANT GOT         exit 0 when both draw the same frames, else 1 and
                 [--tol T] [--ignore-color]  the differences (WANT, GOT: .svg or .tsv tables)

The table (the format of tests/data/compat*/expected/*.frames.tsv):
  - header lines "#KEY<TAB>VALUE": svg.width, svg.height, the text of the elements whose id
    is title, subtitle, details, unzoom, search, matched (text.ID, stripped), the tag of the
    frames container (frames.tag, not compared) and its total_samples attribute;
  - one row per frame, a <g> in the frames container that holds a <rect>: y, x, width,
    height (numbers, 4 decimals), fill, fg:x, fg:w, the <title> text, the label. Frames
    drawn as <a> (a --nameattr href) are not rows: the inferno reference tables were made
    that way.
Rows are sorted, so the document order of the frames does not matter. Ids may carry a
per-render prefix ("P-frames"). Numbers compare within --tol (default 0.00011: one unit of
the 4th decimal, the precision of the percentages), everything else exactly.
Python 3 standard library only.
"""
import argparse
import re
import sys
import xml.etree.ElementTree as ET

INFERNO_NS = "http://github.com/jonhoo/inferno"
HEADER_TEXTS = ("title", "subtitle", "details", "unzoom", "search", "matched")
COLUMNS = ("y", "x", "width", "height", "fill", "fg:x", "fg:w", "title", "label")
NUMERIC = {0, 1, 2, 3}
NUMBER = re.compile(r"\s*(-?\d+(?:\.\d*)?|-?\.\d+)")


def tag(el):
    return el.tag.rpartition("}")[2]


def role(el):
    """The id without its per-render prefix: 'fg12-frames' and 'frames' are both 'frames'."""
    ident = el.get("id")
    return ident.rpartition("-")[2] if ident else None


def number(text):
    """The leading number of an attribute ('12.5000%' -> 12.5), None when there is none."""
    m = NUMBER.match(text or "")
    return float(m.group(1)) if m else None


def flat(text):
    return text.replace("\t", " ").replace("\n", " ")


def frame_row(g):
    """The row of a frame element, or None when it draws no rectangle."""
    rect = next((c for c in g if tag(c) == "rect"), None)
    if rect is None:
        return None
    title = next((c for c in g if tag(c) == "title"), None)
    label = next((c for c in g if tag(c) == "text"), None)
    return (
        number(rect.get("y")),
        number(rect.get("x")),
        number(rect.get("width")),
        number(rect.get("height")),
        rect.get("fill", ""),
        rect.get("{%s}x" % INFERNO_NS, ""),
        rect.get("{%s}w" % INFERNO_NS, ""),
        flat("".join(title.itertext())) if title is not None else "",
        flat("".join(label.itertext())) if label is not None else "",
    )


def from_svg(path):
    root = ET.parse(path).getroot()
    header = {"svg.width": root.get("width", ""), "svg.height": root.get("height", "")}
    frames = None
    for el in root.iter():
        r = role(el)
        if r in HEADER_TEXTS and tag(el) == "text":
            header["text." + r] = (el.text or "").strip()
        elif r == "frames" and frames is None and tag(el) in ("svg", "g"):
            frames = el
    if frames is None:
        raise ValueError("%s: no frames container (an element with id 'frames')" % path)
    header["frames.tag"] = tag(frames)
    if frames.get("total_samples") is not None:
        header["total_samples"] = frames.get("total_samples")
    rows = []
    for g in frames.iter():
        if g is not frames and tag(g) == "g":
            row = frame_row(g)
            if row is not None:
                rows.append(row)
    return header, rows


def from_tsv(path):
    header, rows = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                key, _, value = line[1:].partition("\t")
                header[key] = value
                continue
            cells = line.split("\t")
            if len(cells) < len(COLUMNS) - 1:
                raise ValueError("%s: a row with %d columns: %r" % (path, len(cells), line))
            cells += [""] * (len(COLUMNS) - len(cells))
            rows.append(tuple(number(c) if i in NUMERIC else c for i, c in enumerate(cells)))
    return header, rows


def read(path):
    """(header, rows) of an SVG or of a table written by `list`, rows sorted."""
    header, rows = from_tsv(path) if path.endswith(".tsv") else from_svg(path)
    rows.sort(key=lambda r: tuple(-1e300 if v is None else v for v in r[:4]) + r[4:])
    return header, rows


def show(v):
    if isinstance(v, float):
        return "%.4f" % v
    return "" if v is None else v


def table(path):
    header, rows = read(path)
    lines = ["#%s\t%s" % kv for kv in header.items()]
    lines += ["\t".join(show(v) for v in r) for r in rows]
    return "\n".join(lines) + "\n"


def differences(want, got, tol=0.00011, ignore_color=False):
    """The differences between two (header, rows) pairs, as lines of text."""
    (hw, rw), (hg, rg) = want, got
    out = []
    for key in sorted(set(hw) | set(hg)):
        if key != "frames.tag" and hw.get(key) != hg.get(key):
            out.append("header %s: want %r, got %r" % (key, hw.get(key), hg.get(key)))
    if len(rw) != len(rg):
        out.append("frames: want %d, got %d" % (len(rw), len(rg)))
    for i, (a, b) in enumerate(zip(rw, rg)):
        for c, (u, v) in enumerate(zip(a, b)):
            if c == 4 and ignore_color:
                continue
            if c in NUMERIC:
                same = u is not None and v is not None and abs(u - v) <= tol
            else:
                same = u == v
            if not same:
                out.append("frame %d (%s) %s: want %r, got %r"
                           % (i, a[7], COLUMNS[c], show(u), show(v)))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list", help="print the table of an SVG")
    ls.add_argument("svg")
    cmp_ = sub.add_parser("compare", help="compare two SVGs or tables")
    cmp_.add_argument("want")
    cmp_.add_argument("got")
    cmp_.add_argument("--tol", type=float, default=0.00011)
    cmp_.add_argument("--ignore-color", action="store_true")
    cmp_.add_argument("--limit", type=int, default=20, help="differences shown (default 20)")
    a = ap.parse_args(argv)
    try:
        if a.cmd == "list":
            sys.stdout.write(table(a.svg))
            return 0
        want, got = read(a.want), read(a.got)
    except (OSError, ValueError, ET.ParseError) as e:
        print("svgframes: %s" % e, file=sys.stderr)
        return 2
    diffs = differences(want, got, a.tol, a.ignore_color)
    for d in diffs[: a.limit]:
        print(d)
    if len(diffs) > a.limit:
        print("... and %d more differences" % (len(diffs) - a.limit))
    print("%d frames wanted, %d drawn, %d differences" % (len(want[1]), len(got[1]), len(diffs)))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
