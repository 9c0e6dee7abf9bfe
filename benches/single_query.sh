#!/usr/bin/env bash
# One query, as whole processes: `npuzzle solve` on the 31-move seed
# instance (2 6 4 1 3 7 0 5 8 -> 8 1 5 7 3 6 4 0 2) beside the textbook's
# Cantor-code BFS program, compiled with g++ -O2 from the peers folder
# beside the checkout (it stays outside the crate). Runs alternate, so both
# see the same machine; prints the median and quartiles of each and the
# ratio of the medians.
#
#   benches/single_query.sh                  # 200 runs each
#   RUNS=50 PEER=path/to/seed001_cantor_bfs.cpp benches/single_query.sh
#   EXTRA="/tmp/old-npuzzle solve" benches/single_query.sh   # a third command
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-200}
PEER=${PEER:-../shared/peers/seed001_cantor_bfs.cpp}
cargo build --release --quiet
BIN=${CARGO_TARGET_DIR:-target}/release/npuzzle
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ ! -f "$PEER" ]; then
    echo "no peer program at $PEER (set PEER=...)" >&2
    exit 2
fi
g++ -O2 -o "$TMP/seed001" "$PEER"
echo "2 6 4 1 3 7 0 5 8 8 1 5 7 3 6 4 0 2" > "$TMP/in.txt"
python3 - "$RUNS" "$TMP/in.txt" "$TMP/seed001" "$BIN solve" ${EXTRA:+"$EXTRA"} <<'PY'
import statistics, subprocess, sys, time
runs, infile, *cmds = sys.argv[1:]
runs = int(runs)
times = {c: [] for c in cmds}
outs = {}
for _ in range(runs):
    for c in cmds:
        with open(infile) as f:
            t0 = time.perf_counter()
            out = subprocess.run(c.split(), stdin=f, capture_output=True, check=True).stdout
            times[c].append(time.perf_counter() - t0)
        outs[c] = out.decode().strip()
base = statistics.median(times[cmds[0]])
print(f"{runs} runs each, alternating; answer of each: " + ", ".join(f"{outs[c]}" for c in cmds))
for c in cmds:
    t = sorted(times[c])
    q1, med, q3 = t[len(t) // 4], statistics.median(t), t[3 * len(t) // 4]
    print(f"{c:<50} median {med * 1e3:8.3f} ms  (quartiles {q1 * 1e3:.3f} .. {q3 * 1e3:.3f})  {med / base:6.3f}x the first")
PY
