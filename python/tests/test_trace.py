"""npuzzle.trace: a search watched, checked against plain-Python searches
and against its own totals (layers, expansions by f, iterations, the cap on
events), its events replayed move by move."""

import sys
import time
from collections import Counter

import pytest

import npuzzle
from helpers import replay

START, GOAL = "2 8 3 1 6 4 7 0 5", "1 2 3 8 0 4 7 6 5"  # 5 moves
HARD8 = "8 6 7 2 5 4 3 0 1"  # 31 moves to blank-last, the hardest 8-puzzle
# A random 15-puzzle, 48 moves from blank-last: DFID would need days.
DEEP15 = npuzzle.Board.random(4, 4, seed=5)
WATCHED = ["bfs", "bfs-hash", "bfs-set", "bibfs", "astar", "wastar", "greedy", "idastar", "dfid"]


@pytest.mark.parametrize(
    "start,goal,cols",
    [(START, GOAL, 3), ("4 1 2 3 5 6 7 0", "blank-first", 4), ("1 3 5 7 2 4 6 0", None, 4)],
    ids=["3x3", "2x4-korf", "2x4"],
)
def test_bfs_layers_are_a_plain_bfs(start, goal, cols, bfs):
    t = npuzzle.trace(start, goal, algorithm="bfs", shape=(None if cols == 3 else (2, 4)), max_events=0)
    assert t.moves is not None and len(t.layers) == t.moves + 1
    # Distances are symmetric: a plain BFS from the start counts each layer.
    tiles = t.start.tiles
    per_depth = Counter(bfs(tiles, cols, t.moves).values())
    assert t.layers[:-1] == [per_depth[d] for d in range(t.moves)]
    # The goal's layer is cut short when the goal turns up.
    assert 1 <= t.layers[-1] <= per_depth[t.moves]
    assert t.moves == bfs(t.goal.tiles, cols)[tuple(tiles)]


def test_astar_expands_in_order_of_f_with_manhattan():
    t = npuzzle.trace(HARD8, algorithm="astar", heuristic="manhattan", max_events=10**6)
    assert (t.moves, t.events_dropped) == (31, 0)
    expanded = [e for e in t.events if e["event"] == "expanded"]
    f = [e["g"] + e["h"] for e in expanded]
    assert f == sorted(f)  # manhattan is consistent: f never falls
    # The goal is told when A* comes to expand it, last, and not counted.
    assert expanded[-1]["goal"] is True and expanded[-1]["tiles"] == list(t.goal.tiles)
    assert sum(not e.get("goal") for e in expanded) == t.expanded
    by_f = Counter(x for x, e in zip(f, expanded) if not e.get("goal"))
    assert t.expanded_by_f == sorted([k, n] for k, n in by_f.items())


@pytest.mark.parametrize("algorithm", ["idastar", "dfid"])
def test_iterations_add_up_and_end_at_the_answer(algorithm):
    board = START if algorithm == "dfid" else HARD8
    goal = GOAL if algorithm == "dfid" else None
    t = npuzzle.trace(board, goal, algorithm=algorithm, heuristic="auto", max_events=0)
    assert t.iterations, t.summary()
    assert sum(it["expanded"] for it in t.iterations) == t.expanded
    bounds = [it["bound"] for it in t.iterations]
    assert bounds == sorted(set(bounds)) and bounds[-1] == t.moves
    assert t.expanded_by_f == [] and t.max_open is None


def test_the_cap_keeps_the_first_events_and_counts_the_rest():
    whole = npuzzle.trace(START, GOAL, algorithm="bfs", max_events=10**6)
    assert whole.events_dropped == 0 and len(whole.events) > 10
    for cap in (0, 1, 10):
        t = npuzzle.trace(START, GOAL, algorithm="bfs", max_events=cap)
        assert len(t.events) == cap and t.max_events == cap
        assert t.events_dropped == len(whole.events) - cap
        assert t.events == whole.events[:cap]
        # The summary does not depend on the events kept.
        assert t.layers == whole.layers and t.expanded == whole.expanded


@pytest.mark.parametrize("algorithm", WATCHED)
def test_every_child_is_its_parent_moved(algorithm):
    t = npuzzle.trace(START, GOAL, algorithm=algorithm, max_events=10**6)
    assert t.algorithm == algorithm and t.moves == 5
    assert t.path is not None and replay(t.start.tiles, 3, t.path) == t.goal.tiles
    seen = {}  # side -> the boards expanded so far
    last = {}  # (side, depth) -> the board expanded last at that depth
    for e in t.events:
        side, tiles = e.get("side"), tuple(e.get("tiles", ()))
        if e["event"] == "expanded":
            if "via" in e:  # the parent: this board with the blank moved back
                back = {"U": "D", "D": "U", "L": "R", "R": "L"}[e["via"]]
                assert replay(tiles, 3, back) in seen[side]
            else:
                assert e["g"] == 0 and tiles in (t.start.tiles, t.goal.tiles)
            seen.setdefault(side, set()).add(tiles)
            last[side, e["g"]] = tiles
        elif e["event"] == "generated":
            # (depth-first searches come back to a node after its subtree)
            assert replay(last[side, e["g"] - 1], 3, e["via"]) == tiles
            assert e["fate"] in {"queued", "duplicate", "pruned"}


