#!/bin/sh
# The stack filters end to end (--strip, --strip-rust-hash, --include, --exclude, --focus,
# --collapse-recursion; docs/cli.md; Rust hashes dropped by default from JSON) on folded and Firefox-Profiler input. The
# expected folded output comes from a small model written here in Python, independent of
# foldsvg (its `re` and PCRE2 agree on the patterns used with it), and from cases written out
# by hand (invalid UTF-8, --base, messages).
#   tests/filters.sh BIN
set -u
bin=$(realpath "$1")
data=$(cd "$(dirname "$0")" && pwd)/data/filters
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

cat >model.py <<'EOF'
# model.py INPUT [FLAGS...]: the folded output foldsvg should write; exit 3 when no stack is
# left (foldsvg then has nothing to draw).
import json, re, sys

RUST_HASH = r"::h[0-9a-f]{16}(?![0-9A-Za-z_])|(?<=[0-9A-Za-z_])\[[0-9a-f]{1,16}\]"
UNKNOWN = "[unknown]"

def read(path):
    raw = open(path, "rb").read()
    if raw.lstrip()[:1] != b"{":
        out = []
        for line in raw.decode("utf-8").splitlines():
            stack, count = line.rsplit(" ", 1)
            out.append((stack.split(";"), int(count)))
        return out
    doc = json.loads(raw)
    sp1 = doc["meta"].get("product") == "SP1 ZKVM"
    out = []
    for th in doc["threads"]:
        col = lambda t, c: th[t]["schema"][c]
        cell = lambda row, i: row[i] if i < len(row) else None
        strings, frames, stacks = th["stringTable"], th["frameTable"]["data"], th["stackTable"]["data"]
        for row in th["samples"]["data"]:
            s = cell(row, col("samples", "stack"))
            w = cell(row, col("samples", "threadCPUDelta")) if sp1 else 1
            names = []
            while s is not None:
                f = cell(stacks[s], col("stackTable", "frame"))
                loc = cell(frames[f], col("frameTable", "location"))
                names.append(re.sub(r"[\r\n]", " ", strings[loc].replace(";", ":")))
                s = cell(stacks[s], col("stackTable", "prefix"))
            out.append((names[::-1] or [UNKNOWN], int(w)))
    return out

args = sys.argv[2:]
strip, include, exclude, focus = [], [], [], []
rust = collapse = reverse = keep = False
i = 0
while i < len(args):
    a = args[i]
    if a in ("--strip", "--include", "--exclude", "--focus"):
        {"--strip": strip, "--include": include, "--exclude": exclude, "--focus": focus}[a].append(
            re.compile(args[i + 1], re.ASCII))
        i += 2
        continue
    if a == "--strip-rust-hash":
        rust = True
    elif a == "--keep-rust-hash":
        keep = True
    elif a == "--collapse-recursion":
        collapse = True
    elif a == "--reverse":
        reverse = True
    else:
        sys.exit("model.py: unknown flag " + a)
    i += 1
# a symbolizer's names (JSON) lose their Rust hashes unless kept; folded text keeps them
if not keep and open(sys.argv[1], "rb").read().lstrip()[:1] == b"{":
    rust = True
if rust:  # before the --strip patterns, whatever the order on the command line
    strip.insert(0, re.compile(RUST_HASH, re.ASCII))

def hit(pats, name):
    return any(p.search(name) for p in pats)

totals = {}
for names, count in read(sys.argv[1]):
    if reverse:
        names = names[::-1]
    kept = []
    for n in names:
        m = n
        for p in strip:
            m = p.sub("", m)
        if m or not n:  # only what --strip emptied goes
            kept.append(m)
    look = kept or [UNKNOWN]
    if any(hit(exclude, n) for n in look):
        continue
    if include and not any(hit(include, n) for n in look):
        continue
    if focus:
        at = [k for k, n in enumerate(look) if hit(focus, n)]
        if not at:
            continue
        kept = kept[at[0]:]
    if collapse:
        kept = [n for k, n in enumerate(kept) if k == 0 or n != kept[k - 1]]
    if count:
        key = ";".join(kept) or UNKNOWN
        totals[key] = totals.get(key, 0) + count
if not totals:
    sys.exit(3)
for k in sorted(totals, key=lambda s: s.encode()):
    sys.stdout.write("%s %d\n" % (k, totals[k]))
EOF

# check NAME INPUT FLAGS...: foldsvg's folded output is the model's
check() {
    name=$1; input=$2; shift 2
    rm -f out.folded
    python3 model.py "$input" "$@" >want.folded; want=$?
    "$bin" "$input" "$@" -o out.folded 2>err; got=$?
    if [ "$want" -eq 3 ]; then
        if [ "$got" -eq 1 ] && [ ! -e out.folded ]; then ok; else
            bad "$name: every stack is filtered out, but exit $got$( [ -e out.folded ] && echo ', output written')"
        fi
    elif [ "$want" -ne 0 ]; then
        bad "$name: the model failed"
    elif [ "$got" -ne 0 ]; then
        bad "$name: exit $got: $(head -c 300 err)"
    elif cmp -s out.folded want.folded; then
        ok
    else
        bad "$name: output differs from the model:"
        diff want.folded out.folded | head -20
    fi
}

