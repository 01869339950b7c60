#!/bin/sh
# The import formats (pprof, Chrome/V8, trace events, speedscope) with the options that apply
# to them, their errors, and speedscope output:
#  - every input read directly and read back from -o X.speedscope.json gives the same folded
#    profile, and the file is valid by speedscope's schema (tests/tools/check_speedscope.py),
#    for folded, perf, Firefox, pprof, Chrome and speedscope inputs; with --flamechart too;
#  - pprof: Go's field order, gzip twice, sample types, --sample-type, --list-sample-types,
#    --tag-root, thread labels with --thread and --list-threads, inlined lines, addresses;
#  - Chrome traces and speedscope files: threads listed and selected, --flamechart;
#  - --diff, --summary and the HTML report on them;
#  - bad inputs: one line naming the file and the byte offset or the element.
#   tests/import.sh BIN
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data
in=$data/import/inputs
tools=$here/tools
# shellcheck source=tests/lib.sh
. "$here/lib.sh"

same() { # same NAME A B: files A and B are equal
    if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ: $(diff "$2" "$3" | head -5)"; fi
}

# ---- speedscope output reads back to the same profile, and is valid -----------------------
python3 "$tools/gen_pprof.py" labels.pb --labels --inline --addresses --go-order --samples 300 \
    --functions 40 --default-type cpu
