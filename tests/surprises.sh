#!/bin/sh
# No silent surprises (issue 45, 4): every case where foldsvg used to do something the user
# did not ask for without a word now says so, and the words say what to write instead.
#   tests/surprises.sh BIN DATA
bin=$(realpath "$1")
data=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

printf 'main;parse 3\nmain;draw 5\n' >in.folded

# ---- an output name foldsvg does not write --------------------------------------------
expect 2 output-png-gz "$bin" in.folded -o out.png.gz
has output-png-gz-names err "does not write png files"
for ext in png pdf json; do
    expect 2 "output-$ext" "$bin" in.folded -o "out.$ext"
    has "output-$ext-names" err "does not write $ext files"
    has "output-$ext-says" err ".svg (the flamegraph), .html (the report), .speedscope.json (a speedscope file) and folded text"
    if [ -e "out.$ext" ]; then bad "output-$ext: a file was written"; else ok; fi
done
expect 0 output-format "$bin" -q in.folded --format folded -o out.png
has output-format-folded out.png 'main;draw 5'
for name in out.svg out.HTML out.folded out.txt out.out noext dir.d/noext out.speedscope.json out.folded.gz out.svg.gz; do
    mkdir -p dir.d
    expect 0 "output-$name" "$bin" -q in.folded -o "$name"
done

# ---- a value that is one of our options -----------------------------------------------
expect 2 value-option "$bin" in.folded --title -o x.svg
has value-option-says err "--title takes a value, and '-o' is an option"
has value-option-how err "write --title=-o"
if [ -e x.svg ] || [ -e -o ]; then bad "value-option: something was written"; else ok; fi
expect 2 value-option-long "$bin" in.folded --countname --hash -o x.svg
has value-option-long-says err "'--hash' is an option"
expect 0 value-inline "$bin" -q in.folded --title=-o -o x.svg
has value-inline-title x.svg '>-o</text>'
expect 0 value-dash "$bin" -q --title - in.folded -o y.svg
expect 0 value-negative "$bin" -q --title -5 in.folded -o y.svg

# ---- unknown options: the nearest one -------------------------------------------------
expect 2 suggest-typo "$bin" --sumary in.folded
has suggest-typo-says err "unknown option --sumary: did you mean --summary?"
expect 2 suggest-swap "$bin" --colros hot in.folded
has suggest-swap-says err "did you mean --colors?"
expect 2 suggest-prefix "$bin" --strip-rust in.folded
has suggest-prefix-says err "did you mean --strip-rust-hash?"
expect 2 suggest-value "$bin" --widht=300 in.folded
has suggest-value-says err "unknown option --widht=300: did you mean --width?"
expect 2 suggest-none "$bin" --frobnicate in.folded
hasnt suggest-none-says err "did you mean"
has suggest-none-unknown err "unknown option --frobnicate"

# ---- a terminal: no SVG or HTML onto it, a hint when waiting on it ----------------------
# script(1) runs the command on a pseudo-terminal (its stdin and stdout)
onterm() { script -qec "$1" /dev/null </dev/null >out 2>&1; }
onterm "'$bin' in.folded"
has term-svg out "not writing SVG to a terminal"
hasnt term-svg-nothing out "<svg"
onterm "'$bin' in.folded --format html"
has term-html out "not writing HTML to a terminal"
onterm "'$bin' in.folded --format folded"
has term-folded out "main;draw 5"
onterm "'$bin' in.folded --summary"
has term-summary out "Self time"
onterm "'$bin' -o t.svg"
has term-input-hint out "reading a profile from standard input (a terminal)"
onterm "'$bin' -q -o t.svg"
hasnt term-input-quiet out "reading a profile from standard input"
# not a terminal: no hint, SVG on standard output as ever
"$bin" <in.folded >piped.svg 2>err && grep -q '<svg' piped.svg && ok || bad "piped: no SVG"
hasnt piped-no-hint err "standard input (a terminal)"

# ---- numbers grouped the same way everywhere ----------------------------------------------
awk 'BEGIN { for (i = 0; i < 1500; i++) printf "main;f%d 1000\n", i }' >big.folded
awk 'BEGIN { for (i = 0; i < 1200; i++) printf "main;f%d 900\n", i }' >big2.folded
expect 0 group-diff "$bin" --diff big.folded big2.folded --summary
has group-diff-before out "1,500,000 cycles in 1,500 unique stacks"
has group-diff-change out "1,500 unique stacks, 300 only before, 0 only after"
has group-diff-functions out "of 1,500 functions by change"
expect 0 group-summary "$bin" big.folded --summary
has group-summary-line err "1,500,000 cycles across 1,500 unique stacks"

# ---- --list-threads: a header line ------------------------------------------------------
ff=$data/firefox/gecko-v13-nested-processes.firefox-profiler.json
expect 0 threads-header "$bin" --list-threads "$ff"
if [ "$(head -n 1 out)" = "$(printf 'index\tname\tprocess\tsamples\tweight')" ]; then ok; else
    bad "threads-header: first line $(head -n 1 out)"; fi
expect 0 threads-quiet "$bin" -q --list-threads "$ff"
if head -n 1 out | grep -q '^0	'; then ok; else bad "threads-quiet: first line $(head -n 1 out)"; fi
expect 0 threads-two "$bin" --list-threads "$ff" "$ff"
if [ "$(head -n 1 out)" = "$(printf 'input\tindex\tname\tprocess\tsamples\tweight')" ]; then ok; else
    bad "threads-two: first line $(head -n 1 out)"; fi

# ---- raw addresses -------------------------------------------------------------------------
expect 0 raw-addresses "$bin" "$data/firefox/processed-v49-samply-style.firefox-profiler.json.gz" -o raw.svg
has raw-addresses-says err "end in raw addresses such as 0x"
has raw-addresses-how err "samply load"
expect 0 raw-symbolized "$bin" "$data/firefox/processed-v58-shared-stringArray.firefox-profiler.json" -o sym.svg
hasnt raw-symbolized-quiet err "raw addresses"
printf 'main;0x43e8 5\n' >raw.folded
expect 0 raw-folded "$bin" raw.folded -o rawf.svg
hasnt raw-folded-as-inferno err "raw addresses"

# ---- --diff of two units -------------------------------------------------------------------
sp1=$data/firefox/gecko-v24-sp1-style-probe-gecko_profile-0.4.0.json
expect 0 units-differ "$bin" --diff "$sp1" "$ff" -o units.svg
has units-differ-says err "counts cycles, AFTER ("
has units-differ-samples err "counts samples: the difference mixes the two units"
expect 0 units-same "$bin" --diff "$sp1" "$sp1" -o same.svg
hasnt units-same-quiet err "mixes"
expect 0 units-folded "$bin" --diff in.folded in.folded -o f.svg
hasnt units-folded-quiet err "mixes"

finish surprises