# hand NAME INPUT EXPECTED FLAGS...: foldsvg's folded output is EXPECTED (printf format)
hand() {
    name=$1; input=$2; want=$3; shift 3
    rm -f out.folded
    # shellcheck disable=SC2059
    printf "$want" >want.folded
    "$bin" "$input" "$@" -o out.folded 2>err; got=$?
    if [ "$got" -ne 0 ]; then
        bad "$name: exit $got: $(head -c 300 err)"
    elif cmp -s out.folded want.folded; then
        ok
    else
        bad "$name: got:"
        head -20 out.folded
    fi
}

# The model itself, against outputs written by hand.
python3 model.py "$data/stacks.folded" --strip-rust-hash --focus '^fib$' --collapse-recursion \
    >m1 && printf 'fib 4\nfib;alloc::alloc::alloc 12\n' | cmp -s - m1 && ok ||
    bad "model: --focus/--collapse-recursion on folded input: $(cat m1)"
python3 model.py "$data/sp1.json" --strip-rust-hash --include weird >m2 &&
    printf 'main;guest::main;größe::λ;weird name 10\n' | cmp -s - m2 && ok ||
    bad "model: SP1 profile: $(cat m2)"
python3 model.py "$data/gecko.json" --exclude malloc --focus Interpret >m3 &&
    printf 'js::Interpret 2\njs::Interpret;js::Interpret 2\n' | cmp -s - m3 && ok ||
    bad "model: Gecko profile: $(cat m3)"

for input in "$data/stacks.folded" "$data/sp1.json" "$data/gecko.json"; do
    in=$(basename "$input")
    check "$in: no filter" "$input"
    # --strip
    check "$in: --strip-rust-hash" "$input" --strip-rust-hash
    check "$in: --keep-rust-hash" "$input" --keep-rust-hash
    check "$in: --keep-rust-hash --strip" "$input" --keep-rust-hash --strip '^js::'
    check "$in: --strip" "$input" --strip '::h[0-9a-f]+$'
    check "$in: --strip to merge" "$input" --strip '::h.*' --strip '^js::'
    check "$in: --strip in order" "$input" --strip 'a' --strip 'llo'
    check "$in: --strip empty matches" "$input" --strip 'z*' --strip '(?=:)'
    check "$in: --strip empties frames" "$input" --strip '^(main|start)$'
    check "$in: --strip empties stacks" "$input" --strip '.*'
    # --include / --exclude
    check "$in: --include" "$input" --include 'alloc'
    check "$in: --include twice" "$input" --include 'alloc$' --include '^fib|Interpret'
    check "$in: --include no match" "$input" --include 'no such frame'
    check "$in: --include [unknown]" "$input" --include '^\[unknown\]$'
    check "$in: --exclude" "$input" --exclude 'alloc'
    check "$in: --exclude twice" "$input" --exclude 'alloc' --exclude 'fmt|reflow'
    check "$in: --exclude everything" "$input" --exclude '.'
    check "$in: --include and --exclude" "$input" --include 'main|start' --exclude 'write|free'
    # --focus
    check "$in: --focus" "$input" --focus 'alloc'
    check "$in: --focus outermost" "$input" --focus 'fib|write|Interpret'
    check "$in: --focus twice" "$input" --focus 'parse' --focus 'malloc'
    check "$in: --focus root" "$input" --focus '^(main|start)$'
    check "$in: --focus no match" "$input" --focus 'no such frame'
    # --collapse-recursion
    check "$in: --collapse-recursion" "$input" --collapse-recursion
    # combinations, in the pipeline's order whatever the order of the flags
    check "$in: strip+collapse" "$input" --collapse-recursion --strip-rust-hash
    check "$in: strip+include" "$input" --include '::write$' --strip-rust-hash
    check "$in: strip+focus" "$input" --focus '^fib$' --strip-rust-hash
    check "$in: all" "$input" --strip-rust-hash --include 'guest|RunScript' \
        --exclude 'grow|je_' --focus 'fib|parse|Interpret|write' --collapse-recursion
    check "$in: exclude above the focus" "$input" --focus 'alloc$|malloc' --exclude '^guest|^main$'
    check "$in: --reverse first" "$input" --reverse --focus 'alloc|Interpret' --strip-rust-hash
    check "$in: --reverse collapse" "$input" --reverse --collapse-recursion --strip '::h\w+'
    # UTF-8: one . is one character
    check "$in: UTF-8 strip" "$input" --strip 'ö|ß|日'
    check "$in: UTF-8 dot" "$input" --strip '^gr..e|^.本'
    check "$in: UTF-8 include" "$input" --include 'λ|日'
