#!/bin/sh
# The regression gate (docs/cli.md, "A regression gate"): every form of --fail-if on crafted
# pairs, holding at its limit and broken one unit past it, per iteration and under the
# --fail-min-share floor; the exit codes; the verdict first in the summary, Markdown within
# GitHub's comment limit on a large diff; --diff of two directories (pairs by name, a file of
# one side reported); a folded baseline read back with no loss.
#   tests/gate.sh BIN
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/tools
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
has() { # has NAME FILE TEXT
    grep -qF -- "$3" "$2" && ok || bad "$1: '$3' not in $2: $(head -c 400 "$2")"
}
exits() { # exits NAME CODE CMD...: stdout in out, stderr in err
    name=$1; want=$2; shift 2
    "$@" >out 2>err
    got=$?
    [ "$got" -eq "$want" ] && ok || bad "$name: exit $got, not $want: $(head -c 300 err)"
}
holds() { # holds NAME EXPR [OPTIONS...]: the pair passes
    name=$1; expr=$2; shift 2
    exits "$name holds" 0 "$bin" --diff before.folded after.folded --fail-if "$expr" "$@" -o d.svg
    if grep -q 'threshold broken' err; then bad "$name: a line for a threshold that holds"; else ok; fi
}
breaks() { # breaks NAME EXPR [OPTIONS...]: the pair fails, one line saying so
    name=$1; expr=$2; shift 2
    exits "$name breaks" 3 "$bin" --diff before.folded after.folded --fail-if "$expr" "$@" -o d.svg
    [ "$(grep -cF "foldsvg: threshold broken: $expr: " err)" -eq 1 ] && ok ||
        bad "$name: no one line for '$expr': $(cat err)"
}

# BEFORE 1,000 cycles, AFTER 1,054 (+54, +5.40%). hot: self +20 (2.00% of BEFORE's total);
# fresh: new, 30 (3.00%); tiny: +4; gone: vanished, -10; main: inclusive +54.
printf 'main;gone 10\nmain;hot 500\nmain;rest 188\nmain;tiny 2\nmain;warm 300\n' >before.folded
printf 'main;fresh 30\nmain;hot 520\nmain;rest 198\nmain;tiny 6\nmain;warm 300\n' >after.folded

holds total-count 'total > +54'
breaks total-count 'total > +53'
breaks total-ge 'total >= +54'
holds total-percent 'total > +5.4%'
breaks total-percent 'total > +5.39%'
holds total-below 'total < +54'
# the totals alone keep the streamed route; the tables' route says the same
for o in '-o d.svg' '-o d.folded' '-o d.svg --top 1' '-o d.html'; do
    # shellcheck disable=SC2086 # the options are words
    exits "route $o" 3 "$bin" --diff before.folded after.folded --fail-if 'total > +5.3%' $o --per-after 2 --fail-if 'total < -472'
    grep 'threshold broken' err >"route-$(echo "$o" | tr -cd 'a-z')"
done
for f in route-odfolded route-odsvgtop route-odhtml; do
    cmp -s route-odsvg "$f" && ok || bad "the routes' lines differ: $(cat route-odsvg "$f")"
done
has route-line route-odsvg 'threshold broken: total < -472: -47.30% (-473.00 cycles per iteration; 1,000 -> 527.00), 1 cycles under'
breaks total-below 'total <= +54'
holds self-any 'self > +30'
breaks self-any 'self > +29'
has self-any-names err 'fresh: +3.00% of before'"'"'s total (+30 cycles; 0 -> 30), 1 cycles over'
holds self-shrink 'self < -10'
breaks self-shrink 'self < -9'
holds self-named 'self[hot] > +20'
breaks self-named 'self[hot] > +19'
holds self-named-percent 'self[hot] > +2%'
breaks self-named-percent 'self[hot] > +1.99%'
has self-named-points err 'hot: +2.00% of before'"'"'s total (+20 cycles; 500 -> 520), 0.01 points over'
holds self-absent 'self[nosuch] > 0'
holds inclusive-any 'inclusive > +54'
breaks inclusive-any 'inclusive > +53'
holds inclusive-named 'inclusive[main] > +5.4%'
breaks inclusive-named 'inclusive[main] >= +5.4%'
holds new 'new > +30'
breaks new 'new > +29'
holds new-percent 'new > 3%'
breaks new-percent 'new > 2.99%'
# a name may hold what the grammar uses: the limit and the operator are read from the right
printf 'main;operator>= 10\n' >ob.folded
printf 'main;operator>= 12\n' >oa.folded
exits name-operators 3 "$bin" --diff ob.folded oa.folded --fail-if 'self[operator>=] >= 2' -o d.svg
has name-operators-line err 'threshold broken: self[operator>=] >= 2: operator>=: +20.00%'

