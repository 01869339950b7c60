#!/bin/sh
# The command-line contract (docs/cli.md): exit codes, one-line messages that name
# the file and line, outputs chosen by -o, no partial or clobbered files.
#   tests/cli.sh BIN
set -u
bin=$(realpath "$1")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# whether a file matches one of the glob patterns (one that matches nothing stays as it is)
exists() { for f in "$@"; do [ -e "$f" ] || [ -L "$f" ] && return 0; done; return 1; }
# expect CODE NAME CMD...: runs CMD, checks its exit code; stderr is in $work/err
expect() {
    code=$1; name=$2; shift 2
    "$@" >out 2>err; got=$?
    if [ "$got" -eq "$code" ]; then ok; else bad "$name: exit $got, expected $code; stderr: $(head -c 300 err)"; fi
}
has() { # has NAME FILE TEXT: FILE contains TEXT
    if grep -qF -- "$3" "$2"; then ok; else bad "$1: '$3' not in $2: $(head -c 300 "$2")"; fi
}
lines() { # lines NAME FILE N
    n=$(wc -l <"$2"); if [ "$n" -eq "$3" ]; then ok; else bad "$1: $2 has $n lines, expected $3"; fi
}

printf 'main;parse;lex 30\nmain;parse 10\nmain;render 60\n' >in.folded
printf 'b;x 2\na;y 3\nb;x 4\n' >unsorted.folded

# options and inputs in any order; output chosen by name
expect 0 order "$bin" in.folded -o a.svg --hash
has order-svg a.svg '<svg'
has order-count a.svg 'main (100 cycles, 100.00%)'
expect 0 stdin-stdout sh -c "'$bin' --hash < in.folded > b.svg"
cmp -s a.svg b.svg && ok || bad "stdin and file inputs render differently"
expect 0 dash-input sh -c "'$bin' - --hash -o c.svg < in.folded"
cmp -s a.svg c.svg && ok || bad "'-' is not standard input"

# a stack that --strip leaves with only empty names counts as [unknown] (fuzzer find)
printf 'e;;render 60\n' >emptied.folded
expect 0 strip-empties "$bin" -q --strip '.*' emptied.folded -o emptied.out
printf '[unknown] 60\n' >want-emptied
cmp -s emptied.out want-emptied && ok || bad "stripped to nothing: $(cat emptied.out)"

