#!/bin/sh
# Unsorted folded text is sorted (in memory, or in runs spilled to $TMPDIR) and merged as if
# it had come sorted: the SVG must be byte for byte the one of the sorted input, whatever the
# sort buffer, from a file or from standard input, and when no temporary file can be made
# (then the frame tree is used).
#   tests/unsorted.sh BIN [--sanitized]   (--sanitized: memory is not measured)
set -u
bin=$(realpath "$1"); tools=$(cd "$(dirname "$0")" && pwd)/tools
sanitized=${2:-}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
same() { # same NAME A B
    if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ"; fi
}
run() { # run NAME CMD...: must exit 0
    name=$1; shift
    if "$@" 2>err; then ok; else bad "$name: exit $?: $(head -c 300 err)"; fi
}

# 3,000 distinct deep stacks (2 MB), shuffled, some lines repeated, a few zero counts
python3 "$tools/gen_folded.py" -n 3000 --seed 11 >gen.folded
python3 - <<'PY'
import random
lines = open("gen.folded").read().splitlines()
r = random.Random(5)
extra = [l for l in lines if r.random() < 0.3]
zero = [l.rsplit(" ", 1)[0] + " 0" for l in lines[:50]]
mixed = lines + extra + zero
r.shuffle(mixed)
open("shuffled.folded", "w").write("\n".join(mixed) + "\n")
# the model: stacks summed, in byte order (zero-count stacks vanish unless counted elsewhere)
tot = {}
for l in mixed:
    s, c = l.rsplit(" ", 1)
    tot[s.encode()] = tot.get(s.encode(), 0) + int(c)
with open("sorted.folded", "wb") as f:
    for s in sorted(tot):
        if tot[s]:
            f.write(s + b" " + str(tot[s]).encode() + b"\n")
# differential: two counts per line, shuffled, with repeats
diff = ["%s %d %d" % (l.rsplit(" ", 1)[0], r.randrange(0, 9), r.randrange(0, 9)) for l in lines]
diff += diff[:700]
open("diff-sorted.folded", "w").write("\n".join(sorted(diff, key=lambda x: x.encode())) + "\n")
r.shuffle(diff)
open("diff-shuffled.folded", "w").write("\n".join(diff) + "\n")
agg = {}
for l in diff:
    s, b, a = l.rsplit(" ", 2)
    o = agg.setdefault(s.encode(), [0, 0])
    o[0] += int(b); o[1] += int(a)
with open("diff-model.folded", "wb") as f:
    for s in sorted(agg):
        if agg[s][0] or agg[s][1]:
            f.write(b"%s %d %d\n" % (s, agg[s][0], agg[s][1]))
PY