# per iteration: each side divided by its K, the limits too
holds per-count 'total > +27' --per-before 2 --per-after 2
breaks per-count 'total > +26' --per-before 2 --per-after 2
holds per-percent 'self[hot] > +2%' --per 2
breaks per-named 'self[hot] > +9' --per 2
has per-words err 'per iteration'
# different iteration counts: BEFORE 1,000 / 1 against AFTER 1,054 / 2 = 527, a change of -473
holds per-sides 'total > -473' --per-after 2
breaks per-sides 'total > -474' --per-after 2

# the floor: tiny changes +200% of itself but holds 0.2% and 0.57% of its side's total
breaks floor-none 'self > +0.3%' --fail-if 'self > +2.5%'
holds floor-tiny-only 'self[tiny] < +1'
printf 'main;big 1000\nmain;tiny 2\n' >fb.folded
printf 'main;big 1000\nmain;tiny 8\n' >fa.folded
exits floor-unset 3 "$bin" --diff fb.folded fa.folded --fail-if 'self > +0.5%' -o d.svg
exits floor-above 0 "$bin" --diff fb.folded fa.folded --fail-if 'self > +0.5%' --fail-min-share 0.8% -o d.svg
exits floor-at 3 "$bin" --diff fb.folded fa.folded --fail-if 'self > +0.5%' --fail-min-share 0.79 -o d.svg
has floor-at-line err 'tiny: +0.60%'
# a named function is measured whatever the floor
exits floor-named 3 "$bin" --diff fb.folded fa.folded --fail-if 'self[tiny] > +5' --fail-min-share 50% -o d.svg

# exit codes: 3 broken and the outputs written; 0 holding; 1 and 2 keep their meanings
rm -f d.svg
exits several 3 "$bin" --diff before.folded after.folded --fail-if 'total > +2%' --fail-if 'self > +50%' --fail-if 'new > 1%' -o d.svg
[ "$(grep -c 'threshold broken' err)" -eq 2 ] && ok || bad "several: $(cat err)"
[ -s d.svg ] && ok || bad "a failed gate writes its artifacts"
exits quiet-still-says 3 "$bin" -q --diff before.folded after.folded --fail-if 'total > 0'
has quiet-line err 'threshold broken: total > 0'
exits missing-side 1 "$bin" --diff before.folded nosuch.folded --fail-if 'total > 0' -o d.svg
for expr in 'total' 'total > ' '> 2' 'totals > 2' 'total = 2' 'total > 2%%' 'self[] > 1' \
    'new < 1' 'total[main] > 1' 'self > x'; do
    exits "bad '$expr'" 2 "$bin" --diff before.folded after.folded --fail-if "$expr" -o n.svg
    has "bad '$expr' line" err "invalid value '$expr' for --fail-if"
done
[ ! -e n.svg ] && ok || bad "a bad threshold wrote n.svg"
exits without-diff 2 "$bin" before.folded --fail-if 'total > 0' -o n.svg
exits normalized-total 2 "$bin" --diff before.folded after.folded --normalize --fail-if 'total > 0' -o n.svg
has normalized-total-line err 'cannot be used with --normalize'
exits normalized-self 3 "$bin" --diff before.folded after.folded --normalize --fail-if 'self > 0' -o n.svg
exits bad-floor 2 "$bin" --diff before.folded after.folded --fail-if 'total > 0' --fail-min-share 101
exits floor-alone 0 "$bin" --diff before.folded after.folded --fail-min-share 1 -o d.svg
has floor-alone-warns err 'fail-min-share'

