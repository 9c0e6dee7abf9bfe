#!/usr/bin/env bash
# Quality and speed of the fast constructive solver (src/large/, issue 12).
#
# Runs examples/fast_quality.rs with a release build:
#   1. random n×n boards (standard goal, fixed seeds): n = 10, 20, 50, 100,
#      200 (10 boards each), printing the mean moves, the ratio to
#      Parberry's 8/3·n³ and to the Manhattan lower bound, median wall and
#      CPU seconds per board, and the peak memory of the process;
#   2. 1000×1000 (3 boards) under /usr/bin/time -v (peak resident memory);
#   3. Korf & Felner's 50 24-puzzle instances (data/korf24_50.txt): the
#      fast solver's mean ratio to the optimal lengths, then `npuzzle bench`
#      with wastar --weight 1.5 (per-instance times and the mean ratio).
#      HEURISTIC (default auto: pattern databases if built, else linear
#      conflict) picks wastar's heuristic.
# The 1000×1000 boards take a minute or more each; SIZES overrides the
# list of part 1 (SIZE:COUNT ...), BIG the count of part 2 (0 skips it),
# e.g. SIZES="10:10 100:10" BIG=0 benches/fast.sh.
# CHECK=1 also replays every path against its goal while it streams.
# The machine may be shared: compare the CPU seconds, and medians.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"10:10 20:10 50:10 100:10 200:10"}
BIG=${BIG:-3}
HEURISTIC=${HEURISTIC:-auto}
cargo build --release --quiet --example fast_quality --bin npuzzle
BIN=${CARGO_TARGET_DIR:-target}/release/examples/fast_quality
NPUZZLE=${CARGO_TARGET_DIR:-target}/release/npuzzle
FLAGS=(--detail)
if [[ -n "${CHECK:-}" ]]; then FLAGS+=(--check); fi
# shellcheck disable=SC2086  # SIZES is a list of words
"$BIN" "${FLAGS[@]}" $SIZES
if [[ "$BIG" != 0 ]]; then
  /usr/bin/time -v "$BIN" "${FLAGS[@]}" "1000:$BIG" 2> >(grep -E "Maximum resident|Elapsed|User time" >&2)
fi
"$BIN" --korf data/korf24_50.txt
"$NPUZZLE" bench data/korf24_50.txt --algo wastar --weight 1.5 --heuristic "$HEURISTIC" --timeout 10
