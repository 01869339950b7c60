#!/bin/sh
# Every C file follows .clang-format (exit 77, "skipped", when clang-format is missing).
set -u
cd "$(dirname "$0")/.." || exit 1
command -v clang-format >/dev/null 2>&1 || { echo "format: clang-format not installed"; exit 77; }
bad=0; n=0
for f in $(git ls-files '*.c' '*.h' 2>/dev/null || find include src tests fuzz examples bench -name '*.[ch]'); do
    n=$((n + 1))
    clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || { echo "not formatted: $f"; bad=$((bad + 1)); }
done
echo "format: $((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
