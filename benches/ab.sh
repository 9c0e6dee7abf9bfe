#!/usr/bin/env bash
# One change measured against the form before it: two `npuzzle` binaries
# (OLD, built from the commit before the change, and NEW) run the same
# `npuzzle bench` command RUNS times each (default 5), alternating, so that
# whatever else loads the machine hits both alike. Prints each run's search
# time (database loading excluded), the medians, their ratio NEW/OLD, and
# whether the two expanded the same nodes (a pure speed-up must).
#
#   git worktree add /tmp/old HEAD~1 && (cd /tmp/old && cargo build --release)
#   benches/ab.sh /tmp/old/target/release/npuzzle target/release/npuzzle -- \
#       data/korf100.txt --algo idastar --heuristic pdb --pdb 7-8
#   RUNS=3 benches/ab.sh OLD NEW -- data/korf24_50.txt --only 25 --pdb 6-6-6-6 --pdb-blank min
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ] || [ "$3" != "--" ]; then
    echo "usage: benches/ab.sh OLD_NPUZZLE NEW_NPUZZLE -- BENCH_ARGS..." >&2
    exit 2
fi
OLD=$1
NEW=$2
shift 3
RUNS=${RUNS:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# total: N instances, M moves, E expanded (…), G generated, T s searching (…)
summary() {
    awk '/^total:/ {
        for (i = 1; i <= NF; i++) {
            if ($i == "expanded") e = $(i-1)
            if ($i == "searching") t = $(i-2)
        }
        print e, t
    }' "$1"
}

for run in $(seq "$RUNS"); do
    for side in old new; do
        bin=$OLD
        [ "$side" = new ] && bin=$NEW
        "$bin" bench "$@" > "$TMP/out" 2>&1 || { cat "$TMP/out"; exit 1; }
        grep -q "match" "$TMP/out" || { cat "$TMP/out"; exit 1; }
        read -r e t < <(summary "$TMP/out")
        echo "$side $e $t" >> "$TMP/all"
        echo "run $run $side: $e expanded, $t s"
    done
done
awk '
    { e[$1] = $2; t[$1, ++k[$1]] = $3 }
    function median(s,   n, i, j, x, a) {
        n = k[s]
        for (i = 1; i <= n; i++) a[i] = t[s, i]
        for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j+1] = a[j]; a[j+1] = x }
        return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
    }
    END {
        mo = median("old"); mn = median("new")
        printf "median search time: old %.3f s, new %.3f s, new/old %.3f\n", mo, mn, mn / mo
        print (e["old"] == e["new"] ? "same nodes expanded (" e["old"] ")" : "nodes expanded differ: old " e["old"] ", new " e["new"])
    }' "$TMP/all"
