#!/bin/sh
# Renders an SVG or HTML file to PNG with headless Chromium, to look at what foldsvg drew.
#   scripts/snapshot.sh IN.svg OUT.png [WIDTHxHEIGHT]
set -eu
in=$(realpath "$1"); out=$(realpath -m "$2"); size=${3:-1220x700}
profile=$(mktemp -d); trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --window-size="${size%x*},${size#*x}" \
    --screenshot="$out" "file://$in" >/dev/null 2>&1
echo "$out"
