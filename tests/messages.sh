#!/bin/sh
# Messages that tell the truth (docs/cli.md "Exit codes and messages", "Options that do
# nothing"): when options leave nothing to draw, the one line names them and the input, in
# every output mode and for every input format; options that cannot apply are a usage error
# or a warning, never silently ignored; the summary line speaks in the right number.
#   tests/messages.sh BIN
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
one_line() { # one_line NAME: stderr is exactly one line
    n=$(awk 'END { print NR }' err)
    [ "$n" -eq 1 ] && ok || bad "$1: stderr has $n lines: $(head -c 400 err)"
}
absent() { [ ! -e "$2" ] && ok || bad "$1: $2 was created"; }

printf 'main;parse;lex 30\nmain;parse 10\nmain;render 60\n' >in.folded
gecko=$data/firefox/gecko-v24-sp1-style-probe-gecko_profile-0.4.0.json
processed=$data/firefox/processed-v24.firefox-profiler.json
perf=$data/compat-perf/inputs/perf-funcab-cmd-01.txt
cp "$gecko" gecko.json; cp "$processed" processed.json; cp "$perf" perf.txt

# ---- nothing left to draw: the options that dropped the stacks, and the input ---------------
# every output mode: SVG, HTML, --top, folded text
for out in "-o x.svg" "-o x.html" "--top 3" "-o x.folded"; do
    for opt in "--base nosuch" "--include nosuch" "--exclude main" "--focus nosuch"; do
        o=${opt%% *}; v=${opt#* }
        # shellcheck disable=SC2086
        expect 1 "nodata $opt $out" "$bin" in.folded $opt $out
        one_line "nodata $opt $out"
        has "nodata $opt $out: input" err 'foldsvg: in.folded: nothing to draw'
        has "nodata $opt $out: option" err "3 by $o '$v'"
        hasnt "nodata $opt $out: no blank-line story" err 'blank lines'
        absent "nodata $opt $out" x.svg; absent "nodata $opt $out" x.html
        absent "nodata $opt $out" x.folded
    done
done
# every input format
for f in gecko.json processed.json perf.txt; do
    for out in "-o x.svg" "-o x.html" "--top 3" "-o x.folded"; do
        # shellcheck disable=SC2086
        expect 1 "nodata $f $out" "$bin" "$f" --base nosuch $out
        one_line "nodata $f $out"
        has "nodata $f $out: input and option" err "foldsvg: $f: nothing to draw: every stack was dropped ("
        has "nodata $f $out: option" err "by --base 'nosuch')"
        hasnt "nodata $f $out: not the zero-weight story" err 'non-zero weight'
    done
done
# several steps each dropping some: each named with its count, in pipeline order
printf 'a;x 1\nb;y 2\nc;z 3\nd 0\ne;w 4\n' >steps.folded
expect 1 nodata-steps "$bin" steps.folded --exclude '^a$' --include '^[bc]$' --include y \
    --base nosuch -o x.svg
has nodata-steps-msg err "every stack was dropped (1 by --include '^[bc]\$', 'y', 1 by --exclude '^a\$', 2 by --base 'nosuch', 1 with a zero count)"
# invalid lines are mentioned, but the options are what dropped the rest
printf 'a;x 1\nnot a count\n' >someinvalid.folded
expect 1 nodata-invalid "$bin" someinvalid.folded --include nosuch -o x.svg
has nodata-invalid-msg err "(1 by --include 'nosuch'); 1 line with invalid format skipped, the first is line 2"
# of several inputs, the one the options dropped stacks from is named
printf 'a 0\n' >zero.folded
expect 1 nodata-second "$bin" zero.folded in.folded --include nosuch -o x.svg
has nodata-second-msg err 'foldsvg: in.folded: nothing to draw'
# many values are cut short
expect 1 nodata-many "$bin" in.folded --include q1 --include q2 --include q3 --include q4 \
    --include q5 -o x.svg
has nodata-many-msg err "--include 'q1', 'q2', 'q3' (and 2 more))"
# nothing dropped by options: what the input held
expect 1 nodata-zero "$bin" zero.folded -o x.svg
has nodata-zero-msg err 'zero.folded: no valid stacks, nothing to draw: every stack (1 line) has a zero count'
printf '# a comment\n\n' >comments.folded
expect 1 nodata-comments "$bin" comments.folded -o x.svg
has nodata-comments-msg err 'comments.folded: no valid stacks, nothing to draw: the input holds only blank lines and comments'
# folded text too: nothing to draw is an error (nothing written), but for an empty input,
# whose folded text is empty as inferno's collapsers write it
expect 1 nodata-zero-folded "$bin" zero.folded -o x.folded
has nodata-zero-folded-msg err 'zero.folded: no valid stacks, nothing to draw: every stack (1 line) has a zero count'
absent nodata-zero-folded x.folded
expect 1 nodata-comments-folded "$bin" comments.folded -o x.folded
absent nodata-comments-folded x.folded
cat >nosamples.json <<'END'
{"meta": {"version": 24, "interval": 1, "startTime": 0}, "libs": [], "threads": [{"name": "main",
 "samples": {"schema": {"stack": 0, "time": 1}, "data": []},
 "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": []},
 "frameTable": {"schema": {"location": 0}, "data": []}, "stringTable": []}]}
