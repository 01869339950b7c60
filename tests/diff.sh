#!/bin/sh
# --diff BEFORE AFTER on the command line (docs/cli.md, "Differential profiles"): its routes
# give the same result (sides streamed, sorted, from standard input, from profiles and perf
# script output, against the prefix tree of the diff object), the delta tables hold the
# numbers worked out by hand in all three formats (the JSON in its documented shape), the
# report shows both inputs, and warnings name their side. The inferno reference cases are
# tests/tools/compat.py diff (ctest compat_diff).
#   tests/diff.sh BIN [--sanitized]   (--sanitized: memory is not measured)
set -u
bin=$(realpath "$1")
sanitized=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
run() { # run NAME CMD...: must exit 0; stderr in err
    name=$1; shift
    "$@" >out 2>err && ok || bad "$name: exit $?: $(head -c 300 err)"
}
same() { # same NAME A B
    cmp -s "$2" "$3" && ok || bad "$1: $2 and $3 differ"
}
has() { # has NAME FILE TEXT
    grep -qF -- "$3" "$2" && ok || bad "$1: '$3' not in $2: $(head -c 400 "$2")"
}

# BEFORE: 100 cycles; AFTER: 150. hash: self 40 -> 10; keccak: new, 90; io: gone, 20;
# main;parse: 40 -> 50.
printf 'main;hash 40\nmain;io 20\nmain;parse 40\n' >before.folded
printf 'main;hash 10\nmain;keccak 90\nmain;parse 50\n' >after.folded

# the routes: streamed, then the tree (--top draws the SVG from the diff object)
run stream "$bin" -q --diff before.folded after.folded -o s.svg --hash
run tree "$bin" -q --diff before.folded after.folded -o t.svg --hash --top 1
same stream-vs-tree s.svg t.svg
run folded "$bin" -q --diff before.folded after.folded -o d.folded
printf 'main;hash 40 10\nmain;io 20 0\nmain;keccak 0 90\nmain;parse 40 50\n' >want.folded
same folded-lines d.folded want.folded
# a differential file made of them draws the same, inferno's title and all (the report's
# graph says "Differential Flame Graph"; the SVG's legend says what the colors mean)
run from-file "$bin" -q d.folded -o f.svg --hash
same diff-vs-differential-file s.svg f.svg
has diff-title s.svg '>Flame Graph</text>'
run diff-report "$bin" -q --diff before.folded after.folded -o r.html
has diff-report-title r.html '>Differential Flame Graph</text>'
run diff-own-title "$bin" -q --diff before.folded after.folded -o t2.svg --title Mine --subtitle Sub
has diff-own-title-kept t2.svg '>Mine</text>'
has diff-own-subtitle-kept t2.svg '>Sub</text>'
# unsorted sides (read again, sorted), standard input, gzip, a tiny sort buffer
printf 'main;parse 40\nmain;hash 40\nmain;io 20\n' >before-unsorted.folded
gzip -c after.folded >after.folded.gz
run unsorted "$bin" -q --diff before-unsorted.folded after.folded.gz -o u.svg --hash
same unsorted-svg s.svg u.svg
run unsorted-folded "$bin" -q --diff before-unsorted.folded after.folded -o u.folded
same unsorted-folded d.folded u.folded
run stdin-unsorted sh -c "'$bin' -q --diff - after.folded -o i.svg --hash < before-unsorted.folded"
same stdin-svg s.svg i.svg
run stdin-after sh -c "'$bin' -q --diff before.folded - -o i.folded --sort-buffer 1K < after.folded.gz"
same stdin-folded d.folded i.folded
run no-tmpdir sh -c "TMPDIR=/nonexistent '$bin' -q --diff - after.folded -o n.svg --hash < before-unsorted.folded"
same no-tmpdir-svg s.svg n.svg
# standard input that is a regular file is read again from where it started; a pipe from
# its copy
{ printf 'zzz;skipped 999\n'; cat before-unsorted.folded; } >before-offset.folded
run stdin-offset sh -c "{ dd bs=1 count=16 of=/dev/null 2>/dev/null; '$bin' -q --diff - after.folded -o o.svg --hash; } < before-offset.folded"
same stdin-offset-svg s.svg o.svg
run stdin-pipe sh -c "cat before-unsorted.folded | '$bin' -q --diff - after.folded -o q.svg --hash"
same stdin-pipe-svg s.svg q.svg
# a pipe (what <(...) gives) is read once, its copy read again: an unsorted one too
mkfifo pipe-before
(cat before-unsorted.folded >pipe-before &)
run fifo "$bin" -q --diff pipe-before after.folded -o p.svg --hash
same fifo-svg s.svg p.svg

