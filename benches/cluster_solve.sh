#!/usr/bin/env bash
# IDA* on timely (issue 29): every instance of FILE solved by
# `npuzzle solve --engine timely` as P processes of one worker each on
# 127.0.0.1, for each P asked, side by side in one run. Prints, per
# instance and P: the length (checked against the file's, the field after
# the tiles), the nodes expanded, the wall seconds (database loading and
# connecting included); then per P the totals, and the ratio of the total
# time to one process's.
#
#   benches/cluster_solve.sh data/korf100.txt 16 "1 2 4" --goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
#   ONLY="25 32" benches/cluster_solve.sh data/korf24_50.txt 25 "1 2" \
#       --goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24" \
#       --pdb 6-6-6-6 --pdb-also "$D" --pdb-also "$S"
#
# CELLS is the board's cell count (the tiles at the head of each line).
# ONLY: instance numbers (from 1) to run. PORT: the first port used
# (default 24100). On a machine of C cores, P processes of one worker share
# C cores: the ratio shows the cost of the exchanges, not a speed-up, when
# P > C.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:?usage: benches/cluster_solve.sh FILE CELLS "P1 P2 ..." [solve options]}
CELLS=${2:?the cells of a board}
COUNTS=${3:?the process counts}
shift 3
PORT=${PORT:-24100}
cargo build --release --quiet -p npuzzle-cli
BIN=${CARGO_TARGET_DIR:-target}/release/npuzzle
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "# $FILE; processes: $COUNTS; $(nproc) cores; options: $*"
printf 'instance\tprocesses\tmoves\texpected\texpanded\tseconds\n'
n=0
grep -v '^#' "$FILE" | while read -r line; do
    n=$((n + 1))
    if [ -n "${ONLY:-}" ] && ! [[ " $ONLY " == *" $n "* ]]; then continue; fi
    read -r -a f <<< "$line"
    start="${f[*]:0:$CELLS}"
    expected=${f[$CELLS]}
    for p in $COUNTS; do
        : > "$TMP/hosts"
        for ((i = 0; i < p; i++)); do echo "127.0.0.1:$((PORT + i))" >> "$TMP/hosts"; done
        PORT=$((PORT + p))
        t0=$(date +%s%N)
        for ((i = 1; i < p; i++)); do
            "$BIN" solve --engine timely --workers 1 --processes "$p" --process "$i" \
                --hostfile "$TMP/hosts" "$@" "$start" > /dev/null 2> "$TMP/err.$i" &
        done
        "$BIN" solve --engine timely --workers 1 --processes "$p" --process 0 \
            --hostfile "$TMP/hosts" --stats "$@" "$start" > "$TMP/out" 2> "$TMP/err.0"
        wait
        t1=$(date +%s%N)
        moves=$(head -1 "$TMP/out")
        nodes=$(sed -n 's/^nodes expanded: //p' "$TMP/out")
        secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
        if [ "$moves" != "$expected" ]; then
            echo "instance $n, $p processes: $moves moves, not $expected" >&2
            exit 1
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$p" "$moves" "$expected" "$nodes" "$secs"
    done
done | tee "$TMP/rows"
awk -F'\t' '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ {
        s[$2] += $6; e[$2] += $5
        if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 }
    }
    END {
        for (i = 1; i <= k; i++) {
            p = order[i]
            printf "# %s processes: %.0f nodes expanded, %.1f s in all (%.2f times the first count)\n",
                p, e[p], s[p], s[p] / s[order[1]]
        }
    }' "$TMP/rows"
