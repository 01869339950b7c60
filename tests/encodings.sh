#!/bin/sh
# Text encodings (docs/cli.md "Inputs"): a UTF-8 byte-order mark is dropped, UTF-16 LE and BE
# with a mark are decoded, for every reader (folded text, Firefox-Profiler JSON, perf script
# output), plain or gzip, from a file or standard input: the output is the UTF-8 input's.
# Unpaired surrogates become U+FFFD. (Formats foldsvg does not read: tests/badinput.)
#   tests/encodings.sh BIN
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data
# shellcheck source=tests/lib.sh
. "$here/lib.sh"

# encode IN OUT ENC: IN (UTF-8) re-encoded: bom (UTF-8 with a mark), le, be (UTF-16 with one)
encode() {
    python3 - "$1" "$2" "$3" <<'EOF'
import sys
src, dst, enc = sys.argv[1:]
t = open(src, "rb").read().decode("utf-8", "surrogateescape")
if enc == "bom":
    b = b"\xef\xbb\xbf" + t.encode("utf-8", "surrogateescape")
else:
    b = (b"\xff\xfe" if enc == "le" else b"\xfe\xff") + t.encode("utf-16-" + enc, "surrogatepass")
open(dst, "wb").write(b)
EOF
}

printf 'main;parse;lex 30\r\nmain;caf\303\251;\360\237\230\200 10\r\nmain;render 60\r\n' >folded.txt
zcat -f "$data/firefox/processed-v49-samply-style.firefox-profiler.json.gz" >processed.json
cp "$data/firefox/gecko-v24-sp1-style-probe-gecko_profile-0.4.0.json" gecko.json
cp "$data/firefox/schema-after-data.json" reread.json # read twice in places
cp "$data/compat-perf/inputs/perf-java-stacks-01.txt" perf.txt
for input in folded.txt processed.json gecko.json reread.json perf.txt; do
    "$bin" -q "$input" -o want.folded || { bad "$input: the UTF-8 input fails"; continue; }
    "$bin" -q "$input" --hash -o want.svg
    for enc in bom le be; do
        encode "$input" "$enc.$input" "$enc"
        if "$bin" -q "$enc.$input" -o got.folded && cmp -s got.folded want.folded; then ok; else
            bad "$input as $enc: $(diff want.folded got.folded | head -3)"
        fi
        gzip -c "$enc.$input" >"$enc.$input.gz"
        if "$bin" -q - -o got.folded <"$enc.$input.gz" && cmp -s got.folded want.folded; then ok; else
            bad "$input as $enc, gzip on stdin"
        fi
        if "$bin" -q "$enc.$input" --hash -o got.svg && cmp -s got.svg want.svg; then ok; else
            bad "$input as $enc: the SVG differs"
        fi
    done
done
# the mark never becomes part of the first frame's name
encode folded.txt bom.folded bom
"$bin" -q bom.folded -o bom.svg
grep -q "$(printf '\357\273\277')" bom.svg && bad "the UTF-8 mark is in the SVG" || ok
grep -q '<title>main (100 cycles, 100.00%)</title>' bom.svg && ok || bad "main is not the root"
# --list-threads reads UTF-16 too
encode gecko.json le.gecko.json le
"$bin" --list-threads gecko.json >want.threads
"$bin" --list-threads le.gecko.json >got.threads
cmp -s want.threads got.threads && [ -s got.threads ] && ok || bad "--list-threads of UTF-16"
# unpaired surrogates and an odd last byte: U+FFFD
printf '\377\376a\000;\000\000\334 \0005\000\n\000b\000;\000\075\330 \0003\000\n\000' >surrogates.folded
"$bin" -q surrogates.folded -o got.folded
printf 'a;\357\277\275 5\nb;\357\277\275 3\n' >want.folded
cmp -s got.folded want.folded && ok || bad "unpaired surrogates: $(od -c got.folded | head -3)"
printf '\376\377\000a\000 \0001\000' >odd.folded
rm -f got.folded
"$bin" odd.folded -o got.folded 2>err
# the odd byte ends the count as U+FFFD: the one line is invalid
[ $? -eq 1 ] && [ ! -e got.folded ] && grep -q 'odd.folded:1: .*not a stack' err && ok ||
    bad "odd last byte: $(cat err)"

finish encodings