# the summary: the verdict first, then the thresholds with what they measured
exits md 3 "$bin" --diff before.folded after.folded --fail-if 'total > +2%' --fail-if 'self[hot] > 5%' --summary --top-format markdown
head -n 1 out >first
has md-verdict first "foldsvg: failed, 1 of 2 thresholds broken"
has md-totals first "1,000"
has md-row out '| `total > +2%` | +5.40% (+54 cycles; 1,000 -> 1,054), 3.40 points over |'
has md-new out '| 30 | `fresh` |'
has md-vanished out '| 10 | `gone` |'
exits text 0 "$bin" --diff before.folded after.folded --fail-if 'total > +6%' --summary
has text-verdict out 'Verdict: passed, 1 threshold holds'
has text-row out '- holds: total > +6%: +5.40% (+54 cycles; 1,000 -> 1,054)'
exits no-gate 0 "$bin" --diff before.folded after.folded --summary --top-format markdown
has no-gate-verdict out 'foldsvg: no thresholds set'
exits json 3 "$bin" --diff before.folded after.folded --fail-if 'new > 1%' --per 2 --summary --top-format json
python3 - out <<'PY' && ok || bad "summary JSON: $(head -c 600 out)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "failed", d["verdict"]
t, = d["thresholds"]
assert t == {"threshold": "new > 1%", "broken": True, "function": "fresh", "before": 0,
             "after": 15, "delta": 15, "percent": 3.0}, t
assert [x["name"] for x in d["new"]] == ["fresh"] and d["new"][0]["after"] == 15, d["new"]
assert [x["name"] for x in d["vanished"]] == ["gone"], d["vanished"]
assert d["total_before"] == 500 and d["total_after"] == 527, d
assert isinstance(d["findings"], list)
PY

# Markdown within GitHub's comment limit whatever the input: many long names, every row asked
python3 "$tools/gen_folded.py" -n 6000 --seed 7 -o big-before.folded
python3 "$tools/gen_folded.py" -n 6000 --seed 7 --variant 3 -o big-after.folded
awk '{ c = $NF; sub(/ [0-9]+$/, ""); n = split($0, f, ";"); s = ""
    for (i = 1; i <= n; i++) s = s (i > 1 ? ";" : "") (i == n ? sprintf("%s_%0240d", f[i], i) : f[i])
    print s, c }' big-after.folded | LC_ALL=C sort >long-after.folded
exits md-large 3 "$bin" --diff big-before.folded long-after.folded --fail-if 'total < +1000000000' \
    --fail-if 'self > 0' --summary --top 100000 --top-format markdown
size=$(wc -c <out)
[ "$size" -le 65000 ] && [ "$size" -ge 20000 ] && ok || bad "md-large: $size bytes"
head -n 1 out >first
has md-large-verdict first 'foldsvg: failed, 2 of 2 thresholds broken'
has md-large-cut out 'Cut down to fit a comment of 65000 characters'
exits md-large-text 3 "$bin" --diff big-before.folded long-after.folded --fail-if 'self > 0' --summary --top 100000
[ "$(wc -c <out)" -gt 65000 ] && ok || bad "text is not cut: $(wc -c <out) bytes"

