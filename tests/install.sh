#!/bin/sh
# Installs the build into a temporary prefix and builds a program against the installed
# library twice, with pkg-config and with CMake's find_package, then renders through the
# public API. Usage: tests/install.sh BUILD_DIR SOURCE_DIR [STATIC_CLI:ON|OFF]
set -eu
build=$(realpath "$1"); src=$(realpath "$2")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
prefix="$work/prefix"
libdir=$(dirname "$(find "$prefix" -name 'libfoldsvg.so' | head -n 1)")
for f in bin/foldsvg include/foldsvg.h share/man/man1/foldsvg.1 share/bash-completion/completions/foldsvg; do
    [ -e "$prefix/$f" ] || { echo "FAIL not installed: $f"; exit 1; }
done
[ -e "$libdir/libfoldsvg.a" ] && [ -e "$libdir/pkgconfig/foldsvg.pc" ] &&
    [ -e "$libdir/cmake/foldsvg/foldsvgConfig.cmake" ] || { echo "FAIL library files missing"; exit 1; }
# The program needs the system's shared libxml2, unless the build linked its dependencies'
# archives in (FOLDSVG_STATIC_CLI, the third argument).
needed=$(objdump -p "$prefix/bin/foldsvg" | awk '/NEEDED/ {print $2}')
chain=$(echo "$needed" | grep -E '^lib(xml2|icu|stdc\+\+|lzma|yajl|pcre2|z\.|gcc_s)' || true)
case "${3:-OFF}" in
ON) [ -z "$chain" ] || { echo "FAIL the program links dependencies shared: $chain"; exit 1; } ;;
*) echo "$chain" | grep -q '^libxml2' || { echo "FAIL the program does not need libxml2.so: $needed"; exit 1; } ;;
esac
echo "$needed" | grep -q '^libc\.so' || { echo "FAIL the program needs no libc? $needed"; exit 1; }
soname=$(objdump -p "$libdir/libfoldsvg.so" | awk '/SONAME/ {print $2}')
[ "$soname" = libfoldsvg.so.1 ] || { echo "FAIL soname is '$soname'"; exit 1; }
# internal symbols stay hidden
if nm -D --defined-only "$libdir/libfoldsvg.so" | awk '{print $3}' | grep -v '^foldsvg_' | grep -q .; then
    echo "FAIL the shared library exports non-API symbols:"; nm -D --defined-only "$libdir/libfoldsvg.so" | grep -v ' foldsvg_' | head; exit 1
fi

# pkg-config (its flags are words to split)
# shellcheck disable=SC2046
PKG_CONFIG_PATH="$libdir/pkgconfig" cc -std=c11 -Wall -Werror -o "$work/rec-pc" "$src/examples/record.c" \
    $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs foldsvg) -Wl,-rpath,"$libdir"
"$work/rec-pc" "$work/pc.svg" >/dev/null
grep -q 'keccak256 (120,000 cycles' "$work/pc.svg" || { echo "FAIL pkg-config program output"; exit 1; }
"$work/rec-pc" "$work/pc.folded" >/dev/null
grep -qx 'main;verify_block;keccak256 120000' "$work/pc.folded" || { echo "FAIL folded output"; exit 1; }
grep -qx 'main;parse_tx;Vec<\[u8: 32\]>::decode 34950' "$work/pc.folded" || { echo "FAIL sanitized name"; exit 1; }

# CMake find_package
mkdir -p "$work/cm"
cat >"$work/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.18)
project(rec C)
find_package(foldsvg 0.1 REQUIRED)
add_executable(rec "$src/examples/record.c")
target_link_libraries(rec PRIVATE foldsvg::foldsvg)
CM
cmake -S "$work/cm" -B "$work/cm/b" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cm/b" >/dev/null
LD_LIBRARY_PATH="$libdir" "$work/cm/b/rec" "$work/cm.svg" >/dev/null
cmp -s "$work/pc.svg" "$work/cm.svg" || { echo "FAIL the two builds render differently"; exit 1; }
# the completion offers the options that --help lists
words=$(PATH="$prefix/bin:$PATH" bash -c ". '$prefix/share/bash-completion/completions/foldsvg'
COMP_WORDS=(foldsvg --col); COMP_CWORD=1; _foldsvg; echo \"\${COMPREPLY[*]}\"
COMP_WORDS=(foldsvg --colors ja); COMP_CWORD=2; _foldsvg; echo \"\${COMPREPLY[*]}\"")
[ "$words" = "--collapse-recursion --colordiffusion --colors
java" ] || { echo "FAIL bash completion: $words"; exit 1; }
echo "install: 1 passed, 0 failed"
