"""npuzzle.solve: the seed examples, every form of board, paths replayed in
plain Python, answers against a plain breadth-first search."""

import random

import numpy as np
import pytest

import npuzzle
from helpers import replay

SEED = "2 8 3 1 6 4 7 0 5"
SEED_GOAL = "1 2 3 8 0 4 7 6 5"
HARD = "2 6 4 1 3 7 0 5 8"
HARD_GOAL = "8 1 5 7 3 6 4 0 2"


def test_the_seed_examples():
    sol = npuzzle.solve(SEED, goal=SEED_GOAL)
    assert sol.moves == 5
    assert sol.solvable and sol.optimal
    assert replay(sol.start.tiles, 3, sol.path) == sol.goal.tiles
    assert npuzzle.solve(SEED, goal=SEED_GOAL, count_start=True).moves == 6
    sol = npuzzle.solve(HARD, goal=HARD_GOAL)
    assert sol.moves == 31
    assert len(sol.path) == 31
    assert replay(sol.start.tiles, 3, sol.path) == tuple(map(int, HARD_GOAL.split()))


@pytest.mark.parametrize(
    "start",
    [
        "2 8 3 1 6 4 7 0 5",
        "2 8 3/1 6 4/7 0 5",
        "2 8 3\n1 6 4\n7 _ 5",
        "[[2,8,3],[1,6,4],[7,0,5]]",
        "283164705",
        [2, 8, 3, 1, 6, 4, 7, 0, 5],
        (2, 8, 3, 1, 6, 4, 7, 0, 5),
        [[2, 8, 3], [1, 6, 4], [7, 0, 5]],
        np.array([[2, 8, 3], [1, 6, 4], [7, 0, 5]]),
        np.array([2, 8, 3, 1, 6, 4, 7, 0, 5], dtype=np.uint8),
        npuzzle.Board(SEED),
        range(0, 0),  # replaced below: an iterable that is not a list
    ],
)
def test_every_form_of_a_board(start):
    if isinstance(start, range):
        start = iter([2, 8, 3, 1, 6, 4, 7, 0, 5])
    sol = npuzzle.solve(start, goal="spiral")
    assert sol.moves == 5
    assert sol.start == npuzzle.Board(SEED)
    assert sol.goal.tiles == (1, 2, 3, 8, 0, 4, 7, 6, 5)


def test_goals_by_name_inline_and_default():
    assert npuzzle.solve(SEED + " | spiral").moves == 5
    assert npuzzle.solve(SEED + " | " + SEED_GOAL).moves == 5
    # 2·n numbers: the start, then the goal (the textbook programs' input).
    assert npuzzle.solve(HARD + " " + HARD_GOAL).moves == 31
    assert npuzzle.solve("1 2 3 4 5 6 7 0 8").moves == 1  # blank-last
    assert npuzzle.solve("0 1 2 3 4 5 6 7 8", goal="blank-first").moves == 0
    # A flat goal takes the start's shape.
    sol = npuzzle.solve([1, 2, 3, 4, 5, 6, 0, 7], [1, 2, 3, 4, 5, 6, 7, 0], shape=(2, 4))
    assert (sol.moves, sol.path, sol.start.shape) == (1, "R", (2, 4))
    assert npuzzle.solve("1 2 3 4 5 6 0 7", shape="2x4").moves == 1


def test_unreachable_goals():
    sol = npuzzle.solve("1 2 3 4 5 6 8 7 0")
    assert sol.moves is None and not sol.solvable
    assert sol.path is None and sol.boards() == []
    assert sol.algorithm == "parity"
    assert sol.to_dict()["moves"] == -1
    assert npuzzle.solve("1 2 3 4 5 6 8 7 0", count_start=True).moves is None


def test_boards_follow_the_path():
    sol = npuzzle.solve(HARD, goal=HARD_GOAL)
    boards = sol.boards()
    assert len(boards) == 32
    assert boards[0] == sol.start and boards[-1] == sol.goal
    for i, m in enumerate(sol.path):
        assert replay(boards[i].tiles, 3, m) == boards[i + 1].tiles
        assert boards[i].apply(m) == boards[i + 1]
    no_path = npuzzle.solve(HARD, goal=HARD_GOAL, path=False)
    assert no_path.path is None and no_path.moves == 31
    with pytest.raises(ValueError, match="path=True"):
        no_path.boards()


@pytest.mark.parametrize(
    "algorithm,heuristic",
    [
        ("table", "auto"),
        ("bfs", "auto"),
        ("bfs-hash", "auto"),
        ("bfs-set", "auto"),
        ("bibfs", "auto"),
        ("astar", "misplaced"),
        ("astar", "manhattan"),
        ("idastar", "linear-conflict"),
        ("idastar", "manhattan"),
    ],
)
def test_every_algorithm_against_a_plain_bfs(algorithm, heuristic, bfs):
    goal = (1, 2, 3, 8, 0, 4, 7, 6, 5)
    dist = bfs(goal, 3)
    rng = random.Random(7)
    for _ in range(5):
        start = npuzzle.Board.random(3, 3, seed=rng.randrange(2**63), goal=list(goal))
        sol = npuzzle.solve(start, goal, algorithm=algorithm, heuristic=heuristic)
        assert sol.moves == dist[start.tiles], (start, algorithm)
        assert sol.algorithm == algorithm
        assert replay(start.tiles, 3, sol.path) == goal
        assert len(sol.path) == sol.moves