run sorted "$bin" -q --hash sorted.folded -o sorted.svg
run in-memory "$bin" -q --hash shuffled.folded -o mem.svg
same in-memory sorted.svg mem.svg
mkdir tmp
# 4K of buffer: a thousand runs, merged in rounds
run spilled env TMPDIR="$work/tmp" "$bin" -q --hash --sort-buffer 4K shuffled.folded -o spilled.svg
same spilled sorted.svg spilled.svg
[ -z "$(ls -A tmp)" ] && ok || bad "temporary files left in \$TMPDIR: $(ls tmp | head -3)"
run spilled-stdin sh -c "TMPDIR='$work/tmp' '$bin' -q --hash --sort-buffer 64K < shuffled.folded > stdin.svg"
same spilled-stdin sorted.svg stdin.svg
# a pipe cannot be read twice: from the copy made as it went by
run spilled-pipe sh -c "cat shuffled.folded | TMPDIR='$work/tmp' '$bin' -q --hash --sort-buffer 64K > pipe.svg"
same spilled-pipe sorted.svg pipe.svg
# a regular file is read again from where standard input started, not from its first byte
{ printf 'zzz;not;this;part 999\n'; cat shuffled.folded; } >offset.folded
run stdin-offset sh -c "{ dd bs=1 count=22 of=/dev/null 2>/dev/null; '$bin' -q --hash --sort-buffer 64K > offset.svg; } < offset.folded"
same stdin-offset sorted.svg offset.svg
run stdin-offset-folded sh -c "{ dd bs=1 count=22 of=/dev/null 2>/dev/null; '$bin' -q --sort-buffer 64K --format folded > offset.out; } < offset.folded"
same stdin-offset-folded sorted.folded offset.out
# "-" named twice: the second finds standard input at its end, from a file as from a pipe
run stdin-twice sh -c "'$bin' -q --hash - - > twice.svg < shuffled.folded"
run pipe-twice sh -c "cat shuffled.folded | '$bin' -q --hash - - > twice-pipe.svg"
same stdin-twice twice-pipe.svg twice.svg
same stdin-twice-once sorted.svg twice.svg
# not folded text: the profile reads it, again from there
profile="$tools/../data/firefox/processed-v24.firefox-profiler.json"
{ printf 'zzz;not;this;part 999\n'; cat "$profile"; } >offset.json
run stdin-offset-profile sh -c "{ dd bs=1 count=22 of=/dev/null 2>/dev/null; '$bin' -q --hash > offset-json.svg; } < offset.json"
run pipe-profile sh -c "cat '$profile' | '$bin' -q --hash > pipe-json.svg"
same stdin-offset-profile pipe-json.svg offset-json.svg
run no-tmpdir env TMPDIR=/nonexistent/foldsvg "$bin" -q --hash --sort-buffer 4K shuffled.folded -o notmp.svg
same no-tmpdir sorted.svg notmp.svg
# the same on standard input from a file: the sorter cannot spill, and the profile reads it
# again from its start (a pipe could not have been copied either: the profile reads it once)
run no-tmpdir-stdin sh -c "TMPDIR=/nonexistent/foldsvg '$bin' -q --hash --sort-buffer 4K < shuffled.folded > notmp-stdin.svg"
same no-tmpdir-stdin sorted.svg notmp-stdin.svg
# a full disk: writes past a file-size limit fail (EFBIG, the signal ignored); the run falls
# back to the tree and still draws the same picture
run full-disk sh -c "(trap '' XFSZ; ulimit -f 200; TMPDIR='$work/tmp' exec '$bin' -q --hash --sort-buffer 4K shuffled.folded) | cat > full.svg"
same full-disk sorted.svg full.svg
run summary "$bin" --sort-buffer 4K shuffled.folded -o s.svg
grep -q "across 3,000 unique stacks" err && ok || bad "summary after sorting: $(cat err)"
# gzip: files are read again by name, a pipe from its compressed copy
gzip -c shuffled.folded >shuffled.folded.gz; gzip -c sorted.folded >sorted.folded.gz
run gzip-sorted "$bin" -q --hash sorted.folded.gz -o gz-sorted.svg
same gzip-sorted sorted.svg gz-sorted.svg
run gzip-file "$bin" -q --hash --sort-buffer 8K shuffled.folded.gz -o gz-file.svg
same gzip-file sorted.svg gz-file.svg
run gzip-stdin sh -c "'$bin' -q --hash --sort-buffer 8K < shuffled.folded.gz > gz-stdin.svg"
same gzip-stdin sorted.svg gz-stdin.svg
run gzip-pipe sh -c "cat shuffled.folded.gz | '$bin' -q --hash --sort-buffer 8K > gz-pipe.svg"
same gzip-pipe sorted.svg gz-pipe.svg
# several inputs, the second unsorted: one merged picture
head -n 1500 shuffled.folded >part1.folded; tail -n +1501 shuffled.folded >part2.folded
run two-inputs "$bin" -q --hash --sort-buffer 16K part1.folded part2.folded -o two.svg
same two-inputs sorted.svg two.svg

