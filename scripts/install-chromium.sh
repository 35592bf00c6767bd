#!/usr/bin/env bash
# Installs Debian's `chromium` package for the documentation site's end-to-end test
# (xtask/tests/docs_e2e/ runs it headless). Does nothing when /usr/bin/chromium exists.
#
# Usage: scripts/install-chromium.sh        (as root, or with sudo available)
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "chromium is already installed: $CHROMIUM"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: $CHROMIUM is missing and apt-get is not available;" \
       "install Chromium with your system's package manager" >&2
  exit 1
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
  else
    echo "error: installing chromium needs root (run this script as root or install sudo)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
echo "installing chromium with apt-get (one time)..."
# The package lists may be missing or stale on a fresh machine: try the install first, then
# refresh the lists and try again.
if ! $SUDO apt-get install -y --no-install-recommends chromium; then
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends chromium
fi

if [ ! -x "$CHROMIUM" ]; then
  echo "error: apt-get finished but $CHROMIUM does not exist" >&2
  exit 1
fi
"$CHROMIUM" --version || true
echo "installed: $CHROMIUM"