# any input on either side: a Gecko profile against its own folded form is no change
gecko=$here/data/firefox/gecko-v24-sp1-style-probe-gecko_profile-0.4.0.json
run gecko-folded "$bin" -q "$gecko" -o g.folded
run gecko-vs-folded "$bin" -q --diff "$gecko" g.folded -o g-diff.folded
awk '$(NF-1) != $NF { bad = 1 } END { exit bad }' g-diff.folded && ok || bad "a profile differs from its folded form: $(head -c 300 g-diff.folded)"
[ "$(wc -l <g-diff.folded)" -eq "$(wc -l <g.folded)" ] && ok || bad "gecko: lines differ in number"
# perf script output on one side, with the perf options
perf=$here/data/compat-perf/inputs/perf-dd-stacks-01.txt
run perf-folded "$bin" -q --pid "$perf" -o p.folded
run perf-vs-folded "$bin" -q --pid --diff p.folded "$perf" --top 3 --top-format json
has perf-no-change out '"delta": 0,'

# the delta tables, by hand
run text "$bin" -q --diff before.folded after.folded --top 3
cat >want.txt <<'TXT'
Before: 100 cycles in 3 unique stacks (before.folded)
After:  150 cycles in 3 unique stacks (after.folded)
Change: +50 cycles (+50.00%); 4 unique stacks, 1 only before, 1 only after

Self time: top 3 of 4 functions by change
before  after  delta    change  function
     0     90    +90       new  keccak
    40     10    -30   -75.00%  hash
    20      0    -20  -100.00%  io

Inclusive time: top 3 of 5 functions by change
before  after  delta    change  function
   100    150    +50   +50.00%  main
     0     90    +90       new  keccak
    40     10    -30   -75.00%  hash
TXT
# (main's |delta| 50 < keccak's 90: ranked by |delta|)
sed -n 1,11p out >got.txt
head -n 11 want.txt | cmp -s - got.txt && ok || bad "text tables: $(cat out)"
has text-incl-rank out '     0     90    +90       new  keccak'
awk '/^Inclusive/ { f = 1 } f && /keccak/ { k = NR } f && /  main$/ { m = NR } END { exit !(k < m) }' out &&
    ok || bad "inclusive: keccak (+90) must come before main (+50): $(cat out)"

# a differential file's --top: the same delta tables, of its two columns
"$bin" -q --diff before.folded after.folded --top 3 | tail -n +4 >diff-tables.txt
run diff-file-top "$bin" -q d.folded --top 3
tail -n +4 out | cmp -s - diff-tables.txt && ok || bad "a differential file's tables: $(cat out)"
has diff-file-head out 'Before: 100 cycles in 3 unique stacks (d.folded, first counts)'

run markdown "$bin" -q --diff before.folded after.folded --top 2 --top-format markdown
has md-head out '**Before:** 100 cycles · **After:** 150 cycles · **Change:** +50 (+50.00%)'
has md-table out '| Before | After | Δ cycles | Change | Function |'
has md-row out '| 0 | 90 | +90 | new | `keccak` |'
has md-row2 out '| 40 | 10 | -30 | -75.00% | `hash` |'

# per iteration: BEFORE ran 4 times, AFTER 5: main 25 -> 30 per iteration
run per "$bin" -q --diff before.folded after.folded --top 5 --per-before 4 --per-after 5
grep -Eq '^ *25\.00 +30\.00 +\+5\.00 +\+20\.00% +main$' out && ok || bad "per: $(cat out)"
grep -Eq '^ *10\.00 +10\.00 +0\.00 +0\.00% +parse$' out && ok || bad "per, no change: $(cat out)"
has per-head out 'Before: 25.00 cycles per iteration (100 in all / 4)'
run per-both "$bin" -q --diff before.folded after.folded --top 5 --per 10 --top-format markdown
has per-both-md out '| 10.00 | 15.00 | +5.00 | +50.00% | `main` |'

