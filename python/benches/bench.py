"""Benchmarks of the Python package (issue 15's targets):

1. `solve_many` on N (default 1,000,000) random 3×3 start/goal pairs: pairs
   per second, first call (which builds the nine goal-blank tables) and
   then RUNS warm calls, median and best; uint8 and int64 input.
2. The per-call overhead of `solve` on a 3×3 board after the first call:
   wall time per call minus the search time the library reports
   (`Solution.stats.seconds`), on each path the planner can take —
   the table once it is built (`auto`), `algorithm="table"`, and IDA*
   (`auto` before the table is built; measured as `algorithm="idastar"`,
   which plans and searches the same way).

    python python/benches/bench.py                 # the targets
    N=200000 RUNS=3 python python/benches/bench.py
    NPUZZLE_BIN=target/release/npuzzle python python/benches/bench.py   # plus `npuzzle batch` on the same pairs

Timings on a shared machine are noisy: each figure is the median of
several runs, printed with the best, the CPU time and the load average.
With NPUZZLE_BIN set, the same pairs also go through `npuzzle batch` in
the same run, for a ratio measured side by side.
"""

import os
import statistics
import subprocess
import tempfile
import time
import timeit

import numpy as np

import npuzzle

N = int(os.environ.get("N", 1_000_000))
RUNS = int(os.environ.get("RUNS", 5))


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3]) if os.path.exists("/proc/loadavg") else "?"


def pairs(n, seed):
    rng = np.random.default_rng(seed)
    tiles = np.tile(np.arange(9, dtype=np.uint8), (n, 1))
    return rng.permuted(tiles, axis=1), rng.permuted(tiles, axis=1)


def throughput(label, starts, goals, runs):
    rates, cpus = [], []
    for _ in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        moves = npuzzle.solve_many(starts, goals)
        t, c = time.perf_counter() - t0, time.process_time() - c0
        assert moves.shape == (len(starts),)
        rates.append(len(starts) / t)
        cpus.append(c / t)
    print(
        f"  {label:<28} median {statistics.median(rates):>12,.0f} pairs/s   best {max(rates):>12,.0f}"
        f"   cpu/wall {statistics.median(cpus):.2f}   ({runs} runs)"
    )
    return moves


def bench_many():
    print(f"solve_many: {N:,} random 3x3 start/goal pairs; {os.cpu_count()} cores; load average {load()}")
    starts, goals = pairs(N, 1)
    t0 = time.perf_counter()
    moves = npuzzle.solve_many(starts, goals)
    t = time.perf_counter() - t0
    print(f"  {'first call (builds tables)':<28} {N / t:>19,.0f} pairs/s   ({t:.3f} s)")
    throughput("uint8", starts, goals, RUNS)
    throughput("int64", starts.astype(np.int64), goals.astype(np.int64), RUNS)
    reachable = moves[moves >= 0]
    print(f"  unreachable: {np.mean(moves < 0):.3f}; mean moves of the others: {reachable.mean():.3f}")
    binary = os.environ.get("NPUZZLE_BIN")
    if binary:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "pairs.txt")
            with open(path, "w") as f:
                for s, g in zip(starts.tolist(), goals.tolist()):
                    f.write(" ".join(map(str, s)) + " | " + " ".join(map(str, g)) + "\n")
            rates = []
            for _ in range(RUNS):
                t0 = time.perf_counter()
                out = subprocess.run([binary, "batch", "-q", path], capture_output=True, text=True, check=True)
                rates.append(N / (time.perf_counter() - t0))
            got = np.array(out.stdout.split(), dtype=np.int32)
            assert np.array_equal(got, moves), "npuzzle batch disagrees with solve_many"
            print(
                f"  {'npuzzle batch (same pairs)':<28} median {statistics.median(rates):>12,.0f} lines/s   "
                f"best {max(rates):>12,.0f}   (same answers)"
            )
    print(f"  load average after: {load()}")


def per_call(label, args, kwargs, number=20_000, repeat=7):
    npuzzle.solve(*args, **kwargs)  # the first call (tables, imports) is not counted
    times = [t / number for t in timeit.repeat(lambda: npuzzle.solve(*args, **kwargs), number=number, repeat=repeat)]
    sol = npuzzle.solve(*args, **kwargs)
    search = statistics.median(npuzzle.solve(*args, **kwargs).stats.seconds for _ in range(1000))
    total = statistics.median(times)
    print(
        f"  {label:<44} {total * 1e6:7.2f} us/call (best {min(times) * 1e6:6.2f})   "
        f"search {search * 1e6:6.2f} us   overhead {(total - search) * 1e6:7.2f} us   [{sol.algorithm}]"
    )


def bench_solve():
    print(f"\nsolve on one 3x3 board (5 moves), after the first call; load average {load()}")
    start, goal = "2 8 3 1 6 4 7 0 5", "1 2 3 8 0 4 7 6 5"
    # IDA* first, before anything builds this goal's table: `auto` plans IDA*.
    per_call("auto, table not built (IDA*), path", (start, goal), {})
    per_call("algorithm='idastar', path", (start, goal), {"algorithm": "idastar"})
    per_call("algorithm='table', path", (start, goal), {"algorithm": "table"})
    per_call("algorithm='table', path=False", (start, goal), {"algorithm": "table", "path": False})
    per_call("auto, table built (table), path", (start, goal), {})
    per_call("auto, table built (table), path=False", (start, goal), {"path": False})
    boards = (npuzzle.Board(start), npuzzle.Board(goal))
    per_call("auto, table built, Board arguments", boards, {"path": False})
    per_call("auto, table built, list arguments", (list(boards[0].tiles), list(boards[1].tiles)), {"path": False})


if __name__ == "__main__":
    bench_solve()
    print()
    bench_many()
