#!/bin/sh
# The rows of docs/korf24.md from the output of `npuzzle bench data/korf24_50.txt ...`:
# each instance solved with its nodes and time beside the published counts
# (data/korf24_published_nodes.tsv: Korf & Felner 2002, and the maximum over
# Döbbelin et al.'s large databases), and the ratios of ours to theirs.
#
#   npuzzle bench data/korf24_50.txt --only 1,5 --threads 2 ... > run.txt
#   benches/korf24_table.sh run.txt 2
#
# The second argument is the threads the run used (a column of the page).
set -eu
run=${1:?usage: benches/korf24_table.sh BENCH_OUTPUT [THREADS]}
threads=${2:-1}
here=$(dirname "$0")/..
awk -v threads="$threads" -F'\t' '
    # 1234567 as 1,234,567
    function group(n,    s) {
        s = sprintf("%.0f", n)
        while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
        return s
    }
    FNR == NR {
        if ($0 ~ /^#/ || $1 == "instance") next
        kf[$1] = $3; mx[$1] = $8; next
    }
    {
        # bench rows: number, moves, file length, expanded, generated, seconds
        n = split($0, f, " ")
        if (n < 6 || f[1] !~ /^[0-9]+$/ || f[2] !~ /^[0-9]+$/) next
        i = f[1]
        printf "| %d | %d | %s | %.1f | %d | %s | %s | %.2f | %.2f |\n",
            i, f[2], group(f[4]), f[6], threads, group(kf[i]), group(mx[i]),
            f[4] / kf[i], f[4] / mx[i]
    }
' "$here/data/korf24_published_nodes.tsv" "$run"
