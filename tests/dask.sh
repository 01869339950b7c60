#!/bin/sh
# contrib/dask/foldsvg-dask against one foldsvg run: a real cluster (dask-scheduler and two
# dask-worker processes on 127.0.0.1, on ports the system picks) folds mixed shards (folded,
# gzip, Gecko, processed, perf script) into the same bytes (SVG, HTML, folded, --top); a
# worker killed mid-run changes nothing; a corrupt or missing shard is one line naming it,
# and no output; an unreachable scheduler is one line. The cluster is shut down at the end,
# whatever happens: only the processes started here, by their ids (each in a session of its
# own, so that a worker goes with the foldsvg it runs).
#   tests/dask.sh BIN SOURCE_DIR         the above
#   tests/dask.sh BIN SOURCE_DIR names   frame names that end in white space survive the trip
# Exit 77 (skipped) when Debian's python3-distributed is missing.
set -u
bin=$(realpath "$1"); src=$(realpath "$2"); mode=${3:-all}
py=/usr/bin/python3
dask="$py $src/contrib/dask/foldsvg-dask"
if ! "$py" -c 'import distributed' 2>/dev/null || ! command -v dask-scheduler >/dev/null ||
    ! command -v dask-worker >/dev/null; then
    echo "skip: Debian's python3-distributed is not installed (dask-scheduler, dask-worker, /usr/bin/python3 -c 'import distributed'); scripts/deps.sh test installs it"
    exit 77