done

# hand-written: what the model would only repeat
f=$data/stacks.folded
hand "rust hashes" "$f" 'alloc::alloc::alloc 2\nmain 1\nmain;core::fmt::write;core::fmt::write 3\nmain;guest::main;alloc::raw_vec::RawVec<T>::grow;alloc::alloc::alloc 20\nmain;guest::main;core::fmt::write;alloc::alloc::alloc 30\nmain;guest::main;fib;fib 4\nmain;guest::main;fib;fib;fib;alloc::alloc::alloc 12\nmain;guest::main;größe::λ 2\nmain;guest::main;größe::λ;日本::描画 6\nmain;guest::main;mycrate::parse::expr;<[u8: 32] as core::convert::TryFrom<&[u8]>>::try_from 7\nmain;guest::main;mycrate::parse::expr;<[u8: 32] as core::convert::TryFrom<&[u8]>>::try_from;alloc::alloc::alloc 5\n' \
    --strip-rust-hash
hand "--focus then --base" "$f" 'fib;alloc::alloc::alloc 12\n' \
    --strip-rust-hash --collapse-recursion --focus '^guest' --base fib
hand "json: emptied stack is [unknown]" "$data/gecko.json" '[unknown] 8\nfree 1\n日本::render;layout::reflow 1\n日本::render;layout::reflow;layout::reflow 2\n' \
    --strip '^js::.*|malloc|^start$' --exclude je_ --include '^(\[unknown\]|free|layout.*)$' --focus '.'

# invalid UTF-8 in names: such bytes match nothing, the text around them still does
printf 'a\377b;\303;x\355\240\200y;ok 2\n\300\257;q 1\n' >bad-utf8.folded
hand "invalid UTF-8 strip" bad-utf8.folded '\300\257 1\n\377;\303;\355\240\200 2\n' --strip '\w'
hand "invalid UTF-8 match" bad-utf8.folded '\300\257;q 1\n' --include 'x.+y|^q$'
hand "invalid UTF-8 focus" bad-utf8.folded 'x\355\240\200y;ok 2\n' --focus '^x'
# a byte 0xff is not the character U+00FF
hand "invalid UTF-8 dot" bad-utf8.folded '\300\257 1\n\377b;\303;\355\240\200y;k 2\n' --strip '^.' --exclude 'ÿ'
hand "invalid UTF-8 hash" bad-utf8.folded '\300\257;q 1\n\377b;\303;x\355\240\200y;ok 2\n' \
    --strip-rust-hash --strip '^a'

# every output sees the filters: the SVG too
"$bin" "$f" --strip-rust-hash --exclude grow -o out.svg 2>err && ok || bad "svg: exit $?: $(cat err)"
grep -q 'core::fmt::write (' out.svg && ok || bad "svg: no stripped name"
grep -q 'h2222222222222222\|RawVec' out.svg && bad "svg: a hash or an excluded frame is left" || ok

# bad patterns: usage error naming the flag, quoting the pattern, PCRE2's message and offset;
# nothing written
badpat() { # badpat FLAG PATTERN MESSAGE OFFSET [QUOTED: the pattern as the message shows it]
    rm -f out.folded out.svg
    "$bin" "$f" "--$1" "$2" -o out.folded >out 2>err; got=$?
    [ "$got" -eq 2 ] && ok || bad "--$1 '$2': exit $got, expected 2"
    grep -qF -- "--$1 '${5:-$2}'" err && ok || bad "--$1 '$2': the message does not quote it: $(cat err)"
    grep -qF -- "$3" err && ok || bad "--$1 '$2': no PCRE2 message '$3': $(cat err)"
    grep -qF -- "at offset $4" err && ok || bad "--$1 '$2': no offset $4: $(cat err)"
    [ "$(wc -l <err)" -eq 1 ] && ok || bad "--$1 '$2': the message is not one line: $(cat err)"
    [ ! -e out.folded ] && [ ! -s out ] && ok || bad "--$1 '$2': something was written"
}
badpat strip 'a(b' 'missing closing parenthesis' 3
badpat include '[z-a]' 'range out of order in character class' 3
badpat exclude '*x' 'quantifier does not follow a repeatable item' 0
badpat focus 'ab\' '\ at end of pattern' 3
# (a byte that is not UTF-8 is written \xNN: nothing reaches a terminal raw)
badpat include "$(printf 'ok\377')" 'UTF-8 error' 2 'ok\xff'
badpat strip '(?<=a+)b' 'lookbehind assertion is not fixed length' 0
# the bad pattern may come after good ones, and the others' order does not matter
"$bin" --strip-rust-hash --include ok "$f" --focus 'x)' -o out.svg >out 2>err; got=$?
[ "$got" -eq 2 ] && [ ! -e out.svg ] && grep -qF -- "--focus 'x)'" err && ok ||
    bad "late bad --focus: exit $got: $(cat err)"

echo "filters: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
