#!/usr/bin/env bash
# Clean-build times (issue 12 §4, §6): a binary that uses pmu-regs with one model, with every
# model, with every model and facility (every module of the crate), with default features, and
# the same against the `x86` crate with and without its
# `performance-counter` feature (its event tables). Each case is its own scratch crate under
# target/bench-build/ with its own target directory, built from scratch (dependencies
# included) `ROUNDS` times, the cases in turn, under /usr/bin/time -v: wall seconds and the peak
# resident memory of the largest process (a rustc). The `x86` crate is fetched from crates.io
# for the scratch crates only; pmu-regs never depends on it.
#
#   scripts/bench-build.sh [ROUNDS]        # default 2 rounds; PROFILE=release for release
#
# Prints one line per build and a table of medians (Markdown) at the end, with the machine's
# load average before and after.
set -euo pipefail

ROUNDS=${1:-2}
PROFILE=${PROFILE:-dev}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK="$ROOT/target/bench-build"
X86_VERSION=0.52.0
mkdir -p "$WORK"

# case name -> dependency line
declare -A DEPS=(
  [pmu-regs-default]="pmu-regs = { path = \"$ROOT/pmu-regs\" }"
  [pmu-regs-skylake]="pmu-regs = { path = \"$ROOT/pmu-regs\", features = [\"intel-skylake\"] }"
  [pmu-regs-all-models]="pmu-regs = { path = \"$ROOT/pmu-regs\", features = [\"all-models\"] }"
  [pmu-regs-everything]="pmu-regs = { path = \"$ROOT/pmu-regs\", features = [\"all-models\", \"all-facilities\"] }"
  [x86]="x86 = \"=$X86_VERSION\""
  [x86-performance-counter]="x86 = { version = \"=$X86_VERSION\", features = [\"performance-counter\"] }"
)
CASES=(pmu-regs-default pmu-regs-skylake pmu-regs-all-models pmu-regs-everything x86 x86-performance-counter)

# The binary touches the crate so that it is linked, not only compiled.
main_for() {
  case "$1" in
    pmu-regs-*) echo 'fn main() { println!("{:#x}", pmu_regs::intel::v4::IA32_PERFEVTSEL::BASE_ADDRESS); }' ;;
    x86*) echo 'fn main() { println!("{:#x}", x86::msr::IA32_PERFEVTSEL0); }' ;;
  esac
}

for c in "${CASES[@]}"; do
  d="$WORK/$c"
  mkdir -p "$d/src"
  cat >"$d/Cargo.toml" <<EOF
[package]
name = "bench-build-$c"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
${DEPS[$c]}

[workspace]
EOF
  main_for "$c" >"$d/src/main.rs"
  # Dependencies downloaded once, outside the timed builds.
  (cd "$d" && cargo fetch --quiet)
done

flag=()
[ "$PROFILE" = release ] && flag=(--release)
# Cargo compiles a path dependency incrementally, a crates.io (or git) one never: without
# this, pmu-regs (a path dependency here) would pay for incremental compilation (about 40 % of
# its build) that no user depending on a published pmu-regs pays, while `x86` (from
# crates.io) would not. Off for every case, so both are built as a user builds them.
export CARGO_INCREMENTAL=0
results="$WORK/results.tsv"
: >"$results"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
  for c in "${CASES[@]}"; do
    d="$WORK/$c"
    rm -rf "$d/target"
    log="$WORK/$c.time"
    (cd "$d" && /usr/bin/time -v cargo build --quiet --offline "${flag[@]}" 2>"$log" >/dev/null) || {
      cat "$log"
      exit 1
    }
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$log")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$log")
    printf '%s\t%s\t%s\t%s\n' "$r" "$c" "$wall" "$rss" | tee -a "$results"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" <<'EOF'
import statistics, sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().split('\n') if l]
cases = list(dict.fromkeys(r[1] for r in rows))
med = {c: statistics.median(float(r[2]) for r in rows if r[1] == c) for c in cases}
rss = {c: max(int(r[3]) for r in rows if r[1] == c) for c in cases}
print("\n| build | wall s (median) | peak rustc MiB | vs x86 | vs x86 + performance-counter |")
print("|---|---|---|---|---|")
for c in cases:
    print(f"| {c} | {med[c]:.2f} | {rss[c]} | {med[c] / med['x86']:.2f} | {med[c] / med['x86-performance-counter']:.2f} |")
EOF