cp "$data/compat-perf/inputs/perf-cycles-instructions-01.txt" perf.txt
cp "$data/filters/"*.folded . 2>/dev/null
for f in "$in"/* labels.pb perf.txt "$data/firefox/gecko-v24-sp1-style-probe-gecko_profile-0.4.0.json" \
    "$data/firefox/processed-v58-shared-stringArray.firefox-profiler.json" ./*.folded; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    expect 0 "$b direct" "$bin" -q "$f" -o direct.folded
    expect 0 "$b to speedscope" "$bin" -q "$f" -o out.speedscope.json
    expect 0 "$b schema" python3 "$tools/check_speedscope.py" out.speedscope.json
    expect 0 "$b read back" "$bin" -q out.speedscope.json -o back.folded
    same "$b round trip" direct.folded back.folded
done
# the unit goes along
"$bin" -q "$in/pprof_simple.prof" -o p.speedscope.json
has "pprof unit" p.speedscope.json '"unit":"nanoseconds"'
"$bin" -q "$in/Chrome_65_simple.cpuprofile" -o c.speedscope.json
has "chrome unit" c.speedscope.json '"unit":"microseconds"'
expect 0 "speedscope summary" "$bin" -q c.speedscope.json --top 1
has "speedscope unit read" out "microseconds"
# --format speedscope, whatever the name
expect 0 "format speedscope" "$bin" -q "$in/pprof_simple.prof" --format speedscope -o p.json
expect 0 "format speedscope schema" python3 "$tools/check_speedscope.py" p.json
# --flamechart: the runs in their order, and back
expect 0 "flamechart out" "$bin" -q "$in/node_10.11.0_example.cpuprofile" --flamechart -o f.speedscope.json
expect 0 "flamechart schema" python3 "$tools/check_speedscope.py" f.speedscope.json
"$bin" -q "$in/node_10.11.0_example.cpuprofile" --flamechart -o f1.svg --id-prefix f
"$bin" -q f.speedscope.json --flamechart -o f2.svg --id-prefix f
python3 "$tools/svgframes.py" f1.svg >f1.frames 2>/dev/null
python3 "$tools/svgframes.py" f2.svg >f2.frames 2>/dev/null
same "flamechart round trip" f1.frames f2.frames

# ---- pprof ----------------------------------------------------------------------------------
expect 0 "sample types" "$bin" --list-sample-types labels.pb
has "sample types listed" out "1	cpu	nanoseconds	"
has "sample types listed" out "2	alloc_space	bytes	"
expect 0 "default type" "$bin" labels.pb -o d.folded
has "default type is cpu" err "nanoseconds"
expect 0 "sample type by name" "$bin" labels.pb --sample-type alloc_space -o a.folded
has "alloc_space in bytes" err "bytes"
expect 0 "sample type by index" "$bin" labels.pb --sample-type 0 -o s.folded
has "samples" err "samples across"
expect 2 "bad sample type" "$bin" labels.pb --sample-type nope -o x.folded
has "bad sample type names them" err "its sample types are 0 'samples' (count), 1 'cpu'"
expect 0 "threads" "$bin" --list-threads labels.pb
has "threads listed" out "1	worker-1		100	"
expect 0 "thread by name" "$bin" labels.pb --thread worker-1 -o w.folded
expect 0 "thread by regex" "$bin" labels.pb --thread '/^work/' -o w2.folded
expect 2 "no such thread" "$bin" labels.pb --thread nope -o x.folded
has "no such thread" err "the threads are 0 'main', 1 'worker-1', 2 'worker-2'"
expect 0 "tag root" "$bin" labels.pb --tag-root request --tag-root thread_name -o t.folded
if grep -qv '^request=/api/[0-3];thread_name=\(main\|worker-[12]\);' t.folded; then
    bad "tag root: a stack not rooted at request=...;thread_name=..."
else ok; fi
awk '{s += $NF} END {print s}' d.folded >d.total
awk '{s += $NF} END {print s}' t.folded >t.total
same "tag root keeps the total" d.total t.total
has "inlined callee innermost last" d.folded "pkg0.func35;pkg6.func6"
has "an address-only location" d.folded ";0x400110"
expect 2 "sample types of folded" "$bin" --list-sample-types perf.txt
has "sample types need pprof" err "--list-sample-types needs a pprof profile"
expect 2 "sample type on folded" "$bin" direct.folded --sample-type cpu -o x.folded
has "sample type applies to pprof" err "--sample-type does nothing: it applies to a pprof profile"
# gzip, and gzip inside gzip (as some agents send it)
gzip -c labels.pb >l.pb.gz
gzip -c l.pb.gz >l.pb.gz.gz
expect 0 "gzip" "$bin" -q l.pb.gz -o g.folded
same "gzip reads the same" d.folded g.folded
expect 0 "gzip twice" "$bin" -q l.pb.gz.gz -o g2.folded
same "gzip twice reads the same" d.folded g2.folded
# --diff between two pprof files, and a pprof and folded text
python3 "$tools/gen_pprof.py" other.pb --labels --samples 300 --functions 40 --seed 2
expect 0 "diff pprof" "$bin" -q --diff labels.pb other.pb -o diff.folded
expect 0 "diff pprof and folded" "$bin" -q --diff labels.pb d.folded -o diff2.folded
if awk '$(NF-1) != $NF {exit 1}' diff2.folded; then ok; else bad "diff of a profile and its folded self changes"; fi
expect 2 "diff to speedscope" "$bin" -q --diff labels.pb other.pb -o d.speedscope.json
has "diff to speedscope" err "a diff is drawn as SVG, HTML or folded text, not as a speedscope file"
expect 0 "summary" "$bin" -q labels.pb --summary
has "summary names the input" out "labels.pb"
expect 0 "report" "$bin" -q labels.pb -o r.html
has "report says pprof" r.html "pprof"
expect 0 "filters" "$bin" -q labels.pb --include func1 --exclude func2 -o i.folded

# ---- Chrome traces, trace events, speedscope files ---------------------------------------------
expect 0 "trace threads" "$bin" --list-threads "$in/Chrome_70_worker.json"
has "main thread" out "0	CrRendererMain	Renderer	"
has "worker" out "1	DedicatedWorker thread	Renderer	"
expect 0 "trace thread" "$bin" -q "$in/Chrome_70_worker.json" --thread DedicatedWorker\ thread -o w.folded
has "worker's stacks" w.folded "onmessage"
hasnt "only the worker's" w.folded "CrRendererMain"
expect 2 "flamechart needs one thread" "$bin" "$in/Chrome_70_worker.json" --flamechart -o x.svg
has "flamechart names the threads" err "choose one with --thread"
expect 0 "flamechart one thread" "$bin" -q "$in/Chrome_70_worker.json" --flamechart --thread 0 -o x.svg
expect 0 "event threads" "$bin" --list-threads "$in/trace-event_multiprocess.json"
has "thread names" out "p0t1	p0	"
has "unnamed thread" out "pid 3, tid 1"
expect 0 "speedscope threads" "$bin" --list-threads "$in/speedscope_0.1.2_simple-sampled.speedscope.json"
expect 0 "chrome summary" "$bin" -q "$in/Chrome_65_simple-timeline.json" --summary
expect 0 "chrome report" "$bin" -q "$in/Chrome_65_simple.cpuprofile" -o c.html
expect 0 "diff cpuprofile and folded" "$bin" -q --diff "$in/Chrome_65_simple.cpuprofile" direct.folded -o x.folded
# standard input, which cannot be read twice: the .cpuprofile's arrays are kept on disk
"$bin" -q "$in/node_10.11.0_example.cpuprofile" -o n1.folded
"$bin" -q - -o n2.folded <"$in/node_10.11.0_example.cpuprofile"
same "cpuprofile from standard input" n1.folded n2.folded
"$bin" -q "$in/speedscope_0.1.2_simple-sampled.speedscope.json" -o s1.folded
"$bin" -q - -o s2.folded <"$in/speedscope_0.1.2_simple-sampled.speedscope.json"
same "speedscope from standard input" s1.folded s2.folded

# ---- bad inputs: one line, the file, where and what ---------------------------------------------
python3 "$tools/gen_pprof.py" plain.pb --samples 50 --functions 20
head -c 300 plain.pb >cut.pb
expect 1 "truncated pprof" "$bin" cut.pb -o x.folded
has "truncated pprof" err "cut.pb: byte "
has "truncated pprof says so" err "a truncated pprof profile"
python3 -c "
import sys
d = open('plain.pb', 'rb').read()
open('corrupt.pb', 'wb').write(d + b'\\x0f\\x01')"
expect 1 "corrupt pprof" "$bin" corrupt.pb -o x.folded
has "corrupt pprof" err "a corrupt pprof profile"
[ "$(wc -l <err)" -eq 1 ] && ok || bad "corrupt pprof: not one line"
printf '{"nodes":[{"id":1,"callFrame":{"functionName":"a"}}],"samples":[1,1],"timeDeltas":[1,' >cut.cpuprofile
expect 1 "cut cpuprofile" "$bin" cut.cpuprofile -o x.folded
has "cut cpuprofile" err "cut.cpuprofile: byte "
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"},{"name":"b"}]},"profiles":[{"type":"evented","name":"x","unit":"none","startValue":0,"endValue":2,"events":[{"type":"O","at":0,"frame":0},{"type":"C","at":1,"frame":1}]}]}' >bad.speedscope.json
expect 1 "unbalanced speedscope" "$bin" bad.speedscope.json -o x.folded
has "unbalanced speedscope" err "profiles[0].events[1]: closes frame 1, which is not the frame open on top"
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[]},"profiles":[{"type":"sampled","name":"x","unit":"none","startValue":0,"endValue":2,"samples":[[5]],"weights":[1]}]}' >range.speedscope.json
expect 1 "frame out of range" "$bin" range.speedscope.json -o x.folded
has "frame out of range" err "profiles[0]: frame 5, but shared.frames has 0 frames"
printf '[{"pid":1,"tid":1,"ph":"i","name":"x","ts":1}]' >none.json
expect 1 "nothing to draw" "$bin" none.json -o x.folded
has "nothing to draw" err "no CPU profile and no B, E or X trace events"

# ---- B/E/X trace events: taken as they come, in memory by stacks ---------------------------
# Read from a file they are taken as they come (read again, kept, when out of time order);
# from standard input they are kept and sorted by time, speedscope's way: both give the same
# profile, for traces in time order with many ties, and for traces out of order, and so do
# the events kept in sorted runs on disk (a sort buffer of 1K: 25 items a run).
python3 - <<'PY'
import json, random
for seed in range(60):
    rnd = random.Random(seed)
    ev, t = [], 0
    for i in range(rnd.randint(1, 80)):
        t += rnd.choice([0, 0, 1, 2, 5])
        ph, name, tid = rnd.choice("BBEEX"), rnd.choice("abcd"), rnd.choice([1, 1, 2])
        e = {"pid": 1, "tid": tid, "ph": ph, "name": name, "ts": t}
        if ph == "X":
            e["dur"] = rnd.choice([0, 1, 2, 3, 7] + ([-1] if seed % 5 == 0 else []))
        ev.append(e)
    if seed % 3 == 0:
        rnd.shuffle(ev)
    json.dump(ev, open("bex-%d.json" % seed, "w"))
PY
for f in bex-*.json; do
    "$bin" "$f" --top 1000000 --top-format json >stream.out 2>&1
    "$bin" - --top 1000000 --top-format json <"$f" 2>&1 | sed "s/<stdin>/$f/" >kept.out
    same "$f taken as they come" kept.out stream.out
    "$bin" - --sort-buffer 1K --top 1000000 --top-format json <"$f" 2>&1 | sed "s/<stdin>/$f/" >runs.out
    same "$f kept in runs" runs.out stream.out
    "$bin" "$f" --sort-buffer 1K --top 1000000 --top-format json >runs.out 2>&1
    same "$f read again, kept in runs" runs.out stream.out
done
# Memory follows the stacks, not the events: ten times the events (B/E pairs in time order, X
# events in time order; and twenty times the X events written as they end, children first,
# read from a file and from a pipe, sorted within a sort buffer of 1M) take nearly no more
# memory.
python3 - <<'PY'
for n in (20000, 200000):
    with open("be-%d.json" % n, "w") as f:
        f.write("[")
        for i in range(n):
            t = i * 10
            f.write('{"pid":1,"tid":1,"ph":"B","name":"main","ts":%d},'
                    '{"pid":1,"tid":1,"ph":"B","name":"work","ts":%d},'
                    '{"pid":1,"tid":1,"ph":"E","name":"work","ts":%d},'
                    '{"pid":1,"tid":1,"ph":"E","name":"main","ts":%d},' % (t, t + 1, t + 5, t + 8))
        f.write('{"pid":1,"tid":1,"ph":"i","name":"end","ts":0}]')
    with open("x-%d.json" % n, "w") as f:
        f.write("[")
        f.write(",".join('{"pid":1,"tid":1,"ph":"X","name":"%s","ts":%d,"dur":%d}'
                         % (("main", i * 10, 8) if i % 2 == 0 else ("work", i * 10 - 9, 4))
                         for i in range(n)))
        f.write("]")
for n in (20000, 400000):
    with open("cf-%d.json" % n, "w") as f:
        f.write("[")
        f.write(",".join('{"pid":1,"tid":1,"ph":"X","name":"%s","ts":%d,"dur":%d}' % e
                         for i in range(n // 3)
                         for e in (("leaf%d" % (i % 7), i * 100 + 10, 20),
                                   ("work", i * 100 + 5, 40), ("main", i * 100, 90))))
        f.write("]")
PY
# A trace with its CPU profile whole in one CpuProfile event (samples before the event's name):
# memory by the nodes, not the samples, and the profile of the same .cpuprofile.
python3 - <<'PY'
import json, random
rnd = random.Random(1)
nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "url": ""}, "children": [2, 3]},
         {"id": 2, "callFrame": {"functionName": "main", "url": "a.js"}, "children": [4]},
         {"id": 3, "callFrame": {"functionName": "other", "url": "a.js"}},
         {"id": 4, "callFrame": {"functionName": "leaf", "url": "a.js"}}]
for n in (100000, 2000000):
    prof = {"nodes": nodes, "startTime": 0, "samples": [rnd.choice([2, 3, 4]) for _ in range(n)],
            "timeDeltas": [rnd.randint(1, 100) for _ in range(n)]}
    prof["endTime"] = sum(prof["timeDeltas"])
    json.dump({"traceEvents": [{"args": {"data": {"cpuProfile": prof}}, "name": "CpuProfile",
                                "ph": "I", "pid": 1, "tid": 1, "ts": 0}]},
              open("cpuev-%d.json" % n, "w"))
    json.dump(prof, open("cpuev-%d.cpuprofile" % n, "w"))
PY
"$bin" -q cpuev-2000000.json -o cpuev.folded && "$bin" -q cpuev-2000000.cpuprofile -o cpuprof.folded
same "a CpuProfile event's samples past memory" cpuev.folded cpuprof.folded
"$bin" -q - -o cpuev.folded <cpuev-2000000.json
same "a CpuProfile event's samples past memory, from standard input" cpuev.folded cpuprof.folded
peak() { # peak CMD...: its peak resident size in KiB (-1 when it fails)
    python3 "$tools/peak_rss.py" "$@"
}
for shape in be x cf cf-pipe cpuev; do
    case $shape in
        cpuev) small=$(peak "$bin" -q cpuev-100000.json -o x.svg)
            big=$(peak "$bin" -q cpuev-2000000.json -o x.svg) ;;
        cf) small=$(peak "$bin" -q --sort-buffer 1M cf-20000.json -o x.svg)
            big=$(peak "$bin" -q --sort-buffer 1M cf-400000.json -o x.svg) ;;
        cf-pipe) small=$(peak sh -c "cat cf-20000.json | \"$bin\" -q --sort-buffer 1M - -o x.svg")
            big=$(peak sh -c "cat cf-400000.json | \"$bin\" -q --sort-buffer 1M - -o x.svg") ;;
        *) small=$(peak "$bin" -q "$shape-20000.json" -o x.svg)
            big=$(peak "$bin" -q "$shape-200000.json" -o x.svg) ;;
    esac
    if [ "$small" -gt 0 ] && [ "$big" -gt 0 ] && [ "$big" -lt $((small * 3 / 2)) ]; then ok; else
        bad "$shape: $small KiB for 20,000 events (100,000 samples), $big KiB for 10 or 20 times as many (the bound: 1.5 times)"
    fi
done
# and the stacks are those of the calls (each 90: main 50, work 20, a leaf 20; 133,333 calls)
"$bin" -q cf-400000.json -o cf.folded && "$bin" -q - -o cf2.folded <cf-400000.json
has "children first: main's own time" cf.folded "main 6666650"
has "children first: work's own time" cf.folded "main;work 2666660"
has "children first: a leaf" cf.folded "main;work;leaf6 380940"
same "children first, from a pipe" cf2.folded cf.folded
# --verbose says so (the plan changes as the input is read)
"$bin" -v cf-20000.json -o x.svg 2>err
has "children first: said" err "cf-20000.json: B/E/X events out of time order (X events written as they end), read again: sorted by time within --sort-buffer (16384 KiB)"
cat cf-20000.json | "$bin" -v --sort-buffer 64K - -o x.svg 2>err
has "from a pipe: said" err "<stdin>: B/E/X events from a stream that cannot be read twice: sorted by time within --sort-buffer (64 KiB), in sorted runs in \$TMPDIR beyond it"
"$bin" -v x-20000.json -o x.svg 2>err
hasnt "in time order: nothing said" err "B/E/X events"
# where no temporary file can be made, in memory (as the folded sorter does)
TMPDIR=/nonexistent/dir "$bin" -q --sort-buffer 1M cf-400000.json -o cf2.folded
same "children first, no \$TMPDIR" cf2.folded cf.folded
TMPDIR=/nonexistent/dir "$bin" -q cpuev-2000000.json -o cpuev.folded
same "a CpuProfile event's samples, no \$TMPDIR" cpuev.folded cpuprof.folded

finish import
