#!/bin/sh
# inferno's other collapsers (DTrace, macOS sample, VTune CSV, Visual Studio CSV, GHC .prof,
# xctrace XML) against inferno-collapse-<format> 0.12.8: every case of
# tests/data/compat-collapse/cases.tsv, flags in inferno's spelling. expect=ok: the folded
# output is inferno's byte for byte, but for the one documented difference (docs/cli.md,
# "Other collapsers"): stacks of count 0, which inferno-collapse-ghcprof writes and foldsvg's
# zero-count rule drops; read from the file and, gzip-compressed, from standard input.
# expect=error: exit 1 and no output file. Then the same inputs to SVG, and one option of
# another format's refused.
#   tests/compat_collapse.sh BIN [CASE...]
set -u
bin=$(realpath "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data/compat-collapse
pass=0
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}

tab=$(printf '\t')
while IFS="$tab" read -r name format input flags expect; do
    case "$name" in '#'* | '') continue ;; esac
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
    [ "$flags" = - ] && flags=
    out=$work/out.folded
    # An empty input is folded text of nothing: empty folded output, an error for the other
    # outputs (docs/cli.md, "Exit codes"); inferno's empty-file case is checked on SVG.
    [ -s "$data/inputs/$input" ] || out=$work/out.svg
    rm -f "$out"
    # shellcheck disable=SC2086
    "$bin" $flags "$data/inputs/$input" -o "$out" 2>"$work/err"
    rc=$?
    if [ "$expect" = error ]; then
        [ "$rc" -eq 1 ] && [ ! -e "$out" ] && [ -s "$work/err" ] && ok ||
            bad "$name ($format): expected an error, got exit $rc: $(head -c 300 "$work/err")"
        continue
    fi
    grep -v ' 0$' "$data/expected/$name.folded" >"$work/expected"
    if [ "$rc" -eq 0 ] && cmp -s "$out" "$work/expected"; then
        ok
    else
        bad "$name ($format, exit $rc): $(head -c 300 "$work/err")"
        [ -f "$out" ] && diff "$work/expected" "$out" | head -4 | sed 's/^/    /'
    fi
    rm -f "$out"
    # shellcheck disable=SC2086
    if gzip -c "$data/inputs/$input" | "$bin" $flags -o "$out" 2>"$work/err" &&
        cmp -s "$out" "$work/expected"; then
        ok
    else
        bad "$name ($format, gzip on stdin): $(head -c 300 "$work/err")"
    fi
    # straight to SVG: the same total, in the format's unit
    # shellcheck disable=SC2086
    if "$bin" $flags "$data/inputs/$input" -o "$work/out.svg" 2>"$work/err" &&
        xmllint --noout "$work/out.svg" 2>/dev/null; then
        ok
    else
        bad "$name ($format) to SVG: $(head -c 300 "$work/err")"
    fi
done <"$data/cases.tsv"
[ $# -gt 0 ] && {
    echo "compat-collapse: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}

# The units: VTune weighs milliseconds, GHC tenths of a percent (or ticks, bytes), the others
# samples or calls.
check_unit() { # INPUT FLAGS UNIT
    # shellcheck disable=SC2086
    "$bin" $2 "$data/inputs/$1" -o "$work/u.svg" 2>"$work/err" && grep -q " $3<" "$work/u.svg" ||
        grep -q " $3 " "$work/u.svg" && ok || bad "$1 $2: no '$3' in the SVG: $(cat "$work/err")"
}
check_unit vtune-vtune.csv "" ms
check_unit ghcprof-ticks.prof --bytes bytes
check_unit ghcprof-ticks.prof --ticks ticks
check_unit dtrace-dtrace-example.txt "" samples
check_unit vsprof-CallTreeSummary.csv "" calls

# An option for another format does nothing: a usage error naming the formats it is for.
"$bin" --no-modules "$data/inputs/dtrace-stack-ustack.txt" -o "$work/n.folded" 2>"$work/err"
[ $? -eq 2 ] && [ ! -e "$work/n.folded" ] && grep -q 'applies to a macOS sample report or a VTune' "$work/err" &&
    ok || bad "--no-modules on DTrace: $(cat "$work/err")"
"$bin" --time --ticks "$data/inputs/ghcprof-ticks.prof" -o "$work/n.folded" 2>"$work/err"
[ $? -ne 0 ] && [ ! -e "$work/n.folded" ] && grep -q 'give one' "$work/err" && ok ||
    bad "--time --ticks: $(cat "$work/err")"

# --diff between two collapsers' inputs, and a table of one.
"$bin" --diff "$data/inputs/sample-sample.txt" "$data/inputs/sample-sample.txt" \
    -o "$work/d.folded" 2>"$work/err" && [ -s "$work/d.folded" ] && ok ||
    bad "--diff of two sample reports: $(cat "$work/err")"
"$bin" "$data/inputs/xctrace-basic.xml" --top 3 >"$work/top.txt" 2>"$work/err" &&
    grep -q 'rust_test2::foo' "$work/top.txt" && ok || bad "--top of xctrace: $(cat "$work/err")"

echo "compat-collapse: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
