#!/bin/sh
# contrib/dask/foldsvg-dask on a local cluster of 2 workers (--local 2) against one foldsvg
# run over the same 64 inputs, to SVG: median wall time and CPU time (user + system, the
# foldsvg processes included), runs interleaved, outputs checked identical. Not part of the
# test suite. Needs /usr/bin/time and Debian's python3-distributed.
#   bench/dask.sh [BUILD_DIR=build-bench] [REPS=5]
# Inputs (bench/data/dask/, about 1.9 GB, reused; fixed seeds): 32 SP1-shaped Gecko profiles
# of 1 million samples (gen_sp1_profile.py --seed 1..32 --no-nasty: 32 programs of about
# 6,000 stacks; the hostile names are left out because one ends in spaces, which folded
# text cannot carry yet) and 32 folded files of 32 MB drawn from one set of 20,000 stacks
# (gen_folded.py -n 20000 --seed 42 --repeat 32M --repeat-seed 1..32: one program's runs).
# A second row: 64 copies of a 1 KB folded file, the fixed cost of going through Dask.
set -eu
here=$(cd "$(dirname "$0")" && pwd); root=$(dirname "$here")
tools="$root/tests/tools"
build=${1:-$root/build-bench}; reps=${2:-5}
data="$here/data/dask"; mkdir -p "$data/shards" "$data/small"
command -v /usr/bin/time >/dev/null || { echo "bench: install the 'time' package" >&2; exit 1; }
/usr/bin/python3 -c 'import distributed' 2>/dev/null ||
    { echo "bench: install python3-distributed" >&2; exit 1; }

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DFOLDSVG_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
bin="$build/foldsvg"
dask="/usr/bin/python3 $root/contrib/dask/foldsvg-dask --local 2 --foldsvg $bin"

# stale FILE SOURCE: FILE is missing, empty or older than SOURCE (test's -nt is not POSIX)
stale() { [ ! -s "$1" ] || [ -n "$(find "$2" -prune -newer "$1")" ]; }
gen() { # gen OUT GENERATOR ARGS...
    out=$1; shift
    if stale "$out" "$1"; then
        python3 "$@" -o "$out.tmp" >/dev/null 2>&1 && mv "$out.tmp" "$out"
    fi
}
for i in $(seq 1 32); do
    gen "$data/shards/sp1-$i.json" "$tools/gen_sp1_profile.py" -n 1000000 --seed "$i" --no-nasty
    gen "$data/shards/run-$i.folded" "$tools/gen_folded.py" -n 20000 --seed 42 --repeat 32M --repeat-seed "$i"
    cp "$root/tests/data/filters/stacks.folded" "$data/small/s$i.folded"
    cp "$root/tests/data/filters/stacks.folded" "$data/small/t$i.folded"
done

# one NAME CMD...: wall and CPU seconds of one run, appended to $data/NAME.times
one() {
    name=$1; shift
    t0=$(date +%s%N)
    /usr/bin/time -f "%U %S" -o "$data/cpu" "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    awk -v w="$(( (t1 - t0) / 1000 ))" '{ printf "%.3f %.3f\n", w / 1e6, $1 + $2 }' "$data/cpu" >>"$data/$name.times"
}
median() { # median FILE COLUMN
    sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { printf "%.2f", v[int((NR + 1) / 2)] }'
}

echo "# $(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-30s %10s %10s %10s %10s %8s\n' inputs one_wall_s one_cpu_s dask_wall_s dask_cpu_s wall_x
for set in shards small; do
    rm -f "$data/one.times" "$data/dask.times"
    i=0
    while [ "$i" -lt "$reps" ]; do
        one one "$bin" -q "$data/$set/"* -o "$data/one.svg"
        # shellcheck disable=SC2086
        one dask $dask -q "$data/$set/*" -o "$data/dask.svg"
        i=$((i + 1))
    done
    cmp -s "$data/one.svg" "$data/dask.svg" || echo "# $set: the outputs differ!"
    ow=$(median "$data/one.times" 1); oc=$(median "$data/one.times" 2)
    dw=$(median "$data/dask.times" 1); dc=$(median "$data/dask.times" 2)
    label="$set: $(find "$data/$set" -type f | wc -l) files, $(du -sh "$data/$set" | cut -f1)"
    printf '%-30s %10s %10s %10s %10s %8.2f\n' "$label" "$ow" "$oc" "$dw" "$dc" "$(echo "$dw $ow" | awk '{ print $1 / $2 }')"
done
