#!/usr/bin/env bash
# Throughput of `npuzzle batch`, end to end from a file (issue 5).
#
# Generates N (default 1,000,000) random 3x3 start|goal pairs with random
# goals (so all nine goal-blank tables get built, inside the timed run),
# then answers them with a release build: moves only, then with --path.
# Each configuration runs RUNS times (default 3) as a fresh process; the
# best and the median lines per second are printed, with CPU seconds.
#
#   benches/batch_throughput.sh              # 1,000,000 lines, all cores
#   N=200000 RUNS=5 JOBS=1 benches/batch_throughput.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000000}
RUNS=${RUNS:-3}
JOBS=${JOBS:-}
cargo build --release --quiet
BIN=${CARGO_TARGET_DIR:-target}/release/npuzzle
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$BIN" random --pairs --size 3x3 --count "$N" --seed 1 > "$TMP/pairs.txt"
echo "input: $N lines, $(wc -c < "$TMP/pairs.txt") bytes; $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
jobs_arg=()
[ -n "$JOBS" ] && jobs_arg=(--jobs "$JOBS")

bench() {
    local label=$1; shift
    local rates=()
    for _ in $(seq "$RUNS"); do
        local t0 t1 cpu
        t0=$(date +%s%N)
        cpu=$( { /usr/bin/env time -f "%U %S" "$BIN" batch -q "${jobs_arg[@]}" "$@" "$TMP/pairs.txt" > "$TMP/out.txt"; } 2>&1 | tail -1 )
        t1=$(date +%s%N)
        local lines; lines=$(wc -l < "$TMP/out.txt")
        [ "$lines" -eq "$N" ] || { echo "expected $N output lines, got $lines" >&2; exit 1; }
        local secs; secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
        local rate; rate=$(awk -v n="$N" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
        rates+=("$rate")
        printf '  %-12s %8s s wall  %s s cpu (user sys)  %10s lines/s\n' "$label" "$secs" "$cpu" "$rate"
    done
    local sorted; sorted=$(printf '%s\n' "${rates[@]}" | sort -n)
    printf '%-14s best %s lines/s, median %s lines/s\n' "$label" \
        "$(echo "$sorted" | tail -1)" "$(echo "$sorted" | sed -n "$(( (RUNS + 1) / 2 ))p")"
}

bench "moves only"
bench "with --path" --path
