#!/usr/bin/env bash
# Quality and speed of the fast constructive solver (src/large/, issue 12).
#
# Runs examples/fast_quality.rs with a release build:
#   1. random n×n boards (standard goal, fixed seeds): n = 10, 20, 50, 100,
#      200 (10 boards each) and 1000 (3 boards), printing the mean moves, the
#      ratio to Parberry's 8/3·n³ and to the Manhattan lower bound, median
#      wall and CPU seconds per board, and the peak memory of the process;
#   2. Korf & Felner's 50 24-puzzle instances (data/korf24_50.txt): the
#      mean ratio of the fast answer to the optimal length.
# The 1000×1000 boards take a minute or more each; SIZES overrides the
# list (SIZE:COUNT ...), e.g. SIZES="10:10 100:10" benches/fast.sh.
# CHECK=1 also replays every path against its goal while it streams.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"10:10 20:10 50:10 100:10 200:10 1000:3"}
cargo build --release --quiet --example fast_quality
BIN=${CARGO_TARGET_DIR:-target}/release/examples/fast_quality
FLAGS=(--detail)
if [[ -n "${CHECK:-}" ]]; then FLAGS+=(--check); fi
# shellcheck disable=SC2086  # SIZES is a list of words
"$BIN" "${FLAGS[@]}" $SIZES
"$BIN" --korf data/korf24_50.txt
