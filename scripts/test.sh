#!/bin/sh
# Builds foldsvg twice (warnings as errors; then with AddressSanitizer + UndefinedBehavior-
# Sanitizer, leaks counted as failures) and runs the whole test suite with each: Check unit
# suites, golden files, the inferno compat cases, and (once) the browser tests.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh test
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFOLDSVG_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFOLDSVG_WERROR=ON -DFOLDSVG_SANITIZE=ON \
    -DFOLDSVG_BROWSER_TESTS=OFF >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j"$jobs")
