#!/bin/sh
# Folded output reads back to the same profile (docs/cli.md, "Names"): for Gecko, processed
# and perf inputs whose frame names are hostile (whitespace at either end, only whitespace,
# empty, ';', newline, carriage return, tab, a no-break space or U+3000 at an end or inside), profile -> folded -> folded
# gives the same text, and profile -> SVG and profile -> folded -> SVG draw the same frames
# (tests/tools/svgframes.py).
#   tests/roundtrip.sh BIN
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data
tools=$here/tools
# shellcheck source=tests/lib.sh
. "$here/lib.sh"

# The fixtures with their names made hostile, one way or another by their index.
python3 - "$data" <<'EOF'
import json, re, sys
data = sys.argv[1]
def hostile(i, s):
    k = i % 11
    return [s, " " + s, s + "  ", "\t" + s + " \n", s + ";x ", "   ", "", s + "\u00a0",
            "\r" + s + "\r", " a ;  b ", "\u3000x\u00a0" + s][k]
def strings(lst):
    return [hostile(i, s) if isinstance(s, str) else s for i, s in enumerate(lst)]
g = json.load(open(data + "/firefox/gecko-v24-sp1-style-probe-gecko_profile-0.4.0.json"))
for t in g["threads"]:
    t["stringTable"] = strings(t["stringTable"])
json.dump(g, open("gecko.json", "w"))
p = json.load(open(data + "/firefox/processed-v58-shared-stringArray.firefox-profiler.json"))
p["shared"]["stringArray"] = strings(p["shared"]["stringArray"])
json.dump(p, open("processed.json", "w"))
# perf: symbols with whitespace before their module, tabs, a symbol perf printed empty
lines = open(data + "/compat-perf/inputs/perf-funcab-cmd-01.txt", encoding="utf-8").read()
n = [0]
def frame(m):
    n[0] += 1
    pad = ["", "  ", "\t ", " \t  "][n[0] % 4]
    return m.group(1) + m.group(2) + pad + " (" + m.group(3) + ")"
open("perf.txt", "w").write(re.sub(r"^(\s+[0-9a-f]+ )(.*?) \((.*)\)$", frame, lines, flags=re.M))
EOF
cp "$data/compat-perf/inputs/perf-vertx-stacks-01.txt" vertx.txt

for input in gecko.json processed.json perf.txt vertx.txt; do
    # the count name is the profile's, not the folded text's: said the same for both
    flags="--countname units --minwidth 0"
    # shellcheck disable=SC2086
    "$bin" -q $flags "$input" -o a.folded || { bad "$input: profile -> folded failed"; continue; }
    # shellcheck disable=SC2086
    "$bin" -q $flags a.folded -o b.folded
    cp a.folded "$input.folded"
    if cmp -s a.folded b.folded; then ok; else
        bad "$input: folded -> folded changed it: $(diff a.folded b.folded | head -4)"
    fi
    # shellcheck disable=SC2086
    "$bin" -q $flags --hash "$input" -o direct.svg
    # shellcheck disable=SC2086
    "$bin" -q $flags --hash a.folded -o via.svg
    if python3 "$tools/svgframes.py" compare direct.svg via.svg >cmp.out; then ok; else
        bad "$input: profile -> SVG and profile -> folded -> SVG differ: $(head -c 400 cmp.out)"
    fi
    # and names with whitespace at their ends are drawn without it
    python3 "$tools/svgframes.py" list direct.svg >frames.tsv
    if awk -F '\t' '!/^#/ && ($9 ~ /^[ \t]/ || $9 ~ /[ \t]$/)' frames.tsv | grep -q .; then
        bad "$input: a label keeps whitespace at an end: $(awk -F '\t' '!/^#/ && ($9 ~ /^[ \t]/ || $9 ~ /[ \t]$/)' frames.tsv | head -2)"
    else
        ok
    fi
done
# the hostile names reached the pictures at all: ';' as ':', a no-break space inside a name
# kept, Unicode whitespace at a name's ends (U+00A0 after, U+3000 before) gone
cat gecko.json.folded processed.json.folded >all.folded
grep -q ':x' all.folded && ok || bad "the ';' names are not there: $(head -3 all.folded)"
grep -q "x$(printf '\302\240')" all.folded && ok || bad "the no-break space inside a name was trimmed"
nbsp=$(printf '\302\240'); ideo=$(printf '\343\200\200')
if grep -q -e "$nbsp;" -e "$nbsp " -e ";$ideo" -e "^$ideo" all.folded; then
    bad "whitespace at a name's end stayed: $(grep -m1 -e "$nbsp;" -e "$nbsp " -e ";$ideo" -e "^$ideo" all.folded)"
else
    ok
fi

finish roundtrip