END
expect 1 nodata-gecko-folded "$bin" nosamples.json -o x.folded
has nodata-gecko-folded-msg err 'nosamples.json: no valid stacks, nothing to draw: the profile holds no samples'
absent nodata-gecko-folded x.folded
: >empty.folded
expect 0 nodata-empty-folded "$bin" -q empty.folded -o x.folded
[ -f x.folded ] && [ ! -s x.folded ] && ok || bad "an empty input to folded text is not an empty file"
rm -f x.folded

# ---- no option silently ignored: input options that apply to no input are usage errors ----
for opt in "--thread 0" "--weight samples" "--pid" "--tid" "--kernel" "--jit" "--all" \
    "--addrs" "--event-filter cycles" "--skip-after main"; do
    o=${opt%% *}
    for out in "-o x.svg" "-o x.folded" "-o x.html" "--top 2"; do
        # shellcheck disable=SC2086
        expect 2 "unused $opt $out" "$bin" in.folded $opt $out
        one_line "unused $opt $out"
        has "unused $opt $out: msg" err "foldsvg: in.folded: $o does nothing: it applies to "
        has "unused $opt $out: what" err ", and this is folded text; drop $o"
        absent "unused $opt $out" x.svg; absent "unused $opt $out" x.folded
        absent "unused $opt $out" x.html
    done
done
expect 2 unused-kernel-json "$bin" gecko.json --kernel -o x.svg
has unused-kernel-json-msg err 'gecko.json: --kernel does nothing: it applies to perf script output, and this is a Firefox-Profiler profile; drop --kernel'
expect 2 unused-thread-perf "$bin" perf.txt --thread 0 -o x.svg
has unused-thread-perf-msg err 'perf.txt: --thread does nothing: it applies to a Firefox-Profiler profile, a pprof profile, a Chrome or V8 profile (.cpuprofile, trace events) or a speedscope file, and this is perf script output; drop --thread'
expect 2 unused-thread-stdin sh -c "'$bin' --thread 0 -o x.svg < in.folded"
has unused-thread-stdin-msg err '<stdin>: --thread does nothing'
# one input it applies to is enough; --sections checks the report as a whole
expect 0 mixed-thread "$bin" -q in.folded gecko.json --thread 0 -o x.svg
expect 0 mixed-thread-sections "$bin" -q --sections in.folded gecko.json --thread 0 -o x.html
expect 2 mixed-none "$bin" in.folded perf.txt --thread 0 -o x.svg
has mixed-none-msg err 'and no input is one (this is perf script output); drop --thread'
# the value the option has by default is no request
expect 0 default-weight "$bin" -q in.folded --weight auto -o x.svg
# usage errors on the command line itself
expect 2 output-twice "$bin" in.folded -o a.svg -o b.svg
has output-twice-msg err "-o given twice ('a.svg', then 'b.svg')"
absent output-twice a.svg; absent output-twice b.svg
expect 2 output-twice-long "$bin" in.folded --output a.svg -o b.svg
expect 2 minwidth-above-100 "$bin" in.folded --minwidth 100.5 -o x.svg
has minwidth-msg err "invalid value '100.5' for --minwidth: expected a percentage from 0 to 100"
expect 0 minwidth-100 "$bin" -q in.folded --minwidth 100 -o x.svg
rm -f x.svg
expect 2 list-threads-output "$bin" --list-threads gecko.json -o x.svg
has list-threads-output-msg err '--list-threads prints the threads and writes nothing else'
absent list-threads-output x.svg
# options about outputs not written: a warning, and the run goes on
warns() { # warns NAME TEXT ARGS...: exit 0, the output written, TEXT warned
    name=$1; text=$2; shift 2
    expect 0 "$name" "$bin" in.folded "$@"
    has "$name" err "foldsvg: warning: $text"
}
warns per-svg "--per does nothing here: it is about the tables (--top, the HTML report), and none are written" --per 10 -o x.svg
warns per-folded "--per does nothing here" --per 10 -o x.folded
warns top-format-html "--top-format does nothing without --top" --top-format json -o x.html
warns title-folded "--title does nothing here: it is about the flamegraph, and only folded text is written" --title T -o x.folded
warns colors-top "--colors does nothing here: it is about the flamegraph, and only tables are written" --colors blue --top 2
warns minwidth-top "--minwidth does nothing here" --minwidth 1 --top 2
warns flamechart-folded "--flamechart does nothing here" --flamechart -o x.folded
warns palette-map "--palette-map does nothing without --cp" --palette-map pm -o x.svg
warns base-flamechart "--base does nothing with --flamechart (inferno ignores it there too)" --flamechart --base main -o x.svg
sort in.folded >sorted.folded
expect 0 base-no-sort "$bin" sorted.folded --no-sort --base main -o x.svg
has base-no-sort-msg err "foldsvg: warning: --base does nothing with --no-sort"
# ... and none where they do something
for args in "--per 10 --top 2" "--per 10 -o x.html" "--top-format json --top 2" \
    "--title T -o x.svg" "--title T -o x.html" "--title T --top 2 -o x.svg" \
    "--countname s -o x.folded" "--countname s --top 2" "--cp --palette-map pm -o x.svg" \
    "--flamechart -o x.svg" "--top 2 -o x.folded"; do
    # shellcheck disable=SC2086
    expect 0 "used $args" "$bin" in.folded $args
    hasnt "used $args" err 'warning'
