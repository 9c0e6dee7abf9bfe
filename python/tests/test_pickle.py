"""Results and errors pickle, and so cross process pools: Board, Stats,
Solution and BudgetExceeded come back equal, attributes and all."""

import copy
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

import npuzzle
from helpers import replay

# Some twenty moves from blank-last: IDA* with Manhattan needs more than a
# thousand nodes.
FIFTEEN = npuzzle.Board.random(4, 4, seed=11)


def round_trip(value):
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def test_stats_round_trip():
    stats = npuzzle.solve("8 6 7 2 5 4 3 0 1").stats
    back = round_trip(stats)
    assert back == stats and back is not stats
    assert back.as_dict() == stats.as_dict()
    assert round_trip(npuzzle.Stats()) == npuzzle.Stats(0, 0, 0, 0.0)
    assert npuzzle.Stats(1, 2, 3, 0.5).as_dict() == {
        "expanded": 1, "generated": 2, "peak_states": 3, "seconds": 0.5
    }
    assert npuzzle.Stats(1, 2, 3, 0.5) != npuzzle.Stats(1, 2, 3, 0.25)
    with pytest.raises(ValueError, match="seconds must be a finite number from 0"):
        npuzzle.Stats(seconds=-1.0)


@pytest.mark.parametrize(
    "start,kwargs",
    [
        ("8 6 7 2 5 4 3 0 1", {}),  # the complete table
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "bfs"}),
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "bfs-hash"}),
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "bfs-set"}),
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "bibfs"}),
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "astar", "heuristic": "manhattan"}),
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "idastar", "heuristic": "misplaced"}),
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "idastar", "heuristic": "pdb"}),
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "wastar", "weight": 2.0}),
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "anytime"}),
        ("8 6 7 2 5 4 3 0 1", {"algorithm": "fast"}),
        ("8 6 7 2 5 4 3 0 1", {"path": False, "count_start": True}),
        ("1 2 3 4 5 6 8 7 0", {}),  # unreachable
        ("1 2 3 4 5 6 8 7 0", {"algorithm": "idastar"}),
        ("1 2 3 4 5 6 0 7", {"shape": (2, 4), "goal": "spiral"}),
        (FIFTEEN, {"threads": 2, "heuristic": "linear-conflict"}),
    ],
)
def test_solutions_round_trip_equal(start, kwargs, pdb_dir):
    sol = npuzzle.solve(start, pdb_dir=pdb_dir, **kwargs)
    back = round_trip(sol)
    assert back == sol and not back != sol
    for attr in ("moves", "solvable", "path", "start", "goal", "optimal", "lower_bound",
                 "ratio", "algorithm", "heuristic", "plan", "stats", "iterations"):
        assert getattr(back, attr) == getattr(sol, attr), attr
    assert back.to_dict() == sol.to_dict()
    assert repr(back) == repr(sol)
    if sol.path is not None:
        assert back.boards() == sol.boards()
    assert copy.deepcopy(sol) == sol


def test_solutions_of_different_answers_differ():
    a = npuzzle.solve("8 6 7 2 5 4 3 0 1")
    assert a != npuzzle.solve("8 6 7 2 5 4 3 0 1", path=False)
    assert a != npuzzle.solve("8 6 7 2 5 4 3 0 1", count_start=True)
    assert a != npuzzle.solve("1 2 3 4 5 6 7 0 8")
    assert a != "a solution"


def test_a_damaged_pickle_is_a_value_error():
    sol = npuzzle.solve("1 2 3 4 5 6 7 0 8")
    restore, (start, goal, answer, stats, *rest) = sol.__reduce__()
    assert restore(start, goal, answer, stats, *rest) == sol
    bad_algorithm = answer[:3] + ("quantum",) + answer[4:]
    with pytest.raises(ValueError, match="'quantum' is not an algorithm"):
        restore(start, goal, bad_algorithm, stats, *rest)
    bad_path = answer[:2] + ("UX",) + answer[3:]
    with pytest.raises(ValueError, match="'X' \\(move 2\\) is not a move"):
        restore(start, goal, bad_path, stats, *rest)
    with pytest.raises(ValueError, match="one shape"):
        restore(start, npuzzle.Board.goal(2, 2), answer, stats, *rest)
    with pytest.raises(ValueError, match="not below a second"):
        restore(start, goal, answer, stats[:4] + (10**9,), *rest)


def test_budget_exceeded_round_trips_with_limit_and_stats():
    with pytest.raises(npuzzle.BudgetExceeded) as e:
        npuzzle.solve(FIFTEEN, algorithm="idastar", heuristic="manhattan", budget={"max_nodes": 1000})
    err = e.value
    back = round_trip(err)
    assert type(back) is npuzzle.BudgetExceeded and isinstance(back, RuntimeError)
    assert str(back) == str(err)
    assert back.args == err.args
    assert back.limit == "nodes"
    assert back.stats == err.stats and back.stats.expanded == 1000


def test_a_process_pool_returns_answers_and_raises_budget_exceeded():
    # A spent budget arrived as "TypeError: cannot pickle 'npuzzle.Stats'
    # object"; it must arrive as itself. (spawn: a fresh interpreter, so
    # every value really crosses as a pickle.)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        solved = pool.submit(npuzzle.solve, "8 6 7 2 5 4 3 0 1").result(timeout=120)
        spent = pool.submit(
            npuzzle.solve,
            FIFTEEN,
            algorithm="idastar",
            heuristic="manhattan",
            budget={"max_nodes": 1000},
        )
        with pytest.raises(npuzzle.BudgetExceeded, match=r"node budget \(1000\)") as e:
            spent.result(timeout=120)
        boards = list(pool.map(npuzzle.Board, ["1 2 3 0", "2 8 3/1 6 4/7 0 5"], timeout=120))
    assert solved.moves == 31
    assert replay(solved.start.tiles, 3, solved.path) == solved.goal.tiles
    assert solved == round_trip(solved)
    assert e.value.limit == "nodes" and e.value.stats.expanded == 1000
    assert boards == [npuzzle.Board("1 2 3 0"), npuzzle.Board("2 8 3/1 6 4/7 0 5")]


def test_iterations_of_idastar_sum_to_its_nodes():
    sol = npuzzle.solve(FIFTEEN, algorithm="idastar", heuristic="manhattan")
    bounds = [b for b, _ in sol.iterations]
    assert bounds == sorted(set(bounds)) and bounds[-1] == sol.moves
    assert sum(n for _, n in sol.iterations) == sol.stats.expanded
    assert sol.to_dict()["iterations"] == [{"bound": b, "expanded": n} for b, n in sol.iterations]
    assert npuzzle.solve("8 6 7 2 5 4 3 0 1").iterations == []  # the table: no iterations
