#!/bin/sh
# End-to-end tests of the profile reports: the numbers of `foldsvg --top` (JSON, text and
# Markdown) and of the HTML report's tables must equal numbers computed here, independently,
# in Python from the folded output of the reference converter tests/tools/ffprof2folded.py,
# on the Firefox fixtures (tests/data/firefox), on SP1 profiles made by
# tests/tools/gen_sp1_profile.py (plain and gzip) and on folded text with recursion.
#   tests/reports.sh BIN
set -eu
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$bin" "$here" "$work" <<'PY'
import collections, gzip, html.parser, json, os, random, re, subprocess, sys

bin_, here, work = sys.argv[1:4]
tools = os.path.join(here, "tools")
fixtures = os.path.join(here, "data", "firefox")
passed = failed = 0


def fail(case, msg):
    global failed
    failed += 1
    print(f"FAIL {case}: {msg}")


def reference(folded_text):
    """Total, unique stacks, self and inclusive sums per name, from folded lines."""
    self_, incl = collections.Counter(), collections.Counter()
    total = 0
    stacks = set()
    for line in folded_text.split("\n"):
        if not line.strip():
            continue
        stack, _, count = line.rpartition(" ")
        n = int(count)
        if n == 0:
            continue
        stacks.add(stack)
        frames = stack.split(";")
        total += n
        self_[frames[-1]] += n
        for name in set(frames):
            incl[name] += n
    order = lambda c: sorted(c.items(), key=lambda kv: (-kv[1], kv[0].encode()))
    return total, len(stacks), order(self_), order(incl)


def run(args):
    r = subprocess.run([bin_] + args, capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(f"foldsvg {' '.join(args)} exited {r.returncode}: "
                           f"{r.stderr.decode(errors='replace').strip()}")
    return r.stdout.decode("utf-8", errors="surrogateescape")


def check_json(case, path, ref, top):
    total, unique, self_, incl = ref
    got = json.loads(run(["--top", str(top), "--top-format", "json", path]))
    ok = True
    if got["total"] != total or got["unique_stacks"] != unique:
        fail(case, f"json total/unique {got['total']}/{got['unique_stacks']}, want {total}/{unique}")
        return
    for key, want in (("self", self_), ("inclusive", incl)):
        rows = [(r["name"], r["count"]) for r in got[key]]
        if rows != want[:top]:
            for i, (a, b) in enumerate(zip(rows, want)):
                if a != b:
                    fail(case, f"json {key} row {i}: {a!r}, want {b!r}")
                    break
            else:
                fail(case, f"json {key}: {len(rows)} rows, want {len(want[:top])}")
            ok = False
        for r in got[key]:
            if abs(r["percent"] - 100.0 * r["count"] / total) > 1e-3:
                fail(case, f"json {key} percent of {r['name']!r}: {r['percent']}")
                ok = False
                break
    if ok:
        ok_(case + " json")


def ok_(case):
    global passed
    passed += 1


def num(s):
    return int(s.replace(",", ""))


def as_terminal_text(name):
    """A name as the text tables write it: the bytes of control characters (C0, DEL, C1)
    and bytes that are not UTF-8 as \\xNN."""
    b, out, i = name.encode("utf-8", "surrogateescape"), [], 0
    while i < len(b):
        for n in (1, 2, 3, 4):
            try:
                c = b[i:i + n].decode("utf-8")
            except UnicodeDecodeError:
                continue
            break
        else:
            c, n = None, 1
        if c is None or ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f:
            out.append("".join("\\x%02x" % x for x in b[i:i + n]))
        else:
            out.append(c)
        i += n
    return "".join(out)


def check_text(case, path, ref, top):
    total, unique, self_, incl = ref
    self_ = [(as_terminal_text(n), c) for n, c in self_]
    incl = [(as_terminal_text(n), c) for n, c in incl]
    out = run(["--top", str(top), path])
    m = re.search(r"^Total: ([\d,]+) ", out, re.M)
    u = re.search(r"^Unique stacks: ([\d,]+)$", out, re.M)
    if not m or num(m.group(1)) != total or not u or num(u.group(1)) != unique:
        fail(case, "text header")
        return
    parts = re.split(r"^(?:Self|Inclusive) time: .*$", out, flags=re.M)
    for body, want in ((parts[1], self_), (parts[2], incl)):
        rows = []
        for line in body.strip("\n").split("\n")[1:]:
            mm = re.match(r"^ *([\d,]+) +([\d.]+)% {2}(.*)$", line)
            rows.append((mm.group(3), num(mm.group(1))) if mm else None)
        if rows != want[:top]:
            fail(case, f"text rows differ: {rows[:3]} vs {want[:3]}")
            return
    ok_(case + " text")


def check_markdown(case, path, ref, top):
    total, unique, self_, _ = ref
    out = run(["--top", str(top), "--top-format", "markdown", path])
    m = re.search(r"\*\*Total:\*\* ([\d,]+) ", out)
    if not m or num(m.group(1)) != total or f"**Unique stacks:** {unique:,}" not in out:
        fail(case, "markdown header")
        return
    counts = [num(x) for x in re.findall(r"^\| ([\d,]+) \|", out, re.M)]
    if counts[: min(top, len(self_))] != [c for _, c in self_[:top]]:
        fail(case, "markdown self counts")
        return
    ok_(case + " markdown")


class Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.row, self.facts, self.dt = [], None, None, {}, None
        self.in_dd = False

    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("class", "fs-top") in attrs:
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = ""
        elif tag == "dt":
            self.dt = ""
        elif tag == "dd":
            self.in_dd = True
            self.facts[self.dt] = ""

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row:
            self.tables[-1].append(self.row)
            self.row = None
        elif tag == "dd":
            self.in_dd = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        elif self.dt is not None and not self.in_dd and data.strip():
            self.dt += data
        if self.in_dd:
            self.facts[self.dt] += data


def as_xml_text(name):
    """A name as the page holds it: characters XML cannot hold become U+FFFD."""
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]", "\ufffd", name)


