#!/bin/sh
# Folding in parts (docs/cli.md, "Folding in parts"): groups of inputs folded with
# --facts-out, then drawn with --facts-from, give what one run over all the inputs gives,
# byte for byte (SVG, HTML report, folded text, --top), with the same warnings and the same
# errors; the options' misuse is a usage error. contrib/dask/foldsvg-dask relies on this.
#   tests/facts.sh BIN DATA_DIR
set -u
bin=$(realpath "$1"); data=$(realpath "$2")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
same() { # same NAME A B
    if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ: $(diff "$2" "$3" | head -c 400)"; fi
}

# mixed inputs, relative names (the report names them as given), one with a tab in its name
cp "$data/filters/gecko.json" gecko.json
cp "$data/firefox/processed-v49-samply-style.firefox-profiler.json.gz" samply.json.gz
cp "$data/filters/stacks.folded" stacks.folded
cp "$data/filters/sp1.json" sp1.json
printf 'main;tail 7\ngarbage\n' >"odd	name.folded"
gzip -c stacks.folded >stacks.folded.gz

# part GROUP FLAGS... -- INPUTS...: folds a group into pGROUP.folded and pGROUP.facts
part() {
    g=$1; shift
    "$bin" "$@" --facts-out "p$g.facts" -o "p$g.folded" 2>"p$g.err" || bad "part $g: exit $?: $(cat "p$g.err")"
}
# all FACTS...: the facts files as one (one header line)
all() {
    head -n 1 "$1" >all.facts
    for f in "$@"; do tail -n +2 "$f" >>all.facts; done
}

for flags in "" "--strip-rust-hash --focus ^start --reverse" "--weight samples --base js::Interpret"; do
    # shellcheck disable=SC2086
    set -- $flags
    part 1 "$@" gecko.json samply.json.gz
    part 2 "$@" stacks.folded "odd	name.folded"
    part 3 "$@" sp1.json stacks.folded.gz
    all p1.facts p2.facts p3.facts
    [ -s p2.err ] && grep -q warning p2.err && bad "a part warns ($flags): $(cat p2.err)" || ok
    for out in o.svg o.html o.folded; do
        # shellcheck disable=SC2086
        "$bin" "$@" gecko.json samply.json.gz stacks.folded "odd	name.folded" sp1.json \
            stacks.folded.gz -o "one-$out" 2>one.err
        one=$?
        "$bin" --facts-from all.facts p1.folded p2.folded p3.folded -o "parts-$out" 2>parts.err
        [ $? -eq $one ] && ok || bad "$out ($flags): exit $? against $one: $(cat parts.err)"
        same "$out ($flags)" "one-$out" "parts-$out"
        # the raw-address warning is said by the run that reads the profile (the part)
        grep -v 'end in raw addresses' one.err >one-read.err
        same "$out messages ($flags)" one-read.err parts.err
    done
    if [ -z "$flags" ]; then
        grep -q 'samply.json.gz: 100% of the samples end in raw addresses' p1.err && ok ||
            bad "the part that reads the samply trace says it is not symbolicated: $(cat p1.err)"
    fi
    "$bin" "$@" gecko.json samply.json.gz stacks.folded "odd	name.folded" sp1.json \
        stacks.folded.gz --top 5 --top-format json >one.top 2>/dev/null
    "$bin" --facts-from all.facts p1.folded p2.folded p3.folded --top 5 --top-format json >parts.top 2>/dev/null
    same "--top ($flags)" one.top parts.top
done
grep -q '<dd>mixed (gzip)</dd>' parts-o.html && ok || bad "the report's format is not the inputs': $(grep -o '<dl.*</dl>' parts-o.html)"
grep -q 'odd	name.folded' parts-o.html && ok || bad "a name with a tab is not carried"
grep -q 'samples' parts-o.svg && ok || bad "the unit (samples) is not carried"
grep -q "odd.name.folded:2: ignored 1 line" parts.err && ok || bad "the warning is not replayed: $(cat parts.err)"