# Stacks over a few short names that are prefixes of one another (and empty ones), so that
# neighbours differ inside a name, at a ';', at a name's end or where one stack ends: the
# sorter's output cuts each stack too narrow to draw one byte past where it differs from
# both neighbours, and the streaming merge must draw what it draws from the whole stacks
python3 - <<'PY'
import random
r = random.Random(23)
names = ["a", "ab", "abc", "b", "ba", "", "a b", "\x01", "c"]
tot = {}
lines = []
for i in range(6000):
    depth = r.randrange(1, 9)
    s = ";".join(r.choice(names) for _ in range(depth))
    c = r.choice([1, 1, 1, 2, 3, 5, 40, 400])
    if s == "":
        continue  # not a folded line: first in sorted order, it would make the file no profile
    lines.append("%s %d" % (s, c))
    tot[s.encode()] = tot.get(s.encode(), 0) + c
r.shuffle(lines)
open("edges.folded", "w").write("\n".join(lines) + "\n")
with open("edges-sorted.folded", "wb") as f:
    for s in sorted(tot):
        f.write(s + b" " + str(tot[s]).encode() + b"\n")
PY
# the frames of the sorter's output are drawn ahead, each y put in once the depth is known:
# the same bytes as drawn after, under options that move the frames (the layout, colors)
i=0
for opts in "" "--inverted" "--subtitle sub --height 21 --fontsize 14" "--colordiffusion" \
    "--title T --width 900 --deterministic" "--no-javascript --fontwidth 0.7 --colors java" \
    "--minwidth 2 --factor 0.5"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    run "ahead-sorted-$i" "$bin" -q $opts sorted.folded -o "ahead-$i.svg"
    # shellcheck disable=SC2086
    run "ahead-spilled-$i" "$bin" -q $opts --sort-buffer 16K shuffled.folded -o "ahead-s-$i.svg"
    same "ahead-$i ($opts)" "ahead-$i.svg" "ahead-s-$i.svg"
done
for mw in 0.1 0.7 3 0; do
    run "edges-sorted-$mw" "$bin" -q --hash --minwidth "$mw" edges-sorted.folded -o "edges-$mw.svg"
    run "edges-spilled-$mw" "$bin" -q --hash --minwidth "$mw" --sort-buffer 4K edges.folded -o "edges-spilled-$mw.svg"
    same "edges-$mw" "edges-$mw.svg" "edges-spilled-$mw.svg"
done

run diff-sorted "$bin" -q --hash diff-sorted.folded -o dsorted.svg
run diff-spilled "$bin" -q --hash --sort-buffer 8K diff-shuffled.folded -o dspilled.svg
same differential dsorted.svg dspilled.svg
run diff-negated "$bin" -q --hash --negate --sort-buffer 8K diff-shuffled.folded -o dneg.svg
run diff-negated-sorted "$bin" -q --hash --negate diff-sorted.folded -o dnegs.svg
same differential-negated dnegs.svg dneg.svg

# folded output comes straight from the sorter: the model's lines, byte for byte
run folded-out "$bin" -q shuffled.folded -o out.folded
same folded-out sorted.folded out.folded
run folded-spilled "$bin" -q --sort-buffer 4K shuffled.folded -o out4k.folded
same folded-spilled sorted.folded out4k.folded
run folded-stdout sh -c "'$bin' -q --sort-buffer 8K --format folded < shuffled.folded.gz > outgz.folded"
same folded-stdout sorted.folded outgz.folded
run folded-no-tmpdir env TMPDIR=/nonexistent/foldsvg "$bin" -q --sort-buffer 4K shuffled.folded -o outnt.folded
same folded-no-tmpdir sorted.folded outnt.folded
run folded-diff "$bin" -q --sort-buffer 8K diff-shuffled.folded -o dout.folded
same folded-diff diff-model.folded dout.folded
run folded-summary "$bin" --sort-buffer 4K shuffled.folded -o s.folded
grep -q "across 3,000 unique stacks" err && ok || bad "folded summary: $(cat err)"

