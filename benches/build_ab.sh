#!/usr/bin/env bash
# One change to the pattern-database build measured against the form before
# it: two `npuzzle` binaries (OLD, built from the commit before the change,
# and NEW) build the same databases from scratch, alternating, RUNS times
# each (default 1). Prints each run's wall time and peak memory, the median
# times, their ratio NEW/OLD, and whether the two wrote the same files (a
# pure speed-up must).
#
#   git worktree add /tmp/old HEAD~1 && (cd /tmp/old && cargo build --release)
#   benches/build_ab.sh /tmp/old/target/release/npuzzle target/release/npuzzle -- \
#       --size 4x4 --partition 7-8 --goal blank-first
#   RUNS=3 benches/build_ab.sh OLD NEW -- --size 5x5 --partition 6-6-6-6 --pdb-blank regions
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ] || [ "$3" != "--" ]; then
    echo "usage: benches/build_ab.sh OLD_NPUZZLE NEW_NPUZZLE -- PDB_BUILD_ARGS..." >&2
    exit 2
fi
OLD=$1
NEW=$2
shift 3
RUNS=${RUNS:-1}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time at $TIME (apt-get install time)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for run in $(seq 1 "$RUNS"); do
    for side in old new; do
        bin=$OLD
        [ "$side" = new ] && bin=$NEW
        dir=$TMP/$side
        rm -rf "$dir"
        "$TIME" -f "%e %M" -o "$TMP/time" "$bin" pdb build "$@" --pdb-dir "$dir" > /dev/null 2> "$TMP/err" \
            || { cat "$TMP/err" >&2; exit 1; }
        read -r secs kib < "$TMP/time"
        echo "run $run $side: $secs s, peak $((kib / 1024)) MB"
        echo "$secs" >> "$TMP/$side.times"
    done
    if [ "$run" = 1 ]; then
        same=yes
        for f in "$TMP"/old/*.pdb; do
            cmp -s "$f" "$TMP/new/$(basename "$f")" || same="no ($(basename "$f") differs)"
        done
        [ "$(ls "$TMP"/old | wc -l)" = "$(ls "$TMP"/new | wc -l)" ] || same="no (other files)"
    fi
done
old=$(median < "$TMP/old.times")
new=$(median < "$TMP/new.times")
echo "median build time: old $old s, new $new s, new/old $(awk -v a="$new" -v b="$old" 'BEGIN { printf "%.3f", a / b }')"
echo "same files: $same"