# a part with nothing to draw is not an error; the run is, as one run would be
printf 'a 0\njunk\n' >junk.folded
part 4 junk.folded
[ ! -s p4.folded ] && ok || bad "nothing folded is not empty: $(cat p4.folded)"
"$bin" junk.folded junk.folded -o one.svg 2>one.err; one=$?
all p4.facts p4.facts
"$bin" --facts-from all.facts p4.folded -o parts.svg 2>parts.err
[ $? -eq $one ] && [ $one -eq 1 ] && ok || bad "nothing to draw: exit $? against $one"
same "no-data message" one.err parts.err
[ ! -e parts.svg ] && ok || bad "an output was written"
# ... and the invalid lines of a part that had nothing are warned once something is drawn
part 2 stacks.folded "odd	name.folded"
all p4.facts p2.facts
"$bin" junk.folded stacks.folded "odd	name.folded" -o one.svg 2>one.err
"$bin" --facts-from all.facts p4.folded p2.folded -o parts.svg 2>parts.err
same "held-back warnings" one.err parts.err
part 5 --include nomatch stacks.folded
[ ! -s p5.folded ] && ok || bad "filtered out is not empty"
"$bin" --include nomatch stacks.folded -o one.svg 2>one.err
# the drawing run has not the stack options: the facts file names them (and sums the parts)
"$bin" --facts-from p5.facts p5.folded -o parts.svg 2>parts.err
same "filtered-out message" one.err parts.err
part 6 --include nomatch --base nosuch stacks.folded "odd	name.folded"
all p5.facts p6.facts
"$bin" --include nomatch --base nosuch stacks.folded stacks.folded "odd	name.folded" -o one.svg 2>one.err
"$bin" --facts-from all.facts p5.folded p6.folded -o parts.svg 2>parts.err
same "filtered-out message of two parts" one.err parts.err

# passed on: --facts-from with --facts-out writes the carried inputs again
part 1 gecko.json samply.json.gz
part 3 sp1.json stacks.folded.gz
all p1.facts p2.facts p3.facts
"$bin" -q --facts-from all.facts p1.folded p2.folded p3.folded --facts-out again.facts -o again.folded
same "facts passed on" all.facts again.facts

# misuse
"$bin" stacks.folded --facts-out x.facts -o x.svg 2>err; [ $? -eq 2 ] && ok || bad "--facts-out with SVG output is not a usage error"
"$bin" stacks.folded --facts-out x.facts -o x.html 2>err; [ $? -eq 2 ] && ok || bad "--facts-out with HTML output is not a usage error"
[ ! -e x.facts ] && [ ! -e x.svg ] && [ ! -e x.html ] && ok || bad "a misused --facts-out wrote files"
"$bin" --sections --facts-from all.facts p1.folded -o x.html 2>err; [ $? -eq 2 ] && ok || bad "--facts-from with --sections is not a usage error"
printf '# foldsvg facts 2\nshort\tline\n' >broken.facts
"$bin" --facts-from broken.facts p1.folded -o x.svg 2>err; [ $? -eq 1 ] && ok || bad "a broken facts file is not an error"
grep -q '^foldsvg: broken.facts:2: ' err && [ "$(wc -l <err)" -eq 1 ] && ok || bad "broken facts file message: $(cat err)"
printf 'a;b 1\n' >notfacts
"$bin" --facts-from notfacts p1.folded -o x.svg 2>err; [ $? -eq 1 ] && ok || bad "a folded file taken for facts"
"$bin" --facts-from missing.facts p1.folded -o x.svg 2>err; [ $? -eq 1 ] && grep -q 'missing.facts' err && ok || bad "a missing facts file: $(cat err)"
[ ! -e x.svg ] && ok || bad "a failed --facts-from wrote the output"

echo "facts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
