#!/bin/sh
# Golden tests: every golden/CASE/ holds `args` (shell words, run in golden/CASE/, so inputs
# are named relative to it: input.folded, ../../tests/data/...), usually an input file, and
# `expected.EXT`, the reviewed output of `foldsvg ARGS -o out.EXT` (or, when the case has a
# file named `stdout`, of what `foldsvg ARGS` prints).
# Every SVG must also be well-formed XML (xmllint).
#   tests/golden.sh BIN GOLDEN_DIR [CASE...]
# UPDATE_GOLDEN=1 rewrites the expected files instead of comparing (review them by eye:
# open the SVGs, render them to PNG, before committing).
set -u
# (BIN is used by the commands run through eval below)
# shellcheck disable=SC2034
bin=$(realpath "$1"); golden=$(realpath "$2"); shift 2
pass=0; fail=0
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for dir in "$golden"/*/; do
    name=$(basename "$dir")
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
    expected=
    for f in "$dir"expected.*; do expected=${f##*/}; break; done
    ext=${expected#expected.}
    out="$work/$name.$ext"
    args=$(cat "$dir/args")
    # A `stdout` marker file: the case's output is what foldsvg prints (e.g. --top tables).
    if [ -f "$dir/stdout" ]; then
        run='"$bin" '"$args"' >"$out"'
    else
        run='"$bin" '"$args"' -o "$out"'
    fi
    if ! (cd "$dir" && eval "$run") 2>"$work/$name.err"; then
        echo "FAIL $name: foldsvg exited non-zero"; sed 's/^/    /' "$work/$name.err"
        fail=$((fail + 1)); continue
    fi
    if [ "$ext" = svg ] && ! xmllint --noout --nonet "$out" 2>"$work/$name.xml"; then
        echo "FAIL $name: not well-formed XML"; head -n 5 "$work/$name.xml" | sed 's/^/    /'
        fail=$((fail + 1)); continue
    fi
    if [ -n "${UPDATE_GOLDEN:-}" ]; then
        cp "$out" "$dir/$expected"; echo "updated $name"; pass=$((pass + 1)); continue
    fi
    if cmp -s "$out" "$dir/$expected"; then
        pass=$((pass + 1))
    else
        echo "FAIL $name: output differs from $expected"
        diff "$dir/$expected" "$out" | head -n 10 | cut -c1-200 | sed 's/^/    /'
        fail=$((fail + 1))
    fi
done
echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
