"""Every algorithm and heuristic on one puzzle, side by side.

Run it as a script, or cell by cell in a notebook (the `# %%` markers):

    python python/examples/compare_algorithms.py                      # the textbook 31-move 8-puzzle
    python python/examples/compare_algorithms.py "8 6 7 2 5 4 3 0 1"  # any board (goal: blank-last)
    python python/examples/compare_algorithms.py START GOAL --plot nodes.png

With matplotlib installed it draws the nodes each search expanded (log
scale) and saves the chart (default: compare_algorithms.png); without it,
it prints the table.
"""

# %%
import argparse
import sys

import npuzzle

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("start", nargs="?", help="a board (default: a 31-move 8-puzzle)")
parser.add_argument("goal", nargs="?", help="a board or a goal name (default: blank-last)")
parser.add_argument("--plot", default="compare_algorithms.png", help="where to save the chart")
args, _ = parser.parse_known_args()  # (a notebook passes arguments of its own)
if args.start is None:
    args.start, args.goal = "2 6 4 1 3 7 0 5 8", "8 1 5 7 3 6 4 0 2"
goal = args.goal

# %% Solve it once, then run every combination.
sol = npuzzle.solve(args.start, goal)
print(f"{sol.start.format('rows')}  ->  {sol.goal.format('rows')}")
print(f"{sol.moves} moves: {sol.path}  ({sol.plan})\n")
rows = npuzzle.compare(args.start, goal)

# %% The table (a pandas DataFrame when pandas is there).
try:
    import pandas as pd

    print(pd.DataFrame(rows).fillna("-").to_string(index=False))
except ImportError:
    print(f"{'algorithm':<10}{'heuristic':<17}{'moves':>6}{'expanded':>12}{'generated':>12}{'peak states':>13}{'ms':>10}")
    for r in rows:
        moves = "-" if r["moves"] is None else r["moves"]
        print(
            f"{r['algorithm']:<10}{r['heuristic'] or '-':<17}{moves:>6}{r['expanded']:>12}"
            f"{r['generated']:>12}{r['peak_states']:>13}{r['seconds'] * 1e3:>10.2f}"
        )
answers = {r["moves"] for r in rows if r["moves"] is not None}
print(f"\nall answers agree: {answers}" if len(answers) == 1 else f"\nanswers DISAGREE: {answers}")

# %% The chart: nodes expanded by each search that ran.
try:
    import matplotlib

    if "ipykernel" not in sys.modules:
        matplotlib.use("Agg")  # a script draws into a file, display or not
    import matplotlib.pyplot as plt
except ImportError:
    print("(pip install matplotlib to plot the nodes each search expanded)")
else:
    ran = [r for r in rows if r["moves"] is not None and r["expanded"] > 0]
    labels = [r["algorithm"] + (f" + {r['heuristic']}" if r["heuristic"] else "") for r in ran]
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(ran) + 1.2))
    ax.barh(labels, [r["expanded"] for r in ran], color="tab:blue")
    ax.set_xscale("log")
    ax.invert_yaxis()
    ax.set_xlabel("nodes expanded (log scale)")
    ax.set_title(f"{sol.start.format('rows')} to {sol.goal.format('rows')}: {sol.moves} moves")
    fig.tight_layout()
    fig.savefig(args.plot, dpi=120)
    print(f"chart saved to {args.plot}")
    if "ipykernel" in sys.modules:
        plt.show()
