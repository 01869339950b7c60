#!/bin/sh
# Builds foldsvg and renders the bundled example profile to example.svg.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFOLDSVG_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
build/foldsvg examples/example.folded -o example.svg
echo "wrote $(pwd)/example.svg"
