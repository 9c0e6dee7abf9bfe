#!/usr/bin/env bash
# npuzzle beside slidy (crates.io `slidy`, by benwh1), optimal solving on the
# same random boards, in one run (docs/benchmarks-slidy.md):
#   1. 4x4 in the multi-tile metric (MTM): N boards (`npuzzle random`, seeded),
#      solved by `npuzzle bench --metric mtm` (IDA* with the colour pattern
#      databases, built first into a fresh --pdb-dir, then loaded once more
#      from it to time a load) and by slidy's `Solver4x4Mtm` (IDA* with
#      Rokicki's ~144 MiB colour database, built in memory each run) through
#      benches/peers/slidy-driver;
#   2. small boards (SMALL: sizes, each SIZE or SIZE:COUNT, default count
#      SMALL_N; both metrics, or SMALL_METRICS): npuzzle (`--algo table`, its
#      complete tables, on boards of up to 10 cells; the planner's choice
#      beyond, as 3x4 where it has no tables) against slidy's complete-table
#      solvers (`small::solver::Solver`, `Solver3x3Stm` etc.).
# Every length must be equal: a differing board is printed with both lengths
# and both move sequences (replayed with `npuzzle verify`), and the script
# exits 1. Prints, per case and tool: database build time, total and median
# of the per-instance solve times, and the wall time of the whole process.
# The first board of each case is solved once more before the others, as a
# warm-up that is left out of the figures (npuzzle builds its small tables
# lazily, in the first solve; its time is shown as npuzzle's build).
#
#   benches/slidy.sh                                  # N=20 4x4 boards; 1000 3x3 and 2x5, 200 3x4
#   N=100 SEED=7 benches/slidy.sh
#   N=0 SMALL="3x3 2x5" benches/slidy.sh              # small boards only
#   SMALL="" benches/slidy.sh                         # 4x4 MTM only
#   PDB_DIR=~/.cache/npuzzle benches/slidy.sh         # reuse a cache (the "build" is then a load)
#   NPUZZLE_ARGS="--threads 2" benches/slidy.sh       # extra options for npuzzle on 4x4
#
# Sizes are RxC (rows x columns), as npuzzle's --size. slidy 0.7.0 needs a
# newer compiler than stable 1.95 (u64::isolate_lowest_one), so the driver is
# built with SLIDY_TOOLCHAIN (default nightly) into SLIDY_TARGET (default
# /tmp/slidy-target, outside the checkout). Both tools run one thread;
# npuzzle's database build uses every core, slidy's builds one.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-20}
SEED=${SEED:-1}
SMALL=${SMALL-"3x3 2x5 3x4:200"}
SMALL_N=${SMALL_N:-1000}
SMALL_METRICS=${SMALL_METRICS:-"stm mtm"}
NPUZZLE_ARGS=${NPUZZLE_ARGS:-}
SLIDY_TOOLCHAIN=${SLIDY_TOOLCHAIN:-nightly}
SLIDY_TARGET=${SLIDY_TARGET:-/tmp/slidy-target}

cargo build --release --quiet -p npuzzle-cli
BIN=${CARGO_TARGET_DIR:-target}/release/npuzzle
CARGO_TARGET_DIR=$SLIDY_TARGET cargo "+$SLIDY_TOOLCHAIN" build --release --quiet --locked \
    --manifest-path benches/peers/slidy-driver/Cargo.toml
DRIVER=$SLIDY_TARGET/release/slidy-driver

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PDB_DIR=${PDB_DIR:-$TMP/pdb}
FAILED=0
echo "npuzzle: $($BIN --version); slidy 0.7.0 ($(rustc "+$SLIDY_TOOLCHAIN" --version)); $(nproc) cores; seed $SEED"

# now: seconds since the epoch, with nanoseconds.
now() { date +%s.%N; }