# 11 MB of 3,000 stacks repeated in random order: over the size read in two halves at once
# (each summed on its own core, then joined). The same pictures, folded text, warnings and
# exit codes as from standard input (read in one part): invalid, fractional and zero-count
# lines in the second half only; a sort buffer too small for the second half's stacks (it is
# read again); a total that passes 2^64-1 in the second half (the error names the line).
python3 - <<'PY'
import random
lines = open("gen.folded").read().splitlines()
r = random.Random(9)
big = [r.choice(lines) for _ in range(16000)]
n = len(big)
big[int(n * 0.6)] = big[4].rsplit(" ", 1)[0] + " 0"
big[int(n * 0.7)] = "not a folded line"
big[int(n * 0.8)] = big[3].rsplit(" ", 1)[0] + " 2.5"
open("big.folded", "w").write("\n".join(big) + "\n")
# the first half's counts (about 31,000) stay below what is left, the second half's pass it
big[int(n * 0.2)] = big[5].rsplit(" ", 1)[0] + " %d" % (2**64 - 1 - 40000)
open("huge.folded", "w").write("\n".join(big) + "\n")
PY
[ "$(wc -c <big.folded)" -gt 9000000 ] && ok || bad "big.folded is too small to be split"
one_part() { # one_part NAME INPUT OUT ARGS...: a file, then standard input: same output, messages
    name=$1 input=$2 out=$3; shift 3
    "$bin" "$@" "$input" -o "split.$out" 2>split.err
    code1=$?
    "$bin" "$@" -o "one.$out" <"$input" 2>one.err
    code2=$?
    sed "s|<stdin>|$input|g" one.err >one.named
    [ "$code1" -eq "$code2" ] && ok || bad "$name: exit $code1 from the file, $code2 from standard input"
    if cmp -s split.err one.named; then ok; else bad "$name: messages differ: $(cat split.err) / $(cat one.named)"; fi
    if [ "$code1" -eq 0 ]; then same "$name" "split.$out" "one.$out"; fi
}
one_part big-svg big.folded svg --hash
grep -q "big.folded:11201:" split.err && grep -q "big.folded:12801:" split.err && ok ||
    bad "big-svg: the warnings do not name the second half's lines: $(cat split.err)"
one_part big-folded big.folded folded
one_part big-small-buffer big.folded svg --hash --sort-buffer 64K
one_part big-overflow huge.folded svg --hash
at=$(sed -n 's/^foldsvg: huge.folded:\([0-9]*\): the total count passes.*/\1/p' split.err)
[ "${at:-0}" -gt 8000 ] && ok || bad "big-overflow: not named in the second half: $(cat split.err)"

# Sorted lines read ahead (over 1 MiB) with zero-count lines between, each out of order and
# sharing less with the line before than the next line does: they are dropped, and the frames
# of the line before must still merge with the next one's (the merge, told what the next line
# shares, left them unopened; it then sorts the input instead)
python3 - <<'PY'
lines = open("sorted.folded").read().splitlines()
out = []
for i, l in enumerate(lines):
    out.append(l)
    if i % 7 == 3:
        out.append(l.split(";", 1)[0] + ";! 0")
open("zeros.folded", "w").write("\n".join(out) + "\n")
PY
run zeros "$bin" --hash zeros.folded -o zeros.svg
run zeros-sorted "$bin" --hash sorted.folded -o zeros-sorted.svg
same zeros zeros.svg zeros-sorted.svg

for v in 0 1023 10X -5 1K5; do
    "$bin" --sort-buffer "$v" sorted.folded -o x.svg 2>err
    code=$?
    [ "$code" -eq 2 ] && grep -q "sort-buffer" err && ok || bad "--sort-buffer $v: exit $code: $(cat err)"
done

# The sorter's final merge on one thread (no worker takes it): its stacks go straight to the
# frames, so memory stays within the sort buffer, not the merged output (an input of about
# 35 MB, a buffer of 1 MiB: the merge's whole output kept would pass 35 MB)
if [ "$sanitized" != --sanitized ]; then
    python3 "$tools/gen_folded.py" -n 50000 --seed 5 --shuffle 3 -o big.folded
    rss=$(FOLDSVG_THREADS=1 python3 "$tools/peak_rss.py" "$bin" -q --hash --sort-buffer 1M big.folded -o big.svg)
    [ "$rss" -gt 0 ] && [ "$rss" -lt 25000 ] && ok || bad "one thread, --sort-buffer 1M: peak $rss KiB"
    rm -f big.folded big.svg
fi

echo "unsorted: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
