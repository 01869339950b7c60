#!/bin/sh
# --flamechart of folded text streams (src/frames/stream.c in any order, mirrored at the end):
# its SVG and summary must be byte for byte those of the frame tree's flame chart (the route
# a named pipe takes, which the compat suite checks against inferno), on inputs made to hit
# what a flame chart has and a sorted input has not: a stack that ends where the one before
# went on, the same stack again, names with bytes below ';' (':', ' ', '!'), zero counts,
# several inputs; at any --minwidth, inverted or not; from a file, standard input that is a
# file, and a pipe.
#   tests/flamechart.sh BIN
set -u
bin=$(realpath "$1"); tools=$(cd "$(dirname "$0")" && pwd)/tools
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

python3 - <<'PY'
import random
names = ["a", "b", "ab", "a:b", "a b", "a!", "c", "main", "x0", "x", "\u00e9", "a-", "zz"]
for seed in range(1, 61):
    rng = random.Random(seed)
    cur, out = [], []
    for _ in range(rng.randint(1, 300)):
        r = rng.random()
        if r < 0.15 and out:  # the same stack again
            out.append(out[-1].rsplit(" ", 1)[0] + " " + str(rng.randint(0, 50)))
            continue
        if r < 0.35 and cur:  # a stack that ends where the one before went on
            cur = cur[: rng.randint(1, len(cur))]
        elif r < 0.6 and cur:  # shares some outer frames
            cur = cur[: rng.randint(1, len(cur))] + [rng.choice(names) for _ in range(rng.randint(1, 4))]
        else:
            cur = [rng.choice(names) for _ in range(rng.randint(1, 8))]
        out.append(";".join(cur) + " " + str(rng.choice([1, 1, 2, 3, 10, 100, 1000, 0])))
    with open("in%d.folded" % seed, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
PY

# through the frame tree: the input read from a named pipe, which cannot be read twice
tree() { # tree OUT ARGS... -- INPUTS...
    out=$1; shift
    args=""
    while [ "$1" != -- ]; do args="$args $1"; shift; done
    shift
    pipes=""; i=0
    for input in "$@"; do
        i=$((i + 1)); rm -f "p$i"; mkfifo "p$i"; cat "$input" >"p$i" &
        pipes="$pipes p$i"
    done
    # shellcheck disable=SC2086
    "$bin" --flamechart $args $pipes -o "$out" 2>"$out.err"
    echo $? >"$out.rc"
    wait
    sed 's/p[0-9][0-9]*/IN/g' "$out.err" >"$out.msg"
}
stream() { # stream OUT ARGS... -- INPUTS...
    out=$1; shift
    args=""
    while [ "$1" != -- ]; do args="$args $1"; shift; done
    shift
    # shellcheck disable=SC2086
    "$bin" --flamechart $args "$@" -o "$out" 2>"$out.err"
    echo $? >"$out.rc"
    sed 's/in[0-9]*\.folded/IN/g' "$out.err" >"$out.msg"
}
same() { # same NAME A B: SVG, exit code and message
    if cmp -s "$2" "$3" && cmp -s "$2.rc" "$3.rc" && cmp -s "$2.msg" "$3.msg"; then
        ok
    else
        bad "$1: $2 and $3 differ"
    fi
}

s=1
while [ $s -le 60 ]; do
    case $((s % 4)) in
    0) args="--hash --minwidth 0" ;;
    1) args="--hash" ;;
    2) args="--hash --minwidth 2 --inverted" ;;
    *) args="--minwidth 0.5" ;; # the default colors: random draws, the same in both
    esac
    tree t.svg $args -- "in$s.folded"
    stream s.svg $args -- "in$s.folded"
    if [ "$(cat t.svg.rc)" = 0 ]; then ok; else bad "case $s: the tree's run failed: $(cat t.svg.err)"; fi
    same "case $s ($args)" t.svg s.svg
    s=$((s + 1))