# many benchmarks: two directories paired by name
mkdir B A
cp before.folded B/x.folded; cp after.folded A/x.folded
cp before.folded B/same.folded; cp before.folded A/same.folded
cp before.folded B/only-before.folded; gzip -c after.folded >A/only-after.folded.gz
cp before.folded B/.hidden; mkdir B/sub
exits dirs 3 "$bin" --diff B A --fail-if 'total > +2%' --summary --top-format markdown
has dirs-verdict out 'foldsvg: failed: 1 of 2 pairs broke a threshold'
has dirs-x out '| `x.folded` | ❌ failed (1 of 1 broken) | 1,000 cycles | 1,054 cycles | +54 (+5.40%) |'
has dirs-same out '| `same.folded` | ✅ passed |'
has dirs-only-before out '| `only-before.folded` | only before |'
has dirs-only-after out '| `only-after.folded.gz` | only after |'
has dirs-line err 'foldsvg: x.folded: threshold broken: total > +2%: +5.40%'
has dirs-warn err 'foldsvg: warning: B/only-before.folded: not compared: A has no file of that name'
has dirs-stats err 'foldsvg: 2 pairs compared, 1 failed; 1 only before, 1 only after'
if grep -q hidden out; then bad "dirs: a hidden file was compared"; else ok; fi
exits dirs-pass 0 "$bin" --diff B A --fail-if 'total > +6%' --summary --top-format json
python3 - out <<'PY' && ok || bad "dirs JSON: $(head -c 600 out)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "passed" and d["failed"] == 0, d
assert [p["name"] for p in d["pairs"]] == ["same.folded", "x.folded"], d["pairs"]
assert d["only_before"] == ["only-before.folded"] and d["only_after"] == ["only-after.folded.gz"]
assert d["pairs"][1]["summary"]["thresholds"][0]["delta"] == 54
PY
exits dirs-report 0 "$bin" -q --diff B A -o dirs.html
has dirs-report-x dirs.html 'x.folded'
exits dirs-svg 2 "$bin" --diff B A -o dirs.svg
exits dir-and-file 1 "$bin" --diff B after.folded -o d.svg
has dir-and-file-line err 'is a directory'
mkdir C
cp before.folded C/other.folded
exits dirs-no-pair 1 "$bin" --diff B C --summary
# many pairs with long names: the whole comment still fits
mkdir MB MA
i=0
while [ $i -lt 40 ]; do
    cp big-before.folded "MB/bench-$i.folded"; cp long-after.folded "MA/bench-$i.folded"
    i=$((i + 1))
done
exits dirs-large 3 "$bin" --diff MB MA --fail-if 'self > 0' --summary --top 1000 --top-format markdown
[ "$(wc -c <out)" -le 65000 ] && ok || bad "dirs-large: $(wc -c <out) bytes"
has dirs-large-verdict out 'foldsvg: failed: 40 of 40 pairs broke a threshold'

# baselines: -o base.folded (or .gz) is read back by --diff with nothing lost
gecko=$here/data/firefox/gecko-v24-sp1-style-probe-gecko_profile-0.4.0.json
exits base 0 "$bin" -q "$gecko" -o base.folded
exits base-again 0 "$bin" -q "$gecko" -o base2.folded
cmp -s base.folded base2.folded && ok || bad "the baseline's bytes are not deterministic"
exits base-gz 0 "$bin" -q "$gecko" -o base.folded.gz
[ "$(od -An -tx1 -N2 base.folded.gz | tr -d ' ')" = 1f8b ] && ok || bad "base.folded.gz is no gzip"
gzip -dc base.folded.gz | cmp -s - base.folded && ok || bad "gzip baseline differs"
for b in base.folded base.folded.gz; do
    exits "round-trip $b" 0 "$bin" --diff "$b" "$gecko" --fail-if 'total > 0' --fail-if 'total < 0' \
        --fail-if 'self > 0' --fail-if 'self < 0' --fail-if 'inclusive > 0' --fail-if 'inclusive < 0' \
        --fail-if 'new > 0' --summary --top-format json
    python3 - out <<'PY' && ok || bad "round trip $b: $(head -c 600 out)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "passed" and d["delta"] == 0 and d["total_before"] > 0, d
assert all(r["delta"] == 0 for r in d["self"] + d["inclusive"]), d
PY
done
exits round-trip-tables 0 "$bin" --diff "$gecko" "$gecko" --top 1000 --top-format json
sed 's/"input": "[^"]*"/"input": ""/' out >direct.json
exits round-trip-tables-base 0 "$bin" --diff base.folded.gz "$gecko" --top 1000 --top-format json
sed 's/"input": "[^"]*"/"input": ""/' out >base.json
cmp -s direct.json base.json && ok || bad "tables of the baseline differ from the profile's"

echo "gate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
