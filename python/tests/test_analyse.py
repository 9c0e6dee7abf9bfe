"""npuzzle.analyse: every distance checked against a plain breadth-first
search in Python (helpers.bfs_distances, single moves; pushes counted by
a BFS of its own here), the detours against the distances."""

import random
from collections import deque

import pytest

import npuzzle
from helpers import bfs_distances

# Blank first: the blank-last 3x3 table, once built in this process, would
# change what the planner picks for other tests' 8-puzzles.
GOAL = (0, 1, 2, 3, 4, 5, 6, 7, 8)
BLANK_LAST = "1 2 3 4 5 6 7 8 0"
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def moved(t, d, cols=3):
    b = t.index(0)
    r, c = divmod(b, cols)
    r2, c2 = r + STEP[d][0], c + STEP[d][1]
    if not (0 <= r2 < len(t) // cols and 0 <= c2 < cols):
        return None
    n = list(t)
    o = r2 * cols + c2
    n[b], n[o] = n[o], n[b]
    return tuple(n)


def bfs_pushes(goal):
    """Distance in pushes (any run of tiles of the blank's row or column)."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        t = queue.popleft()
        for d in STEP:
            n = moved(t, d)
            while n is not None:
                if n not in dist:
                    dist[n] = dist[t] + 1
                    queue.append(n)
                n = moved(n, d)
    return dist


def walk(start, k, rng):
    path, t = [], start
    while len(path) < k:
        d = path[-1] if path and rng.random() < 0.3 else rng.choice("UDLR")
        n = moved(t, d)
        if n is not None:
            path.append(d)
            t = n
    return "".join(path)


def positions(start, path, metric):
    out, t = [start], start
    for i, d in enumerate(path):
        t = moved(t, d)
        if metric == "stm" or i + 1 == len(path) or path[i + 1] != d:
            out.append(t)
    return out


@pytest.mark.parametrize("metric", ["stm", "mtm"])
def test_distances_are_a_plain_bfs(metric):
    dist = bfs_distances(GOAL, 3) if metric == "stm" else bfs_pushes(GOAL)
    rng = random.Random(3)
    for _ in range(6):
        start = tuple(GOAL)
        start_path = walk(start, 20, rng)
        for d in start_path:
            start = moved(start, d)
        path = walk(start, 14, rng)
        a = npuzzle.analyse(list(start), path, goal=list(GOAL), metric=metric)
        want = [dist[p] for p in positions(start, path, metric)]
        assert a["metric"] == metric
        assert a["optimal"] == want[0] and a["to_go"] == want[-1]
        assert a["moves"] == len(want) - 1 == len(a["per_move"])
        for i, m in enumerate(a["per_move"]):
            assert (m["distance_before"], m["distance_after"]) == (want[i], want[i + 1])
            assert m["progress"] == (want[i + 1] < want[i])
            if not m["progress"]:
                assert m["detour"]
        assert a["wasted"] == (a["moves"] - want[0] if want[-1] == 0 else None)


def test_a_solution_with_a_detour_in_tile_notation():
    a = npuzzle.analyse("2 8 3 1 6 4 7 0 5", "D D R L R U L", goal="spiral", notation="tile")
    assert [m["move"] for m in a["per_move"]] == list("DDRLRUL")
    assert a["wasted"] == 2 and a["detours"][0]["moves"] == "L R"


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="move 3 \\(U, blank notation\\) cannot be made on 1 2 0/4 5 3/7 8 6"):
        npuzzle.analyse(BLANK_LAST, "UUU")
    with pytest.raises(ValueError, match="notation"):
        npuzzle.analyse(BLANK_LAST, "U", notation="blanks")
    with pytest.raises(ValueError, match="parity"):
        npuzzle.analyse("2 1 3 4 5 6 7 8 0", "U")
    with pytest.raises(ValueError, match="moves"):
        npuzzle.analyse(BLANK_LAST, "UX")
    with pytest.raises(ValueError, match="16 cells"):
        npuzzle.analyse(npuzzle.Board.goal(3, 6), "U")


def test_a_spent_budget_raises_budget_exceeded():
    korf = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    with pytest.raises(npuzzle.BudgetExceeded):
        npuzzle.analyse(korf, "U", goal="blank-first", budget={"max_nodes": 1000})
