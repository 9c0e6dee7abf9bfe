#!/usr/bin/env bash
# Whole-space search (issue 13): `npuzzle space` on the local engine and
# under timely with 2 workers, side by side in one run.
#
# Each run is a fresh process (release build); the two engines alternate, so
# both see the same background load. Prints every run's wall and CPU
# seconds and peak memory, then the median per engine and the ratio of the
# medians (wall and CPU), and the best runs. Targets: 3x4 local <= 30 s on
# 2 cores; timely <= 1.5x local. On a machine shared with other jobs, wall
# times vary by 3x from run to run; the CPU ratio is the steadier figure.
#
#   benches/space.sh                  # 3x4, 3 runs each
#   SIZE=2x6 RUNS=5 benches/space.sh
#   SIZE=2x5 benches/space.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE=${SIZE:-3x4}
RUNS=${RUNS:-3}
WORKERS=${WORKERS:-2}
cargo build --release --quiet
BIN=${CARGO_TARGET_DIR:-target}/release/npuzzle
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "npuzzle space --size $SIZE; $RUNS runs per engine; $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

declare -A times cpus
run() {
    local label=$1; shift
    local t0 t1 stats
    t0=$(date +%s%N)
    /usr/bin/env time -o "$TMP/time" -f "%U %S %M" "$BIN" space --size "$SIZE" --csv "$@" > "$TMP/$label.csv" 2> "$TMP/err"
    stats=$(tail -1 "$TMP/time")
    t1=$(date +%s%N)
    local secs; secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
    times[$label]+="$secs "
    read -r user sys kb <<< "$stats"
    cpus[$label]+="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') "
    printf '  %-8s %7s s wall  %6s s user  %5s s sys  %6d MB peak\n' "$label" "$secs" "$user" "$sys" $((kb / 1024))
}

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

for _ in $(seq "$RUNS"); do
    run local --engine local
    run timely --engine timely --workers "$WORKERS"
    cmp -s "$TMP/local.csv" "$TMP/timely.csv" || { echo "the engines disagree" >&2; exit 1; }
done
ml=$(echo "${times[local]}" | median)
mt=$(echo "${times[timely]}" | median)
cl=$(echo "${cpus[local]}" | median)
ct=$(echo "${cpus[timely]}" | median)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
best() { tr ' ' '\n' | grep -v '^$' | sort -n | head -1; }
bl=$(echo "${times[local]}" | best)
bt=$(echo "${times[timely]}" | best)
echo "median wall: local $ml s, timely ($WORKERS workers) $mt s, ratio timely/local $(ratio "$mt" "$ml")"
echo "median CPU:  local $cl s, timely ($WORKERS workers) $ct s, ratio timely/local $(ratio "$ct" "$cl")"
echo "best wall:   local $bl s, timely ($WORKERS workers) $bt s, ratio timely/local $(ratio "$bt" "$bl") (the least disturbed runs)"
echo "distribution: $(tail -n +2 "$TMP/local.csv" | wc -l) levels, radius $(tail -n 1 "$TMP/local.csv" | cut -d, -f1), $(tail -n 1 "$TMP/local.csv" | cut -d, -f2) antipodes"