# the summary line on stderr, silent with -q
expect 0 summary "$bin" in.folded -o s.svg
has summary-line err 'foldsvg: 100 cycles across 3 unique stacks'
expect 0 summary-quiet "$bin" -q in.folded -o s.svg
[ ! -s err ] && ok || bad "-q still prints: $(cat err)"
printf '{"meta":{"version":24,"product":"SP1 ZKVM"},"threads":[{"name":"t","samples":{"schema":{"stack":0,"time":1,"threadCPUDelta":2},"data":[[0,0,5],[null,1,5],[1,2,5]]},"stackTable":{"schema":{"prefix":0,"frame":1},"data":[[null,0],[0,1]]},"frameTable":{"schema":{"location":0},"data":[[0],[1]]},"stringTable":["main","a;b"]}]}' >sp1.json
expect 0 json-summary "$bin" sp1.json -o sp1.folded
has json-summary-line err 'foldsvg: 15 cycles across 3 unique stacks'
printf '[unknown] 5\nmain 5\nmain;a:b 5\n' >want-sp1.folded
cmp -s sp1.folded want-sp1.folded && ok || bad "SP1 JSON to folded: $(cat sp1.folded)"
# the HTML report states what the input is
expect 0 json-report "$bin" -q sp1.json -o sp1.html
has report-format sp1.html '<dd>Gecko v24</dd>'
has report-product sp1.html '<dd>SP1 ZKVM</dd>'
has report-rate sp1.html '1 sample every 5 cycles'
sed 's/,5\]/,1]/g' sp1.json >sp1-rate1.json
expect 0 json-report-rate1 "$bin" -q sp1-rate1.json -o rate1.html
has report-rate-1 rate1.html '<dd>1 sample every cycle</dd>'
# the table names promise the views only when the page can open them
has report-views sp1.html 'Its callers and callees'
expect 0 nojs-report "$bin" -q --no-javascript sp1.json -o nojs.html
! grep -q 'callers and callees' nojs.html && ok || bad "--no-javascript report promises views"
gzip -c sp1.json >sp1.json.gz
expect 0 json-gz-stdin sh -c "'$bin' --format folded < sp1.json.gz > sp1gz.folded"
cmp -s sp1gz.folded want-sp1.folded && ok || bad "gzip JSON on stdin: $(cat sp1gz.folded)"
# a profile's flame chart (its samples in order: tests/threads.sh checks its frames)
expect 0 json-flamechart "$bin" --flamechart sp1.json -o x.svg
has json-flamechart-title x.svg '>Flame Chart</text>'
expect 2 json-no-sort "$bin" --no-sort sp1.json -o x.svg
has json-no-sort-msg err 'drop --no-sort'
expect 0 list-threads "$bin" --list-threads sp1.json
printf 'index\tname\tprocess\tsamples\tweight\n0\tt\t\t3\t15\n' >want-threads
cmp -s out want-threads && ok || bad "--list-threads: $(cat out)"
head -c 200 sp1.json >trunc.json
expect 1 json-truncated "$bin" trunc.json -o t.svg
has json-truncated-msg err 'trunc.json: byte 200:'
[ ! -e t.svg ] && ok || bad "truncated JSON created output"

# standard input is streamed while sorted and read again from its copy when it is not
expect 0 stdin-unsorted sh -c "'$bin' -q --hash < unsorted.folded > su.svg"
expect 0 file-unsorted "$bin" -q --hash unsorted.folded -o fu.svg
cmp -s su.svg fu.svg && ok || bad "unsorted stdin renders differently from the file"
expect 0 file-then-stdin sh -c "'$bin' -q --format folded in.folded - < unsorted.folded > mix.folded"
printf 'a;y 3\nb;x 6\nmain;parse 10\nmain;parse;lex 30\nmain;render 60\n' >want-mix
cmp -s mix.folded want-mix && ok || bad "file + stdin: $(cat mix.folded)"
expect 0 file-then-stdin-svg sh -c "'$bin' -q --hash in.folded - < unsorted.folded > mix.svg"
cat in.folded unsorted.folded >both.folded
expect 0 both-svg "$bin" -q --hash both.folded -o both.svg
cmp -s mix.svg both.svg && ok || bad "file + stdin SVG differs from the concatenation"

# folded output: merged, sorted by stack bytes
expect 0 folded "$bin" unsorted.folded -o out.folded
printf 'a;y 3\nb;x 6\n' >want.folded
cmp -s out.folded want.folded && ok || bad "folded output: $(cat out.folded)"
expect 0 format-override "$bin" unsorted.folded --format folded -o x.svg
cmp -s x.svg want.folded && ok || bad "--format folded ignored"
expect 0 format-stdout sh -c "'$bin' unsorted.folded --format folded > y.txt"
cmp -s y.txt want.folded && ok || bad "--format folded to stdout"

# several inputs are concatenated; a file without a final newline still ends its line
printf 'a;y 1' >nonl.folded
expect 0 concat "$bin" nonl.folded unsorted.folded -o cat.folded
printf 'a;y 4\nb;x 6\n' >want2.folded
cmp -s cat.folded want2.folded && ok || bad "concatenation: $(cat cat.folded)"

