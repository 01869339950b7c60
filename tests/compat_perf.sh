#!/bin/sh
# Raw `perf script` output against inferno-collapse-perf 0.12: every case of
# tests/data/compat-perf/cases.tsv (inputs from inferno's and FlameGraph's collapse tests,
# flags in inferno-collapse-perf's spelling, expected/ written by inferno-collapse-perf)
# must give the expected folded text byte for byte (after the one documented difference,
# tests/tools/trim_names.py), read from the file and, gzip-compressed, from standard input. Then what the cases do not cover: the event filter, the error for
# an event the recording lacks, the count unit, SVG output.
#   tests/compat_perf.sh BIN [CASE...]
set -u
bin=$(realpath "$1"); shift
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data/compat-perf
pass=0; fail=0
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

tab=$(printf '\t')
# The one documented difference (docs/cli.md, "Names"): whitespace at a name's ends goes,
# where inferno-collapse-perf keeps the " " of a symbol perf printed empty. The expected
# text is compared after that rule; only the vertx cases have such a name.
mkdir "$work/expected"
trimmed=""
while IFS="$tab" read -r name input flags; do
    case "$name" in '#'*|'') continue ;; esac
    python3 "$here/tools/trim_names.py" "$data/expected/$name.folded" "$work/expected/$name.folded"
    [ $? -eq 3 ] && trimmed="$trimmed ${name%%__*}"
done <"$data/cases.tsv"
trimmed=$(printf '%s\n' $trimmed | sort -u | tr '\n' ' ')
[ "$trimmed" = "vertx-stacks-01 " ] && ok || bad "names with whitespace at their ends in: $trimmed"

while IFS="$tab" read -r name input flags; do
    case "$name" in '#'*|'') continue ;; esac
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
    [ "$flags" = - ] && flags=
    exp=$work/expected/$name.folded
    # shellcheck disable=SC2086
    if "$bin" $flags "$data/inputs/$input" -o "$work/out.folded" 2>"$work/err" &&
        cmp -s "$work/out.folded" "$exp"; then
        ok
    else
        bad "$name: $(head -c 300 "$work/err")"
        [ -f "$work/out.folded" ] && diff "$exp" "$work/out.folded" | head -4 | sed 's/^/    /'
    fi
    rm -f "$work/out.folded"
    # shellcheck disable=SC2086
    if gzip -c "$data/inputs/$input" | "$bin" $flags -o "$work/out.folded" 2>"$work/err" &&
        cmp -s "$work/out.folded" "$exp"; then
        ok
    else
        bad "$name (gzip on stdin): $(head -c 300 "$work/err")"
    fi
    rm -f "$work/out.folded"
done <"$data/cases.tsv"
[ $# -gt 0 ] && { echo "compat-perf: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

sum() { awk '{ n += $NF } END { print n + 0 }' "$1"; }

# Two events: the first one named (instructions, 333 samples) unless --event-filter says
# otherwise (cycles, 111), with a warning naming both.
ci=$data/inputs/perf-cycles-instructions-01.txt
"$bin" "$ci" -o "$work/i.folded" 2>"$work/err"
[ "$(sum "$work/i.folded")" = 333 ] && ok || bad "default event: $(sum "$work/i.folded") samples, not 333"
grep -q 'instructions (333 samples), cycles (111 samples)' "$work/err" && ok ||
    bad "no warning naming both events: $(cat "$work/err")"
"$bin" --event-filter cycles "$ci" -o "$work/c.folded" 2>"$work/err"
[ "$(sum "$work/c.folded")" = 111 ] && ok || bad "--event-filter cycles: $(sum "$work/c.folded") samples"
grep -q warning "$work/err" && bad "--event-filter cycles warned: $(cat "$work/err")" || ok

# An event the recording does not have: one line naming the events it has, exit 1, no file.
"$bin" --event-filter cache-misses "$ci" -o "$work/none.svg" 2>"$work/err"
rc=$?
[ "$rc" = 1 ] && ok || bad "missing event: exit $rc, not 1"
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "no samples of event 'cache-misses'.*instructions (333 samples), cycles (111 samples)" "$work/err" &&
    ok || bad "missing event message: $(cat "$work/err")"
[ ! -e "$work/none.svg" ] && ok || bad "missing event: an output file was written"

# The unit: periods weigh by the event's name, records without one are samples.
"$bin" "$data/inputs/perf-dd-stacks-01.txt" -o "$work/dd.svg" 2>"$work/err"
grep -q '10,101,010 cpu-clock' "$work/dd.svg" && ok || bad "dd: the SVG does not count cpu-clock"
xmllint --noout "$work/dd.svg" 2>/dev/null && ok || bad "dd: SVG not well-formed"
"$bin" "$data/inputs/perf-vertx-stacks-01.txt" -o "$work/vertx.svg" 2>"$work/err"
grep -q ' samples, ' "$work/vertx.svg" && ok || bad "vertx: the SVG does not count samples"
"$bin" --countname ticks "$data/inputs/perf-dd-stacks-01.txt" -o "$work/dd2.svg" 2>"$work/err"
grep -q '10,101,010 ticks' "$work/dd2.svg" && ok || bad "--countname does not win over the event"

# Folded text is still folded text: perf options there do nothing, which is a usage error.
printf 'main;work 3\n' | "$bin" --kernel --pid -o "$work/f.folded" 2>"$work/err"
[ $? -eq 2 ] && [ ! -e "$work/f.folded" ] && grep -q -- '--pid does nothing' "$work/err" && ok ||
    bad "perf options on folded text: $(cat "$work/err")"

# No stacks at all (inferno's no-events case): empty folded text, whichever way it is
# written (streamed, or through a profile for --reverse), but no SVG.
: >"$work/empty.txt"
for extra in "" --reverse; do
    # shellcheck disable=SC2086
    "$bin" $extra "$work/empty.txt" -o "$work/empty.folded" 2>"$work/err" && [ -f "$work/empty.folded" ] &&
        [ ! -s "$work/empty.folded" ] && ok || bad "empty input ${extra:-streamed}: $(cat "$work/err")"
    rm -f "$work/empty.folded"
done
"$bin" "$work/empty.txt" -o "$work/empty.svg" 2>/dev/null
[ $? = 1 ] && [ ! -e "$work/empty.svg" ] && ok || bad "empty input drew an SVG"

echo "compat-perf: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
