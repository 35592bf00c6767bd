#!/usr/bin/env bash
# Installs what the fuzz targets in fuzz/ need, only when missing (so a second run does
# nothing): cargo-fuzz, pinned, with `cargo install --locked` into $CARGO_HOME/bin
# (~/.cargo/bin), built in $CARGO_TARGET_DIR/cargo-fuzz-install (else target/...). The
# toolchain is the pinned one of rust-toolchain.toml: without a sanitizer (`-s none`, see
# scripts/fuzz.sh) cargo-fuzz passes only stable `-C` flags, so no nightly is needed (a
# machine may have no other toolchain). PMU_FUZZ_TOOLCHAIN names another rustup toolchain.
#
# Exit status: 0 when everything is ready; 2, with a note saying what is missing, when it
# cannot be installed here (no network to fetch the crate), so that CI can skip fuzzing
# instead of failing; 1 on any other error.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ_VERSION=0.13.2
if [ -n "${PMU_FUZZ_TOOLCHAIN:-}" ]; then
  if ! command -v rustup >/dev/null 2>&1 || ! rustup run "$PMU_FUZZ_TOOLCHAIN" rustc --version >/dev/null 2>&1; then
    echo "note: the toolchain PMU_FUZZ_TOOLCHAIN=$PMU_FUZZ_TOOLCHAIN is not installed"
    exit 2
  fi
fi
echo "toolchain: $(cd fuzz && rustc ${PMU_FUZZ_TOOLCHAIN:+"+$PMU_FUZZ_TOOLCHAIN"} --version)"

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
