#!/bin/sh
# The option table (foldsvg --list-options) against --help and the completion: --help lists
# every option (the documents are checked against the same table by tests/tools/check_docs.py),
# and the bash completion takes its option names from the table and offers, for options with a
# fixed set of values, exactly the words the option accepts.
#   tests/options.sh BIN SOURCE_DIR
set -u
bin=$1; src=$2
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

"$bin" --list-options >"$work/table" || bad "--list-options exits non-zero"
[ "$(wc -l <"$work/table")" -gt 40 ] && ok || bad "--list-options lists too few options"
awk -F'\t' 'NF != 5 || ($3 != 0 && $3 != 1) || $4 !~ /^(input|stack|render|report|cli)$/ { print; bad = 1 }
    END { exit bad }' "$work/table" >"$work/malformed" && ok || bad "malformed rows: $(head -n 3 "$work/malformed")"
cut -f1 "$work/table" >"$work/names"

# --help: every option the table gives help for, with its short form
"$bin" --help >"$work/help"
awk -F'\t' '{ print $1, ($2 == "" ? "-" : $2) }' "$work/table" >"$work/shorts"
while read -r name short; do
    grep -q -- "--$name\\b" "$work/help" && ok || bad "--help does not list --$name"
    if [ "$short" != - ]; then
        grep -q -- "-$short, --$name\\b" "$work/help" && ok || bad "--help lacks -$short, --$name"
    fi
done <"$work/shorts"

# completion: the names come from the table, the value words from what options accept
comp="$src/completions/foldsvg.bash"
grep -q -- '--list-options' "$comp" && ok || bad "the completion does not read --list-options"
# the words "invalid value" names as expected, without the connectives
accepted() {
    "$bin" "$@" x "$src/examples/example.folded" -o "$work/out.svg" 2>&1 |
        sed 's/.*expected //; s/one of //; s/ or /, /g; s/, /\n/g' | grep -v '^#rrggbb$' | sort
}
offered() {
    grep -A1 -- "$1)" "$comp" | grep -o 'compgen -W "[^"]*"' | head -n 1 |
        sed 's/compgen -W "//; s/"$//' | tr ' ' '\n' | sort
}
for opt in --colors --bgcolors --format --top-format --weight --theme; do
    case $opt in --top-format) extra="--top 1" ;; *) extra="" ;; esac
    # shellcheck disable=SC2086
    accepted $extra "$opt" >"$work/accepted"
    offered "$opt" >"$work/offered"
    if [ -s "$work/accepted" ] && cmp -s "$work/accepted" "$work/offered"; then
        ok
    else
        bad "completion of $opt offers $(tr '\n' ' ' <"$work/offered")but it accepts $(tr '\n' ' ' <"$work/accepted")"
    fi
done
# the completion at work, with this binary as foldsvg
if command -v bash >/dev/null 2>&1; then
    mkdir "$work/bin" && ln -s "$(realpath "$bin")" "$work/bin/foldsvg"
    got=$(PATH="$work/bin:$PATH" bash -c '. "$1"; COMP_WORDS=(foldsvg --list-o); COMP_CWORD=1
        _foldsvg; echo "${COMPREPLY[*]}"' sh "$comp")
    [ "$got" = "--list-options" ] && ok || bad "completing --list-o gives '$got'"
    got=$(PATH="$work/bin:$PATH" bash -c '. "$1"; COMP_WORDS=(foldsvg --title ""); COMP_CWORD=2
        _foldsvg; echo "${#COMPREPLY[@]}"' sh "$comp")
    [ "$got" = 0 ] && ok || bad "a value of --title completes to $got words"
fi
echo "options: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