# --diff-color inclusive: a frame is colored (and its tooltip's change given) by the change
# of all under it, so a subsystem that shrank is blue along its path; the same bytes by every
# route (streamed, tree, unsorted, --normalize's rescaled stream and its tree). The legend
# says which measure; self (the default) is inferno's.
printf 'main;hash;a 40\nmain;hash;b 40\nmain;io 20\nmain;parse 40\n' >ib.folded
printf 'main;hash;a 13\nmain;hash;b 14\nmain;keccak 90\nmain;parse 50\n' >ia.folded
printf 'main;parse 40\nmain;hash;b 40\nmain;io 20\nmain;hash;a 40\n' >ib-unsorted.folded
run incl-stream "$bin" -q --diff ib.folded ia.folded -o is.svg --hash --diff-color inclusive
run incl-tree "$bin" -q --diff ib.folded ia.folded -o it.svg --hash --diff-color inclusive --top 1
same incl-stream-vs-tree is.svg it.svg
run incl-unsorted "$bin" -q --diff ib-unsorted.folded ia.folded -o iu.svg --hash --diff-color inclusive
same incl-unsorted is.svg iu.svg
# hash: 80 -> 27 (-53 of 167 = -31.74%), blue; main: 140 -> 167 (+27), red; a leaf as in self
has incl-hash is.svg '<title>hash (27 cycles, 16.17%; -31.74%)</title><rect x="0.0000%" y="53" width="16.1677%" height="15" fill="rgb(161,161,255)"'
has incl-main is.svg '<title>main (167 cycles, 100.00%; +16.17%)</title><rect x="0.0000%" y="69" width="100.0000%" height="15" fill="rgb(255,205,205)"'
has incl-leaf is.svg '<title>a (13 cycles, 7.78%; -16.17%)</title>'
has incl-legend is.svg '</tspan> shrank, by inclusive cycles</text>'
run self-stream "$bin" -q --diff ib.folded ia.folded -o ss.svg --hash
has self-hash ss.svg '<title>hash (27 cycles, 16.17%; 0.00%)</title><rect x="0.0000%" y="53" width="16.1677%" height="15" fill="rgb(250,250,250)"'
has self-legend ss.svg '</tspan> shrank, by self cycles</text>'
# --normalize: BEFORE (140) scaled to 167 per stack (a, b, parse: 47; io: 23); hash 94 -> 27
run incl-normalize "$bin" -q --diff ib.folded ia.folded --normalize -o in.svg --hash --diff-color inclusive
run incl-normalize-tree "$bin" -q --diff ib-unsorted.folded ia.folded --normalize -o int.svg --hash --diff-color inclusive --top 1
same incl-normalize-routes in.svg int.svg
has incl-normalize-hash in.svg '<title>hash (27 cycles, 16.17%; -40.12%)</title>'
# pruned frames (big;x: 1000 -> 1, under --minwidth 5) count toward the frames above them but
# not toward the color scale, which the streamed route, keeping only drawn frames, could not
# know: both routes the same bytes
printf 'main;big;x 1000\nmain;grow 10\nmain;other 500\n' >pb.folded
printf 'main;big;x 1\nmain;grow 300\nmain;other 400\n' >pa.folded
run incl-pruned-stream "$bin" -q --diff pb.folded pa.folded -o ps.svg --diff-color inclusive --minwidth 5
run incl-pruned-tree "$bin" -q --diff pb.folded pa.folded -o pt.svg --diff-color inclusive --minwidth 5 --top 1
same incl-pruned-routes ps.svg pt.svg
has incl-pruned-main ps.svg '<title>main (701 cycles, 100.00%; -115.41%)</title>'
# the legend takes no room: without it (too narrow for it beside the title) the frames are
# the same
run legend-narrow "$bin" -q --diff ib.folded ia.folded -o narrow.svg --hash --width 600
grep -q -- '-legend"' narrow.svg && bad "legend-narrow: a legend at 600 px" || ok
run legend-plain "$bin" -q ia.folded -o plain.svg
grep -q -- '-legend"' plain.svg && bad "legend-plain: a legend on a graph that is not differential" || ok

# --normalize: BEFORE scaled by 150 / 100, per stack
run normalize "$bin" -q --diff before.folded after.folded --normalize -o nz.folded
printf 'main;hash 60 10\nmain;io 30 0\nmain;keccak 0 90\nmain;parse 60 50\n' >want-nz.folded
same normalize-lines nz.folded want-nz.folded
run normalize-top "$bin" -q --diff before.folded after.folded --normalize --top 9 --top-format json
has normalize-json out '"normalized": true'
has normalize-json-total out '"total_before": 150'

