#!/bin/sh
# How the build tree's foldsvg is linked. By default as a distribution links it: the system's
# shared libxml2 (and yajl, PCRE2, zlib) are needed at run time, foldsvg's own code is inside
# (no libfoldsvg.so needed to run it from the build tree), and the file stays under 2 MB.
# With FOLDSVG_STATIC_CLI (the second argument ON) none of libxml2's chain is needed.
#   tests/linkage.sh BIN [STATIC_CLI:ON|OFF]
set -u
bin=$1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

needed=$(readelf -dW "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] && ok || bad "readelf finds no NEEDED entry in $bin"
echo "$needed" | grep -q '^libc\.so' && ok || bad "the program needs no libc? $needed"
echo "$needed" | grep -q '^libfoldsvg' && bad "the program needs libfoldsvg: $needed" || ok
(unset LD_LIBRARY_PATH; "$bin" --version >/dev/null 2>&1) && ok || bad "$bin --version does not run"
case "${2:-OFF}" in
ON)
    chain=$(echo "$needed" | grep -E '^lib(xml2|icu|stdc\+\+|lzma|yajl|pcre2|z\.)' || true)
    [ -z "$chain" ] && ok || bad "the static program needs shared libraries: $chain"
    ;;
*)
    for lib in libxml2 libyajl libpcre2-8 libz; do
        echo "$needed" | grep -q "^$lib\.so" && ok || bad "the program does not need $lib.so: $needed"
    done
    # and the loader finds them (ldd lists what it resolved, each to a file)
    ldd "$bin" | grep -q 'libxml2\.so.* => /' && ok || bad "ldd does not resolve libxml2: $(ldd "$bin")"
    size=$(wc -c <"$bin")
    [ "$size" -lt 2000000 ] && ok || bad "the program is $size bytes, not under 2 MB"
    ;;
esac

echo "linkage: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