done
expect 0 unused-quiet "$bin" -q in.folded --title T -o x.folded
[ ! -s err ] && ok || bad "-q still warns: $(cat err)"

# ---- the summary line: the count name in the right number, thousands separators ----------
printf 'a 1\n' >one.folded
expect 0 summary-one "$bin" one.folded -o x.svg
has summary-one-msg err 'foldsvg: 1 cycle across 1 unique stack'
hasnt summary-one-plural err 'cycles'
expect 0 summary-one-html "$bin" one.folded -o x.html
has summary-one-html-msg err 'foldsvg: 1 cycle across 1 unique stack'
printf 'a;b 40\na;c 6\nd 1\n' >47.folded
expect 0 summary-countname "$bin" 47.folded --countname samples -o x.svg
has summary-countname-msg err 'foldsvg: 47 samples across 3 unique stacks'
# the profile route (HTML, --top) speaks --countname too
expect 0 summary-countname-html "$bin" 47.folded --countname samples -o x.html
has summary-countname-html-msg err 'foldsvg: 47 samples across 3 unique stacks'
expect 0 summary-countname-top "$bin" 47.folded --countname samples --top 2
has summary-countname-top-msg err 'foldsvg: 47 samples across 3 unique stacks'
printf 'a 1\n' | "$bin" --countname samples -o x.svg 2>err
has summary-one-sample err 'foldsvg: 1 sample across 1 unique stack'
printf 'a 1\n' | "$bin" --countname cycles:u -o x.svg 2>err
has summary-event-name err 'foldsvg: 1 cycles:u across 1 unique stack'
printf 'a 1\n' | "$bin" --countname ms -o x.svg 2>err
has summary-abbreviation err 'foldsvg: 1 ms across 1 unique stack'
# a perf recording with periods speaks its event
expect 0 summary-perf "$bin" perf.txt -o x.svg
has summary-perf-msg err ' across '
# thousands separators in the summary, the text and Markdown tables and the report
python3 -c "
for i in range(1234): print('main;f%d %d' % (i, 1000 + i))" >many.folded
expect 0 summary-thousands "$bin" many.folded -o x.svg
has summary-thousands-msg err 'foldsvg: 1,994,761 cycles across 1,234 unique stacks'
expect 0 text-thousands "$bin" many.folded --top 3 --per 1000
has text-unique out 'Unique stacks: 1,234'
has text-funcs out 'Self time: top 3 of 1,234 functions'
has text-per out 'Per: counts are divided by 1,000 (--per): 1,994,761 cycles in all'
expect 0 md-thousands "$bin" many.folded --top 3 --per 1000 --top-format markdown
has md-unique out '**Unique stacks:** 1,234'
has md-funcs out '### Self time (top 3 of 1,234)'
has md-per out '*Counts are divided by 1,000 (`--per 1000`); 1,994,761 cycles in all.*'
expect 0 html-thousands "$bin" -q many.folded --per 1000 -o x.html
has html-unique x.html '<dt>Unique stacks</dt><dd>1,234</dd>'
has html-funcs x.html 'top 25 of 1,234 functions'
has html-per x.html 'Counts are divided by 1,000 (--per)'

finish messages
