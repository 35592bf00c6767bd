#!/usr/bin/env bash
# Installs what the fuzz targets in fuzz/ need, each only when missing (so a second run does
# nothing): a nightly Rust toolchain through rustup (libFuzzer's instrumentation needs
# nightly flags) and cargo-fuzz, pinned, with `cargo install --locked` into $CARGO_HOME/bin
# (~/.cargo/bin), built in $CARGO_TARGET_DIR/cargo-fuzz-install (else target/...).
#
# Exit status: 0 when everything is ready; 2, with a note saying what is missing, when it
# cannot be installed here (no rustup, no network to fetch a toolchain or the crate), so
# that CI can skip fuzzing instead of failing; 1 on any other error.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ_VERSION=0.13.2
toolchain=${PMU_FUZZ_TOOLCHAIN:-nightly}

if ! command -v rustup >/dev/null 2>&1; then
  echo "note: rustup is not installed; the fuzz targets need a nightly toolchain from it"
  exit 2
fi

if rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
  echo "toolchain: $(rustup run "$toolchain" rustc --version)"
else
  echo "installing the $toolchain toolchain (rustup toolchain install)"
  if ! rustup toolchain install "$toolchain" --profile minimal; then
    echo "note: could not install the $toolchain toolchain (no network?)"
    exit 2
  fi
fi

installed=$(cargo fuzz --version 2>/dev/null | awk '{print $2}' || true)
if [ "$installed" = "$CARGO_FUZZ_VERSION" ]; then
  echo "cargo-fuzz $installed: installed"
else
  echo "installing cargo-fuzz $CARGO_FUZZ_VERSION (was: ${installed:-none})"
  build_dir=${CARGO_TARGET_DIR:-$PWD/target}/cargo-fuzz-install
  if ! CARGO_TARGET_DIR=$build_dir cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION"; then
    echo "note: could not install cargo-fuzz $CARGO_FUZZ_VERSION from crates.io (no network?)"
    exit 2
  fi
fi
