#!/bin/sh
# Installs what building and testing foldsvg needs on Debian 12, only what is missing.
#   scripts/deps.sh          build dependencies
#   scripts/deps.sh test     plus what the test suite uses (Check, Chromium, Node.js, Dask)
set -eu
pkgs="build-essential cmake pkg-config libxml2-dev libyajl-dev libpcre2-dev zlib1g-dev libprotobuf-c-dev protobuf-c-compiler"
if [ "${1:-}" = test ]; then
    pkgs="$pkgs check python3 libxml2-utils chromium clang-format shellcheck python3-distributed"
    command -v node >/dev/null 2>&1 || pkgs="$pkgs nodejs npm"
fi
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "scripts/deps.sh: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >&2
fi