fi
work=$(mktemp -d)
pids="" # process groups: the cluster's
runs="" # processes: foldsvg-dask runs in the background
cleanup() {
    for p in $runs; do kill -TERM "$p" 2>/dev/null; done
    for p in $pids; do kill -TERM "-$p" 2>/dev/null; done
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        alive=""
        for p in $pids; do kill -0 "-$p" 2>/dev/null && alive="$alive $p"; done
        [ -z "$alive" ] && break
        sleep 0.3
    done
    for p in $alive; do kill -KILL "-$p" 2>/dev/null; done
    for p in $pids $runs; do wait "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mkdir "$work/tmp" "$work/shards"
export TMPDIR="$work/tmp" # the workers' temporary files too
cd "$work" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
finish() {
    echo "dask: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}
# same NAME A B: identical bytes
same() { if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ: $(cmp "$2" "$3" 2>&1 | head -c 300)"; fi; }
# compare NAME OPTIONS...: foldsvg-dask $cluster and foldsvg, same options, the inputs $inputs
# (globs: foldsvg gets the shell's expansion, foldsvg-dask the patterns), the same bytes
# (output, --top's tables, exit code); the SVG frame for frame too
compare() {
    name=$1; shift
    # shellcheck disable=SC2086
    "$bin" "$@" $inputs -o "one-$name" >one.out 2>one.err; one=$?
    set -f
    # shellcheck disable=SC2086
    $dask $cluster --foldsvg "$bin" "$@" $inputs -o "dask-$name" >dask.out 2>dask.err; got=$?
    set +f
    [ "$got" -eq "$one" ] && ok || bad "$name: exit $got, foldsvg $one: $(head -c 400 dask.err)"
    same "$name" "one-$name" "dask-$name"
    same "$name stdout" one.out dask.out
    # the summary line, and warnings in any order (the tasks' come first)
    sort one.err >one.sorted; sort dask.err >dask.sorted
    cmp -s one.sorted dask.sorted && ok || bad "$name: messages differ: $(diff one.sorted dask.sorted | head -c 600)"
    case $name in *.svg)
        python3 "$src/tests/tools/svgframes.py" compare "one-$name" "dask-$name" >frames.out 2>&1 &&
            ok || bad "$name: frames differ: $(tail -n 3 frames.out)" ;;
    esac
}

if [ "$mode" = names ]; then
    # names from a profile that end (or start) in white space, as leaves and inside stacks
    "$py" - "$src/tests/data/filters/gecko.json" shards <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["threads"][0]["stringTable"]
t[5], t[1], t[3], t[0] = "free ", "js::RunScript\t", "malloc  ", " start"
for i in range(4):
    json.dump(d, open("%s/ws%d.json" % (sys.argv[2], i), "w"))
EOF
    cluster="--local 2 --group 1"
    inputs="shards/*"
    compare names.svg
    compare names.folded
    finish
fi

# usage errors, before any cluster
for args in "--local 2 --flamechart x.folded" "--local 2 --no-sort x.folded" \
    "--local 2 --sections x.folded -o x.html" "--local 2 --list-threads x.json" \
    "--local 2 -o x.svg" "--local 2 - -o x.svg" "--local 2 --bogus x.folded" \
    "--local 0 x.folded" "x.folded" "--local 2 --scheduler tcp://127.0.0.1:1 x.folded" \
    "--local 2 --fan-in 1 x.folded" "--local 2 --width abc x.folded"; do
    # shellcheck disable=SC2086
    $dask --foldsvg "$bin" $args >out 2>err; got=$?
    [ "$got" -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && ok || bad "foldsvg-dask $args: exit $got, $(wc -l <err) lines: $(cat err)"
done
grep -q -- '--width' err && ok || bad "a bad value is not foldsvg's message: $(cat err)"
$dask --help | grep -q -- '--scheduler' && ok || bad "--help"

# the shards: every format foldsvg reads, some gzip; the perf files warn (several events),
# one folded file has fractional counts (a warning), one is differential
d=$src/tests/data
cp "$d/filters/stacks.folded" "$d/filters/gecko.json" "$d/filters/sp1.json" shards/
cp "$d/compat/inputs/flamegraph/test/results/perf-java-stacks-01-collapsed-all.txt" shards/java.folded
cp "$d/compat/inputs/flamegraph/test/results/perf-js-stacks-01-collapsed-all.txt" shards/js.folded
cp "$d/compat/inputs/tests/data/flamegraph/differential/perf-cycles-instructions-01-collapsed-all-diff.txt" shards/diff.folded
cp "$d/compat/inputs/tests/data/flamegraph/fractional-samples/fractional.txt" shards/fractional.folded
gzip -c "$d/compat/inputs/flamegraph/test/results/perf-vertx-stacks-01-collapsed-all.txt" >shards/vertx.folded.gz
cp "$d/firefox/gecko-v24-sp1-style-probe-gecko_profile-0.4.0.json" shards/sp1-probe.json
cp "$d/firefox/gecko-v13-nested-processes.firefox-profiler.json" shards/gecko13.json
cp "$d/firefox/processed-v24.firefox-profiler.json" shards/processed24.json
cp "$d/firefox/processed-v58-shared-stringArray.firefox-profiler.json" shards/processed58.json
cp "$d/firefox/processed-v49-samply-style.firefox-profiler.json.gz" shards/samply.json.gz
cp "$d/compat-perf/inputs/perf-java-stacks-02.txt" shards/perf-java.txt
cp "$d/compat-perf/inputs/perf-dd-stacks-01.txt" shards/perf-dd.txt
gzip -c "$d/compat-perf/inputs/perf-js-stacks-01.txt" >shards/perf-js.txt.gz
n=$(find shards -type f | wc -l)

# the cluster: a scheduler on a port the system picks, two single-thread workers without
# nannies (a killed worker stays dead). Should this script be killed before its trap runs,
# the scheduler stops after a minute without work, and the workers 20 s after it.
start() { # start NAME CMD...: its id in $last
    name=$1; shift
    setsid "$@" >"$work/$name.log" 2>&1 &
    last=$!
    pids="$pids $last"
}
start scheduler dask-scheduler --host 127.0.0.1 --port 0 --no-dashboard --idle-timeout 60s \
    --scheduler-file "$work/scheduler.json"
for _ in $(seq 100); do [ -s scheduler.json ] && break; sleep 0.2; done
addr=$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["address"])' scheduler.json 2>/dev/null)
[ -n "$addr" ] || { bad "the scheduler did not start: $(tail -n 5 scheduler.log)"; finish; }
for w in 1 2; do
    start "worker$w" dask-worker "$addr" --nthreads 1 --no-nanny --no-dashboard --name "w$w" \
        --local-directory "$work/w$w" --death-timeout 20
    [ "$w" = 1 ] && worker1=$last
done
"$py" -c 'import sys, distributed; c = distributed.Client(sys.argv[1], timeout=30); c.wait_for_workers(2, timeout=30); c.close()' "$addr" ||
    { bad "the workers did not join: $(tail -n 5 worker1.log)"; finish; }
[ "$(ps -o pgid= -p "$worker1" | tr -d ' ')" = "$worker1" ] && ok || bad "worker 1 is not in a group of its own"

# every output, a tree of merges (fan-in 2), and stack options
cluster="--scheduler $addr --group 2 --fan-in 2"
inputs="shards/*"
compare all.svg
compare all.html
compare top.folded --top 7 --top-format json
compare opts.svg --strip-rust-hash --exclude '^java' --reverse --minwidth 0 --hash --title 'Fleet' \
    --countname units --weight samples
compare focus.html --focus 'Interpret|vertx' --collapse-recursion
inputs="shards/*.json shards/*.txt* shards/*.folded*"
cluster="--scheduler $addr"
compare all.folded

# a worker killed mid-run (its task is running; its finished results are lost): the
# scheduler redoes them on the other worker. Slow folding tasks log each start.
cat >slowfold <<EOF
#!/bin/sh
case " \$* " in *" --facts-out "*) echo start >>"$work/starts"; sleep 0.2 ;; esac
exec "$bin" "\$@"
EOF
chmod +x slowfold
: >starts
"$bin" shards/* -o one-kill.svg 2>/dev/null
$dask --scheduler "$addr" --group 1 --foldsvg "$work/slowfold" shards/* -o dask-kill.svg 2>kill.err &
run=$!
runs=$run
for _ in $(seq 100); do [ "$(wc -l <starts)" -ge 3 ] && break; sleep 0.1; done
kill -KILL "-$worker1"
wait "$worker1" 2>/dev/null
pids=$(for p in $pids; do [ "$p" = "$worker1" ] || printf '%s ' "$p"; done)
wait "$run"; got=$?
runs=""
[ "$got" -eq 0 ] && ok || bad "killed worker: exit $got: $(cat kill.err)"
same "killed worker" one-kill.svg dask-kill.svg
[ "$(wc -l <starts)" -gt "$n" ] && ok || bad "no task was redone: $(wc -l <starts) starts for $n inputs"

# a corrupt shard, a missing one: one line naming it, as foldsvg says it; no output
printf '{"meta": {"version": 24}, "threads": [{"name": "t", "samples": ' >shards/corrupt.json
for bad_input in shards/corrupt.json shards/missing.json; do
    "$bin" shards/stacks.folded shards/gecko.json "$bad_input" -o one-bad.svg 2>one.err; one=$?
    $dask --scheduler "$addr" --foldsvg "$bin" shards/stacks.folded shards/gecko.json "$bad_input" \
        -o dask-bad.svg 2>dask.err; got=$?
    [ "$got" -eq 1 ] && [ "$one" -eq 1 ] && ok || bad "$bad_input: exit $got (foldsvg $one)"
    [ "$(wc -l <dask.err)" -eq 1 ] && grep -qF "$bad_input" dask.err && ok || bad "$bad_input: not one line naming it: $(cat dask.err)"
    same "$bad_input message" one.err dask.err
    [ ! -e dask-bad.svg ] && ok || bad "$bad_input: an output was written"
done
rm shards/corrupt.json

# progress on a terminal: inputs done of the total, cleared at the end (without a terminal,
# compare's messages show none)
if command -v script >/dev/null; then
    script -qec "$dask --scheduler $addr --group 1 --foldsvg $bin $work/shards/* -o $work/tty.svg" /dev/null >tty.out 2>&1
    grep -q "$n of $n inputs folded" tty.out && ok || bad "no progress on a terminal: $(head -c 300 tty.out)"
    grep -q "$(printf '\r\033\[K')foldsvg: " tty.out && ok || bad "the progress line is not cleared: $(tail -c 300 tty.out)"
fi

# the scheduler gone: an address nothing listens on, one line
$dask --scheduler tcp://127.0.0.1:1 --timeout 1 --foldsvg "$bin" shards/stacks.folded -o x.svg 2>err; got=$?
[ "$got" -eq 1 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q 'tcp://127.0.0.1:1' err && ok ||
    bad "unreachable scheduler: exit $got: $(cat err)"

# a local cluster in the process
cluster="--local 2"
inputs="shards/*"
compare local.html

# names are globbed once (issue 47): a name that exists is that file (p[1].folded, not
# p1.folded, which the pattern p[1].folded also matches), a word after -- is a name and
# never a pattern, and a pattern that is no file's name still expands
mkdir br
printf 'a;b 5\n' >'br/p[1].folded'
printf 'x;y 7\n' >br/p1.folded
for args in "br/p[1].folded" "-- br/p[1].folded" "br/p?.folded" "-- br/p?.folded"; do
    set -f
    # shellcheck disable=SC2086
    $dask --local 1 --foldsvg "$bin" -q -o br.folded $args >out 2>err; got=$?
    set +f
    case $args in
    *p[[]1*) want='a;b 5' ;;
    --*) want='' ;;
    *) want='x;y 7' ;;
    esac
    if [ -n "$want" ]; then
        [ "$got" -eq 0 ] && [ "$(cat br.folded)" = "$want" ] && ok ||
            bad "foldsvg-dask $args: exit $got, folded $(cat br.folded 2>&1): $(cat err)"
    else # a name no file has: one line naming it
        [ "$got" -eq 1 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q 'br/p?\.folded' err && ok ||
            bad "foldsvg-dask $args: exit $got (want 1): $(cat err)"
    fi
    rm -f br.folded
done
finish