# invalid lines: a warning naming the first bad line, exit 0
printf 'a;b 1\nnot a count\na;c x\na;d 2\n' >some-bad.folded
expect 0 invalid-lines "$bin" some-bad.folded -o sb.svg
has invalid-warning err 'some-bad.folded:2: ignored 2 lines with invalid format'
expect 0 invalid-quiet "$bin" -q some-bad.folded -o sb.svg
[ ! -s err ] && ok || bad "-q still warns: $(cat err)"
printf 'a;b 1.5\n' >frac.folded
expect 0 fractional "$bin" frac.folded -o fr.svg
has fractional-warning err 'frac.folded:1: 1 line had fractional counts'

# nothing valid: exit 1, one line, no file
printf 'garbage\n\0\1\2 binary\n' >noise.folded
expect 1 no-data "$bin" noise.folded -o nd.svg
[ ! -e nd.svg ] && ok || bad "no-data run created its output"
lines no-data-one-line err 1
has no-data-msg err 'not a profile foldsvg reads'
: >empty.folded
expect 1 empty "$bin" empty.folded -o e.svg
[ ! -e e.svg ] && ok || bad "empty input created its output"

# a failed run leaves an existing output untouched
echo precious >keep.svg
expect 1 keep-existing "$bin" noise.folded -o keep.svg
[ "$(cat keep.svg)" = precious ] && ok || bad "existing output was modified"
exists .keep.svg.* && bad "temporary file left behind" || ok
expect 1 missing-input "$bin" does-not-exist.folded -o m.svg
has missing-input-msg err 'does-not-exist.folded: cannot open input'
[ ! -e m.svg ] && ok || bad "missing input created output"
expect 1 missing-dir "$bin" in.folded -o no/such/dir/x.svg
has missing-dir-msg err 'no/such/dir/x.svg'

# an existing file's permissions survive the rename
echo old >perm.svg; chmod 640 perm.svg
expect 0 perms "$bin" in.folded -o perm.svg
[ "$(stat -c %a perm.svg)" = 640 ] && ok || bad "permissions changed to $(stat -c %a perm.svg)"
# a non-regular target (FIFO) is written in place
mkfifo pipe
(cat pipe >fromfifo &) ; expect 0 fifo "$bin" in.folded --format svg -o pipe; sleep 0.2
has fifo-content fromfifo '</svg>'

# usage errors: exit 2 naming the flag
expect 2 unknown-flag "$bin" --nope in.folded
has unknown-flag-msg err '--nope'
expect 2 bad-colors "$bin" --colors nope in.folded
has bad-colors-msg err "invalid value 'nope' for --colors"
expect 2 bad-width "$bin" --width x in.folded
has bad-width-msg err '--width'
expect 2 missing-value "$bin" in.folded --title
expect 2 conflict "$bin" --hash --deterministic in.folded
has conflict-msg err '--hash cannot be used with --deterministic'
expect 2 conflict2 "$bin" --reverse --no-sort in.folded
expect 0 eq-form "$bin" --title=Hello in.folded -o eq.svg
has eq-form-title eq.svg '>Hello</text>'

# --diff: two inputs, not with --sections or --flamechart; its own options need it
expect 2 diff-one "$bin" --diff in.folded -o d.svg
has diff-one-msg err 'foldsvg: --diff takes two inputs, BEFORE and AFTER; 1 given'
expect 2 diff-none "$bin" --diff -o d.svg
has diff-none-msg err '; 0 given'
expect 2 diff-three "$bin" --diff in.folded in.folded in.folded -o d.svg
has diff-three-msg err '; 3 given'
expect 2 diff-sections "$bin" --diff in.folded in.folded --sections -o d.html
has diff-sections-msg err '--diff cannot be used with --sections'
expect 2 diff-flamechart "$bin" --diff in.folded in.folded --flamechart -o d.svg
has diff-flamechart-msg err '--flamechart cannot be used with --diff'
expect 2 diff-both-stdin sh -c "'$bin' --diff - - -o d.svg < in.folded"
has diff-both-stdin-msg err 'BEFORE and AFTER are both standard input'
expect 2 normalize-alone "$bin" --normalize in.folded -o d.svg
has normalize-alone-msg err 'foldsvg: --normalize needs --diff BEFORE AFTER'
expect 2 per-before-alone "$bin" in.folded --per-before 3 --top 2
has per-before-alone-msg err '--per-before needs --diff'
expect 2 per-after-alone "$bin" in.folded --per-after=3 -o d.svg
has per-after-alone-msg err '--per-after=3 needs --diff'
expect 2 diff-top-stdout "$bin" --diff in.folded in.folded --top 2 -o -
[ ! -e d.svg ] && [ ! -e d.html ] && ok || bad "a --diff usage error wrote output"
lines diff-usage-one-line err 1
expect 0 strip-hex-alone "$bin" --strip-hex in.folded -o sh.svg