# --normalize, one set of numbers: the java pair scales BEFORE by 2/46, which rounds every
# BEFORE stack of inferno's lines to 0; the tables (and the thresholds) scale the sums
# instead, so the 26 functions of those lines all change; the lines are inferno's on every
# route (the diff object's too, "0 0" lines included)
java=$here/data/compat-diff
run java-normalize "$bin" -q --diff "$java/inputs/java-01.folded" "$java/inputs/java-02.folded" --normalize --top 30
has java-self-rows out 'Self time: top 26 of 26 functions by change'
has java-before out 'Before: 2.00 cycles, normalized from 46 in 34 unique stacks'
has java-msr out '  0.70      2  +1.30  +187.50%  native_write_msr_safe_[k]'
run java-normalize-tree "$bin" -q --diff "$java/inputs/java-01.folded" "$java/inputs/java-02.folded" --normalize --top 1 -o jt.folded
same java-tree-lines jt.folded "$java/expected/java-normalize.folded"

# --normalize with --minwidth 0 takes a stack to 0 on both sides, which the streaming merge
# leaves out: the picture is still the tree's
printf 'a;p;x;y 5\na;q;r;s 1\nzz 1000000\n' >zero-before.folded
printf 'a;p;x;y 5\na;q;r;t 3\n' >zero-after.folded
run normalize-zero-stream "$bin" -q --diff zero-before.folded zero-after.folded --normalize --minwidth 0 --hash -o zero-stream.svg
run normalize-zero-tree sh -c "'$bin' -q --diff zero-before.folded zero-after.folded --normalize --minwidth 0 --hash -o zero-tree.svg --top 1 >/dev/null"
same normalize-zero zero-stream.svg zero-tree.svg

# larger sides (several relay batches, so the join starts before a side is read): the folded
# lines and the normalized ones against the same computed here; the SVG of each route alike
tools=$here/tools
python3 "$tools/gen_folded.py" -n 4000 --seed 3 -o big-before.folded
python3 "$tools/gen_folded.py" -n 4000 --seed 3 --variant 5 -o big-after.folded
python3 "$tools/gen_folded.py" -n 4000 --seed 3 --shuffle 9 -o big-before-shuffled.folded
for flags in "" "--normalize"; do
    # shellcheck disable=SC2086
    "$bin" -q --diff big-before.folded big-after.folded $flags -o big.folded 2>err || bad "big $flags: $(cat err)"
    python3 - big-before.folded big-after.folded big.folded "$flags" <<'PY' && ok || bad "big folded $flags differs from the model"
import sys
def read(p):
    d = {}
    for line in open(p, "rb"):
        s, c = line.rstrip(b"\n").rsplit(b" ", 1)
        d[s] = d.get(s, 0) + int(c)
    return d
a, b = read(sys.argv[1]), read(sys.argv[2])
ta, tb = sum(a.values()), sum(b.values())
norm = (lambda x: int(float(x) * float(tb) / float(ta))) if sys.argv[4] and ta != tb else (lambda x: x)
want = b"".join(b"%s %d %d\n" % (k, norm(a.get(k, 0)), b.get(k, 0)) for k in sorted(set(a) | set(b)))
sys.exit(open(sys.argv[3], "rb").read() != want)
PY
    # shellcheck disable=SC2086
    "$bin" -q --diff big-before.folded big-after.folded $flags --hash -o big-stream.svg
    # shellcheck disable=SC2086
    "$bin" -q --diff big-before-shuffled.folded big-after.folded $flags --hash -o big-sorted.svg
    # shellcheck disable=SC2086
    "$bin" -q --diff big-before.folded big-after.folded $flags --hash -o big-tree.svg --top 1 >/dev/null
    same "big-stream-vs-sorted $flags" big-stream.svg big-sorted.svg
    same "big-stream-vs-tree $flags" big-stream.svg big-tree.svg
done

# the JSON's documented shape, keys and types
for args in "" "--per-before 4 --per-after 5" "--normalize --per 3"; do
    # shellcheck disable=SC2086
    "$bin" -q --diff before.folded after.folded --top 9 --top-format json $args >j.json 2>err
    python3 - j.json "$args" <<'PY' && ok || bad "JSON shape ($args): $(head -c 600 j.json)"
