"""One puzzle, every search watched: BFS layer by layer, A* by f, IDA* iteration by iteration.

Run it as a script, or cell by cell in a notebook (the `# %%` markers; there
the boards, the solution and each trace draw themselves):

    python python/examples/trace_search.py                      # the textbook 8-puzzle, 5 moves
    python python/examples/trace_search.py "8 6 7 2 5 4 3 0 1"  # any board (goal: blank-last)
    python python/examples/trace_search.py START GOAL --html trace.html

It prints what each search cost and its per-depth summary, A*'s first
expansions, and with pandas how A*'s children fared; `--html` writes a page
with the pictures a notebook shows.
"""

# %%
import argparse
import html

import npuzzle

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("start", nargs="?", help="a board (default: a 5-move 8-puzzle)")
parser.add_argument("goal", nargs="?", help="a board or a goal name (default: blank-last)")
parser.add_argument("--html", help="write the pictures to this HTML file")
args, _ = parser.parse_known_args()  # (a notebook passes arguments of its own)
if args.start is None:
    args.start, args.goal = "2 8 3 1 6 4 7 0 5", "1 2 3 8 0 4 7 6 5"
goal = args.goal

# %% The answer, then every search that can be watched.
sol = npuzzle.solve(args.start, goal)
print(f"{sol.start.format('rows')}  ->  {sol.goal.format('rows')}: {sol.moves} moves, {sol.path}\n")
algorithms = ["bfs", "bibfs", "astar", "wastar", "greedy", "idastar"]
if sol.moves is not None and sol.moves <= 12:
    algorithms.append("dfid")  # no heuristic: hopeless much deeper
traces = {a: npuzzle.trace(args.start, goal, algorithm=a, max_events=100_000) for a in algorithms}

print(f"{'algorithm':<10}{'heuristic':<17}{'moves':>6}{'optimal':>9}{'expanded':>10}{'generated':>11}{'b*':>8}")
for t in traces.values():
    b = "-" if t.branching_factor is None else f"{t.branching_factor:.3f}"
    moves = "-" if t.moves is None else t.moves
    print(f"{t.algorithm:<10}{t.heuristic or '-':<17}{moves:>6}{str(t.optimal):>9}{t.expanded:>10}{t.generated:>11}{b:>8}")

# %% Breadth-first search, layer by layer: how the frontier grows.
bfs = traces["bfs"]
print("\nBFS: states first reached at each depth (the goal's layer cut short)")
widest = max(bfs.layers, default=1)
for depth, states in enumerate(bfs.layers):
    print(f"{depth:>5} {states:>8}  {'#' * max(1, round(40 * states / widest))}")
if bfs.memory:
    print(f"visited set: {bfs.memory['set']}, {bfs.memory['visited_bytes']} bytes")
meet = traces["bibfs"].meet
if meet:
    print(f"bidirectional BFS met {meet['forward']} moves from the start, {meet['backward']} from the goal")

# %% A*, by f = g + h, and its first expansions.
astar = traces["astar"]
print(f"\nA* with {astar.heuristic}: nodes expanded at each f")
for f, n in astar.expanded_by_f:
    print(f"{f:>5} {n:>8}")
print("its first expansions (g, h, the move that made the board):")
expanded = [e for e in astar.events if e["event"] == "expanded"]
for e in expanded[:5]:
    print(f"  g={e['g']:<3} h={e['h']:<3} via {e.get('via', '-')}  {e['tiles']}")

# %% IDA*, iteration by iteration: each bound, the nodes under it.
ida = traces["idastar"]
print(f"\nIDA* with {ida.heuristic}: iterations")
for it in ida.iterations:
    print(f"{it['bound']:>5} {it['expanded']:>8}")
assert sum(it["expanded"] for it in ida.iterations) == ida.expanded

# %% How A*'s children fared (pandas).
try:
    import pandas  # noqa: F401
except ImportError:
    print("\n(pip install pandas to count A*'s children by fate)")
else:
    df = astar.events_frame()
    fates = df[df["event"] == "generated"]["fate"].value_counts()
    print("\nA*'s children by fate:", ", ".join(f"{k} {v}" for k, v in fates.items()))
    if astar.events_dropped:
        print(f"(of the first {len(df)} events; {astar.events_dropped} more not kept)")

# %% The pictures a notebook shows, as one page.
if args.html:
    parts = [f"<h1>{html.escape(sol.start.format('rows'))}</h1>", sol._repr_html_()]
    parts += [f"<h2>{t.algorithm}</h2>{t._repr_html_()}" for t in traces.values()]
    with open(args.html, "w", encoding="utf-8") as out:
        out.write("<!DOCTYPE html><meta charset='utf-8'><title>npuzzle trace</title>" + "".join(parts))
    print(f"\nwrote {args.html}")
