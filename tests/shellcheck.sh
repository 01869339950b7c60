#!/bin/sh
# Every POSIX shell script of the project passes shellcheck's warnings as POSIX sh (what Debian's
# dash runs); a word split or a non-POSIX feature that is meant says so in a directive with
# its reason (exit 77, "skipped", when shellcheck is missing).
set -u
cd "$(dirname "$0")/.." || exit 1
command -v shellcheck >/dev/null 2>&1 || { echo "shellcheck: not installed"; exit 77; }
bad=0; n=0
for f in $(git ls-files '*.sh' 2>/dev/null || find bench scripts tests -name '*.sh') .ci/run; do
    n=$((n + 1))
    shellcheck -s sh -S warning "$f" || { echo "shellcheck: $f"; bad=$((bad + 1)); }
done
echo "shellcheck: $((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