done

# nothing to draw (zero counts only: an error, exit 1), and invalid lines skipped (a
# warning): the same message either way
printf 'a;b 0\nc 0\n' >zero.folded
printf 'a;b 3\ngarbage\nbad line x\nc 1\n' >warn.folded
for kind in zero warn; do
    tree t.svg --hash -- $kind.folded
    stream s.svg --hash -- $kind.folded
    sed -i "s/$kind\.folded/IN/g" s.svg.msg
    same "$kind" t.svg s.svg
done
if [ "$(cat s.svg.rc)" = 0 ] && grep -q 'ignored 2 lines' s.svg.msg; then ok; else bad "no warning: $(cat s.svg.msg)"; fi

# several inputs, read as one in their order
tree t.svg --hash -- in3.folded in4.folded in5.folded
stream s.svg --hash -- in3.folded in4.folded in5.folded
same "three inputs" t.svg s.svg

# standard input that is a regular file, and a pipe (copied for a second reading it does not
# need): the file's own picture
stream f.svg --hash -- in7.folded
"$bin" --flamechart --hash -o i.svg <in7.folded 2>i.svg.err; echo $? >i.svg.rc
sed 's/<stdin>/IN/g' i.svg.err >i.svg.msg
same "standard input from the file" f.svg i.svg
cat in7.folded | "$bin" --flamechart --hash -o c.svg 2>c.svg.err; echo $? >c.svg.rc
sed 's/<stdin>/IN/g' c.svg.err >c.svg.msg
same "standard input from a pipe" f.svg c.svg

# a profile's chart through a pipe: read once, by the frame tree, from where the format was
# recognized (the copy a pipe needs for a second reading is not made for a chart)
python3 "$tools/gen_sp1_profile.py" -n 3000 --stacks 60 --seed 5 -o sp1.json >/dev/null 2>&1 ||
    bad "gen_sp1_profile.py failed"
"$bin" --flamechart --hash sp1.json -o jf.svg 2>jf.svg.err; echo $? >jf.svg.rc
sed 's/sp1\.json/IN/g' jf.svg.err >jf.svg.msg
cat sp1.json | "$bin" --flamechart --hash -o jp.svg 2>jp.svg.err; echo $? >jp.svg.rc
sed 's/<stdin>/IN/g' jp.svg.err >jp.svg.msg
same "a profile from a pipe" jf.svg jp.svg
if [ "$(cat jp.svg.rc)" = 0 ] && grep -q 'Flame Chart' jp.svg; then ok; else bad "profile chart: $(cat jp.svg.err)"; fi

# standard input from a pipe with a profile after it: the profile reads both again, the pipe
# from its copy; and before it
printf 'a;b 5\nc 2\n' >mix.folded
"$bin" --flamechart --hash mix.folded sp1.json -o mf.svg 2>mf.svg.err; echo $? >mf.svg.rc
sed 's/mix\.folded/IN/g' mf.svg.err >mf.svg.msg
cat mix.folded | "$bin" --flamechart --hash - sp1.json -o mp.svg 2>mp.svg.err; echo $? >mp.svg.rc
sed 's/<stdin>/IN/g' mp.svg.err >mp.svg.msg
same "a pipe, then a profile" mf.svg mp.svg
"$bin" --flamechart --hash sp1.json mix.folded -o mg.svg 2>mg.svg.err; echo $? >mg.svg.rc
sed 's/mix\.folded/IN/g' mg.svg.err >mg.svg.msg
cat mix.folded | "$bin" --flamechart --hash sp1.json - -o mq.svg 2>mq.svg.err; echo $? >mq.svg.rc
sed 's/<stdin>/IN/g' mq.svg.err >mq.svg.msg
same "a profile, then a pipe" mg.svg mq.svg

# the title says what it is
if grep -q '>Flame Chart</text>' s.svg; then ok; else bad "no Flame Chart title"; fi

echo "flamechart: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