def test_other_shapes_against_a_plain_bfs(bfs):
    for rows, cols in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)]:
        goal = npuzzle.Board.goal(rows, cols, "spiral")
        dist = bfs(goal.tiles, cols)
        for seed in range(20):
            start = npuzzle.Board.random(rows, cols, seed=seed, goal=goal)
            sol = npuzzle.solve(start, goal)
            assert sol.moves == dist[start.tiles]
            assert replay(start.tiles, cols, sol.path) == goal.tiles


def test_15_puzzle_walks_against_a_plain_bfs_to_depth(bfs):
    goal = npuzzle.Board.goal(4, 4)
    dist = bfs(goal.tiles, 4, depth=12)
    for k in (0, 1, 2, 7, 12):
        for seed in range(4):
            start = npuzzle.Board.random(4, 4, seed=seed, moves=k)
            sol = npuzzle.solve(start, heuristic="linear-conflict")
            assert sol.moves == dist[start.tiles]
            assert replay(start.tiles, 4, sol.path) == goal.tiles


def test_bounded_suboptimal_answers_say_so():
    start = npuzzle.Board.random(4, 4, seed=3, moves=36)
    sol = npuzzle.solve(start, algorithm="wastar", heuristic="linear-conflict", weight=2.0)
    assert replay(start.tiles, 4, sol.path) == npuzzle.Board.goal(4, 4).tiles
    exact = npuzzle.solve(start, heuristic="linear-conflict")
    assert sol.moves >= exact.moves
    if sol.optimal:
        assert sol.moves == exact.moves and sol.lower_bound is None
    else:
        assert sol.lower_bound <= exact.moves <= sol.moves
        assert sol.ratio == pytest.approx(sol.moves / sol.lower_bound)
        assert "lower_bound=" in repr(sol)
    with pytest.raises(ValueError, match="not proven optimal"):
        npuzzle.solve(start, algorithm="wastar", optimal=True)


def test_solution_reports_what_ran():
    sol = npuzzle.solve(SEED, goal=SEED_GOAL, algorithm="idastar", heuristic="manhattan")
    assert sol.algorithm == "idastar" and sol.heuristic == "manhattan"
    assert sol.plan.startswith("idastar + manhattan")
    s = sol.stats
    assert s.expanded > 0 and s.generated >= s.expanded and s.seconds >= 0
    assert s.as_dict() == {
        "expanded": s.expanded,
        "generated": s.generated,
        "peak_states": s.peak_states,
        "seconds": s.seconds,
    }
    assert repr(sol) == (
        "Solution(moves=5, path='UULDR', algorithm='idastar', heuristic='manhattan', optimal=True)"
    )
    assert repr(s).startswith("Stats(expanded=")
    d = sol.to_dict()
    assert d["moves"] == 5 and d["path"] == "UULDR" and d["rows"] == 3
    assert set(d["stats"]) == {"expanded", "generated", "peak_states", "seconds"}


def test_fifteen_puzzle_with_pattern_databases(pdb_dir):
    # Korf's first instance: 57 moves in his published table
    # (data/korf100.txt); the databases go to a folder of the tests' own.
    korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    sol = npuzzle.solve(korf1, goal="blank-first", pdb_dir=pdb_dir, partition="5-5-5")
    assert sol.moves == 57 and sol.heuristic == "pdb"
    assert replay(sol.start.tiles, 4, sol.path) == tuple(range(16))
    assert any(pdb_dir.iterdir())


def test_more_partitions_are_maxed_with_the_first(pdb_dir):
    # Korf's first instance again: 5-5-5 maxed with a 6-6-3 in reading order, each
    # with its reflection; the same optimal length, the plan names them all.
    korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    one = npuzzle.solve(korf1, goal="blank-first", pdb_dir=pdb_dir, partition="5-5-5")
    both = npuzzle.solve(
        korf1,
        goal="blank-first",
        pdb_dir=pdb_dir,
        partition="5-5-5",
        also_partitions=["1,2,3,4,5,6/7,8,9,10,11,12/13,14,15"],
    )
    assert both.moves == one.moves == 57
    assert replay(both.start.tiles, 4, both.path) == tuple(range(16))
    assert "max with pdb" in both.plan, both.plan
    # more than four combine by their covers (a group named twice is one
    # database); more than 64 are refused
    five = npuzzle.solve(
        korf1,
        goal="blank-first",
        pdb_dir=pdb_dir,
        partition="5-5-5",
        also_partitions=["1,2,3,4,5,6/7,8,9,10,11,12/13,14,15", "5-5-5", "5-5-5", "5-5-5"],
    )
    assert five.moves == 57
    assert replay(five.start.tiles, 4, five.path) == tuple(range(16))
    assert "4 more partitions, by their covers" in five.plan, five.plan
    with pytest.raises(ValueError, match="at most 4 partitions can be maxed \\(up to 64"):
        npuzzle.solve(
            korf1,
            goal="blank-first",
            pdb_dir=pdb_dir,
            partition="5-5-5",
            also_partitions=["5-5-5"] * 64,
        )
    with pytest.raises(ValueError):
        npuzzle.solve(korf1, goal="blank-first", pdb_dir=pdb_dir, also_partitions=["9-9"])
