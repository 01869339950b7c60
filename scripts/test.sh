#!/bin/sh
# Builds foldsvg twice (warnings as errors; then with AddressSanitizer + UndefinedBehavior-
# Sanitizer, leaks counted as failures) and runs the whole test suite with each: Check unit
# suites, golden files, the inferno compat cases, and (in the first build) the browser tests.
# Every option the suite relies on is passed, so whatever configured build/ before (e.g.
# scripts/example.sh, which turns the tests off) the whole suite runs; a build that finds
# no test fails.
# FOLDSVG_CONFIGURE_ONLY=DIR only configures the two builds, in DIR/build and
# DIR/build-asan (tests/testsh.sh checks what they would run).
set -eu
cd "$(dirname "$0")/.."
top=${FOLDSVG_CONFIGURE_ONLY:-.}
[ -n "${FOLDSVG_CONFIGURE_ONLY:-}" ] || sh scripts/deps.sh test
jobs=$(nproc)
suite="-DFOLDSVG_TESTS=ON -DFOLDSVG_WERROR=ON -DFOLDSVG_FUZZ=OFF"

# shellcheck disable=SC2086
cmake -S . -B "$top/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo $suite -DFOLDSVG_SANITIZE=OFF \
    -DFOLDSVG_BROWSER_TESTS=ON >/dev/null
# shellcheck disable=SC2086
cmake -S . -B "$top/build-asan" -DCMAKE_BUILD_TYPE=Debug $suite -DFOLDSVG_SANITIZE=ON \
    -DFOLDSVG_BROWSER_TESTS=OFF >/dev/null
[ -z "${FOLDSVG_CONFIGURE_ONLY:-}" ] || exit 0

cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure --no-tests=error -j"$jobs")

cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --output-on-failure --no-tests=error -j"$jobs")
