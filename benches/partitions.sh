#!/usr/bin/env bash
# Pattern databases over more than one partition, each set of flags against
# the first, on the same instances, interleaved in one run (so the other
# load on the machine hits every variant alike): nodes expanded, median
# search time (database loading excluded) and the ratios to the first.
# Every length is checked against the file by `npuzzle bench`.
#
#   benches/partitions.sh FILE LIST PDB "FLAGS1" "FLAGS2" ...
#
# FILE and LIST (instance numbers) as `npuzzle bench FILE --only LIST`; PDB
# the first partition (--pdb); each FLAGS a variant's further flags. For
# example, the 24-puzzle with Korf & Felner's 6-6-6-6 alone and maxed with
# two other partitions (data/partitions_5x5.txt holds them):
#
#   P2=$(sed -n "s/^stairs: //p" data/partitions_5x5.txt)
#   P4=$(sed -n "s/^diagonal: //p" data/partitions_5x5.txt)
#   benches/partitions.sh data/korf24_50.txt 25,32 6-6-6-6 "" \
#       "--pdb-also $P4" "--pdb-also $P4 --pdb-also $P2"
#
# Environment: RUNS (default 1), THREADS (default 1), PDB_DIR (default the
# user's cache), NPUZZLE (default target/release/npuzzle, built first).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 4 ]; then
    echo "usage: benches/partitions.sh FILE LIST PDB FLAGS... (see the script's header)" >&2
    exit 2
fi
FILE=$1
LIST=$2
PDB=$3
shift 3
RUNS=${RUNS:-1}
THREADS=${THREADS:-1}
PDB_DIR=${PDB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/npuzzle}
if [ -z "${NPUZZLE:-}" ]; then
    cargo build --release --quiet
    NPUZZLE=${CARGO_TARGET_DIR:-target}/release/npuzzle
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "$(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); $RUNS runs each, interleaved; $FILE, instances $LIST; --pdb $PDB, $THREADS threads"

run_variant() {
    local i=$1 flags=$2 run=$3
    # shellcheck disable=SC2086
    "$NPUZZLE" bench "$FILE" --only "$LIST" --algo idastar --heuristic pdb --pdb "$PDB" \
        --threads "$THREADS" --pdb-dir "$PDB_DIR" $flags > "$TMP/out" 2>&1 || { cat "$TMP/out"; exit 1; }
    grep -qE "match(es)? the file" "$TMP/out" || { cat "$TMP/out"; exit 1; }
    awk -v i="$i" -v run="$run" '/^total:/ {
        for (k = 1; k <= NF; k++) {
            if ($k == "expanded") e = $(k-1)
            if ($k == "searching") t = $(k-2)
        }
        print i, run, e, t
    }' "$TMP/out" >> "$TMP/all.txt"
    # per instance: number and nodes expanded
    awk -v i="$i" '$1 ~ /^[0-9]+$/ && NF == 6 { print i, $1, $4 }' "$TMP/out" >> "$TMP/each.txt"
}

variants=("$@")
for run in $(seq "$RUNS"); do
    for i in "${!variants[@]}"; do
        run_variant "$i" "${variants[$i]}" "$run"
    done
done

printf '%-4s %16s %10s %8s %8s   %s\n' "" "expanded" "time s" "×exp" "×time" flags
awk '
    { e[$1] = $3; t[$1, ++k[$1]] = $4; if ($1 + 1 > nv) nv = $1 + 1 }
    function median(v,   m, i, j, x, a) {
        m = k[v]
        for (i = 1; i <= m; i++) a[i] = t[v, i]
        for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j+1] = a[j]; a[j+1] = x }
        return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    END { for (v = 0; v < nv; v++) printf "%-4s %16d %10.3f %8.3f %8.3f\n", "#" v, e[v], median(v), e[v] / e[0], median(v) / median(0) }
' "$TMP/all.txt" | paste -d' ' - <(for v in "${variants[@]}"; do echo "  ${v:-(the first partition alone)}"; done)
echo
echo "nodes expanded per instance (one run):"
awk '!seen[$1, $2]++ { n[$1, $2] = $3; ids[$2] = 1; if ($1 + 1 > nv) nv = $1 + 1 }
    END { for (id in ids) { printf "%4s", id; for (v = 0; v < nv; v++) printf " %14d", n[v, id]; printf "   ×%.3f\n", n[nv - 1, id] / n[0, id] } }' \
    "$TMP/each.txt" | sort -n