# --no-sort checks the order
expect 1 no-sort "$bin" --no-sort unsorted.folded -o ns.svg
has no-sort-msg err 'unsorted.folded:2: unsorted input lines detected'
[ ! -e ns.svg ] && ok || bad "--no-sort failure created output"

# count unit: cycles by default, --countname wins
expect 0 countname "$bin" in.folded --countname samples -o cn.svg
has countname-svg cn.svg 'all (100 samples, 100%)'

# huge counts: exact integers above 2^53; a total past 2^64-1 is an error
printf 'a 9007199254740993\n' >big.folded
expect 0 big "$bin" big.folded -o big.svg
has big-exact big.svg 'a (9,007,199,254,740,993 cycles, 100.00%)'
printf 'a 18446744073709551615\nb 1\n' >over.folded
expect 1 overflow "$bin" over.folded -o over.svg
has overflow-msg err 'over.folded:2:'
[ ! -e over.svg ] && ok || bad "overflow created output"

# hostile names still give well-formed XML
printf 'ok;\001ctl\037;bad\377\376utf8;<tag>&"quote'"'"' 5\r\nok;]]>;--x-- 2\n' >hostile.folded
expect 0 hostile "$bin" hostile.folded --notes 'a -- b -' --title '<&>' -o hostile.svg
xmllint --noout hostile.svg 2>xml.err && ok || bad "hostile SVG is not well-formed: $(head -c 300 xml.err)"
has hostile-escaped hostile.svg '&lt;tag&gt;&amp;'

# deep stacks do not overflow the C stack
python3 -c "print(';'.join('f%d' % i for i in range(100000)) + ' 7')" >deep.folded
expect 0 deep "$bin" deep.folded --minwidth 0 -o deep.svg
xmllint --noout --huge deep.svg 2>/dev/null && ok || bad "deep SVG not well-formed"

# progress: on a terminal after a second; never when stderr is not a terminal
if command -v script >/dev/null 2>&1; then
    mkfifo slow
    (printf 'a 1\n'; sleep 1.3; printf 'b 1\n') >slow &
    script -qec "'$bin' slow -o prog.svg" /dev/null </dev/null >tty.out 2>&1
    has progress-tty tty.out 'foldsvg: slow: '
    # standard input found unsorted at its second line: its second reading (from the copy)
    # says so at once, from its first byte
    cat >slowpipe.sh <<EOF
(printf 'b 1\\n'; sleep 1.3; printf 'a 1\\n') | '$bin' -o prog.svg
EOF
    script -qec "sh slowpipe.sh" /dev/null </dev/null >tty.out 2>&1
    has progress-again tty.out 'foldsvg: <stdin> (read again): 0 MB'
    (printf 'a 1\n'; sleep 1.3; printf 'b 1\n') >slow &
    "$bin" slow -o prog.svg 2>err
    if grep -q 'MB/s' err; then bad "progress written to a non-terminal"; else ok; fi
fi

expect 0 help "$bin" --help
has help-groups out 'Colors:'
expect 0 version "$bin" -V
has version-text out 'foldsvg '

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
