#!/usr/bin/env bash
# Installs axe-core (Deque's accessibility rules engine) for the documentation site's
# accessibility test (xtask/tests/docs_e2e/a11y.rs runs it in headless Chromium).
#
# The version is pinned by scripts/a11y-tools/package.json and its package-lock.json; `npm ci`
# installs exactly that (no install scripts run) into target/a11y-tools/node_modules, so
# nothing is written outside target/. Does nothing when that tree is already installed and
# matches the lock file.
#
# Exit status: 0 when axe.min.js is ready; 2, with a note, when it cannot be installed here
# (no node/npm, or no network to reach the npm registry), so that the test can skip with that
# note instead of failing; 1 on any other error.
#
# Usage: scripts/install-axe.sh [DEST]     (default: <workspace>/target/a11y-tools)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/scripts/a11y-tools"
DEST="${1:-$ROOT/target/a11y-tools}"
AXE="$DEST/node_modules/axe-core/axe.min.js"
STAMP="$DEST/.installed-lock"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "note: \`$tool\` is not installed, so axe-core cannot be installed (apt-get install nodejs npm)"
    exit 2
  fi
done

if [ -f "$AXE" ] && [ -f "$STAMP" ] && cmp -s "$SRC/package-lock.json" "$STAMP"; then
  echo "axe-core is already installed: $AXE"
  exit 0
fi

mkdir -p "$DEST"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
rm -f "$STAMP"
echo "installing axe-core with npm ci into $DEST (one time)..."
if ! (cd "$DEST" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error); then
  echo "note: npm ci could not install axe-core (no network to the npm registry?)"
  exit 2
fi
if [ ! -f "$AXE" ]; then
  echo "error: npm ci finished but $AXE does not exist" >&2
  exit 1
fi
cp "$SRC/package-lock.json" "$STAMP"
echo "installed: axe-core $(node -p "require('$DEST/node_modules/axe-core/package.json').version") at $AXE"
