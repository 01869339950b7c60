# shellcheck shell=sh
# Shared by the shell suites that source it (tests/messages.sh, encodings.sh, roundtrip.sh):
# a scratch folder to work in, removed at exit, and the counting checks.
#   . "$here/lib.sh"   (after bin= and here= are set)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# expect CODE NAME CMD...: runs CMD, checks its exit code; stdout in out, stderr in err
expect() {
    code=$1; name=$2; shift 2
    "$@" >out 2>err; got=$?
    if [ "$got" -eq "$code" ]; then ok; else bad "$name: exit $got, expected $code; stderr: $(head -c 300 err)"; fi
}
has() { # has NAME FILE TEXT: FILE contains TEXT
    if grep -qF -- "$3" "$2"; then ok; else bad "$1: '$3' not in $2: $(head -c 400 "$2")"; fi
}
hasnt() { # hasnt NAME FILE TEXT
    if grep -qF -- "$3" "$2"; then bad "$1: '$3' in $2: $(head -c 400 "$2")"; else ok; fi
}
# finish SUITE: the closing line, and the exit status
finish() {
    echo "$1: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
