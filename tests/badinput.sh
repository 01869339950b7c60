#!/bin/sh
# The bad-input corpus: every case in tests/badinput/ must fail cleanly (issue
# "Robustness", docs/cli.md): the expected exit code, exactly one line on stderr
# naming the file, the place and what was wrong, no output file created, and an existing
# output file left untouched (content and mtime).
#   sh tests/badinput.sh BIN [--no-heavy]
# --no-heavy skips the cases marked "heavy" (hundreds of MB through the reader): sanitizer
# builds, whose realloc always copies, make yajl's nesting stack quadratic there.
#
# A case is a directory holding its input file (the one file besides `expect` and
# `xfail`) and `expect`, one "KEY VALUE" per line:
#   exit N         expected exit status (required)
#   message TEXT   fragment stderr must contain (required)
#   place TEXT     fragment naming the place (line, byte offset, table and row)
#   name TEXT      the file stderr must name (default: the input as given)
#   input PATH     input path instead of the case's file (e.g. a missing one)
#   stdin CMD      the input is CMD's output on standard input (name "<stdin>")
#   args ARGS      extra arguments (word-split)
#   output PATH    the -o target (default out.svg, in a fresh directory)
#   setup WHAT     readonly-dir: a directory "ro" the run cannot write to (as root, the
#                  output goes to /sys, which refuses everyone); outdir: a directory "outdir"
#   existing no    skip the pre-existing-output run (targets that are not regular files)
#   heavy yes      skipped with --no-heavy
#   diff-before F  a diff: `--diff F INPUT` (the case's INPUT is AFTER); F, a file of the
#                  case beside its input, is the good side
#   diff-after F   a diff: `--diff INPUT F` (the case's INPUT is BEFORE)
# A file `xfail` holding a reason marks a known bug: its failures print as XFAIL and do not
# count; a case that passes while marked counts as a failure, so the mark gets removed.
set -u
bin=$(realpath "$1")
heavy=1; [ "${2:-}" = --no-heavy ] && heavy=0
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
pass=0; fail=0; xfail=0; skipped=0

get() { sed -n "s/^$1 //p" "$2" | head -n 1; }
# Every entry under the run directory but the runner's own stdout and stderr.
snap() {
    (cd "$1" && find . -mindepth 1 -not -name stdout -not -name stderr \
        -printf '%P %y %s %T@ %m\n' | sort)
}

# check_run CASE RUNDIR EXPECTFILE STAGE: runs the case once in RUNDIR; prints problems
check_run() {
    c=$1; rd=$2; ex=$3; stage=$4
    code=$(get exit "$ex"); msg=$(get message "$ex"); place=$(get place "$ex")
    name=$(get name "$ex"); input=$(get input "$ex"); stdin_cmd=$(get stdin "$ex")
    args=$(get args "$ex"); output=$(get output "$ex"); setup=$(get setup "$ex")
    dbefore=$(get diff-before "$ex"); dafter=$(get diff-after "$ex"); good=$dbefore$dafter
    [ -n "$output" ] || output=out.svg
    [ -z "$good" ] || cp "$here/badinput/$c/$good" "$rd/"
    if [ -z "$input" ] && [ -z "$stdin_cmd" ]; then
        # the case's first file (in the glob's order) that is not its expectation or the
        # diff's good side
        for f in "$here/badinput/$c"/*; do
            input=${f##*/}
            case $input in expect | xfail | "${good:-expect}") input= ;; *) break ;; esac
        done
        cp "$here/badinput/$c/$input" "$rd/"
    fi
    [ -n "$stdin_cmd" ] && input=-
    [ -n "$name" ] || name=$input
    case $setup in
    readonly-dir)
        mkdir "$rd/ro"; chmod 555 "$rd/ro"
        if [ "$(id -u)" -eq 0 ]; then output=/sys/foldsvg-badinput.svg; name=$output; fi ;;
    outdir) mkdir "$rd/outdir" ;;
    esac
    if [ "$stage" = existing ]; then
        printf 'precious\n' >"$rd/$output"; touch -d '2001-01-01 00:00' "$rd/$output"
    fi
    before=$(snap "$rd")
    # shellcheck disable=SC2086
    if [ -n "$stdin_cmd" ]; then
        (cd "$rd" && sh -c "$stdin_cmd" | "$bin" - $args -o "$output" >stdout 2>stderr)
        got=$? # the pipeline's status is foldsvg's
    elif [ -n "$dbefore" ]; then
        (cd "$rd" && "$bin" --diff "$dbefore" "$input" $args -o "$output" >stdout 2>stderr); got=$?
    elif [ -n "$dafter" ]; then
        (cd "$rd" && "$bin" --diff "$input" "$dafter" $args -o "$output" >stdout 2>stderr); got=$?
    else
        (cd "$rd" && "$bin" "$input" $args -o "$output" >stdout 2>stderr); got=$?
    fi
    after=$(snap "$rd")
    e="$rd/stderr"
    [ "$got" -eq "$code" ] || echo "$stage: exit $got, expected $code"
    n=$(awk 'END { print NR }' "$e")
    [ "$n" -eq 1 ] && [ "$(wc -l <"$e")" -eq 1 ] || echo "$stage: stderr has $n lines, expected exactly one"
    grep -qF -- "$name" "$e" || echo "$stage: stderr does not name '$name'"
    [ -z "$place" ] || grep -qF -- "$place" "$e" || echo "$stage: stderr does not give the place '$place'"
    grep -qF -- "$msg" "$e" || echo "$stage: stderr lacks '$msg'"
    # Nothing created, nothing changed (temporary files included) beside the target.
    [ "$before" = "$after" ] ||
        echo "$stage: files changed: $(printf '%s\n' "$after" | tr '\n' '|' | head -c 400)"
    if [ "$stage" = existing ]; then
        [ "$(cat "$rd/$output")" = precious ] || echo "$stage: the existing output was modified"
    fi
    [ -s "$e" ] && echo "    stderr: $(head -c 300 "$e")" >"$rd/.stderr-note"
}

for dir in "$here"/badinput/*/; do
    c=$(basename "$dir")
    ex="$dir/expect"
    problems=""
    if [ "$heavy" -eq 0 ] && [ "$(get heavy "$ex")" = yes ]; then
        skipped=$((skipped + 1)); continue
    fi
    for stage in fresh existing; do
        [ "$stage" = existing ] && [ "$(get existing "$ex")" = no ] && continue
        rd="$work/$c-$stage"; mkdir "$rd"
        p=$(check_run "$c" "$rd" "$ex" "$stage")
        [ -n "$p" ] && problems="$problems$p
$(cat "$rd/.stderr-note" 2>/dev/null)
"
        chmod -R u+w "$rd" 2>/dev/null
    done
    if [ -f "$dir/xfail" ]; then
        if [ -n "$problems" ]; then
            xfail=$((xfail + 1)); echo "XFAIL $c: $(cat "$dir/xfail")"
        else
            fail=$((fail + 1)); echo "FAIL $c: passes but is marked xfail; remove $dir/xfail"
        fi
    elif [ -n "$problems" ]; then
        fail=$((fail + 1)); printf 'FAIL %s:\n%s' "$c" "$problems"
    else
        pass=$((pass + 1))
    fi
done

echo "badinput: $pass passed, $fail failed, $xfail known failures (xfail), $skipped skipped"
[ "$fail" -eq 0 ]