import json, sys
d = json.load(open(sys.argv[1]))
per = bool(sys.argv[2]) and "per" in sys.argv[2]
num = (int, float)
want = {"total_before": num, "total_after": num, "delta": num, "percent": num + (type(None),),
        "count_name": str, "unique_stacks": int, "only_before": int, "only_after": int,
        "normalized": bool, "before": dict, "after": dict, "self": list, "inclusive": list}
if per:
    want.update({"per_before": int, "per_after": int})
assert set(d) == set(want), sorted(set(d) ^ set(want))
for k, t in want.items():
    assert isinstance(d[k], t) and not (t is int and isinstance(d[k], bool)), k
for side in ("before", "after"):
    assert set(d[side]) == {"input", "total", "unique_stacks"}, d[side]
    assert isinstance(d[side]["input"], str) and isinstance(d[side]["total"], int)
for table in ("self", "inclusive"):
    assert d[table], table
    for r in d[table]:
        assert set(r) == {"name", "before", "after", "delta", "percent"}, r
        assert isinstance(r["name"], str)
        assert all(isinstance(r[k], num) for k in ("before", "after", "delta"))
        assert r["percent"] is None if r["before"] == 0 else isinstance(r["percent"], num)
        assert abs(r["after"] - r["before"] - r["delta"]) < 0.011, r
    deltas = [abs(r["delta"]) for r in d[table]]
    assert deltas == sorted(deltas, reverse=True), deltas
assert d["count_name"] == "cycles" and d["before"]["input"] == "before.folded"
assert d["before"]["total"] == 100 and d["after"]["total"] == 150
PY
done

# the report: the graph, both inputs' facts, the tables, the functions of one side
run report "$bin" -q --diff before.folded after.folded -o r.html --top 4
has report-heading r.html 'before.folded → after.folded</h2>'
has report-facts r.html '<th scope="row">Total cycles</th><td>100</td><td>150</td><td class="num fs-more">+50 (+50.00%)</td>'
has report-new r.html 'data-kind="only-after"'
has report-gone r.html '<span class="fs-fn fs-gone" title="Not in the flamegraph: AFTER has no time in it">io</span>'
has report-svg r.html 'keccak (90 cycles, 60.00%; +60.00%)'
has report-css r.html '.fs-difffacts'
xmllint --html --noout r.html 2>xml.err && ok || bad "report is not well-formed HTML: $(head -c 300 xml.err)"
run report-negate "$bin" -q --diff before.folded after.folded -o rn.html --negate
has report-negate-class rn.html '<td class="num fs-less">+50 (+50.00%)</td>'

# warnings name their side, once; the summary line
printf 'main;hash 40\nnot a line\nmain;io 20\n' >warn.folded
"$bin" --diff warn.folded after.folded -o w.svg 2>err && ok || bad "warnings: exit $?"
has warn-side err 'foldsvg: warning: warn.folded:2: ignored 1 line with invalid format'
[ "$(grep -c warning err)" -eq 1 ] && ok || bad "warnings: $(cat err)"
has summary err 'foldsvg: 60 cycles before, 150 after, across 4 unique stacks'

# --strip-hex: addresses do not keep equal stacks apart
printf 'main;jit@0x7f01 5\n' >hb.folded
printf 'main;jit@0x7f99 7\n' >ha.folded
run strip-hex "$bin" -q --diff hb.folded ha.folded --strip-hex -o h.folded
printf 'main;jit@0x... 5 7\n' >want-h.folded
same strip-hex-lines h.folded want-h.folded

# Both sides streamed at once, each on a thread of its own whatever --threads says: memory of
# the frames drawn, not of a side kept whole (two sorted inputs of about 35 MB: a side kept
# would pass 50 MB with the rest)
if [ "$sanitized" != --sanitized ]; then
    python3 "$here/tools/gen_folded.py" -n 50000 --seed 3 -o big-before.folded
    python3 "$here/tools/gen_folded.py" -n 50000 --seed 3 --variant 5 -o big-after.folded
    for t in 1 2; do
        rss=$(FOLDSVG_THREADS=$t python3 "$here/tools/peak_rss.py" "$bin" -q --hash --diff big-before.folded big-after.folded -o big.svg)
        [ "$rss" -gt 0 ] && [ "$rss" -lt 40000 ] && ok ||
            bad "diff of two 35 MB sorted files, $t thread(s): peak $rss KiB"
    done
    rm -f big-before.folded big-after.folded big.svg
fi

echo "diff: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
