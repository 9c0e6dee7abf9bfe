#!/usr/bin/env bash
# Pattern-database forms side by side on Korf's 100 with 7-8: for each form,
# the build (wall time, peak memory), the load (time, memory of the loaded
# process), the files on disk, and Korf's 100 (nodes and search time per
# run, the median of RUNS runs taken round-robin so that every form sees
# the same machine load), with ratios against the first form.
#
# Forms:
#   base     the default of $BASELINE, a binary built from an earlier commit
#            (before the one-bit form: nibbles, the 7-tile half zero-aware,
#            the 8-tile half the minimum over regions; left out when
#            BASELINE is unset)
#   auto     the default: both halves zero-aware, one bit an entry in
#            memory (the files are those of regions)
#   min      nibbles, both halves the minimum over regions
#   regions  nibbles, both halves zero-aware (most pruning, 783 MB)
#   bits     as auto, asked for by name
#
# Usage:
#   cargo build --release
#   BASELINE=/path/to/old/npuzzle benches/pdb_forms.sh
# Environment: NPUZZLE (default target/release/npuzzle), BASELINE, PDB_ROOT
# (cache directories, one per form; default /tmp/npuzzle-pdb-forms), RUNS
# (default 3), LIMIT (instances, default all 100), FORMS (default
# "base auto min regions"), KEEP=1 keeps built databases between runs of
# the script (then "build" is not measured again).
set -euo pipefail

cd "$(dirname "$0")/.."
NPUZZLE=${NPUZZLE:-target/release/npuzzle}
PDB_ROOT=${PDB_ROOT:-/tmp/npuzzle-pdb-forms}
RUNS=${RUNS:-3}
LIMIT=${LIMIT:-100}
FORMS=${FORMS:-base auto min regions}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time at $TIME (apt-get install time)" >&2; exit 1; }
[ -x "$NPUZZLE" ] || { echo "no $NPUZZLE: run cargo build --release first" >&2; exit 1; }

forms=()
for f in $FORMS; do
    if [ "$f" = base ] && [ -z "${BASELINE:-}" ]; then
        echo "BASELINE unset: leaving out the base form" >&2
        continue
    fi
    forms+=("$f")
done

# The command line of a form, given its cache directory.
cmd() {
    local form=$1 dir=$2
    case $form in
        base) echo "$BASELINE bench data/korf100.txt --pdb 7-8 --pdb-dir $dir" ;;
        auto | min | regions | bits)
            echo "$NPUZZLE bench data/korf100.txt --pdb 7-8 --pdb-blank $form --pdb-dir $dir" ;;
        *) echo "unknown form $form" >&2; exit 2 ;;
    esac
}

# Runs a command under GNU time: prints "seconds-to-ready peak-MiB
# cpu-seconds" (CPU time, user and system: on a busy machine the wall time
# to ready overstates what the work takes).
timed() {
    local log
    log=$(mktemp)
    # shellcheck disable=SC2086
    "$TIME" -v $1 --limit 1 >/dev/null 2>"$log"
    local ready peak
    ready=$(sed -n 's/^pattern databases ready in \([0-9.]*\) s$/\1/p' "$log")
    peak=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$log")
    cpu=$(awk -F': ' '/(User|System) time/ {t += $2} END {printf "%.1f", t}' "$log")
    rm -f "$log"
    echo "${ready:-?} ${peak:-?} ${cpu:-?}"
}

declare -A build_s build_mb build_cpu load_s load_mb load_cpu disk_mb
for f in "${forms[@]}"; do
    dir=$PDB_ROOT/$f
    if [ "${KEEP:-0}" != 1 ]; then
        rm -rf "$dir"
    fi
    if [ -d "$dir" ] && ls "$dir"/*.pdb >/dev/null 2>&1; then
        build_s[$f]="(kept)"
        build_mb[$f]="-"
        build_cpu[$f]="-"
    else
        echo "building $f: $(cmd "$f" "$dir") --limit 1" >&2
        read -r build_s[$f] build_mb[$f] build_cpu[$f] < <(timed "$(cmd "$f" "$dir")")
    fi
    read -r load_s[$f] load_mb[$f] load_cpu[$f] < <(timed "$(cmd "$f" "$dir")")
    disk_mb[$f]=$(du -sm "$dir" | cut -f1)
done

declare -A secs exp gen
for run in $(seq "$RUNS"); do
    for f in "${forms[@]}"; do
        out=$(mktemp)
        # shellcheck disable=SC2046
        if ! $(cmd "$f" "$PDB_ROOT/$f") --limit "$LIMIT" >"$out" 2>/dev/null; then
            echo "$f: a length differs from the file or the run failed:" >&2
            grep -E "WRONG|total" "$out" >&2 || true
            exit 1
        fi
        total=$(grep '^total:' "$out")
        rm -f "$out"
        secs[$f]+="$(sed -n 's/.*generated, \([0-9.]*\) s searching.*/\1/p' <<<"$total") "
        exp[$f]=$(sed -n 's/.* \([0-9]*\) expanded (.*/\1/p' <<<"$total")
        gen[$f]=$(sed -n 's/.* \([0-9]*\) generated, .*/\1/p' <<<"$total")
        echo "run $run $f: $total" >&2
    done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

ref=${forms[0]}
ref_t=$(median <<<"${secs[$ref]}")
echo
echo "Korf's 100 (first $LIMIT), 7-8 + reflection, one thread; search time the median of $RUNS runs; ratios against $ref"
echo "build: wall seconds to ready, CPU seconds (user + system), peak resident MiB; load: the same with the files cached"
printf '%-8s %8s %8s %9s %9s %7s %8s %12s %12s %9s %7s %7s\n' \
    form disk_MiB build_s build_cpu build_MiB load_s load_MiB expanded/i generated/i search_s nodes× time×
for f in "${forms[@]}"; do
    t=$(median <<<"${secs[$f]}")
    printf '%-8s %8s %8s %9s %9s %7s %8s %12.0f %12.0f %9.3f %7.3f %7.3f\n' \
        "$f" "${disk_mb[$f]}" "${build_s[$f]}" "${build_cpu[$f]}" "${build_mb[$f]}" "${load_s[$f]}" "${load_mb[$f]}" \
        "$(echo "${exp[$f]} / $LIMIT" | bc -l)" "$(echo "${gen[$f]} / $LIMIT" | bc -l)" "$t" \
        "$(echo "${gen[$f]} / ${gen[$ref]}" | bc -l)" "$(echo "$t / $ref_t" | bc -l)"
done
