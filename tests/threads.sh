#!/bin/sh
# End-to-end tests of one profile's threads: the flame chart of a profile (--flamechart) and
# the thread selection (--thread by index, name, /REGEX/, repeated; --list-threads).
#  - A profile's flame chart must draw, frame for frame, what the folded-input flame chart
#    (inferno's --flamechart, itself checked by the compat suite) draws of the thread's
#    samples written in order by the reference converter (tests/tools/ffprof2folded.py
#    --ordered), compared with tests/tools/svgframes.py: on every Firefox fixture, on SP1
#    profiles made by tests/tools/gen_sp1_profile.py (x = cycles: threadCPUDelta), and with
#    --weight samples.
#  - With several threads holding samples, --flamechart without --thread is a usage error
#    naming them; --thread picks by index, exact name and /REGEX/, repeated values give
#    the union (checked against the reference's per-thread folding), a value that picks
#    nothing is a usage error naming the threads; --list-threads with several inputs names
#    the file on each line; the HTML report's facts name the threads read.
#   tests/threads.sh BIN
set -eu
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$bin" "$here" "$work" <<'PY'
import collections, os, re, subprocess, sys

bin_, here, work = sys.argv[1:4]
tools = os.path.join(here, "tools")
fixtures = os.path.join(here, "data", "firefox")
passed = failed = 0