def test_bidirectional_search_meets_at_the_answer():
    t = npuzzle.trace(START, GOAL, algorithm="bibfs")
    assert t.meet["forward"] + t.meet["backward"] == t.moves == 5
    assert t.forward_layers[0] == t.backward_layers[0] == 1
    met = [e for e in t.events if e["event"] == "met"]
    assert len(met) == 1 and met[0]["tiles"] == t.meet["board"]
    assert {e.get("side") for e in t.events if e["event"] == "expanded"} == {"forward", "backward"}


def test_the_summary_as_attributes_and_a_dict():
    t = npuzzle.trace(START, GOAL, algorithm="astar", heuristic="manhattan")
    s = t.summary()
    assert s["algorithm"] == t.algorithm == "astar" and s["heuristic"] == t.heuristic == "manhattan"
    assert (t.rows, t.cols, t.optimal, t.path) == (3, 3, True, "UULDR")
    assert s["start"] == list(t.start.tiles) and t.goal == npuzzle.Board(GOAL)
    assert t.branching_factor == pytest.approx(s["branching_factor"]) and t.branching_factor > 1
    # What A* has none of is empty, not missing.
    assert (t.layers, t.iterations, t.meet, t.memory) == ([], [], None, None)
    # A fresh dict each time: a change to one is nobody else's.
    s["expanded_by_f"].clear()
    assert t.summary()["expanded_by_f"] and t.expanded_by_f
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        t.nonsense
    assert {"layers", "iterations", "events_frame", "moves"} <= set(dir(t))
    assert repr(t).startswith("Trace(algorithm='astar', heuristic='manhattan', moves=5, expanded=")


def test_bfs_says_what_it_held():
    sets = {a: npuzzle.trace(START, GOAL, algorithm=a, max_events=0).memory for a in ("bfs", "bfs-hash", "bfs-set")}
    assert len({m["set"] for m in sets.values()}) == 3
    assert all(m["visited_bytes"] > 0 and m["nodes_bytes"] > 0 for m in sets.values())


def test_unreachable_and_refused():
    t = npuzzle.trace("1 2 3 4 5 6 8 7 0")
    assert (t.moves, t.path, t.events, t.branching_factor) == (None, None, [], None)
    assert "cannot be reached" in t._repr_html_()
    with pytest.raises(ValueError, match="table cannot be watched"):
        npuzzle.trace(START, GOAL, algorithm="table")
    # (the planner answers a 6x6 board with the fast solver)
    with pytest.raises(ValueError, match=r"fast cannot be watched.*algorithm='auto' chose it"):
        npuzzle.trace(npuzzle.Board.random(6, 6, seed=1), algorithm="auto")
    with pytest.raises(ValueError, match="appears twice"):
        npuzzle.trace("2 8 3 1 6 4 7 5 5")
    with pytest.raises(ValueError):
        npuzzle.trace(START, algorithm="quick")
    with pytest.raises(ValueError, match="weight"):
        npuzzle.trace(START, GOAL, algorithm="wastar", weight=0.5)


def test_a_spent_budget_is_budget_exceeded():
    start = npuzzle.Board.random(4, 4, seed=1)
    with pytest.raises(npuzzle.BudgetExceeded, match="max_states") as e:
        npuzzle.trace(start, algorithm="bfs", budget={"max_states": 1000})
    assert e.value.limit == "states" and e.value.stats.expanded > 0


def test_events_frame_columns():
    pd = pytest.importorskip("pandas", reason="pandas is not installed (pip install pandas)")
    t = npuzzle.trace(START, GOAL, algorithm="astar", heuristic="manhattan")
    df = t.events_frame()
    assert len(df) == len(t.events)
    assert list(df.columns[:6]) == ["event", "g", "h", "via", "fate", "open"]
    assert {"closed", "goal", "tiles"} <= set(df.columns)
    assert set(df["event"]) == {"expanded", "generated"}
    assert (df[df.event == "generated"]["fate"].notna()).all()
    ida = npuzzle.trace(START, GOAL, algorithm="idastar").events_frame()
    assert {"bound", "expanded"} <= set(ida.columns)
    assert isinstance(npuzzle.trace(START, GOAL, max_events=0).events_frame(), pd.DataFrame)


def test_events_frame_without_pandas(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with pytest.raises(ImportError, match="pip install pandas"):
        npuzzle.trace(START, GOAL).events_frame()


def test_ctrl_c_stops_a_trace(sigint_raises):
    import _thread
    import threading

    # DFID has no heuristic, so it is traced off the calling thread on every
    # board, that Ctrl-C can stop it. The board must take it far longer than
    # the timer on any machine: the hardest 8-puzzle takes it only about a
    # third of a second, a 15-puzzle 40 moves deep hours.
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            npuzzle.trace(DEEP15, algorithm="dfid", budget={"timeout": 60, "max_nodes": 10**12})
    finally:
        timer.cancel()
        timer.join()
    assert time.monotonic() - t0 < 10