def check_html(case, path, ref):
    total, unique, self_, incl = ref
    self_ = [(as_xml_text(n), c) for n, c in self_]
    incl = [(as_xml_text(n), c) for n, c in incl]
    out = os.path.join(work, "report.html")
    run([path, "-o", out])
    p = Tables()
    with open(out, encoding="utf-8") as f:
        p.feed(f.read())
    facts = {k.strip(): v for k, v in p.facts.items()}
    unit = [k for k in facts if k.startswith("Total ")]
    if not unit or num(facts[unit[0]]) != total or num(facts["Unique stacks"]) != unique:
        fail(case, f"html facts {facts}")
        return
    for rows, want in zip(p.tables, (self_, incl)):
        got = [(r[2], num(r[0])) for r in rows]
        if got != want[:25]:
            fail(case, f"html rows differ: {got[:3]} vs {want[:3]}")
            return
    if len(p.tables) != 2:
        fail(case, f"html has {len(p.tables)} tables")
        return
    ok_(case + " html")


def check(case, path, folded_text, html=True):
    ref = reference(folded_text)
    for fn in (check_json, check_text, check_markdown):
        try:
            fn(case, path, ref, 1000000 if fn is check_json else 15)
        except Exception as e:  # a crash is a failure of this case, not of the run
            fail(case, f"{fn.__name__}: {e}")
    if html:
        try:
            check_html(case, path, ref)
        except Exception as e:
            fail(case, f"check_html: {e}")


RUST_HASH = re.compile(r"::h[0-9a-f]{16}(?![0-9A-Za-z_])|(?<=[0-9A-Za-z_])\[[0-9a-f]{1,16}\]", re.ASCII)


def oracle(path):
    """The profile's folded stacks, Rust hashes dropped (the default for Firefox JSON)."""
    r = subprocess.run([sys.executable, os.path.join(tools, "ffprof2folded.py"), path],
                       capture_output=True, check=True)
    text = r.stdout.decode("utf-8", errors="surrogateescape")
    lines = []
    for line in text.split("\n"):
        stack, sep, count = line.rpartition(" ")
        lines.append(";".join(RUST_HASH.sub("", f) for f in stack.split(";")) + sep + count
                     if sep else line)
    return "\n".join(lines)


# The fixtures: every Firefox-Profiler variant the reader knows.
for name in sorted(os.listdir(fixtures)):
    if ".json" not in name:
        continue
    path = os.path.join(fixtures, name)
    check(name, path, oracle(path))

# Generated SP1 profiles, with hostile names, plain and gzip, two sample rates.
for n, rate, seed, ext in ((3000, 1, 1, ".json"), (20000, 7, 2, ".json.gz"), (5000, 100, 3, ".json")):
    path = os.path.join(work, f"sp1-{n}-{rate}{ext}")
    subprocess.run([sys.executable, os.path.join(tools, "gen_sp1_profile.py"), "-n", str(n),
                    "--rate", str(rate), "--seed", str(seed), "-o", path], check=True, capture_output=True)
    check(os.path.basename(path), path, oracle(path))

# Folded text with recursion (SP1 never recurses): inclusive time counts a stack once.
rng = random.Random(7)
names = ["main", "f", "g", "h", "rec", "[unknown]", "a b", "x<y>"]
lines = []
for _ in range(400):
    depth = rng.randint(1, 9)
    lines.append(";".join(rng.choice(names) for _ in range(depth)) + f" {rng.randint(1, 1000)}")
text = "\n".join(lines) + "\n"
path = os.path.join(work, "recursive.folded")
with open(path, "w") as f:
    f.write(text)
check("recursive.folded", path, text)
gz = path + ".gz"
with gzip.open(gz, "wb") as f:
    f.write(text.encode())
check("recursive.folded.gz", gz, text, html=False)

print(f"reports: {passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
PY
