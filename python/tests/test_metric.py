"""The multi-tile metric from Python: every answer against a plain-Python
breadth-first search whose pushes are single steps repeated."""

import pickle
from collections import deque

import numpy as np

import npuzzle
from helpers import STEP, replay


def pushes(tiles, rows, cols):
    """Every board one push away: the blank goes one or more cells along
    its row or column, each tile on the way sliding one cell."""
    for dr, dc in STEP.values():
        cur = list(tiles)
        while True:
            b = cur.index(0)
            r, c = divmod(b, cols)
            r2, c2 = r + dr, c + dc
            if not (0 <= r2 < rows and 0 <= c2 < cols):
                break
            t = r2 * cols + c2
            cur[b], cur[t] = cur[t], 0
            yield tuple(cur)


def mtm_distances(goal, rows, cols):
    dist = {tuple(goal): 0}
    queue = deque([tuple(goal)])
    while queue:
        b = queue.popleft()
        for n in pushes(b, rows, cols):
            if n not in dist:
                dist[n] = dist[b] + 1
                queue.append(n)
    return dist


def runs(path):
    return sum(1 for i, m in enumerate(path) if i == 0 or path[i - 1] != m)


def test_every_2x3_board_in_pushes():
    goal = (1, 2, 3, 4, 5, 0)
    dist = mtm_distances(goal, 2, 3)
    assert len(dist) == 360
    for board, d in dist.items():
        sol = npuzzle.solve(list(board), goal=list(goal), shape=(2, 3), metric="mtm")
        assert (sol.moves, sol.metric, sol.optimal) == (d, "mtm", True)
        assert tuple(replay(board, 3, sol.path)) == tuple(goal)
        assert runs(sol.path) == d


def test_the_8_puzzle_in_pushes_and_many_at_once():
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    dist = mtm_distances(goal, 3, 3)
    boards = sorted(dist)[::997]
    for board in boards[:40]:
        sol = npuzzle.solve(list(board), metric="mtm", algorithm="idastar")
        assert sol.moves == dist[board]
        assert tuple(replay(board, 3, sol.path)) == tuple(goal)
    many = npuzzle.solve_many(np.array(boards, dtype=np.uint8), shape=(3, 3), metric="mtm")
    assert many.tolist() == [dist[b] for b in boards]
    stm = npuzzle.solve("8 6 7 2 5 4 3 0 1")
    assert stm.metric == "stm" and stm.moves == 31


def test_the_metric_survives_pickling_and_bad_names_are_refused():
    sol = npuzzle.solve("1 2 3 4 5 6 0 7 8", metric="mtm")
    assert sol.moves == 1
    back = pickle.loads(pickle.dumps(sol))
    assert back.metric == "mtm" and back.moves == 1
    try:
        npuzzle.solve("1 2 3 4 5 6 0 7 8", metric="xtm")
    except ValueError as e:
        assert "stm" in str(e) and "mtm" in str(e)
    else:
        raise AssertionError("an unknown metric was accepted")
