#!/usr/bin/env bash
# Load test of `npuzzle serve` on 127.0.0.1 (loopback only, bounded: a few
# minutes on 2 cores): 10,000 mixed requests, 200 slow-loris connections and
# 7 new 4x4 goals at once, against a server with small pattern-database caps.
# Reports cheap-request latency p50/p99, answers lost (must be 0), the
# server's peak RSS and the growth of its cache directory (must stay under
# --pdb-disk). The server's cache lives in a temporary directory.
#
#   benches/server_load.sh                      # the defaults below
#   REQUESTS=2000 SLOW=50 GOALS=2 benches/server_load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin npuzzle --example server_load
exec target/release/examples/server_load \
    --npuzzle target/release/npuzzle \
    --requests "${REQUESTS:-10000}" \
    --slow "${SLOW:-200}" \
    --goals "${GOALS:-7}" \
    --workers "${WORKERS:-16}" \
    --pdb-memory "${PDB_MEMORY:-256M}" \
    --pdb-disk "${PDB_DISK:-512M}"
