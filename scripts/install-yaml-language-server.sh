#!/usr/bin/env bash
# Installs Red Hat's yaml-language-server (the YAML back end of VS Code, Neovim, Helix, Zed)
# for the editor end-to-end test (tests/tests/editor_lsp.rs drives it over LSP stdio).
#
# The version is pinned by scripts/editor-tools/package.json and every dependency by its
# package-lock.json; `npm ci` installs exactly that tree (no install scripts run) into
# target/editor-tools/node_modules, so nothing is written outside target/. Does nothing when
# that tree is already installed and matches the lock file.
#
# Usage: scripts/install-yaml-language-server.sh [DEST]     (default: <workspace>/target/editor-tools)
#
# Needs node (>= 14; yaml-language-server 2.x would need >= 22.13, hence the 1.x pin) and npm.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/scripts/editor-tools"
DEST="${1:-$ROOT/target/editor-tools}"
SERVER="$DEST/node_modules/yaml-language-server/bin/yaml-language-server"
STAMP="$DEST/.installed-lock"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: \`$tool\` is not installed; install Node.js (>= 14) with npm" \
         "(e.g. apt-get install nodejs npm) and run this script again" >&2
    exit 1
  fi
done

if [ -f "$SERVER" ] && [ -f "$STAMP" ] && cmp -s "$SRC/package-lock.json" "$STAMP"; then
  echo "yaml-language-server is already installed: $SERVER"
  exit 0
fi

mkdir -p "$DEST"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
rm -f "$STAMP"
echo "installing yaml-language-server with npm ci into $DEST (one time)..."
(
  cd "$DEST"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
)

if [ ! -f "$SERVER" ]; then
  echo "error: npm ci finished but $SERVER does not exist" >&2
  exit 1
fi
cp "$SRC/package-lock.json" "$STAMP"
echo "installed: yaml-language-server $(node -p "require('$DEST/node_modules/yaml-language-server/package.json').version") at $SERVER"
