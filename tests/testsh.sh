#!/bin/sh
# The README's two commands in order: whatever scripts/example.sh (or anyone) left in the
# build folders' caches, scripts/test.sh's builds register the whole suite, browser tests in
# the plain build. Configures only (FOLDSVG_CONFIGURE_ONLY), in a scratch folder.
#   tests/testsh.sh SOURCE_DIR
set -u
root=$(realpath "$1")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# scripts/example.sh's own configure line, into the scratch folder
line=$(grep -E '^cmake -S \. -B build ' "$root/scripts/example.sh")
if [ -z "$line" ]; then
    bad "no 'cmake -S . -B build ...' line in scripts/example.sh"
else
    (cd "$root" && eval "$(printf '%s\n' "$line" | sed "s#-B build #-B '$work/build' #")") && ok ||
        bad "example.sh's configure line failed: $line"
fi
# and a build-asan left with everything off
cmake -S "$root" -B "$work/build-asan" -DFOLDSVG_TESTS=OFF -DFOLDSVG_SANITIZE=OFF \
    -DFOLDSVG_BROWSER_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 && ok || bad "configure build-asan"
[ -z "$(cd "$work/build" && ctest -N 2>/dev/null | grep 'Test *#')" ] && ok ||
    bad "example.sh's build already registers tests: this test checks nothing"

if FOLDSVG_CONFIGURE_ONLY="$work" sh "$root/scripts/test.sh" >"$work/log" 2>&1; then ok; else
    bad "scripts/test.sh (configure only) failed: $(head -c 400 "$work/log")"
fi
listed() { (cd "$work/$1" && ctest -N 2>/dev/null) | sed -n 's/^ *Test *#[0-9]*: //p'; }
for t in browser compat golden cli docs tools reports unsorted filters badinput hostile test_firefox; do
    listed build | grep -qx "$t" && ok || bad "build does not register '$t'"
done
for t in compat golden cli reports unsorted badinput test_firefox; do
    listed build-asan | grep -qx "$t" && ok || bad "build-asan does not register '$t'"
done
listed build-asan | grep -qx browser && bad "build-asan registers the browser tests" || ok
grep -q '^FOLDSVG_SANITIZE:BOOL=ON$' "$work/build-asan/CMakeCache.txt" && ok || bad "build-asan is not sanitized"
grep -q '^CMAKE_BUILD_TYPE:STRING=RelWithDebInfo$' "$work/build/CMakeCache.txt" && ok ||
    bad "build keeps another build type: $(grep '^CMAKE_BUILD_TYPE' "$work/build/CMakeCache.txt")"

echo "testsh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
