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
# Prints one line per build (round, case, wall s, peak MiB, CPU s), a table of medians
# (Markdown) with each ratio to `x86` taken per round and its median, the per-round ratios,
# and the machine's load average before and after.
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
    # CPU seconds (user + system, every process of the build): what the build costs, which
    # the other work on a shared machine moves less than the wall time.
    cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$log")
    printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$c" "$wall" "$rss" "$cpu" | tee -a "$results"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" <<'EOF'
import statistics, sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().split('\n') if l]
cases = list(dict.fromkeys(r[1] for r in rows))
med = {c: statistics.median(float(r[2]) for r in rows if r[1] == c) for c in cases}
rss = {c: max(int(r[3]) for r in rows if r[1] == c) for c in cases}
cpu = {c: statistics.median(float(r[4]) for r in rows if r[1] == c) for c in cases}
rounds = sorted(set(r[0] for r in rows), key=int)
at = {(r[0], r[1]): (float(r[2]), float(r[4])) for r in rows}
def per_round(c, peer, k):
    """The ratio to the peer built in the same round, per round: the figure to quote."""
    return [at[(n, c)][k] / at[(n, peer)][k] for n in rounds if (n, c) in at and (n, peer) in at]
print("\n| build | wall s (median) | CPU s (median) | peak rustc MiB | vs x86, wall (CPU) | vs x86 + performance-counter, wall (CPU) |")
print("|---|---|---|---|---|---|")
for c in cases:
    def ratio(peer):
        w = statistics.median(per_round(c, peer, 0))
        u = statistics.median(per_round(c, peer, 1))
        return f"{w:.2f} ({u:.2f})"
    print(f"| {c} | {med[c]:.2f} | {cpu[c]:.2f} | {rss[c]} | {ratio('x86')} | {ratio('x86-performance-counter')} |")
print("\nper-round ratios, wall (CPU):")
for c, peer in [("pmu-regs-default", "x86"), ("pmu-regs-all-models", "x86-performance-counter")]:
    w = per_round(c, peer, 0)
    u = per_round(c, peer, 1)
    print(f"  {c} / {peer}: " + ", ".join(f"{a:.2f} ({b:.2f})" for a, b in zip(w, u)))
EOF
