#!/usr/bin/env bash
# Runs every fuzz target in fuzz/ for SECONDS each (default 60), then fails if any crashed.
#
#   scripts/install-fuzz.sh    # once: cargo-fuzz
#   scripts/fuzz.sh [SECONDS]
#
# The seeds are written by `cargo xtask fuzz-seeds` from the shipped definitions and the
# perfmon test fixtures into $CARGO_TARGET_DIR/fuzz/seeds/<target> (else target/...), with
# dictionaries of the YAML and perfmon keys (seeds/<target>.dict); what
# the fuzzer finds goes to .../fuzz/corpus/<target>, kept between runs. A crash (a panic, an
# input taking over TIMEOUT seconds, or over 2 GB of memory) is written to
# fuzz/artifacts/<target>/; reproduce it with
#   cd fuzz && cargo fuzz run -s none -a <target> artifacts/<target>/<file>
# and keep it as a regression test in tests/tests/robustness.rs (the harness is shared).
#
# Environment: FUZZ_TARGETS (default: all four), JOBS (targets run at a time, each on one
# core; default: the number of cores), TIMEOUT (default 30), PMU_FUZZ_TOOLCHAIN (a rustup
# toolchain; default: the pinned one of rust-toolchain.toml, which works: without a
# sanitizer cargo-fuzz passes only stable -C flags).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
timeout=${TIMEOUT:-30}
toolchain=${PMU_FUZZ_TOOLCHAIN:+"+$PMU_FUZZ_TOOLCHAIN"}
targets=${FUZZ_TARGETS:-load_gen import_perfmon encode decode}
root=$PWD
target_dir=${CARGO_TARGET_DIR:-$root/target}
work=$target_dir/fuzz

cargo xtask fuzz-seeds --out "$work/seeds"

cd fuzz
# The fuzz crate is its own workspace; build it once, with overflow checks and debug
# assertions on (-a: an arithmetic overflow is a finding, as it is a panic in the tests).
# No sanitizer (-s none): pmu-defs forbids unsafe code, and AddressSanitizer would cost
# most of the speed.
export CARGO_TARGET_DIR=$work
flags=(-s none -a)
cargo $toolchain fuzz build "${flags[@]}"

# One target: its log in $work/<target>.log, its exit status in $work/<target>.status.
run_target() {
  local t=$1 start status=0
  mkdir -p "$work/corpus/$t"
  start=$(date +%s)
  local dict=()
  if [ -f "$work/seeds/$t.dict" ]; then
    dict=(-dict="$work/seeds/$t.dict")
  fi
  cargo $toolchain fuzz run "${flags[@]}" "$t" "$work/corpus/$t" "$work/seeds/$t" -- \
    -max_total_time="$seconds" -timeout="$timeout" -print_final_stats=1 "${dict[@]}" \
    >"$work/$t.log" 2>&1 || status=$?
  echo "$status $(($(date +%s) - start))" >"$work/$t.status"
}

# JOBS targets at a time (default: one per core), each on one core.
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
echo "==> fuzzing ${targets// /, }: ${seconds} s each, ${jobs} at a time"
running=0
for t in $targets; do
  rm -f "$work/$t.status"
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

failed=()
for t in $targets; do
  read -r status took <"$work/$t.status" || status=1
  if [ "$status" = 0 ]; then
    runs=$(grep -aE 'stat::number_of_executed_units' "$work/$t.log" | awk '{print $2}')
    echo "    $t: ok, ${runs:-?} runs (${took:-?} s)"
  else
    grep -aE 'panicked at|ERROR: libFuzzer|SUMMARY|Test unit written' -A4 "$work/$t.log" | head -40 || true
    echo "    $t: FAILED (exit $status; log: $work/$t.log)"
    failed+=("$t")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found crashes in: ${failed[*]} (inputs in fuzz/artifacts/)"
  exit 1
fi
echo "fuzzing: no crash in $(echo "$targets" | wc -w) target(s), ${seconds} s each"
