#!/usr/bin/env bash
# The ten Korf (1985) 15-puzzle instances with the fewest IDA* nodes (18th
# field of data/korf100.txt), answered as one batch with IDA*
# (goal blank-first), on one thread and on every core; prints both times
# and the speed-up, and checks the lengths against the published ones.
# HEURISTIC=manhattan benches/korf10_batch.sh uses Korf's heuristic.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-data/korf100.txt}
ALGO=${ALGO:-idastar}
HEURISTIC=${HEURISTIC:-auto}   # e.g. HEURISTIC=manhattan
cargo build --release --quiet
BIN=${CARGO_TARGET_DIR:-target}/release/npuzzle
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
grep -v '^#' "$DATA" | sort -n -k18,18 | head -10 > "$TMP/korf10.txt"
cut -d' ' -f1-16 "$TMP/korf10.txt" > "$TMP/in.txt"
cut -d' ' -f17 "$TMP/korf10.txt" > "$TMP/want.txt"
probe=$("$BIN" batch -q --algo "$ALGO" --goal blank-first <<< "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15" || true)
case $probe in
    error:*) echo "--algo $ALGO cannot answer 4x4 boards in this build (${probe#error: line 1: })" >&2; exit 2 ;;
esac
declare -A wall
for jobs in 1 "$(nproc)"; do
    t0=$(date +%s%N)
    "$BIN" batch --algo "$ALGO" --heuristic "$HEURISTIC" --goal blank-first --jobs "$jobs" "$TMP/in.txt" > "$TMP/out$jobs.txt"
    t1=$(date +%s%N)
    wall[$jobs]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    if ! diff -q "$TMP/out$jobs.txt" "$TMP/want.txt" >/dev/null; then
        echo "answers differ from the published lengths:" >&2
        paste "$TMP/out$jobs.txt" "$TMP/want.txt" >&2
        exit 1
    fi
    echo "--jobs $jobs: ${wall[$jobs]} s (all 10 lengths match Korf's)"
done
awk -v a="${wall[1]}" -v b="${wall[$(nproc)]}" 'BEGIN { printf "speed-up: %.2fx\n", a / b }'
