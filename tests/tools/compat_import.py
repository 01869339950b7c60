#!/usr/bin/env python3
"""Reading structured profiles as speedscope's importers read them: for every input of
tests/data/import/cases.tsv (pprof, V8 .cpuprofile, Chrome traces, trace events, speedscope
files from speedscope's repository), the per-function self and total weights of
    BIN INPUT --top 1000000 --top-format json -q          (all threads merged)
must equal expected/INPUT.tsv (speedscope's frames, merged by name) within 0.5% of the
profile's total, the functions the same set, except for the differences that
divergences.tsv lists and explains (a case with any other difference fails, and so does one
whose listed difference no longer shows).
usage: compat_import.py BIN [INPUT...]    prints "compat_import: N passed, N failed" """
import json
import os
import subprocess
import sys

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "import")


def table(path):
    rows = {}
    for row in open(path, encoding="utf-8"):
        if row.startswith("#") or not row.strip():
            continue
        fn, s, t = row.rstrip("\n").split("\t")
        rows[fn] = (float(s), float(t))
    return rows


def main():
    binp, only = os.path.abspath(sys.argv[1]), set(sys.argv[2:])
    known = {}
    for row in open(os.path.join(here, "divergences.tsv"), encoding="utf-8"):
        if not row.startswith("#") and row.strip():
            inp, fn, _ = row.rstrip("\n").split("\t")
            known.setdefault(inp, set()).add(fn)
    passed = failed = 0
    for line in open(os.path.join(here, "cases.tsv"), encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        inp = line.split("\t")[0]
        if only and inp not in only:
            continue
        exp = table(os.path.join(here, "expected", inp + ".tsv"))
        r = subprocess.run([binp, os.path.join(here, "inputs", inp), "--top", "1000000",
                            "--top-format", "json", "-q"], capture_output=True, timeout=120)
        differ, why = set(), ""
        try:
            got = json.loads(r.stdout)
            selfs = {e["name"]: float(e["count"]) for e in got["self"]}
            tots = {e["name"]: float(e["count"]) for e in got["inclusive"]}
            tol = 0.005 * max([t for _, t in exp.values()] + [1.0])
            for fn in set(exp) | set(tots):
                s, t = exp.get(fn, (0.0, 0.0))
                if (fn in exp and t > 0 and fn not in tots) or (fn not in exp) or \
                        abs(selfs.get(fn, 0.0) - s) > tol or abs(tots.get(fn, 0.0) - t) > tol:
                    differ.add(fn)
        except Exception as e:  # not JSON: the binary refused or failed
            why = f"exit {r.returncode}: {r.stderr.decode(errors='replace').strip()[:200] or e}"
        allowed = known.get(inp, set())
        if not why and differ - allowed:
            fn = sorted(differ - allowed)[0]
            why = f"{fn}: self/total {selfs.get(fn, 0)}/{tots.get(fn, 0)} vs {exp.get(fn)}"
        elif not why and allowed - differ:
            why = f"listed as differing but agrees now: {sorted(allowed - differ)} (update divergences.tsv)"
        if why:
            failed += 1
            print(f"FAIL {inp}: {why}"[:400])
        else:
            passed += 1
    print(f"compat_import: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
