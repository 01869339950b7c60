#!/bin/sh
# Browser tests of the SVG script: headless Chromium (/usr/bin/chromium) driven by
# playwright-core. FOLDSVG_BIN names the binary that renders the SVGs (default build/foldsvg,
# relative to the repository root). Exits non-zero when a test fails.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
if [ ! -d node_modules/playwright-core ]; then
    # playwright-core's install script never downloads a browser; skip scripts anyway.
    npm ci --ignore-scripts --no-audit --no-fund >&2
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
exec node --test --test-reporter=spec "$here"/*.test.mjs