# run_case SIZE METRIC COUNT NPUZZLE-OPTIONS...
run_case() {
    local size=$1 metric=$2 count=$3
    shift 3
    local c=$TMP/$size-$metric
    echo
    echo "== $size, $metric, $count random boards (seed $SEED); npuzzle bench $* =="
    "$BIN" random --size "$size" --count "$count" --seed "$SEED" > "$c.boards"
    # The warm-up: the first board once more, in front.
    { head -n 1 "$c.boards"; cat "$c.boards"; } > "$c.in"
    tr '/' ' ' < "$c.in" > "$c.flat"
    local t0 t1 t2
    t0=$(now)
    "$BIN" bench "$c.flat" --size "$size" --goal blank-last --metric "$metric" \
        --pdb-dir "$PDB_DIR" "$@" > "$c.npz" 2> "$c.npz.err" || {
        echo "npuzzle bench failed:" >&2
        cat "$c.npz.err" "$c.npz" >&2
        return 1
    }
    t1=$(now)
    "$DRIVER" --metric "$metric" --size "$size" < "$c.in" > "$c.sl" 2> "$c.sl.err" || {
        echo "slidy-driver failed:" >&2
        cat "$c.sl.err" >&2
        return 1
    }
    t2=$(now)
    # With tables, also the whole process of `npuzzle batch --path` (one
    # job): lengths and paths, as slidy gives, without bench's bookkeeping.
    local batch=""
    if [[ " $* " == *" --algo table "* ]]; then
        local b0 b1
        b0=$(now)
        "$BIN" batch "$c.boards" --size "$size" --metric "$metric" --path --jobs 1 -q "$@" > "$c.batch"
        b1=$(now)
        batch=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$b0" "$b1")
        if [ "$(cut -d' ' -f1 "$c.batch" | tr '\n' ' ')" != "$(tail -n +2 "$c.sl" | cut -d' ' -f1 | tr '\n' ' ')" ]; then
            echo "  npuzzle batch and slidy give different lengths" >&2
            FAILED=1
        fi
    fi
    # Once more, the databases now cached: the first solve then times their
    # load (npuzzle builds the multi-tile colour database lazily, in the
    # first solve, not before the clock).
    local load=""
    if grep -q "built pattern database" "$c.npz.err"; then
        "$BIN" bench "$c.flat" --limit 1 --size "$size" --goal blank-last --metric "$metric" \
            --pdb-dir "$PDB_DIR" "$@" > "$c.load" 2> "$c.load.err"
        load=$c.load
    fi
    local rc=0
    python3 - "$c" "$t0" "$t1" "$t2" "$load" "$batch" <<'PY' || rc=1
import re, statistics, sys
c, load = sys.argv[1], sys.argv[5]
t0, t1, t2 = map(float, sys.argv[2:5])
npz_wall, sl_wall = t1 - t0, t2 - t1
boards = [l.strip() for l in open(c + ".in") if l.strip()]
npz_head = open(c + ".npz").read().splitlines()
npz = []  # (moves, seconds), by instance
for l in npz_head:
    m = re.match(r"\s*(\d+)\s+(-?\d+)\s+\S+\s+(\d+)\s+(\d+)\s+([0-9.]+)", l)
    if m:
        npz.append((int(m.group(2)), float(m.group(5))))
plan = npz_head[0].split(", ", 1)[1] if npz_head else "?"
npz_err = open(c + ".npz.err").read()
m = re.search(r"pattern databases ready in ([0-9.]+) s", npz_err)
npz_ready = float(m.group(1)) if m else 0.0
npz_built = re.findall(r"built pattern database for (.+?) in ([0-9.]+) s", npz_err)
sl = []  # (moves, seconds, path)
for l in open(c + ".sl"):
    f = l.split(None, 2)
    sl.append((-1 if f[0] == "unsolvable" else int(f[0]), float(f[1]), f[2].strip() if len(f) > 2 else ""))
sl_err = open(c + ".sl.err").read()
m = re.search(r"# build ([0-9.]+) solver (\S+)", sl_err)
sl_build, sl_name = float(m.group(1)), m.group(2)
assert len(npz) == len(boards) == len(sl), (len(npz), len(boards), len(sl))
bad = [i for i in range(len(boards)) if npz[i][0] != sl[i][0]]
with open(c + ".bad", "w") as f:
    for i in bad:
        f.write(f"{boards[i]}\t{npz[i][0]}\t{sl[i][0]}\t{sl[i][2]}\n")
n = len(boards) - 1  # without the warm-up
# npuzzle's build: what it prepares before the clock, plus the warm-up
# solve less the same board's solve (instance 2), which holds what it builds
# lazily; slidy's: the solver's construction.
npz_build = npz_ready + npz[0][1] - npz[1][1]
npz_t = [s for _, s in npz[1:]]
sl_t = [s for _, s, _ in sl[1:]]
print(f"  npuzzle runs: {plan}")
print(f"  slidy runs:   {sl_name}")
if npz_built:
    print("  npuzzle built: " + "; ".join(f"{w} in {t} s" for w, t in npz_built)
          + f" (before the clock: {npz_ready:.2f} s; the rest in the first solve)")
if load:
    lt = [float(x.split()[5]) for x in open(load) if re.match(r"\s*1\s", x)]
    le = open(load + ".err").read()
    m = re.search(r"pattern databases ready in ([0-9.]+) s", le)
    print(f"  npuzzle load from the cache instead: {(float(m.group(1)) if m else 0.0) + lt[0] - npz[1][1]:.2f} s")
print(f"  {'':<8} {'build s':>9} {'solve total s':>14} {'median ms':>10} {'max ms':>9} {'process wall s':>15} {'(wall-build)/N ms':>18}")
for name, build, t, wall in (("npuzzle", npz_build, npz_t, npz_wall), ("slidy", sl_build, sl_t, sl_wall)):
    ts = sorted(t)
    print(f"  {name:<8} {build:9.3f} {sum(ts):14.3f} {statistics.median(ts) * 1e3:10.3f} {ts[-1] * 1e3:9.1f}"
          f" {wall:15.2f} {(wall - build) / n * 1e3:18.4f}")
if max(npz_t) < 0.05:
    print("  (npuzzle bench prints per-instance seconds to the ms: here its totals and medians are coarse; compare (wall-build)/N)")
else:
    print(f"  solve totals, npuzzle / slidy: {sum(npz_t) / max(sum(sl_t), 1e-9):.2f}")
if sys.argv[6]:
    print(f"  npuzzle batch --path --jobs 1 (table build, lengths and paths, one process): {sys.argv[6]} s"
          f" for the {n} boards; slidy's process: {sl_wall:.2f} s")
lens = [x for x, _ in npz[1:]]
print(f"  lengths: mean {statistics.mean(lens):.2f}, min {min(lens)}, max {max(lens)}; "
      + (f"all {n} equal" if not bad else f"{len(bad)} DIFFER"))
sys.exit(1 if bad else 0)
PY
    if [ -s "$c.bad" ]; then
        FAILED=1
        while IFS=$'\t' read -r board nl sl_len sl_path; do
            echo "  DIFFERENT LENGTH: $board: npuzzle $nl, slidy $sl_len"
            local np_path
            np_path=$("$BIN" solve "$board" --metric "$metric" --path --notation tile --spaced "$@" \
                --pdb-dir "$PDB_DIR" | sed -n 2p)
            echo "    npuzzle: $np_path"
            echo "      verify: $("$BIN" verify "$board" "$np_path" --metric "$metric" --notation tile 2>&1 | tr '\n' ' ')"
            echo "    slidy:   $sl_path"
            echo "      verify: $("$BIN" verify "$board" "$sl_path" --metric "$metric" --notation tile 2>&1 | tr '\n' ' ')"
        done < "$c.bad"
    fi
    return "$rc"
}

if [ "$N" != 0 ]; then
    # shellcheck disable=SC2086  # NPUZZLE_ARGS is a list of words
    run_case 4x4 mtm "$N" $NPUZZLE_ARGS || FAILED=1
fi
for entry in $SMALL; do
    size=${entry%%:*}
    count=$SMALL_N
    if [[ "$entry" == *:* ]]; then count=${entry#*:}; fi
    cells=$(( ${size%x*} * ${size#*x} ))
    for metric in $SMALL_METRICS; do
        if [ "$cells" -le 10 ]; then
            run_case "$size" "$metric" "$count" --algo table || FAILED=1
        else
            run_case "$size" "$metric" "$count" || FAILED=1
        fi
    done
done
if [ "$FAILED" != 0 ]; then
    echo
    echo "some lengths differ or a run failed (see above)" >&2
    exit 1
fi
