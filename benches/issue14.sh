#!/usr/bin/env bash
# Issue 14: each new piece of IDA* against the previous form, on the same
# instances, interleaved in one run (so the other load on the machine hits
# every variant alike):
#   parent          no move straight back (the form before issue 14)
#   automaton       move pruning by the automaton of duplicate strings
#   parent+dual     dual lookups (dual and dual-reflected) with pathmax
#   automaton+dual  both
# and, with THREADS2=1, automaton+dual on two threads (work stealing).
#
# For each partition (PARTITIONS, default "7-8 6-6-3") and variant it runs
# `npuzzle bench` RUNS times (default 3) on Korf's 100 (blank-first goal,
# one thread) and prints nodes expanded and generated per instance, the
# median search time (`searching`, database loading excluded) and the
# ratios to `parent`. All lengths are checked against the file by `bench`.
#
# BLANK (auto, min or regions; default auto) is passed as --pdb-blank: with
# regions the 8-tile half of 7-8 is zero-aware too (755 MB; its first run
# builds it, outside the times shown).
#
#   PDB_DIR=/path/to/cache benches/issue14.sh
#   PARTITIONS=6-6-3 RUNS=5 LIMIT=50 benches/issue14.sh
#   PARTITIONS=7-8 BLANK=regions benches/issue14.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-data/korf100.txt}
RUNS=${RUNS:-3}
PARTITIONS=${PARTITIONS:-"7-8 6-6-3"}
LIMIT=${LIMIT:-100}
PDB_DIR=${PDB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/npuzzle}
THREADS2=${THREADS2:-0}
BLANK=${BLANK:-auto}
cargo build --release --quiet
BIN=${CARGO_TARGET_DIR:-target}/release/npuzzle
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "$(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); $RUNS runs each, interleaved; first $LIMIT of $DATA"

variants=("parent" "automaton" "parent+dual" "automaton+dual")
[ "$THREADS2" = 1 ] && variants+=("automaton+dual,2threads")

flags() {
    local v=$1 f=()
    case $v in
        parent*) f+=(--prune parent) ;;
        automaton*) f+=(--prune automaton) ;;
    esac
    case $v in *dual*) f+=(--dual) ;; esac
    case $v in *2threads) f+=(--threads 2) ;; *) f+=(--threads 1) ;; esac
    echo "${f[@]}"
}

for part in $PARTITIONS; do
    # load (or build) the databases once before timing
    "$BIN" pdb build --size 4x4 --partition "$part" --goal blank-first --pdb-dir "$PDB_DIR" > /dev/null
    for run in $(seq "$RUNS"); do
        for v in "${variants[@]}"; do
            # shellcheck disable=SC2046
            "$BIN" bench "$DATA" --limit "$LIMIT" --algo idastar --heuristic pdb --pdb "$part" \
                --pdb-dir "$PDB_DIR" --pdb-blank "$BLANK" $(flags "$v") > "$TMP/out" 2>&1 || { cat "$TMP/out"; exit 1; }
            grep -q "lengths match" "$TMP/out" || { cat "$TMP/out"; exit 1; }
            # total: N instances, M moves, E expanded (…), G generated, T s searching (…)
            awk -v v="$v" -v run="$run" '/^total:/ {
                for (i = 1; i <= NF; i++) {
                    if ($i == "instances,") n = $(i-1)
                    if ($i == "expanded") e = $(i-1)
                    if ($i == "generated,") g = $(i-1)
                    if ($i == "searching") t = $(i-2)
                }
                print v, run, n, e, g, t
            }' "$TMP/out" >> "$TMP/$part.txt"
        done
    done
    echo
    echo "pdb $part, --pdb-blank $BLANK (Korf's 100, first $LIMIT, blank-first goal)"
    printf '%-26s %12s %12s %10s   %8s %8s %8s\n' variant "expanded/i" "generated/i" "time s" "×exp" "×gen" "×time"
    awk -v order="$(printf '%s ' "${variants[@]}")" '
        { n[$1] = $3; e[$1] = $4; g[$1] = $5; t[$1, ++k[$1]] = $6 }
        function median(v,   m, i, j, x, a) {
            m = k[v]
            for (i = 1; i <= m; i++) a[i] = t[v, i]
            for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j+1] = a[j]; a[j+1] = x }
            return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        END {
            split(order, vs, " ")
            base = vs[1]; bt = median(base)
            for (i = 1; vs[i] != ""; i++) {
                v = vs[i]; mt = median(v)
                printf "%-26s %12.0f %12.0f %10.3f   %8.3f %8.3f %8.3f\n", v, e[v] / n[v], g[v] / n[v], mt, e[v] / e[base], g[v] / g[base], mt / bt
            }
        }' "$TMP/$part.txt"
done
