#!/bin/sh
# Formats nobody reads are refused before anything is drawn: exit 1, one line naming what the
# input is (and what to do), no output file, whatever the output. The samples are small,
# written by hand in each format's documented shape. Then what stays read: a few invalid
# lines among valid folded ones are a warning, and formats that look alike are told apart.
#   tests/refusals.sh BIN
set -u
bin=$(realpath "$1")
pass=0
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}

# refused NAME PATTERN: every output of NAME fails with PATTERN in one line, nothing written.
refused() {
    for out in out.svg out.folded out.html; do
        rm -f "$out"
        "$bin" "$1" -o "$out" 2>err
        rc=$?
        if [ "$rc" -eq 1 ] && [ ! -e "$out" ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "$2" err; then
            ok
        else
            bad "$1 -o $out: exit $rc: $(cat err)"
        fi
    done
}

# a gperftools contention profile (and legacy Go's): text with numbers that once drew
printf -- '--- contention:\ncycles/second = 3201000000\nsampling period = 1\n' >contention.txt
printf '     3201   1 @ 0x4a5c2e 0x4a5b7d 0x42f1d1\n' >>contention.txt
refused contention.txt 'gperftools or legacy Go text profile.*pprof -proto'
printf 'heap profile: 1: 2048 [1: 2048] @ heap/1048576\n1: 2048 [1: 2048] @ 0x1 0x2\n' >heap.txt
refused heap.txt 'gperftools or legacy Go text profile'
# callgrind (valgrind --tool=callgrind)
printf '# callgrind format\nversion: 1\ncreator: callgrind-3.19\npid: 7\ncmd: ./a\n' >callgrind.out
printf 'events: Ir\nfl=(1) a.c\nfn=(1) main\n16 3\ncfn=(2) f\ncalls=1 0\n16 40\n' >>callgrind.out
refused callgrind.out 'callgrind profile'
# a V8 log (node --prof)
printf 'v8-version,10,2,154,26,0,0\nshared-library,"/usr/bin/node",0x55d0,0x57e0,0\n' >v8.log
printf 'code-creation,Builtin,2,3,0x1,4,Abort\ntick,0x7f,1203,0,0x0,6\n' >>v8.log
refused v8.log 'V8 log'
# V8's heap profiles (JSON): allocations and objects, not time
printf '{"head":{"callFrame":{"functionName":"(root)","url":"","lineNumber":-1},"selfSize":0,"children":[]},"samples":[]}\n' >a.heapprofile
refused a.heapprofile 'sampling heap profile'
printf '{"snapshot":{"meta":{"node_fields":["type","name"]},"node_count":0},"nodes":[],"strings":[]}\n' >a.heapsnapshot
refused a.heapsnapshot 'heap snapshot'
# a JFR recording: its magic, then binary chunks
printf 'FLR\0\0\2\0\0\0\0\0\0\0\0\1\0JNI global refs: 28, weak refs: 3\n' >rec.jfr
refused rec.jfr 'Java Flight Recorder.*jfrconv'
# an Instruments trace's table of contents (xctrace export --toc)
printf '<?xml version="1.0"?>\n<trace-toc>\n<run number="1"><data><table schema="time-profile"/></data></run>\n</trace-toc>\n' >toc.xml
refused toc.xml "table of contents.*schema=\"time-profile\""
# foldsvg's own outputs given as an input (a forgotten -o)
printf 'main;work 3\nmain 1\n' >in.folded
"$bin" -q in.folded -o old.svg && "$bin" -q in.folded -o old.html || bad "cannot draw the sample"
refused old.svg 'SVG flamegraph.*did you mean -o FILE.svg'
refused old.html "foldsvg's own HTML report.*did you mean -o FILE.html"
rm -f out.folded
"$bin" in.folded old.svg -o out.folded 2>err
[ $? -eq 1 ] && [ ! -e out.folded ] && grep -q 'old.svg: this is an SVG flamegraph' err && ok ||
    bad "in.folded old.svg: $(cat err)"
printf '<!DOCTYPE html>\n<html><head><title>x</title></head><body>1 2</body></html>\n' >page.html
refused page.html 'an HTML page'
# text that is no profile: its first line is named
printf 'hello world\n1 2 3\n' >notes.txt
refused notes.txt 'notes.txt:1: not a profile foldsvg reads: this line ("hello world")'
# a first stack line that is not one, though later lines are
printf 'Process:  rg [64751]\nmain;a 1\n' >first.txt
refused first.txt 'first.txt:1: not a profile'
# mostly invalid: refused whatever the first line
printf 'a;b 1\nx\ny\nz\n' >most.txt
refused most.txt 'most of its first lines are not stacks'

# What stays read: a few invalid lines among valid ones, a warning (exit 0).
printf 'a;b 1\nbad line\nc 2\nd 3\n' >few.folded
"$bin" few.folded -o few.svg 2>err && [ -s few.svg ] && grep -q 'ignored 1 line' err && ok ||
    bad "a few invalid lines: $(cat err)"
# A folded line whose stack holds words and '#' comments still reads.
printf '# made by hand\n\nmain;parse file 4\n' >words.folded
"$bin" words.folded -o words.folded.out && grep -qx 'main;parse file 4' words.folded.out && ok ||
    bad "a folded file starting with a comment"
# A macOS sample report is read, not refused (it once drew "Report Version:").
printf 'Analysis of sampling a (pid 1) every 1 millisecond\nReport Version:  7\n\nCall graph:\n' >s.txt
printf '    3 Thread_1\n    + 3 main  (in a) + 1  [0x1]\n    +   2 work  (in a) + 2  [0x2]\n' >>s.txt
printf '\nTotal number in stack (recursive counted multiple, when >=5):\n' >>s.txt
"$bin" s.txt -o s.folded 2>err && [ "$(cat s.folded)" = 'Thread_1;a`main;a`work 2' ] && ok ||
    bad "a sample report: $(cat err) $(cat s.folded)"

echo "refusals: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