def check(case, ok, msg=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {case}: {msg}")


def run(args, code=0):
    r = subprocess.run([bin_, "-q"] + args, capture_output=True)
    if r.returncode != code:
        raise RuntimeError(f"foldsvg {' '.join(args)} exited {r.returncode}, not {code}: "
                           f"{r.stderr.decode(errors='replace').strip()}")
    return r


def tool(name, args):
    r = subprocess.run([sys.executable, os.path.join(tools, name)] + args, capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(f"{name} {' '.join(args)}: {r.stderr.decode(errors='replace')}")
    return r.stdout


def threads_of(path):
    """[(index, name, samples)] as --list-threads prints them."""
    out = run(["--list-threads", path]).stdout.decode("utf-8", "surrogateescape")
    rows = []
    for line in out.splitlines():
        i, name, _proc, samples, _w = line.split("\t")
        rows.append((int(i), name, int(samples)))
    return rows


def chart_case(case, profile, extra, thread, both=()):
    """foldsvg's flame chart of PROFILE against the folded flame chart of its ordered lines
    (BOTH: options given to both runs, such as the filters)."""
    both = list(both)
    sel = [] if thread is None else ["--thread", str(thread)]
    # a selection among EXTRA, by name: the reference takes the index
    ref_sel = []
    if "--thread" in extra:
        name = extra[extra.index("--thread") + 1]
        ref_sel = ["--thread", str([i for i, n, _ in threads_of(profile) if n == name][0])]
    ordered = os.path.join(work, "ordered.folded")
    with open(ordered, "wb") as f:
        f.write(tool("ffprof2folded.py", [profile, "--ordered"] + sel + ref_sel +
                     (["--samples"] if "--weight" in extra else [])))
    want, got = os.path.join(work, "want.svg"), os.path.join(work, "got.svg")
    if os.path.getsize(ordered) == 0:
        r = run(["--flamechart"] + sel + extra + both + [profile, "-o", got], code=1)
        check(case, b"nothing" in r.stderr or b"no " in r.stderr, r.stderr)
        return
    # the same unit in both (folded text says cycles, a profile what it weighs)
    run(["--flamechart", "--hash", "--countname", "units"] + both + [ordered, "-o", want])
    # the names as the folded reference has them (a profile's Rust hashes go by default)
    run(["--flamechart", "--hash", "--countname", "units", "--keep-rust-hash"] + sel + extra +
        both + [profile, "-o", got])
    r = subprocess.run([sys.executable, os.path.join(tools, "svgframes.py"), "compare", want, got],
                       capture_output=True)
    check(case, r.returncode == 0, r.stdout.decode(errors="replace")[:600])


# ---- the flame chart of each fixture, thread by thread, against its ordered lines
profiles = sorted(os.path.join(fixtures, f) for f in os.listdir(fixtures)
                  if f.endswith((".json", ".json.gz")))
for p in profiles:
    rows = threads_of(p)
    busy = [i for i, _, n in rows if n > 0]
    for i, _, _ in rows:
        chart_case(f"{os.path.basename(p)} --thread {i}", p, [], i)
    if len(busy) == 1:
        chart_case(f"{os.path.basename(p)} (its one thread)", p, [], None)
    elif len(busy) > 1:
        r = run(["--flamechart", p, "-o", os.path.join(work, "x.svg")], code=2)
        msg = r.stderr.decode("utf-8", "replace")
        names = all(f"{i} '" in msg for i in busy[:10])
        check(f"{os.path.basename(p)}: several threads need --thread",
              "--thread" in msg and names and not os.path.exists(os.path.join(work, "x.svg")), msg)

# ---- SP1 traces: x is the cycles (threadCPUDelta), a rate above 1 included
for seed, rate in ((3, 1), (4, 7)):
    sp1 = os.path.join(work, f"sp1-{seed}.json")
    tool("gen_sp1_profile.py", ["-n", "20000", "--stacks", "300", "--seed", str(seed),
                                "--rate", str(rate), "-o", sp1])
    chart_case(f"sp1 seed {seed} rate {rate}", sp1, [], None)
    chart_case(f"sp1 seed {seed} rate {rate} --weight samples", sp1, ["--weight", "samples"], None)
    # the filters drop a stack each time it comes (a profile's chart names its stacks once and
    # takes each again by name: what the filters made of it must be what they make again)
    lines = tool("ffprof2folded.py", [sp1, "--ordered"]).decode("utf-8", "surrogateescape")
    names = collections.Counter(f for l in lines.splitlines() for f in l.rpartition(" ")[0].split(";"))
    common = [n for n, _ in names.most_common(12) if re.fullmatch(r"[A-Za-z0-9_:<>]+", n)]
    if len(common) >= 2:  # names in some of the samples, not in all
        chart_case(f"sp1 seed {seed} --exclude", sp1, [], None, ["--exclude", "^" + common[-2] + "$"])
        chart_case(f"sp1 seed {seed} --include", sp1, [], None, ["--include", "^" + common[-1] + "$"])
    else:
        check(f"sp1 seed {seed}: names to filter by", False, str(names.most_common(12)))

# ---- selection by index, name and /REGEX/, repeated: the union of the threads picked
samply = os.path.join(fixtures, "processed-v49-samply-style.firefox-profiler.json.gz")
nested = os.path.join(fixtures, "gecko-v13-nested-processes.firefox-profiler.json")


def folded(args):
    out = os.path.join(work, "sel.folded")
    run(args + ["-o", out])
    return open(out, "rb").read()


def reference_union(profile, indices):
    total = collections.Counter()
    for i in indices:
        for line in tool("ffprof2folded.py", [profile, "--thread", str(i)]).splitlines():
            stack, _, n = line.rpartition(b" ")
            total[stack] += int(n)
    return b"".join(b"%s %d\n" % (k, v) for k, v in sorted(total.items()))


rows = threads_of(samply)
names = {i: n for i, n, _ in rows}
for case, sel, want in (
        ("index", ["3"], [3]),
        ("exact name", [names[2]], [2]),
        ("regex", ["/^Thread </"], [1, 2, 3, 4, 5]),
        ("regex, anchored", ["/^a\\.out$/"], [0]),
        ("index and name (union)", ["0", names[4]], [0, 4]),
        ("overlapping values", ["/627416[12]>/", "2"], [1, 2])):
    args = sum((["--thread", v] for v in sel), [])
    check(f"--thread {case}", folded(args + [samply]) == reference_union(samply, want))
# the same name twice (two processes' GeckoMain): a name picks every thread that has it
check("--thread by a name two threads share",
      folded(["--thread", "GeckoMain", nested]) == reference_union(nested, [0, 2]))

for bad, what in ((["--thread", "nosuch"], "no thread's name is that"),
                  (["--thread", "/^zz/"], "no thread's name matches"),
                  (["--thread", "0", "--thread", "9"], "the profile has 6 threads")):
    r = run(bad + [samply, "-o", os.path.join(work, "bad.svg")], code=2)
    msg = r.stderr.decode("utf-8", "replace")
    check(f"{' '.join(bad)}: usage error", what in msg and ("0 'a.out'" in msg or "9" in msg), msg)
r = run(["--thread", "/(/", samply, "-o", os.path.join(work, "bad.svg")], code=2)
check("--thread /(/: PCRE2's message", b"invalid regular expression" in r.stderr, r.stderr)

# ---- --flamechart with a selection that leaves one thread with samples
chart_case("--flamechart --thread NAME", samply, ["--thread", names[5]], None)
r = run(["--flamechart", "--thread", "/^Thread <627416[34]>$/", samply, "-o",
         os.path.join(work, "x.svg")], code=2)
check("--flamechart with two threads selected", b"3 'Thread" in r.stderr and b"4 'Thread" in r.stderr,
      r.stderr)

# ---- --list-threads: several inputs name the file on each line
r = run(["--list-threads", samply, nested])
lines = r.stdout.decode().splitlines()
check("--list-threads FILE FILE", len(lines) == 9 and lines[0].startswith(samply + "\t0\t")
      and lines[-1].startswith(nested + "\t2\tGeckoMain"), lines)
r = run(["--list-threads", samply])
check("--list-threads FILE: no file column", r.stdout.decode().startswith("0\ta.out\t"), r.stdout)

# ---- the report's facts name the threads read
report = os.path.join(work, "r.html")
run(["--thread", "1", "--thread", "/6274165/", samply, "-o", report])
text = open(report, encoding="utf-8").read()
m = re.search(r"<dt>Threads</dt><dd>([^<]*)</dd>", text)
check("report facts: the threads, named", m and m.group(1) == "2: Thread &lt;6274161&gt; (1), "
      "Thread &lt;6274165&gt; (5)", m and m.group(1))
run(["--thread", "0", samply, "-o", report])
text = open(report, encoding="utf-8").read()
check("report facts: one thread", "<dt>Thread</dt><dd>a.out (0)</dd>" in text)

print(f"threads: {passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
PY
