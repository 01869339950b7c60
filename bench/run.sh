#!/bin/sh
# foldsvg benchmarks: fixed inputs made by the generators in tests/tools (fixed seeds), each
# workload run REPS times, median wall time and peak RSS, next to baselines run in the same
# invocation (wc -l or cat on the same file; a bare yajl parse; a bare xmlTextWriter loop).
# Not part of the test suite. Needs /usr/bin/time (Debian package "time"). The main rows
# run foldsvg and its baseline alternating; cpu_s is user + system (foldsvg's second core
# shows there, not in the wall time), cpu_x and rss_x the ratios of CPU and peak RSS to the
# baseline's.
# BASELINE=BIN (another foldsvg, e.g. a Release build of main): every row's foldsvg command
# also runs with BIN in its place, alternating run by run with the row's other commands, and
# the row gains BIN's median time (bl_s) and peak RSS (bl_MiB) and the ratios to them (bl_t_x,
# bl_rss_x); the flag column names each ratio above 1.3, the project's bound. BIN also draws
# the Chromium row's baseline SVG unless ZOOM_BASELINE says otherwise.
#   [BASELINE=BIN] [ZOOM_BASELINE=BIN|FILE.svg] bench/run.sh [BUILD_DIR=build-bench] [REPS=5]
# Data goes to bench/data/ (about 2.7 GB; reused between runs, made again when a generator
# changes).
set -eu
here=$(cd "$(dirname "$0")" && pwd); root=$(dirname "$here")
tools="$root/tests/tools"
build=${1:-$root/build-bench}; reps=${2:-5}
data="$here/data"; mkdir -p "$data"
command -v /usr/bin/time >/dev/null || { echo "bench: install the 'time' package" >&2; exit 1; }
BASELINE=${BASELINE:-}
if [ -n "$BASELINE" ]; then
    case $BASELINE in /*) ;; *) BASELINE=$(pwd)/$BASELINE ;; esac
    [ -x "$BASELINE" ] || { echo "bench: BASELINE=$BASELINE is no program" >&2; exit 1; }
fi

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DFOLDSVG_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
bin="$build/foldsvg"
# pkg-config's flags are words to split
# shellcheck disable=SC2046
cc -O2 -o "$build/yajl_baseline" "$here/yajl_baseline.c" $(pkg-config --cflags --libs yajl)
# shellcheck disable=SC2046
cc -O2 -o "$build/xmlwriter_baseline" "$here/xmlwriter_baseline.c" $(pkg-config --cflags --libs libxml-2.0)
mkdir -p "$build/bench-pb"
protoc-c --c_out="$build/bench-pb" --proto_path="$root/src/formats/pprof" profile.proto
# shellcheck disable=SC2046
cc -O2 -w -I"$build/bench-pb" -o "$build/pprof_baseline" "$here/pprof_baseline.c" \
    "$build/bench-pb/profile.pb-c.c" $(pkg-config --cflags --libs libprotobuf-c)

# stale FILE SOURCE: FILE is missing, empty or older than SOURCE (test's -nt is not POSIX)
stale() { [ ! -s "$1" ] || [ -n "$(find "$2" -prune -newer "$1")" ]; }
# inputs (fixed seeds; README "Benchmarks" says what they are). A file is made again when
# the generator is newer than it.
gen() { # gen OUT GENERATOR ARGS...
    out=$1; shift
    if stale "$out" "$1"; then
        python3 "$@" -o "$out.tmp" && mv "$out.tmp" "$out"
    fi
}
gen "$data/sorted.folded" "$tools/gen_folded.py" -n 200000 --seed 42
gen "$data/shuffled.folded" "$tools/gen_folded.py" -n 200000 --seed 42 --shuffle 7
gen "$data/variant.folded" "$tools/gen_folded.py" -n 200000 --seed 42 --variant 7
gen "$data/repeated.folded" "$tools/gen_folded.py" -n 5000 --seed 42 --repeat 2G
gen "$data/repeated-20k.folded" "$tools/gen_folded.py" -n 20000 --seed 42 --repeat 200M
gen "$data/sp1.json" "$tools/gen_sp1_profile.py" -n 10000000 --seed 7
if stale "$data/sp1.json.gz" "$data/sp1.json"; then
    gzip -6 -c "$data/sp1.json" >"$data/sp1.json.tmp" && mv "$data/sp1.json.tmp" "$data/sp1.json.gz"
fi
gen "$data/profile.pb" "$tools/gen_pprof.py" --size-mb 50 --functions 5000 --depth 40 --seed 5
gen "$data/devtools.json" "$tools/gen_devtools_trace.py" --size-mb 200 --seed 11
gen "$data/events-time.json" "$tools/gen_trace_events.py" --size-mb 100 --order time
gen "$data/events-ends.json" "$tools/gen_trace_events.py" --size-mb 100 --order ends
vertx="$root/tests/data/compat/inputs/flamegraph/test/results/perf-vertx-stacks-01-collapsed-all.txt"

# measure NAME CMD...: median wall seconds, max RSS (KiB) and median CPU seconds (user +
# system) over REPS runs (the wall time from a nanosecond clock: /usr/bin/time's %e has 10 ms
# steps). pair BASE_NAME BASE_CMD -- NAME CMD...: the two alternating, run by run (a drifting
# machine moves both), printed as two such lines. With BASELINE, a CMD that runs foldsvg
# alternates with itself run by BASELINE too, whose three figures follow on its line.
run_once() { # OUT CMD...
    out=$1; shift
    t0=$(date +%s%N)
    /usr/bin/time -f "%M %U %S" -o "$data/rss" "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 )) $(cat "$data/rss")" |
        awk '{printf "%.6f %d %.2f\n", $1 / 1e6, $2, $3 + $4}' >>"$out"
}
stats() { # FILE: median wall seconds, max RSS, median CPU seconds
    cpu=$(sort -n -k3 "$1" | awk '{c[NR]=$3} END {printf "%.2f", c[int((NR+1)/2)]}')
    sort -n "$1" | awk -v c="$cpu" '{t[NR]=$1; if ($2>m) m=$2}
        END {printf "%.6f %d %s", t[int((NR+1)/2)], m, c}'
}
summary() { # NAME FILE [BASELINE_FILE]
    n=$(printf '%s' "$1" | tr ' ' _)
    if [ -s "${3:-}" ]; then
        echo "$n $(stats "$2") $(stats "$3")"
    else
        echo "$n $(stats "$2")"
    fi
}
# on_baseline FN ARGS...: FN with every mention of this build's foldsvg in the ARGS made
# BASELINE's (the program itself, or inside a command given to sh -c)
swap() {
    w=$1; o=
    while :; do
        case $w in
        *"$bin"*) o=$o${w%%"$bin"*}$BASELINE; w=${w#*"$bin"} ;;
        *) break ;;
        esac
    done
    printf '%s' "$o$w"
}
on_baseline() {
    fn=$1; shift
    for a do
        shift
        set -- "$@" "$(swap "$a")"
    done
    "$fn" "$@"
}
paired() { # CMD...: BASELINE is set and CMD runs foldsvg
    [ -n "$BASELINE" ] || return 1
    for a do
        case $a in *"$bin"*) return 0 ;; esac
    done
    return 1
}
# Each command runs once untimed first: its input back in the page cache (this machine's
# kernel pages out what no one touched for a minute, so a row whose file sat idle while
# others ran read it from the disk in its first timed run).
warm() {
    "$@" >/dev/null 2>&1 || :
}
runs() { # warm, and whether it read the input: exit 0 and no line skipped as invalid (an
    # older build reads a format it does not know as folded text, every line invalid)
    for a do
        shift
        [ "$a" = -q ] || set -- "$@" "$a"
    done
    "$@" >/dev/null 2>"$data/runs.err" && ! grep -q 'invalid format' "$data/runs.err"
}
measure() {
    name=$1; shift
    : >"$data/times"
    : >"$data/otimes"
    bl=; if paired "$@"; then bl=1; fi
    # a BASELINE that cannot run the row (a format it does not read) leaves the row unpaired
    if [ -n "$bl" ] && ! on_baseline runs "$@"; then bl=; fi
    warm "$@"
    i=0
    while [ $i -lt "$reps" ]; do
        # BASELINE first: the outputs left are this build's
        if [ -n "$bl" ]; then on_baseline run_once "$data/otimes" "$@"; fi
        run_once "$data/times" "$@"
        i=$((i + 1))
    done
    summary "$name" "$data/times" "$data/otimes"
}
pair() { # BASE_NAME BASE_CMD -- NAME CMD...: sets $base and $run
    bname=$1; bcmd=$2; shift 3
    name=$1; shift
    : >"$data/btimes"
    : >"$data/times"
    : >"$data/otimes"
    bl=; if paired "$@"; then bl=1; fi
    # shellcheck disable=SC2086
    warm $bcmd
    if [ -n "$bl" ] && ! on_baseline runs "$@"; then bl=; fi
    warm "$@"
    i=0
    while [ $i -lt "$reps" ]; do
        # shellcheck disable=SC2086
        run_once "$data/btimes" $bcmd
        if [ -n "$bl" ]; then on_baseline run_once "$data/otimes" "$@"; fi
        run_once "$data/times" "$@"
        i=$((i + 1))
    done
    base=$(summary "$bname" "$data/btimes")
    run=$(summary "$name" "$data/times" "$data/otimes")
}

echo "# $(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
if [ -n "$BASELINE" ]; then
    echo "# BASELINE $BASELINE ($("$BASELINE" --version 2>&1 | head -n 1)), alternating with $bin"
    printf '%-34s %9s %9s %10s %9s %8s %7s %7s %7s %9s %9s %7s %8s %s\n' workload "median_s" "rss_MiB" \
        "MB/s" "base_s" ratio cpu_s cpu_x rss_x bl_s bl_MiB bl_t_x bl_rss_x flag
else
    printf '%-34s %9s %9s %10s %9s %8s %7s %7s %7s %s\n' workload "median_s" "rss_MiB" "MB/s" \
        "base_s" ratio cpu_s cpu_x rss_x flag
fi
# row SIZE_BYTES BASE RUN [LIMIT]: BASE and RUN as summary prints them. With LIMIT, cpu_x or
# rss_x above it is flagged; with BASELINE, bl_t_x or bl_rss_x above 1.3.
row() {
    awk -v sz="$1" -v b="$2" -v r="$3" -v lim="${4:-}" -v bl="${BASELINE:+1}" '
    function x(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
    function over(v, l, what) { if (v != "-" && v + 0 > l + 0) flag = flag (flag == "" ? "" : ",") what ">" l }
    BEGIN {
        split(b, B, " "); k = split(r, R, " ")
        t = R[2]; rss = R[3]; c = R[4]; flag = ""
        cx = x(c, B[4]); rx = x(rss, B[3])
        if (lim != "") { over(cx, lim, "cpu_x"); over(rx, lim, "rss_x") }
        line = sprintf("%-34s %9.3f %9.1f %10.0f %9.3f %8s %7.2f %7s %7s", R[1], t, rss / 1024,
            (t > 0 ? sz / 1e6 / t : 0), B[2], x(t, B[2]), c, cx, rx)
        if (bl) {
            if (k >= 7) {
                ox = x(t, R[5]); orx = x(rss, R[6])
                over(ox, 1.3, "bl_t_x"); over(orx, 1.3, "bl_rss_x")
                line = line sprintf(" %9.3f %9.1f %7s %8s", R[5], R[6] / 1024, ox, orx)
            } else {
                line = line sprintf(" %9s %9s %7s %8s", "-", "-", "-", "-")
            }
        }
        print line (flag == "" ? "" : " " flag)
    }'
}
size() { stat -L -c %s "$1"; }

for w in sorted shuffled repeated; do
    f="$data/$w.folded"
    pair "wc-l" "wc -l $f" -- "$w.folded->svg --hash" "$bin" -q --hash "$f" -o "$data/out.svg"
    row "$(size "$f")" "$base" "$run"
    if [ "$w" = shuffled ]; then shuffled_run=$run; fi
done
# standard input that is a regular file: read again in place, not from a copy (the same rows
# as the files above, sorted and shuffled)
for w in sorted shuffled; do
    f="$data/$w.folded"
    pair "wc-l" "wc -l $f" -- "$w.folded on stdin (<)" sh -c "exec '$bin' -q --hash -o '$data/out.svg' < '$f'"
    row "$(size "$f")" "$base" "$run"
done
# through a pipe from cat (foldsvg widens the pipe to 1 MiB; wc -l keeps the default 64 KiB),
# against cat into wc -l: the pipe's own cost is in both
# shellcheck disable=SC2016 # the script's own $1, written as it is
printf '%s\n' 'cat "$1" | wc -l' >"$data/catwc.sh"
for w in sorted shuffled; do
    f="$data/$w.folded"
    pair "cat|wc-l" "sh $data/catwc.sh $f" -- "$w.folded from cat |" sh -c "cat '$f' | '$bin' -q --hash -o '$data/out.svg'"
    row "$(size "$f")" "$base" "$run"
done
# 20,000 stacks repeated in random order: more than one chunk of the default budget holds
# (14 MB), held whole by the first chunk (twice that) instead of spilled chunk after chunk
f="$data/repeated-20k.folded"
pair "wc-l" "wc -l $f" -- "20k stacks repeated->svg" "$bin" -q --hash "$f" -o "$data/out.svg"
row "$(size "$f")" "$base" "$run"
# the sorter with more runs than its fan-in of 64 (about 75 of 2 MiB chunks: one merge round
# before the final merge), against the default budget (about 19 runs of 8 MiB chunks)
run=$(measure "shuffled --sort-buffer 4M" "$bin" -q --hash --sort-buffer 4M "$data/shuffled.folded" -o "$data/out.svg")
row "$(size "$data/shuffled.folded")" "$shuffled_run" "$run"
pair "yajl" "$build/yajl_baseline $data/sp1.json" -- "sp1-10M.json->svg" "$bin" -q "$data/sp1.json" -o "$data/out.svg"
row "$(size "$data/sp1.json")" "$base" "$run"
# a 50 MB pprof (plain) against a bare protobuf-c unpack of it; a 200 MB DevTools trace (its
# CPU profile in ProfileChunk events among the panel's other events) against a bare yajl parse
pair "protobuf-c unpack" "$build/pprof_baseline $data/profile.pb" -- "pprof-50MB->svg" "$bin" -q "$data/profile.pb" -o "$data/out.svg"
row "$(size "$data/profile.pb")" "$base" "$run"
pair "yajl" "$build/yajl_baseline $data/devtools.json" -- "devtools-200MB.json->svg" "$bin" -q "$data/devtools.json" -o "$data/out.svg"
row "$(size "$data/devtools.json")" "$base" "$run"
# 1.6 million X events written when they end (children first: sorted within the sort buffer,
# in runs on disk beyond it), against the same events written when they begin (taken as
# they come)
pair "X events, time order" "$bin -q $data/events-time.json -o $data/out.svg" -- "X events, children first" "$bin" -q "$data/events-ends.json" -o "$data/out.svg"
row "$(size "$data/events-ends.json")" "$base" "$run"
# the flame chart of the same trace (its samples in order: memory per stack change), against
# its flamegraph
base=$run
run=$(measure "sp1-10M --flamechart" "$bin" -q --flamechart "$data/sp1.json" -o "$data/out.svg")
row "$(size "$data/sp1.json")" "$base" "$run"
# the same gzipped (inflated on the second core) against a bare parse of the PLAIN file
pair "yajl (plain)" "$build/yajl_baseline $data/sp1.json" -- "sp1-10M.json.gz->svg" "$bin" -q "$data/sp1.json.gz" -o "$data/out.svg"
row "$(size "$data/sp1.json.gz")" "$base" "$run"
# --flamechart keeps the line order: the profile route, memory with the lines
pair "wc-l" "wc -l $data/sorted.folded" -- "sorted --flamechart" "$bin" -q --hash --flamechart "$data/sorted.folded" -o "$data/out.svg"
row "$(size "$data/sorted.folded")" "$base" "$run"
# the stack stage's passes over every frame, against the same run without them: Rust hashes
# stripped (this file has none to strip), a regex that matches no frame with the recursion
# collapsed; the bound is 1.3x the CPU and the memory
f="$data/sorted.folded"
pair "sorted" "$bin -q --hash $f -o $data/out.svg" -- "sorted --strip-rust-hash" "$bin" -q --hash --strip-rust-hash "$f" -o "$data/out.svg"
row "$(size "$f")" "$base" "$run" 1.3
pair "sorted" "$bin -q --hash $f -o $data/out.svg" -- "sorted --exclude ^x --collapse-rec" "$bin" -q --hash --exclude '^x' --collapse-recursion "$f" -o "$data/out.svg"
row "$(size "$f")" "$base" "$run" 1.3
# what the mechanisms buy (docs/performance.md): the same runs on one thread
# (FOLDSVG_THREADS=1: no read-ahead, no second writer), against the default; the shuffled
# file sorted whole in memory (--sort-buffer 1G: neither cut nor spilled), against the
# default budget; the X events written children first sorted whole in memory too
for w in sorted shuffled; do
    f="$data/$w.folded"
    pair "$w (default)" "$bin -q --hash $f -o $data/out.svg" -- "$w, one thread" env FOLDSVG_THREADS=1 "$bin" -q --hash "$f" -o "$data/out.svg"
    row "$(size "$f")" "$base" "$run"
done
pair "sp1 (default)" "$bin -q $data/sp1.json -o $data/out.svg" -- "sp1, one thread" env FOLDSVG_THREADS=1 "$bin" -q "$data/sp1.json" -o "$data/out.svg"
row "$(size "$data/sp1.json")" "$base" "$run"
pair "devtools (default)" "$bin -q $data/devtools.json -o $data/out.svg" -- "devtools, one thread" env FOLDSVG_THREADS=1 "$bin" -q "$data/devtools.json" -o "$data/out.svg"
row "$(size "$data/devtools.json")" "$base" "$run"
run=$(measure "shuffled --sort-buffer 1G" "$bin" -q --hash --sort-buffer 1G "$data/shuffled.folded" -o "$data/out.svg")
row "$(size "$data/shuffled.folded")" "$shuffled_run" "$run"
pair "X events, children first" "$bin -q $data/events-ends.json -o $data/out.svg" -- "X events, --sort-buffer 1G" "$bin" -q --sort-buffer 1G "$data/events-ends.json" -o "$data/out.svg"
row "$(size "$data/events-ends.json")" "$base" "$run"
# the findings: --summary against --top 5 of the same input (same reading, same tables)
base=$(measure "top-5" "$bin" -q --top 5 "$data/shuffled.folded")
run=$(measure "shuffled --summary (/--top 5)" "$bin" -q --summary "$data/shuffled.folded")
row "$(size "$data/shuffled.folded")" "$base" "$run"

# --minwidth 0: the writer is the bound; compare element rates with a bare writer loop
run=$(measure "sorted --minwidth 0" "$bin" -q --hash --minwidth 0 "$data/sorted.folded" -o "$data/big.svg")
frames=$(grep -o '<g>' "$data/big.svg" | wc -l)
base=$(measure "xmlwriter" "$build/xmlwriter_baseline" "$frames" "$data/base.svg")
row "$(size "$data/big.svg")" "$base" "$run"
echo "# --minwidth 0 wrote $frames frames ($(size "$data/big.svg") bytes)"
# half a gigabyte of SVG is still being written back: the rows after it would pay for that
rm -f "$data/big.svg" "$data/base.svg"
sync
# the SVG phase of the repeated row alone: its 5,000 stacks folded once (by this build, kept
# while the 2 GB file is older), then drawn (88k frames, 16 MB), against a bare writer loop
# of as many frames
r5="$data/repeated-5000.folded"
if stale "$r5" "$data/repeated.folded"; then
    "$bin" -q "$data/repeated.folded" --format folded -o "$r5.tmp" && mv "$r5.tmp" "$r5"
fi
"$bin" -q --hash "$r5" -o "$data/out.svg"
frames=$(grep -o '<g>' "$data/out.svg" | wc -l)
pair "xmlwriter" "$build/xmlwriter_baseline $frames $data/base.svg" -- "repeated 5000 stacks->svg" "$bin" -q --hash "$r5" -o "$data/out.svg"
row "$(size "$data/out.svg")" "$base" "$run"

# --diff BEFORE AFTER against drawing AFTER alone (same invocation): sorted.folded against
# its variant (5% of the stacks gone, 5% new, every count drawn again), both streamed on two
# threads; with --normalize (each side read twice); a shuffled BEFORE (through the sorter);
# folded output. The target: at most 1.6x the time of AFTER alone, memory of the frames
# drawn (sorted sides), not of a tree of both.
v="$data/variant.folded"
base=$(measure "variant alone" "$bin" -q --hash "$v" -o "$data/out.svg")
run=$(measure "diff sorted variant->svg" "$bin" -q --hash --diff "$data/sorted.folded" "$v" -o "$data/out.svg")
row "$(( $(size "$data/sorted.folded") + $(size "$v") ))" "$base" "$run"
run=$(measure "diff --normalize ->svg" "$bin" -q --hash --normalize --diff "$data/sorted.folded" "$v" -o "$data/out.svg")
row "$(( $(size "$data/sorted.folded") + $(size "$v") ))" "$base" "$run"
run=$(measure "diff shuffled variant->svg" "$bin" -q --hash --diff "$data/shuffled.folded" "$v" -o "$data/out.svg")
row "$(( $(size "$data/shuffled.folded") + $(size "$v") ))" "$base" "$run"
base=$(measure "variant->folded" "$bin" -q "$v" -o "$data/out.folded")
run=$(measure "diff ->folded (/variant->folded)" "$bin" -q --diff "$data/sorted.folded" "$v" -o "$data/out.folded")
row "$(( $(size "$data/sorted.folded") + $(size "$v") ))" "$base" "$run"
# the gate (thresholds that hold: a broken one exits 3): on the totals it keeps the streamed
# route (against the plain diff); on functions it measures the tables --top computes
# (against --top alone). The target: no measurable cost.
base=$(measure "diff ->svg" "$bin" -q --hash --diff "$data/sorted.folded" "$v" -o "$data/out.svg")
run=$(measure "diff --fail-if total ->svg" "$bin" -q --hash --diff "$data/sorted.folded" "$v" -o "$data/out.svg" --fail-if 'total > +50%')
row "$(( $(size "$data/sorted.folded") + $(size "$v") ))" "$base" "$run"
base=$(measure "diff --top 5" "$bin" -q --diff "$data/sorted.folded" "$v" --top 5)
run=$(measure "diff --top 5 --fail-if self" "$bin" -q --diff "$data/sorted.folded" "$v" --top 5 --fail-if 'self > +50%' --fail-if 'total > +50%')
row "$(( $(size "$data/sorted.folded") + $(size "$v") ))" "$base" "$run"

# a small graph: start-up and set-up dominate (30 alternating runs)
keep=$reps; reps=30
pair "cat" "cat $vertx" -- "perf-vertx (266 KB)" "$bin" -q --hash "$vertx" -o "$data/out.svg"
row "$(size "$vertx")" "$base" "$run"
pair "foldsvg --version" "$bin --version" -- "perf-vertx (/--version)" "$bin" -q --hash "$vertx" -o "$data/out.svg"
row "$(size "$vertx")" "$base" "$run"
reps=$keep
# raw perf script output: 10 and 100 copies of FlameGraph's perf-vertx-stacks-01.txt (the
# 100 copies are 105 MB); memory must not grow with the copies (the distinct stacks only)
pv="$root/tests/data/compat-perf/inputs/perf-vertx-stacks-01.txt"
for k in 10 100; do
    f="$data/perf-vertx-x$k.txt"
    if [ ! -s "$f" ]; then
        i=0
        while [ $i -lt $k ]; do cat "$pv"; i=$((i + 1)); done >"$f"
    fi
    base=$(measure "wc-l" wc -l "$f")
    run=$(measure "perf x$k->folded (/wc-l)" "$bin" -q "$f" -o "$data/out.folded")
    row "$(size "$f")" "$base" "$run"
    base=$(measure "cat" cat "$f")
    run=$(measure "perf x$k->svg (/cat)" "$bin" -q "$f" -o "$data/out.svg")
    row "$(size "$f")" "$base" "$run"
done
echo "# for orientation (not run here): inferno-collapse-perf, 2 threads, x100 -> folded 0.83 s, 6.8 MB"
# inferno's other text collapsers: each reference input grown to about 60 MB by repeating its
# body (the stacks) between its header and its end, so that the distinct stacks stay those of
# the reference (memory must not grow with the copies); against wc -l of the same file
cc="$root/tests/data/compat-collapse/inputs"
# grow OUT IN FIRST LAST: IN's lines FIRST..LAST (1-based; LAST 0: to the end) repeated to about
# 60 MB, the lines before and after kept once
grow() {
    [ -s "$1" ] && return 0
    n=$(wc -l <"$2")
    last=$4; [ "$last" -eq 0 ] && last=$n
    k=$(( 60000000 / ($(sed -n "$3,${last}p" "$2" | wc -c) + 1) + 1 ))
    { head -n $(($3 - 1)) "$2"
      i=0; while [ $i -lt $k ]; do sed -n "$3,${last}p" "$2"; i=$((i + 1)); done
      tail -n +$((last + 1)) "$2"; } >"$1.tmp" && mv "$1.tmp" "$1"
}
line_of() { grep -n "$2" "$1" | head -n 1 | cut -d: -f1; }
grow "$data/dtrace-x.txt" "$cc/dtrace-dtrace-example.txt" "$(($(line_of "$cc/dtrace-dtrace-example.txt" '^$') + 1))" 0
grow "$data/sample-x.txt" "$cc/sample-sample.txt" "$(($(line_of "$cc/sample-sample.txt" '^Call graph:') + 1))" \
    "$(($(line_of "$cc/sample-sample.txt" '^Total number in stack') - 2))"
grow "$data/vtune-x.csv" "$cc/vtune-vtune.csv" 2 0
grow "$data/vsprof-x.csv" "$cc/vsprof-CallTreeSummary.csv" 2 0
grow "$data/ghcprof-x.prof" "$cc/ghcprof-ticks.prof" "$(($(line_of "$cc/ghcprof-ticks.prof" 'COST CENTRE.*no\.') + 2))" \
    "$(($(wc -l <"$cc/ghcprof-ticks.prof") - 1))"
for f in dtrace-x.txt sample-x.txt vtune-x.csv vsprof-x.csv ghcprof-x.prof; do
    base=$(measure "wc-l" wc -l "$data/$f")
    run=$(measure "${f%%-*} x->folded (/wc-l)" "$bin" -q "$data/$f" -o "$data/out.folded")
    row "$(size "$data/$f")" "$base" "$run"
    run=$(measure "${f%%-*} x->svg (/wc-l)" "$bin" -q "$data/$f" -o "$data/out.svg")
    row "$(size "$data/$f")" "$base" "$run"
done
# the script in Chromium: the 50k-frame graph of bench/graph50k.mjs loaded and zoomed, against
# the SVG that ZOOM_BASELINE draws (a foldsvg binary, e.g. a build of main, or an SVG of the
# same graph) when it is set, loads alternating; needs node, playwright-core (npm ci) and
# /usr/bin/chromium
if command -v node >/dev/null && [ -x /usr/bin/chromium ] && [ -d "$root/node_modules/playwright-core" ]; then
    zb=${ZOOM_BASELINE:-$BASELINE}
    FOLDSVG_BIN="$bin" node "$here/zoom_bench.mjs" --loads "$reps" ${zb:+--baseline "$zb"}
else
    echo "# zoom_bench.mjs not run: needs node, node_modules/playwright-core and /usr/bin/chromium"
fi
rm -f "$data/out.svg" "$data/out.folded" "$data/big.svg" "$data/base.svg" "$data/times" "$data/btimes" \
    "$data/otimes" "$data/rss"
